#!/bin/sh
#
# lab.sh: build, rewire, inspect and tear down hoplab's network-namespace lab.
#
# The lab turns one Linux machine into a bench of "machines": one network
# namespace per host (PREFIX-gen and PREFIX-<router>), each with its own
# management interface mgmt0 on the bridge PREFIX-mgmt in the root namespace
# (198.19.K.0/24, the controller is 198.19.K.1, gen .10, routers .11, .12,
# ...) and its own hoplab-agent listening on port 7700.  `wire N` recables
# the data links as the chain gen:tx -> R1 -> ... -> RN -> gen:rx, as a
# person would recable the bench between variants.  Names, addresses and the
# wiring table are fixed by docs/architecture.md ("The namespace lab"); all
# addresses are from 198.18.0.0/15 (RFC 2544 benchmarking range).
#
# Impaired links (docs/architecture.md "Impaired links"): `wires X-Y...`
# adds a "wire" host per link, namespace PREFIX-w-X-Y with its own agent
# (inventory name w-X-Y, management 198.19.K.200 on), and `wire N X-Y...`
# splices those links through their wire hosts: X -- wa [w-X-Y] wb -- Y,
# two veth pairs with no address, IPv6 and offloads off, in which the
# agent runs hoplab-link.  The routers' addresses and ARP are unchanged:
# the wire is transparent at L2.
#
# Topology labs (docs/architecture.md "Topology labs"): `up --hosts H...`
# builds exactly the hosts named (no generator host; management addresses
# 198.19.K.10, .11, ... in the order given) and `links X:IFX-Y:IFY...`
# recables their data links: every data interface of every host is
# deleted, then one veth pair per link is made, X's end named IFX and Y's
# IFY (the plan names a host's interface after the host at the far end),
# IPv6 and offloads off, up, without addresses (the agents add them).
# `links --switch S` makes host S a switch (docs/plans.md "Switches"): a
# bridge named S in namespace PREFIX-S, STP off, forward delay 0, IPv6
# off, no address, with every data interface of S as its port; it goes
# with the namespace at `down`.
# A pair already cabled as asked is kept, so that the addresses a user
# gave an external router by hand survive the next run's cabling.  An
# impaired topology link X:IFX-Y:IFY/w goes through the wire host w-X-Y
# that `wires X-Y` added, as in the chain: X:IFX -- wa [w-X-Y] wb -- Y:IFY;
# X:IFX-Y:IFY/w=NAME through w-NAME (`wires NAME`: a parallel link's name,
# such as R1-R2.2, docs/plans.md "Parallel links and ECMP").
#
# State lives in STATEDIR (default /run/hoplab/PREFIX): lab.env (prefix, K,
# routers, kind: chain or hosts), inventory.yaml (lib/inventory.h format), NAME.pid, NAME.log,
# each agent's run folder NAME/, and keys/: a CURVE key pair per host and
# one for the controller, made by `hoplab keygen` at every `up`.  Each
# agent gets its own key and the controller's public key (--authorized);
# the inventory names the controller's key pair and every agent's public
# key, so the lab is encrypted and authenticated without the user doing
# anything.  `down` works from that state, from the
# lab's known names, or from what it finds on the machine, so it also cleans
# up after a crash or a half-built lab.
#
# It deliberately does not: give data interfaces any address (the agents and
# the generator own those), touch any namespace, link or process that does
# not carry the lab's prefix, keep keys from one `up` to the next, or kill
# processes by name
# (agents are killed by their recorded PIDs, after checking that the PID is
# still that agent; processes left inside the lab's own namespaces are
# killed by PID as found with `ip netns pids`).
#
# POSIX sh; needs iproute2 (ip, ss), procps (sysctl), util-linux (setsid)
# and, for wire hosts, ethtool.

set -u

prog=lab.sh
port=7700
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

prefix=hl
k=0
bindir=$here/../bin
statedir=

building=0	# 1 while `up` builds: a failure then tears the lab down
removed=0	# things `down` removed

usage()
{
	cat >&2 <<EOF
usage: $prog [-p PREFIX] [-k K] [-b BINDIR] [-s STATEDIR] up [ROUTER...]
       $prog [-p PREFIX] [-k K] [-b BINDIR] [-s STATEDIR] up --hosts HOST...
       $prog [-p PREFIX] [-s STATEDIR] links [--gro] [--switch S]... [X:IFX-Y:IFY[/w]...]
       $prog [-p PREFIX] [-s STATEDIR] wire [--exits] [--gro] N [LINK...]
       $prog [-p PREFIX] [-s STATEDIR] wires LINK...
       $prog [-p PREFIX] [-s STATEDIR] status
       $prog [-p PREFIX] [-s STATEDIR] down [ROUTER...]

  -b BINDIR    where hoplab-agent is (default: ../bin beside this script)
  -k K         management network 198.19.K.0/24 (default 0)
  -p PREFIX    name prefix of every namespace and link (default hl)
  -s STATEDIR  pid files, logs, inventory (default /run/hoplab/PREFIX)

  up      build the lab (routers default to A B C); an existing lab with
          the same prefix is brought down first
  up --hosts
          build a topology lab: exactly these hosts, no generator host
          (names: letters, digits, '_'), management .10, .11, ...
  links   (topology lab) cable one veth pair per X:IFX-Y:IFY (IFX in
          host X, IFY in host Y), IPv6 and offloads off, no addresses;
          with /w through the wire host: X:IFX -- wa [w-X-Y] wb -- Y:IFY,
          with /w=NAME through w-NAME (a named link, e.g. R1-R2.2).
          Pairs already cabled so are kept (and their addresses), every
          other data interface is deleted.  --switch S makes host S an
          L2 switch: a bridge S in its namespace (STP off, no address),
          every data interface of S its port
  wire N  rebuild the data links as gen:tx -> R1 -> ... -> RN -> gen:rx;
          each LINK given (gen-R1, Ri-Rj or Ri-gen, in the chain's order)
          goes through its wire host: X -- wa [w-X-Y] wb -- Y
  wire --exits N
          the chain gen:tx -> R1 -> ... -> RN without the link back;
          instead every router's "exit" is a port (gen:x1 .. gen:xN) of
          the bridge "rx" in gen, so gen receives from each router on rx
          (concurrent variants); LINKs as above, but not Ri-gen
  wires   add a wire host w-X-Y (namespace, agent, inventory entry) per
          LINK (of the chain, or X-Y of two hosts of a topology lab, or
          a topology link's name: letters, digits, '_', '.', '-'), for
          hoplab-link; hosts already running are kept
  --gro   (links, wire) GRO on at every data link's ends, for
          hoplab-router's XDP fast path: a veth passes frames XDP
          redirected into it only to a peer that polls with NAPI, which
          GRO turns on (docs/router.md "The fast path"); links given
          without it have GRO off
  status  list namespaces, agents and links
  down    stop the agents, delete namespaces, bridge and state
EOF
	exit 2
}

die()
{
	echo "$prog: $*" >&2
	if [ "$building" = 1 ]; then
		building=0
		echo "$prog: removing the half-built lab" >&2
		teardown >&2
	fi
	exit 1
}

# Run a command; on failure stop with the command and what it said.
run()
{
	r_out=$("$@" 2>&1) || die "$* failed: $r_out"
}

need_root()
{
	[ "$(id -u)" = 0 ] || die "not root; run with sudo"
}

# True when $1 is a non-empty string of letters and digits.
is_name()
{
	case $1 in
	''|*[!A-Za-z0-9]*) return 1 ;;
	esac
	return 0
}

is_uint()
{
	case $1 in
	''|*[!0-9]*) return 1 ;;
	esac
	[ ${#1} -le 9 ]
}

check_prefix()
{
	case $prefix in
	[a-z]*) ;;
	*) die "prefix '$prefix' must start with a lower-case letter" ;;
	esac
	case $prefix in
	*[!a-z0-9]*) die "prefix '$prefix' may hold only a-z and 0-9" ;;
	esac
	[ ${#prefix} -le 8 ] || die "prefix '$prefix' is longer than 8 characters"
}

# Check the router names for `up`: names, no duplicates, short enough that
# PREFIX-m-NAME fits the kernel's 15-character interface names.
check_routers()
{
	cr_seen=" "
	cr_n=0
	for cr_h in gen "$@"; do
		is_name "$cr_h" || die "host name '$cr_h' may hold only letters and digits"
		case $cr_seen in
		*" $cr_h "*) die "host name '$cr_h' given twice (gen is the generator)" ;;
		esac
		cr_seen="$cr_seen$cr_h "
		cr_if=$prefix-m-$cr_h
		[ ${#cr_if} -le 15 ] || die "interface name $cr_if is longer than" \
		    "15 characters; use a shorter prefix or router name"
		cr_n=$((cr_n + 1))
	done
	[ "$cr_n" -ge 2 ] || die "a lab needs at least one router"
	[ "$cr_n" -le 100 ] || die "at most 99 routers (data links use 198.18.1..99.0/24)"
}

# True when $1 is a topology host or interface name: letters, digits, '_'.
is_hname()
{
	case $1 in
	''|*[!A-Za-z0-9_]*) return 1 ;;
	esac
	return 0
}

# Check the host names for `up --hosts`, as check_routers does.
check_hosts()
{
	ch_seen=" "
	ch_n=0
	for ch_h in "$@"; do
		is_hname "$ch_h" || die "host name '$ch_h' may hold only letters, digits and '_'"
		[ "$ch_h" != gen ] || die "host name 'gen' is the chain lab's generator"
		case $ch_seen in
		*" $ch_h "*) die "host name '$ch_h' given twice" ;;
		esac
		ch_seen="$ch_seen$ch_h "
		ch_if=$prefix-m-$ch_h
		[ ${#ch_if} -le 15 ] || die "interface name $ch_if is longer than" \
		    "15 characters; use a shorter prefix or host name"
		ch_n=$((ch_n + 1))
	done
	[ "$ch_n" -ge 1 ] || die "up --hosts: name at least one host"
	[ "$ch_n" -le 40 ] || die "at most 40 hosts (198.19.K.10..49)"
}

# True when $1 is a link name X-Y of two host names.
# A topology link's name (R1-R2.2, a name:): 1..25 of [A-Za-z0-9_.-].
is_wname()
{
	case $1 in
	''|*[!A-Za-z0-9_.-]*) return 1 ;;
	esac
	[ ${#1} -le 25 ]
}

is_link()
{
	case $1 in
	*-*-*|-*|*-) return 1 ;;
	*-*) is_hname "${1%-*}" && is_hname "${1#*-}" ;;
	*) return 1 ;;
	esac
}

# Read STATEDIR/lab.env into lab_k, lab_routers, lab_wires and
# lab_bindir; false when absent.
load_state()
{
	[ -r "$statedir/lab.env" ] || return 1
	lab_k=$(sed -n 's/^k=//p' "$statedir/lab.env")
	lab_routers=$(sed -n 's/^routers=//p' "$statedir/lab.env")
	lab_wires=$(sed -n 's/^wires=//p' "$statedir/lab.env")
	lab_bindir=$(sed -n 's/^bindir=//p' "$statedir/lab.env")
	lab_kind=$(sed -n 's/^kind=//p' "$statedir/lab.env")
	[ -n "$lab_kind" ] || lab_kind=chain
	is_uint "$lab_k" || die "$statedir/lab.env: bad k '$lab_k'"
	for ls_r in $lab_routers; do
		is_hname "$ls_r" || die "$statedir/lab.env: bad router '$ls_r'"
	done
	for ls_r in $lab_wires; do
		is_link "$ls_r" || is_wname "$ls_r" ||
		    die "$statedir/lab.env: bad wire '$ls_r'"
	done
	return 0
}

ns_exists()
{
	[ -e "/run/netns/$1" ]
}

link_exists()
{
	ip link show dev "$1" >/dev/null 2>&1
}

# Seconds since boot in hundredths (CLOCK_BOOTTIME, for timeouts).
uptime_cs()
{
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

# True when /proc says PID runs and is not a zombie.
alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	al_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$al_st" ] && [ "$al_st" != Z ]
}

# True when PID is still the agent NAME that this lab started (guards
# against a recycled PID after a crash).
is_agent()
{
	alive "$1" || return 1
	ia_cmd=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)
	case $ia_cmd in
	*hoplab-agent*" -N $2 "*) return 0 ;;
	esac
	return 1
}

# Send SIGTERM to the PIDs in $*, wait up to 3 s, then SIGKILL the rest.
stop_pids()
{
	for sp_p in "$@"; do
		kill -TERM "$sp_p" 2>/dev/null
	done
	sp_i=0
	while [ $sp_i -lt 30 ]; do
		sp_left=
		for sp_p in "$@"; do
			alive "$sp_p" && sp_left="$sp_left $sp_p"
		done
		[ -z "$sp_left" ] && return 0
		sleep 0.1
		sp_i=$((sp_i + 1))
	done
	for sp_p in $sp_left; do
		echo "down: pid $sp_p ignored SIGTERM for 3 s; sending SIGKILL"
		kill -KILL "$sp_p" 2>/dev/null
	done
	sleep 0.1
}

# The hosts `down` looks for: gen, the recorded routers, the default
# routers, those named on the command line and any with a PREFIX-m-NAME link.
known_hosts()
{
	kh_rec=
	lab_wires=
	load_state && kh_rec=$lab_routers
	kh_found=$(ip -o link show 2>/dev/null | awk -F': ' '{ print $2 }' |
	    sed -n "s/^$prefix-m-\([A-Za-z0-9_]*\)@.*/\1/p")
	kh_found2=$(ip netns list 2>/dev/null | awk '{ print $1 }' |
	    sed -n "s/^$prefix-\([A-Za-z0-9_]*\)$/\1/p")
	kh_wires=$(ip netns list 2>/dev/null | awk '{ print $1 }' |
	    sed -n "s/^$prefix-\(w-[A-Za-z0-9_.-]*\)$/\1/p")
	for kh_w in $lab_wires; do
		kh_wires="$kh_wires w-$kh_w"
	done
	echo gen $kh_rec A B C "$@" $kh_found $kh_found2 $kh_wires |
	    tr ' ' '\n' | awk 'NF && !seen[$0]++'
}

# Stop the agents and every process left in the lab's namespaces.
stop_agents()
{
	sa_pids=
	for sa_h in "$@"; do
		[ -r "$statedir/$sa_h.pid" ] || continue
		sa_p=$(cat "$statedir/$sa_h.pid")
		is_uint "$sa_p" || continue
		if is_agent "$sa_p" "$sa_h"; then
			sa_pids="$sa_pids $sa_p"
			echo "down: stopping agent $sa_h (pid $sa_p)"
			removed=$((removed + 1))
		fi
	done
	[ -n "$sa_pids" ] && stop_pids $sa_pids
	sa_pids=
	for sa_h in "$@"; do
		ns_exists "$prefix-$sa_h" || continue
		for sa_p in $(ip netns pids "$prefix-$sa_h" 2>/dev/null); do
			sa_c=$(cat "/proc/$sa_p/comm" 2>/dev/null)
			echo "down: stopping pid $sa_p ($sa_c) left in $prefix-$sa_h"
			sa_pids="$sa_pids $sa_p"
			removed=$((removed + 1))
		done
	done
	[ -n "$sa_pids" ] && stop_pids $sa_pids
	return 0
}

# Remove everything of lab PREFIX that exists; print what was removed.
teardown()
{
	td_hosts=$(known_hosts "$@")
	stop_agents $td_hosts
	for td_h in $td_hosts; do
		if ns_exists "$prefix-$td_h"; then
			ip netns del "$prefix-$td_h" &&
			    echo "down: deleted namespace $prefix-$td_h"
			removed=$((removed + 1))
		fi
		if link_exists "$prefix-m-$td_h"; then
			ip link del dev "$prefix-m-$td_h" 2>/dev/null &&
			    echo "down: deleted link $prefix-m-$td_h"
			removed=$((removed + 1))
		fi
	done
	# Wire hosts' bridge ports (their namespace usually took them along).
	for td_l in $(ip -o link show 2>/dev/null | awk -F': ' '{ print $2 }' |
	    sed -n "s/^\($prefix-mw[0-9]*\)@.*/\1/p"); do
		ip link del dev "$td_l" 2>/dev/null &&
		    echo "down: deleted link $td_l"
		removed=$((removed + 1))
	done
	if link_exists "$prefix-mgmt"; then
		ip link del dev "$prefix-mgmt" &&
		    echo "down: deleted bridge $prefix-mgmt"
		removed=$((removed + 1))
	fi
	# Remove a state folder only if it is the lab's: -s may name any path.
	if [ -e "$statedir/lab.env" ] ||
	    { [ -d "$statedir" ] && [ "$statedir" = "/run/hoplab/$prefix" ]; }; then
		rm -rf -- "$statedir" && echo "down: removed $statedir"
		removed=$((removed + 1))
	elif [ -d "$statedir" ]; then
		echo "down: left $statedir alone (no lab.env in it)"
	fi
	# The default parent /run/hoplab goes when the last lab has gone.
	[ "$statedir" = "/run/hoplab/$prefix" ] && rmdir /run/hoplab 2>/dev/null
	return 0
}

cmd_down()
{
	need_root
	teardown "$@"
	[ "$removed" -gt 0 ] || echo "down: nothing to remove for lab $prefix"
	cd_left=
	for cd_h in gen A B C "$@"; do
		ns_exists "$prefix-$cd_h" && cd_left="$cd_left $prefix-$cd_h"
	done
	link_exists "$prefix-mgmt" && cd_left="$cd_left $prefix-mgmt"
	[ -z "$cd_left" ] || die "down: could not remove$cd_left"
	return 0
}

# Disable IPv6 on interface IF in namespace NS ("" for the root namespace).
no_ipv6()
{
	if [ -z "$1" ]; then
		n6_f=/proc/sys/net/ipv6/conf/$2/disable_ipv6
		[ -w "$n6_f" ] && echo 1 >"$n6_f"
		return 0
	fi
	# slashes: an interface name may hold a dot (R2.2, a parallel link)
	run ip netns exec "$1" sysctl -q -w "net/ipv6/conf/$2/disable_ipv6=1"
}

make_bridge()
{
	mb_br=$prefix-mgmt
	run ip link add name "$mb_br" type bridge forward_delay 0
	no_ipv6 "" "$mb_br"
	run ip addr add "198.19.$k.1/24" dev "$mb_br"
	run ip link set dev "$mb_br" up
}

# Create host NAME with management address ADDR (and the bridge port
# MLINK, default PREFIX-m-NAME).
make_host()
{
	mh_ns=$prefix-$1
	mh_m=${3:-$prefix-m-$1}
	run ip netns add "$mh_ns"
	run ip -n "$mh_ns" link set dev lo up
	run ip netns exec "$mh_ns" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
	    net.ipv6.conf.default.disable_ipv6=1
	run ip link add name "$mh_m" type veth peer name mgmt0 netns "$mh_ns"
	no_ipv6 "" "$mh_m"
	run ip link set dev "$mh_m" master "$prefix-mgmt" up
	run ip -n "$mh_ns" addr add "$2/24" dev mgmt0
	run ip -n "$mh_ns" link set dev mgmt0 up
}

# Start the agent of host NAME on ADDR in its namespace, in the background.
# --allow-exec: a plan's exec: commands run in the lab's hosts (issue 14);
# only this lab's controller key is admitted.
start_agent()
{
	mkdir -p "$statedir/$1" && chmod 0700 "$statedir/$1" ||
	    die "cannot create $statedir/$1"
	setsid ip netns exec "$prefix-$1" "$bindir/hoplab-agent" -d -N "$1" \
	    --allow-exec \
	    -l "$2:$port" -r "$statedir/$1" -k "$statedir/keys/$1.key" \
	    -a "$statedir/keys/controller.pub" \
	    </dev/null >"$statedir/$1.log" 2>&1 &
	echo $! >"$statedir/$1.pid"
}

# True when something listens on ADDR:port in namespace NS.
listening()
{
	ip netns exec "$1" ss -Hltn "sport = :$port" 2>/dev/null |
	    awk -v a="$2:$port" -v p="$port" \
	    '$4 == a || $4 == "0.0.0.0:" p || $4 == "*:" p { f = 1 }
	    END { exit !f }'
}

agent_failed()
{
	echo "$prog: agent $1 $3; last lines of its log ($statedir/$1.log):" >&2
	tail -n 15 "$statedir/$1.log" 2>/dev/null | sed 's/^/  /' >&2
	die "lab $prefix not built"
}

# Wait up to 5 s until the agent of host NAME listens on ADDR:port.
wait_agent()
{
	w_pid=$(cat "$statedir/$1.pid")
	w_end=$(($(uptime_cs) + 500))
	while [ "$(uptime_cs)" -lt "$w_end" ]; do
		listening "$prefix-$1" "$2" && return 0
		alive "$w_pid" || agent_failed "$1" "$2" \
		    "exited before listening on $2:$port"
		sleep 0.1
	done
	listening "$prefix-$1" "$2" && return 0
	agent_failed "$1" "$2" "did not listen on $2:$port within 5 s"
}

# CURVE key pairs for the controller and every host, in STATEDIR/keys.
make_keys()
{
	[ -x "$bindir/hoplab" ] || die "no $bindir/hoplab to make CURVE keys;" \
	    "run make (or give -b BINDIR)"
	mk_out=$("$bindir/hoplab" keygen "$statedir/keys" controller gen "$@" \
	    2>&1) || die "hoplab keygen failed: $mk_out"
}

# The public key (Z85) in STATEDIR/keys/NAME.pub.
public_key()
{
	sed -n 's/^public-key = "\(.*\)"$/\1/p' "$statedir/keys/$1.pub"
}

write_inventory()
{
	wi_f=$statedir/inventory.yaml
	{
		echo "# hoplab namespace lab $prefix, written by deploy/lab.sh up"
		echo "lab: $prefix"
		echo "controller_key: keys/controller.key"
		echo "agents:"
		wi_i=10
		for wi_h in $(lab_hosts "$@"); do
			echo "  - name: $wi_h"
			echo "    address: 198.19.$k.$wi_i"
			echo "    port: $port"
			if [ "$lab_kind" = hosts ]; then
				:	# interfaces named by the plan's links
			elif [ "$wi_h" = gen ]; then
				echo "    interfaces: [tx, rx]"
			else
				echo "    interfaces: [in, out]"
			fi
			echo "    public_key: \"$(public_key "$wi_h")\""
			wi_i=$((wi_i + 1))
		done
		wi_i=1
		for wi_w in $lab_wires; do
			echo "  - name: w-$wi_w"
			echo "    address: $(wire_addr $wi_i)"
			echo "    port: $port"
			echo "    interfaces: [wa, wb]"
			echo "    public_key: \"$(public_key "w-$wi_w")\""
			wi_i=$((wi_i + 1))
		done
	} >"$wi_f.tmp" && mv "$wi_f.tmp" "$wi_f" || die "cannot write $wi_f"
}

write_env()
{
	{
		echo "# hoplab namespace lab, written by deploy/lab.sh up"
		echo "prefix=$prefix"
		echo "k=$k"
		echo "routers=$*"
		echo "bindir=$bindir"
		echo "wires=$lab_wires"
		echo "kind=$lab_kind"
	} >"$statedir/lab.env.tmp" && mv "$statedir/lab.env.tmp" \
	    "$statedir/lab.env" || die "cannot write $statedir/lab.env"
}

# The lab's hosts: gen and the routers $*, or only $* in a topology lab.
lab_hosts()
{
	[ "$lab_kind" = hosts ] || echo gen
	echo "$@"
}

cmd_up()
{
	need_root
	lab_kind=chain
	if [ "${1:-}" = --hosts ]; then
		shift
		lab_kind=hosts
		check_hosts "$@"
	else
		[ $# -gt 0 ] || set -- A B C
		check_routers "$@"
	fi
	[ -x "$bindir/hoplab-agent" ] || die "no agent binary" \
	    "$bindir/hoplab-agent; run make (or give -b BINDIR)"
	bindir=$(cd "$bindir" && pwd)
	if [ -d "$statedir" ] && [ ! -e "$statedir/lab.env" ] &&
	    [ -n "$(ls -A "$statedir")" ]; then
		die "state folder $statedir holds files but no lab.env;" \
		    "choose another -s (down removes it whole)"
	fi
	teardown "$@"
	u_used=$(ip -o -4 addr show to "198.19.$k.0/24" | awk '{ print $2 }')
	[ -z "$u_used" ] || die "198.19.$k.0/24 is already used by" \
	    "$(echo $u_used | tr "\n" " ")(another lab?); choose another -k"
	building=1
	trap 'die "interrupted"' INT TERM HUP PIPE
	mkdir -p "$statedir" || die "cannot create $statedir"
	lab_wires=
	write_env "$@"
	make_keys "$@"
	make_bridge
	u_i=10
	for u_h in $(lab_hosts "$@"); do
		make_host "$u_h" "198.19.$k.$u_i"
		u_i=$((u_i + 1))
	done
	u_i=10
	for u_h in $(lab_hosts "$@"); do
		start_agent "$u_h" "198.19.$k.$u_i"
		u_i=$((u_i + 1))
	done
	u_i=10
	for u_h in $(lab_hosts "$@"); do
		wait_agent "$u_h" "198.19.$k.$u_i"
		u_i=$((u_i + 1))
	done
	write_inventory "$@"
	building=0
	trap - INT TERM HUP PIPE
	echo "up: lab $prefix:" $(lab_hosts "$@") "on $prefix-mgmt" \
	    "198.19.$k.0/24, agents on port $port"
	echo "up: inventory $statedir/inventory.yaml"
}

# Delete interface IF in namespace NS if it is there (a veth takes its peer).
del_if()
{
	if ip -n "$1" link show dev "$2" >/dev/null 2>&1; then
		run ip -n "$1" link del dev "$2"
	fi
}

# Create the veth NS1:IF1 -- NS2:IF2, IPv6 off, both ends up; with a
# fifth argument "off", offloads off on both ends (a wire: hoplab-link
# reads and writes frames through AF_PACKET, which must see real frames,
# not 64 KB segments waiting for "the hardware" to cut and checksum them).
make_link()
{
	run ip link add name "$2" netns "$1" type veth peer name "$4" netns "$3"
	no_ipv6 "$1" "$2"
	no_ipv6 "$3" "$4"
	if [ "${5:-}" = off ]; then
		offload_off "$1" "$2"
		offload_off "$3" "$4"
	fi
	if [ "$lab_gro" = 1 ]; then
		gro_set "$1" "$2" on
		gro_set "$3" "$4" on
	fi
	run ip -n "$1" link set dev "$2" up
	run ip -n "$3" link set dev "$4" up
}

# GRO on (or off) at NS:IF.  wire --gro and links --gro turn it on at
# every data link's ends for hoplab-router's XDP fast path: a veth hands
# a frame XDP redirected into it to its peer only when the peer polls
# with NAPI, which GRO turns on (docs/router.md, "The fast path").
gro_set()
{
	run ip netns exec "$1" ethtool -K "$2" gro "$3"
}
lab_gro=0

offload_off()
{
	run ip netns exec "$1" ethtool -K "$2" tx off rx off tso off gso off \
	    gro off
}

# Management address of wire host number I (1-based): 198.19.K.(199 + I).
wire_addr()
{
	echo "198.19.$k.$((199 + $1))"
}

# True when WORD is one of the other arguments.
in_list()
{
	il_w=$1
	shift
	for il_x in "$@"; do
		[ "$il_x" = "$il_w" ] && return 0
	done
	return 1
}

# Check that LINK is a link of the lab's chain: gen-R1, Ri-R(i+1), Ri-gen.
check_link()
{
	is_link "$1" || die "link '$1': expected X-Y (gen-A, A-B, B-gen...)"
	cl_prev=gen
	for cl_r in $lab_routers; do
		[ "$1" = "$cl_prev-$cl_r" ] && return 0
		[ "$1" = "$cl_r-gen" ] && return 0
		cl_prev=$cl_r
	done
	die "link '$1' is not a link of the chain gen $lab_routers" \
	    "(gen-R1, Ri-R(i+1) or Ri-gen)"
}

# Check that LINK X-Y joins two hosts of a topology lab; any other name
# (a plan's link name, R1-R2.2 or its name:) of [A-Za-z0-9_.-] is taken
# as it is.
check_hlink()
{
	is_wname "$1" || die "link '$1': expected X-Y of two hosts of the" \
	    "lab or a link name of 1..25 letters, digits, '_', '.', '-'"
	is_link "$1" || return 0
	in_list "${1%-*}" $lab_routers && in_list "${1#*-}" $lab_routers ||
	    die "link '$1': a host is not in lab $prefix (hosts: $lab_routers)"
}

# Refuse subcommand $1 in a topology lab (up --hosts): it has no chain.
chain_only()
{
	[ "$lab_kind" = chain ] || die "$1: lab $prefix is a topology lab" \
	    "(up --hosts); recable it with: $prog -p $prefix links X:IFX-Y:IFY..."
}

cmd_wires()
{
	need_root
	[ $# -ge 1 ] || usage
	load_state || die "no lab $prefix ($statedir/lab.env missing);" \
	    "run: $prog -p $prefix up"
	k=$lab_k
	bindir=$lab_bindir
	cws_new=
	for cws_l in "$@"; do
		if [ "$lab_kind" = hosts ]; then
			check_hlink "$cws_l"
		else
			check_link "$cws_l"
		fi
		in_list "$cws_l" $lab_wires || lab_wires="${lab_wires:+$lab_wires }$cws_l"
		cws_p=$statedir/w-$cws_l.pid
		if ns_exists "$prefix-w-$cws_l" && [ -r "$cws_p" ] &&
		    is_agent "$(cat "$cws_p")" "w-$cws_l"; then
			continue
		fi
		in_list "$cws_l" $cws_new || cws_new="$cws_new $cws_l"
	done
	[ $(echo $lab_wires | wc -w) -le 55 ] ||
	    die "at most 55 wire hosts (198.19.$k.200..254)"
	write_env $lab_routers
	[ -n "$cws_new" ] || { echo "wires: $lab_wires (all running)"; return 0; }
	cws_names=
	for cws_l in $cws_new; do
		cws_names="$cws_names w-$cws_l"
	done
	for cws_h in $cws_names; do	# keygen never overwrites a key
		rm -f "$statedir/keys/$cws_h.key" "$statedir/keys/$cws_h.pub"
	done
	cws_out=$("$bindir/hoplab" keygen "$statedir/keys" $cws_names 2>&1) ||
	    die "hoplab keygen failed: $cws_out"
	for cws_l in $cws_new; do
		if ns_exists "$prefix-w-$cws_l"; then	# a dead one: again
			stop_agents "w-$cws_l" >/dev/null
			run ip netns del "$prefix-w-$cws_l"
		fi
		cws_i=$(wire_number "$cws_l")
		make_host "w-$cws_l" "$(wire_addr "$cws_i")" "$prefix-mw$cws_i"
		start_agent "w-$cws_l" "$(wire_addr "$cws_i")"
	done
	for cws_l in $cws_new; do
		wait_agent "w-$cws_l" "$(wire_addr "$(wire_number "$cws_l")")"
	done
	write_inventory $lab_routers
	echo "wires: $lab_wires (started:$cws_new)"
}

# The place (from 1) of LINK in lab_wires.
wire_number()
{
	wn_i=1
	for wn_l in $lab_wires; do
		[ "$wn_l" = "$1" ] && { echo $wn_i; return 0; }
		wn_i=$((wn_i + 1))
	done
	die "link $1 has no wire host; run: $prog -p $prefix wires $1"
}

# One hop of the chain: NS1:IF1 -- NS2:IF2 for link LINK, through its wire
# host when LINK is one of cw_links.
hop()
{
	if in_list "$5" $cw_links; then
		make_link "$1" "$2" "$prefix-w-$5" wa off
		make_link "$prefix-w-$5" wb "$3" "$4" off
		cw_path="$cw_path -> [w-$5]"
		cw_used="$cw_used $5"
	else
		make_link "$1" "$2" "$3" "$4"
	fi
}

# wire --exits: every router's exit a port of the bridge rx in gen.
wire_exits()
{
	run ip -n "$prefix-gen" link add name rx type bridge stp_state 0 \
	    forward_delay 0
	no_ipv6 "$prefix-gen" rx
	run ip -n "$prefix-gen" link set dev rx up
	we_i=1
	for we_h in "$@"; do
		[ "$we_i" -le "$cw_n" ] || break
		make_link "$prefix-$we_h" exit "$prefix-gen" "x$we_i"
		run ip -n "$prefix-gen" link set dev "x$we_i" master rx
		cw_path="$cw_path, $we_h:exit -> gen:x$we_i"
		we_i=$((we_i + 1))
	done
}

cmd_wire()
{
	need_root
	[ $# -ge 1 ] || usage
	load_state || die "no lab $prefix ($statedir/lab.env missing);" \
	    "run: $prog -p $prefix up"
	chain_only wire
	cw_exits=0
	while [ "${1:-}" = --exits ] || [ "${1:-}" = --gro ]; do
		[ "$1" = --exits ] && cw_exits=1
		[ "$1" = --gro ] && lab_gro=1
		shift
		[ $# -ge 1 ] || usage
	done
	cw_n=$1
	shift
	cw_links="$*"
	set -- $lab_routers
	is_uint "$cw_n" && [ "$cw_n" -ge 1 ] && [ "$cw_n" -le $# ] ||
	    die "wire: N must be 1..$# (the lab's routers: $*)"
	for cw_h in gen "$@"; do
		ns_exists "$prefix-$cw_h" || die "namespace $prefix-$cw_h is missing;" \
		    "run: $prog -p $prefix up"
	done
	for cw_l in $cw_links; do
		[ "$cw_exits" = 0 ] || [ "${cw_l#*-}" != gen ] ||
		    die "wire --exits: link $cw_l: the exits are not spliced"
		in_list "$cw_l" $lab_wires && ns_exists "$prefix-w-$cw_l" ||
		    die "wire: link $cw_l has no wire host;" \
		    "run: $prog -p $prefix wires $cw_l"
	done
	del_if "$prefix-gen" tx
	del_if "$prefix-gen" rx
	for cw_h in "$@"; do
		del_if "$prefix-$cw_h" in
		del_if "$prefix-$cw_h" out
		del_if "$prefix-$cw_h" exit
	done
	for cw_l in $lab_wires; do
		if ns_exists "$prefix-w-$cw_l"; then
			del_if "$prefix-w-$cw_l" wa
			del_if "$prefix-w-$cw_l" wb
		fi
	done
	cw_ns=$prefix-gen
	cw_if=tx
	cw_prev=gen
	cw_path=gen:tx
	cw_used=
	cw_i=0
	for cw_h in "$@"; do
		[ $cw_i -lt "$cw_n" ] || break
		hop "$cw_ns" "$cw_if" "$prefix-$cw_h" in "$cw_prev-$cw_h"
		cw_ns=$prefix-$cw_h
		cw_if=out
		cw_prev=$cw_h
		cw_path="$cw_path -> $cw_h"
		cw_i=$((cw_i + 1))
	done
	if [ "$cw_exits" = 1 ]; then
		wire_exits "$@"
	else
		hop "$cw_ns" "$cw_if" "$prefix-gen" rx "$cw_prev-gen"
		cw_path="$cw_path -> gen:rx"
	fi
	for cw_l in $cw_links; do
		in_list "$cw_l" $cw_used ||
		    die "wire: link $cw_l is not in the chain $cw_path"
	done
	echo "wired: $cw_path"
}

# Print "IF -> NS:PEER STATE" for each data interface of namespace NS.
show_links()
{
	ip -n "$1" -o link show 2>/dev/null | awk -F': ' '{ print $2 }' |
	    sed -n 's/^\(tx\|rx\|in\|out\|exit\|x[0-9]\|wa\|wb\)@if\([0-9]*\)$/\1 \2/p' |
	    while read -r sl_if sl_idx; do
		sl_line=$(ip -n "$1" -o link show dev "$sl_if")
		sl_peerns=$(echo "$sl_line" | sed -n 's/.* link-netns \([^ ]*\).*/\1/p')
		sl_state=$(echo "$sl_line" | sed -n 's/.* state \([A-Z]*\).*/\1/p')
		sl_peer=$(ip -n "$sl_peerns" -o link show 2>/dev/null |
		    awk -F': ' -v i="$sl_idx" '$1 == i { sub(/@.*/, "", $2); print $2 }')
		echo "  $1:$sl_if -> $sl_peerns:$sl_peer $sl_state"
	done
}

# As show_links, for every data interface (all but lo and mgmt0) of a
# topology host.
show_topo_links()
{
	for stl_if in $(data_ifaces "$1"); do
		stl_line=$(ip -n "$1" -o link show dev "$stl_if")
		stl_idx=$(echo "$stl_line" | sed -n 's/^[0-9]*: [^@]*@if\([0-9]*\):.*/\1/p')
		stl_peerns=$(echo "$stl_line" | sed -n 's/.* link-netns \([^ ]*\).*/\1/p')
		stl_state=$(echo "$stl_line" | sed -n 's/.* state \([A-Z]*\).*/\1/p')
		if [ -z "$stl_peerns" ] && ip -n "$1" -d link show dev "$stl_if" |
		    grep -q '^ *bridge '; then	# a switch (links --switch)
			echo "  $1:$stl_if switch, ports:" $(ip -n "$1" -o link \
			    show master "$stl_if" | awk -F': ' '{ print $2 }' |
			    sed 's/@.*//') "$stl_state"
			continue
		fi
		stl_peer=$(ip -n "$stl_peerns" -o link show 2>/dev/null |
		    awk -F': ' -v i="$stl_idx" '$1 == i { sub(/@.*/, "", $2); print $2 }')
		echo "  $1:$stl_if -> $stl_peerns:$stl_peer $stl_state"
	done
}

# The data interfaces of namespace NS: every one but lo and mgmt0.
data_ifaces()
{
	ip -n "$1" -o link show 2>/dev/null | awk -F': ' '{ print $2 }' |
	    sed 's/@.*//' | grep -v -x -e lo -e mgmt0
}

# Check one X:IFX-Y:IFY[/w] of `links` against the lab's hosts; with /w,
# its wire host w-X-Y must be there (`wires X-Y`).
check_tlink()
{
	ct_s=${1%%/w*}
	ct_x=${ct_s%%-*}
	ct_y=${ct_s#*-}
	case $ct_s in
	*:*-*:*) ;;
	*) die "links: '$1': expected X:IFX-Y:IFY (host:interface at each end)" ;;
	esac
	for ct_e in "$ct_x" "$ct_y"; do
		ct_h=${ct_e%%:*}
		ct_i=${ct_e#*:}
		is_hname "$ct_h" && is_hname "${ct_i%.[0-9]*}" &&
		    is_hname "${ct_i##*.}" ||
		    die "links: '$1': names hold only letters, digits and '_'" \
		    "(an interface may end in .N)"
		[ ${#ct_i} -le 15 ] || die "links: '$1': interface $ct_i is" \
		    "longer than 15 characters"
		case $ct_i in
		lo|mgmt0) die "links: '$1': interface name $ct_i is taken" ;;
		esac
		in_list "$ct_h" $lab_routers ||
		    die "links: '$1': host $ct_h is not in lab $prefix" \
		    "(hosts: $lab_routers)"
	done
	[ "${ct_x%%:*}" != "${ct_y%%:*}" ] || die "links: '$1' links a host to itself"
	[ "$ct_s" = "$1" ] && return 0
	ct_w=${ct_x%%:*}-${ct_y%%:*}
	case $1 in
	*/w=?*) ct_w=${1#*/w=} ;;
	*/w) ;;
	*) die "links: '$1': expected /w or /w=NAME after the ends" ;;
	esac
	in_list "$ct_w" $lab_wires && ns_exists "$prefix-w-$ct_w" ||
	    die "links: '$1': link $ct_w has no wire host;" \
	    "run: $prog -p $prefix wires $ct_w"
}

# The veth pairs `links` $* asks for, one "NS1:IF1 NS2:IF2" a line: a
# link X:IFX-Y:IFY/w as X:IFX -- wa [w-X-Y] wb -- Y:IFY.
tlink_pairs()
{
	for tp_l in "$@"; do
		tp_s=${tp_l%%/w*}
		tp_x=${tp_s%%-*}
		tp_y=${tp_s#*-}
		tp_a="$prefix-${tp_x%%:*}:${tp_x#*:}"
		tp_b="$prefix-${tp_y%%:*}:${tp_y#*:}"
		if [ "$tp_s" = "$tp_l" ]; then
			echo "$tp_a $tp_b"
		else
			tp_w=$prefix-w-${tp_x%%:*}-${tp_y%%:*}
			case $tp_l in
			*/w=?*) tp_w=$prefix-w-${tp_l#*/w=} ;;
			esac
			echo "$tp_a $tp_w:wa"
			echo "$tp_w:wb $tp_b"
		fi
	done
}

# "PEERNS:PEERIF" of interface IF of namespace NS (a veth), or nothing.
veth_peer()
{
	vp_line=$(ip -n "$1" -o link show dev "$2" 2>/dev/null) || return 0
	vp_idx=$(echo "$vp_line" | sed -n 's/^[0-9]*: [^@]*@if\([0-9]*\):.*/\1/p')
	vp_ns=$(echo "$vp_line" | sed -n 's/.* link-netns \([^ ]*\).*/\1/p')
	[ -n "$vp_idx" ] && [ -n "$vp_ns" ] || return 0
	vp_peer=$(ip -n "$vp_ns" -o link show 2>/dev/null |
	    awk -F': ' -v i="$vp_idx" '$1 == i { sub(/@.*/, "", $2); print $2 }')
	[ -n "$vp_peer" ] && echo "$vp_ns:$vp_peer"
}

# Recable a topology lab to the links $*: a veth pair already cabled as
# asked is kept (with the addresses an external router's user gave it;
# set up again, should a fault have left it down),
# every other data interface of the lab's hosts and wire hosts is
# deleted, and the missing pairs are made.
# Make host $1 of a topology lab a switch: the bridge $1 in its namespace
# (STP off, forward delay 0, IPv6 off, no address, up), every other data
# interface there its port.
make_switch()
{
	ms_ns=$prefix-$1
	ip -n "$ms_ns" link show dev "$1" >/dev/null 2>&1 ||
	    run ip -n "$ms_ns" link add name "$1" type bridge stp_state 0 \
	    forward_delay 0
	no_ipv6 "$ms_ns" "$1"
	for ms_if in $(data_ifaces "$ms_ns"); do
		[ "$ms_if" = "$1" ] ||
		    run ip -n "$ms_ns" link set dev "$ms_if" master "$1"
	done
	run ip -n "$ms_ns" link set dev "$1" up
}

cmd_links()
{
	need_root
	load_state || die "no lab $prefix ($statedir/lab.env missing);" \
	    "run: $prog -p $prefix up --hosts HOST..."
	[ "$lab_kind" = hosts ] || die "links: lab $prefix is a chain lab;" \
	    "use wire N (or build a topology lab: up --hosts HOST...)"
	cl_sw=
	while [ "${1:-}" = --switch ] || [ "${1:-}" = --gro ]; do
		if [ "$1" = --gro ]; then
			lab_gro=1
			shift
			continue
		fi
		[ $# -ge 2 ] && is_hname "$2" && in_list "$2" $lab_routers ||
		    die "links: --switch '${2:-}': expected a host of lab" \
		    "$prefix (hosts: $lab_routers)"
		cl_sw="$cl_sw $2"
		shift 2
	done
	for cl_l in "$@"; do
		check_tlink "$cl_l"
	done
	cl_want=$(tlink_pairs "$@")
	cl_nss=
	for cl_h in $lab_routers; do
		ns_exists "$prefix-$cl_h" || die "namespace $prefix-$cl_h is" \
		    "missing; run: $prog -p $prefix up --hosts $lab_routers"
		cl_nss="$cl_nss $prefix-$cl_h"
	done
	for cl_w in $lab_wires; do
		ns_exists "$prefix-w-$cl_w" && cl_nss="$cl_nss $prefix-w-$cl_w"
	done
	cl_kept=
	for cl_ns in $cl_nss; do
		for cl_if in $(data_ifaces "$cl_ns"); do
			cl_p=$(veth_peer "$cl_ns" "$cl_if")
			if [ -n "$cl_p" ] && echo "$cl_want" | grep -q -x -F \
			    -e "$cl_ns:$cl_if $cl_p" -e "$cl_p $cl_ns:$cl_if"; then
				cl_kept="$cl_kept $cl_ns:$cl_if"
				gro_set "$cl_ns" "$cl_if" \
				    "$([ "$lab_gro" = 1 ] && echo on || echo off)"
				run ip -n "$cl_ns" link set dev "$cl_if" up
				continue
			fi
			del_if "$cl_ns" "$cl_if"
		done
	done
	echo "$cl_want" | while read -r cl_a cl_b; do
		[ -n "$cl_a" ] || continue
		in_list "$cl_a" $cl_kept && in_list "$cl_b" $cl_kept && continue
		make_link "${cl_a%%:*}" "${cl_a#*:}" "${cl_b%%:*}" "${cl_b#*:}" off
	done || exit 1
	for cl_s in $cl_sw; do
		make_switch "$cl_s"
	done
	echo "links: $# link(s) in lab $prefix${*:+: $*}${cl_sw:+; switch(es):$cl_sw}"
}

cmd_status()
{
	need_root
	if ! load_state; then
		echo "lab $prefix: no state in $statedir"
		st_ns=$(ip netns list | awk '{ print $1 }' | grep "^$prefix-")
		[ -n "$st_ns" ] && echo "stray namespaces:" $st_ns \
		    "(run: $prog -p $prefix down)"
		return 1
	fi
	st_rc=0
	if [ "$lab_kind" = hosts ]; then
		echo "lab $prefix: K $lab_k, hosts $lab_routers, state $statedir"
	else
		echo "lab $prefix: K $lab_k, routers $lab_routers, state $statedir"
	fi
	if link_exists "$prefix-mgmt"; then
		echo "bridge $prefix-mgmt 198.19.$lab_k.1/24"
	else
		echo "bridge $prefix-mgmt missing"
		st_rc=1
	fi
	printf '%-6s %-12s %-15s %s\n' host namespace address agent
	st_i=10
	st_w=1
	k=$lab_k
	for st_h in $(lab_hosts $lab_routers) $(for st_l in $lab_wires; do
	    echo "w-$st_l"; done); do
		st_a=198.19.$lab_k.$st_i
		st_i=$((st_i + 1))
		case $st_h in
		w-*) st_a=$(wire_addr $st_w); st_w=$((st_w + 1)) ;;
		esac
		st_ag="no pid file"
		if [ -r "$statedir/$st_h.pid" ]; then
			st_p=$(cat "$statedir/$st_h.pid")
			if is_agent "$st_p" "$st_h"; then
				st_ag="pid $st_p running"
				listening "$prefix-$st_h" "$st_a" &&
				    st_ag="$st_ag, listening on $st_a:$port"
			else
				st_ag="pid $st_p not running"
			fi
		fi
		case $st_ag in *listening*) ;; *) st_rc=1 ;; esac
		ns_exists "$prefix-$st_h" || { st_ag="namespace missing"; st_rc=1; }
		printf '%-6s %-12s %-15s %s\n' "$st_h" "$prefix-$st_h" "$st_a" "$st_ag"
	done
	echo "links:"
	for st_h in $(lab_hosts $lab_routers); do
		if [ "$lab_kind" = hosts ]; then
			show_topo_links "$prefix-$st_h"
		else
			show_links "$prefix-$st_h"
		fi
	done
	for st_l in $lab_wires; do
		show_links "$prefix-w-$st_l"
	done
	return $st_rc
}

while getopts b:hk:p:s: _o; do
	case $_o in
	b) bindir=$OPTARG ;;
	k) k=$OPTARG ;;
	p) prefix=$OPTARG ;;
	s) statedir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage

check_prefix
is_uint "$k" && [ "$k" -le 255 ] || die "K must be 0..255, not '$k'"
k=$(expr "$k" + 0)
[ -n "$statedir" ] || statedir=/run/hoplab/$prefix
case $statedir in
/) die "refusing state dir /" ;;
/*) ;;
*) statedir=$PWD/$statedir ;;
esac

_cmd=$1
shift
case $_cmd in
up) cmd_up "$@" ;;
wire) cmd_wire "$@" ;;
wires) cmd_wires "$@" ;;
links) cmd_links "$@" ;;
status) cmd_status ;;
down) cmd_down "$@" ;;
*) usage ;;
esac
