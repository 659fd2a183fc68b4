#!/bin/sh
# t_link_impair: hoplab-link's rate, jitter and Gilbert-Elliott loss,
# measured by hoplab-gen and checked against the link's truth file, on a
# namespace lab of its own (prefix hlt10, K 233 reserved; no management
# network, no agents):
#
#   hlt10-gen tx -- a [hlt10-wire: hoplab-link] b -- in [hlt10-R] out -- rx gen
#
#   R in 198.18.0.2/24, R out 198.18.1.1/24 (Linux forwarding); hoplab-gen
#   sends from 198.18.0.1 on tx to 198.18.1.2 on rx via 198.18.0.2.
#
# One hoplab-link runs throughout; its a-b profile is changed over the
# control socket between phases, each phase a flow of its own id.
#
# 1. `rate 10mbit` (flow 1): 1000 frames of 1518 bytes (incl. FCS) offered
#    at 20 Mbit/s (one every 600 us).  In the truth file every frame that
#    found the serializer busy was intended to leave exactly
#    1518 * 8 / 10^7 s = 1214.4 us after the one before (+-1 ns), and the
#    median spacing of the actual departures of those frames is within
#    100 us of that (generous: the release error on a shared VM).  From
#    hoplab-gen's per-packet records, the throughput the receiver saw,
#    (frames - 1) * 1518 * 8 / (last - first arrival), is at most
#    10 Mbit/s + 0.5 % and at least 10 Mbit/s - 1 % (the issue's bound).
# 2. `delay 20ms 5ms distribution normal` (flow 2, 2000 probes, 1 ms
#    apart; normal, because netem's default for a jitter is uniform, whose
#    standard deviation would be 5 ms / sqrt 3): the standard deviation of
#    the intended delay (intended - arrival) in the truth file is 5 ms
#    within 5 % (3 sigma of a sample of 2000 is 4.7 %), and hoplab-gen's
#    measured standard deviation equals that of the truth's actual delay
#    (actual - arrival, release error included) within 100 us, 2 % (the
#    router's own jitter is microseconds).  Without `fifo` the jitter reorders: hoplab-gen's
#    RFC 4737 reordered count equals the count worked out from the truth
#    file (a probe leaving after a probe of higher sequence, in the order
#    the link sent them), and it is not 0.
# 3. The same with `fifo` (flow 3, 1000 probes): no reordering, neither
#    measured nor in the truth file.
# 4. `loss gemodel 2% 25% nonip pass` (flow 4, 2000 probes;
#    Gilbert-Elliott, loss rate p/(p+r) = 7.4 %, mean burst 1/r = 4; ARP
#    passes, so the generator's gateway lookup is not lost): the loss hoplab-gen
#    measures equals the truth file's count exactly, not 0, and the truth
#    has bursts (a run of at least 2 consecutive lost sequence numbers).
# 5. The truth file records each profile change (kind `profile`) with
#    its text, in order, and hoplab-link exits 0 on SIGTERM.
# Run as root; tests/integration/run.sh does.  About 15 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
for b in hoplab-link hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v jq >/dev/null 2>&1 || bail tool_jq "jq is missing (sudo make deps)"

rl_init hlt10 || bail rl_init "cannot make a temporary folder"
at_exit rl_down
T=$RL_TMP

rl_ns gen && rl_ns wire && rl_ns R &&
    rl_veth gen tx wire a && rl_veth wire b R in &&
    rl_veth R out gen rx &&
    rl_addr R in 198.18.0.2/24 && rl_addr R out 198.18.1.1/24 &&
    rl_in R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' ||
    bail lab "could not build the lab"

rl_bg wire "$T/link.log" "$HL_BIN/hoplab-link" -v -a a -b b \
    -t "$T/truth.bin" -s "ipc://$T/link.sock"
LINK=$RL_LAST
lctl() { timeout 5 "$HL_BIN/hoplab-link" -s "ipc://$T/link.sock" --ctl "$1"; }
i=0
until lctl counters >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 50 ] && kill -0 "$LINK" 2>/dev/null ||
	    bail link_started "hoplab-link does not answer: $(cat "$T/link.log")"
	sleep 0.1
done
pass "link_started"

# gen ID FRAME COUNT IDT [DRAIN]: one flow through the link; JSON summary
# in T/genID.json, per-packet records in T/genID.rec.
gen()
{
	rl_in gen "$HL_BIN/hoplab-gen" --tx tx --rx rx --src 198.18.0.1 \
	    --dst 198.18.1.2 --gateway 198.18.0.2 --drain "${5:-300ms}" \
	    --json --records "$T/gen$1.rec" \
	    --flow "frame=$2,count=$3,idt=$4,id=$1" >"$T/gen$1.json" \
	    2>"$T/gen$1.err"
}

# gj ID FILTER: a value from flow ID's JSON summary.
gj() { jq -r ".flows[0] | $2" "$T/gen$1.json" 2>/dev/null; }

# truth: export the truth file so far to T/truth.csv.
truth()
{
	"$HL_BIN/hoplab-link" --export-truth "$T/truth.bin" >"$T/truth.csv" \
	    2>"$T/export.err"
}

# ---------------------------------------------------------------- 1.

assert_ok set_rate_10mbit lctl "set a-b rate 10mbit"
gen 1 1518 1000 600us 1500ms ||
    fail gen_rate "hoplab-gen failed: $(tail -n 3 "$T/gen1.err")"
truth
# Frames of flow 1 in departure order; "back to back" when the frame
# arrived right after the previous one (consecutive arrival index: no
# other frame in between) and before that one's serialization ended (its
# intended departure: no delay in this profile).  Times are split into
# seconds and nanoseconds: awk's doubles cannot hold 19 digits exactly.
set -- $(awk -F, '
function t(x) { return (substr(x, 1, length(x) - 9) - B) * 1e9 + substr(x, length(x) - 8) }
$3 == "probe" && $4 == 1 && $12 == "sent" {
	if (n++ == 0)
		B = substr($7, 1, length($7) - 9)
	else if ($2 == pidx + 1 && t($7) < pi) {
		bb++
		want = $6 * 8 * 1e9 / 1e7
		d = t($8) - pi - want
		if (d < 0) d = -d
		if (d <= 1) exact++
		print t($9) - pa - want > "'"$T/spacing.txt"'"
	}
	pi = t($8); pa = t($9); pidx = $2
}
END { printf "%d %d %d\n", n, bb, exact }' "$T/truth.csv")
echo "    rate 10mbit: $1 frames sent, $2 back to back, $3 intended" \
    "exactly 1214.4 us after the previous"
assert_num_eq rate_frames_all_sent "${1:-0}" 1000
assert_ge rate_most_frames_back_to_back "${2:-0}" 900
assert_num_eq rate_intended_spacing_is_len_x8_over_rate "${3:-x}" "${2:-0}"
med=$(sort -n "$T/spacing.txt" | awk '{ v[NR] = $1 } END { if (NR)
    printf "%.0f %.0f %.0f", v[int(NR * .5) + 1], v[int(NR * .1) + 1],
    v[int(NR * .9)] }')
set -- $med
echo "    actual spacing - 1214.4 us, ns: p10 ${2:-?} p50 ${1:-?} p90 ${3:-?}"
assert_near rate_actual_spacing_median_within_100us 0 "${1:-x}" 100000
"$HL_BIN/hoplab-gen" --export-records "$T/gen1.rec" >"$T/gen1.csv" ||
    fail export_records "hoplab-gen --export-records failed"
mbps=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["received"] == 1 { n++; r = $h["rx_ns"]; f = $h["frame"]
	if (min == "" || r < min) min = r; if (r > max) max = r }
    END { if (n > 1 && max > min)
	printf "%.4f", (n - 1) * f * 8 / ((max - min) / 1e9) / 1e6 }' \
    "$T/gen1.csv")
echo "    throughput at the receiver: ${mbps:-?} Mbit/s (frames incl. FCS)"
assert_le rate_throughput_not_above_10mbit "${mbps:-x}" 10.05
assert_ge rate_throughput_10mbit_within_1pct "${mbps:-x}" 9.9

# ---------------------------------------------------------------- 2+3.

# reord FLOW: the RFC 4737 reordered count of FLOW's probes in the order
# the link sent them (truth records are written in that order).
reord()
{
	awk -F, -v fl="$1" '$3 == "probe" && $4 == fl && $12 == "sent" {
	    if (n++ > 0 && $5 + 0 < max) r++; else max = $5 + 0 }
	    END { print r + 0 }' "$T/truth.csv"
}

assert_ok set_delay_20ms_5ms lctl "set a-b delay 20ms 5ms distribution normal"
gen 2 64 2000 1ms 300ms ||
    fail gen_jitter "hoplab-gen failed: $(tail -n 3 "$T/gen2.err")"
truth
# std of the intended delay (the model's samples) and of the actual one
# (what the link did, release error included), in us.
set -- $(awk -F, '
function t(x) { return (substr(x, 1, length(x) - 9) - B) * 1e9 + substr(x, length(x) - 8) }
$3 == "probe" && $4 == 2 && $12 == "sent" {
	if (n++ == 0)
		B = substr($7, 1, length($7) - 9)
	d = (t($8) - t($7)) / 1e3; s += d; ss += d * d
	a = $10 / 1e3; sa += a; ssa += a * a }
END { if (n > 1) printf "%.2f %.2f", sqrt((ss - s * s / n) / (n - 1)),
    sqrt((ssa - sa * sa / n) / (n - 1)) }' "$T/truth.csv")
istd=${1:-x}
tstd=${2:-x}
mstd=$(gj 2 '.delay.std_ns / 1000')
echo "    delay 20ms 5ms normal: std of the intended delay $istd us, of" \
    "the actual delay (truth) $tstd us, measured by hoplab-gen" \
    "${mstd:-?} us; mean measured $(gj 2 '.delay.mean_ns / 1000') us"
assert_near jitter_intended_std_5ms_within_5pct 5000 "$istd" 250
assert_near jitter_measured_std_equals_truth_within_2pct "$tstd" \
    "${mstd:-x}" 100
tr=$(reord 2)
mr=$(gj 2 .reordered)
echo "    reordered without fifo: hoplab-gen $mr, truth $tr"
assert_num_eq jitter_reordering_measured_equals_truth "${mr:-x}" "$tr"
assert_gt jitter_reorders_without_fifo "$tr" 0

assert_ok set_delay_fifo lctl "set a-b delay 20ms 5ms distribution normal fifo"
gen 3 64 1000 1ms 300ms ||
    fail gen_fifo "hoplab-gen failed: $(tail -n 3 "$T/gen3.err")"
truth
echo "    reordered with fifo: hoplab-gen $(gj 3 .reordered), truth $(reord 3)"
assert_num_eq fifo_no_reordering_measured "$(gj 3 .reordered)" 0
assert_num_eq fifo_no_reordering_in_truth "$(reord 3)" 0
assert_num_eq fifo_all_received "$(gj 3 .received)" 1000

# ---------------------------------------------------------------- 4.

assert_ok set_gemodel lctl "set a-b loss gemodel 2% 25% nonip pass"
gen 4 64 2000 500us 300ms ||
    fail gen_ge "hoplab-gen failed: $(tail -n 3 "$T/gen4.err")"
truth
tl=$(awk -F, '$3 == "probe" && $4 == 4 && $12 == "lost"' "$T/truth.csv" |
    wc -l)
burst=$(awk -F, '$3 == "probe" && $4 == 4 && $12 == "lost" { print $5 }' \
    "$T/truth.csv" | sort -n | awk 'NR > 1 && $1 == p + 1 { run++
    if (run > best) best = run } $1 != p + 1 { run = 0 } { p = $1 }
    END { print best + 1 }')
ml=$(gj 4 .lost)
echo "    gemodel 2% 25%: hoplab-gen lost ${ml:-?}, truth ${tl}" \
    "(expected about 148 of 2000), longest burst ${burst}"
assert_num_eq ge_loss_measured_equals_truth "${ml:-x}" "$tl"
assert_gt ge_loss_happened "$tl" 0
assert_ge ge_loss_comes_in_bursts "$burst" 2

# ---------------------------------------------------------------- 5.

rl_stop "$LINK"
assert_num_eq link_exits_0_on_sigterm "$?" 0
truth || fail export "export failed: $(cat "$T/export.err")"
profs=$(awk -F, '$3 == "profile" && $1 == "a-b" { sub(/^[^"]*"/, "");
    sub(/"$/, ""); printf "%s|", $0 }' "$T/truth.csv")
assert_eq truth_records_profile_changes_in_order \
    "none|rate 10mbit|delay 20ms 5ms distribution normal|delay 20ms 5ms distribution normal fifo|loss gemodel 2% 25% nonip pass|" \
    "$profs"
finish
