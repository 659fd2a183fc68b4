#!/bin/sh
# router_delay: the one-way delay one router adds at low load,
# hoplab-router against Linux kernel forwarding, on the same veth labs
# (prefix hlt7d, K 247 reserved with router_rate.sh; no management
# network).  Two chains side by side, each with its own generator host:
#
#   hlt7d-g1 tx -- in a1 out -- rx hlt7d-g1                       (1 router)
#   hlt7d-g2 tx -- in a2 out -- in b2 out -- rx hlt7d-g2          (2 routers)
#
# hoplab-gen (l2 mode: one process sends on tx and receives on rx, so
# both timestamps come from one clock) sends COUNT probes of FRAME bytes
# (Ethernet frame incl. FCS), IDT apart, through each chain.  One router's
# share is the difference between the chains, as in the paper:
#
#   added = delay(2 routers) - delay(1 router)
#
# taken for the median (p50) and the mean.  And directly, the goal of
# issue 4: how much more one hoplab-router adds than one kernel router,
#
#   over_kernel = delay(1 hoplab router) - delay(1 kernel router)
#
# on the same chain 1, so the generator and the veths are the same on
# both sides.  hoplab-router busy-polls, so it wants a core of its own:
# chain 1's router runs pinned to core R_CPU and its generator to core
# GEN_CPU (taskset), as in router_rate.sh; if the generator woke on the
# core where the router spins, the router would be preempted for the
# generator's whole send (about 10 us).  Chain 2's two routers are left to the scheduler: on a
# 2-core machine two spinning routers and the generator cannot each have
# a core, so chain 2's hoplab delays include waiting for a CPU (tens of
# us) and its add column measures that contention, not the router.
#
# Each round runs linux then
# hoplab (the same routers, reconfigured), both chains each; the result
# is the median over ROUNDS rounds, so a drift of the machine during the
# run moves both routers alike.  Beside it: hoplab-router's own view, the
# median sojourn time (RX ring timestamp to TX) on a1's output.
#
# Environment: ROUNDS (3), COUNT (2000), IDT (250us), FRAMES ("64 1518"),
# R_CPU (1) and GEN_CPU (0) ("none": chain 1's router and generator are
# not pinned),
# R_IO (hoplab-router's io: settings, e.g. "busy_poll: off"; default
# none: the router's defaults), IMPLS (the set-ups each round runs, in
# this order: "linux hoplab" by default; hoplab-x is hoplab-router with
# io.backend xdp, AF_XDP, without the fast path (io.fastpath off: the
# lab's veth ends have GRO off): IMPLS="linux hoplab hoplab-x").  For hoplab-x
# the sojourn column starts when the router reads the frame from its XSK
# ring (AF_XDP gives no kernel receive time).
# Bounded: about ROUNDS x FRAMES x 4 x (COUNT x IDT + 0.5 s), 30 s with
# the defaults.  Cleans up every namespace and process on any exit.
# Root.  Timestamps: tx in user space before send(), rx by the kernel
# (hoplab-gen's "tx=user,rx=kernel-sw" or better, as it reports).
#
#	sudo sh bench/router_delay.sh
set -u
RL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
. "$RL_ROOT/tests/integration/router_lab.sh"

ROUNDS=${ROUNDS:-3}
COUNT=${COUNT:-2000}
IDT=${IDT:-250us}
FRAMES=${FRAMES:-64 1518}
R_IO=${R_IO:-}
IMPLS=${IMPLS:-linux hoplab}
R_CPU=${R_CPU:-1}
GEN_CPU=${GEN_CPU:-0}
for _i in $IMPLS; do
	case $_i in linux|hoplab|hoplab-x) ;;
	*) echo "router_delay: IMPLS: linux, hoplab or hoplab-x, got $_i" >&2
	   exit 1 ;;
	esac
done

die() { echo "router_delay: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
for _t in ethtool taskset; do
	command -v $_t >/dev/null 2>&1 || die "$_t is missing (sudo make deps)"
done
for p in hoplab-router hoplab-gen; do
	[ -x "$RL_BIN/$p" ] || die "$RL_BIN/$p is missing (make)"
done
case $ROUNDS in ''|*[!0-9]*) die "ROUNDS: a number 1..20" ;; esac
case $COUNT in ''|*[!0-9]*) die "COUNT: a number 100..100000" ;; esac
[ "$ROUNDS" -ge 1 ] && [ "$ROUNDS" -le 20 ] || die "ROUNDS: 1..20"
[ "$COUNT" -ge 100 ] && [ "$COUNT" -le 100000 ] || die "COUNT: 100..100000"

rl_init hlt7d || die "cannot make a temporary folder"
trap rl_down EXIT
trap 'exit 1' INT TERM HUP

# ---------------------------------------------------------------- the labs

rl_ns g1 && rl_ns a1 && rl_ns g2 && rl_ns a2 && rl_ns b2 &&
rl_veth g1 tx a1 in && rl_veth a1 out g1 rx &&
rl_veth g2 tx a2 in && rl_veth a2 out b2 in && rl_veth b2 out g2 rx ||
    die "could not build the labs"

# Each router: NAME IN_ADDR OUT_ADDR [ROUTE_PREFIX VIA]
ROUTERS="a1 198.18.0.2/24 198.18.100.1/24
a2 198.18.0.2/24 198.18.1.1/24 198.18.100.0/24 198.18.1.2
b2 198.18.1.2/24 198.18.100.1/24 198.18.0.0/24 198.18.1.1"

routers_up()	# IMPL
{
	echo "$ROUTERS" | while read -r _n _in _out _p _via; do
		if [ "$1" = linux ]; then
			rl_addr "$_n" in "$_in" && rl_addr "$_n" out "$_out" &&
			rl_in "$_n" sh -c \
			    'echo 1 >/proc/sys/net/ipv4/ip_forward' || exit 1
			[ -z "$_p" ] || rl_route "$_n" "$_p" via "$_via" ||
			    exit 1
			continue
		fi
		{
			echo "# bench/router_delay.sh: router $_n"
			echo "interfaces:"
			echo "  - {name: in, address: $_in}"
			echo "  - {name: out, address: $_out}"
			[ -z "$_p" ] ||
			    echo "routes: [{prefix: $_p, via: $_via}]"
			if [ "$1" = hoplab-x ]; then
				echo "io: {backend: xdp, fastpath: off${R_IO:+, $R_IO}}"
			elif [ -n "$R_IO" ]; then
				echo "io: {$R_IO}"
			fi
		} >"$RL_TMP/$_n.yaml"
	done || return 1
	[ "$1" = linux ] && return 0
	# started here, not in the pipeline's subshell, so that their PIDs
	# are ours to stop
	rl_router a1 "$RL_TMP/a1.yaml" && rl_router a2 "$RL_TMP/a2.yaml" &&
	rl_router b2 "$RL_TMP/b2.yaml" || return 1
	[ "$R_CPU" = none ] ||
	    taskset -p -c "$R_CPU" "$RL_PID_a1" >/dev/null
}

routers_down()	# IMPL
{
	if [ "$1" != linux ]; then
		rl_stop "$RL_PID_a1"
		rl_stop "$RL_PID_a2"
		rl_stop "$RL_PID_b2"
		return 0
	fi
	for _n in a1 a2 b2; do
		rl_in "$_n" sh -c 'echo 0 >/proc/sys/net/ipv4/ip_forward'
		ip -n "hlt7d-$_n" addr flush dev in
		ip -n "hlt7d-$_n" addr flush dev out
	done
}

# field FILE COLUMN: from hoplab-gen's tables, COLUMN (received, lost,
# ttl, mean, p50, p99) of the flow.
field()
{
	awk -v col="$2" '
	/^Packets per flow/ { t = "p"; next }
	/^One-way delay/ { t = "d"; next }
	/^Transmit pacing/ { t = ""; next }
	t == "p" && $2 == "probe" { v["received"] = $5; v["lost"] = $6
	    v["ttl"] = $11 }
	t == "d" && $2 == "probe" { v["mean"] = $4; v["p50"] = $5
	    v["p99"] = $7 }
	END { print (col in v) ? v[col] : "nan" }' "$1"
}

# probe GEN FRAME OUT: COUNT probes through chain GEN (g1 or g2).
probe()
{
	_pin=
	[ "$1" != g1 ] || [ "$GEN_CPU" = none ] || _pin="taskset -c $GEN_CPU"
	rl_in "$1" timeout -s INT 120 $_pin "$RL_BIN/hoplab-gen" --tx tx --rx rx \
	    --src 198.18.0.1 --dst 198.18.100.2 --gateway 198.18.0.2 \
	    --flow "frame=$2,count=$COUNT,idt=$IDT,name=probe" \
	    --drain 200ms >"$3" 2>&1 ||
	    { sed 's/^/    /' "$3" >&2; die "hoplab-gen failed on $1"; }
	[ "$(field "$3" lost)" = 0 ] ||
	    echo "router_delay: warning: $1 lost $(field "$3" lost) probes" >&2
}

# row ROUND FRAME IMPL OUT1 OUT2 SOJOURN: one line of the table.
row()
{
	awk -v r="$1" -v f="$2" -v impl="$3" -v s="$6" \
	    -v a="$(field "$4" p50)" -v b="$(field "$5" p50)" \
	    -v c="$(field "$4" mean)" -v d="$(field "$5" mean)" 'BEGIN {
		printf "%-5d %-6s %-8s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f " \
		    "%9s\n", r, f, impl, a, b, b - a, c, d, d - c, s
	}'
}

# ---------------------------------------------------------------- run

echo "router_delay: $ROUNDS rounds of $COUNT probes, $IDT apart;" \
    "frame = Ethernet frame incl. FCS; delays in us"
[ -z "$R_IO" ] || echo "router_delay: hoplab-router io: {$R_IO}"
printf '%-5s %-6s %-8s %9s %9s %9s %9s %9s %9s %9s\n' round frame router \
    1r_p50 2r_p50 add_p50 1r_mean 2r_mean add_mean sojourn
: >"$RL_TMP/rows"
r=1
while [ $r -le "$ROUNDS" ]; do
	for impl in $IMPLS; do
		routers_up $impl || die "$impl routers did not come up"
		for f in $FRAMES; do
			o1=$RL_TMP/$r-$impl-$f-1.txt
			o2=$RL_TMP/$r-$impl-$f-2.txt
			probe g1 "$f" "$o1"
			probe g2 "$f" "$o2"
			[ "$(field "$o1" ttl)/$(field "$o2" ttl)" = "63/62" ] ||
			    die "path check: TTL $(field "$o1" ttl) and" \
			    "$(field "$o2" ttl), expected 63 and 62"
			soj=-
			if [ $impl != linux ]; then
				soj=$(rl_ctl a1 counters 2>/dev/null | awk '
				    /^[^ ]/ { cur = $1 }
				    cur == "out" && /sojourn class 0:/ {
					for (i = 1; i < NF; i++)
					    if ($i == "p50") print $(i + 1) }')
			fi
			row $r "$f" $impl "$o1" "$o2" "${soj:--}" |
			    tee -a "$RL_TMP/rows"
		done
		routers_down $impl
	done
	r=$((r + 1))
done

# The sojourn column is cumulative since the router started, which is
# each round's start: it covers the frame sizes measured so far in it.
echo
echo "one router (chain 1), p50 over the kernel's (median over rounds, us):"
printf '%-6s %-8s %10s %10s %12s\n' frame router linux_1r 1r over_kernel

# med FRAME IMPL COLUMN: the median over rounds of COLUMN of the rows.
med()
{
	awk -v f="$1" -v impl="$2" -v c="$3" \
	    '$2 == f && $3 == impl { print $c }' "$RL_TMP/rows" |
	    sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for f in $FRAMES; do
	for impl in $IMPLS; do
		[ "$impl" != linux ] || continue
		awk -v f="$f" -v i="$impl" -v l="$(med "$f" linux 4)" \
		    -v h="$(med "$f" "$impl" 4)" 'BEGIN {
			printf "%-6s %-8s %10.2f %10.2f %12.2f\n", f, i, l, h,
			    h - l }'
	done
done
echo "(over_kernel: the goal is at most 5 us; R_CPU=$R_CPU," \
    "GEN_CPU=$GEN_CPU)"
echo
echo "one router adds by differencing, chain 2 - chain 1 (median over" \
    "rounds, us):"
printf '%-6s %-8s %10s %10s %10s %10s %12s\n' frame router linux_p50 \
    p50 linux_mean mean p50_over_lin
for f in $FRAMES; do
	for impl in $IMPLS; do
		[ "$impl" != linux ] || continue
		awk -v f="$f" -v i="$impl" -v lp="$(med "$f" linux 6)" \
		    -v hp="$(med "$f" "$impl" 6)" -v lm="$(med "$f" linux 9)" \
		    -v hm="$(med "$f" "$impl" 9)" 'BEGIN {
			printf "%-6s %-8s %10.2f %10.2f %10.2f %10.2f %12.2f\n",
			    f, i, lp, hp, lm, hm, hp - lp }'
	done
done
echo "(chain 2's two hoplab routers share 2 cores with the generator: see" \
    "the header)"
