#!/bin/sh
# t_cpu: cpu.csv (docs/results.md "cpu.csv") against what this script
# knows itself.
#
# cpu.yaml runs one 9 s point through router A with a cpu role on gen
# and A, sampling every second, and starts a busy loop on A through the
# plan's exec (`timeout 4 sh -c 'while :; do :; done'` at 3 s; its start
# and end from exec.csv).  Then:
#   - every row's eight *_pct columns sum to 100 +- 0.05;
#   - gen and A have `all` rows whose intervals follow each other
#     without a gap, covering the point, and every `all` row has one
#     row per core of this machine (nproc), cpu 0..N-1, hoplab_pct only
#     on `all` rows;
#   - shared_kernel is 1 on every row and run.json's manifest says
#     shared_kernel true with gen and A in one group (one kernel here);
#   - the intervals inside the busy loop's time have a busy share
#     (100 - idle_pct of `all`) above the others' by at least half of
#     one core of N (100 / N * 0.5): the loop keeps one core busy;
#   - hoplab_pct of gen is above 0 while hoplab-gen sends;
#   - A's hoplab_pct (the loop is a child of A's agent) is above half a
#     core inside the loop's time, and above gen's there;
#   - plots/cpu.png is drawn by `hoplab report` (a run draws no plots).
. "$(dirname "$0")/lib.sh"
need_root
T=$(mktemp -d /tmp/hoplab-t-cpu.XXXXXX) || bail tmp "mktemp failed"
at_exit "rm -rf '$T'"
lab_init hlcpu 207
lab_up A
NCPU=$(nproc)

if ! (cd "$HL_ROOT" && "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$T/out" \
    run tests/integration/plans/cpu.yaml) >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run cpu.yaml failed"
fi
D=$(ls -d "$T"/out/cpu-*)
C=$D/cpu.csv
# the loop's time, as the agent saw it (exec.csv)
B0=$(awk -F, 'NR == 2 { print $8 }' "$D/exec.csv")
B1=$(awk -F, 'NR == 2 { print $9 }' "$D/exec.csv")
[ -n "$B0" ] && [ -n "$B1" ] || bail exec_csv "no command in exec.csv"

python3 - "$C" "$NCPU" "$B0" "$B1" "$D/run.json" >"$T/check.txt" <<'PY'
import csv, json, sys
path, ncpu, b0, b1, rj = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
    float(sys.argv[4]), sys.argv[5]
rows = list(csv.DictReader(open(path)))
pcts = ["user_pct", "nice_pct", "system_pct", "iowait_pct", "irq_pct",
        "softirq_pct", "steal_pct", "idle_pct"]
def out(name, ok, why=""):
    print(("ok " if ok else "FAIL ") + name + ("" if ok else ": " + why))
bad = [r for r in rows if abs(sum(float(r[c]) for c in pcts) - 100) > 0.05
       or any(float(r[c]) < 0 for c in pcts)]
out("sum_100 (%d rows)" % len(rows), rows and not bad, str(bad[:2]))
hosts = sorted({r["host"] for r in rows})
out("hosts gen,A", hosts == ["A", "gen"], str(hosts))
for h in ("gen", "A"):
    al = [r for r in rows if r["host"] == h and r["cpu"] == "all"]
    gaps = [(a["time_unix_s"], b["time_unix_s"]) for a, b in zip(al, al[1:])
            if abs(float(a["time_unix_s"]) + float(a["interval_s"]) -
                   float(b["time_unix_s"])) > 0.01]
    span = sum(float(a["interval_s"]) for a in al)
    out("intervals_%s (%d, %.1f s)" % (h, len(al), span),
        len(al) >= 9 and span >= 9 and not gaps, str(gaps))
    miss = []
    for a in al:
        cores = sorted(int(r["cpu"]) for r in rows if r["host"] == h and
                       r["time_unix_s"] == a["time_unix_s"] and r["cpu"] != "all")
        if cores != list(range(ncpu)):
            miss.append((a["time_unix_s"], cores))
    out("cores_%s (%d each)" % (h, ncpu), not miss, str(miss[:2]))
    hp = [r for r in rows if r["host"] == h and r["cpu"] != "all" and r["hoplab_pct"]]
    out("hoplab_pct_only_all_%s" % h, not hp, str(hp[:1]))
sk = {r["shared_kernel"] for r in rows}
out("shared_kernel_1", sk == {"1"}, str(sk))
m = json.load(open(rj))["manifest"]
out("run.json shared_kernel", m["shared_kernel"] is True, str(m.get("shared_kernel")))
g = m["shared_kernels"]
out("run.json shared_kernels gen,A", len(g) == 1 and sorted(g[0]) == ["A", "gen"], str(g))
# busy share of `all` rows inside the loop's time against the others
inside, outside = [], []
for r in rows:
    if r["cpu"] != "all":
        continue
    t, l = float(r["time_unix_s"]), float(r["interval_s"])
    busy = 100 - float(r["idle_pct"])
    if t >= b0 and t + l <= b1:
        inside.append(busy)
    elif t + l <= b0 or t >= b1:
        outside.append(busy)
need = 100.0 / ncpu * 0.5
if inside and outside:
    mi, mo = sum(inside) / len(inside), sum(outside) / len(outside)
    out("busy_loop %.1f%% in %d intervals vs %.1f%% in %d: +%.1f >= %.1f" %
        (mi, len(inside), mo, len(outside), mi - mo, need), mi - mo >= need,
        "%.1f - %.1f < %.1f" % (mi, mo, need))
else:
    out("busy_loop", False, "intervals inside %d, outside %d" %
        (len(inside), len(outside)))
gh = [float(r["hoplab_pct"]) for r in rows if r["host"] == "gen" and r["cpu"] == "all"]
out("hoplab_pct_gen max %.2f > 0" % max(gh or [0]), max(gh or [0]) > 0, str(gh))
def hp_in(h):
    return [float(r["hoplab_pct"]) for r in rows if r["host"] == h and
            r["cpu"] == "all" and float(r["time_unix_s"]) >= b0 and
            float(r["time_unix_s"]) + float(r["interval_s"]) <= b1]
ha, hg = hp_in("A"), hp_in("gen")
ok = bool(ha) and min(ha) >= need and min(ha) > max(hg or [0])
out("hoplab_pct_A_busy min %.1f >= %.1f, gen max %.1f" % (min(ha or [0]),
    need, max(hg or [0])), ok, "A %s gen %s" % (ha, hg))
PY
[ $? -eq 0 ] || fail check_script "the python check failed"
while read -r v name; do
	case $v in
	ok) pass "$name" ;;
	*) fail "${name%%:*}" "${name#*: }" ;;
	esac
done <"$T/check.txt"
"$HL_BIN/hoplab" report "$D" >"$T/report.log" 2>&1
[ -s "$D/plots/cpu.png" ] && grep -q "drew    plots/cpu.png" "$T/report.log" &&
    pass "hoplab report draws plots/cpu.png" ||
    fail report_cpu_png "$(grep -i cpu "$T/report.log" | tail -3)"
finish
