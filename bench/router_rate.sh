#!/bin/sh
# router_rate: forwarding rate of one router on one core, hoplab-router
# against Linux kernel forwarding, on the same veth lab (prefix hlt7, K
# 247 reserved; no management network):
#
#   hlt7-gen tx ---- in   R   out ---- eth0 hlt7-sink
#   (trafgen)     198.18.0.2  198.18.100.1   198.18.100.2/24
#
# trafgen (PACKET_MMAP, pinned to core GEN_CPU) sends IPv4/UDP frames of
# 64 and 1518 bytes (Ethernet frame incl. FCS, RFC 2544) from 198.18.0.1
# to 198.18.100.2 port 9 as fast as it can for DUR seconds; the sink
# counts what arrives (its kernel drops the UDP in nftables, so it sends
# nothing back).  The set-ups, per frame size (ROUTERS picks them):
#
#   none     R drops every frame as it arrives (nftables netdev ingress,
#            policy drop): the baseline, what sending and receiving a
#            frame costs without any forwarding
#   linux    kernel forwarding (addresses on in/out, ip_forward=1)
#   hoplab   hoplab-router, pinned to core R_CPU (taskset), as
#            docs/router.md sets it up: R's interfaces have no kernel
#            address, so R's kernel also takes every frame through its IP
#            input, finds no route and drops it (with an ICMP attempt)
#   hoplab-i the same with R's kernel fenced off by the ingress drop of
#            "none" (AF_PACKET taps see frames before netfilter ingress,
#            so the router still receives them): what the router costs
#            when the kernel does not also process its traffic
#   hoplab-x hoplab-router with io.backend xdp (AF_XDP, router/xsk.c)
#            and io.fastpath off: libxdp's XSK program hands every frame
#            to the router before the kernel's stack sees it, so no
#            ingress drop is needed
#   hoplab-f hoplab-router with io.backend xdp and io.fastpath on: its
#            XDP program (router/bpf/fastpath.bpf.c) forwards the flow in
#            R's driver hook and redirects it into "out"; the router's
#            process only answers ARP.  The sink's eth0 gets GRO on for
#            this set-up only: a veth passes a frame redirected into it
#            to its peer only when the peer polls with NAPI (docs/
#            router.md, "The fast path"), which changes the sink's
#            receive path (NAPI instead of the backlog) for it alone;
#            SINK_RX=xdp gives the sink an XDP program that passes every
#            frame (bench/xdp_pass.bpf.c) instead of GRO
#   linux-g  kernel forwarding with the sink's eth0 as hoplab-f has it
#            (GRO on, or SINK_RX=xdp's program): the kernel's cost with
#            the sink paying what hoplab-f's sink pays
#
# On veth the receiver's kernel work runs in the sender's context: trafgen's
# core also does R's receive processing and, for linux, the forwarding
# itself and the sink's receive (veth_xmit -> netif_rx -> the same core's
# backlog).  hoplab-router forwards on its own core R_CPU (the sink's
# receive runs there too, in its send()).  So the kernel's forwarding
# shares a core with the sender while hoplab-router has one of its own,
# and the rates alone would flatter hoplab.  The fair figure is CPU time
# per forwarded packet of everything this experiment runs, wherever it
# runs: trafgen (with the kernel work done in its context: R's receive
# path, and for linux the forwarding), the kernel's softirq threads (work
# it deferred) and hoplab-router's threads, each from the kernel's own
# accounting, so other programs on the machine do not count.  Minus the
# baseline's per packet:
#
#   cost = cpu_ns(router) / forwarded - cpu_ns(none) / sent(none)
#
# i.e. what forwarding one packet costs on top of sending and receiving
# it, and 1e9 / cost is the rate one core could forward.  hoplab-router
# busy-polls for a bounded time after traffic, so any idle spinning is in
# its cost: an upper bound.  (RPS or threaded NAPI would move the
# kernel's forwarding to a core of its own, but make a PACKET_MMAP sender
# fail with EAGAIN as soon as the remote backlog fills.)
#
# Printed per frame size and router: offered and forwarded rate (kpps),
# loss, CPU of trafgen, softirq threads and the router as % of the run,
# CPU time per packet; then per frame size the forwarding cost and
# one-core rate of linux and hoplab and their ratios hoplab / linux.
#
# With NAT=1 (bench/nat_rate.sh) R also translates what leaves "out":
# hoplab-router with `nat: {interface: out}`, the kernel with nftables
# masquerade (table ip PREFIX_nat, postrouting, oif out); the one UDP flow
# is one connection-table entry in either.  RL_PREFIX names the lab
# (default hlt7; nat_rate.sh uses hlnb).
#
# With PREFIXES=N (e.g. 900000: an Internet table) R holds N more routes
# besides its two connected ones: /24s from 20.0.0.0 upwards via the
# sink (the flow's 198.18.100.2 still matches the connected /24), given
# to hoplab-router as a routes_file and to the kernel with ip -batch
# (proto static, flushed after), so every set-up looks up in a table of
# that size.  Loading takes a few seconds (2.6 s for 900 000 in
# hoplab-router, fast path map included).
#
# Environment: DUR, GEN_CPU (0), R_CPU (1), FRAMES ("64 1518"), R_IO
# (hoplab-router's io: settings, e.g. "tx_batch: 256, busy_poll: off";
# default none: the router's defaults; hoplab-x and hoplab-f get them
# after "backend: xdp"), PREFIXES (0), SINK_RX (gro or xdp, above),
# ROUTERS (the set-ups in this order, default "none linux linux-g
# hoplab-i hoplab-x hoplab-f"; none is needed for the costs; hoplab,
# the router with R's kernel also taking its traffic, only when named).
#
# Bounded: DUR seconds per point (default 5) and at most 5 million
# frames a second of it, 12 points, about 90 s in all.  Cleans up every namespace and process on any exit.  Root, 2 cores.
#
#	sudo sh bench/router_rate.sh [DUR]
set -u
RL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
. "$RL_ROOT/tests/integration/router_lab.sh"

DUR=${1:-${DUR:-5}}
GEN_CPU=${GEN_CPU:-0}
R_CPU=${R_CPU:-1}
FRAMES=${FRAMES:-64 1518}
R_IO=${R_IO:-}
ROUTERS=${ROUTERS:-none linux linux-g hoplab-i hoplab-x hoplab-f}
NAT=${NAT:-0}
PREFIXES=${PREFIXES:-0}
SINK_RX=${SINK_RX:-gro}
case $SINK_RX in
gro|xdp) ;;
*)	echo "router_rate: SINK_RX=$SINK_RX: expected gro or xdp" >&2
	exit 2 ;;
esac
P=${RL_PREFIX:-hlt7}
[ "$(nproc)" -ge 2 ] ||
    die "needs 2 cores (trafgen on one, the router on the other)"

die() { echo "router_rate: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
for t in trafgen taskset ethtool nft; do
	command -v $t >/dev/null 2>&1 ||
	    die "$t is missing (sudo make deps; trafgen is in netsniff-ng)"
done
[ -x "$RL_BIN/hoplab-router" ] ||
    die "$RL_BIN/hoplab-router is missing (make bin/hoplab-router)"
case $DUR in ''|*[!0-9]*) die "DUR must be whole seconds, got '$DUR'" ;; esac
case $PREFIXES in ''|*[!0-9]*) die "PREFIXES must be a count, got '$PREFIXES'" ;; esac
[ "$PREFIXES" -le 4000000 ] || die "PREFIXES must be at most 4000000"
[ "$DUR" -ge 1 ] && [ "$DUR" -le 60 ] || die "DUR must be 1..60 s"

rl_init "$P" || die "cannot make a temporary folder"
[ "$SINK_RX" != xdp ] || clang -target bpf -O2 -g \
    -I/usr/include/"$(gcc -dumpmachine)" -c "$RL_ROOT/bench/xdp_pass.bpf.c" \
    -o "$RL_TMP/xdp_pass.o" || die "bench/xdp_pass.bpf.c did not build"
trap rl_down EXIT
trap 'exit 1' INT TERM HUP

# ---------------------------------------------------------------- the lab

rl_ns gen && rl_ns R && rl_ns sink &&
rl_veth gen tx R in && rl_veth R out sink eth0 &&
rl_addr sink eth0 198.18.100.2/24 &&
rl_route sink default via 198.18.100.1 &&
rl_in sink nft -f - <<EOF || die "could not build the lab"
table ip $P {
	chain pre {
		type filter hook prerouting priority -300; policy accept;
		udp dport 9 counter drop
	}
}
EOF
RMAC=$(rl_mac R in)

cat >"$RL_TMP/R.yaml" <<'EOF'
# bench/router_rate.sh: the router under test
interfaces:
  - {name: in, address: 198.18.0.2/24}
  - {name: out, address: 198.18.100.1/24}
EOF
[ "$NAT" != 1 ] || echo "nat: {interface: out}" >>"$RL_TMP/R.yaml"
# prefixes N: the table of PREFIXES, "PREFIX/24 VIA" lines
prefixes()
{
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
	    printf "%d.%d.%d.0/24 198.18.100.2\n", 20 + int(i / 65536),
	    int(i / 256) % 256, i % 256 }'
}
if [ "$PREFIXES" -gt 0 ]; then
	prefixes "$PREFIXES" >"$RL_TMP/routes.txt"
	echo "routes_file: $RL_TMP/routes.txt" >>"$RL_TMP/R.yaml"
fi
cp "$RL_TMP/R.yaml" "$RL_TMP/R-x.yaml"
cp "$RL_TMP/R.yaml" "$RL_TMP/R-f.yaml"
[ -z "$R_IO" ] || echo "io: {$R_IO}" >>"$RL_TMP/R.yaml"
echo "io: {backend: xdp, fastpath: off${R_IO:+, $R_IO}}" >>"$RL_TMP/R-x.yaml"
echo "io: {backend: xdp, fastpath: on${R_IO:+, $R_IO}}" >>"$RL_TMP/R-f.yaml"

# trafgen_conf FRAME: one IPv4/UDP frame of FRAME bytes incl. FCS.
trafgen_conf()
{
	cat <<EOF
{
	eth(da=$RMAC, type=0x0800),
	ipv4(saddr=198.18.0.1, daddr=198.18.100.2, ttl=64, proto=17, id=1),
	udp(sp=49184, dp=9),
	fill(0x00, $(($1 - 4 - 14 - 20 - 8)))
}
EOF
}

router_linux()
{
	rl_addr R in 198.18.0.2/24 && rl_addr R out 198.18.100.1/24 &&
	rl_in R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' || return 1
	if [ "$PREFIXES" -gt 0 ]; then
		awk '{ print "route add " $1 " via " $2 " proto static" }' \
		    "$RL_TMP/routes.txt" >"$RL_TMP/routes.ip"
		ip -n "$P-R" -batch "$RL_TMP/routes.ip" || return 1
	fi
	[ "$NAT" = 1 ] || return 0
	rl_in R nft -f - <<EOF
table ip ${P}_nat {
	chain post {
		type nat hook postrouting priority 100; policy accept;
		oif "out" masquerade
	}
}
EOF
}

router_linux_off()
{
	rl_in R sh -c 'echo 0 >/proc/sys/net/ipv4/ip_forward'
	[ "$NAT" != 1 ] || rl_in R nft delete table ip "${P}_nat"
	[ "$PREFIXES" = 0 ] || ip -n "$P-R" route flush proto static
	ip -n "$P-R" addr flush dev in
	ip -n "$P-R" addr flush dev out
}

# ingress_drop on|off: R's kernel drops every frame arriving on "in".
ingress_drop()
{
	if [ "$1" = off ]; then
		rl_in R nft delete table netdev "$P" 2>/dev/null
		return 0
	fi
	rl_in R nft -f - <<EOF
table netdev $P {
	chain drop_in {
		type filter hook ingress device "in" priority 0; policy drop;
	}
}
EOF
}

# router_hoplab [x|f]: start hoplab-router on R (AF_PACKET, or AF_XDP
# without and with the fast path).  Up to 30 s for a large table.
# sink_rx on|off: the sink's eth0 able to take frames an XDP program
# redirects into its veth peer (SINK_RX: gro, GRO on; xdp, an XDP
# program that passes every frame, bench/xdp_pass.bpf.c), or as before.
sink_rx()
{
	if [ "$SINK_RX" = xdp ]; then
		if [ "$1" = on ]; then
			rl_in sink ip link set dev eth0 xdpdrv obj \
			    "$RL_TMP/xdp_pass.o" sec xdp
		else
			rl_in sink ip link set dev eth0 xdpdrv off
		fi
	elif [ "$1" = on ]; then
		rl_gro_on sink eth0
	else
		rl_offload_off sink eth0
	fi
}

router_hoplab()
{
	rl_bg R "$RL_TMP/R.log" "$RL_BIN/hoplab-router" \
	    -c "$RL_TMP/R${1:+-$1}.yaml" -s "ipc://$RL_TMP/R.sock" -v
	RL_PID_R=$RL_LAST
	_i=0
	until rl_ctl R counters >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 300 ] || ! kill -0 "$RL_PID_R" 2>/dev/null; then
			sed 's/^/    /' "$RL_TMP/R.log" >&2
			return 1
		fi
		sleep 0.1
	done
	taskset -p -c "$R_CPU" "$RL_PID_R" >/dev/null
}

# ifstat NS IF FIELD: rx_packets / tx_packets of IF from /proc/net/dev.
ifstat()
{
	rl_in "$1" cat /proc/net/dev | awk -v i="$2:" -v f="$3" '
	$1 == i { print (f == "rx" ? $3 : $11) }'
}

# ksoftirqd_ns: CPU time (ns) the kernel's softirq threads have run so
# far, all cores together (/proc/PID/schedstat: the scheduler's own
# runtime, to the nanosecond).
ksoftirqd_ns()
{
	_t=0
	for _d in /proc/[0-9]*; do
		read -r _c 2>/dev/null <"$_d/comm" || continue
		case $_c in
		ksoftirqd/*)
			read -r _ns _rest 2>/dev/null <"$_d/schedstat" &&
			    _t=$((_t + _ns)) ;;
		esac
	done
	echo $_t
}

# router_ns: CPU time (ns) of hoplab-router, all its threads, so far; 0
# when it is not running.
router_ns()
{
	_t=0
	[ "$ROUTER_PID" = 0 ] && { echo 0; return; }
	for _f in /proc/"$ROUTER_PID"/task/*/schedstat; do
		read -r _ns _rest 2>/dev/null <"$_f" && _t=$((_t + _ns))
	done
	echo $_t
}
ROUTER_PID=0

# warm FRAME: a short burst so that ARP is resolved and caches are warm.
warm()
{
	trafgen_conf "$1" >"$RL_TMP/t.cfg"
	rl_in gen timeout 5 trafgen -o tx -i "$RL_TMP/t.cfg" -n 2000 \
	    -t 100us -P 1 --no-sock-mem -Q -C >/dev/null 2>&1
	sleep 0.5
}

# gen_run: trafgen for DUR seconds; prints the CPU seconds it used
# (user + system, from times(1): its rusage, which with tick accounting
# includes the softirq work done in its context, i.e. R's receive path
# and, for linux, the forwarding).
gen_run()
{
	(
		rl_in gen timeout -s INT "$DUR" taskset -c "$GEN_CPU" trafgen \
		    -o tx -i "$RL_TMP/t.cfg" -n $((DUR * 5000000)) -P 1 \
		    --no-sock-mem -Q -C \
		    >"$RL_TMP/trafgen.log" 2>&1
		times
	) | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
	    printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

# point IMPL FRAME: one measurement; prints a table row and appends
# "frame router sent_pps fwd_pps ns_per_pkt" to RL_TMP/raw.
#
# CPU per packet counts the work of this experiment only, not of other
# programs on the machine: trafgen's CPU time (with the receive and
# forwarding work the kernel does in its context), the kernel's softirq
# threads (work it deferred), and hoplab-router's threads.
point()
{
	warm "$2"
	_tx0=$(ifstat gen tx tx)
	_rx0=$(ifstat sink eth0 rx)
	_k0=$(ksoftirqd_ns)
	_r0=$(router_ns)
	_t0=$(date +%s%N)
	_g=$(gen_run)
	_t1=$(date +%s%N)
	_k1=$(ksoftirqd_ns)
	_r1=$(router_ns)
	sleep 0.3
	_tx1=$(ifstat gen tx tx)
	_rx1=$(ifstat sink eth0 rx)
	if grep -q 'failed' "$RL_TMP/trafgen.log"; then
		sed 's/^/    trafgen: /' "$RL_TMP/trafgen.log" >&2
		die "trafgen failed"
	fi
	awk -v impl="$1" -v f="$2" -v s=$((_tx1 - _tx0)) \
	    -v r=$((_rx1 - _rx0)) -v ns=$((_t1 - _t0)) -v g="$_g" \
	    -v k=$((_k1 - _k0)) -v rt=$((_r1 - _r0)) -v raw="$RL_TMP/raw" '
	BEGIN {
		sec = ns / 1e9
		g *= 1e9
		loss = s > 0 ? 100 * (s - r) / s : 0
		if (loss < 0) loss = 0
		n = impl == "none" ? s : r
		per = n > 0 ? (g + k + rt) / n : 0
		fwd = impl == "none" ? 0 : r / sec / 1000
		if (impl == "none") loss = 100
		printf "%-6d %-8s %10.1f %10.1f %7.2f %7.0f %7.0f %7.0f " \
		    "%8.0f\n", f, impl, s / sec / 1000, fwd, loss, 100 * g / ns,
		    100 * k / ns, 100 * rt / ns, per
		printf "%d %s %.0f %.0f %.1f\n", f, impl, s / sec, r / sec,
		    per >> raw
	}'
}

echo "router_rate: $DUR s per point; trafgen on core $GEN_CPU," \
    "hoplab-router on core $R_CPU; frame = Ethernet frame incl. FCS"
[ -z "$R_IO" ] || echo "router_rate: hoplab-router io: {$R_IO}"
[ "$PREFIXES" = 0 ] || echo "router_rate: $PREFIXES more prefixes in R's" \
    "table (routes_file; ip -batch for linux)"
[ "$NAT" != 1 ] || echo "router_rate: source NAT on R (hoplab-router nat:," \
    "Linux nftables masquerade), one UDP flow"
printf '%-6s %-8s %10s %10s %7s %7s %7s %7s %8s\n' frame router sent_kpps \
    fwd_kpps loss% gen% softirq% router% ns/pkt
for impl in $ROUTERS; do
	case $impl in
	none)	ingress_drop on || die "nftables ingress drop failed" ;;
	linux)	router_linux || die "kernel router setup failed" ;;
	linux-g)
		sink_rx on && router_linux ||
		    die "kernel router setup failed" ;;
	hoplab*)
		case $impl in
		hoplab-x)
			router_hoplab x ||
			    die "hoplab-router (xdp) did not start" ;;
		hoplab-f)
			sink_rx on && router_hoplab f ||
			    die "hoplab-router (fast path) did not start" ;;
		*)	[ $impl = hoplab ] || ingress_drop on ||
			    die "nftables ingress drop failed"
			router_hoplab || die "hoplab-router did not start" ;;
		esac
		ROUTER_PID=$RL_PID_R ;;
	esac
	for f in $FRAMES; do
		point $impl "$f"
	done
	case $impl in
	none)	ingress_drop off ;;
	linux)	router_linux_off ;;
	linux-g)
		router_linux_off
		sink_rx off ;;
	hoplab*)
		rl_ctl R counters >"$RL_TMP/counters-$impl.txt" 2>&1
		grep ' ring, mtu' "$RL_TMP/R.log" >>"$RL_TMP/counters-$impl.txt"
		rl_stop "$RL_PID_R"
		ROUTER_PID=0
		[ $impl != hoplab-f ] || sink_rx off
		ingress_drop off ;;
	esac
done

echo
echo "forwarding cost = ns/pkt - ns/pkt of none; one-core rate = 1e9 / cost;"
echo "x: hoplab / linux (cost: lower is better; rate: higher is better)"
printf '%-6s %-8s %10s %10s %8s %8s\n' frame router cost_ns kpps cost_x \
    rate_x
awk '{ per[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; ord[++n] = $1 } }
END {
	for (i = 1; i <= n; i++) {
		f = ord[i]
		cl = per[f, "linux"] - per[f, "none"]
		for (j = 1; j <= 6; j++) {
			r = j == 1 ? "linux" : j == 2 ? "linux-g" : \
			    j == 3 ? "hoplab" : j == 4 ? "hoplab-i" : \
			    j == 5 ? "hoplab-x" : "hoplab-f"
			if (!((f, r) in per)) continue
			c = per[f, r] - per[f, "none"]
			printf "%-6s %-8s %10.0f %10.0f %8.2f %8.2f\n", f, r, c,
			    (c > 0 ? 1e6 / c : 0), (cl > 0 ? c / cl : 0),
			    (c > 0 ? cl / c : 0)
		}
	}
}' "$RL_TMP/raw"
echo
echo "hoplab-router's own counters at the end of each run:"
for impl in hoplab hoplab-i hoplab-x hoplab-f; do
	[ -f "$RL_TMP/counters-$impl.txt" ] || continue
	echo "  $impl:"
	sed 's/^/    /' "$RL_TMP/counters-$impl.txt"
done
