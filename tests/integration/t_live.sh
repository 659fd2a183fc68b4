#!/bin/sh
# t_live: the console while a run goes, and per-packet records.
# Lab prefix hllv, management K 213; one router (A), kernel forwarding.
#
# 1. A run of one flow of 2000 probes 1 ms apart (2 s) prints its
#    per-interval lines ("  t=0.5s probe: sent ...") while it runs: 4 to
#    6 of them (2 s / 0.5 s, plus the drain's), the first at least 0.5 s
#    before the point's own result line (about 1.5 s is expected; the
#    bound is generous for a shared machine), and they add up to the
#    point's sent count.
# 2. records: true writes packets/<point>-probe.csv: a header with unit
#    suffixes, one row per packet sent, `received` rows with received=1,
#    and the mean of their delay_ns equal to summary.csv's delay_mean_us
#    within its rounding (3 decimals).
# 3. -q prints no interval line and no progress; a plan without
#    `records:` writes no packets/.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hllv 213
OUT=$(mktemp -d /tmp/hoplab-t-live.XXXXXX)
at_exit "rm -rf '$OUT'"
HOPLAB="$HL_BIN/hoplab -p hllv"

cat >"$OUT/live.yaml" <<'PLAN'
name: live
topology: {chain: [A]}
router: {impl: linux}
records: true
flows:
  - name: probe
    frame: 64
    idt: 1ms
    count: 2000
PLAN
sed '/^records:/d; s/^name: live/name: quiet/' "$OUT/live.yaml" >"$OUT/quiet.yaml"

lab_up A

# Each console line with the time it was read (seconds, 3 decimals).
stamp() {
	while IFS= read -r l; do
		printf '%s %s\n' "$(date +%s.%3N)" "$l"
	done
}
{ $HOPLAB -o "$OUT/r1" run "$OUT/live.yaml" 2>&1 >"$OUT/r1.out"; \
    echo "rc $?" >"$OUT/r1.rc"; } | stamp >"$OUT/r1.err"
assert_eq run_ok "rc 0" "$(cat "$OUT/r1.rc")"
[ "$(cat "$OUT/r1.rc")" = "rc 0" ] || { sed 's/^/    /' "$OUT/r1.err"; bail run "hoplab run failed"; }
D=$(ls -d "$OUT"/r1/live-*)
S=$D/summary.csv

# --- 1. interval lines while it runs --------------------------------
N=$(grep -c '^[0-9.]*   t=[0-9.]*s probe: sent [0-9]* recv [0-9]* lost [0-9]* delay .* us .* Mbit/s$' "$OUT/r1.err")
assert_ge interval_lines_at_least_4 "$N" 4
assert_le interval_lines_at_most_6 "$N" 6
first=$(grep -m1 ' t=[0-9.]*s probe:' "$OUT/r1.err" | cut -d' ' -f1)
result=$(grep -m1 '      probe: sent' "$OUT/r1.err" | cut -d' ' -f1)
assert_ge interval_lines_come_while_running \
    "$(awk -v a="$first" -v b="$result" 'BEGIN { printf "%.3f", b - a }')" 0.5
isent=$(sed -n 's/.* t=[0-9.]*s probe: sent \([0-9]*\) .*/\1/p' "$OUT/r1.err" |
    awk '{ s += $1 } END { print s + 0 }')
assert_eq interval_lines_add_up_to_sent "$(csv_col "$S" sent)" "$isent"

# --- 2. packets/ -------------------------------------------------------
P=$D/packets/A_rep1-probe.csv
assert_eq packets_file "$P" "$(ls "$D"/packets/*.csv 2>/dev/null)"
assert_eq packets_header "seq,tx_ns,rx_ns,delay_ns,frame_bytes,ttl,received,tx_kernel" \
    "$(head -1 "$P")"
assert_eq packets_rows_equal_sent "$(csv_col "$S" sent)" "$(($(wc -l <"$P") - 1))"
assert_eq packets_received_rows_equal_received "$(csv_col "$S" received)" \
    "$(csv_col "$P" received | grep -c '^1$')"
assert_eq packets_seqs_unique "$(csv_col "$S" sent)" \
    "$(csv_col "$P" seq | sort -un | wc -l | tr -d ' ')"
mean=$(awk -F, 'NR > 1 && $7 == 1 { s += $4; n++ }
    END { if (n) printf "%.4f", s / n / 1000 }' "$P")
assert_near packets_mean_delay_equals_summary "$(csv_col "$S" delay_mean_us)" \
    "$mean" 0.0006
assert_eq packets_ttl "63" "$(csv_col "$P" ttl | sort -u | tr -d '\n')"

# --- 3. -q and no records -------------------------------------------
if ! $HOPLAB -q -o "$OUT/r2" run "$OUT/quiet.yaml" >"$OUT/r2.out" 2>"$OUT/r2.err"; then
	sed 's/^/    /' "$OUT/r2.err"
	fail quiet_run "hoplab -q run failed"
fi
assert_eq quiet_no_interval_lines 0 "$(grep -c 't=[0-9.]*s ' "$OUT/r2.err" "$OUT/r2.out" |
    awk -F: '{ s += $2 } END { print s + 0 }')"
assert_eq quiet_no_progress 0 "$(grep -c '^\[1/1\]\|^run 1/1' "$OUT/r2.err")"
D2=$(ls -d "$OUT"/r2/quiet-*)
assert_eq no_records_no_packets_dir no "$([ -e "$D2/packets" ] && echo yes || echo no)"
assert_eq quiet_summary_written 2000 "$(csv_col "$D2/summary.csv" received)"

finish
