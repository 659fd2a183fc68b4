#!/bin/sh
# t_gen_loss: hoplab-gen's loss and duplicate counts against the truth of
# an nftables rule's own counter, through one Linux kernel router.
#
# Lab (tools/genlab.sh, prefix hlt3, K 253 reserved though no management
# network is built): namespace hlt3-gen with interfaces tx and rx and no
# kernel address (hoplab-gen owns 198.18.0.1 and 198.18.100.2 in user
# space), kernel router hlt3-r1 between them (in 198.18.0.2/24, out
# 198.18.100.1/24), addresses as in docs/architecture.md.
#
# Each run sends 5000 probes of 64 bytes at 100 us to UDP port 9; the rule
# in the router's forward hook matches only those (ARP and anything else
# pass untouched), and is replaced before every run:
#
# 1. random:  numgen random mod 100 == 0 drop  (about 1 %, unknown count)
#    hoplab-gen's lost == the rule's counter, received == sent - counter,
#    and 10 <= counter <= 100 (Binomial(5000, 0.01) has mean 50 and std
#    7; outside that range the rule is not what we think, p < 1e-9).
# 2. nth:     numgen inc mod 100 == 0 drop  (every 100th, exactly 50)
#    lost == counter == 50.
# 3. dup:     numgen inc mod 50 == 0 dup to 198.18.100.2 device out
#    (the kernel sends a copy of every 50th probe on to the generator)
#    duplicates == counter == 100, lost 0.  If this kernel's nftables has
#    no dup support the check is skipped with a message.
#
# No timing is asserted.  Root; about 6 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

need_root
TMP=$(mktemp -d /tmp/hoplab-t-gen-loss.XXXXXX)
genlab_init hlt3
at_exit "genlab_down; rm -rf '$TMP'"
[ -x "$GL_GEN_BIN" ] || bail build "$GL_GEN_BIN not built (make bin/hoplab-gen)"
genlab_up 1 || bail lab_up "could not build the namespace lab"

COUNT=5000
FLOW="frame=64,count=$COUNT,idt=100us,dport=9,name=probe"

# rule NAME EXPR: replace the router's table with one forward rule that
# applies EXPR (with a counter) to the probes.
rule()
{
	ip netns exec hlt3-r1 nft delete table ip hlt3 2>/dev/null
	ip netns exec hlt3-r1 nft -f - <<EOF
table ip hlt3 {
	chain probes {
		type filter hook forward priority 0; policy accept;
		ip daddr 198.18.100.2 udp dport 9 $1
	}
}
EOF
}

counter()
{
	ip netns exec hlt3-r1 nft list table ip hlt3 |
	    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p'
}

# run NAME: run the flow; sets SENT RECV LOST DUP TXERR CTR.  Fails the
# check NAME and returns 1 if hoplab-gen fails.
run()
{
	if ! gen_run "$TMP/$1.txt" 60 --flow "$FLOW" --drain 300ms; then
		sed 's/^/    /' "$TMP/$1.txt"
		fail "$1" "hoplab-gen exited non-zero"
		return 1
	fi
	SENT=$(gen_get "$TMP/$1.txt" Packets probe sent)
	RECV=$(gen_get "$TMP/$1.txt" Packets probe received)
	LOST=$(gen_get "$TMP/$1.txt" Packets probe lost)
	DUP=$(gen_get "$TMP/$1.txt" Packets probe dup)
	TXERR=$(gen_get "$TMP/$1.txt" Packets probe txerr)
	CTR=$(counter)
	echo "    $1: sent $SENT received $RECV lost $LOST dup $DUP" \
	    "txerr $TXERR, nftables counter $CTR"
	assert_eq "$1_sent_all" "$COUNT/0" "$SENT/$TXERR"
}

# 1. random 1 %
rule "numgen random mod 100 == 0 counter drop" ||
    bail rule_random "nftables rule could not be added"
if run random; then
	assert_eq random_lost_is_counter "$CTR" "$LOST"
	assert_eq random_received "$((SENT - CTR))" "$RECV"
	assert_eq random_no_dup 0 "$DUP"
	assert_ge random_counter_ge_10 "$CTR" 10
	assert_le random_counter_le_100 "$CTR" 100
fi

# 2. every 100th
rule "numgen inc mod 100 == 0 counter drop" ||
    bail rule_nth "nftables rule could not be added"
if run nth; then
	assert_eq nth_counter_50 50 "$CTR"
	assert_eq nth_lost_is_counter "$CTR" "$LOST"
	assert_eq nth_received "$((COUNT - 50))" "$RECV"
fi

# 3. duplicates made by the kernel
if rule "numgen inc mod 50 == 0 counter dup to 198.18.100.2 device \"out\"" \
    2>"$TMP/dup.err"; then
	if run dup; then
		assert_eq dup_counter_100 100 "$CTR"
		assert_eq dup_is_counter "$CTR" "$DUP"
		assert_eq dup_nothing_lost "0/$COUNT" "$LOST/$RECV"
	fi
else
	echo "  skip dup: this kernel's nftables cannot 'dup to':" \
	    "$(head -n 1 "$TMP/dup.err")"
fi
finish
