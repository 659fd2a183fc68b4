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
# received 2000; and the two captures bracket hoplab-gen's stamps, packet
# by packet (from its --records):
#   tx capture <= hoplab-gen's transmit stamp <= in capture, in all 2000;
#   hoplab-gen's receive stamp = the rx capture's, in all 2000;
# and so, for the summary hoplab-gen printed,
#   mean(in -> rx) <= hoplab-gen's mean delay <= mean(tx -> rx).
#
# Why a bracket and not a bound (see docs/bench.md): the receive stamps
# are the same kernel stamp (skb->tstamp, set when veth queues the frame
# to rx) for hoplab-gen and tcpdump.  The transmit stamps follow the
# kernel's order on the send path: tcpdump's on tx is taken as the frame
# passes the capture tap (dev_queue_xmit_nit), hoplab-gen's by the driver
# after it (skb_tx_timestamp in veth_xmit), the far end's when veth then
# queues the frame on the peer.  How far apart they are depends on the
# machine's load (0.8 to 1.5 us on average for tap to driver on a quiet
# 2-core VM, 2.2 to 2.9 us in make check), their order does not.  With
# --tstamp user (a stamp before send()) hoplab-gen's stamp is earlier than
# the tap's, 7.4 us on average, so the bracket tells the two apart.
#
# Root; about 6 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

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

# against CAP (tx or in): match CAP against rx, check the counts, and set
# cmean_CAP to the capture-based mean delay in us.
against()
{
	out=$("$PD" "$TMP/$1.pcap" "$TMP/rx.pcap")
	assert_eq "$1_capture_count" "$COUNT/0/$COUNT/0" \
	    "$(pcap_get "$out" tx_probes)/$(pcap_get "$out" tx_dup)/$(pcap_get \
	    "$out" rx_probes)/$(pcap_get "$out" rx_dup)"
	assert_eq "$1_all_matched" "$COUNT/0/0" "$(pcap_get "$out" \
	    matched)/$(pcap_get "$out" tx_only)/$(pcap_get "$out" rx_only)"
	_m=$(pcap_get "$out" delay_mean_ns | awk '{ printf "%.3f", $1 / 1000 }')
	eval "cmean_$1=\$_m"
	echo "    capture $1 -> rx: mean $_m us (p50 $(pcap_get "$out" \
	    delay_p50_ns) ns); hoplab-gen mean $gmean us ($src)"
}
against tx
against in
awk -v lo="$cmean_in" -v g="$gmean" -v hi="$cmean_tx" \
    'BEGIN { exit !(lo - 0.0005 <= g && g <= hi + 0.0005) }' &&
    pass mean_delay_between_captures ||
    fail mean_delay_between_captures \
    "hoplab-gen's $gmean us is not within [$cmean_in, $cmean_tx] us"

# Per packet: hoplab-gen's stamps against the captures'.  CAP -> "N LATE
# EARLY SAME MEAN": packets matched, those whose gen tx stamp is later than
# the capture's, earlier, and whose rx stamps are identical, and the mean of
# gen tx - capture in ns.
"$GL_GEN_BIN" --export-records "$TMP/rec.bin" >"$TMP/rec.csv" ||
    bail records "hoplab-gen --export-records failed"
per_packet()
{
	"$PD" -c "$TMP/pd-$1.csv" "$TMP/$1.pcap" "$TMP/rx.pcap" >/dev/null ||
	    { echo "pcapdelay -c failed"; return; }
	awk -F, '
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
		if (dt > 0) late++
		if (dt < 0) early++
		if (sub_ns(grx[$2], $5) == 0) same++
	}
	END { printf "%d %d %d %d %.0f\n", n, late, early, same, n ? st / n : 0 }' \
	    "$TMP/rec.csv" "$TMP/pd-$1.csv"
}
set -- $(per_packet tx)
echo "    per packet ($1): gen tx - capture tx mean $5 ns; later in $2," \
    "earlier in $3; rx stamps identical in $4"
assert_eq tx_stamp_after_tap_every_packet "$COUNT/$COUNT" "$1/$2"
assert_eq rx_stamp_identical_every_packet "$COUNT" "$4"
set -- $(per_packet in)
echo "    per packet ($1): gen tx - capture in mean $5 ns; earlier in $3," \
    "later in $2"
assert_eq tx_stamp_before_far_end_every_packet "$COUNT/$COUNT" "$1/$3"
finish
