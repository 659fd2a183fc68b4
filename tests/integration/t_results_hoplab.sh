#!/bin/sh
# t_results_hoplab: the results folder of a run through hoplab routers.
# Lab prefix hlt11, management K 231.
#
# 1. A plan with router: {impl: hoplab}, chain A B, variants A and A-B,
#    1000 probes at 1 ms.  routers.csv must hold rows for every router of
#    every variant, and each router's forwarding counters must equal what
#    the generator sent through it (known truth: the 200-packet warm-up
#    plus the measured probes): the final report's tx_packets on its
#    "out" interface, and the sum over its reports of class 0's sojourn
#    count there.  intervals.csv sums (sent, lost) equal summary.csv's,
#    and pdf.csv's counts sum to the packets received.  The console
#    prints the routers' own sojourn table beside the differencing.  The
#    plan's router.cpus (the machine's last CPU) reaches every router:
#    each logs that it runs there.
# 2. The agent's controller table: 20 `hoplab agents` started at once
#    against the lab (each a new controller identity) all get answers
#    (the table holds 16; the longest-silent controller without roles is
#    forgotten to make room).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlt11 231
T=$(mktemp -d /tmp/hoplab-t-results.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlt11"
COUNT=1000
WARMUP=200
LASTCPU=$(($(nproc) - 1))
cat >"$T/plan.yaml" <<PLAN
name: results-hoplab
topology: {chain: [A, B]}
variants: [A, A-B]
router: {impl: hoplab, cpus: $LASTCPU}
repeat: 1
flows:
  - name: probe
    mode: l2
    frame: 64
    idt: 1ms
    count: $COUNT
PLAN

# sum FILE COLUMN [VARIANT]: the sum of COLUMN over the rows (of VARIANT).
sum()
{
	csv_col "$1" variant >"$T/sum.v" && csv_col "$1" "$2" >"$T/sum.x" &&
	    paste -d' ' "$T/sum.v" "$T/sum.x" |
	    awk -v v="${3:-}" 'v == "" || $1 == v { s += $2 } END { print s + 0 }'
}

# rcol FILE VARIANT ROUTER IFACE COLUMN FINAL_ONLY: values from routers.csv.
rcol()
{
	for c in variant router iface final "$5"; do
		csv_col "$1" "$c" >"$T/r.$c" || return 1
	done
	paste -d' ' "$T/r.variant" "$T/r.router" "$T/r.iface" "$T/r.final" \
	    "$T/r.$5" | awk -v v="$2" -v r="$3" -v i="$4" -v f="$6" \
	    '$1 == v && $2 == r && $3 == i && (f == "" || $4 == f) { print $5 }'
}

lab_up A B

# --- 1. a run through hoplab routers ------------------------------------
$HOPLAB -o "$T/r" run "$T/plan.yaml" >"$T/run.log" 2>&1 ||
    bail run "the run failed: $(tail -n 8 "$T/run.log")"
D=$(ls -d "$T/r"/results-hoplab-*)
S=$D/summary.csv
R=$D/routers.csv
for v in A A-B; do
	case $v in A) routers="A" ;; *) routers="A B" ;; esac
	sent=$(sum "$S" sent $v)
	assert_eq "$v: summary sent $COUNT" "$COUNT" "$sent"
	assert_eq "$v: intervals.csv sent sums to summary's" "$sent" \
	    "$(sum "$D/intervals.csv" sent $v)"
	assert_eq "$v: intervals.csv lost sums to summary's" \
	    "$(sum "$S" lost $v)" "$(sum "$D/intervals.csv" lost $v)"
	assert_eq "$v: pdf.csv counts sum to received" \
	    "$(sum "$S" received $v)" "$(sum "$D/pdf.csv" count $v)"
	want=$((sent + WARMUP))
	for r in $routers; do
		assert_ge "$v/$r: routers.csv has reports" \
		    "$(rcol "$R" $v $r out tx_packets "" | wc -l)" 1
		assert_eq "$v/$r: final tx_packets on out = warm-up + sent" \
		    "$want" "$(rcol "$R" $v $r out tx_packets 1)"
		assert_eq "$v/$r: class 0 sojourn count over reports = $want" \
		    "$want" "$(rcol "$R" $v $r out tc0_packets "" |
		    awk '{ s += $1 } END { print s + 0 }')"
	done
done
assert_match "summary.csv: the appended columns" \
    'ts_source,ipdv_abs_mean_us,ipdv_abs_p99_us,pdv_p999_us,idt_clamped,frame_clamped,tx_idt_std_us,tx_idt_err_p99_us,run,tx_idt_err_p50_us,tx_idt_err_p999_us,disturbed,replica_of$' \
    "$(head -n 1 "$S")"
assert_ge "intervals.csv: 2 or more intervals per point (0.5 s bins)" \
    "$(($(wc -l <"$D/intervals.csv") - 1))" 4
assert_match "console: the routers' own sojourn beside differencing" \
    "Routers' own sojourn time" "$(cat "$T/run.log")"
assert_match "console: the differencing estimate beside it" \
    "differencing, regression, flow probe, frame 64" "$(cat "$T/run.log")"
for r in A B; do
	assert_match "$r: router.cpus reached hoplab-router (role log)" \
	    "running on CPUs $LASTCPU\$" \
	    "$(cat "$LAB_STATE"/$r/role-*.log 2>/dev/null)"
done
assert_eq "the agents' spools are empty (every batch acknowledged)" "" \
    "$(find "$LAB_STATE"/gen/spool "$LAB_STATE"/A/spool \
    "$LAB_STATE"/B/spool -name '*.pb' 2>/dev/null)"

# --- 2. 20 controllers at once --------------------------------------------
i=1
pids=
while [ $i -le 20 ]; do
	( $HOPLAB agents >"$T/ag.$i" 2>&1; echo $? >"$T/agrc.$i" ) &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait $pids
ok=0
i=1
while [ $i -le 20 ]; do
	[ "$(cat "$T/agrc.$i")" = 0 ] &&
	    [ "$(grep -c ' ok$' "$T/ag.$i")" = 3 ] && ok=$((ok + 1))
	i=$((i + 1))
done
assert_eq "20 hoplab agents at once: all answered by all 3 agents" 20 "$ok"
finish
