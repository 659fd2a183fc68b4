#!/bin/sh
#
# bench/recovery.sh: outage and convergence after a failure of the
# primary link, per routing protocol, on the namespace lab (make bench's
# part n; docs/routing.md "Recovery measured" reads the table).
#
# The plans are examples/recovery-{static,rip,ospf,ospf-bfd}.yaml (the
# minimal network: primary H1-R1-R4-H2, backup over R2 and R3; a udp
# flow of 1 ms probes; R1-R4 fails 6 s into it), run REPS times each
# (`repeat:`), once per failure kind:
#
#   down       the link is cut: both ends lose their carrier
#   blackhole  it silently drops every frame and keeps its carrier
#              (`action: blackhole`): only hellos or BFD notice
#
# A blackhole is run SILENT_REPS times, with 12 s of traffic: RIP's
# timeout (4 s) must fit before the traffic ends.  The table gives,
# over the repetitions, recovery_summary.csv's
# median (p50) and p90 of the flow's outage (lost x 1 ms) and of the
# time from the failure to the first probe on the backup path (its TTL
# tells the path: 62 primary, 60 backup).  "-" where no repetition
# measured one: the flow never came back within the traffic's end.
#
# Environment: REPS (20), SILENT_REPS (10), PROTOS ("static rip ospf
# ospf-bfd"), FAILURES ("down blackhole").  Lab hlbr, K 248, built and removed by `hoplab run
# --lab`.  Root.  About 12 s per repetition (9 s of traffic, the lab's
# start, the wait for the routing to settle again): about 25 minutes
# with the defaults.  Asserts nothing.
set -u
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
HOPLAB=$ROOT/bin/hoplab
REPS=${REPS:-20}
SILENT_REPS=${SILENT_REPS:-10}
PROTOS=${PROTOS:-"static rip ospf ospf-bfd"}
FAILURES=${FAILURES:-"down blackhole"}
W=$(mktemp -d /tmp/hoplab-recovery.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ "$(id -u)" = 0 ] || { echo "recovery.sh: needs root (namespaces)"; exit 1; }
[ -x "$HOPLAB" ] || { echo "recovery.sh: $HOPLAB missing (make)"; exit 1; }

# summary_cell DIR METRIC COLUMN: the flow's METRIC row's COLUMN.
summary_cell()
{
	awk -F, -v m="$2" -v col="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$2 == "flow" && $4 == m { v = $c[col] }
	END { print (v == "" ? "-" : v) }' "$1/recovery_summary.csv" 2>/dev/null
}

printf '%-9s %-10s %4s %12s %12s %12s %12s\n' protocol failure n \
    outage_p50 outage_p90 newpath_p50 newpath_p90
for proto in $PROTOS; do
	for fail in $FAILURES; do
		plan=$W/$proto-$fail.yaml
		n=$REPS count=9000
		[ "$fail" = down ] || n=$SILENT_REPS count=12000
		sed -e "s/^repeat: .*/repeat: $n/" \
		    -e "s/count: 9000}/count: $count}/" \
		    -e "s/^name: .*/name: recovery-$proto-$fail/" \
		    -e "s/action: down}/action: $fail}/" \
		    "$ROOT/examples/recovery-$proto.yaml" >"$plan"
		out=$W/out-$proto-$fail
		if ! timeout $((n * 40 + 60)) "$HOPLAB" -p hlbr -k 248 \
		    -o "$out" run --lab "$plan" >"$W/$proto-$fail.log" 2>&1; then
			printf '%-9s %-10s failed: %s\n' "$proto" "$fail" \
			    "$(tail -n 1 "$W/$proto-$fail.log")"
			continue
		fi
		d=$(ls -d "$out"/*-* | head -n 1)
		printf '%-9s %-10s %4s %12s %12s %12s %12s\n' "$proto" "$fail" \
		    "$(summary_cell "$d" outage_ms n)" \
		    "$(summary_cell "$d" outage_ms p50)" \
		    "$(summary_cell "$d" outage_ms p90)" \
		    "$(summary_cell "$d" first_new_path_ms p50)" \
		    "$(summary_cell "$d" first_new_path_ms p90)"
	done
done
echo "(ms; n: repetitions; newpath: failure to the first probe on the" \
    "backup path, from its TTL; REPS=$REPS, SILENT_REPS=$SILENT_REPS)"
