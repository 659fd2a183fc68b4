#!/bin/sh
# t_gen_pcap: hoplab-gen's one-way delay against libpcap captures of the
# same packets, through one Linux kernel router.
#
# Lab (tools/genlab.sh, prefix hlt4, K 254 reserved though no management
# network is built): hlt4-gen with tx and rx (no kernel address), kernel
# router hlt4-r1 between them, addresses as in docs/architecture.md.
#
# tcpdump captures, at nanosecond precision with the kernel's software
# stamps ("host"; veth offers no other), UDP port 9 on the generator's tx,
# on the far end of that wire (the router's in) and on the generator's rx,
# while hoplab-gen sends 2000 probes of 64 bytes at 500 us.  tools/pcapdelay
# matches the probes of two captures by flow id and sequence number and
# gives the capture-based one-way delay of each.
#
# Checks: tools/pcapdelay gives the hand-worked answers on captures crafted
# byte by byte (tools/test_pcapdelay.sh); all captures hold all 2000
# probes, each once, every one matched and none on rx only; hoplab-gen
# received 2000; and hoplab-gen's mean delay is within
#   BOUND_US = 2 us of the mean of the tx -> rx captures, and within
#   BOUND_IN_US = 1 us of the mean of the in -> rx captures.
#
# What the bounds cover (measured on a 2-core VM, see docs/bench.md): the
# receive stamps are the same kernel stamp (skb->tstamp, set when veth
# queues the frame to rx) for hoplab-gen and tcpdump, identical to the
# nanosecond.  The transmit stamps differ: tcpdump's on tx is taken as the
# frame passes the capture tap, hoplab-gen's by the driver just after
# (skb_tx_timestamp in veth_xmit), 0.8 to 1.5 us later on average with
# the tap's work in between; the far end's stamp is taken when veth queues
# the frame there, 0.2 to 0.3 us after hoplab-gen's.  With --tstamp user
# (a stamp before send()) the tx difference was 7.4 us, so the check
# tells the two apart.  When hoplab-gen can write per-packet records
# (--records) the per-packet differences are printed for information.
#
# Root; about 6 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

BOUND_US=2
BOUND_IN_US=1
COUNT=2000

need_root
TMP=$(mktemp -d /tmp/hoplab-t-gen-pcap.XXXXXX)
genlab_init hlt4
at_exit "genlab_down; rm -rf '$TMP'"
[ -x "$GL_GEN_BIN" ] || bail build "$GL_GEN_BIN not built (make bin/hoplab-gen)"
PD=$(genlab_pcapdelay) || bail build "tools/pcapdelay did not build"
command -v tcpdump >/dev/null || bail tcpdump "tcpdump is not installed"
# The instrument first: pcapdelay on captures crafted byte by byte.
assert_ok pcapdelay_known_truth sh "$HL_ROOT/tools/test_pcapdelay.sh" "$PD"
genlab_up 1 || bail lab_up "could not build the namespace lab"

REC=
"$GL_GEN_BIN" --help 2>/dev/null | grep -q -- '--records' &&
    REC="--records $TMP/rec.bin"

cap_start gen tx "$TMP/tx.pcap" "udp dst port 9" &&
    cap_start r1 in "$TMP/in.pcap" "udp dst port 9" &&
    cap_start gen rx "$TMP/rx.pcap" "udp dst port 9" ||
    bail capture "tcpdump did not start"
# shellcheck disable=SC2086
gen_run "$TMP/gen.txt" 60 --drain 300ms $REC \
    --flow "frame=64,count=$COUNT,idt=500us,dport=9,name=probe"
rc=$?
cap_stop 2>"$TMP/cap.err"
assert_eq captures_complete "" "$(cat "$TMP/cap.err")"
if [ "$rc" != 0 ]; then
	sed 's/^/    /' "$TMP/gen.txt"
	bail gen "hoplab-gen exited with $rc"
fi
assert_eq gen_received "$COUNT" "$(gen_get "$TMP/gen.txt" Packets probe received)"
gmean=$(gen_get "$TMP/gen.txt" One-way probe mean)
src=$(sed -n 's/^One-way delay.*(timestamps \([^)]*\)).*/\1/p' "$TMP/gen.txt")

# against TXCAP (tx or in) and rx: NAME BOUND_US
against()
{
	out=$("$PD" "$TMP/$1.pcap" "$TMP/rx.pcap")
	assert_eq "$1_capture_count" "$COUNT/0/$COUNT/0" \
	    "$(pcap_get "$out" tx_probes)/$(pcap_get "$out" tx_dup)/$(pcap_get \
	    "$out" rx_probes)/$(pcap_get "$out" rx_dup)"
	assert_eq "$1_all_matched" "$COUNT/0/0" "$(pcap_get "$out" \
	    matched)/$(pcap_get "$out" tx_only)/$(pcap_get "$out" rx_only)"
	cmean=$(pcap_get "$out" delay_mean_ns |
	    awk '{ printf "%.3f", $1 / 1000 }')
	diff=$(awk -v g="$gmean" -v c="$cmean" \
	    'BEGIN { printf "%.3f", g - c }')
	echo "    capture $1 -> rx: mean $cmean us (p50 $(pcap_get "$out" \
	    delay_p50_ns) ns); hoplab-gen mean $gmean us ($src):" \
	    "difference $diff us (bound $2 us)"
	assert_near "$1_mean_delay_within_${2}us" "$cmean" "$gmean" "$2"
}
against tx "$BOUND_US"
against in "$BOUND_IN_US"

# Per packet, for information: hoplab-gen's stamps minus the captures'.
if [ -n "$REC" ] && "$GL_GEN_BIN" --export-records "$TMP/rec.bin" \
    >"$TMP/rec.csv" 2>/dev/null; then
	for c in tx in; do
		"$PD" -c "$TMP/pd-$c.csv" "$TMP/$c.pcap" "$TMP/rx.pcap" \
		    >/dev/null || continue
		awk -F, -v cap="$c" '
		# a - b of two decimal nanosecond strings, exact in a double
		function sub_ns(a, b,   la, lb) {
			la = length(a); lb = length(b)
			return (substr(a, 1, la - 9) - substr(b, 1, lb - 9)) * \
			    1e9 + (substr(a, la - 8) - substr(b, lb - 8))
		}
		FNR == 1 { for (i = 1; i <= NF; i++) h[FILENAME, $i] = i; next }
		NR == FNR { gtx[$h[FILENAME, "seq"]] = $h[FILENAME, "tx_ns"]
			grx[$h[FILENAME, "seq"]] = $h[FILENAME, "rx_ns"]; next }
		($2 in gtx) && grx[$2] != "" && grx[$2] != 0 {
			n++
			dt = sub_ns(gtx[$2], $4); st += dt
			dr = sub_ns(grx[$2], $5); sr += dr
			if (dr == 0) same++
		}
		END { if (n) printf "    per packet (%d): gen tx - capture " \
		    "%s mean %.0f ns; gen rx - capture rx mean %.0f ns, " \
		    "identical in %d\n", n, cap, st / n, sr / n, same }' \
		    "$TMP/rec.csv" "$TMP/pd-$c.csv"
	done
fi
finish
