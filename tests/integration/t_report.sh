#!/bin/sh
# t_report: `hoplab report DIR` and summary_by_point.csv.
# Lab prefix hlt14, management K 226.
#
# 1. A short run through hoplab routers (chain A B, variants A and A-B,
#    3 repetitions of 300 probes at 64 B) writes summary_by_point.csv at
#    its end: 2 points with n_reps 3, and delay_mean_us_mean equal to the
#    mean of the 3 summary.csv rows, worked out here again with awk.
# 2. `hoplab report` on a copy of the folder, with hops.csv and
#    summary_by_point.csv deleted, writes them again byte for byte, leaves
#    summary.csv, intervals.csv, pdf.csv and routers.csv as they were,
#    prints the run's per-router table, and draws delay_pdf, time, hops
#    and routers_pps PNGs (8-byte PNG signature, more than 2 KB each),
#    saying that links.png was skipped (no links.csv).  Given a
#    faults.csv and an rfc2544.csv written here by hand, it also marks
#    the faults on time_probe_64.png (exactly the two ok ones of frame
#    64, once each, at their times: link A-B down at 0.15 s, router B
#    kill at 0.2 s; not the failed one, the restore, nor frame 128's)
#    and draws rfc2544.png with its three panels (throughput of 2 frame
#    sizes, loss at 2 loads of 1 frame size, latency of 2 frame sizes).
# 3. Bad input: a folder that is not a results folder (exit 2), and
#    gnuplot missing (bind-mounted away in a private mount namespace:
#    exit 1 with a message; --no-plots still works).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlt14 226
T=$(mktemp -d /tmp/hoplab-t-report.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlt14"
cat >"$T/plan.yaml" <<PLAN
name: report
topology: {chain: [A, B]}
variants: [A, A-B]
router: {impl: hoplab}
repeat: 3
sweep: {frame: [64]}
flows:
  - name: probe
    mode: l2
    frame: \$frame
    idt: 1ms
    count: 300
PLAN
lab_up A B

# --- 1. the run and its summary_by_point.csv ----------------------------
if ! $HOPLAB -q -o "$T/r" run "$T/plan.yaml" >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run failed"
fi
D=$(ls -d "$T"/r/report-*)
P="$D/summary_by_point.csv"
[ -r "$P" ] || bail by_point "no summary_by_point.csv after the run"
assert_eq by_point_reps "3 3" "$(csv_col "$P" n_reps | tr '\n' ' ' | sed 's/ $//')"
assert_eq by_point_variants "A A-B" "$(csv_col "$P" variant | tr '\n' ' ' | sed 's/ $//')"
head -1 "$P" | grep -q ',delay_mean_us_mean,delay_mean_us_std,delay_mean_us_ci95,' &&
    pass by_point_columns || fail by_point_columns "$(head -1 "$P")"
csv_col "$D/summary.csv" delay_mean_us >"$T/means"
i=0
for v in A A-B; do
	i=$((i + 1))
	want=$(csv_col "$D/summary.csv" variant | paste -d' ' - "$T/means" |
	    awk -v v=$v '$1 == v { s += $2; n++ } END { printf "%.4f", s / n }')
	got=$(csv_col "$P" delay_mean_us_mean | sed -n "${i}p")
	assert_eq "by_point_mean_$v" "$want" "$got"
done

# --- 2. report on a copy -------------------------------------------------
C="$T/copy"
cp -r "$D" "$C"
rm -f "$C/hops.csv" "$C/summary_by_point.csv"
cat >"$C/faults.csv" <<'CSV'
point,variant,frame,rep,time_s,link,host,action,target,result
1,A-B,64,1,0.1500,A-B,A,down,out,ok
1,A-B,64,1,0.1502,A-B,B,down,in,ok
1,A-B,64,1,0.2000,,B,kill,pid 42 SIGKILL,ok
1,A-B,64,1,0.2500,A-B,A,up,out,failed: no such device
1,A-B,64,1,,A-B,A,restore,out,ok
2,A-B,64,2,0.1600,A-B,A,down,out,ok
3,A-B,128,1,0.0700,A-B,A,set,a-b loss 1%,ok
CSV
cat >"$C/rfc2544.csv" <<'CSV'
variant,frame_bytes,test,rate_fps,rate_mbps,sent,received,loss_pct,delay_mean_us,delay_p99_us,trial,outcome
A,64,throughput,10000,5.12,20000,20000,0,50,80,1,pass
A,64,throughput,10000,5.12,20000,20000,0,50,80,,result
A,128,throughput,8000,8.192,16000,16000,0,60,90,,result
A,64,latency,10000,5.12,20000,20000,0,51,81,1,measured
A,128,latency,8000,8.192,16000,16000,0,61,91,1,measured
A,64,loss,10000,5.12,20000,19000,5,52,82,1,measured
A,64,loss,9000,4.608,18000,18000,0,52,82,2,measured
CSV
if ! $HOPLAB report "$C" >"$T/report.log" 2>&1; then
	sed 's/^/    /' "$T/report.log"
	fail report "hoplab report exited non-zero"
fi
for f in hops.csv summary_by_point.csv summary.csv intervals.csv pdf.csv \
    routers.csv; do
	cmp -s "$D/$f" "$C/$f" && pass "same_$f" ||
	    fail "same_$f" "$(diff "$D/$f" "$C/$f" | head -5)"
done
[ "$(csv_col "$D/routers.csv" router | wc -l)" -gt 0 ] &&
    pass routers_rows || fail routers_rows "routers.csv has no rows"
sed -n '/^Per-router processing time/,/^$/p' "$T/run.log" >"$T/hops_run.txt"
sed -n '/^Per-router processing time/,/^$/p' "$T/report.log" >"$T/hops_rep.txt"
[ -s "$T/hops_run.txt" ] && cmp -s "$T/hops_run.txt" "$T/hops_rep.txt" &&
    pass same_hops_table ||
    fail same_hops_table "$(diff "$T/hops_run.txt" "$T/hops_rep.txt")"
for png in delay_pdf_probe_64 time_probe_64 hops_probe_64 routers_pps \
    rfc2544; do
	f="$C/plots/$png.png"
	sig=$(od -An -tx1 -N8 "$f" 2>/dev/null | tr -d ' \n')
	size=$(wc -c <"$f" 2>/dev/null || echo 0)
	if [ "$sig" = 89504e470d0a1a0a ] && [ "$size" -gt 2048 ] &&
	    grep -q "drew    plots/$png.png" "$T/report.log"; then
		pass "png_$png"
	else
		fail "png_$png" "signature '$sig', $size bytes"
	fi
done
assert_eq fault_marks_on_time_plot \
    "set arrow 1 from 0.15|set label 1 'link A-B down' at 0.15|set arrow 2 from 0.2|set label 2 'router B kill' at 0.2|" \
    "$(grep -E '^set (arrow|label)' "$C/plots/time_probe_64.gp" |
    sed 's/^\(set [a-z]* [0-9]* [^,]*\),.*/\1/' |
    tr '\n' '|')"
grep -q "drew    plots/time_probe_64.png: .*, faults marked" "$T/report.log" &&
    pass fault_marks_listed || fail fault_marks_listed \
    "$(grep time_probe "$T/report.log")"
# rfc2544.dat: throughput (64 and 128 B), loss (2 loads), latency (2).
assert_eq rfc2544_panels_data "64 10000 0|128 8000 0|10000 5 0|9000 0 0|64 51 81|128 61 91|" \
    "$(grep -v '^$' "$C/plots/rfc2544.dat" | tr '\n' '|')"
assert_eq rfc2544_three_panels 1 \
    "$(grep -c '^set multiplot layout 3,1' "$C/plots/rfc2544.gp")"
grep -q "skipped impaired links (links.png): no links.csv" "$T/report.log" &&
    pass links_skipped || fail links_skipped "$(grep -i links "$T/report.log")"

# A tcp flow has no probes: its time plot is its throughput (tx_bytes
# per interval: 125000 B in 0.5 s is 2 Mbit/s, 250000 B is 4 Mbit/s).
C2="$T/tcp"
cp -r "$D" "$C2"
rm -rf "$C2/plots"
cp "$C/faults.csv" "$C2/faults.csv"
cat >>"$C2/intervals.csv" <<'CSV'
A,1,0,1,bulk,0,0.000000,0.500000,0,0,0,125000,0,0.0000,,,,1
A,1,0,1,bulk,1,0.500000,0.500000,0,0,0,250000,0,0.0000,,,,1
CSV
if $HOPLAB report "$C2" >"$T/tcp.log" 2>&1 &&
    grep -q "drew    plots/time_bulk_0.png: throughput per interval" \
    "$T/tcp.log"; then
	pass tcp_flow_time_plot_is_throughput
else
	fail tcp_flow_time_plot_is_throughput "$(grep -i 'bulk\|gnuplot' \
	    "$T/tcp.log")"
fi
# Its marks: every point's faults (it has no frame of its own), each
# label once: link A-B down, router B kill, link A-B set.
assert_eq tcp_plot_marks_every_points_faults 3 \
    "$(grep -c '^set arrow' "$C2/plots/time_bulk_0.gp")"
assert_eq tcp_throughput_data "0.25 2|0.75 4|" \
    "$(awk '$1 != "" { print $1, $4 }' "$C2/plots/time_bulk_0.dat" |
    grep -v '^#' | tr '\n' '|')"

# --- 3. bad input ---------------------------------------------------------
mkdir "$T/empty"
$HOPLAB report "$T/empty" >"$T/bad.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "is not a results folder" "$T/bad.log" &&
    pass not_results_dir || fail not_results_dir "rc=$rc: $(cat "$T/bad.log")"
if command -v unshare >/dev/null 2>&1; then
	# /usr/bin/gnuplot is a link to gnuplot-nox via /etc/alternatives
	unshare -m sh -c "mount --bind /dev/null \$(readlink -f /usr/bin/gnuplot);
	    $HOPLAB report '$C' >'$T/nognu.log' 2>&1; echo \$? >'$T/nognu.rc';
	    $HOPLAB report --no-plots '$C' >'$T/noplot.log' 2>&1;
	    echo \$? >'$T/noplot.rc'"
	[ "$(cat "$T/nognu.rc")" = 1 ] &&
	    grep -q "gnuplot is missing" "$T/nognu.log" &&
	    pass gnuplot_missing ||
	    fail gnuplot_missing "rc=$(cat "$T/nognu.rc"): $(cat "$T/nognu.log")"
	[ "$(cat "$T/noplot.rc")" = 0 ] && ! grep -q "^Plots" "$T/noplot.log" &&
	    cmp -s "$D/hops.csv" "$C/hops.csv" && pass no_plots ||
	    fail no_plots "rc=$(cat "$T/noplot.rc"): $(tail -3 "$T/noplot.log")"
fi
finish
