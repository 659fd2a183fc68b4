#!/bin/sh
# t_plan_txring: a plan asks the chain's generator for the transmit ring.
# Lab prefix hltp, management K 190; one router (A), kernel forwarding.
#
# 1. hoplab run --dry-run of a plan whose l2 flow has tx_io: ring and
#    tx_stamp_every: 10 says the generator runs --tx-io ring with 1
#    frame in 10 kernel-stamped; a second l2 flow without the keys is
#    refused (exit 2) at its own line, naming the first flow's value.
# 2. The run on the lab: summary.csv's sent and received are the plan's
#    count (300) and its ts_source is hoplab-gen's for the ring with the
#    plan's sample, tx=payload,ktx=1/10,rx=kernel-sw (the generator
#    writes what it ran, so the value proves the options reached it).
#    records: true: packets/ has one row per packet, and tx_kernel is 2
#    (the probe's stamp of a frame the kernel stamped too) on exactly
#    the rows whose seq is a multiple of 10, 0 on the others.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hltp 190
OUT=$(mktemp -d /tmp/hoplab-t-plan-txring.XXXXXX)
at_exit "rm -rf '$OUT'"
COUNT=300
EVERY=10

cat >"$OUT/ring.yaml" <<PLAN
name: ring
topology: {chain: [A]}
router: {impl: linux}
records: true
flows:
  - name: probe
    frame: 64
    idt: 1ms
    count: $COUNT
    tx_io: ring
    tx_stamp_every: $EVERY
PLAN
{ cat "$OUT/ring.yaml"; printf '  - {name: other, frame: 64, idt: 1ms, count: 5}\n'; } \
    >"$OUT/mixed.yaml"

# --- 1. dry run, and flows of one generator that disagree -------------
"$HL_BIN/hoplab" run --dry-run "$OUT/ring.yaml" >"$OUT/dry.out" 2>&1
assert_eq dry_run_ok 0 $?
assert_eq dry_run_names_the_ring \
    "generator: hoplab-gen --tx-io ring for the l2 flows, 1 frame in $EVERY kernel-stamped (ktx=1/$EVERY)" \
    "$(grep '^generator:' "$OUT/dry.out")"
rc=0
"$HL_BIN/hoplab" run --dry-run "$OUT/mixed.yaml" >"$OUT/mixed.out" 2>&1 || rc=$?
assert_eq disagreeing_flows_exit_2 2 "$rc"
assert_eq disagreeing_flows_refused_at_their_line \
    "$OUT/mixed.yaml:12: flows[1].tx_io: send (not given): the l2 flows run in one hoplab-gen, whose --tx-io is one for all; flows[0] (probe, line 6) has ring" \
    "$(grep 'flows\[1\]' "$OUT/mixed.out")"

# --- 2. the run ------------------------------------------------------------
lab_up A
lab_run ring "$OUT/ring.yaml" "$OUT" || bail ring "no results"
S=$LAB_RUN/summary.csv
assert_eq sent_is_the_plans_count "$COUNT" "$(csv_col "$S" sent)"
assert_eq received_is_the_plans_count "$COUNT" "$(csv_col "$S" received)"
assert_eq ts_source_names_the_plans_sample \
    "tx=payload,ktx=1/$EVERY,rx=kernel-sw" "$(csv_col "$S" ts_source)"
P=$LAB_RUN/packets/A_rep1-probe.csv
assert_eq packets_rows_equal_count "$COUNT" "$(($(wc -l <"$P") - 1))"
csv_col "$P" seq >"$OUT/seq"
csv_col "$P" tx_kernel >"$OUT/txk"
paste -d' ' "$OUT/seq" "$OUT/txk" >"$OUT/seq_txk"
assert_eq tx_kernel_2_on_every_10th "$((COUNT / EVERY))" \
    "$(awk -v n="$EVERY" '$1 % n == 0 && $2 == 2' "$OUT/seq_txk" | wc -l | tr -d ' ')"
assert_eq tx_kernel_0_on_the_others "$((COUNT - COUNT / EVERY))" \
    "$(awk -v n="$EVERY" '$1 % n != 0 && $2 == 0' "$OUT/seq_txk" | wc -l | tr -d ' ')"

finish
