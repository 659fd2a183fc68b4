#!/bin/sh
# t_enospc: the controller's results folder fills up mid-run; the run
# stops cleanly and `hoplab attach` completes it once space is free,
# nothing lost or doubled.  Lab prefix hlns, management K 198.
#
# 1. An uninterrupted run of a 6-point plan (plans/enospc.yaml: variant
#    A, frames 64/128/256, 2 repetitions, 1000 probes each, the link
#    gen-A through hoplab-link) into an ordinary folder: the reference.
# 2. The same plan with its results on a tmpfs of this test's own (4 MiB).
#    Once state.json has point 3 in flight, a filler file takes every free
#    byte of it, so that the disk fills under a row (the old controller
#    left that row cut short in its file, and synced it into state.json's
#    sizes when it could).
#    The run must stop with exit status 1 (docs: the run failed), name a
#    file of its results folder with "No space left on device", leave no
#    hoplab-gen running (its agents were told to stop), no temporary
#    file (.tmp, .part) and no row cut short under a real name (every
#    CSV ends with a whole line), and state.json not "completed".
# 3. The filler is deleted; `hoplab attach DIR` must end with exit 0 and
#    "completed", the gen agent's spool empty (every batch written, then
#    acknowledged), and the results equal the reference's: summary.csv's
#    (variant, frame, rep, flow, sent) rows in order and each point's
#    probes the plan's 1000 sent, none doubled; intervals.csv's sent per
#    point; pdf.csv's counts per point = summary's received; no cpu.csv
#    interval nor routers.csv or links.csv batch row twice, and links.csv
#    with each measured point's final report, whose forward rx_packets
#    counts at least its 1000 probes (the link reports the agents kept
#    while no controller listened are written by the attach, not only
#    acknowledged; a point measured again also keeps its first link
#    role's rows, as disturbance.csv does, so points are compared once).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlns 198
T=$(mktemp -d /tmp/hoplab-t-enospc.XXXXXX)
M=$T/disk
mkdir "$M"
RUN_PID=
at_exit '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null; wait 2>/dev/null'
at_exit "umount '$M' 2>/dev/null; rm -rf '$T'"
mount -t tmpfs -o size=4m,mode=0755 hlns-results "$M" ||
    bail tmpfs "could not mount a tmpfs on $M"
HOPLAB="$HL_BIN/hoplab -p hlns"
PLAN=$HL_ROOT/tests/integration/plans/enospc.yaml

gen_runs() { proc_in_netns hlns-gen hoplab-gen; }

lab_up A
SPOOL=$LAB_STATE/gen/spool

# --- 1. the reference -----------------------------------------------------
$HOPLAB -q -o "$T/ref" run "$PLAN" >"$T/ref.log" 2>&1 ||
    bail reference_run "the uninterrupted run failed: $(tail -n 5 "$T/ref.log")"
REF=$(ls -d "$T/ref"/enospc-*)
summary_keys "$REF/summary.csv" "$T/refk" >"$T/ref.keys"
assert_eq "reference: 6 rows of 1000 probes" \
    "$(seq 6 | sed 's/.*/1000/')" "$(cut -d, -f5 "$T/ref.keys")"

# --- 2. the disk fills during point 3 -------------------------------------
$HOPLAB -o "$M" run "$PLAN" >"$T/full.log" 2>&1 &
RUN_PID=$!
wait_log 60 '^\[3/6\]' "$T/full.log" ||
    bail full_point3 "point 3 never started: $(tail -n 5 "$T/full.log")"
DIR=$(ls -d "$M"/enospc-*)
# Once state.json has point 3 in flight, the next writes are rows (cpu.csv,
# routers.csv during the point, summary, intervals and pdf at its end):
# the disk fills under one of them, before the next state.json.
wait_log 10 '"in_flight": \{"gen": \[[0-9]+\]\}' "$DIR/state.json" ||
    bail full_in_flight "state.json never had point 3 in flight"
dd if=/dev/zero of="$M/filler" bs=64k 2>/dev/null	# until ENOSPC
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 60 "the run to stop" gone "$RUN_PID" ||
    bail full_stops "the run went on with a full disk: $(tail -n 3 "$T/full.log")"
wait "$RUN_PID"
RC=$?
RUN_PID=
assert_eq "full: exit status 1 (the run failed; no crash)" 1 "$RC"
[ "$RC" = 1 ] || tail -n 8 "$T/full.log" | sed 's/^/    /'
assert_match "full: the error names the file and ENOSPC" \
    "$DIR/[^:]+: No space left on device" "$(cat "$T/full.log")"
grep -m1 "No space left" "$T/full.log" | sed 's/^/    /'
assert_match "full: the error says how to go on" \
    "once that is fixed, \`hoplab attach $DIR\` goes on with the run" \
    "$(cat "$T/full.log")"
assert_fails "full: no sanitizer report or signal" \
    grep -Eq "AddressSanitizer|runtime error|Segmentation|Aborted" "$T/full.log"
no_gen() { ! gen_runs; }
wait_for 10 "the point's hoplab-gen to end" no_gen
assert_fails "full: no hoplab-gen left running" gen_runs
assert_eq "full: no temporary file left" "" \
    "$(find "$DIR" -name '*.tmp' -o -name '*.part')"
cut_short=
for f in $(find "$DIR" -name '*.csv'); do
	[ -s "$f" ] && [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" != '\n' ] &&
	    cut_short="$cut_short ${f#"$DIR"/}"
done
assert_eq "full: no CSV ends in a row cut short" "" "$cut_short"
assert_fails "full: state.json is not completed" \
    grep -q '"status": "completed"' "$DIR/state.json"

# --- 3. space freed, attach -----------------------------------------------
rm -f "$M/filler"
$HOPLAB -o "$M" attach "$DIR" >"$T/att.log" 2>&1
RC=$?
assert_eq "attach: exit 0" 0 "$RC"
[ "$RC" = 0 ] || tail -n 8 "$T/att.log" | sed 's/^/    /'
grep "^attach" "$T/att.log" | sed 's/^/    /'
assert_match "attach: state.json completed" '"status": "completed"' \
    "$(cat "$DIR/state.json")"
spool_empty() { [ -z "$(ls "$SPOOL" 2>/dev/null)" ]; }
wait_for 5 "the gen agent's spool to empty" spool_empty
assert_eq "attach: the gen agent's spool is empty" "" "$(ls "$SPOOL")"
summary_keys "$DIR/summary.csv" "$T/attk" >"$T/att.keys"
assert_eq "attach: summary rows equal the uninterrupted run's" \
    "$(cat "$T/ref.keys")" "$(cat "$T/att.keys")"
assert_eq "attach: no summary row doubled" 6 \
    "$(cut -d, -f1-4 "$T/att.keys" | sort -u | wc -l | tr -d ' ')"
isums()
{
	for c in variant frame_bytes rep sent; do
		csv_col "$1" $c >"$2.$c" || return 1
	done
	paste -d, "$2.variant" "$2.frame_bytes" "$2.rep" "$2.sent" |
	    awk -F, '{ s[$1 "," $2 "," $3] += $4 }
	    END { for (k in s) print k "," s[k] }' | sort
}
assert_eq "attach: intervals.csv sent per point equal the reference's" \
    "$(isums "$REF/intervals.csv" "$T/ri")" \
    "$(isums "$DIR/intervals.csv" "$T/ai")"
assert_eq "attach: pdf.csv counts per point = received, none doubled" \
    "$(point_received "$DIR/summary.csv" "$T/rv")" \
    "$(pdf_counts "$DIR/pdf.csv" "$T/pd")"
assert_eq "attach: no cpu.csv interval doubled" "" \
    "$(awk -F, 'NR > 1 { print $5, $6, $8 }' "$DIR/cpu.csv" | sort | uniq -d)"
assert_eq "attach: no routers.csv batch row doubled" "" \
    "$(awk -F, 'NR > 1 { print $3, $4, $5, $9 }' "$DIR/routers.csv" |
    sort | uniq -d)"
assert_eq "attach: no links.csv batch row doubled" "" \
    "$(awk -F, 'NR > 1 { print $6, $9, $10, $11 }' "$DIR/links.csv" |
    sort | uniq -d)"
final_fwd()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["final"] == 1 && $h["direction"] == "forward" &&
	    $h["rep"] > 0 && $h["rx_packets"] >= 1000 {
	    print $h["frame"] "/" $h["rep"] }' "$1" | sort -u
}
assert_eq "attach: links.csv has each point's final report, as the reference" \
    "$(final_fwd "$REF/links.csv")" "$(final_fwd "$DIR/links.csv")"
assert_eq "reference: links.csv has the 6 points' final reports" 6 \
    "$(final_fwd "$REF/links.csv" | wc -l | tr -d ' ')"
finish
