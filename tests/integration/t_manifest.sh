#!/bin/sh
# t_manifest: what a run says about where it ran and what disturbed it
# (docs/results.md "run.json", "disturbance.csv").
#
# 1. manifest.yaml (variants A, A-B): run.json's manifest holds, for
#    gen, A and B, the kernel, CPU model and governor this script reads
#    itself (uname -r, /proc/cpuinfo, cpufreq in sysfs), hoplab's version
#    as `hoplab --version` prints it and a commit; for each lab interface
#    (gen tx/rx, A and B in/out) the MTU from sysfs, the qdisc kinds `tc
#    qdisc show` lists and the offloads `ethtool -k` reports; the plan's
#    SHA-256 is sha256sum's.  disturbance.csv has one row per host per
#    point (gen + A; gen + A + B), shares within 0..100, the generator's
#    pacing error equal to summary.csv's tx_idt_err_p99_us, and a
#    point's summary.csv rows say disturbed exactly when one of its
#    hosts' rows does.
# 2. disturbed.yaml: a pacing threshold of 1 ns flags every point on
#    purpose: a console warning per point naming the pacing error,
#    disturbed=1 on every summary.csv row, the gen rows of
#    disturbance.csv disturbed with that reason and the router rows
#    (all their thresholds off) not, and run.json's "disturbance" array
#    with one entry per point.
# 3. `hoplab report` reads the folder back with the new summary.csv
#    column and, on a copy, without it: the same hops.csv both times
#    but for the disturbed flags (no row of the copy is disturbed).
. "$(dirname "$0")/lib.sh"
need_root
T=$(mktemp -d /tmp/hoplab-t-manifest.XXXXXX) || bail tmp "mktemp failed"
at_exit "rm -rf '$T'"
lab_init hlmf 205
lab_up A B

run_plan()	# NAME: run tests/integration/plans/NAME.yaml into $T/NAME
{
	if ! (cd "$HL_ROOT" && "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$T/$1" \
	    run "tests/integration/plans/$1.yaml") >"$T/$1.log" 2>&1; then
		sed 's/^/    /' "$T/$1.log"
		bail "run_$1" "hoplab run $1.yaml failed"
	fi
	D=$(ls -d "$T/$1/$1"-*)
}

# json PATH...: run.json's value at that path, printed by python3.
json()
{
	python3 - "$D/run.json" "$@" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[k] if not isinstance(v, list) else v[int(k)]
print(json.dumps(v) if isinstance(v, (dict, list, bool)) else v)
PY
}

# --- 1. the manifest ------------------------------------------------------
run_plan manifest
KERNEL=$(uname -r)
MODEL=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[ -n "$MODEL" ] || MODEL=unknown
GOV=$(cat /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor 2>/dev/null |
    awk '!seen[$0]++' | paste -sd, -)
[ -n "$GOV" ] || GOV=none
VERSION=$("$HL_BIN/hoplab" --version | awk '{ print $2 }' | tr -d ,)
for h in gen A B; do
	assert_eq "kernel_$h" "$KERNEL" "$(json manifest hosts $h kernel)"
	assert_eq "cpu_model_$h" "$MODEL" "$(json manifest hosts $h cpu_model)"
	assert_eq "governor_$h" "$GOV" "$(json manifest hosts $h governor)"
	assert_eq "version_$h" "$VERSION" \
	    "$(json manifest hosts $h hoplab_version)"
	c=$(json manifest hosts $h commit)
	[ -n "$c" ] && pass "commit_$h ($c)" || fail "commit_$h" "empty"
done
assert_eq kernel_controller "$KERNEL" "$(json manifest controller kernel)"
assert_eq plan_sha256 "$(sha256sum <"$HL_ROOT/tests/integration/plans/manifest.yaml" |
    cut -d' ' -f1)" "$(json manifest plan_sha256)"

# ethtool -k's name of each offload run.json reports.
ethname()
{
	case $1 in
	rx-checksum) echo rx-checksumming ;;
	tx-checksum) echo tx-checksumming ;;
	scatter-gather) echo scatter-gather ;;
	tso) echo tcp-segmentation-offload ;;
	gso) echo generic-segmentation-offload ;;
	gro) echo generic-receive-offload ;;
	lro) echo large-receive-offload ;;
	esac
}

check_iface()	# HOST IFACE
{
	assert_eq "mtu_$1_$2" "$(in_host "$1" cat "/sys/class/net/$2/mtu")" \
	    "$(json manifest hosts "$1" ifaces "$2" mtu)"
	assert_eq "qdisc_$1_$2" "$(in_host "$1" tc qdisc show dev "$2" |
	    awk '$1 == "qdisc" && !seen[$2]++ { print $2 }' | paste -sd, -)" \
	    "$(json manifest hosts "$1" ifaces "$2" qdisc)"
	json manifest hosts "$1" ifaces "$2" offloads >"$T/off.json"
	python3 -c 'import json, sys
for k, v in json.load(open(sys.argv[1])).items():
    print(k, "on" if v else "off")' "$T/off.json" >"$T/off.txt"
	n=0
	bad=
	while read -r name state; do
		n=$((n + 1))
		want=$(in_host "$1" ethtool -k "$2" |
		    awk -v k="$(ethname "$name"):" '$1 == k { print $2 }')
		[ "$want" = "$state" ] || bad="$bad $name=$state(ethtool $want)"
	done <"$T/off.txt"
	[ "$n" -ge 6 ] && [ -z "$bad" ] &&
	    pass "offloads_$1_$2 ($n as ethtool -k)" ||
	    fail "offloads_$1_$2" "$n offloads,$bad"
}
check_iface gen tx
check_iface gen rx
check_iface A in
check_iface A out
check_iface B in
check_iface B out

S=$D/summary.csv
X=$D/disturbance.csv
# disturbed follows tx_idt_err_p999_us (later columns come after it)
assert_eq summary_disturbed_column disturbed "$(head -1 "$S" | awk -F, '{
    for (i = 1; i < NF; i++) if ($i == "tx_idt_err_p999_us") print $(i + 1) }')"
assert_eq disturbance_rows "1 gen,1 A,2 gen,2 A,2 B" \
    "$(awk -F, 'NR > 1 { print $1, $6 }' "$X" | paste -sd, -)"
for c in steal_pct softirq_pct irq_pct busy_pct; do
	out=$(csv_col "$X" $c | awk '$1 == "" || $1 < 0 || $1 > 100')
	[ -z "$out" ] && pass "range_$c (0..100)" || fail "range_$c" "$out"
done
out=$(csv_col "$X" runq_mean | awk '$1 == "" || $1 < 0')
[ -z "$out" ] && pass "runq_mean >= 0" || fail runq_mean "$out"
# The generator's pacing error is summary.csv's, a router has none.
for p in 1 2; do
	v=$(awk -F, -v p=$p 'NR > 1 && $1 == p && $7 == "gen" { print $16 }' "$X")
	want=$(csv_col "$S" tx_idt_err_p99_us | sed -n "${p}p")
	assert_eq "pacing_point$p" "$want" "$v"
	r=$(awk -F, -v p=$p 'NR > 1 && $1 == p && $7 == "router" { print $16 }' "$X" |
	    paste -sd, -)
	case $r in *[0-9]*) fail "pacing_router_point$p" "$r" ;;
	*) pass "pacing_router_point$p (empty)" ;; esac
	dp=$(awk -F, -v p=$p 'NR > 1 && $1 == p && $17 == 1 { d = 1 }
	    END { print d + 0 }' "$X")
	assert_eq "summary_disturbed_point$p" "$dp" \
	    "$(csv_col "$S" disturbed | sed -n "${p}p")"
done

# --- 2. disturbed on purpose ----------------------------------------------
run_plan disturbed
S=$D/summary.csv
X=$D/disturbance.csv
n=$(grep -c 'was disturbed: gen: pacing p99 .* us > 0.001 us' "$T/disturbed.log")
assert_eq console_warnings 4 "$n"
assert_eq summary_all_disturbed "1,1,1,1" "$(csv_col "$S" disturbed | paste -sd, -)"
assert_eq gen_rows_disturbed "1,1,1,1" "$(awk -F, 'NR > 1 && $7 == "gen" {
    print $17 }' "$X" | paste -sd, -)"
out=$(awk -F, 'NR > 1 && $7 == "gen" && $18 !~ /^pacing p99 [0-9.]+ us > 0.001 us$/' "$X")
[ -z "$out" ] && pass "gen_reasons" || fail gen_reasons "$out"
assert_eq router_rows_quiet "0,0,0,0,0,0" "$(awk -F, 'NR > 1 && $7 == "router" {
    print $17 }' "$X" | paste -sd, -)"
assert_eq json_disturbance_points "1,2,3,4" "$(python3 -c 'import json, sys
print(",".join(str(d["point_n"]) for d in json.load(open(sys.argv[1]))["disturbance"]
    if d["host"] == "gen" and d["reason"].startswith("pacing p99")))' "$D/run.json")"

# --- 3. hoplab report with and without the column ---------------------------
cp -r "$D" "$T/old"
# an older folder: summary.csv up to the column before disturbed (the
# last columns cut from the end: ts_source is a quoted field with a comma)
K=$(head -1 "$D/summary.csv" | awk -F, '{ for (i = 1; i <= NF; i++)
    if ($i == "disturbed") print i }')
CUT=$(($(head -1 "$D/summary.csv" | awk -F, '{ print NF }') - K + 1))
awk -F, -v OFS=, -v c="$CUT" '{ NF = NF - c; print }' "$D/summary.csv" \
    >"$T/old/summary.csv"
for d in "$D" "$T/old"; do
	if ! "$HL_BIN/hoplab" report "$d" >"$T/report.log" 2>&1; then
		sed 's/^/    /' "$T/report.log"
		fail "report_$(basename "$d")" "hoplab report failed"
	fi
done
# Without the column no row is disturbed: the same hops.csv but for the
# disturbed flags (hops.csv's last column, flags).
sed 's/;disturbed$//; s/,disturbed$/,/; s/disturbed;//' "$D/hops.csv" >"$T/hops.undisturbed"
cmp -s "$T/hops.undisturbed" "$T/old/hops.csv" && pass "report: same hops.csv" ||
    fail report_hops "$(diff "$T/hops.undisturbed" "$T/old/hops.csv")"
assert_eq report_keeps_old_layout "$((K - 1))" "$(head -1 "$T/old/summary.csv" |
    awk -F, '{ print NF }')"
finish
