# genlab.sh: a minimal namespace lab for hoplab-gen, sourced (POSIX sh) by
# tests/integration/t_gen_loss.sh, t_gen_pcap.sh, t_gen_dist.sh,
# t_gen_measure.sh, t_gen_loopback.sh, t_gen_mix.sh and bench/run.sh.
#
# No agents, no management network: a generator namespace P-gen with two
# interfaces tx and rx that carry no kernel address (hoplab-gen owns its
# addresses in user space), and a chain of N Linux kernel routers P-r1 ..
# P-rN, wired and addressed as docs/architecture.md says:
#
#	P-gen:tx -- in:P-r1   P-r1:out -- in:P-r2  ...  P-rN:out -- rx:P-gen
#	gen owns 198.18.0.1, r1.in 198.18.0.2/24, ri.out 198.18.i.1/24,
#	r(i+1).in 198.18.i.2/24, rN.out 198.18.100.1/24, gen owns 198.18.100.2
#
# Every router routes 198.18.100.0/24 forward and 198.18.0.0/24 back.  IPv6
# is disabled on the data links.  Also: hoplab-gen runs and its output
# tables (gen_get), and tcpdump captures at nanosecond precision (cap_*).
#
# Whoever sources this calls genlab_down on every exit (a trap); it deletes
# the namespaces (and with them the veths) and kills, by PID, the captures
# it started.  Nothing here sends traffic by itself.

GL_P=
GL_N=0
GL_ROOT=${GL_ROOT:?set GL_ROOT to the repository root before sourcing genlab.sh}
GL_GEN_BIN=${GL_GEN_BIN:-${HL_BIN:-$GL_ROOT/bin}/hoplab-gen}
GL_CAPS=
GL_SRC=198.18.0.1
GL_DST=198.18.100.2
GL_GW=198.18.0.2

# genlab_init PREFIX: name the lab (namespaces PREFIX-gen, PREFIX-r1 ...).
genlab_init()
{
	GL_P=$1
}

gl_in() { _ns=$1; shift; ip netns exec "$GL_P-$_ns" "$@"; }

# gl_if NS IF: disable IPv6 on IF and bring it up.
gl_if()
{
	ip netns exec "$GL_P-$1" sh -c \
	    "f=/proc/sys/net/ipv6/conf/$2/disable_ipv6; [ ! -e \$f ] ||
	    echo 1 > \$f" && ip -n "$GL_P-$1" link set dev "$2" up
}

# genlab_up N: build the generator and a chain of N routers (1..9).
# Returns non-zero (with a message on stderr) if any step fails.
genlab_up()
{
	GL_N=$1
	genlab_down
	ip netns add "$GL_P-gen" || return 1
	ip -n "$GL_P-gen" link set dev lo up || return 1
	_i=1
	while [ "$_i" -le "$GL_N" ]; do
		ip netns add "$GL_P-r$_i" &&
		    ip -n "$GL_P-r$_i" link set dev lo up &&
		    gl_in "r$_i" sh -c \
		    'echo 1 > /proc/sys/net/ipv4/ip_forward' || return 1
		_i=$((_i + 1))
	done
	ip link add name tx netns "$GL_P-gen" type veth \
	    peer name in netns "$GL_P-r1" || return 1
	_i=1
	while [ "$_i" -lt "$GL_N" ]; do
		ip link add name out netns "$GL_P-r$_i" type veth \
		    peer name in netns "$GL_P-r$((_i + 1))" || return 1
		_i=$((_i + 1))
	done
	ip link add name out netns "$GL_P-r$GL_N" type veth \
	    peer name rx netns "$GL_P-gen" || return 1
	gl_if gen tx && gl_if gen rx || return 1
	_i=1
	while [ "$_i" -le "$GL_N" ]; do
		_r=r$_i
		if [ "$_i" = 1 ]; then _in=198.18.0.2; else
			_in=198.18.$((_i - 1)).2; fi
		if [ "$_i" = "$GL_N" ]; then _out=198.18.100.1; else
			_out=198.18.$_i.1; fi
		ip -n "$GL_P-$_r" addr add "$_in/24" dev in &&
		    ip -n "$GL_P-$_r" addr add "$_out/24" dev out &&
		    gl_if "$_r" in && gl_if "$_r" out || return 1
		[ "$_i" = "$GL_N" ] || ip -n "$GL_P-$_r" route add \
		    198.18.100.0/24 via "198.18.$_i.2" || return 1
		[ "$_i" = 1 ] || ip -n "$GL_P-$_r" route add \
		    198.18.0.0/24 via "198.18.$((_i - 1)).1" || return 1
		_i=$((_i + 1))
	done
}

# genlab_chain1: the one-router lab of t_gen_dist, t_gen_measure,
# t_gen_loopback and t_gen_mix; its router namespace is P-r, not P-r1:
#
#	P-gen:tx -- in:P-r 198.18.0.2/24   P-r:out 198.18.100.1/24 -- rx:P-gen
#
# ip_forward on, IPv6 off on the data links; no routes (the one router
# has both subnets).  Returns non-zero if any step fails.
genlab_chain1()
{
	ip netns add "$GL_P-gen" && ip netns add "$GL_P-r" &&
	    ip link add name tx netns "$GL_P-gen" type veth \
	    peer name in netns "$GL_P-r" &&
	    ip link add name out netns "$GL_P-r" type veth \
	    peer name rx netns "$GL_P-gen" &&
	    ip -n "$GL_P-gen" link set dev lo up &&
	    ip -n "$GL_P-r" link set dev lo up &&
	    gl_if gen tx && gl_if gen rx &&
	    ip -n "$GL_P-r" addr add 198.18.0.2/24 dev in &&
	    ip -n "$GL_P-r" addr add 198.18.100.1/24 dev out &&
	    gl_if r in && gl_if r out &&
	    gl_in r sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
}

# genlab_down: stop the captures and delete the namespaces (P-gen, P-r,
# P-r1 ...); quiet, and safe to call when nothing is up.
genlab_down()
{
	cap_stop >/dev/null 2>&1
	[ -n "$GL_P" ] || return 0
	for _ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $_ns in
		"$GL_P-gen"|"$GL_P-r"|"$GL_P"-r[0-9])
			ip netns del "$_ns" 2>/dev/null ;;
		esac
	done
	return 0
}

# gen_run OUT SECONDS ARG...: run hoplab-gen in P-gen with the lab's
# interfaces and addresses, extra arguments ARG..., bounded by SECONDS
# (SIGINT, then SIGKILL 5 s later); stdout and stderr to file OUT.  Returns
# hoplab-gen's exit status.
gen_run()
{
	_out=$1
	_secs=$2
	shift 2
	timeout -s INT -k 5 "$_secs" ip netns exec "$GL_P-gen" \
	    "$GL_GEN_BIN" --tx tx --rx rx --src "$GL_SRC" --dst "$GL_DST" \
	    --gateway "$GL_GW" "$@" >"$_out" 2>&1
}

# gen_get FILE SECTION NAME COLUMN: a value from hoplab-gen's summary:
# the table whose title line starts with SECTION ("Packets", "One-way"),
# the row of flow NAME, the column headed COLUMN.  Prints "missing" when
# there is no such value.
gen_get()
{
	awk -v sec="$2" -v name="$3" -v col="$4" '
	/^[A-Za-z]/ { insec = index($0, sec) == 1; c = 0; next }
	insec && $1 == "id" {
		for (i = 1; i <= NF; i++) if ($i == col) c = i
		next
	}
	insec && c && $2 == name && v == "" { v = $c }
	END { print (v == "" ? "missing" : v) }' "$1"
}

# cap_start NS IF FILE FILTER: tcpdump on interface IF of namespace NS
# into FILE at nanosecond precision, host (kernel software) stamps, with
# the BPF FILTER; waits until it listens (5 s at most).
#
# Not --immediate-mode: woken for every packet, tcpdump's wake-up sits
# between the capture's transmit stamp (taken as the packet passes the
# tap) and the driver's (taken after it), and costs 2 to 20 us there on a
# virtual machine.  Without it the TPACKET_V3 ring hands tcpdump whole
# blocks (at the latest after libpcap's 1 s timeout), so cap_stop waits
# for that before it stops tcpdump.
cap_start()
{
	ip netns exec "$GL_P-$1" tcpdump -Z root -n -i "$2" -s 128 \
	    -B 32768 --time-stamp-precision=nano \
	    -w "$3" "$4" 2>"$3.log" &
	GL_CAPS="$GL_CAPS $!:$3"
	_t=0
	while [ "$_t" -lt 50 ]; do
		grep -q listening "$3.log" 2>/dev/null && return 0
		sleep 0.1
		_t=$((_t + 1))
	done
	echo "cap_start: tcpdump on $1:$2 did not start: $(cat "$3.log")" >&2
	return 1
}

# cap_stop: stop every capture (SIGINT by PID after letting the ring
# drain), wait for them, and fail if any dropped a packet or captured
# fewer than its filter saw.
cap_stop()
{
	[ -n "$GL_CAPS" ] || return 0
	sleep 1.5
	_bad=0
	for _c in $GL_CAPS; do
		kill -INT "${_c%%:*}" 2>/dev/null
	done
	for _c in $GL_CAPS; do
		wait "${_c%%:*}" 2>/dev/null
		_log=${_c#*:}.log
		_got=$(sed -n 's/^\([0-9]*\) packets\{0,1\} captured.*/\1/p' "$_log")
		_saw=$(sed -n 's/^\([0-9]*\) packets\{0,1\} received by filter.*/\1/p' "$_log")
		_drop=$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by kernel.*/\1/p' "$_log")
		if [ -z "$_got" ] || [ "$_got" != "$_saw" ] ||
		    [ "${_drop:-1}" != 0 ]; then
			echo "cap_stop: ${_c#*:}: captured '$_got', filter" \
			    "saw '$_saw', kernel dropped '$_drop'" >&2
			_bad=1
		fi
	done
	GL_CAPS=
	return $_bad
}

# pcap_get OUTPUT NAME: value NAME from pcapdelay's "name value" output.
pcap_get()
{
	echo "$1" | awk -v n="$2" '$1 == n { v = $2 }
	    END { print (v == "" ? "missing" : v) }'
}

# genlab_pcapdelay: the path of build/tools/pcapdelay, built first if it
# is missing or older than its source (until the Makefile builds it).
genlab_pcapdelay()
{
	_b=$GL_ROOT/build/tools/pcapdelay
	_s=$GL_ROOT/tools/pcapdelay.c
	if [ ! -x "$_b" ] || [ -n "$(find "$_s" "$GL_ROOT/lib/probe.c" \
	    "$GL_ROOT/lib/probe.h" "$GL_ROOT/lib/capmatch.c" \
	    "$GL_ROOT/lib/capmatch.h" -newer "$_b" 2>/dev/null)" ]; then
		mkdir -p "$GL_ROOT/build/tools" &&
		    ${CC:-cc} -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O2 \
		    -I"$GL_ROOT/lib" -o "$_b" "$_s" "$GL_ROOT/lib/probe.c" \
		    "$GL_ROOT/lib/capmatch.c" -lpcap -lm >&2 || return 1
	fi
	echo "$_b"
}
