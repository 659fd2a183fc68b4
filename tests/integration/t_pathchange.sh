#!/bin/sh
# t_pathchange: the time from a fault to the first probe of the new path,
# from the probes' TTL (generator/ttltrack.c -> ttl_changes.csv ->
# recovery.csv, path_changes.csv), checked against a capture.  Lab prefix
# hlpc, management K 244; tests/integration/plans/pathchange-cut.yaml:
# H1 - R1 - R4 - H2, backup R1 - R2 - R3 - R4, kernel routers with
# static backups, R1-R4 cut at 0.6 s in each of 3 repetitions under a
# udp flow at 1 ms.
#
# Known truth:
#
# 1. tcpdump in R2 on its link from R1 (the new path's first link; no
#    probe of the flow crosses it before the cut) sees each repetition's
#    probes start at some sequence number (the capture's own, read from
#    the probe header's hex, lib/probe.h: seq at UDP payload bytes
#    6..9): recovery.csv's first_new_path_seq of each point is that
#    number;
# 2. recovery.csv has the 3 cuts, TTL 62 before and 60 after (64 - 2
#    routers, 64 - 4), first_new_path_ms between -20 and 500 (a loose
#    bound: the kernel reroutes in well under a ms, the probes are 1 ms
#    apart, and faults.csv's time is the agent's answer, stamped after
#    the cut: measured -0.6 .. 0.7 ms);
# 3. ttl_changes.csv has per point the first packet (0 -> 62) and the
#    change 62 -> 60 at that same sequence number; recovery_summary.csv
#    has n = 3 for first_new_path_ms;
# 4. `hoplab report` makes recovery.csv again, the same bytes, and
#    draws plots/recovery_cdf.png, whose first_new_path_ms series holds
#    recovery.csv's 3 values.
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v tcpdump >/dev/null 2>&1 || bail tcpdump "tcpdump is missing"
lab_init hlpc 244
T=$(mktemp -d /tmp/hoplab-t-pathchange.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
PLAN=$HL_ROOT/tests/integration/plans/pathchange-cut.yaml
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

LAB_IS_UP=1
if ! $HL lab up --plan "$PLAN" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# The capture: every probe (UDP payload magic "HL") R2 receives from R1.
# The run cables the links, so R2's interface R1 appears with the run:
# tcpdump is started on it as soon as it exists.
(
	i=0
	while ! in_host R2 ip link show R1 >/dev/null 2>&1 && [ $i -lt 200 ]
	do
		sleep 0.05
		i=$((i + 1))
	done
	exec ip netns exec "$LAB_PREFIX-R2" tcpdump -i R1 -nn -U -s 128 \
	    -w "$T/r2.pcap" 'udp and udp[8:2] = 0x484c' 2>"$T/tcpdump.log"
) &
CAP=$!
at_exit "kill $CAP 2>/dev/null"

if ! $HL -o "$T/out" run "$PLAN" >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run failed"
fi
pass run_completes
D=$(ls -d "$T/out"/*-*)
# tcpdump writes each packet as it comes (-U); stop it by its PID.
kill "$CAP" 2>/dev/null
wait "$CAP" 2>/dev/null
grep -q "listening on R1" "$T/tcpdump.log" ||
    fail capture_started "$(cat "$T/tcpdump.log")"

# 1. The capture's first probe of each repetition: a repetition starts
# over at a lower seq.  tcpdump -x prints from the IPv4 header: 20 bytes
# of it, 8 of UDP, then the probe, whose seq is bytes 34..37.
tcpdump -r "$T/r2.pcap" -nn -x 2>/dev/null | awk '
	function hexval(h,    i, v) {
		v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	function flush() {
		if (hex == "") return
		seq = hexval(substr(hex, 69, 8))
		if (n == 0 || seq < last) firsts = firsts (n++ ? " " : "") seq
		last = seq; hex = ""
	}
	/^[0-9]/ { flush(); next }
	/0x[0-9a-f]*:/ { for (i = 2; i <= NF; i++) hex = hex $i }
	END { flush(); print firsts }' >"$T/firsts"
R=$D/recovery.csv
csv_col "$R" first_new_path_seq | tr '\n' ' ' | sed 's/ $//' >"$T/seqs"
assert_eq capture_has_3_repetitions 3 "$(wc -w <"$T/firsts" | tr -d ' ')"
assert_eq first_new_path_seq_is_the_captures "$(cat "$T/firsts")" \
    "$(cat "$T/seqs")"

# 2.
assert_eq recovery_3_cuts "link R1-R4 down
link R1-R4 down
link R1-R4 down" "$(csv_col "$R" fault)"
assert_eq ttl_old_62 "62 62 62" "$(csv_col "$R" ttl_old | tr '\n' ' ' |
    sed 's/ $//')"
assert_eq ttl_new_60 "60 60 60" "$(csv_col "$R" ttl_new | tr '\n' ' ' |
    sed 's/ $//')"
# faults.csv's time is the agent's answer, after it cut the link: a
# probe may take the backup before it (pathdata.h, 20 ms at most).
for ms in $(csv_col "$R" first_new_path_ms); do
	assert_ge first_new_path_ms_after_the_cut_less_20ms "$ms" -20
	assert_le first_new_path_ms_within_500 "$ms" 500
done

# 3.
C=$D/ttl_changes.csv
assert_eq ttl_changes_per_point "0>62 62>60 0>62 62>60 0>62 62>60" \
    "$(paste -d'>' "$(csv_col "$C" ttl_from >"$T/f"; echo "$T/f")" \
    "$(csv_col "$C" ttl_to >"$T/t"; echo "$T/t")" | tr '\n' ' ' |
    sed 's/ $//')"
assert_eq ttl_change_seq_is_recoverys "$(cat "$T/seqs")" \
    "$(awk -F, 'NR > 1 && $11 != 0 { printf "%s%s", s, $7; s = " " }' "$C")"
assert_eq summary_n_3 3 "$(awk -F, '$4 == "first_new_path_ms" &&
    $2 == "flow" { print $5 }' "$D/recovery_summary.csv")"

# 4.
cp "$R" "$T/recovery.first"
if $HL report "$D" >"$T/report.log" 2>&1; then
	assert_ok report_same_recovery cmp "$T/recovery.first" "$R"
	assert_ok report_drew_recovery_cdf test -s "$D/plots/recovery_cdf.png"
	# The .dat's second block (outage_ms first): a start at 0, a step
	# up at each value.
	v=$(csv_col "$R" first_new_path_ms |
	    sort -n | awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 }')
	[ -n "$v" ] || fail cdf_values "recovery.csv has no first_new_path_ms"
	assert_eq cdf_holds_the_values "$v" "$(awk 'BEGIN { RS = "" }
	    NR == 2 { n = split($0, l, "\n")
		for (i = 2; i <= n; i++) { split(l[i], f, " ")
		    printf "%s%.3f", (i > 2 ? " " : ""), f[1] } }' \
	    "$D/plots/recovery_cdf.dat")"
else
	sed 's/^/    /' "$T/report.log"
	fail report "hoplab report failed"
fi
finish
