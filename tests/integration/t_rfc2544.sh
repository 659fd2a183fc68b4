#!/bin/sh
# t_rfc2544: an RFC 2544 throughput search (docs/plans.md "RFC 2544") on a
# link rate-limited by tbf finds the configured rate within the search's
# resolution.  Lab prefix hlt17, management K 218; router A, kernel
# forwarding.
#
# How the tbf stays in place: the runner rewires the lab (lab.sh wire,
# which rebuilds the veths and so drops any qdisc) only when the inventory
# says `lab: PREFIX`.  The test wires the chain itself (lab.sh wire 1),
# adds `tbf rate 20mbit burst 3000 limit 30000` on A's output veth "out"
# inside A's namespace, and runs with a copy of the lab's inventory
# without its lab: line, so the wiring (and the qdisc) is used as is.
#
# tbf counts a frame's bytes without the FCS (skb->len on a veth: the
# Ethernet header and payload), so at frame F (incl. FCS) it passes
# 20e6 / ((F - 4) x 8) frames/s, that is 20 x F / (F - 4) Mbit/s of
# frames incl. FCS: 1651.3 frames/s = 20.053 Mbit/s at F = 1518.
#
# Plan: frames [1518], trial 1s, max_rate 2500 frames/s, resolution 4 %
# (100 frames/s = 1.214 Mbit/s at 1518 B), loss_tolerance 1 %, tests
# throughput, latency, loss and back-to-back.  Checks:
# 0. --dry-run bounds the trials: at most 17 (6 + 1 + 10);
# 1. the run exits 0 and prints the RFC 2544 throughput table;
# 2. rfc2544.csv's throughput result is within 100 frames/s of 1651.3
#    (its Mbit/s within 1.214 of 20.053): tbf's queue (limit + burst,
#    about 22 frames) lets a 1 s trial pass up to 1.3 % above the rate,
#    less than the resolution;
# 3. the search's trials passed below the result and failed above it;
# 4. a latency row at the throughput rate received frames;
# 5. the loss trials start at 100 % of max_rate (2500/s, tbf passes about
#    1651 + 22 of them: 30..38 % lost) and stop after two loss-free ones;
# 6. back-to-back: the longest loss-free burst at 2500 frames/s is about
#    59 frames (worked out below).
# Why 1 % and not 0 %: under make check's load (a fresh-clone .ci/run,
# 2026-12-02) the
# generator's stalls and catch-up bursts overflowed tbf's 22-frame queue
# in trials below the rate, and a 0 % search ended at 1406 and 1484
# frames/s; one step above the rate (1751/s) tbf drops 4.5 %, so 1 %
# still finds the rate within the resolution.  For the same reason the
# back-to-back burst was 49 there: its bound is +-15.
# About 35 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
T=$(mktemp -d /tmp/hoplab-t-rfc2544.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"

lab_init hlt17 218
lab_up A
lab_wire 1 || bail wire "lab.sh wire 1 failed"
in_host A tc qdisc add dev out root tbf rate 20mbit burst 3000 \
    limit 30000 || bail tbf "tc qdisc add tbf failed"
pass tbf_on_A_out
# Deleted with the namespace by lab down; also here in case it is not.
at_exit "ip netns exec hlt17-A tc qdisc del dev out root 2>/dev/null"

INV=$LAB_STATE/inventory-nowire.yaml
grep -v '^lab:' "$LAB_STATE/inventory.yaml" >"$INV" ||
    bail inventory "cannot write $INV"
at_exit "rm -f '$INV'"

cat >"$T/rfc.yaml" <<'PLAN'
name: rfc-tbf
topology: {chain: [A]}
variants: [A]
router: {impl: linux}
flows:
  - {name: probe, mode: l2, frame: 1518, idt: 1ms, count: 200}
rfc2544:
  tests: [throughput, latency, loss, back-to-back]
  trial: 1s
  resolution: 4%
  loss_tolerance: 1%
  max_rate: 2500
  frames: [1518]
PLAN

# Dry run: 1 + ceil(log2(1 / 4 %)) = 6 throughput, 1 latency, 10 loss,
# 1 + ceil(log2(2500)) = 13 back-to-back.
DRY=$("$HL_BIN/hoplab" run --dry-run "$T/rfc.yaml" 2>&1)
assert_match dry_run_bound "at most 30 trial\\(s\\) of 1\\.0 s" "$DRY"

if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -i "$INV" -o "$T/r" run \
    "$T/rfc.yaml" >"$T/out.txt" 2>"$T/err.txt"; then
	sed 's/^/    /' "$T/err.txt" | tail -20
	bail run "hoplab run exited non-zero"
fi
pass run
grep -q '^RFC 2544 (26.1 throughput' "$T/out.txt" && pass table ||
    fail table "no RFC 2544 table in: $(cat "$T/out.txt")"
C=$(ls -d "$T"/r/rfc-tbf-*)/rfc2544.csv
[ -s "$C" ] || bail csv "no $C"

# field TEST OUTCOME COLUMN: that column of the matching rows.
field() {
	awk -F, -v t="$1" -v o="$2" -v name="$3" 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["test"] == t && $h["outcome"] == o { print $h[name] }' "$C"
}
FPS=$(field throughput result rate_fps)
MBPS=$(field throughput result rate_mbps)
echo "    throughput $FPS frames/s = $MBPS Mbit/s (tbf: 1651.3 = 20.053)"
assert_near tput_fps 1651.3 "$FPS" 100
assert_near tput_mbps 20.053 "$MBPS" 1.214

# Every pass at or below the result, every fail above it.
BAD=$(awk -F, -v r="$FPS" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i;
    next } $h["test"] == "throughput" && (($h["outcome"] == "pass" &&
    $h["rate_fps"] > r) || ($h["outcome"] == "fail" &&
    $h["rate_fps"] <= r)) { print }' "$C")
[ -z "$BAD" ] && pass search_order || fail search_order "$BAD"

LREC=$(field latency measured received)
[ -n "$LREC" ] && [ "$LREC" -gt 0 ] && pass latency_row ||
    fail latency_row "latency row received '$LREC'"

LOSS1=$(field loss measured loss_pct | head -1)
RATE1=$(field loss measured rate_fps | head -1)
assert_num_eq loss_first_rate "$RATE1" 2500
assert_near loss_at_max "$LOSS1" 34 4
LAST2=$(field loss measured loss_pct | tail -2 | tr '\n' ' ')
[ "$LAST2" = "0.000 0.000 " ] && pass loss_stops_after_two_clean ||
    fail loss_stops_after_two_clean "last two loss_pct: $LAST2"

# Back-to-back at 2500 frames/s: tbf holds 30000 / 1514 = 19 frames
# queued plus one of its 3000-byte bucket; each frame of the burst adds
# 1 - 1651.3 / 2500 = 0.3395 frame of backlog, so bursts of up to
# 20 / 0.3395 = 58.9 frames lose nothing: 59 (+-15 for the generator's
# pacing under load and tbf's token rounding; 49 was measured under
# make check's load).
B2B=$(field back-to-back result sent)
echo "    back-to-back $B2B frames (tbf: about 59)"
assert_near back_to_back 59 "$B2B" 15
finish
