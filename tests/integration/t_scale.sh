#!/bin/sh
#
# t_scale: a lab of 34 hosts, each with its own agent, all listed healthy,
# then driven through a run in which 32 generator hosts start together.
#
# Namespace prefix hls, management net K 237 (198.19.237.0/24).
#
# `hoplab lab up --plan examples/scale-32.yaml` builds the plan's 34 hosts
# (32 senders g01..g32, a sink S, a kernel router R1; a CURVE key pair and
# an agent each) and its 33 links; `hoplab agents` must list all 34 with
# "ok" within its 3 s handshake.  Then `hoplab run` sends 200 probes from
# every gNN to S, all senders given one start instant: summary.csv must
# have the 32 flows with every probe received at TTL 63, starts.csv a row
# per sender whose first packet left at or after the instant (never
# before: that would be a sender that did not wait), and the console the
# spread line.  The spread itself is a timing figure and goes to
# bench/mgmt_scale.sh, not here.  Torn down on any exit.

. "$(dirname "$0")/lib.sh"

need_root
lab_init hls 237
HOPLAB=$HL_BIN/hoplab
PLAN=$HL_ROOT/examples/scale-32.yaml
T=$(mktemp -d /tmp/hoplab-t_scale.XXXXXX)
at_exit "rm -rf '$T'"

LAB_IS_UP=1
if ! "$HOPLAB" -p "$LAB_PREFIX" -k "$LAB_K" lab up --plan "$PLAN" \
    >"$T/up.out" 2>&1; then
	sed 's/^/    /' "$T/up.out"
	bail lab_up "hoplab lab up --plan failed"
fi
pass lab_up_34_hosts

out=$(lab_sh status 2>&1)
assert_eq status_listening 34 "$(echo "$out" | grep -c 'listening on')"

out=$("$HOPLAB" -p "$LAB_PREFIX" agents 2>&1)
rc=$?
assert_eq agents_exit 0 "$rc"
assert_eq agents_ok 34 "$(echo "$out" | awk '$NF == "ok"' | wc -l)"
missing=
for h in $(i=1; while [ $i -le 32 ]; do printf 'g%02d ' $i; i=$((i + 1)); done) S R1; do
	echo "$out" | awk -v h="$h" '$1 == h && $NF == "ok" { f = 1 }
	    END { exit !f }' || missing="$missing $h"
done
assert_eq agents_every_host "" "$missing"
[ "$rc" = 0 ] || echo "$out" | sed 's/^/    /'

"$HOPLAB" -p "$LAB_PREFIX" -o "$T/res" run "$PLAN" >"$T/run.out" 2>&1
rc=$?
assert_eq run_exit 0 "$rc"
[ "$rc" = 0 ] || tail -n 30 "$T/run.out" | sed 's/^/    /'
dir=$(ls -d "$T"/res/scale-32-* 2>/dev/null | head -n 1)
[ -n "$dir" ] || bail results "no results folder in $T/res"

# summary.csv: flow is column 5, sent 6, received 7, ttl_min by name.
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["flow"] ~ /^f[0-9][0-9]$/ && $c["sent"] == 200 &&
    $c["received"] == 200 && $c["ttl_min"] == 63 { n++ }
    END { print n + 0 }' "$dir/summary.csv")
assert_eq summary_32_flows_all_received_ttl63 32 "$rows"

assert_eq starts_rows 32 "$(awk -F, 'NR > 1' "$dir/starts.csv" | wc -l)"
early=$(awk -F, 'NR > 1 && $7 < 0 { n++ } END { print n + 0 }' \
    "$dir/starts.csv")
assert_eq no_sender_before_the_instant 0 "$early"
assert_eq one_instant_for_all 1 \
    "$(awk -F, 'NR > 1 { print $5 }' "$dir/starts.csv" | sort -u | wc -l)"
if grep -q "start: 32 udp senders' first packets within" "$T/run.out"; then
	pass console_spread_line
else
	fail console_spread_line "$(grep 'start:' "$T/run.out")"
fi
grep "start:" "$T/run.out" | sed 's/^ */    /'

finish
