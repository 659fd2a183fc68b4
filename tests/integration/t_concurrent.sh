#!/bin/sh
# t_concurrent: variants A, A-B, A-B-C measured concurrently (plans/
# concurrent.yaml: variants_mode: concurrent, kernel routers, 500 probes
# at 1 ms, repeat 2) on the lab's exit ports (lab.sh wire --exits).
#
# Checked: the console says so; summary.csv has a row per variant and
# repetition (6), each whole, with TTL 63, 62, 61 for 1, 2, 3 routers,
# and the three rows of one repetition share one `run` (two runs in
# all); and no variant's packets arrive on another variant's path: an
# nftables counter per destination prefix on each router's forward path
# out of "exit" (a truth hoplab does not compute) counts variant k's
# 1000 probes (port 9) on router k's exit only, 0 on the others.
# No timing asserted.  Root; about 20 s.
. "$(dirname "$0")/lib.sh"

need_root
lab_init hlt20 210
TMP=$(mktemp -d /tmp/hoplab-t-concurrent.XXXXXX)
at_exit "rm -rf '$TMP'"
lab_up A B C
for h in A B C; do
	ip netns exec "$LAB_PREFIX-$h" nft -f - <<EOF2 || bail nft "rules in $h"
table ip hltc {
	chain exits {
		type filter hook forward priority 0; policy accept;
		oifname "exit" ip daddr 198.18.101.0/24 udp dport 9 counter
		oifname "exit" ip daddr 198.18.102.0/24 udp dport 9 counter
		oifname "exit" ip daddr 198.18.103.0/24 udp dport 9 counter
	}
}
EOF2
done
at_exit "for h in A B C; do ip netns exec $LAB_PREFIX-\$h nft delete table ip hltc 2>/dev/null; done; rm -rf '$TMP'"

if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$TMP/r" run \
    "$HL_ROOT/tests/integration/plans/concurrent.yaml" >"$TMP/run.log" 2>&1
then
	sed 's/^/    /' "$TMP/run.log"
	bail run "hoplab run concurrent.yaml failed"
fi
assert_ok console_says_concurrent grep -q \
    "variants A, A-B, A-B-C measured concurrently (one run, interleaved)" \
    "$TMP/run.log"
S=$(ls "$TMP"/r/*/summary.csv)
for c in variant rep received ttl_min ttl_max run; do
	csv_col "$S" "$c" >"$TMP/c.$c" || bail csv "no column $c"
done
rows=$(paste -d/ "$TMP/c.variant" "$TMP/c.rep" "$TMP/c.received" \
    "$TMP/c.ttl_min" "$TMP/c.ttl_max" "$TMP/c.run" | sort)
echo "$rows" | sed 's/^/    /'
assert_eq six_rows 6 "$(echo "$rows" | wc -l)"
for v in A:63 A-B:62 A-B-C:61; do
	for rep in 1 2; do
		assert_match "row_${v%%:*}_rep$rep" \
		    "^${v%%:*}/$rep/500/${v#*:}/${v#*:}/[0-9]+\$" \
		    "$(echo "$rows" | grep "^${v%%:*}/$rep/")"
	done
done
runs=$(echo "$rows" | awk -F/ '{ print $2 ":" $6 }' | sort -u)
assert_eq one_run_per_repetition 2 "$(echo "$runs" | wc -l)"
assert_eq runs_differ 2 "$(echo "$runs" | awk -F: '{ print $2 }' | sort -u | wc -l)"

# Router at position p forwarded out of its exit only variant p+1's.
i=1
for h in A B C; do
	c=$(ip netns exec "$LAB_PREFIX-$h" nft list table ip hltc |
	    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' | tr '\n' ' ')
	want=
	for k in 1 2 3; do
		[ "$k" = "$i" ] && want="${want}1000 " || want="${want}0 "
	done
	assert_eq "exit_of_${h}_only_variant_$i" "$want" "$c"
	i=$((i + 1))
done
finish
