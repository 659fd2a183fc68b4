#!/bin/sh
# t_pathchange: the time from a fault to the first probe of the new path,
# from the probes' TTL (generator/ttltrack.c -> ttl_changes.csv ->
# path_changes.csv, recovery.csv), checked against a capture.  Lab prefix
# hlpc, management K 244; the network of tests/integration/plans/
# pathchange-*.yaml: H1 - R1 - R4 - H2, and R1 - R2 - R3 - R4, kernel
# routers with static routes and backups, a udp flow at 1 ms, 3
# repetitions of: R1's route to H2 moved to R2 at 0.6 s (route), R1-R4
# cut at 0.6 s (cut).
#
# Known truth:
#
# 1. tcpdump in R2 on its link from R1 (the new path's first link; no
#    probe of the flow crosses it before the fault) sees each
#    repetition's probes start at some sequence number (the capture's
#    own, read from the probe header's hex, lib/probe.h: seq at UDP
#    payload bytes 6..9): path_changes.csv's `seq` (route) and
#    recovery.csv's `first_new_path_seq` (cut) of each point are those
#    numbers;
# 2. route: path_changes.csv has the 3 changes, TTL 62 before and 60
#    after (64 - 2 routers, 64 - 4), switch_ms between 0 and 500 (the
#    agent stamps the command just before it runs it; 500 ms is a loose
#    bound: ip route replace takes about a ms, the probes are 1 ms
#    apart); path_changes_summary.csv has n = 3;
# 3. cut: recovery.csv has the 3 cuts, TTL 62 and 60, first_new_path_ms
#    between -20 and 500 (faults.csv stamps a cut with the agent's
#    answer, after the link went down: the backup may carry a probe
#    before it, measured -0.6 .. 0.7 ms); ttl_changes.csv has per point
#    the first packet (0 -> 62) and the change 62 -> 60 at that same
#    sequence number; recovery_summary.csv has n = 3;
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
PLANS=$HL_ROOT/tests/integration/plans
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
CAP=

LAB_IS_UP=1
if ! $HL lab up --plan "$PLANS/pathchange-cut.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# cap_start NAME: capture every probe (UDP payload magic "HL") R2
# receives from R1 into $T/NAME.pcap.  The run cables the links, so R2's
# interface R1 appears with the run: tcpdump starts once it exists.
cap_start()
{
	(
		i=0
		while ! in_host R2 ip link show R1 >/dev/null 2>&1 &&
		    [ $i -lt 200 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		exec ip netns exec "$LAB_PREFIX-R2" tcpdump -i R1 -nn -U \
		    -s 128 -w "$T/$1.pcap" 'udp and udp[8:2] = 0x484c' \
		    2>"$T/$1.tcpdump"
	) &
	CAP=$!
}

# cap_stop NAME: stop the capture by its PID (-U wrote every packet);
# print the first probe's seq of each repetition (a repetition starts
# over at a lower seq).  tcpdump -x prints from the IPv4 header: 20
# bytes of it, 8 of UDP, then the probe, whose seq is bytes 34..37.
cap_stop()
{
	kill "$CAP" 2>/dev/null
	wait "$CAP" 2>/dev/null
	CAP=
	grep -q "listening on R1" "$T/$1.tcpdump" ||
	    fail "$1_capture_started" "$(cat "$T/$1.tcpdump")"
	tcpdump -r "$T/$1.pcap" -nn -x 2>/dev/null | awk '
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
	END { flush(); print firsts }'
}
at_exit '[ -z "$CAP" ] || kill "$CAP" 2>/dev/null'

# run_plan NAME: hoplab run plans/pathchange-NAME.yaml under a capture;
# D is its results folder, FIRSTS the capture's first seqs.
run_plan()
{
	D=
	cap_start "$1"
	if ! $HL -o "$T/$1" run "$PLANS/pathchange-$1.yaml" >"$T/$1.log" 2>&1
	then
		sed 's/^/    /' "$T/$1.log"
		lab_logs
		fail "$1_run" "hoplab run pathchange-$1.yaml failed"
		cap_stop "$1" >/dev/null
		return 1
	fi
	pass "$1_run_completes"
	D=$(ls -d "$T/$1"/*-*)
	FIRSTS=$(cap_stop "$1")
	assert_eq "$1_capture_has_3_repetitions" 3 \
	    "$(echo "$FIRSTS" | wc -w | tr -d ' ')"
}

# words FILE COLUMN: the column's values on one line.
words()
{
	csv_col "$1" "$2" | tr '\n' ' ' | sed 's/ $//'
}

# 1, 2.  A plan loader without route faults (this branch alone, before
# the plan helper's merge) refuses the plan: said, not hidden.
if ! $HL run --dry-run "$PLANS/pathchange-route.yaml" >"$T/dry.log" 2>&1
then
	echo "  skip route: this build refuses route faults: $(head -1 \
	    "$T/dry.log")"
elif run_plan route; then
	P=$D/path_changes.csv
	assert_eq route_3_changes "router R1 route
router R1 route
router R1 route" "$(csv_col "$P" fault)"
	assert_eq route_seq_is_the_captures "$FIRSTS" "$(words "$P" seq)"
	assert_eq route_ttl_old_62 "62 62 62" "$(words "$P" ttl_old)"
	assert_eq route_ttl_new_60 "60 60 60" "$(words "$P" ttl_new)"
	for ms in $(csv_col "$P" switch_ms); do
		assert_ge route_switch_ms_not_negative "$ms" 0
		assert_le route_switch_ms_within_500 "$ms" 500
	done
	assert_eq route_summary_n_3 3 "$(csv_col \
	    "$D/path_changes_summary.csv" n)"
fi

# 1, 3.
if run_plan cut; then
	R=$D/recovery.csv
	assert_eq cut_first_new_path_seq_is_the_captures "$FIRSTS" \
	    "$(words "$R" first_new_path_seq)"
	assert_eq cut_3_cuts "link R1-R4 down
link R1-R4 down
link R1-R4 down" "$(csv_col "$R" fault)"
	assert_eq cut_ttl_old_62 "62 62 62" "$(words "$R" ttl_old)"
	assert_eq cut_ttl_new_60 "60 60 60" "$(words "$R" ttl_new)"
	for ms in $(csv_col "$R" first_new_path_ms); do
		assert_ge cut_first_new_path_ms_not_below_minus_20 "$ms" -20
		assert_le cut_first_new_path_ms_within_500 "$ms" 500
	done
	C=$D/ttl_changes.csv
	csv_col "$C" ttl_from >"$T/from"
	csv_col "$C" ttl_to >"$T/to"
	assert_eq cut_ttl_changes_per_point \
	    "0>62 62>60 0>62 62>60 0>62 62>60" \
	    "$(paste -d'>' "$T/from" "$T/to" | tr '\n' ' ' | sed 's/ $//')"
	assert_eq cut_ttl_change_seq_is_recoverys "$FIRSTS" \
	    "$(awk -F, 'NR > 1 && $11 != 0 { printf "%s%s", s, $7
		s = " " }' "$C")"
	assert_eq cut_summary_n_3 3 "$(awk -F, '$4 == "first_new_path_ms" &&
	    $2 == "flow" { print $5 }' "$D/recovery_summary.csv")"

	# 4.
	cp "$R" "$T/recovery.first"
	if $HL report "$D" >"$T/report.log" 2>&1; then
		assert_ok report_same_recovery cmp "$T/recovery.first" "$R"
		assert_ok report_drew_recovery_cdf \
		    test -s "$D/plots/recovery_cdf.png"
		# The .dat's second block (outage_ms first): a start at 0,
		# a step up at each value.
		v=$(csv_col "$R" first_new_path_ms | sort -n |
		    awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 }')
		[ -n "$v" ] || fail cdf_values "no first_new_path_ms"
		assert_eq cdf_holds_the_values "$v" "$(awk 'BEGIN { RS = "" }
		    NR == 2 { n = split($0, l, "\n")
			for (i = 2; i <= n; i++) { split(l[i], f, " ")
			    printf "%s%.3f", (i > 2 ? " " : ""), f[1] } }' \
		    "$D/plots/recovery_cdf.dat")"
	else
		sed 's/^/    /' "$T/report.log"
		fail report "hoplab report failed"
	fi
fi
finish
