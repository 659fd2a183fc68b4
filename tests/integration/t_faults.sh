#!/bin/sh
# t_faults: faults on a run's timeline, end to end (docs/plans.md
# "Faults").  Lab prefix hlt15, management K 225; routers A, B, C, kernel
# forwarding, a wire host for the impaired link A-B.
#
# Plan: variant A-B-C, frame 128, 5000 probes 1 ms apart (5 s), repeated
# twice; link B-C down at 1.5 s and up at 2.5 s (both ends); link A-B's
# emulator set to "loss 100%" forward at 3.5 s and back to none at 4 s.
# Known truth, per point, from the times faults.csv says the agents made
# each change (measured from the point's first packet):
#
# 1. faults.csv: B and C down, B and C up, two sets, all "ok", each
#    within half an interval (0.25 s) of its planned time (the first
#    point of a variant fires a few ms early: docs/plans.md);
# 2. intervals.csv: no loss in any interval that ends before the link
#    went down (less one packet gap: the probe in flight), every interval
#    wholly between down and up lost every probe, and no loss in any
#    interval from 0.5 s after the up until the set at 3.5 s;
# 3. outages.csv: the B-C outage's estimate (lost x 1 ms) is the time
#    the link was down, at least, and at most 0.25 s more (re-ARP after
#    the up); its intervals span the down and the up; the set's outage
#    is 0.5 s within 0.05 s;
# 4. the console printed every fault with its time;
# 5. a fault after the run's end is refused before anything starts,
#    with file, line and key;
# 6. `lab down` leaves no namespace of the lab.
# About 25 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlt15 225
T=$(mktemp -d /tmp/hoplab-t-faults.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"

cat >"$T/faults.yaml" <<'PLAN'
name: faults
topology: {chain: [A, B, C]}
variants: [A-B-C]
repeat: 2
impairments: [{link: A-B, delay: 0ms}]
flows:
  - {name: probe, frame: 128, idt: 1ms, count: 5000}
faults:
  - {at: 1.5s, link: B-C, action: down}
  - {at: 2.5s, link: B-C, action: up}
  - {at: 3.5s, link: A-B, set: "loss 100%", direction: forward}
  - {at: 4s, link: A-B, set: ""}
PLAN

# 5. first: refused before any lab is needed.
sed 's/at: 4s/at: 5s/' "$T/faults.yaml" >"$T/late.yaml"
"$HL_BIN/hoplab" -p "$LAB_PREFIX" run "$T/late.yaml" >"$T/late.log" 2>&1
assert_eq late_fault_exit_2 2 "$?"
assert_match late_fault_named "late.yaml:12: faults\[3\]\.at: 5s is after \
the run's end: the traffic lasts 5.000 s" "$(cat "$T/late.log")"

lab_up A B C
if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$T/r" run "$T/faults.yaml" \
    >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run faults.yaml failed"
fi
pass run_with_faults_completes
D=$(ls -d "$T"/r/faults-*)

# fault_t POINT HOST ACTION: the time_s of that row of faults.csv.
fault_t()
{
	awk -F, -v p="$1" -v h="$2" -v a="$3" 'NR == 1 {
	    for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["point"] == p && $c["host"] == h && $c["action"] == a {
	    print $c["time_s"]; exit }' "$D/faults.csv"
}

# 1.
assert_eq faults_csv_rows 14 "$(($(wc -l <"$D/faults.csv") - 1))"
assert_eq faults_all_ok 14 "$(csv_col "$D/faults.csv" result | grep -c '^ok$')"
for p in 1 2; do
	assert_near "p${p}_B_down_at_1.5s" 1.5 "$(fault_t $p B down)" 0.25
	assert_near "p${p}_C_down_at_1.5s" 1.5 "$(fault_t $p C down)" 0.25
	assert_near "p${p}_B_up_at_2.5s" 2.5 "$(fault_t $p B up)" 0.25
	assert_near "p${p}_C_up_at_2.5s" 2.5 "$(fault_t $p C up)" 0.25
	assert_near "p${p}_set_at_3.5s" 3.5 "$(fault_t $p w-A-B set)" 0.25
done

# 2. and 3., per point.
for p in 1 2; do
	down=$(fault_t $p B down)
	up=$(fault_t $p C up)
	set=$(fault_t $p w-A-B set)
	r=$(awk -F, -v rep=$p -v down="$down" -v up="$up" -v set="$set" '
	    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["rep"] == rep {
		s = $c["start_s"]; e = s + $c["length_s"]; n++
		if (e <= down - 0.001 && $c["lost"] != 0) bad = bad " before:" s
		if (s >= down && e <= up && $c["lost"] != $c["sent"])
			bad = bad " during:" s
		if (s >= up + 0.5 && e <= set && $c["lost"] != 0)
			bad = bad " after:" s
	    } END { print n, (bad == "" ? "ok" : bad) }' "$D/intervals.csv")
	assert_eq "p${p}_intervals_lose_exactly_around_the_fault" "10 ok" "$r"
	o=$(awk -F, -v rep=$p -v f="link B-C down" 'NR == 1 {
	    for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["rep"] == rep && $c["fault"] == f { print $c["outage_est_s"],
	    $c["first_loss_s"], $c["last_loss_s"] }' "$D/outages.csv")
	est=${o%% *}
	assert_ge "p${p}_outage_at_least_the_downtime" "$est" \
	    "$(awk -v a="$down" -v b="$up" 'BEGIN { print b - a - 0.002 }')"
	assert_le "p${p}_outage_at_most_0.25s_more" "$est" \
	    "$(awk -v a="$down" -v b="$up" 'BEGIN { print b - a + 0.25 }')"
	assert_eq "p${p}_outage_intervals_span_down_and_up" ok \
	    "$(echo "$o" | awk -v d="$down" -v u="$up" '{ print \
	    ($2 <= d && $3 >= u) ? "ok" : $0 }')"
	so=$(awk -F, -v rep=$p -v f="link A-B set" 'NR == 1 {
	    for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["rep"] == rep && $c["fault"] == f { print $c["outage_est_s"]
	    exit }' "$D/outages.csv")
	assert_near "p${p}_set_outage_0.5s" 0.5 "$so" 0.05
done
# Three set rows a point: "loss 100%" forward, then none both ways.
assert_eq set_rows_per_point 6 \
    "$(csv_col "$D/faults.csv" action | grep -c '^set$')"

# 4.
for w in "fault: link B-C down (B:out, C:in)" \
    "fault: link B-C up (B:out, C:in)" \
    "fault: link A-B set 'loss 100%' (a-b)"; do
	assert_eq "console: $w" 2 "$(grep -cF "] $w" "$T/run.log")"
done

# 6.
lab_down
assert_eq lab_down_leaves_no_namespace 0 \
    "$(ip netns list | grep -c "^$LAB_PREFIX-")"
finish
