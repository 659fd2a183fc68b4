#!/bin/sh
#
# bench/run.sh: what `make bench` runs.  hoplab-gen side by side with the
# peer tools, in one run, on namespace labs of its own; one table, also
# written to results/bench-<UTC time>.txt.  Not run by CI, asserts nothing
# (docs/bench.md says how to read it).
#
# (a) Inter-departure times (IDT) at a 10 ms target: hoplab-gen, D-ITG
#     (ITGSend/ITGRecv) and iperf3 -u each send BENCH_IDT_COUNT (1000)
#     small UDP packets at 100 packets/s while tcpdump captures the
#     sending interface at nanosecond precision; tools/pcapdelay -g gives
#     mean, std, min, max and p99 of the IDT (the first 5 gaps skipped),
#     /usr/bin/time the sender's CPU use (user + system over its run).
#     Each tool runs twice: as it is (SCHED_OTHER), and real-time at the
#     same SCHED_FIFO priority 10 (hoplab-gen --realtime, the peers under
#     chrt -f 10), so that each ratio compares one scheduling class.
# (b) The largest rate of 64-byte frames one core sends and receives
#     without loss on a veth pair: a ladder of rates, 2 s per step, up to
#     the first step that loses a frame or falls 5 % short of its rate.
#     hoplab-gen sends on tx and receives on rx (one process, CPU 1),
#     twice: --tx-io send (a kernel tx stamp per frame) and --tx-io ring
#     (PACKET_TX_RING, a kernel stamp on 1 frame in 64); trafgen sends on tx (-P 1: one process, pinned by trafgen to CPU 0)
#     and the kernel's rx counter is its receiver; iperf3 -u client and
#     server both on CPU 1, loss from the server's count.  trafgen also
#     runs once unpaced (its -b pacing, not the core, caps the ladder).
# (c) The per-router delay of Linux kernel forwarding: `hoplab run` of
#     bench/plans/chain-10k.yaml (10000 packets per variant A, A-B,
#     A-B-C) on a lab of its own; the regression slope and its 95 % CI.
# (d)..(i) the other programs' benches (below); (j) what each --spin
#     setting of hoplab-gen costs and buys at 10 ms (bench/pace_cost.sh:
#     500 packets per run in l2 mode on a veth pair, |idt error| p50,
#     p99, p99.9 and the process's CPU, ordinary and --realtime).
# (n) recovery after a failure of the primary link on the minimal
#     network, per routing protocol (static, RIP, OSPF, OSPF+BFD), 20
#     cuts and 10 silent failures each: median and p90 of the outage and
#     of the time to the first probe on the backup path
#     (bench/recovery.sh, about 25 minutes; BENCH_PARTS without n skips
#     it).
# (o) source NAT: hoplab-router's against the kernel's (nftables
#     masquerade), cost per packet and one-core rate at 64 and 1518 B
#     (bench/nat_rate.sh, router_rate.sh's method; about 40 s).
# (p) the home-gateway table: NAT throughput of 5-connection TCP uploads
#     from 1 network of 10 devices, 10 networks of 1, and 1 device,
#     kernel NAT and hoplab-router's (bench/hgw.sh, about 5 minutes).
# (q) the kill matrix, 100 cases: kill -9 of an agent, hoplab-gen,
#     hoplab-router, hoplab-link or the controller at a random moment,
#     then the documented recovery, each results folder compared with an
#     uninterrupted run (bench/killmatrix.sh, about 20 minutes).
#
# Namespaces: hlb-gen, hlb-r1 (tools/genlab.sh), hlb-s, hlb-d, hlb-v
# (bench/lib.sh), hlbp-v (bench/pace_cost.sh) and the hoplab lab hlbc
# (K 249).  Everything is removed
# on any exit.  Root.  About 3 to 4 minutes; every step is bounded by
# timeout(1) and the whole run skips what is left after BENCH_BUDGET
# (480) seconds.  BENCH_PARTS (default abcdefghijklmnopq) runs only the parts
# named, e.g. BENCH_PARTS=a.
set -u
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT" || exit 1
GL_ROOT=$ROOT
. "$ROOT/tools/genlab.sh"
. "$ROOT/bench/lib.sh"

P=hlb
LABP=hlbc
LABK=249
GEN=$ROOT/bin/hoplab-gen
HOPLAB=$ROOT/bin/hoplab
IDT_N=${BENCH_IDT_COUNT:-1000}
BUDGET=${BENCH_BUDGET:-480}
PARTS=${BENCH_PARTS:-abcdefghijklmnopq}
RATES=${BENCH_RATES:-"10000 25000 50000 75000 100000 150000 200000 250000 300000 400000 500000 600000 800000 1000000"}
STEP_S=2
START=$(date +%s)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
UTC=$(date -u +%Y%m%dT%H%M%SZ)
W=$(mktemp -d /tmp/hoplab-bench.XXXXXX)
RES=$ROOT/results/bench-$UTC.txt
LAB_UP=0

cleanup()
{
	genlab_down
	bench_down "$P"
	[ "$LAB_UP" = 0 ] || "$HOPLAB" -p "$LABP" lab down >/dev/null 2>&1
	[ -n "${BENCH_KEEP:-}" ] && echo "bench: work files kept in $W" ||
	    rm -rf "$W"
}
trap cleanup EXIT
trap 'echo "bench: interrupted"; exit 1' INT TERM HUP

say() { echo "bench: $*" >&2; }
left() { [ $(($(date +%s) - START)) -lt "$BUDGET" ]; }
# part X: is part X (a..m) in BENCH_PARTS (default: all of them)?
part() { case $PARTS in *"$1"*) return 0 ;; esac; return 1; }

[ "$(id -u)" = 0 ] || { say "needs root (namespaces): sudo make bench"; exit 1; }
for b in "$GEN" "$HOPLAB"; do
	[ -x "$b" ] || { say "$b is not built (make)"; exit 1; }
done
bench_install || { say "could not install the peer tools"; exit 1; }
PD=$(genlab_pcapdelay) || { say "tools/pcapdelay did not build"; exit 1; }
busy=$(awk -v n="$(nproc)" '{ print ($1 > n / 2) }' /proc/loadavg)
[ "$busy" = 0 ] || say "warning: load average $(cut -d' ' -f1 /proc/loadavg)" \
    "on $(nproc) CPUs: other work will widen every distribution below"
genlab_init "$P"
genlab_down
bench_down "$P"
genlab_up 1 && bench_ns_up "$P" || { say "could not build the labs"; exit 1; }

# ------------------------------------------------------------ (a) IDT

# us NS [OFFSET_NS]: nanoseconds NS - OFFSET_NS in microseconds, 3 decimals.
us() { awk -v v="$1" -v o="${2:-0}" 'BEGIN { printf "%.3f", (v - o) / 1000 }'; }

# idt_row TOOL TAG PORT: one line of table (a) from $W/a-TAG.{pcap,time};
# the std goes to $W/a-std as "TAG STD_NS".
idt_row()
{
	_o=$("$PD" -g -n 5 -p "$3" "$W/a-$2.pcap" 2>&1)
	_v() { pcap_get "$_o" "$1"; }
	if [ "$(_v gaps)" = missing ] || [ "$(_v gaps)" = 0 ]; then
		printf '%-22s  no gaps captured: %s\n' "$1" "$(echo "$_o" | tail -n 1)"
		return
	fi
	set -- "$1" "$2" $(gap_err "$W/a-$2.pcap" "$3" 5 10000000)
	printf '%-22s %5s %10s %8s %9s %9s %9s %8s %8s %8s %5s\n' "$1" \
	    "$(_v gaps)" "$(us "$(_v gap_mean_ns)")" \
	    "$(us "$(_v gap_mean_ns)" 10000000)" "$(us "$(_v gap_std_ns)")" \
	    "$(us "$(_v gap_min_ns)")" "$(us "$(_v gap_max_ns)")" \
	    "$3" "$4" "$5" "$(cpu_pct "$W/a-$2.time")"
	echo "$2 $(_v gap_std_ns)" >>"$W/a-std"
}

# idt_hoplab TAG [OPTION...]: hoplab-gen with OPTIONs (e.g. --realtime).
idt_hoplab()
{
	IDT_TAG=$1
	shift
	cap_start gen tx "$W/a-$IDT_TAG.pcap" "udp dst port 9" || return 1
	timed "$W/a-$IDT_TAG.time" timeout -s INT -k 5 $((IDT_N / 100 + 30)) \
	    ip netns exec "$P-gen" "$GEN" "$@" --tx tx --rx rx \
	    --src "$GL_SRC" --dst "$GL_DST" --gateway "$GL_GW" --drain 100ms \
	    --flow "frame=64,count=$IDT_N,idt=10ms,dport=9,name=idt" \
	    >"$W/a-$IDT_TAG.txt" 2>&1 || say "hoplab-gen $*failed: $(tail -n 2 "$W/a-$IDT_TAG.txt")"
	cap_stop
}

# idt_ditg TAG [PREFIX...]: ITGSend, run through PREFIX (e.g. chrt -f 10).
idt_ditg()
{
	IDT_TAG=$1
	shift
	BG_LOG=$W/a-$IDT_TAG-recv.log
	bench_bg "$P-d" ITGRecv
	sleep 1
	cap_start s s0 "$W/a-$IDT_TAG.pcap" "udp dst port 9001" || return 1
	timed "$W/a-$IDT_TAG.time" timeout -s INT -k 5 $((IDT_N / 100 + 30)) \
	    ip netns exec "$P-s" "$@" ITGSend -a 198.18.200.2 -rp 9001 -T UDP \
	    -C 100 -c 18 -t $((IDT_N * 10)) >"$W/a-$IDT_TAG.txt" 2>&1 ||
	    say "ITGSend failed: $(tail -n 2 "$W/a-$IDT_TAG.txt")"
	cap_stop
	bench_stop "$BG_PID"
}

# idt_iperf3 TAG [PREFIX...]: iperf3 -u client, run through PREFIX.
idt_iperf3()
{
	IDT_TAG=$1
	shift
	BG_LOG=$W/a-$IDT_TAG-server.log
	bench_bg "$P-d" iperf3 -s -1 -B 198.18.200.2 -p 5201
	sleep 0.5
	cap_start s s0 "$W/a-$IDT_TAG.pcap" "udp dst port 5201" || return 1
	# 100 packets/s of 18 bytes of UDP payload (a 64-byte frame)
	timed "$W/a-$IDT_TAG.time" timeout -s INT -k 5 $((IDT_N / 100 + 30)) \
	    ip netns exec "$P-s" "$@" iperf3 -c 198.18.200.2 -p 5201 -u \
	    -b 14400 -l 18 -t $((IDT_N / 100)) >"$W/a-$IDT_TAG.txt" 2>&1 ||
	    say "iperf3 failed: $(tail -n 2 "$W/a-$IDT_TAG.txt")"
	cap_stop
	bench_stop "$BG_PID"
}

# idt_self TAG: hoplab-gen's own view of run TAG (kernel tx stamps, pacer).
idt_self()
{
	_f=$W/a-$1.txt
	echo "  $1 own report (kernel tx stamps): idt_std" \
	    "$(gen_get "$_f" Transmit idt idt_std), |err| p50" \
	    "$(gen_get "$_f" Transmit idt '|err|p50'), p99" \
	    "$(gen_get "$_f" Transmit idt '|err|p99'), ktx" \
	    "$(gen_get "$_f" Transmit idt 'ktx%') %;" \
	    "$(sed -n 's/^pacer: [0-9]* waits, \([0-9]*\) overslept, .*(\(.*of a core\)).*/overslept \1, spun \2/p' "$_f")"
}

# idt_ratio A B: "  std ratio A / B: X" from $W/a-std.
idt_ratio()
{
	awk -v a="$1" -v b="$2" '$1 == a { x = $2 } $1 == b { y = $2 }
	    END { if (x > 0 && y > 0)
	    printf "  std ratio %-22s / %-22s %8.1f\n", a, b, x / y }' \
	    "$W/a-std"
}

if part a; then
	say "(a) inter-departure times at 10 ms, $IDT_N packets per run, 6 runs"
	idt_hoplab hoplab-gen
	idt_hoplab hoplab-gen--realtime --realtime
	idt_ditg D-ITG
	idt_ditg D-ITG_chrt-f-10 chrt -f 10
	idt_iperf3 iperf3-u
	idt_iperf3 iperf3-u_chrt-f-10 chrt -f 10
	{
		echo "(a) inter-departure time (IDT) at a 10 ms target, $IDT_N" \
		    "packets, pcap at the sending interface (ns), in us;" \
		    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "  |e|: |gap - 10 ms|, its percentiles (the tool's own" \
		    "precision; the std is ruled by the few gaps the machine took)"
		printf '%-22s %5s %10s %8s %9s %9s %9s %8s %8s %8s %5s\n' \
		    tool gaps mean err std min max '|e|p50' '|e|p90' \
		    '|e|p99' cpu%
		idt_row hoplab-gen hoplab-gen 9
		idt_row "D-ITG" D-ITG 9001
		idt_row "iperf3 -u" iperf3-u 5201
		idt_row "hoplab-gen --realtime" hoplab-gen--realtime 9
		idt_row "D-ITG (chrt -f 10)" D-ITG_chrt-f-10 9001
		idt_row "iperf3 -u (chrt -f 10)" iperf3-u_chrt-f-10 5201
		idt_self hoplab-gen
		idt_self hoplab-gen--realtime
		idt_ratio D-ITG hoplab-gen
		idt_ratio iperf3-u hoplab-gen
		idt_ratio D-ITG_chrt-f-10 hoplab-gen--realtime
		idt_ratio iperf3-u_chrt-f-10 hoplab-gen--realtime
	} >"$W/table-a"
else
	echo "(a) not run (BENCH_PARTS=$PARTS)" >"$W/table-a"
fi
cat "$W/table-a"

# ------------------------------------------------------------ (b) rate

# Each rate_TOOL RATE sets OK (1: no loss and at least 95 % of RATE sent),
# GOT (the rate achieved, frames/s) and WHY (for the first failing step).
# rate_hoplab: --tx-io send (a kernel tx stamp per frame); rate_hoplabring:
# --tx-io ring (PACKET_TX_RING, a kernel stamp on 1 frame in 64).
rate_hoplab()
{
	gen_rate "$1" b-gen
}

rate_hoplabring()
{
	gen_rate "$1" b-genring --tx-io ring
}

# gen_rate RATE NAME [ARG...]: one step of hoplab-gen, output in NAME-RATE.
gen_rate()
{
	_rr=$1
	_n=$2
	shift 2
	_c=$((_rr * STEP_S))
	_idt=$((1000000000 / _rr))
	_r0=$(ns_stat "$P-v" rx rx_packets)
	timeout -s INT -k 5 $((STEP_S * 4 + 20)) ip netns exec "$P-v" \
	    taskset -c 1 "$GEN" --tx tx --rx rx --src 198.18.100.1 \
	    --dst 198.18.100.2 --gateway 198.18.100.2 --drain 300ms \
	    --flow "frame=64,count=$_c,idt=${_idt}ns,dport=9,name=rate" \
	    "$@" >"$W/$_n-$_rr.txt" 2>&1
	_sent=$(gen_get "$W/$_n-$_rr.txt" Packets rate sent)
	_lost=$(gen_get "$W/$_n-$_rr.txt" Packets rate lost)
	_im=$(gen_get "$W/$_n-$_rr.txt" Transmit rate idt_mean)
	GOT=$(awk -v m="$_im" 'BEGIN { if (m + 0 > 0) printf "%.0f", 1e6 / m
	    else print "-" }')
	_rx=$(($(ns_stat "$P-v" rx rx_packets) - _r0))
	WHY="sent $_sent at $GOT/s, kernel received $_rx on rx"
	WHY="$WHY (ARP included), hoplab-gen lost $_lost"
	OK=$(awk -v s="$_sent" -v c="$_c" -v l="$_lost" -v g="$GOT" \
	    -v r="$_rr" 'BEGIN { print (s == c && l == "0" && g + 0 >= 0.95 * r) }')
}

trafgen_cfg()
{
	_rxmac=$(ip netns exec "$P-v" cat /sys/class/net/rx/address)
	_txmac=$(ip netns exec "$P-v" cat /sys/class/net/tx/address)
	echo "{ eth(da=$_rxmac, sa=$_txmac), ipv4(saddr=198.18.100.1," \
	    "daddr=198.18.100.2, ttl=64), udp(sp=49184, dp=9)," \
	    "fill(0x00, 18) }" >"$W/trafgen.cfg"
}

# rate_trafgen RATE|unpaced
rate_trafgen()
{
	if [ "$1" = unpaced ]; then
		_c=2000000
		set -- unpaced
		_b=
	else
		_c=$(($1 * STEP_S))
		_b="-b ${1}pps"
	fi
	_r0=$(ns_stat "$P-v" rx rx_packets)
	_t0=$(ns_stat "$P-v" tx tx_packets)
	# shellcheck disable=SC2086
	timeout -s INT -k 5 $((STEP_S * 4 + 20)) ip netns exec "$P-v" \
	    trafgen -o tx -i "$W/trafgen.cfg" -n "$_c" -P 1 $_b \
	    >"$W/b-trafgen-$1.txt" 2>&1
	_rx=$(($(ns_stat "$P-v" rx rx_packets) - _r0))
	_tx=$(($(ns_stat "$P-v" tx tx_packets) - _t0))
	# "2 sec, 10827 usec on CPU0 (400000 packets)"
	GOT=$(tr -d '\r' <"$W/b-trafgen-$1.txt" |
	    sed -n 's/^ *\([0-9]*\) sec, \([0-9]*\) usec on CPU.*/\1 \2/p' |
	    awk -v c="$_c" '{ t += $1 + $2 / 1e6 }
	    END { if (t > 0) printf "%.0f", c / t; else print "-" }')
	WHY="sent $_tx, received $_rx, at $GOT/s"
	OK=$(awk -v s="$_tx" -v c="$_c" -v rx="$_rx" -v g="$GOT" -v r="$1" \
	    'BEGIN { print (s == c && rx == s && (r == "unpaced" ||
	    g + 0 >= 0.95 * r)) }')
}

rate_iperf3()
{
	BG_LOG=$W/b-iperf3s-$1.log
	bench_bg "$P-d" taskset -c 1 iperf3 -s -1 -B 198.18.200.2 -p 5202
	sleep 0.3
	timeout -s INT -k 5 $((STEP_S * 4 + 20)) ip netns exec "$P-s" \
	    taskset -c 1 iperf3 -c 198.18.200.2 -p 5202 -u -l 18 \
	    -b $(($1 * 18 * 8)) -t "$STEP_S" -J >"$W/b-iperf3-$1.json" 2>&1
	bench_stop "$BG_PID"
	_pk=$(last_json_num "$W/b-iperf3-$1.json" packets)
	_lost=$(last_json_num "$W/b-iperf3-$1.json" lost_packets)
	GOT=$(awk -v p="$_pk" -v t="$STEP_S" 'BEGIN { if (p + 0 > 0)
	    printf "%.0f", p / t; else print "-" }')
	WHY="sent $_pk, lost $_lost, at $GOT/s"
	OK=$(awk -v l="$_lost" -v g="$GOT" -v r="$1" \
	    'BEGIN { print (l == "0" && g + 0 >= 0.95 * r) }')
}

# ladder TOOL: climb RATES; prints "TOOL BEST GOT FIRSTFAIL WHY".
ladder()
{
	_best=0
	_bgot=-
	_fail=none
	_why="every step passed"
	for _r in $RATES; do
		if ! left; then
			_fail="(time budget)"
			_why=
			break
		fi
		"rate_$1" "$_r"
		say "  $1 $_r/s: $([ "$OK" = 1 ] && echo ok || echo FAIL): $WHY"
		if [ "$OK" != 1 ]; then
			_fail=$_r
			_why=$WHY
			break
		fi
		_best=$_r
		_bgot=$GOT
	done
	echo "$_best|$_bgot|$_fail|$_why" >"$W/b-$1"
}

if part b; then
say "(b) 64-byte loss-free rate ladder, $STEP_S s per step"
trafgen_cfg
ladder hoplab
ladder hoplabring
ladder trafgen
ladder iperf3
UNPACED=-
if left; then
	rate_trafgen unpaced
	say "  trafgen unpaced: $WHY"
	UNPACED="$GOT $([ "$OK" = 1 ] && echo "no loss" || echo "LOSS: $WHY")"
fi
{
	echo
	echo "(b) largest rate of 64-byte frames sent and received without" \
	    "loss, one core, veth pair, $STEP_S s steps (frames/s)"
	printf '%-24s %10s %10s %10s  %s\n' tool passed achieved "next step" \
	    "ratio to hoplab-gen / next step's result"
	gbest=$(cut -d'|' -f1 "$W/b-hoplab")
	for t in hoplab hoplabring trafgen iperf3; do
		IFS='|' read -r best got fail why <"$W/b-$t"
		case $t in hoplab) n=hoplab-gen ;; iperf3) n="iperf3 -u" ;;
		hoplabring) n="hoplab-gen --tx-io ring" ;;
		*) n=$t ;; esac
		ratio=$(awk -v a="$best" -v g="$gbest" 'BEGIN { if (g > 0)
		    printf "%.2f", a / g; else print "-" }')
		printf '%-24s %10s %10s %10s  %s; %s\n' "$n" "$best" "$got" \
		    "$fail" "$ratio" "$why"
	done
	echo "  trafgen unpaced (no -b, PACKET_MMAP as fast as it goes):" \
	    "$UNPACED"
	rbest=$(cut -d'|' -f1 "$W/b-hoplabring")
	tbest=$(cut -d'|' -f1 "$W/b-trafgen")
	awk -v r="$rbest" -v g="$gbest" -v t="$tbest" -v u="${UNPACED%% *}" \
	    'function q(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
	    BEGIN { printf "  hoplab-gen --tx-io ring: %sx --tx-io send, " \
	    "%sx trafgen paced (passed rates), %sx the trafgen unpaced rate\n",
	    q(r, g), q(r, t), q(r, u) }'
} >"$W/table-b"
else
	printf '\n(b) not run (BENCH_PARTS=%s)\n' "$PARTS" >"$W/table-b"
fi
cat "$W/table-b"

# ------------------------------------------------------------ (c) chain

chain()
{
	"$HOPLAB" -p "$LABP" -k "$LABK" lab up >"$W/c-up.log" 2>&1 || {
		LAB_UP=1
		echo "lab up failed: $(tail -n 2 "$W/c-up.log")"
		return 1
	}
	LAB_UP=1
	timeout -s INT -k 10 180 "$HOPLAB" -p "$LABP" -q -o "$W/c" \
	    run "$ROOT/bench/plans/chain-10k.yaml" >"$W/c-run.log" 2>&1 || {
		echo "hoplab run failed: $(tail -n 3 "$W/c-run.log")"
		return 1
	}
	_d=$(ls -d "$W"/c/bench-chain-* | head -n 1)
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    { printf "%-8s %8s %8s %8s %10s %10s %10s\n", $h["variant"],
	    $h["sent"], $h["received"], $h["lost"], $h["delay_mean_us"],
	    $h["delay_p50_us"], $h["delay_std_us"] }' "$_d/summary.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["method"] == "regression" || $h["method"] == "mean-difference" {
	    lo = $h["ci95_lo_us"]; hi = $h["ci95_hi_us"]
	    printf "  %-16s per router %.3f us, 95%% CI [%.3f, %.3f], " \
	    "width %.3f us\n", $h["method"], $h["t_router_us"], lo, hi,
	    hi - lo }' "$_d/hops.csv"
}

if part c && left; then
	say "(c) per-router delay through 1, 2, 3 kernel routers, 10000 packets each"
	{
		echo
		echo "(c) per-router delay, Linux kernel routers on veth," \
		    "bench/plans/chain-10k.yaml (hoplab run, 10000 x 64 bytes" \
		    "at 200 us per variant), us"
		printf '%-8s %8s %8s %8s %10s %10s %10s\n' variant sent \
		    received lost mean p50 std
		chain
	} >"$W/table-c"
	cat "$W/table-c"
else
	printf '\n(c) skipped: time budget used up or not in BENCH_PARTS=%s\n' \
	    "$PARTS" >"$W/table-c"
fi

# (d)..(n): the benches of the other programs, each a script of its own
# that builds its own namespaces, bounds itself and cleans up.
other_bench() {	# TABLE TITLE SECONDS SCRIPT [ENV...]
	tab=$1 title=$2 secs=$3 script=$4
	shift 4
	if ! part "${tab#table-}"; then
		printf '\n%s not run (BENCH_PARTS=%s)\n' "${title%%)*})" \
		    "$PARTS" >"$W/$tab"
		return
	fi
	{
		echo
		echo "$title"
		env "$@" timeout "$secs" sh "$ROOT/bench/$script" 2>&1 ||
		    echo "($script did not finish within $secs s or failed)"
	} >"$W/$tab"
	cat "$W/$tab"
}
other_bench table-d "(d) hoplab-link release error at 10 000 packets/s" 90 \
    link_timing.sh SECS=10 VARIANTS='|--realtime'
other_bench table-e "(e) forwarding cost and rate, hoplab-router vs Linux" 240 \
    router_rate.sh
other_bench table-f "(f) delay one router adds, hoplab-router vs Linux" 90 \
    router_delay.sh
other_bench table-g "(g) management plane, 32 agents" 150 mgmt_scale.sh
other_bench table-h "(h) hoplab-link packet rate vs a Linux bridge, 64 bytes" \
    90 link_rate.sh
other_bench table-i "(i) timing bounds make check does not assert (load-bound)" \
    150 timing.sh
other_bench table-j "(j) hoplab-link as a wire: added delay and CPU at 1000 packets/s" \
    90 link_wire.sh
other_bench table-k "(k) what residence captures cost the routers (per-router delay)" \
    400 residence_cost.sh
other_bench table-l "(l) hoplab-gen pacing at 10 ms: the cost of each --spin" \
    150 pace_cost.sh
other_bench table-m "(m) are hops.csv's intervals honest? 10 runs per mode, concurrent and sequential" \
    900 honest.sh
other_bench table-o "(o) source NAT cost and rate, hoplab-router vs nftables masquerade" \
    150 nat_rate.sh
other_bench table-n "(n) recovery after a failure of the primary link: static, RIP, OSPF, OSPF+BFD (20 cuts each)" \
    2400 recovery.sh
other_bench table-p "(p) home gateway: NAT throughput, 1 x 10 / 10 x 1 / 1 device, kernel vs hoplab-router" \
    600 hgw.sh
other_bench table-q "(q) kill matrix: kill -9 at random moments, then the documented recovery (100 cases)" \
    2400 killmatrix.sh

mkdir -p "$ROOT/results"
{
	echo "hoplab bench $UTC: $(uname -sr), $(nproc) CPUs," \
	    "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
	echo "load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "tree: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) (plus uncommitted changes, if any)"
	echo
	cat "$W/table-a" "$W/table-b" "$W/table-c" "$W/table-d" \
	    "$W/table-e" "$W/table-f" "$W/table-g" "$W/table-h" \
	    "$W/table-i" "$W/table-j" "$W/table-k" "$W/table-l" \
	    "$W/table-m" "$W/table-n" "$W/table-o" "$W/table-p" \
	    "$W/table-q"
	echo
	echo "took $(($(date +%s) - START)) s; command:" \
	    "${BENCH_PARTS:+BENCH_PARTS=$BENCH_PARTS }sudo make bench"
} >"$RES"
echo
head -n 3 "$RES"
echo "bench: took $(($(date +%s) - START)) s; table written to $RES"
