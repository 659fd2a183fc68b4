#!/bin/sh
# link_wire: how transparent hoplab-link is as a wire, and what its busy
# poll costs, on a namespace lab of its own (prefix hlwr, no management
# network, no agents):
#
#   hlwr-gen tx  -- a [hlwr-wire: hoplab-link] b -- in  [hlwr-R] out -- rx gen
#   hlwr-gen tx2 ------------------------------------ in2 [hlwr-R]
#
# R in 198.18.0.2/24, in2 198.18.2.2/24, out 198.18.1.1/24 (Linux
# forwarding).  hoplab-gen sends RATE probes per second (64-byte frames
# incl. FCS) for SECS seconds, first over tx2 straight to R (the "direct"
# row: the same path without the wire), then over tx through the link,
# once per profile of PROFILES and option set of VARIANTS.  Per row:
#
#   truth p50/p99/mean   the link's own added delay per probe, from its
#                        truth file (actual - arrival: the CLOCK_REALTIME
#                        just before the send() minus the kernel's receive
#                        stamp), so with `delay 30us` it includes the 30 us
#   e2e p50/p99          hoplab-gen's one-way delay gen -> gen
#   over direct          e2e p50 minus the direct row's e2e p50: what the
#                        wire adds end to end (its residence, plus the
#                        extra veth crossing and the link's send())
#   cpu%                 the link's utime + stime (/proc/PID/stat) over
#                        the generator's run, per cent of one core
#   spun                 seconds the link spun on its rings after frames
#                        (its exit summary's busy_poll line, if it has one)
#
# Environment: RATE (1000), SECS (5), PROFILES ('delay 0ms|delay 30us'),
# VARIANTS, hoplab-link option sets separated by '|' (default
# '|--busy-poll off': the default busy poll, then none), and LINK, the
# hoplab-link binary (default bin/hoplab-link; e.g. an older build, with
# VARIANTS='' when it has no --busy-poll).  Each row takes SECS + about
# 2 s.  Every process is stopped by PID and the lab removed on any exit.
# Root.
#
#	sudo sh bench/link_wire.sh
#	sudo SECS=10 VARIANTS='|--busy-poll 2ms|--busy-poll off' \
#	    sh bench/link_wire.sh
set -u
RL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
. "$RL_ROOT/tests/integration/router_lab.sh"

RATE=${RATE:-1000}
SECS=${SECS:-5}
PROFILES=${PROFILES:-delay 0ms|delay 30us}
VARIANTS=${VARIANTS-|--busy-poll off}
LINK=${LINK:-$RL_ROOT/bin/hoplab-link}
GEN=$RL_ROOT/bin/hoplab-gen

die() { echo "link_wire: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (namespaces): sudo sh $0"
[ -x "$LINK" ] || die "$LINK is not built (make)"
[ -x "$GEN" ] || die "$GEN is not built (make)"
case $RATE in *[!0-9]*|'') die "RATE: expected packets per second" ;; esac
case $SECS in *[!0-9]*|'') die "SECS: expected seconds" ;; esac
[ "$RATE" -ge 1 ] && [ "$RATE" -le 100000 ] || die "RATE: 1..100000"
[ "$SECS" -ge 1 ] && [ "$SECS" -le 60 ] || die "SECS: 1..60"

trap 'rl_down' EXIT
trap 'exit 1' INT TERM HUP
rl_init hlwr || die "cannot make a temporary folder"
T=$RL_TMP
rl_ns gen && rl_ns wire && rl_ns R &&
    rl_veth gen tx wire a && rl_veth wire b R in &&
    rl_veth gen tx2 R in2 && rl_veth R out gen rx &&
    rl_addr R in 198.18.0.2/24 && rl_addr R in2 198.18.2.2/24 &&
    rl_addr R out 198.18.1.1/24 &&
    rl_in R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' ||
    die "could not build the lab"

COUNT=$((RATE * SECS))
IDT=$((1000000000 / RATE))ns
DIRECT=

# ticks PID: utime + stime of PID so far, in clock ticks.
ticks()
{
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo "-"
}

# gen TX SRC GW: one hoplab-gen run; its JSON in T/gen.json.
gen()
{
	timeout $((SECS * 3 + 20)) ip netns exec "$RL_P-gen" "$GEN" \
	    --tx "$1" --rx rx --src "$2" --dst 198.18.1.2 --gateway "$3" \
	    --drain 300ms --json \
	    --flow "frame=64,count=$COUNT,idt=$IDT,id=1" \
	    >"$T/gen.json" 2>"$T/gen.err" ||
	    echo "  hoplab-gen failed: $(tail -n 2 "$T/gen.err")" >&2
}

# e2e: "P50 P99" of hoplab-gen's one-way delay, us.
e2e()
{
	jq -r '.flows[0].delay | "\(.p50_ns / 1000) \(.p99_ns / 1000)"' \
	    "$T/gen.json" 2>/dev/null || echo "- -"
}

# truth FILE: "N P50 P99 MEAN" (us) of the sent a-b probes' added delay.
truth()
{
	"$LINK" --export-truth "$1" 2>/dev/null | awk -F, 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["dir"] == "a-b" && $h["kind"] == "probe" &&
	    $h["fate"] == "sent" { print $h["delay_ns"] }' | sort -n |
	    awk '{ v[NR] = $1; s += $1 } END {
		if (NR == 0) { print "0 - - -"; exit }
		k = int(NR * 0.99 + 0.5)
		if (k < 1)
			k = 1
		printf "%d %.2f %.2f %.2f\n", NR, v[int((NR + 1) / 2)] / 1000,
		    v[k] / 1000, s / NR / 1000 }'
}

# truth_tail FILE: how many sent a-b probes were added 20 us or more,
# 100 us or more, 1 ms or more beyond their intended delay.
truth_tail()
{
	"$LINK" --export-truth "$1" 2>/dev/null | awk -F, 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["dir"] == "a-b" && $h["kind"] == "probe" &&
	    $h["fate"] == "sent" { e = $h["error_ns"]; n++
		a += e >= 20000; b += e >= 100000; c += e >= 1000000 }
	    END { printf "    release error >= 20us %d, >= 100us %d, " \
		">= 1ms %d of %d\n", a, b, c, n }'
}

row()	# WIRE OPTIONS TRUTH E2E OVER CPU SPUN
{
	printf '%-12s %-18s %6s %7s %7s %7s %8s %8s %7s %5s %6s\n' "$@"
}

direct()
{
	gen tx2 198.18.2.1 198.18.2.2
	set -- $(e2e)
	DIRECT=$1
	row direct "-" - - - - "$1" "$2" - - -
}

# wire PROFILE OPTS: one row through the link.
wire()
{
	_prof=$1 _opts=$2
	# shellcheck disable=SC2086
	rl_bg wire "$T/link.log" "$LINK" -a a -b b --ab "$_prof" \
	    -t "$T/link.truth" -s "ipc://$T/link.sock" $_opts
	_link=$RL_LAST
	_i=0
	until timeout 5 "$LINK" -s "ipc://$T/link.sock" --ctl counters \
	    >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 50 ] || ! kill -0 "$_link" 2>/dev/null; then
			echo "  hoplab-link did not start:" >&2
			sed 's/^/    /' "$T/link.log" >&2
			rl_stop "$_link"
			return 1
		fi
		sleep 0.1
	done
	_c0=$(ticks "$_link")
	_t0=$(date +%s.%N)
	gen tx 198.18.0.1 198.18.0.2
	_c1=$(ticks "$_link")
	_t1=$(date +%s.%N)
	rl_stop "$_link"
	_cpu=$(awk -v a="$_c0" -v b="$_c1" -v s="$_t0" -v e="$_t1" \
	    -v hz="$(getconf CLK_TCK)" 'BEGIN { if (a == "-" || b == "-")
		print "-"; else printf "%.0f", 100 * (b - a) / hz / (e - s) }')
	_spun=$(sed -n 's/^busy_poll .* spun \([0-9.]*\) s.*/\1/p' \
	    "$T/link.log" | head -n 1)
	set -- $(truth "$T/link.truth") $(e2e)
	_over=$(awk -v a="$5" -v d="$DIRECT" 'BEGIN {
	    if (a == "-" || d == "") print "-"; else printf "%.2f", a - d }')
	row "${_prof#delay }" "${_opts:-(default)}" "$2" "$3" "$4" "$1" \
	    "$5" "$6" "$_over" "$_cpu" "${_spun:--}"
	sed -n 's/^busy_poll /    busy_poll /p' "$T/link.log"
	truth_tail "$T/link.truth"
}

echo "link_wire: $(uname -r), $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg); $COUNT probes of 64 bytes" \
    "(incl. FCS) at $RATE/s per row; $LINK"
echo "                                 truth added delay (us)     e2e one-way (us)"
row wire options p50 p99 mean n p50 p99 over_dir cpu% spun_s
direct
set -f
_ifs=$IFS
IFS='|'
set -- $PROFILES
IFS=$_ifs
for p in "$@"; do
	IFS='|'
	# shellcheck disable=SC2086
	set -- $VARIANTS
	IFS=$_ifs
	[ $# -gt 0 ] || set -- ""
	for v in "$@"; do
		wire "$p" "$v"
	done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
