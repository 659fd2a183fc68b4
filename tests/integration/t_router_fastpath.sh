#!/bin/sh
# t_router_fastpath: hoplab-router's XDP fast path (io.backend xdp with
# io.fastpath on or by default, router/fastpath.c, router/bpf/), on a
# namespace lab of its own (prefix hlfp, K 214 reserved; no management
# network, no agents; then a managed lab for part 10):
#
#   hlfp-gen eth0 -- in A out -- in B out -- in C out -- eth0 hlfp-sink
#
#   gen eth0 198.18.0.1/24  A 198.18.0.2 | 198.18.1.1  B 198.18.1.2 |
#   198.18.2.1  C 198.18.2.2 | 198.18.100.1  sink eth0 198.18.100.2/24
#   and 198.18.101.2/24 (reached through a route A gets at run time)
#
# gen's and sink's eth0 get GRO back on: a veth passes a frame that XDP
# redirected into it to its peer only when the peer polls with NAPI
# (docs/router.md, "The fast path"); the routers' own ends have the
# program.  Checks, each against a truth the fast path does not compute:
#
# 1. each router logs the fast path on for both interfaces, and the
#    kernel shows the program hoplab_fastpath on them; B says "on"
#    explicitly in its file.
# 2. 200 pings gen -> sink after ARP is resolved: the sink's nftables
#    counter of echo requests from gen, A's, B's and C's fast-path
#    forwarded counters on "in" and sent counters on "out" all move by
#    the same number (200); tcpdump -v at the sink sees every request
#    with TTL 64 - 3 and no bad checksum.
# 3. the slow path's answers with the fast path on: TTL 1 (time exceeded
#    from A, A's punt_ttl and drop ttl + 1), an unknown route (net
#    unreachable from A, punt_no_route + 1), IP options (ping -R: A drops
#    them as the slow path does, punt_header + 2, nothing at the sink).
# 4. a route added on A's control socket at run time (198.18.101.0/24)
#    is forwarded by A's fast path (its counter + 5), and after
#    "route del" A answers net unreachable again; a route A learnt by
#    RIP from B (198.18.2.0/24) is forwarded in XDP too (+ 5); "iface
#    out down" then "up" on A: the neighbour's map entry went with the
#    ARP flush (the first ping after: punt_no_neigh + 1, the rest fast).
# 5. a denying filter loaded into B by reload: the pings are dropped by
#    B's slow path (its filter rule's hits + 3, B's punt_slow + 3 or
#    more, its fast path forwarding nothing), and
#    with the filter gone again B's fast path forwards.
# 6. C restarted with DRR queues: the pings still arrive, through C's
#    slow path (punt_slow + 5 or more, fast path forwarded 0, out's tx
#    + 5 or more).
# 7. ping and traceroute gen -> sink through A-B-C (hops A, B, C, sink).
# 8. bad input: io.fastpath maybe (file:line:value), io.fastpath on on
#    an interface without XDP in its driver (a dummy) fails naming file,
#    line and value, the default there falls back with a logged reason,
#    (a bridge: generic XDP only; the kernel here has no dummy driver),
#    and a BPF object the verifier refuses (HOPLAB_ROUTER_BPF_OBJ) is an
#    error at start naming the verifier's message.
# 9. the routers exit 0 on SIGTERM.
# 10. a plan with router: {impl: hoplab, io: xdp, fastpath: on} on a
#    managed lab (K 214): the agent's router file says fastpath: on, the
#    lab's veths get GRO (wire --gro), all 2000 probes arrive, and A's
#    and B's fp_forwarded in routers.csv cover them (and the warm-up's
#    200, but those that waited for ARP).
#
# When the kernel refuses AF_XDP or BPF here, the scenario says why and
# passes with nothing else checked.  Run as root; about 15 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] ||
    bail router_built "$HL_BIN/hoplab-router is missing (make)"
for t in ethtool tcpdump ping traceroute nft clang; do
	command -v "$t" >/dev/null 2>&1 ||
	    bail "tool_$t" "$t is missing (sudo make deps)"
done

rl_init hlfp || bail rl_init "cannot make a temporary folder"
at_exit rl_down

# ---------------------------------------------------------------- the lab

conf()	# NAME IN_ADDR OUT_ADDR IO ROUTE:VIA... (then extra lines on stdin)
{
	_n=$1 _in=$2 _out=$3 _io=$4
	shift 4
	{
		echo "# t_router_fastpath: router $_n"
		echo "interfaces:"
		echo "  - {name: in, address: $_in}"
		echo "  - {name: out, address: $_out}"
		echo "routes:"
		for _r in "$@"; do
			echo "  - {prefix: ${_r%%:*}, via: ${_r#*:}}"
		done
		echo "io: {$_io}"
		cat
	} >"$RL_TMP/$_n.yaml"
}

for n in gen A B C sink; do
	rl_ns $n || bail lab "could not make namespace $n"
done
rl_veth gen eth0 A in && rl_veth A out B in && rl_veth B out C in &&
    rl_veth C out sink eth0 &&
    rl_gro_on gen eth0 && rl_gro_on sink eth0 &&
    rl_addr gen eth0 198.18.0.1/24 && rl_addr sink eth0 198.18.100.2/24 &&
    rl_addr sink eth0 198.18.101.2/24 &&
    rl_route gen default via 198.18.0.2 &&
    rl_route sink default via 198.18.100.1 ||
    bail lab "could not build the lab"
# A learns B's 198.18.2.0/24 by RIP (A and B speak it on their link)
RIP_A='rip: {interfaces: [out], update: 1s, timeout: 3s, garbage: 2s}'
RIP_B='rip: {interfaces: [in], update: 1s, timeout: 3s, garbage: 2s}'
echo "$RIP_A" | conf A 198.18.0.2/24 198.18.1.1/24 "backend: xdp" \
    198.18.100.0/24:198.18.1.2
echo "$RIP_B" | conf B 198.18.1.2/24 198.18.2.1/24 \
    "backend: xdp, fastpath: on" 198.18.0.0/24:198.18.1.1 \
    198.18.100.0/24:198.18.2.2 198.18.101.0/24:198.18.2.2
cp "$RL_TMP/B.yaml" "$RL_TMP/B-plain.yaml"
conf C 198.18.2.2/24 198.18.100.1/24 "backend: xdp" \
    198.18.0.0/23:198.18.2.1 198.18.101.0/24:198.18.100.2 </dev/null

if ! rl_router A "$RL_TMP/A.yaml" -v 2>"$RL_TMP/A.start"; then
	if grep -q "AF_XDP\|BPF" "$RL_TMP/A.log"; then
		echo "  skip: the kernel refuses AF_XDP or BPF here:"
		sed 's/^/    /' "$RL_TMP/A.log"
		pass "xdp_refused_cleanly: the router said why and exited"
		finish
	fi
	sed 's/^/    /' "$RL_TMP/A.start"
	bail router_a "hoplab-router A (fast path) did not start"
fi
rl_router B "$RL_TMP/B.yaml" -v || bail router_b "hoplab-router B did not start"
rl_router C "$RL_TMP/C.yaml" -v || bail router_c "hoplab-router C did not start"
pass "lab: gen - A - B - C - sink (hoplab-router, xdp fast path)"

# ---------------------------------------------------------------- 1. on

for r in A B C; do
	n=$(grep -c "fast path: interface \(in\|out\): on$" "$RL_TMP/$r.log")
	assert_eq "fastpath_on_$r" 2 "$n"
	progs=$(for i in in out; do ip -n "hlfp-$r" link show "$i"; done |
	    grep -c 'prog/xdp.*name hoplab_fastpath')
	assert_eq "program_attached_$r" 2 "$progs"
done

ctr() { _c=$(rl_counter "$1" "$2" "$3"); echo "${_c:-0}"; }

# ---------------------------------------------------------------- 2. truth

out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match warmup_ping " 0% packet loss" "$out"
rl_in sink nft -f - <<'EOF' || bail nft "cannot add the sink's counter"
table ip hlfp_sink {
	counter echo { }
	chain in {
		type filter hook input priority 0;
		ip saddr 198.18.0.1 icmp type echo-request counter name echo
	}
}
EOF
sink_count() { rl_in sink nft list counter ip hlfp_sink echo |
    sed -n 's/.*packets \([0-9]*\).*/\1/p'; }
rl_bg sink "$RL_TMP/cap.err" timeout 20 tcpdump -n -i eth0 -Q in -s 128 \
    -c 200 -U -w "$RL_TMP/cap.pcap" "icmp and src 198.18.0.1"
CAP=$RL_LAST
wait_log 10 "listening on" "$RL_TMP/cap.err" ||
    bail tcpdump "tcpdump does not capture: $(cat "$RL_TMP/cap.err")"
s0=$(sink_count)
for r in A B C; do
	eval "f0_$r=$(ctr $r in fp_forwarded) t0_$r=$(ctr $r out fp_sent)"
done
rl_in gen ping -n -q -c 200 -i 0.005 -W 2 198.18.100.2 >/dev/null 2>&1
sleep 0.3
sink=$(($(sink_count) - s0))
assert_num_eq sink_counted_200 "$sink" 200
for r in A B C; do
	eval "f=\$((\$(ctr $r in fp_forwarded) - f0_$r))"
	eval "t=\$((\$(ctr $r out fp_sent) - t0_$r))"
	assert_num_eq "fp_forwarded_${r}_equals_sink" "$f" "$sink"
	assert_num_eq "fp_sent_${r}_equals_sink" "$t" "$sink"
done
# tcpdump -c 200 ends by itself (its summary) once it wrote the 200th
wait_log 5 "packets captured" "$RL_TMP/cap.err"
rl_stop "$CAP"
tcpdump -n -t -v -r "$RL_TMP/cap.pcap" 2>/dev/null >"$RL_TMP/cap.txt"
n=$(grep -c "ttl 61," "$RL_TMP/cap.txt")
other=$(grep "^IP " "$RL_TMP/cap.txt" | grep -vc "ttl 61,")
bad=$(grep -c "bad cksum\|wrong icmp cksum\|incorrect" "$RL_TMP/cap.txt")
assert_ge ttl_61_at_sink "$n" 200
assert_num_eq no_other_ttl_at_sink "$other" 0
assert_num_eq no_bad_checksum_at_sink "$bad" 0

# ---------------------------------------------------------------- 3. slow

b=$(ctr A in fp_punt_ttl) d=$(ctr A in ttl)
out=$(rl_in gen ping -n -c 1 -t 1 -W 2 198.18.100.2 2>&1)
assert_match ttl1_time_exceeded_from_a \
    "From 198.18.0.2 .*[Tt]ime to live exceeded" "$out"
assert_num_eq ttl1_punted $(($(ctr A in fp_punt_ttl) - b)) 1
assert_num_eq ttl1_dropped_by_slow_path $(($(ctr A in ttl) - d)) 1

b=$(ctr A in fp_punt_no_route)
out=$(rl_in gen ping -n -c 1 -W 2 198.18.200.1 2>&1)
assert_match no_route_unreachable_from_a \
    "From 198.18.0.2 .*Destination Net Unreachable" "$out"
assert_num_eq no_route_punted $(($(ctr A in fp_punt_no_route) - b)) 1

b=$(ctr A in fp_punt_header) d=$(ctr A in other) s0=$(sink_count)
rl_in gen ping -n -R -c 2 -i 0.2 -W 1 198.18.100.2 >/dev/null 2>&1
assert_num_eq options_punted $(($(ctr A in fp_punt_header) - b)) 2
assert_num_eq options_dropped_by_slow_path $(($(ctr A in other) - d)) 2
assert_num_eq options_not_at_sink $(($(sink_count) - s0)) 0

# ---------------------------------------------------------------- 4. route

out=$(rl_in gen ping -n -c 1 -W 2 198.18.101.2 2>&1)
assert_match before_route_unreachable \
    "From 198.18.0.2 .*Destination Net Unreachable" "$out"
assert_ok route_add rl_ctl A "route add 198.18.101.0/24 via 198.18.1.2"
b=$(ctr A in fp_forwarded) p=$(ctr A in fp_punt_no_route)
out=$(rl_in gen ping -n -c 5 -i 0.1 -W 2 198.18.101.2 2>&1)
assert_match route_added_ping " 0% packet loss" "$out"
assert_num_eq route_added_fast_forwarded $(($(ctr A in fp_forwarded) - b)) 5
assert_num_eq route_added_not_punted $(($(ctr A in fp_punt_no_route) - p)) 0
assert_ok route_del rl_ctl A "route del 198.18.101.0/24"
out=$(rl_in gen ping -n -c 1 -W 2 198.18.101.2 2>&1)
assert_match route_deleted_unreachable \
    "From 198.18.0.2 .*Destination Net Unreachable" "$out"

# A route RIP installed (A's 198.18.2.0/24 from B) is in the fast path
# too: pings to C's address on that subnet are forwarded in A's XDP.
rip_route() { rl_ctl A counters 2>/dev/null |
    grep -q "^route 198.18.2.0/24 via 198.18.1.2 .*proto rip"; }
if wait_for 10 "A learns 198.18.2.0/24 by RIP" rip_route; then
	pass rip_route_learned
	b=$(ctr A in fp_forwarded)
	out=$(rl_in gen ping -n -c 5 -i 0.1 -W 2 198.18.2.2 2>&1)
	assert_match rip_route_ping " 0% packet loss" "$out"
	assert_num_eq rip_route_fast_forwarded \
	    $(($(ctr A in fp_forwarded) - b)) 5
else
	fail rip_route_learned "$(rl_ctl A counters 2>&1 | grep '^route')"
fi

# "iface out down" on A flushes its ARP entries there, and with them the
# fast path's neighbour (its next packet after "up" waits for ARP in the
# slow path: punt_no_neigh), and marks out slow meanwhile.
assert_ok iface_down rl_ctl A "iface out down"
out=$(rl_in gen ping -n -c 2 -i 0.1 -W 1 198.18.100.2 2>&1)
assert_match iface_down_drops "100% packet loss" "$out"
assert_ok iface_up rl_ctl A "iface out up"
n=$(ctr A in fp_punt_no_neigh) b=$(ctr A in fp_forwarded)
out=$(rl_in gen ping -n -c 4 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match iface_up_ping " 0% packet loss" "$out"
assert_num_eq iface_up_neighbour_was_flushed \
    $(($(ctr A in fp_punt_no_neigh) - n)) 1
assert_num_eq iface_up_fast_again $(($(ctr A in fp_forwarded) - b)) 3

# ---------------------------------------------------------------- 5. filter

conf B 198.18.1.2/24 198.18.2.1/24 "backend: xdp, fastpath: on" \
    198.18.0.0/24:198.18.1.1 198.18.100.0/24:198.18.2.2 \
    198.18.101.0/24:198.18.2.2 <<EOF
$RIP_B
filters:
  rules:
    - {action: deny, proto: icmp, src: 198.18.0.1/32, dst: 198.18.100.2/32}
EOF
assert_ok filter_reload rl_ctl B reload
b=$(ctr B in fp_punt_slow) f=$(ctr B in fp_forwarded)
out=$(rl_in gen ping -n -c 3 -i 0.1 -W 1 198.18.100.2 2>&1)
assert_match filter_denies "100% packet loss" "$out"
hits=$(rl_ctl B counters | sed -n 's/^filter hits: rule 0 \([0-9]*\),.*/\1/p')
assert_num_eq filter_rule_hits "${hits:-0}" 3
# the pings and whatever else came in meanwhile (RIP from A, ARP)
assert_ge filter_punted_slow $(($(ctr B in fp_punt_slow) - b)) 3
assert_num_eq filter_nothing_fast $(($(ctr B in fp_forwarded) - f)) 0
assert_match filter_logged "slow path only: filters" "$(cat "$RL_TMP/B.log")"
cp "$RL_TMP/B-plain.yaml" "$RL_TMP/B.yaml"
assert_ok filter_gone_reload rl_ctl B reload
b=$(ctr B in fp_forwarded)
out=$(rl_in gen ping -n -c 3 -i 0.1 -W 2 198.18.100.2 2>&1)
assert_match filter_gone_ping " 0% packet loss" "$out"
assert_num_eq filter_gone_fast_again $(($(ctr B in fp_forwarded) - b)) 3

# ---------------------------------------------------------------- 6. DRR

rl_stop "$RL_PID_C"
conf C 198.18.2.2/24 198.18.100.1/24 "backend: xdp" \
    198.18.0.0/23:198.18.2.1 198.18.101.0/24:198.18.100.2 <<'EOF'
qos:
  scheduler: drr
  queues:
    - {class: 0, weight: 1}
EOF
rl_router C "$RL_TMP/C.yaml" -v || bail router_c_drr "C with DRR did not start"
rl_in gen ping -n -c 2 -i 0.2 -W 2 198.18.100.2 >/dev/null 2>&1 # ARP
b=$(ctr C in fp_punt_slow) t=$(ctr C out tx_packets)
out=$(rl_in gen ping -n -c 5 -i 0.1 -W 2 198.18.100.2 2>&1)
assert_match drr_ping " 0% packet loss" "$out"
assert_ge drr_punted_slow $(($(ctr C in fp_punt_slow) - b)) 5
assert_num_eq drr_fast_forwarded_none "$(ctr C in fp_forwarded)" 0
assert_ge drr_slow_path_sent $(($(ctr C out tx_packets) - t)) 5
rl_stop "$RL_PID_C"
conf C 198.18.2.2/24 198.18.100.1/24 "backend: xdp" \
    198.18.0.0/23:198.18.2.1 198.18.101.0/24:198.18.100.2 </dev/null
rl_router C "$RL_TMP/C.yaml" || bail router_c_again "C did not restart"

# ---------------------------------------------------------------- 7. ping

out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match ping_abc " 0% packet loss" "$out"
ttls=$(echo "$out" | sed -n 's/.*ttl=\([0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
assert_eq ping_abc_reply_ttl_61 "61 " "$ttls"
out=$(rl_in gen traceroute -n -q 1 -w 2 -m 6 198.18.100.2 2>&1)
hops=$(echo "$out" | awk 'NR > 1 { printf "%s ", $2 }')
assert_eq traceroute_abc "198.18.0.2 198.18.1.2 198.18.2.2 198.18.100.2 " \
    "$hops"

# ---------------------------------------------------------------- 8. bad input

printf 'interfaces:\n  - {name: in, address: 198.18.0.2/24}\nio: {backend: xdp,\n    fastpath: maybe}\n' \
    >"$RL_TMP/bad.yaml"
out=$("$RL_BIN/hoplab-router" -n -c "$RL_TMP/bad.yaml" 2>&1)
assert_match bad_value_named \
    "bad.yaml:4: io.fastpath: expected on or off, got .?maybe" "$out"

rl_ns D || bail lab_d "could not make namespace D"
ip -n hlfp-D link add d0 type bridge && ip -n hlfp-D link set d0 up ||
    bail lab_d "could not make a bridge interface"
printf 'interfaces:\n  - {name: d0, address: 198.18.50.1/24}\nio:\n  backend: xdp\n  fastpath: on\n' \
    >"$RL_TMP/D.yaml"
rl_in D timeout 10 "$RL_BIN/hoplab-router" -c "$RL_TMP/D.yaml" \
    -s "ipc://$RL_TMP/D.sock" >"$RL_TMP/D.log" 2>&1
rc=$?
assert_ne_0() { [ "$2" != 0 ] && pass "$1" || fail "$1" "exit status 0"; }
assert_ne_0 explicit_on_without_native_fails "$rc"
assert_match explicit_on_names_file_line_value \
    "D.yaml:5: io.fastpath: on: interface d0 cannot run XDP in its driver" \
    "$(cat "$RL_TMP/D.log")"
printf 'interfaces:\n  - {name: d0, address: 198.18.50.1/24}\nio: {backend: xdp}\n' \
    >"$RL_TMP/D.yaml"
if rl_router D "$RL_TMP/D.yaml" -v; then
	pass default_without_native_starts
	assert_match default_falls_back_logged \
	    "fast path: interface d0: no native XDP" "$(cat "$RL_TMP/D.log")"
	rl_stop "$RL_PID_D"
else
	fail default_without_native_starts "see its log above"
fi

cat >"$RL_TMP/bad.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
/* reads the frame without checking data_end: the verifier refuses it */
SEC("xdp")
int hoplab_fastpath(struct xdp_md *ctx)
{
	return *(unsigned char *)(long)ctx->data == 1 ? XDP_DROP : XDP_PASS;
}
char LICENSE[] SEC("license") = "GPL";
EOF
clang -target bpf -O2 -g -I/usr/include/"$(gcc -dumpmachine)" \
    -c -o "$RL_TMP/bad.bpf.o" "$RL_TMP/bad.bpf.c" ||
    bail bad_bpf "cannot compile the refused program"
rl_in D env HOPLAB_ROUTER_BPF_OBJ="$RL_TMP/bad.bpf.o" timeout 10 \
    "$RL_BIN/hoplab-router" -c "$RL_TMP/D.yaml" -s "ipc://$RL_TMP/D2.sock" \
    >"$RL_TMP/D2.log" 2>&1
rc=$?
assert_ne_0 verifier_refusal_fails "$rc"
assert_match verifier_message_named \
    "verifier refused the program: .*invalid access to packet" \
    "$(cat "$RL_TMP/D2.log")"

# ---------------------------------------------------------------- 9. exit

for r in A B C; do
	eval "rl_stop \$RL_PID_$r"
	assert_eq "router_${r}_exits_0" 0 "$?"
done

# ---------------------------------------------------------------- 10. plan

# A plan asking for the fast path (router: {io: xdp, fastpath: on}), run
# by the controller and agents on a managed lab (hlfp, K 214, after the
# lab above is gone): the agent writes io.fastpath on, the controller
# wires the lab with GRO on (deploy/lab.sh wire --gro; without it every
# frame B's fast path redirects into gen's rx would be lost), the probes
# all arrive, A and B forward them in XDP, and routers.csv carries the
# fast path's counters.
rl_down
lab_init hlfp 214
lab_up A B
P=$(mktemp -d /tmp/hoplab-t-fastpath-plan.XXXXXX)
at_exit "rm -rf '$P'"
cat >"$P/plan.yaml" <<'PLAN'
name: fastpath-plan
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab, io: xdp, fastpath: on}
flows:
  - {name: f, mode: l2, frame: 64, idt: 200us, count: 2000}
PLAN
if "$HL_BIN/hoplab" -p hlfp -o "$P/r" run "$P/plan.yaml" \
    >"$P/run.log" 2>&1; then
	pass plan_run_with_fastpath
else
	tail -n 8 "$P/run.log" | sed 's/^/    /'
	fail plan_run_with_fastpath "the run failed"
fi
assert_match plan_fastpath_in_router_config "fastpath: on" \
    "$(cat "$LAB_STATE"/A/router-*.yaml 2>/dev/null)"
D=$(ls -d "$P/r"/fastpath-plan-* 2>/dev/null | head -n 1)
rcv=$(csv_col "$D/summary.csv" received 2>/dev/null | head -n 1)
assert_num_eq plan_all_probes_received "${rcv:-0}" 2000
R=$D/routers.csv
for c in router iface final fp_forwarded; do
	csv_col "$R" $c >"$P/$c" 2>/dev/null
done
for r in A B; do
	f=$(paste -d' ' "$P/router" "$P/iface" "$P/final" "$P/fp_forwarded" |
	    awk -v r=$r '$1 ~ r "$" && $2 == "in" && $3 == 1 { print $4 }' |
	    tail -n 1)
	echo "    plan: $r in fp_forwarded ${f:-?} of ${rcv:-?} received"
	# the flow and the run's 200-packet warm-up (docs/plans.md), but
	# the few that waited for ARP in the slow path
	assert_ge "plan_fp_forwarded_$r" "${f:-0}" $((${rcv:-0} - 10))
	assert_le "plan_fp_forwarded_${r}_not_more" "${f:-0}" \
	    $((${rcv:-0} + 200))
done
finish
