#!/bin/sh
#
# mgmt_scale.sh: how the management plane scales to many agents (issue 6).
#
#   sudo sh bench/mgmt_scale.sh [-n HOSTS] [-r REPEATS] [-c COUNT] [-t IDT_US]
#
# Builds a namespace lab of HOSTS hosts (default 32: gen and routers
# R1..R(HOSTS-1), an agent and a CURVE key pair each; prefix hlb,
# management net 198.19.236.0/24), then measures what the controller can do
# with many agents today:
#
#   lab up             seconds to build the lab and see every agent listen
#   hello, 1 agent     wall time of `hoplab agents` with one agent: process
#                      start, CURVE handshake, Hello -> Welcome, exit
#   hello, N agents    the same with all HOSTS agents (connect and
#                      handshake run concurrently over one zmq_poll loop)
#   per extra agent    (N-agent time - 1-agent time) / (N - 1)
#
# Each `hoplab agents` figure is the median of REPEATS runs (default 10,
# at most 15: an agent remembers 16 controllers and forgets one after 3 s
# of silence, and each run is a new controller), with min and max.
#
# Then every host gets a veth pair tx -- rx looped in its own namespace,
# and bench/scale_drive (built here into build/bench/) starts one l2
# generator per host, all with one GenParams.start_at_ns 2 s ahead, each
# sending COUNT probes IDT_US apart (default 5000 x 1 ms: 32 000 records/s
# from 32 hosts) and streaming its per-packet records, which the driver
# writes to packets/ with the controller's own code (controller/mgmt/peers.c,
# controller/results/records.c) and acknowledges batch by batch.  It prints the
# spread of the generators' actual first send times (max - min of
# first_tx_ns) and the records per second ingested and written.  A plan
# has one generator host, so this is a driver of its own, not `hoplab
# run` (docs/bench.md, "Management plane at scale").  The lab is removed
# on any exit.

set -u

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname "$here")
bin=$root/bin
prefix=hlb
k=236
hosts=32
reps=10
count=5000
idt_us=1000

usage()
{
	echo "usage: sudo sh bench/mgmt_scale.sh [-n HOSTS 2..64] [-r REPEATS 1..15]" \
	    "[-c COUNT 1..1000000] [-t IDT_US 10..1000000]" >&2
	exit 2
}

while getopts c:n:r:t: o; do
	case $o in
	c) count=$OPTARG ;;
	n) hosts=$OPTARG ;;
	r) reps=$OPTARG ;;
	t) idt_us=$OPTARG ;;
	*) usage ;;
	esac
done
case $hosts$reps$count$idt_us in *[!0-9]*|'') usage ;; esac
[ "$hosts" -ge 2 ] && [ "$hosts" -le 64 ] && [ "$reps" -ge 1 ] &&
    [ "$reps" -le 15 ] && [ "$count" -ge 1 ] && [ "$count" -le 1000000 ] &&
    [ "$idt_us" -ge 10 ] && [ "$idt_us" -le 1000000 ] || usage
[ "$(id -u)" = 0 ] || { echo "mgmt_scale: needs root (namespaces)" >&2; exit 1; }
[ -x "$bin/hoplab" ] && [ -x "$bin/hoplab-agent" ] &&
    [ -x "$bin/hoplab-gen" ] && [ -r "$root/build/libhoplab.a" ] ||
    { echo "mgmt_scale: build first (make)" >&2; exit 1; }
drive=$root/build/bench/scale_drive
mkdir -p "$root/build/bench"
make -s -C "$root" build/controller/mgmt/peers.o build/controller/mgmt/loop.o \
    build/controller/results/records.o \
    build/libhoplab.a &&
    cc -I"$root" -I"$root/lib" -I"$root/build" -std=c11 -Wall -Wextra \
    -Werror -D_GNU_SOURCE -O2 -o "$drive" "$root/bench/scale_drive.c" \
    "$root/build/controller/mgmt/peers.o" "$root/build/controller/mgmt/loop.o" \
    "$root/build/controller/results/records.o" \
    "$root/build/libhoplab.a" -lzmq -lprotobuf-c -lyaml -lpcap -lm ||
    { echo "mgmt_scale: cannot build $drive" >&2; exit 1; }

state=/run/hoplab/$prefix
tmp=$(mktemp -d /tmp/hoplab-bench.XXXXXX) || exit 1
lab()
{
	sh "$root/deploy/lab.sh" -p "$prefix" -k "$k" -b "$bin" -s "$state" "$@"
}
cleanup()
{
	lab down >/dev/null 2>&1 || echo "mgmt_scale: lab.sh down failed" >&2
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

now_ms()
{
	echo $(($(date +%s%N) / 1000000))
}

# Run `hoplab agents` with inventory $1 REPS times; print "median min max"
# in milliseconds, or fail when a run does not list every agent.
time_agents()
{
	: >"$tmp/times"
	ta_i=0
	while [ $ta_i -lt "$reps" ]; do
		ta_t0=$(now_ms)
		"$bin/hoplab" -i "$1" agents >"$tmp/out" 2>&1 || {
			echo "mgmt_scale: hoplab agents failed:" >&2
			sed 's/^/  /' "$tmp/out" >&2
			return 1
		}
		echo $(($(now_ms) - ta_t0)) >>"$tmp/times"
		ta_i=$((ta_i + 1))
	done
	sort -n "$tmp/times" | awk '{ v[NR] = $1 }
	    END { printf "%d %d %d\n", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

routers=
i=1
while [ $i -lt "$hosts" ]; do
	routers="$routers R$i"
	i=$((i + 1))
done

echo "mgmt_scale: building a lab of $hosts hosts (prefix $prefix)"
t0=$(now_ms)
# shellcheck disable=SC2086
lab up $routers >"$tmp/up.log" 2>&1 || { cat "$tmp/up.log" >&2; exit 1; }
up_ms=$(($(now_ms) - t0))

inv=$state/inventory.yaml
# A one-agent inventory: the header and the first agent (gen) only.
awk '/^  - name:/ { n++ } n <= 1' "$inv" >"$state/one.yaml"

one=$(time_agents "$state/one.yaml") || exit 1
# An agent remembers at most 16 controllers (AGENT_CTL_MAX) and forgets
# one only after 3 s of silence; every `hoplab agents` is a new one.
sleep 4
all=$(time_agents "$inv") || exit 1
set -- $one
one_med=$1 one_min=$2 one_max=$3
set -- $all
all_med=$1 all_min=$2 all_max=$3

echo
printf '%-28s %10s %10s %10s\n' "what ($hosts hosts, $reps runs)" median_ms min_ms max_ms
printf '%-28s %10s %10s %10s\n' "lab up" "$up_ms" - -
printf '%-28s %10s %10s %10s\n' "hoplab agents, 1 agent" "$one_med" "$one_min" "$one_max"
printf '%-28s %10s %10s %10s\n' "hoplab agents, $hosts agents" "$all_med" "$all_min" "$all_max"
awk -v a="$all_med" -v o="$one_med" -v n="$hosts" 'BEGIN {
	printf "%-28s %10.2f\n", "per extra agent", (a - o) / (n - 1) }'

# Every host: a veth pair tx -- rx in its own namespace, no address, IPv6
# off; the generator owns its addresses on it and is its own gateway.
names="gen$routers"
for h in $names; do
	ns=$prefix-$h
	ip -n "$ns" link del tx 2>/dev/null
	ip -n "$ns" link add name tx type veth peer name rx || exit 1
	for i in tx rx; do
		ip netns exec "$ns" sh -c "echo 1 > /proc/sys/net/ipv6/conf/$i/disable_ipv6"
		ip -n "$ns" link set dev "$i" up || exit 1
	done
done
echo
echo "$hosts generators, one start_at, $count probes ${idt_us} us apart each," \
    "records streamed:"
# shellcheck disable=SC2086
"$drive" -i "$inv" -o "$tmp" -c "$count" -t "$idt_us" $names ||
    { echo "mgmt_scale: the driven run failed" >&2; exit 1; }
echo "packets/: $(ls "$tmp/packets" | wc -l) files," \
    "$(cat "$tmp"/packets/*.csv | wc -l) lines (headers included)"
