# bench/lib.sh: helpers for bench/run.sh (POSIX sh, sourced): installing
# the peer tools, the peers' namespaces, timing a command's CPU use, and
# reading numbers out of the tools' outputs.
#
# Namespaces (besides tools/genlab.sh's PREFIX-gen and PREFIX-r1):
#	PREFIX-s  s0 198.18.200.1/24 --veth-- d0 198.18.200.2/24  PREFIX-d
#		(D-ITG and iperf3, which need kernel addresses)
#	PREFIX-v  tx --veth-- rx, both in one namespace, no addresses
#		(the 64-byte rate of hoplab-gen and trafgen)
# bench_down removes them and kills, by PID, the servers it started.

BENCH_PIDS=

# bench_install: install the peer tools that are missing (Debian).
bench_install()
{
	_miss=
	for _p in d-itg iperf3 netsniff-ng tcpdump time; do
		_st=$(dpkg-query -W -f='${db:Status-Status}' "$_p" 2>/dev/null)
		[ "$_st" = installed ] || _miss="$_miss $_p"
	done
	[ -n "$_miss" ] || return 0
	echo "bench: installing$_miss"
	DEBIAN_FRONTEND=noninteractive apt-get install -y $_miss \
	    >/dev/null 2>&1 || {
		apt-get update >/dev/null 2>&1
		DEBIAN_FRONTEND=noninteractive apt-get install -y $_miss \
		    >/dev/null
	}
}

bench_ns_up()
{
	_p=$1
	ip netns add "$_p-s" && ip netns add "$_p-d" && ip netns add "$_p-v" &&
	    ip link add name s0 netns "$_p-s" type veth \
	    peer name d0 netns "$_p-d" &&
	    ip link add name tx netns "$_p-v" type veth \
	    peer name rx netns "$_p-v" &&
	    ip -n "$_p-s" addr add 198.18.200.1/24 dev s0 &&
	    ip -n "$_p-d" addr add 198.18.200.2/24 dev d0 || return 1
	for _x in s:s0 d:d0 v:tx v:rx; do
		ip netns exec "$_p-${_x%%:*}" sh -c \
		    "echo 1 > /proc/sys/net/ipv6/conf/${_x#*:}/disable_ipv6" &&
		    ip -n "$_p-${_x%%:*}" link set dev "${_x#*:}" up || return 1
	done
	for _n in s d v; do
		ip -n "$_p-$_n" link set dev lo up || return 1
	done
}

# bench_bg NS CMD...: start CMD in namespace NS in the background, output
# to the file in $BG_LOG, and remember its PID (ip netns exec execs CMD,
# so $! is CMD's own PID).
bench_bg()
{
	_ns=$1
	shift
	ip netns exec "$_ns" "$@" >"$BG_LOG" 2>&1 &
	BG_PID=$!
	BENCH_PIDS="$BENCH_PIDS $BG_PID"
}

# bench_stop PID: end a background command we started (TERM, then KILL).
bench_stop()
{
	kill "$1" 2>/dev/null || return 0
	_t=0
	while kill -0 "$1" 2>/dev/null && [ $_t -lt 20 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

bench_down()
{
	for _pid in $BENCH_PIDS; do
		bench_stop "$_pid"
	done
	BENCH_PIDS=
	for _n in s d v; do
		ip netns del "$1-$_n" 2>/dev/null
	done
	return 0
}

# timed FILE CMD...: run CMD under /usr/bin/time; FILE gets "elapsed user
# system" in seconds (10 ms resolution).  Returns CMD's exit status.
timed()
{
	_f=$1
	shift
	/usr/bin/time -o "$_f" -f '%e %U %S' "$@"
}

# cpu_pct FILE: CPU use in % of one core from timed's FILE.
cpu_pct()
{
	tail -n 1 "$1" | awk '{ if ($1 > 0) printf "%.2f", 100 * ($2 + $3) / $1
	    else print "-" }'
}

# last_json_num FILE KEY: the last number given for "KEY" in a JSON file
# (iperf3's summary comes last).
last_json_num()
{
	sed -n "s/.*\"$2\":[[:space:]]*\\([0-9.e+-]*\\).*/\\1/p" "$1" | tail -n 1
}

# ns_stat NS IF COUNTER: /sys/class/net/IF/statistics/COUNTER in NS.
ns_stat()
{
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
}

now_ns() { date +%s%N; }

# bench_pace_spin ROOT: build bench/pace_spin.c (hoplab-gen's pacer alone)
# into ROOT/build/bench/pace_spin and print its path; 1 if it did not build.
bench_pace_spin()
{
	_d=$1/build/bench/pace_spin
	mkdir -p "$1/build/bench" &&
	    make -s -C "$1" build/generator/pace.o build/libhoplab.a &&
	    cc -I"$1" -I"$1/lib" -I"$1/build" -std=c11 -Wall -Wextra -Werror \
	    -D_GNU_SOURCE -O2 -o "$_d" "$1/bench/pace_spin.c" \
	    "$1/build/generator/pace.o" "$1/build/libhoplab.a" -lm &&
	    echo "$_d"
}

# gap_err PCAP PORT SKIP TARGET_NS: percentiles 50, 90, 99 of |gap -
# TARGET_NS| in us between consecutive UDP packets to PORT in PCAP, the
# first SKIP gaps left out (the robust view of pacing: a tool's own
# precision, where the std is ruled by a few gaps the machine took).
# Stamps are split into seconds and nanoseconds so that no digit is lost.
gap_err()
{
	tcpdump -nn --nano -tt -r "$1" "udp dst port $2" 2>/dev/null |
	    awk -v skip="$3" -v tgt="$4" '{
		split($1, t, "."); s = t[1]; n = t[2] + 0
		if (NR > 1 && NR - 1 > skip) {
			e = (s - ps) * 1e9 + (n - pn) - tgt
			print (e < 0 ? -e : e)
		}
		ps = s; pn = n }' | sort -n | awk '{ v[NR] = $1 }
	    END { if (NR == 0) { print "- - -"; exit }
		printf "%.3f %.3f %.3f\n", v[int(NR * 0.50 + 0.5)] / 1000,
		    v[int(NR * 0.90 + 0.5)] / 1000, v[int(NR * 0.99 + 0.5)] / 1000 }'
}
