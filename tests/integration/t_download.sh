#!/bin/sh
# t_download: tcp flows with bytes: as downloads (docs/plans.md
# "Downloads", docs/results.md "downloads.csv").  Lab prefix hldl,
# management K 220.
#
#   H1 -- R1 (linux) -- [w-R1-H2: hoplab-link, rate 20mbit] -- H2
#
# Known truth:
#
# 1. bad input is refused before anything starts (--dry-run, exit 2) with
#    file:line: key and what was expected: bytes out of range or not a
#    size, bytes or streams on a udp flow, streams outside 1..128, cc not
#    a kernel name;
# 2. a download of 2 MB (2000000 bytes) from H1 to H2 swept over streams
#    1 and 4 ($n): downloads.csv's bytes_received (the receiver's own
#    hoplab-gen total) is exactly 2000000, as is the sum of the streams'
#    bytes_received in downloads_streams.csv (the counts the receiver sent
#    back on each connection: another path to the same truth); each
#    stream's share is 2000000 / n exactly (the split is even here);
#    complete is 1; bytes: and streams: take sweep values ($size: 2 x 2
#    points in --dry-run, a bad value blamed on its sweep entry);
# 3. its time against the link's own truth file: not below the
#    serialisation of every frame the link sent towards H2 (less 1 ms
#    for the ACKs of the close), not above it by more than 0.25 s; and
#    with no retransmission the truth's TCP payload is exactly 2000000
#    bytes (the comment at the check works out both);
# 4. downloads_summary.csv has a row per point with the mean time, and
#    intervals.csv's rx_bytes (the receiver's per interval) add up to
#    the 2000000 bytes;
# 5. a download of 4 MB limited to 500 ms (duration:) through a 50-packet
#    rate queue cannot finish: complete 0, no download_time_s, the bytes
#    it moved (more than 0, at most the payload the link's truth says it
#    carried and at most R x 0.6 s / 8 + the queue's 50 x 1518 bytes that
#    were on their way when the sender reset), and a console line that
#    says INCOMPLETE;
# 6. a cc the agent's kernel lacks fails the run with the sender's
#    message: the name and the kernel's list (after the receiver's 10 s
#    wait for a sender).
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hldl 220
T=$(mktemp -d /tmp/hoplab-t-download.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
RATE=20000000		# bit/s, the plans' rate 20mbit

topo()
{
	printf '%s\n' "name: $1" "topology:" "  hosts:" "    H1: {}" \
	    "    H2: {}" "    R1: {router: linux}" "  links:" "    - [H1, R1]" \
	    "    - [R1, H2]"
}

{ topo dl; cat <<'EOF'
impairments:
  - {link: R1-H2, rate: 20mbit}
sweep: {n: [1, 4]}
flows:
  - {name: get, from: H1, to: H2, mode: tcp, bytes: 2MB, streams: $n}
EOF
} >"$T/dl.yaml"
{ topo cut; cat <<'EOF'
impairments:
  - {link: R1-H2, rate: 20mbit, limit: 50}
flows:
  - {name: get, from: H1, to: H2, mode: tcp, bytes: 4MB, duration: 500ms}
EOF
} >"$T/cut.yaml"

# 1.
{ topo bad; cat <<'EOF'
flows:
  - {name: a, from: H1, to: H2, mode: tcp, bytes: 2TB}
  - {name: b, from: H1, to: H2, mode: tcp, bytes: 0}
  - {name: c, from: H1, to: H2, mode: tcp, bytes: 1.5MB}
  - {name: d, from: H1, to: H2, mode: tcp, bytes: 2MB, streams: 129}
  - {name: e, from: H1, to: H2, mode: tcp, bytes: 2MB, streams: 0}
  - {name: f, from: H1, to: H2, mode: tcp, bytes: 2MB, cc: Cubic}
  - {name: g, from: H1, to: H2, mode: tcp, bytes: 2MB, cc: averyveryverylongname}
  - {name: h, from: H1, to: H2, mode: udp, frame: 100, idt: 1ms, count: 10, bytes: 2MB}
  - {name: i, from: H1, to: H2, mode: udp, frame: 100, idt: 1ms, count: 10, streams: 2}
EOF
} >"$T/bad.yaml"
SIZE="expected a size of 1B..1TiB such as 100MB (a whole number of B, kB, \
MB, GB, TB, KiB, MiB, GiB, TiB), got"
CC="expected a congestion control's kernel name, 1..15 of a-z, 0-9 and _ \
(cubic, reno, bbr), got"
STREAMS="expected 1..128 (parallel connections of the flow), got"
NOTTCP="only for a tcp flow (mode: tcp, a download), not for mode udp"
cat >"$T/bad.expected" <<EOF
bad.yaml:11: flows[0].bytes: $SIZE '2TB'
bad.yaml:12: flows[1].bytes: $SIZE '0'
bad.yaml:13: flows[2].bytes: $SIZE '1.5MB'
bad.yaml:14: flows[3].streams: $STREAMS 129
bad.yaml:15: flows[4].streams: $STREAMS 0
bad.yaml:16: flows[5].cc: $CC 'Cubic'
bad.yaml:17: flows[6].cc: $CC 'averyveryverylongname'
bad.yaml:18: flows[7].bytes: $NOTTCP
bad.yaml:19: flows[8].streams: $NOTTCP
9 errors
EOF
(cd "$T" && "$HL_BIN/hoplab" run --dry-run bad.yaml) >"$T/bad.out" 2>&1
assert_eq bad_input_exit_2 2 "$?"
if diff -u "$T/bad.expected" "$T/bad.out"; then
	pass bad_input_messages
else
	fail bad_input_messages "the refusals differ (diff above)"
fi
"$HL_BIN/hoplab" run --dry-run "$T/dl.yaml" >"$T/dry.out" 2>&1
assert_eq dry_run_exits_0 0 "$?"

# bytes: and streams: take sweep values like any key: 2 x 2 points, and a
# bad value is refused naming the sweep's entry.
sed -e 's/sweep: {n: \[1, 4\]}/sweep: {n: [1, 4], size: [2MB, 1MiB]}/' \
    -e 's/bytes: 2MB/bytes: $size/' "$T/dl.yaml" >"$T/sw.yaml"
assert_eq size_sweep_4_points 4 "$("$HL_BIN/hoplab" run --dry-run \
    "$T/sw.yaml" 2>&1 | grep -Ec '^ +[0-9]+ +topology +n=[14];size=(2MB|1MiB) ')"
sed 's/1MiB\]/1MiB, 3x]/' "$T/sw.yaml" >"$T/swbad.yaml"
(cd "$T" && "$HL_BIN/hoplab" run --dry-run swbad.yaml) >"$T/swbad.out" 2>&1
assert_eq size_sweep_bad_value \
    "swbad.yaml:14: flows[0].bytes: $SIZE '3x' (sweep.size[2])" \
    "$(head -n 1 "$T/swbad.out")"

LAB_IS_UP=1
if ! $HL lab up --plan "$T/dl.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# row FILE KEY=VALUE... : the first row of FILE whose columns have those
# values, as "col=value" lines.
row()
{
	_f=$1
	shift
	awk -F, -v conds="$*" '
	NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; n = NF; next }
	{
		k = split(conds, c, " ")
		for (j = 1; j <= k; j++) {
			e = index(c[j], "=")
			key = substr(c[j], 1, e - 1)
			v = substr(c[j], e + 1)
			for (i = 1; i <= n; i++)
				if (name[i] == key && $i != v)
					next
		}
		for (i = 1; i <= n; i++)
			print name[i] "=" $i
		exit
	}' "$_f"
}
# val ROW COLUMN
val()
{
	echo "$1" | sed -n "s/^$2=//p"
}

# truth FILE: the frames hoplab-link sent towards H2 (a-b, forward, as
# the link is written R1-H2): "SERIALISATION_S PAYLOAD_BYTES", the first
# the sum of (frame incl. FCS) x 8 / RATE, the second the sum of frame -
# 70 over the frames longer than 70 bytes (FCS 4, Ethernet 14, IPv4 20,
# TCP 32 with the timestamp option Linux sends: a pure ACK or FIN is 70
# bytes; a data segment's payload is frame - 70, short segments too; a
# SYN, 78 bytes, adds 8).
truth()
{
	awk -F, -v rate="$RATE" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["dir"] == "a-b" && $c["fate"] == "sent" && $c["frame"] != "" {
		b += $c["frame"]
		if ($c["frame"] > 70)
			p += $c["frame"] - 70
	}
	END { printf "%.6f %d\n", b * 8 / rate, p }' "$1" 2>/dev/null ||
	    { fail "truth_$(basename "$1")" "no truth file $1"; echo "- -"; }
}

# 2. and 3.
if lab_run dl "$T/dl.yaml" "$T"; then
	D=$LAB_RUN
	PT=1
	for n in 1 4; do
		R=$(row "$D/downloads.csv" point="n=$n" flow=get)
		assert_eq "n${n}_bytes_2000000" 2000000 "$(val "$R" bytes)"
		assert_eq "n${n}_received_2000000" 2000000 \
		    "$(val "$R" bytes_received)"
		assert_eq "n${n}_complete" 1 "$(val "$R" complete)"
		assert_eq "n${n}_streams" "$n" "$(val "$R" streams)"
		assert_eq "n${n}_stream_rows" "$n" "$(awk -F, -v p="n=$n" \
		    '$2 == p' "$D/downloads_streams.csv" | wc -l)"
		assert_eq "n${n}_streams_counts_sum_2000000" 2000000 \
		    "$(awk -F, -v p="n=$n" '$2 == p { s += $8 } END { print s }' \
		    "$D/downloads_streams.csv")"
		assert_eq "n${n}_shares_even" "$((2000000 / n))" \
		    "$(awk -F, -v p="n=$n" '$2 == p { print $6 }' \
		    "$D/downloads_streams.csv" | sort -u)"
		# 3. The download cannot be shorter than the link's
		# serialisation of its frames (all of them lie between the
		# first connect and the receiver's count of the last byte, but
		# for the few 70-byte ACKs and FINs of the close: 28 us each,
		# hence 1 ms of slack below), and is longer only by the
		# handshakes, slow start (the link idles until the window fills
		# it: a few round trips of well under 1 ms here) and the
		# count's way back; measured +1.5 ms at n=1 and n=4 on an idle
		# machine, the bound above is 0.25 s for make check's load.
		# The serialisation is 2000000 x 8 / R = 0.8 s and the headers
		# (70 of each 1518-byte frame: 1382 data frames): 0.8388 s.
		# With no retransmission the truth's payload is exactly the
		# 2000000 bytes (a retransmitted segment would add its own)
		# once the streams' SYNs are taken off: 78 bytes each (40
		# bytes of options), so 8 apiece over frame - 70.
		TIME=$(val "$R" download_time_s)
		set -- $(truth "$D/links/topology_R1-H2_0_1_p$PT.csv")
		SER=$1
		assert_near "n${n}_serialisation_0.8388s" 0.8388 "$SER" 0.002
		assert_ge "n${n}_time_at_least_serialisation" "$TIME" \
		    "$(awk -v s="$SER" 'BEGIN { print s - 0.001 }')"
		assert_le "n${n}_time_at_most_serialisation_plus_0.25s" "$TIME" \
		    "$(awk -v s="$SER" 'BEGIN { print s + 0.25 }')"
		if [ "$(val "$R" retransmits)" = 0 ]; then
			assert_eq "n${n}_truth_payload_2000000" 2000000 \
			    "$(($2 - 8 * n))"
		else
			assert_ge "n${n}_truth_payload_at_least_2000000" "$2" \
			    2000000
		fi
		echo "  n=$n: download_time_s $TIME, serialisation $SER s," \
		    "goodput $(val "$R" goodput_mbps) Mbit/s"
		# Goodput over time: intervals.csv's rx_bytes are the bytes
		# the receiver read per interval; they add up to all of them.
		assert_eq "n${n}_intervals_rx_bytes_sum_2000000" 2000000 \
		    "$(awk -F, -v run="$PT" 'NR == 1 { for (i = 1; i <= NF; i++)
		    c[$i] = i; next } $c["run"] == run && $c["flow"] == "get" {
		    s += $c["rx_bytes"] } END { print s + 0 }' \
		    "$D/intervals.csv")"
		# 4.
		SUM=$(row "$D/downloads_summary.csv" point="n=$n" flow=get)
		assert_eq "n${n}_summary_one_rep" 1 "$(val "$SUM" n_reps)"
		assert_near "n${n}_summary_mean_time" "$TIME" \
		    "$(val "$SUM" download_time_s_mean)" 0.0001
		PT=$((PT + 1))
	done
fi

# 5.
if lab_run cut "$T/cut.yaml" "$T"; then
	R=$(row "$LAB_RUN/downloads.csv" flow=get)
	assert_eq cut_complete_0 0 "$(val "$R" complete)"
	assert_eq cut_no_time "" "$(val "$R" download_time_s)"
	assert_gt cut_moved_something "$(val "$R" bytes_received)" 0
	# At most what the link carried towards H2 (its truth: the data
	# frames' payload, retransmitted ones twice) and at most what 20
	# Mbit/s moves in the 500 ms limit (100 ms more for a late wake-up
	# of the sender under load) plus the 50 frames of 1518 bytes queued
	# in the link when the reset went in behind them.
	set -- $(truth "$LAB_RUN/links/topology_R1-H2_0_1.csv")
	assert_le cut_moved_at_most_what_the_link_carried \
	    "$(val "$R" bytes_received)" "$2"
	assert_le cut_moved_at_most_rate_x_limit_plus_queue \
	    "$(val "$R" bytes_received)" $((RATE / 8 * 6 / 10 + 50 * 1518))
	assert_match cut_console_says_incomplete "get: download INCOMPLETE" \
	    "$(cat "$T/cut.log")"
fi

# 6. A congestion control the kernel lacks: the run fails, naming it and
#    the kernel's list.
sed 's/bytes: 4MB, duration: 500ms/bytes: 1MB, cc: nosuchcc/' "$T/cut.yaml" |
    sed 's/^name: cut/name: nocc/' >"$T/nocc.yaml"
$HL -o "$T/nocc" run "$T/nocc.yaml" >"$T/nocc.log" 2>&1
assert_eq nocc_run_fails 1 "$?"
assert_match nocc_names_the_algorithm_and_the_list \
    "--cc nosuchcc: the kernel has no congestion control \"nosuchcc\".*tcp_available_congestion_control: [a-z]" \
    "$(cat "$T/nocc.log")"

lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
