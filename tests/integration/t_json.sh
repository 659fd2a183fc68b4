#!/bin/sh
# t_json: `hoplab run --json FILE --json-stream FILE` and `hoplab report
# --json DIR` (docs/json.md).  Lab prefix hljs, management K 193.
#
# 1. A short run through hoplab routers (chain A B, variants A and A-B,
#    1200 probes 1 ms apart at 64 B, link A-B down at 0.6 s and up at
#    0.8 s, so variant A-B's point has an outage), run with -q, the
#    document into a file and the stream on stdout.
# 2. The document is valid against docs/hoplab-run.schema.json and every
#    stream line against docs/hoplab-events.schema.json (python3's
#    jsonschema, Debian's python3-jsonschema); the document's summary,
#    hops and outages rows equal summary.csv's, hops.csv's and
#    outages.csv's cell by cell (numbers as numbers, text as text,
#    empty as null, hops.csv's flags as a list); run is run.json.
# 3. The stream: run_start first, run_end ("completed") last; for each
#    of the 2 points point_start, then its interval lines (at least one,
#    -q notwithstanding), then point_end, in point order; the faults
#    (down, up) inside point 2; each interval's sent equals intervals.csv's
#    row of that point, flow and index (the final batch's truth), its
#    received at most that row's (a console interval is a snapshot).
# 4. `hoplab report --json` on the folder prints the same document byte
#    for byte, and writes nothing into the folder; a copy with a number
#    cell "nan" and one empty gives null for both.  `hoplab attach
#    --json -` of the completed run prints the same document.
# 5. Bad input: report --json on a folder that is not a results folder,
#    on one without run.json, and on one whose run.json says
#    results_format 99 (exit 2, said so, for plain report too); run with
#    both on stdout, and --dry-run with --json (exit 2); a run whose
#    agents do not answer (exit 1, no document file left).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hljs 193
T=$(mktemp -d /tmp/hoplab-t-json.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hljs"
SCHEMA=$HL_ROOT/docs/hoplab-run.schema.json
ESCHEMA=$HL_ROOT/docs/hoplab-events.schema.json

# Debian's python3-jsonschema is for /usr/bin/python3; a python3 of
# one's own may have its own jsonschema.
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || bail jsonschema "no python3 with jsonschema: sudo make deps (python3-jsonschema)"

cat >"$T/plan.yaml" <<PLAN
name: jsrun
topology: {chain: [A, B]}
variants: [A, A-B]
router: {impl: hoplab}
sweep: {frame: [64]}
flows:
  - name: probe
    mode: l2
    frame: \$frame
    idt: 1ms
    count: 1200
faults:
  - {at: 0.6s, link: A-B, action: down}
  - {at: 0.8s, link: A-B, action: up}
PLAN

# --- 5a. bad command lines, before any lab -------------------------------
$HOPLAB run --json - --json-stream - "$T/plan.yaml" >"$T/both.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "would both write stdout" "$T/both.log" &&
    pass both_on_stdout_refused || fail both_on_stdout_refused "rc=$rc: $(cat "$T/both.log")"
$HOPLAB run --dry-run --json "$T/x.json" "$T/plan.yaml" >"$T/dry.log" 2>&1
assert_eq dry_run_with_json_exit_2 2 "$?"

# No agent answers (nothing listens on these loopback ports): the run
# fails before its folder is written; no document is left behind.
printf 'agents:\n  - {name: gen, address: 127.0.0.1, port: 7193}\n  - {name: A, address: 127.0.0.1, port: 7194}\n  - {name: B, address: 127.0.0.1, port: 7195}\n' \
    >"$T/none.yaml"
$HOPLAB --insecure -i "$T/none.yaml" -o "$T/none" run --json "$T/none.json" \
    "$T/plan.yaml" >"$T/none.log" 2>&1
rc=$?
[ $rc = 1 ] && [ ! -e "$T/none.json" ] &&
    grep -q "no document: the run failed before its results folder" "$T/none.log" &&
    pass failed_run_leaves_no_document ||
    fail failed_run_leaves_no_document "rc=$rc: $(cat "$T/none.log")"

lab_up A B

# --- 1. the run -----------------------------------------------------------
if ! $HOPLAB -q -o "$T/r" run --json "$T/doc.json" --json-stream - \
    "$T/plan.yaml" >"$T/stream.jsonl" 2>"$T/run.log"; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run failed"
fi
pass run
D=$(ls -d "$T"/r/jsrun-*)
grep -q "^Per-router processing time" "$T/run.log" &&
    pass tables_on_stderr || fail tables_on_stderr "$(head -5 "$T/run.log")"
[ "$(csv_col "$D/outages.csv" flow | wc -l)" -ge 1 ] &&
    pass outages_rows || fail outages_rows "no outages.csv rows"

# --- 2, 3. schemas, rows, the stream's order ------------------------------
"$PY" - "$SCHEMA" "$ESCHEMA" "$T/doc.json" "$T/stream.jsonl" "$D" \
    >"$T/check.txt" 2>&1 <<'PY'
import csv, json, sys
import jsonschema

schema, eschema, docf, streamf, d = sys.argv[1:6]
def check(name, ok, why=""):
    print(("ok %s" % name) if ok else ("FAIL %s %s" % (name, why)))

def validator(path):
    s = json.load(open(path))
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)

doc = json.load(open(docf))
errs = list(validator(schema).iter_errors(doc))
check("document_valid", not errs, errs[:1])
lines = open(streamf).read().splitlines()
evs = [json.loads(l) for l in lines]
ev_v = validator(eschema)
bad = [e for e in evs if not ev_v.is_valid(e)]
check("stream_lines_valid", evs and not bad,
      bad[:1] and list(ev_v.iter_errors(bad[0]))[:1])
check("stream_only_json", len(lines) == len(evs) and len(evs) > 0)

# each file's text columns (docs/results.md): words, not numbers
TEXT = {"summary": {"variant", "flow", "ts_source", "point", "replica_of",
                    "delay_kind", "group"},
        "hops": {"flow", "method", "variants", "ci_method"},
        "outages": {"variant", "flow", "fault"}}
def same_rows(name, rows, path, lists=()):
    text = TEXT[name.split("_")[0]]
    with open(path, newline="") as f:
        want = list(csv.DictReader(f))
    if len(rows) != len(want) or not want:
        return check(name, False, "%d rows, csv %d" % (len(rows), len(want)))
    for i, (got, w) in enumerate(zip(rows, want)):
        if list(got) != list(w):
            return check(name, False, "row %d keys %s" % (i, list(got)))
        for k, cell in w.items():
            v = got[k]
            if k in lists:
                ok = v == [x for x in cell.split(";") if x]
            elif k in text:
                ok = v == cell
            elif cell == "":
                ok = v is None
            else:
                ok = (type(v) in (int, float) and
                      float(cell) == v)
            if not ok:
                return check(name, False, "row %d %s: %r, csv %r" %
                             (i, k, v, cell))
    check(name, True)

same_rows("summary_rows_equal_csv", doc["summary"], d + "/summary.csv")
same_rows("hops_rows_equal_csv", doc["hops"], d + "/hops.csv", ("flags",))
same_rows("outages_rows_equal_csv", doc["outages"], d + "/outages.csv")
check("hops_flags_listed", any(h["flags"] for h in doc["hops"]),
      [h["flags"] for h in doc["hops"]])
check("run_is_run_json", doc["run"] == json.load(open(d + "/run.json")))
check("run_completed", doc["run"]["status"] == "completed")

names = [e["event"] for e in evs]
check("run_start_first", names[0] == "run_start" and
      evs[0]["points"] == 2 and evs[0]["results_dir"] == d, evs[0])
check("run_end_last", names[-1] == "run_end" and
      evs[-1]["status"] == "completed" and evs[-1]["points_done"] == 2,
      evs[-1])
check("run_events_once", names.count("run_start") == 1 and
      names.count("run_end") == 1, names)
# each point: start, its intervals, end; points in order
order, cur, nint = [], None, {}
ok = True
for e in evs[1:-1]:
    n = e.get("point")
    if e["event"] == "point_start":
        ok &= cur is None
        cur = n
        order.append(n)
    elif e["event"] == "point_end":
        ok &= cur == n
        cur = None
    elif e["event"] in ("interval", "fault"):
        ok &= cur == n
        if e["event"] == "interval":
            nint[n] = nint.get(n, 0) + 1
check("points_start_intervals_end_in_order", ok and order == [1, 2] and
      cur is None, names)
check("intervals_every_point", nint.get(1, 0) >= 1 and nint.get(2, 0) >= 1,
      nint)
faults = [(e["point"], e["name"], e["action"], e["ok"]) for e in evs
          if e["event"] == "fault"]
check("faults_in_point_2", faults == [(2, "A-B", "down", True),
                                      (2, "A-B", "up", True)], faults)
pts = {e["point"]: e for e in evs if e["event"] == "point_start"}
check("point_keys", [(p["variant"], p["frame_bytes"], p["rep"])
                     for _, p in sorted(pts.items())] ==
      [("A", 64, 1), ("A-B", 64, 1)], pts)
# intervals against intervals.csv, the final batch's truth
with open(d + "/intervals.csv", newline="") as f:
    iv = {(r["variant"], r["flow"], int(r["interval"])): r
          for r in csv.DictReader(f)}
bad = []
for e in evs:
    if e["event"] != "interval":
        continue
    r = iv.get((pts[e["point"]]["variant"], e["flow"], e["interval"]))
    if r is None or int(r["sent"]) != e["sent"] or \
            e["received"] > int(r["received"]):
        bad.append((e, r and (r["sent"], r["received"])))
check("intervals_match_intervals_csv", not bad, bad[:1])
PY
while read -r word name why; do
	case $word in
	ok) pass "$name" ;;
	*) fail "$name" "$why" ;;
	esac
done <"$T/check.txt"
grep -q "^ok run_start_first" "$T/check.txt" ||
    fail check_script "$(tail -5 "$T/check.txt")"

# --- 4. report --json -----------------------------------------------------
ls -l --time-style=+%s.%N "$D" >"$T/before.ls"
$HOPLAB report --json "$D" >"$T/report.json" 2>"$T/report.log"
assert_eq report_json_exit_0 0 "$?"
cmp -s "$T/doc.json" "$T/report.json" && pass report_equals_run_document ||
    fail report_equals_run_document "$(diff "$T/doc.json" "$T/report.json" | head -5)"
ls -l --time-style=+%s.%N "$D" >"$T/after.ls"
cmp -s "$T/before.ls" "$T/after.ls" && pass report_json_writes_nothing ||
    fail report_json_writes_nothing "$(diff "$T/before.ls" "$T/after.ls")"
$HOPLAB attach --json - "$D" >"$T/attach.json" 2>"$T/attach.log"
assert_eq attach_json_complete_exit_0 0 "$?"
cmp -s "$T/doc.json" "$T/attach.json" && pass attach_json_of_complete_run ||
    fail attach_json_of_complete_run "$(diff "$T/doc.json" "$T/attach.json" | head -5)"
C="$T/nan"
cp -r "$D" "$C"
# row 1: delay_mean_us "nan", jitter_us empty
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR == 2 { $c["delay_mean_us"] = "nan"; $c["jitter_us"] = "" } 1' \
    "$D/summary.csv" >"$C/summary.csv"
assert_eq nan_and_empty_are_null "None None" "$($HOPLAB report --json "$C" |
    "$PY" -c 'import json, sys; r = json.load(sys.stdin)["summary"][0]
print(r["delay_mean_us"], r["jitter_us"])')"

# --- 5b. folders it cannot read -------------------------------------------
mkdir "$T/empty"
$HOPLAB report --json "$T/empty" >"$T/bad.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "is not a results folder" "$T/bad.log" &&
    pass not_results_dir_exit_2 || fail not_results_dir_exit_2 "rc=$rc: $(cat "$T/bad.log")"
M="$T/norunjson"
cp -r "$D" "$M"
rm "$M/run.json"
$HOPLAB report --json "$M" >"$T/norun.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "has no run.json" "$T/norun.log" &&
    pass no_run_json_exit_2 || fail no_run_json_exit_2 "rc=$rc: $(cat "$T/norun.log")"
N="$T/newer"
cp -r "$D" "$N"
sed 's/"results_format": 1,/"results_format": 99,/' "$D/run.json" >"$N/run.json"
grep -q '"results_format": 99' "$N/run.json" || fail newer_setup "no results_format in run.json"
for how in "--json" "--no-plots"; do
	$HOPLAB report $how "$N" >"$T/newer.log" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q "written by a newer hoplab (0.1.0, results format 99)" "$T/newer.log" &&
	    pass "newer_format_exit_2_$how" ||
	    fail "newer_format_exit_2_$how" "rc=$rc: $(cat "$T/newer.log")"
done
cmp -s "$D/hops.csv" "$N/hops.csv" && pass newer_folder_untouched ||
    fail newer_folder_untouched "hops.csv changed"
finish
