#!/bin/sh
# link_timing: how precisely hoplab-link releases frames at their
# departure times, under load, on a namespace lab of its own (prefix
# hltb, no management network, no agents):
#
#   hltb-gen tx -- a [hltb-wire: hoplab-link] b -- in [hltb-R] out -- rx gen
#
# hoplab-gen sends RATE probes per second (64-byte frames) for SECS
# seconds through the link with profile `delay DELAY` on a-b; the link's
# own exit summary gives the release error (the CLOCK_REALTIME just
# before the send() that hands a frame to the driver, minus the intended
# departure) as percentiles and as a histogram.  The issue's target is a
# median under 10 us at 10 000 packets/s.  Printed with the load average
# before and after, and the link's and the generator's CPU use, because
# on a shared machine the numbers mean nothing without them.
#
# Environment: RATE (10000), SECS (10), DELAY (5ms), and VARIANTS, a list
# of hoplab-link option sets separated by '|' run in turn on the same lab,
# e.g. VARIANTS='|--realtime|--realtime --cpu 1' (default: one run with
# LINK_OPTS, default none).  Each variant takes SECS + about 2 s; the lab
# setup about 1 s.  Everything is bounded by timeout(1) and removed on any
# exit.  Root.
#
#	sudo sh bench/link_timing.sh
#	sudo VARIANTS='|--realtime|--cpu 1|--realtime --cpu 1' \
#	    sh bench/link_timing.sh
set -u
RL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
. "$RL_ROOT/tests/integration/router_lab.sh"

RATE=${RATE:-10000}
SECS=${SECS:-10}
DELAY=${DELAY:-5ms}
VARIANTS=${VARIANTS:-${LINK_OPTS:-}}
BIN=$RL_ROOT/bin

die() { echo "link_timing: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (namespaces): sudo sh $0"
for b in hoplab-link hoplab-gen; do
	[ -x "$BIN/$b" ] || die "$BIN/$b is not built (make)"
done
case $RATE in *[!0-9]*|'') die "RATE: expected packets per second" ;; esac
case $SECS in *[!0-9]*|'') die "SECS: expected seconds" ;; esac
[ "$RATE" -ge 1 ] && [ "$RATE" -le 200000 ] || die "RATE: 1..200000"
[ "$SECS" -ge 1 ] && [ "$SECS" -le 60 ] || die "SECS: 1..60"

trap 'rl_down' EXIT
trap 'exit 1' INT TERM HUP
rl_init hltb || die "cannot make a temporary folder"
T=$RL_TMP
rl_ns gen && rl_ns wire && rl_ns R &&
    rl_veth gen tx wire a && rl_veth wire b R in &&
    rl_veth R out gen rx &&
    rl_addr R in 198.18.0.2/24 && rl_addr R out 198.18.1.1/24 &&
    rl_in R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' ||
    die "could not build the lab"

COUNT=$((RATE * SECS))
IDT=$((1000000000 / RATE))ns

# cpu PID: user+system seconds of PID so far (from /proc, clock ticks).
cpu()
{
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null || echo "-"
}

# run OPTS: one run of the link with options OPTS.
run()
{
	_opts=$1
	_load0=$(cut -d' ' -f1-3 /proc/loadavg)
	# shellcheck disable=SC2086
	rl_bg wire "$T/link.log" timeout 120 "$BIN/hoplab-link" -a a -b b \
	    --ab "delay $DELAY" -s "ipc://$T/link.sock" $_opts
	_link=$RL_LAST
	_i=0
	until timeout 5 "$BIN/hoplab-link" -s "ipc://$T/link.sock" \
	    --ctl counters >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 50 ] || ! kill -0 "$_link" 2>/dev/null; then
			echo "  hoplab-link did not start:"
			sed 's/^/    /' "$T/link.log"
			rl_stop "$_link"
			return 1
		fi
		sleep 0.1
	done
	_lpid=$(pgrep -P "$_link" -f hoplab-link | head -n 1)
	_c0=$(cpu "${_lpid:-$_link}")
	_t0=$(date +%s.%N)
	timeout $((SECS * 3 + 20)) ip netns exec "$RL_P-gen" \
	    "$BIN/hoplab-gen" --tx tx --rx rx --src 198.18.0.1 \
	    --dst 198.18.1.2 --gateway 198.18.0.2 --drain 300ms \
	    --json --flow "frame=64,count=$COUNT,idt=$IDT,id=1" \
	    >"$T/gen.txt" 2>"$T/gen.err" ||
	    echo "  hoplab-gen failed: $(tail -n 2 "$T/gen.err")"
	_c1=$(cpu "${_lpid:-$_link}")
	_t1=$(date +%s.%N)
	rl_stop "$_link"
	echo "hoplab-link ${_opts:-(no options)}: $COUNT frames at" \
	    "$RATE/s, delay $DELAY"
	echo "  load average before $_load0, after" \
	    "$(cut -d' ' -f1-3 /proc/loadavg)"
	awk -v a="$_c0" -v b="$_c1" -v s="$_t0" -v e="$_t1" 'BEGIN {
	    if (a != "-" && b != "-")
		printf "  link CPU %.0f %% of a core over the run\n",
		    100 * (b - a) / (e - s) }'
	sed -n '/^a-b rx/p; /^a-b rx/,/histogram/{ /release_error/p; }' \
	    "$T/link.log" | sed 's/^/  /'
	jq -r '.flows[0] | "  hoplab-gen: sent \(.sent) received \(.received)" +
	    " lost \(.lost), one-way delay p50 \(.delay.p50_ns / 1000) us"' \
	    "$T/gen.txt" 2>/dev/null || echo "  hoplab-gen: no JSON output"
}

echo "link_timing: $(uname -r), $(nproc) CPUs, $(sed -n \
    's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
set -f
_ifs=$IFS
IFS='|'
set -- $VARIANTS
IFS=$_ifs
[ $# -gt 0 ] || set -- ""
for v in "$@"; do
	run "$v"
done
