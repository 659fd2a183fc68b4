#!/bin/sh
# t_gen_txring: hoplab-gen --tx-io ring (frames from a memory-mapped
# transmit ring, a kernel stamp on a sample) against truths it does not
# compute itself, through one Linux kernel router.
#
# Lab of its own (prefix hlgy, namespaces hlgy-tg and hlgy-tr; no
# management network):
#
#   hlgy-tg: tx ----veth---- in :hlgy-tr 198.18.0.2/24
#            rx ----veth---- out:hlgy-tr 198.18.100.1/24, ip_forward=1
#
# hoplab-gen sends N = 10000 probes of 64 bytes at 40 us (25 000 frames/s,
# two frames per 50 us batch) with --tx-io ring --tx-stamp-every 10 and
# --records, while tcpdump captures hlgy-tr's in (the far end of tx) and
# out (towards rx), and an nftables counter in hlgy-tr's forward hook
# counts the probes it routes.  Checks:
#   - the router forwarded exactly N (nftables), hoplab-gen received N;
#   - the in capture holds N probes, each once, in sequence order 0..N-1
#     (the ring and the stamped socket keep the frames' order), and all
#     are matched in the out capture (tools/pcapdelay);
#   - no frame left before its intended send time: for every probe the
#     in capture's stamp is at or after the probe's stamp (which is the
#     frame's deadline), and at most 100 ms after it;
#   - the records say which frames carried a kernel stamp: tx_kernel 2 on
#     exactly packets 0, 10, 20 ... (N / 10 of them), 0 on the others;
#   - every delay is positive and under 100 ms; the source reads
#     tx=payload,ktx=1/10,rx=kernel-sw, and the sample's offset (kernel
#     stamp - probe stamp) has N / 10 samples and is never negative.
# And bad values are refused with the option and the value: --tx-io
# rings, --tx-stamp-every 0, --tx-stamp-every without --tx-io ring, and
# --tx-io in mode udp.
#
# Root; about 8 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

N=10000
K=10
G=hlgy-tg
R=hlgy-tr
BIN=$GL_GEN_BIN

need_root
TMP=$(mktemp -d /tmp/hoplab-t-gen-txring.XXXXXX)
# genlab_init names the captures' namespaces (hlgy-tg, hlgy-tr); the
# two namespaces are this test's own, not genlab_up's, so it removes
# them itself.
genlab_init hlgy
txring_down()
{
	cap_stop >/dev/null 2>&1
	ip netns del "$G" 2>/dev/null
	ip netns del "$R" 2>/dev/null
	return 0
}
at_exit "txring_down; rm -rf '$TMP'"
[ -x "$BIN" ] || bail build "$BIN not built (make bin/hoplab-gen)"
PD=$(genlab_pcapdelay) || bail build "tools/pcapdelay did not build"
command -v tcpdump >/dev/null || bail tcpdump "tcpdump is not installed"

# Bad values first (no lab needed): exit 1, the option and the value.
refused()
{
	_name=$1
	_want=$2
	shift 2
	"$BIN" "$@" >"$TMP/bad.out" 2>&1
	_rc=$?
	if [ "$_rc" = 1 ] && grep -qF -- "$_want" "$TMP/bad.out"; then
		pass "$_name"
	else
		fail "$_name" "exit $_rc, wanted 1 and '$_want': $(cat "$TMP/bad.out")"
	fi
}
L2="--tx tx --rx rx --src 198.18.0.1 --dst 198.18.100.2 --gateway 198.18.0.2"
F="--flow frame=64,count=10,idt=1ms"
# shellcheck disable=SC2086
{
refused bad_tx_io '--tx-io: expected send or ring, got "rings"' \
    $L2 --tx-io rings $F
refused bad_stamp_every_zero '--tx-stamp-every' \
    $L2 --tx-io ring --tx-stamp-every 0 $F
refused bad_stamp_every_big '1000001' \
    $L2 --tx-io ring --tx-stamp-every 1000001 $F
refused stamp_every_needs_ring '--tx-stamp-every: only with --tx-io ring' \
    $L2 --tx-stamp-every 5 $F
refused tx_io_l2_only '--tx-io: only in mode l2' \
    --mode udp --role send --dst 198.18.100.2:9000 --tx-io ring $F
}

txring_down
ip netns add "$G" && ip netns add "$R" &&
    ip link add name tx netns "$G" type veth peer name in netns "$R" &&
    ip link add name out netns "$R" type veth peer name rx netns "$G" &&
    ip -n "$G" link set dev lo up && ip -n "$R" link set dev lo up &&
    gl_if tg tx && gl_if tg rx && gl_if tr in && gl_if tr out &&
    ip -n "$R" addr add 198.18.0.2/24 dev in &&
    ip -n "$R" addr add 198.18.100.1/24 dev out &&
    gl_in tr sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' ||
    bail lab_up "could not build the namespace lab"
gl_in tr nft add table ip hlgy_txring &&
    gl_in tr nft add chain ip hlgy_txring probes \
    '{ type filter hook forward priority 0; policy accept; }' &&
    gl_in tr nft add rule ip hlgy_txring probes ip saddr 198.18.0.1 \
    udp dport 9 counter || bail nft "could not add the nftables counter"

cap_start tr in "$TMP/in.pcap" "udp dst port 9" &&
    cap_start tr out "$TMP/out.pcap" "udp dst port 9" ||
    bail capture "tcpdump did not start"
timeout -s INT -k 5 60 ip netns exec "$G" "$BIN" $L2 --drain 300ms \
    --tx-io ring --tx-stamp-every "$K" --records "$TMP/rec.bin" \
    --flow "frame=64,count=$N,idt=40us,dport=9,name=ring" \
    >"$TMP/gen.txt" 2>&1
rc=$?
cap_stop 2>"$TMP/cap.err"
assert_eq captures_complete "" "$(cat "$TMP/cap.err")"
sed -n '/^tx ring\|^tx offset/s/^/    /p' "$TMP/gen.txt"
if [ "$rc" != 0 ]; then
	sed 's/^/    /' "$TMP/gen.txt"
	bail gen "hoplab-gen exited with $rc"
fi

fwd=$(gl_in tr nft list chain ip hlgy_txring probes |
    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
assert_eq router_forwarded_n "$N" "$fwd"
assert_eq gen_sent_received_lost "$N/$N/0" \
    "$(gen_get "$TMP/gen.txt" Packets ring sent)/$(gen_get "$TMP/gen.txt" \
    Packets ring received)/$(gen_get "$TMP/gen.txt" Packets ring lost)"

out=$("$PD" -c "$TMP/pd.csv" "$TMP/in.pcap" "$TMP/out.pcap")
assert_eq capture_in_probes_once_all_matched "$N/0/$N" \
    "$(pcap_get "$out" tx_probes)/$(pcap_get "$out" tx_dup)/$(pcap_get \
    "$out" matched)"
# pd.csv: flow,seq,probe_tx_ns,tx_ns,rx_ns,delay_ns in the in capture's
# order.  Differences of two decimal ns strings, exact in a double.
set -- $(awk -F, '
function sub_ns(a, b,   la, lb) {
	la = length(a); lb = length(b)
	return (substr(a, 1, la - 9) - substr(b, 1, lb - 9)) * 1e9 + \
	    (substr(a, la - 8) - substr(b, lb - 8))
}
NR == 1 { next }
{ n++; if ($2 != n - 1) order++
  lag = sub_ns($4, $3); if (lag < 0) early++; if (lag > 1e8) held++
  if (n == 1 || lag > max) max = lag }
END { printf "%d %d %d %d %.0f\n", n, order, early, held, max }' "$TMP/pd.csv")
echo "    in capture: $1 probes; capture stamp - probe stamp at most $5 ns"
assert_eq wire_order_is_0_to_n_minus_1 "$N/0" "$1/$2"
assert_eq no_frame_before_its_probe_stamp 0 "$3"
assert_eq no_frame_held_100ms 0 "$4"

"$BIN" --export-records "$TMP/rec.bin" >"$TMP/rec.csv" ||
    bail records "hoplab-gen --export-records failed"
set -- $(awk -F, -v k="$K" '
NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
{ n++; t = $h["tx_kernel"]; s = $h["seq"]
  if (t == 2) { two++; if (s % k != 0) off++ }
  else if (t == 0) { if (s % k == 0) miss++ }
  else other++
  d = $h["delay_ns"]
  if ($h["received"] == 1 && (d <= 0 || d >= 1e8)) bad++ }
END { printf "%d %d %d %d %d %d\n", n, two, off, miss, other, bad }' \
    "$TMP/rec.csv")
assert_eq records_n "$N" "$1"
assert_eq kernel_stamped_1_in_k "$((N / K))/0/0/0" "$2/$3/$4/$5"
assert_eq delays_positive_under_100ms 0 "$6"
src=$(sed -n 's/^One-way delay.*(timestamps \([^)]*\)).*/\1/p' "$TMP/gen.txt")
assert_eq ts_source "tx=payload,ktx=1/$K,rx=kernel-sw" "$src"
set -- $(sed -n 's/^tx offset ring .*: \([0-9]*\) samples, mean \([-0-9.]*\), min \([-0-9.]*\),.*/\1 \2 \3/p' \
    "$TMP/gen.txt")
assert_eq offset_samples "$((N / K))" "${1:-missing}"
awk -v m="${3:-x}" 'BEGIN { exit !(m != "x" && m + 0 >= 0) }' &&
    pass offset_never_negative ||
    fail offset_never_negative "kernel stamp before the probe's: min $3 us"
finish
