#!/bin/sh
# link_rate: packets per second one hoplab-link process carries, side by
# side with Linux kernel forwarding through the same veth pair, on a
# namespace lab of its own (prefix hltr; no management network, no
# agents):
#
#   hltr-gen tx ---- a [hltr-wire] b ---- eth0 hltr-sink
#   (trafgen)                               (counts, drops in nftables)
#
# trafgen (PACKET_MMAP, pinned to core GEN_CPU) sends 64-byte IPv4/UDP
# frames (Ethernet frame incl. FCS, RFC 2544) addressed to the sink's MAC
# as fast as it can for DUR seconds; the wire namespace carries them from
# a to b with, in turn (SETUPS, all by default):
#
#   bridge           a Linux bridge br0 with a and b (the kernel's own L2
#                    forwarding, the reference)
#   link             hoplab-link -a a -b b, `delay 0ms` on a-b, pinned to
#                    core LINK_CPU, no truth file
#   link-truth       the same writing its truth file (-t, in the bench's
#                    temporary folder; its record count is checked against
#                    the link's own count of frames it handled)
#   link-10ms        `delay 10ms`, no truth file
#   link-10ms-truth  `delay 10ms` with the truth file
#   link-ring        `delay 0ms`, --tx-path ring: the transmit path before
#                    issue 19 (the kernel attaches the ring's page and
#                    veth copies it), for comparison within one run
#
# Printed per set-up: frames offered and carried per second (the sink's
# receive counter), the loss, the CPU the link used (its threads'
# schedstat) and that CPU time per frame carried (ns/frame: the link's
# cost per frame when it is the bottleneck, loss% > 0; below that it
# includes the polling between frames, so it only bounds the cost), and for hoplab-link its own counters at exit: ring drops
# (the kernel's receive ring was full: the link could not keep up) and
# the release error (send time minus intended time) as percentiles and
# the histogram of its exit summary.  Only the a-b direction carries
# traffic.  On veth the bridge's forwarding runs in trafgen's softirq on
# GEN_CPU, while hoplab-link has a core of its own; the rates compare
# what each carries, not what each costs (bench/router_rate.sh does the
# cost accounting for the router).  With PERF=1 each hoplab-link set-up
# is also profiled (perf record -e cpu-clock -g on the link process
# during the blast) and the heaviest call chains are printed.
#
# Environment: DUR (5), GEN_CPU (0), LINK_CPU (1), FRAME (64), SETUPS,
# PERF (0), LINK (the hoplab-link binary, bin/hoplab-link).  Bounded: DUR seconds per set-up plus about 3 s, six set-ups,
# under a minute by default (DUR at most 20); every namespace and process
# is removed on any exit.  Root, 2 cores.
#
#	sudo sh bench/link_rate.sh
#	sudo DUR=3 SETUPS="bridge link" sh bench/link_rate.sh
set -u
RL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
. "$RL_ROOT/tests/integration/router_lab.sh"

DUR=${DUR:-5}
GEN_CPU=${GEN_CPU:-0}
LINK_CPU=${LINK_CPU:-1}
FRAME=${FRAME:-64}
SETUPS=${SETUPS:-bridge link link-truth link-10ms link-10ms-truth link-ring}
PERF=${PERF:-0}
LINK=${LINK:-$RL_ROOT/bin/hoplab-link}

die() { echo "link_rate: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (namespaces): sudo sh $0"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (trafgen and the link)"
for t in trafgen taskset ethtool nft; do
	command -v $t >/dev/null 2>&1 ||
	    die "$t is missing (sudo make deps; trafgen is in netsniff-ng)"
done
[ -x "$LINK" ] || die "$LINK is not built (make)"
case $DUR in *[!0-9]*|'') die "DUR: expected whole seconds" ;; esac
[ "$DUR" -ge 1 ] && [ "$DUR" -le 20 ] || die "DUR: 1..20"
case $FRAME in *[!0-9]*|'') die "FRAME: expected 64..1518" ;; esac
[ "$FRAME" -ge 64 ] && [ "$FRAME" -le 1518 ] || die "FRAME: 64..1518"
for _s in $SETUPS; do
	case $_s in
	bridge|link|link-truth|link-10ms|link-10ms-truth|link-ring) ;;
	*) die "SETUPS: unknown set-up '$_s'" ;;
	esac
done
[ "$PERF" = 0 ] || command -v perf >/dev/null 2>&1 ||
    die "PERF=1 needs perf (linux-perf)"

trap 'rl_down' EXIT
trap 'exit 1' INT TERM HUP
rl_init hltr || die "cannot make a temporary folder"
T=$RL_TMP
rl_ns gen && rl_ns wire && rl_ns sink &&
    rl_veth gen tx wire a && rl_veth wire b sink eth0 &&
    rl_in sink nft -f - <<'EOF' || die "could not build the lab"
table ip hltr {
	chain pre {
		type filter hook prerouting priority -300; policy accept;
		udp dport 9 counter drop
	}
}
EOF
SMAC=$(rl_mac sink eth0)
cat >"$T/t.cfg" <<EOF
{
	eth(da=$SMAC, type=0x0800),
	ipv4(saddr=198.18.0.1, daddr=198.18.100.2, ttl=64, proto=17, id=1),
	udp(sp=49184, dp=9),
	fill(0x00, $((FRAME - 4 - 14 - 20 - 8)))
}
EOF

# rx NS IF | tx NS IF: packet counters from /proc/net/dev.
rx() { rl_in "$1" cat /proc/net/dev | awk -v i="$2:" '$1 == i { print $3 }'; }
tx() { rl_in "$1" cat /proc/net/dev | awk -v i="$2:" '$1 == i { print $11 }'; }

# task_ns PID: CPU time (ns) of PID's threads so far, 0 if none.
task_ns()
{
	_t=0
	[ "$1" = 0 ] && { echo 0; return; }
	for _f in /proc/"$1"/task/*/schedstat; do
		read -r _ns _rest 2>/dev/null <"$_f" && _t=$((_t + _ns))
	done
	echo $_t
}

# blast N: trafgen for at most DUR seconds (N frames at most).
blast()
{
	rl_in gen timeout -s INT "$DUR" taskset -c "$GEN_CPU" trafgen -o tx \
	    -i "$T/t.cfg" -n "$1" -P 1 --no-sock-mem -Q -C \
	    >"$T/trafgen.log" 2>&1
}

# perf_start NAME PID: with PERF=1, profile PID for the next DUR seconds.
perf_start()
{
	[ "$PERF" != 0 ] && [ "$2" != 0 ] || return 0
	timeout $((DUR + 5)) perf record -q -e cpu-clock -g -p "$2" \
	    -o "$T/$1.perf" -- sleep "$DUR" >/dev/null 2>&1 &
}

# point NAME PID: one measurement through the wire as it is set up now
# (PID: the link process, 0 for the bridge); a table row.
point()
{
	rl_in gen timeout 5 trafgen -o tx -i "$T/t.cfg" -n 2000 -t 100us \
	    -P 1 --no-sock-mem -Q -C >/dev/null 2>&1	# warm up
	sleep 0.3
	_s0=$(tx gen tx)
	_r0=$(rx sink eth0)
	_c0=$(task_ns "$2")
	_t0=$(date +%s%N)
	perf_start "$1" "$2"
	blast $((DUR * 5000000))
	_t1=$(date +%s%N)
	_c1=$(task_ns "$2")
	sleep 0.3		# the delay line drains (10 ms)
	_s1=$(tx gen tx)
	_r1=$(rx sink eth0)
	awk -v n="$1" -v s=$((_s1 - _s0)) -v r=$((_r1 - _r0)) \
	    -v ns=$((_t1 - _t0)) -v c=$((_c1 - _c0)) 'BEGIN {
		sec = ns / 1e9
		loss = s > 0 ? 100 * (s - r) / s : 0
		per = (c > 0 && r > 0) ? sprintf("%.0f", c / r) : "-"
		printf "%-16s %10.1f %10.1f %7.2f %6.0f %8s\n", n,
		    s / sec / 1e3, r / sec / 1e3, loss < 0 ? 0 : loss,
		    100 * c / ns, per }'
}

# link_point NAME PROFILE [OPTION...]: hoplab-link with PROFILE on a-b
# (and the options), one point, its exit summary kept in T/NAME.log.
link_point()
{
	_n=$1
	_p=$2
	shift 2
	rl_bg wire "$T/$_n.log" timeout $((DUR + 30)) "$LINK" \
	    -a a -b b --ab "$_p" --cpu "$LINK_CPU" -s "ipc://$T/link.sock" "$@"
	_l=$RL_LAST
	_i=0
	until timeout 5 "$LINK" -s "ipc://$T/link.sock" \
	    --ctl counters >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 50 ] || ! kill -0 "$_l" 2>/dev/null; then
			sed 's/^/    /' "$T/$_n.log"
			die "hoplab-link did not start"
		fi
		sleep 0.1
	done
	_c=$(basename -- "$LINK" | cut -c1-15)	# its comm
	_pid=$(pgrep -P "$_l" -x "$_c" | head -n 1)
	[ -n "$_pid" ] || _pid=$(pgrep -P "$(pgrep -P "$_l" | head -n 1)" \
	    -x "$_c" | head -n 1)
	point "$_n" "${_pid:-0}"
	timeout 5 "$LINK" -s "ipc://$T/link.sock" --ctl counters \
	    >"$T/$_n.ctl" 2>&1
	rl_stop "$_l"
	wait 2>/dev/null	# perf_start's perf, if any
}

# truth_check NAME: the truth file's records against the link's count of
# frames it received (every frame gets exactly one record here: no
# duplicates, no profile changes; the file also holds the two starting
# profiles, a record and one 40-byte text unit each).
truth_check()
{
	[ -f "$T/$1.truth" ] || return 0
	_sz=$(stat -c %s "$T/$1.truth")
	_rx=$(awk '$1 == "a-b" && $2 == "rx_packets" { a = $3 }
	    $1 == "b-a" && $2 == "rx_packets" { b = $3 }
	    END { print a + b }' "$T/$1.ctl")
	_recs=$(( (_sz - 1024) / 40 - 4 ))
	echo "  truth file: $_recs frame records, $_rx frames received" \
	    "($(( _sz / 1048576 )) MiB)$( [ "$_recs" = "$_rx" ] ||
	    echo ' MISMATCH')"
	rm -f "$T/$1.truth"
}

# run_setup NAME: one set-up of SETUPS.
run_setup()
{
	case $1 in
	bridge)
		rl_in wire ip link add br0 type bridge &&
		    rl_in wire ip link set dev a master br0 &&
		    rl_in wire ip link set dev b master br0 &&
		    rl_in wire ip link set br0 up || die "bridge setup failed"
		point bridge 0
		rl_in wire ip link del br0 || die "cannot remove the bridge"
		;;
	link) link_point link "delay 0ms" ;;
	link-truth) link_point link-truth "delay 0ms" -t "$T/link-truth.truth" ;;
	link-10ms) link_point link-10ms "delay 10ms" ;;
	link-10ms-truth)
		link_point link-10ms-truth "delay 10ms" \
		    -t "$T/link-10ms-truth.truth" ;;
	link-ring) link_point link-ring "delay 0ms" --tx-path ring ;;
	esac
}

echo "link_rate: $(uname -r), $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg); $FRAME-byte frames (incl. FCS)," \
    "$DUR s per set-up, trafgen on core $GEN_CPU, link on core $LINK_CPU"
printf '%-16s %10s %10s %7s %6s %8s\n' wire sent_kpps carried_kpps loss% \
    cpu% ns/frame

for _s in $SETUPS; do
	run_setup "$_s"
done

for n in $SETUPS; do
	[ "$n" = bridge ] && continue
	echo
	echo "$n: hoplab-link's own counters, a-b (ring_drops: the receive" \
	    "ring overflowed)"
	sed -n '/^a-b rx/,/^b-a rx/p' "$T/$n.ctl" | sed '$d' |
	    grep -E 'rx_packets|ring_drops' | sed 's/^/  /'
	sed -n '/^a-b rx/,/histogram/{ /release_error/p; }' "$T/$n.log" |
	    sed 's/^/  /'
	grep '^busy_poll' "$T/$n.log" | sed 's/^/  /'
	truth_check "$n"
	if [ -s "$T/$n.perf" ]; then
		echo "  perf (cpu-clock, children, heaviest):"
		perf report -i "$T/$n.perf" --stdio --children --sort symbol \
		    -g none 2>/dev/null | grep '%' | head -n 25 |
		    sed 's/^/    /'
	fi
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
