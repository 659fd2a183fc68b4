#!/bin/sh
# residence_cost: what the residence captures (the plan's residence:
# true, docs/plans.md "Residence") cost the routers they watch.  On a lab
# of its own (prefix hlrb, K 204; chain A B C) the same plan, variants A,
# A-B, A-B-C with COUNT (2000) probes of 64 bytes 1 ms apart, runs
# ROUNDS (3) times without and with residence: true, alternately (off,
# on, off, on, ...) so that a drift of the machine falls on both, for
# kernel routers and for hoplab routers.  Per run: the mean one-way delay
# of each variant and hops.csv's mean-difference, (D(A-B-C) - D(A)) / 2,
# the per-router delay, and the same from the medians, (p50(A-B-C) -
# p50(A)) / 2, which the tails of a loaded machine move less; then per
# implementation the mean over the rounds
# without and with the captures and their difference, the cost.  With
# hoplab routers residence: true also turns the routers' qdisc bypass off
# (io.qdisc_bypass: off, so that the egress capture sees their frames):
# the cost given is that of both.  Asserts nothing.  Root; about 3 min.
set -u
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
HOPLAB=$ROOT/bin/hoplab
P=hlrb
K=204
COUNT=${COUNT:-2000}
ROUNDS=${ROUNDS:-3}
IMPLS=${IMPLS:-"linux hoplab"}
W=$(mktemp -d /tmp/hoplab-rescost.XXXXXX) || exit 1

cleanup()
{
	"$HOPLAB" -p $P lab down >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

[ "$(id -u)" = 0 ] || { echo "residence_cost: needs root" >&2; exit 1; }

# plan IMPL RESIDENCE
plan()
{
	cat <<PLAN
name: rescost
topology: {chain: [A, B, C]}
variants: [A, A-B, A-B-C]
router: {impl: $1}
flows:
  - {name: probe, frame: 64, idt: 1ms, count: $COUNT}
residence: $2
PLAN
}

# run IMPL RES N: one run; prints "IMPL RES N DA DAB DABC T LO HI".
run()
{
	plan "$1" "$2" >"$W/p.yaml"
	rm -rf "$W/r"
	if ! timeout -s INT 120 "$HOPLAB" -p $P -q -o "$W/r" run "$W/p.yaml" \
	    >"$W/run.log" 2>&1; then
		echo "$1 $2 $3 failed: $(tail -n 2 "$W/run.log" | tr '\n' ' ')" >&2
		return 1
	fi
	_d=$(ls -d "$W"/r/rescost-*)
	printf '%s %s %s %s %s %s\n' "$1" "$2" "$3" "$(awk -F, 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    { printf "%s ", $h["delay_mean_us"] }' "$_d/summary.csv")" \
	    "$(awk -F, '$3 == "mean-difference" { print $5, $6, $7 }' \
	    "$_d/hops.csv")" "$(awk -F, 'NR == 1 { for (i = 1; i <= NF;
	    i++) h[$i] = i; next } NR == 2 { a = $h["delay_p50_us"] }
	    { c = $h["delay_p50_us"] } END { printf "%.3f", (c - a) / 2 }' \
	    "$_d/summary.csv")"
}

"$HOPLAB" -p $P -k $K lab up >"$W/up.log" 2>&1 || {
	echo "residence_cost: lab up failed: $(tail -n 2 "$W/up.log")" >&2
	exit 1
}
printf '%-7s %-9s %5s %9s %9s %9s %10s %20s %10s\n' impl residence round \
    "D(A)" "D(A-B)" "D(A-B-C)" per_router "95% CI (per packet)" by_p50
for impl in $IMPLS; do
	n=1
	while [ $n -le "$ROUNDS" ]; do
		for res in false true; do
			run "$impl" "$res" "$n" >>"$W/rows" || continue
			tail -n 1 "$W/rows" | awk '{ printf "%-7s %-9s %5s %9s " \
			    "%9s %9s %10s %9s %9s %10s\n", $1, $2, $3, $4, $5,
			    $6, $7, "[" $8 ",", $9 "]", $10 }'
		done
		n=$((n + 1))
	done
done
echo
echo "mean over the rounds (us): per-router delay and D(A) without and" \
    "with residence captures, and the cost (with - without)"
awk '{ k = $1 " " $2; t[k] += $7; a[k] += $4; m50[k] += $10; c[k]++ }
    END { for (k in c) { split(k, p, " "); m[p[1]] = 1 }
    for (i in m) { off = i " false"; on = i " true"
    if (!(off in c) || !(on in c)) continue
    printf "%-7s per router %.3f -> %.3f (%+.3f); by p50 %.3f -> %.3f " \
    "(%+.3f); D(A) %.3f -> %.3f (%+.3f); rounds %d\n", i,
    t[off] / c[off], t[on] / c[on], t[on] / c[on] - t[off] / c[off],
    m50[off] / c[off], m50[on] / c[on],
    m50[on] / c[on] - m50[off] / c[off], a[off] / c[off], a[on] / c[on],
    a[on] / c[on] - a[off] / c[off], c[on] } }' "$W/rows"
