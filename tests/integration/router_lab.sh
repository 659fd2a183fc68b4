# router_lab.sh: namespace labs for hoplab-router, sourced by the router's
# integration scenarios (tests/integration/t_router_*.sh) and benchmarks
# (bench/router_*.sh).  Not a scenario itself (run.sh runs only t_*.sh).
#
# A lab is a set of network namespaces named PREFIX-NAME joined by veth
# pairs, built by hand here rather than by deploy/lab.sh: no management
# network and no agents, just the data path.  Routers run hoplab-router in
# the foreground of their namespace with a configuration written by the
# caller; end hosts are namespaces with ordinary kernel addresses.  The
# router's own interfaces get no kernel IPv4 address (docs/router.md).
#
#	. tests/integration/router_lab.sh
#	rl_init hlt5			# removes leftovers of an earlier run
#	rl_ns gen; rl_ns A
#	rl_veth gen eth0 A in
#	rl_addr gen eth0 198.18.0.1/24
#	rl_router A "$RL_TMP/A.yaml"	# starts it, waits for its socket
#	rl_ctl A counters
#	rl_down				# every process, namespace and file
#
# The caller arranges for rl_down to run on every exit (lib.sh's at_exit,
# or a trap of its own).  Every process started here is recorded by PID
# and stopped by PID; the namespaces are ours by their prefix, so any
# process still inside them at teardown is ours too (lab.sh does the same).
# Addresses are the caller's business: keep them in 198.18.0.0/16.
# POSIX sh; needs root, iproute2 and ethtool.

RL_ROOT=${RL_ROOT:-$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)}
RL_BIN=${HL_BIN:-$RL_ROOT/bin}
RL_P=
RL_NS=
RL_PIDS=
RL_TMP=

# rl_init PREFIX: name the lab, remove namespaces PREFIX-* left over from
# an earlier run that was killed too hard to clean up, make RL_TMP.
rl_init()
{
	RL_P=$1
	for _n in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $_n in
		"$RL_P"-*) _rl_ns_del "$_n" ;;
		esac
	done
	RL_TMP=$(mktemp -d "/tmp/hoplab-$RL_P.XXXXXX") || return 1
}

# rl_ns NAME: create namespace PREFIX-NAME with lo up and IPv6 off on
# every interface created in it from now on (no router solicitations or
# MLD reports on the data links).
rl_ns()
{
	ip netns add "$RL_P-$1" || return 1
	RL_NS="$RL_NS $RL_P-$1"
	ip -n "$RL_P-$1" link set dev lo up &&
	ip netns exec "$RL_P-$1" sh -c '
	    for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
		/proc/sys/net/ipv6/conf/default/disable_ipv6; do
		[ ! -e $f ] || echo 1 >$f
	    done'
}

# rl_veth NS1 IF1 NS2 IF2: a veth pair between two of our namespaces, both
# ends up, offloads off on both ends.  Offloads must be off where a kernel
# TCP/UDP stack sends through a userspace router: with them on, veth
# passes segments of up to 64 KB (TSO/GSO) and leaves the L4 checksum to
# "the hardware" (checksum offload), and a router that reads the frame
# from an AF_PACKET ring and writes it out again would forward a
# super-frame or a packet whose checksum was never filled in.
rl_veth()
{
	ip link add name "$2" netns "$RL_P-$1" type veth \
	    peer name "$4" netns "$RL_P-$3" || return 1
	rl_offload_off "$1" "$2" && rl_offload_off "$3" "$4" &&
	ip -n "$RL_P-$1" link set dev "$2" up &&
	ip -n "$RL_P-$3" link set dev "$4" up
}

# rl_gro_on NS IF: GRO on again at a veth end whose peer is a router with
# the XDP fast path: a veth delivers a frame redirected by XDP into its
# peer only when that peer polls with NAPI, which GRO turns on (docs/
# router.md, "The fast path").
rl_gro_on()
{
	ip netns exec "$RL_P-$1" ethtool -K "$2" gro on >/dev/null 2>&1 ||
	    { echo "rl_gro_on: ethtool -K $2 gro on failed in $RL_P-$1" >&2;
	      return 1; }
}

# rl_offload_off NS IF: segmentation, receive merging and checksum
# offload off.
rl_offload_off()
{
	ip netns exec "$RL_P-$1" ethtool -K "$2" tx off rx off tso off \
	    gso off gro off >/dev/null 2>&1 ||
	    { echo "rl_offload_off: ethtool -K $2 failed in $RL_P-$1" >&2;
	      return 1; }
}

# rl_addr NS IF CIDR: a kernel address (end hosts and kernel routers only).
rl_addr()
{
	ip -n "$RL_P-$1" addr add "$3" dev "$2"
}

# rl_route NS ARGS...: ip route add ARGS in namespace NS.
rl_route()
{
	_ns=$1
	shift
	ip -n "$RL_P-$_ns" route add "$@"
}

# rl_in NS CMD...: run CMD in namespace NS.
rl_in()
{
	_ns=$1
	shift
	ip netns exec "$RL_P-$_ns" "$@"
}

# rl_mac NS IF: the interface's MAC address.
rl_mac()
{
	ip -n "$RL_P-$1" -o link show dev "$2" |
	    sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'
}

# rl_bg NS LOG CMD...: start CMD in namespace NS in the background, its
# output to LOG; its PID in RL_LAST (and recorded for rl_down).
rl_bg()
{
	_ns=$1
	_log=$2
	shift 2
	ip netns exec "$RL_P-$_ns" "$@" >"$_log" 2>&1 &
	RL_LAST=$!
	RL_PIDS="$RL_PIDS $RL_LAST"
}

# rl_stop PID: SIGTERM, up to 3 s for it to go, then SIGKILL.  Returns
# the process's exit status when it went by itself (128+n for a signal),
# 255 when it had to be killed.
rl_stop()
{
	kill -TERM "$1" 2>/dev/null
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 30 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		return 255
	fi
	wait "$1" 2>/dev/null
}

# rl_router NAME CONFIG [ARGS...]: start hoplab-router in namespace NAME
# with CONFIG and control socket ipc://RL_TMP/NAME.sock; its output goes
# to RL_TMP/NAME.log and its PID to RL_PID_NAME.  Waits (up to 5 s) until
# the control socket answers "counters"; returns 1, with the log on
# stderr, if the router exits or never answers.
rl_router()
{
	_name=$1
	_conf=$2
	shift 2
	rl_bg "$_name" "$RL_TMP/$_name.log" "$RL_BIN/hoplab-router" \
	    -c "$_conf" -s "ipc://$RL_TMP/$_name.sock" "$@"
	eval "RL_PID_$_name=$RL_LAST"
	_i=0
	while [ $_i -lt 50 ]; do
		if ! kill -0 "$RL_LAST" 2>/dev/null; then
			echo "rl_router: hoplab-router $_name exited:" >&2
			sed 's/^/    /' "$RL_TMP/$_name.log" >&2
			return 1
		fi
		rl_ctl "$_name" counters >/dev/null 2>&1 && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "rl_router: hoplab-router $_name does not answer on" \
	    "ipc://$RL_TMP/$_name.sock" >&2
	sed 's/^/    /' "$RL_TMP/$_name.log" >&2
	return 1
}

# rl_link NAME A B [OPTION...]: start hoplab-link in namespace NAME
# between its interfaces A and B (with the options) and control socket
# ipc://RL_TMP/NAME.sock, output in RL_TMP/NAME.log, PID in RL_PID_NAME;
# waits (up to 5 s) until it answers "counters"; returns 1, with the log
# on stderr, if it does not.
rl_link()
{
	_ln=$1
	_la=$2
	_lb=$3
	shift 3
	rl_bg "$_ln" "$RL_TMP/$_ln.log" "$RL_BIN/hoplab-link" -a "$_la" \
	    -b "$_lb" -s "ipc://$RL_TMP/$_ln.sock" "$@"
	eval "RL_PID_$_ln=$RL_LAST"
	_i=0
	until timeout 5 "$RL_BIN/hoplab-link" -s "ipc://$RL_TMP/$_ln.sock" \
	    --ctl counters >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 50 ] || ! kill -0 "$RL_LAST" 2>/dev/null; then
			echo "rl_link: hoplab-link $_ln does not answer:" >&2
			sed 's/^/    /' "$RL_TMP/$_ln.log" >&2
			return 1
		fi
		sleep 0.1
	done
}

# rl_ctl NAME COMMAND: one control command to router NAME; prints the
# answer.
rl_ctl()
{
	timeout 5 "$RL_BIN/hoplab-router" -s "ipc://$RL_TMP/$1.sock" \
	    --ctl "$2"
}

# rl_counter NAME IFACE KEY: one counter of router NAME's interface IFACE
# from its "counters" dump: rx_packets, rx_bytes, tx_packets, tx_bytes,
# ring_drops or a drop reason (no_route, ttl, ...; 0 when the dump does
# not list it, as it lists only reasons that happened).  Prints nothing
# when the router does not answer or has no interface IFACE.
rl_counter()
{
	rl_ctl "$1" counters 2>/dev/null | rl_counter_parse "$2" "$3"
}

# rl_counter_parse IFACE KEY: the same from a dump on stdin.  The dump
# (router/ctl.c): a header "iface up rx_packets rx_bytes tx_packets
# tx_bytes", a row per interface, under it "  drop REASON N",
# "  sojourn class ..." and "  rx ring drops N" lines, with the XDP fast
# path "  fastpath forwarded N sent N" and "  fastpath REASON N" lines
# (keys fp_forwarded, fp_sent, fp_punt_ttl, fp_pass, ...), and one
# closing line "routes N, icmp sent N (rate limited N), ...".
rl_counter_parse()
{
	awk -v ifc="$1" -v key="$2" '
	$1 == "iface" && $2 == "up" { hdr = 1; next }
	hdr && /^[^ ]/ && NF == 6 {
		cur = $1
		if (cur == ifc) {
			found = 1
			v["rx_packets"] = $3; v["rx_bytes"] = $4
			v["tx_packets"] = $5; v["tx_bytes"] = $6
		}
		next
	}
	/^  drop / && cur == ifc { v[$2] = $3 }
	/^  rx ring drops / && cur == ifc { v["ring_drops"] = $4 }
	/^  fastpath forwarded / && cur == ifc {
		v["fp_forwarded"] = $3; v["fp_sent"] = $5; next
	}
	/^  fastpath / && cur == ifc { v["fp_" $2] = $3 }
	/^routes / { cur = "" }
	END { if (found) print (key in v) ? v[key] : 0 }'
}

# rl_global NAME KEY: a router-wide counter from the dump's closing line:
# routes, icmp_sent, icmp_rate_limited, arp_requests, arp_replies,
# fragments_forwarded, fragments_made.
rl_global()
{
	rl_ctl "$1" counters 2>/dev/null | awk -v key="$2" '
	BEGIN {
		p["routes"] = "routes"; p["icmp_sent"] = "icmp sent"
		p["icmp_rate_limited"] = "rate limited"
		p["arp_requests"] = "arp requests"
		p["arp_replies"] = "arp replies"
		p["fragments_forwarded"] = "fragments forwarded"
		p["fragments_made"] = "made"
	}
	/^routes / && (key in p) &&
	    match($0, "(^|[ (])" p[key] " [0-9]+") {
		s = substr($0, RSTART, RLENGTH)
		sub(/.* /, "", s)
		print s
	}'
}

# rl_snmp NS PROTO FIELD: a counter of /proc/net/snmp in namespace NS
# (e.g. Icmp InTimeExcds, Udp NoPorts).
rl_snmp()
{
	rl_in "$1" cat /proc/net/snmp | awk -v p="$2:" -v f="$3" '
	$1 == p && !seen { for (i = 2; i <= NF; i++) col[$i] = i; seen = 1;
	    next }
	$1 == p && seen { print $col[f]; exit }'
}

_rl_ns_del()
{
	for _pid in $(ip netns pids "$1" 2>/dev/null); do
		kill -KILL "$_pid" 2>/dev/null
	done
	ip netns del "$1" 2>/dev/null
}

# rl_down: stop every process we started (SIGTERM, then SIGKILL), anything
# else left in our namespaces, delete the namespaces (and with them their
# veths and qdiscs) and RL_TMP.  Safe to call twice.
rl_down()
{
	for _pid in $RL_PIDS; do
		kill -0 "$_pid" 2>/dev/null && rl_stop "$_pid"
	done
	RL_PIDS=
	for _n in $RL_NS; do
		_rl_ns_del "$_n"
	done
	RL_NS=
	[ -z "$RL_TMP" ] || rm -rf "$RL_TMP"
	RL_TMP=
	return 0
}
