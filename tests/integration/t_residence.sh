#!/bin/sh
# t_residence: each router's residence time from captures on its own host
# (docs/plans.md "Residence", docs/results.md "residence.csv"), checked
# against this script's own reading of the pcap files with tcpdump, and
# the differencing estimate checked against it.  Lab prefix hlres,
# management K 204; chain A B C, variants A, A-B, A-B-C, 2000 probes of
# 64 bytes 1 ms apart, residence: true; once with kernel routers (impl
# linux), once with hoplab routers (impl hoplab).  For each:
#
# 1. the run completes; residence.csv has a point row (block 0) per
#    router of each variant with all 2000 probes matched, none negative,
#    and RESIDENCE_BLOCKS (10) block rows; hops.csv has a residence row
#    per router with an interval, and `hoplab report` on the folder
#    writes the same hops.csv again (diff -u) and prints the residence
#    table;
# 2. this script's own reading (tcpdump -x of ROUTER-in.pcap and
#    ROUTER-out.pcap, probes joined by flow and sequence, stamps
#    subtracted in whole nanoseconds) gives every router's mean residence
#    as residence.csv does, within 0.002 us (its 3 decimals), every
#    residence is positive and the median below 1 ms (plausible for one
#    hop on veth), and the first five probes' residences are printed;
# 3. hops.csv's difference row "X - Y" (X = Y plus one router) agrees
#    with what the captures say that difference holds: per variant the
#    chain's transit, first router's ingress to last router's egress (its
#    routers' residences and the veth hops between them, e.g. A:out ->
#    B:in, read across two hosts' files: in the namespace lab all hosts
#    share one clock), chain(X) - chain(Y).  It is printed split into the
#    added router's residence, the added hop and the change of the other
#    routers' residences.  Bound: the half-widths of hops.csv's interval
#    and of this difference (1.96 x the standard error of the two means)
#    plus EDGE_US.
#
# EDGE_US = 3 us: what D(X) - D(Y) holds beyond chain(X) - chain(Y) is
# the difference of the edges, gen:tx -> A:in and the last router's out
# -> gen:rx, the same kernel veth hops in every variant (about 1-2 us
# each on this VM), which the router captures do not see.  Their means
# differ between two runs by a few tenths of a microsecond, but a vCPU
# of a loaded 2-core VM paused for a millisecond inside an edge on a few
# of the 2000 probes moves one run's mean by a microsecond or more; the
# routers' own tails (hoplab routers share the 2 cores with each other,
# the generator and the captures) are on both sides alike, since the two
# sides measure the same packets.
# About 60 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

COUNT=2000
EDGE_US=3

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-router; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v tcpdump >/dev/null || bail tcpdump "tcpdump is not installed"
lab_init hlres 204
T=$(mktemp -d /tmp/hoplab-t-residence.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"

# plan IMPL
plan()
{
	cat <<PLAN
name: residence-$1
topology: {chain: [A, B, C]}
variants: [A, A-B, A-B-C]
router: {impl: $1}
flows:
  - {name: probe, frame: 64, idt: 1ms, count: $COUNT}
residence: true
PLAN
}

# probes FILE: "flow seq sec nsec" of every probe to UDP port 9, read by
# tcpdump (IPv4 header of 20 bytes: the UDP payload starts at byte 28,
# the probe's magic 484c, then version, flags, flow id, sequence).
probes()
{
	tcpdump -tt --time-stamp-precision=nano -nr "$1" -x \
	    'udp dst port 9' 2>/dev/null | awk '
	function hexval(h,    i, v) {
		v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	function out() {
		if (hex != "" && substr(hex, 57, 4) == "484c")
			printf "%d %d %s %s\n", hexval(substr(hex, 65, 4)),
			    hexval(substr(hex, 69, 8)), sec, nsec
		hex = ""
	}
	/^[0-9]/ { out(); split($1, t, "."); sec = t[1]; nsec = t[2]; next }
	/^\t0x/ { $1 = ""; gsub(/ /, ""); hex = hex $0 }
	END { out() }'
}

# transit IN OUT: per probe in both files, OUT's stamp - IN's in ns
# ("flow seq ns"), in IN's order.
transit()
{
	probes "$2" >"$T/out.txt"
	probes "$1" | awk 'NR == FNR { if (!((k = $1 " " $2) in o)) {
	    os[k] = $3; on[k] = $4; o[k] = 1 }; next }
	    ((k = $1 " " $2) in o) {
	    print k, (os[k] - $3) * 1000000000 + (on[k] - $4) }' \
	    "$T/out.txt" -
}

# stats: "n mean_us var_us2 min_us median_us" of column 3 (ns) on stdin.
stats()
{
	sort -n -k 3 | awk '{ v[NR] = $3 / 1000; s += v[NR] } END {
	    if (NR == 0) { print 0, 0, 0, 0, 0; exit }
	    m = s / NR; for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2
	    printf "%d %.6f %.6f %.3f %.3f\n", NR, m, (NR > 1 ? q / (NR - 1) : 0),
	    v[1], v[int((NR + 1) / 2)] }'
}

# cell FILE COLUMN KEYCOL=VALUE...: the first row's COLUMN matching all.
cell()
{
	_f=$1 _c=$2
	shift 2
	awk -F, -v want="$_c" -v keys="$*" 'NR == 1 { for (i = 1; i <= NF;
	    i++) h[$i] = i; nk = split(keys, kv, " "); next } {
	    for (j = 1; j <= nk; j++) { split(kv[j], p, "=")
	    if ($h[p[1]] != p[2]) next } print $h[want]; exit }' "$_f"
}

routers_of() { echo "$1" | tr '-' ' '; }
last_of() { echo "$1" | awk -F- '{ print $NF }'; }

# check IMPL: run the plan and check 1..3.
check()
{
	_i=$1
	plan "$_i" >"$T/$_i.yaml"
	if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$T/$_i" run "$T/$_i.yaml" \
	    >"$T/$_i.log" 2>&1; then
		sed 's/^/    /' "$T/$_i.log"
		fail "${_i}_run" "hoplab run with residence: true failed"
		return
	fi
	pass "${_i}_run_completes"
	R=$(ls -d "$T/$_i"/residence-*)
	RC=$R/residence.csv
	H=$R/hops.csv
	for v in A A-B A-B-C; do
		C=$R/captures/${v}_64_r1
		for x in $(routers_of $v); do
			# 1.
			n=$(cell "$RC" samples router=$x variant=$v block=0)
			neg=$(cell "$RC" negative router=$x variant=$v block=0)
			nb=$(awk -F, -v x=$x -v v=$v '$1 == x && $2 == v &&
			    $8 > 0' "$RC" | wc -l)
			assert_eq "${_i}_${v}_${x}_all_matched" "$COUNT" "$n"
			assert_eq "${_i}_${v}_${x}_none_negative" 0 "$neg"
			assert_eq "${_i}_${v}_${x}_10_blocks" 10 "$nb"
			# 2.
			transit "$C/$x-in.pcap" "$C/$x-out.pcap" >"$T/res.txt"
			set -- $(stats <"$T/res.txt")
			mine=$2
			hl=$(cell "$RC" residence_mean_us router=$x variant=$v \
			    block=0)
			echo "    $_i $v $x: residence mean $hl us (tcpdump:" \
			    "$mine us, min $4, median $5 us; first five:" \
			    "$(head -n 5 "$T/res.txt" | awk '{ printf "%s%.3f",
			    (NR > 1 ? ", " : ""), $3 / 1000 }') us)"
			assert_near "${_i}_${v}_${x}_mean_as_tcpdump" "$mine" \
			    "$hl" 0.002
			assert_gt "${_i}_${v}_${x}_positive" "$4" 0
			assert_lt "${_i}_${v}_${x}_median_below_1ms" "$5" 1000
			echo "$v $x $2 $3 $1" >>"$T/$_i.res"
		done
		# The chain's transit: A:in -> last router's out.
		transit "$C/A-in.pcap" "$C/$(last_of $v)-out.pcap" |
		    stats >"$T/$_i.chain.$v"
	done
	cp "$H" "$T/$_i.hops.csv"
	if "$HL_BIN/hoplab" report --no-plots "$R" >"$T/$_i.report" 2>&1 &&
	    diff -u "$T/$_i.hops.csv" "$H" >&2; then
		pass "${_i}_report_recomputes_the_same_hops_csv"
	else
		fail "${_i}_report_recomputes_the_same_hops_csv" \
		    "hoplab report failed or the diff above"
	fi
	assert_match "${_i}_report_prints_residence_table" \
	    'Residence time per router' "$(cat "$T/$_i.report")"
	row=$(grep -c ',residence,' "$H")
	assert_eq "${_i}_hops_residence_rows" 3 "$row"
	for x in A B C; do
		lo=$(cell "$H" ci95_lo_us method=residence variants=$x)
		assert_match "${_i}_hops_residence_${x}_has_interval" \
		    '^-?[0-9]' "$lo"
	done
	# 3.
	for pair in "A-B A" "A-B-C A-B"; do
		set -- $pair
		x=$1 y=$2
		t=$(awk -F, -v v="$x - $y" '$3 == "difference" &&
		    $4 == v { print $5, $6, $7 }' "$H")
		set -- $t $(cat "$T/$_i.chain.$x") $(cat "$T/$_i.chain.$y")
		# $1 t, $2 lo, $3 hi; $4.. n mean var of X; $9.. of Y
		own=$(awk -v a="$5" -v b="${10}" 'BEGIN { printf "%.3f", a - b }')
		bound=$(awk -v lo="$2" -v hi="$3" -v va="$6" -v na="$4" \
		    -v vb="${11}" -v nb="$9" -v e=$EDGE_US 'BEGIN {
		    se = sqrt(va / na + vb / nb)
		    printf "%.3f", (hi - lo) / 2 + 1.96 * se + e }')
		added=$(last_of $x)
		ra=$(awk -v v=$x -v r=$added '$1 == v && $2 == r { print $3 }' \
		    "$T/$_i.res")
		others=$(awk -v x=$x -v y=$y -v r=$added '$1 == x && $2 != r {
		    s += $3 } $1 == y { s -= $3 } END { printf "%.3f", s }' \
		    "$T/$_i.res")
		hop=$(awk -v o="$own" -v r="$ra" -v d="$others" 'BEGIN {
		    printf "%.3f", o - r - d }')
		echo "    $_i difference $x - $y: $1 us [$2, $3]; captures:" \
		    "$own us = residence of $added $ra + hop into it $hop" \
		    "+ other routers' change $others (bound $bound us)"
		assert_near "${_i}_difference_${x}_matches_captures" "$own" \
		    "$1" "$bound"
	done
}

lab_up A B C
check linux
check hoplab
finish
