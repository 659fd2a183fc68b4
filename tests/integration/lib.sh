# lib.sh: helpers for the integration scenarios (tests/integration/t_*.sh).
#
# A scenario sources this file, names its lab, brings it up, checks things
# and ends with `finish`:
#
#	. "$(dirname "$0")/lib.sh"
#	lab_init hlt1 251
#	lab_up
#	lab_wire 2
#	assert_eq wire2_path "gen:tx -> A -> B -> gen:rx" "$LAB_WIRED"
#	finish
#
# Every scenario has its own lab prefix and management network K, so a
# scenario never clashes with the demo lab (hl, K 0) or with another
# scenario; the numbers in use:
#
#	t_lab.sh	hlt1	251
#	t_chain.sh	hlc	252
#	t_mgmt_curve.sh	hlm1	240
#	t_mgmt_kill.sh	hlm2	239
#	t_mgmt_resume.sh	hlm3	237 (shared K with t_scale: they run in turn)
#	t_scale.sh	hls	237
#	t_deploy.sh	hlt8	238
#	t_deploy_deb.sh	hldd	197 (installs the package on this machine)
#	bench/mgmt_scale.sh	hlb	236
#	t_link_basic.sh	hlt9	234
#	t_link_impair.sh	hlt10	233
#	t_link_burst.sh	hllb	191 (router_lab.sh: K unused)
#	bench/link_timing.sh	hltb	-
#	bench/timing.sh	runs t_link_basic, t_link_live, t_faults (their labs)
#	t_router_basic.sh	hlt5	245
#	t_router_qos.sh	hlt6	246
#	t_router_xdp.sh	hlxd	208
#	t_router_fastpath.sh	hlfp	214 (router_lab.sh: K unused)
#	bench/router_rate.sh, router_delay.sh	hlt7, hlt7d	247
#	t_gen_loss.sh	hlt3	253
#	t_gen_pcap.sh	hlt4	254
#	bench/run.sh	hlb (no K), hlbc	249
#	t_impair.sh	hlt12	229
#	t_gen_dst.sh	hlgd	- (tools/genlab.sh, no K)
#	t_gen_offset.sh	hlgo	- (tools/genlab.sh, no K)
#	t_link_live.sh	hlt13	227
#	t_mgmt_hostile.sh	hlm4	228
#	t_hostile_roles.sh	hlhs	195
#	t_exits.sh	hlt19	211
#	t_concurrent.sh	hlt20	210
#	t_faults.sh	hlt15	225
#	t_sweep.sh	hlt16	219
#	t_rfc2544.sh	hlt17	218
#	t_examples.sh	hlt18	217
#	t_live.sh	hllv	213
#	t_report.sh	hlt14	226
#	t_gen_mix.sh	hlgx	230 (own namespaces hlgx-gen/-r too)
#	t_gen_txring.sh	hlgy	- (own namespaces hlgy-tg/-tr, no K)
#	t_plan_txring.sh	hltp	190
#	t_results_hoplab.sh	hlt11	231
#	t_capture.sh	hlcap	215
#	t_residence.sh	hlres	203
#	t_topo.sh	hlto	216
#	t_topo_wan.sh	hltw	212
#	t_ecmp.sh	hlec	221
#	t_download.sh	hldl	220
#	t_routefault.sh	hlrf	243
#	t_manifest.sh	hlmf	203
#	t_cpu.sh	hlcpu	207
#	t_exec.sh	hlex	224
#	t_slowstart.sh	hlnb	194
#	t_install.sh	hlin	- (lab status only, no lab)
#	t_man.sh	-	- (no lab)
#	t_kctr.sh	hlkc	206
#	t_ospf.sh	hlos	242
#	t_icmp.sh	hlic	- (router_lab.sh, no K)
#	t_icmp_plan.sh	hlic	209
#	t_icmp_chain.sh	hlic2	223
#	t_pathchange.sh	hlpc	244
#	t_blackhole.sh	hlbh	250
#	t_nat.sh	hlnat	222
#	t_switch.sh	hlsw	235
#	t_rip.sh	hlrp	241 (router_lab.sh, then the agent lab for a plan)
#	t_nat_hoplab.sh	hlnh	232 (router_lab.sh: K unused)
#	t_killmatrix.sh, bench/killmatrix.sh	hlkm	196
#	t_spool_unit.sh	hlsu	199
#	t_json.sh	hljs	193
#	t_enospc.sh	hlns	198 (its own tmpfs for the results)
#	t_webreport.sh	hlwr	192
#	t_gen_loopback.sh (hlg), t_gen_dist.sh (hlgd), t_gen_measure.sh (hlgm):
#	    own namespaces built by genlab_chain1 (tools/genlab.sh)
#
# take the next free pair (hlt2 252, hlt3 253, ...) for a new scenario.
# Sourcing this file registers traps so that the lab is torn down on any
# exit, also on SIGINT and SIGTERM (timeout(1) in run.sh sends SIGTERM);
# at_exit adds commands of the scenario's own to run then.
#
# Checks print one line each ("  ok   NAME" or "  FAIL NAME: MESSAGE") and
# are counted; `finish` prints the totals and exits non-zero if any failed.
# A scenario never sleeps to let something happen: it waits for the thing
# (wait_for, wait_log, wait_listen below) with a bound and a message; a
# sleep is only for a time that is itself measured (traffic for 2 s).
# Nothing here sends traffic; POSIX sh.

# Repository root, from the scenario's own path.
HL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
HL_SCENARIO=$(basename -- "$0" .sh)
LAB_SH=$HL_ROOT/deploy/lab.sh
HL_BIN=${HL_BIN:-$HL_ROOT/bin}

HL_PASSED=0
HL_FAILED=0
HL_FAILURES=
HL_AT_EXIT=
LAB_PREFIX=
LAB_K=
LAB_STATE=
LAB_IS_UP=0
LAB_WIRED=

pass()
{
	HL_PASSED=$((HL_PASSED + 1))
	echo "  ok   $1"
}

fail()
{
	HL_FAILED=$((HL_FAILED + 1))
	HL_FAILURES="$HL_FAILURES $1"
	echo "  FAIL $1: $2"
}

# Stop the scenario at once (a failure that makes the rest meaningless).
bail()
{
	fail "$1" "$2"
	finish
}

# Tear the lab down, print the totals and exit: 0 when every check passed
# (and there was at least one).
finish()
{
	lab_down
	echo "$HL_SCENARIO: $HL_PASSED checks passed, $HL_FAILED failed"
	[ "$HL_FAILED" -eq 0 ] || echo "$HL_SCENARIO: failed:$HL_FAILURES"
	[ "$HL_FAILED" -eq 0 ] && [ "$HL_PASSED" -gt 0 ] && exit 0
	exit 1
}

# Run shell command CMD at exit, after the lab is down (temp files...).
at_exit()
{
	HL_AT_EXIT="$HL_AT_EXIT
$1"
}

_hl_on_exit()
{
	lab_down
	eval "$HL_AT_EXIT"
}

_hl_on_signal()
{
	echo "$HL_SCENARIO: interrupted; tearing down"
	exit 1		# runs _hl_on_exit
}

trap _hl_on_exit EXIT
trap _hl_on_signal INT TERM HUP

# files_left LIST: the paths of the file LIST (one a line, as dpkg -L
# prints) that still exist and are not folders, on one line.
files_left()
{
	_left=
	while read -r _f; do
		[ -d "$_f" ] && continue
		[ -e "$_f" ] || [ -L "$_f" ] && _left="$_left $_f"
	done <"$1"
	echo "${_left# }"
}

# deb_lock: hold the machine's lock of the scenarios that install the
# hoplab package on it (t_deploy_deb, tests/deb/t_deb.sh) until the
# scenario exits, waiting up to 120 s for another one; 1 when it waited
# in vain.  The lock is on descriptor 9, which the scenario's children
# inherit.
deb_lock()
{
	exec 9>/run/lock/hoplab-package-test.lock || return 1
	flock -w 120 9
}

need_root()
{
	[ "$(id -u)" = 0 ] || bail need_root "this scenario needs root"
}

# ---------------------------------------------------------------- the lab

# Name this scenario's lab: prefix PREFIX, management net 198.19.K.0/24.
lab_init()
{
	LAB_PREFIX=$1
	LAB_K=$2
	LAB_STATE=/run/hoplab/$LAB_PREFIX
}

# Management address of host number I (0 is gen, 1 the first router...).
lab_addr()
{
	echo "198.19.$LAB_K.$((10 + $1))"
}

lab_sh()
{
	sh "$LAB_SH" -p "$LAB_PREFIX" -k "$LAB_K" -b "$HL_BIN" \
	    -s "$LAB_STATE" "$@"
}

# Bring the lab up with routers $* (default A B C); stops the scenario if
# that fails.  The lab is torn down on any exit from now on (the traps).
lab_up()
{
	[ -n "$LAB_PREFIX" ] || bail lab_up "lab_init was not called"
	LAB_IS_UP=1
	if ! _out=$(lab_sh up "$@" 2>&1); then
		echo "$_out" | sed 's/^/    /'
		bail lab_up "lab.sh up failed"
	fi
}

# Tear the lab down if it is up; quiet unless it fails.
lab_down()
{
	[ "$LAB_IS_UP" = 1 ] || return 0
	LAB_IS_UP=0
	if ! _out=$(lab_sh down 2>&1); then
		echo "$_out" | sed 's/^/    /'
		fail lab_down "lab.sh down failed"
	fi
	return 0
}

# Wire the chain of the first N routers; LAB_WIRED gets the path printed.
lab_wire()
{
	LAB_WIRED=
	if ! _out=$(lab_sh wire "$1" 2>&1); then
		echo "$_out" | sed 's/^/    /'
		fail "lab_wire_$1" "lab.sh wire $1 failed"
		return 1
	fi
	LAB_WIRED=$(echo "$_out" | sed -n 's/^wired: //p')
}

# Run a command inside host NAME's namespace.
in_host()
{
	_h=$1
	shift
	ip netns exec "$LAB_PREFIX-$_h" "$@"
}

# ---------------------------------------------------------------- data

# Print column COLUMN (by header name) of CSV file FILE, one value a line,
# header excluded.  Quoted fields (RFC 4180, no embedded newlines) are
# unquoted.  Fails with a message if the file or the column is missing.
# Build a scenario's own management-plane client SRC.c (a ZeroMQ peer
# speaking the protobuf envelope) into SRC; stops the scenario with NAME
# when it does not compile.
build_client()
{
	cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$HL_ROOT/build" \
	    -I"$HL_ROOT/tests/integration" -o "$2" "$2.c" "$HL_ROOT/build/proto/hoplab.pb-c.o" \
	    -lprotobuf-c -lzmq 2>"$2.cc.log" ||
	    bail "$1" "cannot build the test client: $(cat "$2.cc.log")"
}

csv_col()
{
	[ -r "$1" ] || { echo "csv_col: cannot read $1" >&2; return 1; }
	awk -v want="$2" -v file="$1" '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"" && substr(line, i + 1, 1) == "\"") {
					cur = cur "\""; i++
				} else if (c == "\"")
					q = 0
				else
					cur = cur c
			} else if (c == "\"")
				q = 1
			else if (c == ",") {
				f[++n] = cur; cur = ""
			} else
				cur = cur c
		}
		f[++n] = cur
		return n
	}
	{ sub(/\r$/, "") }
	NR == 1 {
		n = split_csv($0, h)
		for (i = 1; i <= n; i++)
			if (h[i] == want)
				col = i
		if (!col) {
			printf "csv_col: no column %s in %s\n", want, file \
			    > "/dev/stderr"
			bad = 1
			exit 1
		}
		next
	}
	{ split_csv($0, f); print f[col] }
	END { if (bad) exit 1 }' "$1"
}

# proc_in_netns NETNS COMM: succeeds while a process named COMM runs in
# network namespace NETNS.
proc_in_netns()
{
	for _p in $(ip netns pids "$1" 2>/dev/null); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}

# Results folders compared with a reference run (t_mgmt_resume,
# t_enospc): TMP is a prefix for the scratch files the columns go to.
#
# summary_keys SUMMARY TMP: summary.csv's variant,frame,rep,flow,sent, a
# line per row, in order.
summary_keys()
{
	csv_col "$1" variant >"$2.v" && csv_col "$1" frame_bytes >"$2.f" &&
	    csv_col "$1" rep >"$2.r" && csv_col "$1" flow >"$2.fl" &&
	    csv_col "$1" sent >"$2.s" &&
	    paste -d, "$2.v" "$2.f" "$2.r" "$2.fl" "$2.s"
}

# pdf_counts PDF TMP: "frame/rep count-sum" per point of pdf.csv, sorted.
pdf_counts()
{
	csv_col "$1" frame_bytes >"$2.f" && csv_col "$1" rep >"$2.r" &&
	    csv_col "$1" count >"$2.c" && paste -d' ' "$2.f" "$2.r" "$2.c" |
	    awk '{ s[$1 "/" $2] += $3 } END { for (k in s) print k, s[k] }' |
	    sort
}

# point_received SUMMARY TMP: "frame/rep received" per row, sorted.
point_received()
{
	csv_col "$1" frame_bytes >"$2.f" && csv_col "$1" rep >"$2.r" &&
	    csv_col "$1" received >"$2.c" && paste -d' ' "$2.f" "$2.r" "$2.c" |
	    awk '{ print $1 "/" $2, $3 }' | sort
}

# lab_logs: the ends of this lab's agent logs and of the role logs
# written in the last 2 minutes (/run/hoplab/PREFIX/HOST/), indented, so
# that a failed run in CI says what the agents saw before the lab goes.
lab_logs()
{
	for _d in /run/hoplab/"$LAB_PREFIX"/*/; do
		[ -f "$_d/agent.log" ] || continue
		echo "    -- $(basename "$_d") agent.log (last 15 lines)"
		tail -n 15 "$_d/agent.log" | sed 's/^/      /'
		find "$_d" -maxdepth 1 -name 'role-*.log' -mmin -2 2>/dev/null |
		    sort | while read -r _l; do
			echo "    -- $(basename "$_d") $(basename "$_l") (last 5)"
			tail -n 5 "$_l" | sed 's/^/      /'
		done
	done
}

# lab_run NAME PLAN OUTDIR: `hoplab run PLAN` on this lab into OUTDIR/NAME,
# its console in OUTDIR/NAME.log (printed when it fails); the check
# NAME_run_completes.  LAB_RUN is then the results folder (empty if it
# failed: 1 is returned).
lab_run()
{
	LAB_RUN=
	if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -k "$LAB_K" -o "$3/$1" run \
	    "$2" >"$3/$1.log" 2>&1; then
		sed 's/^/    /' "$3/$1.log"
		lab_logs
		fail "$1_run" "hoplab run $2 failed"
		return 1
	fi
	pass "$1_run_completes"
	LAB_RUN=$(ls -d "$3/$1"/*-*)
}

# ---------------------------------------------------------------- asserts

# assert_eq NAME EXPECTED ACTUAL: string equality.
assert_eq()
{
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected '$2', got '$3'"
	fi
}

# _num_cmp A OP B: numeric comparison (floats too) with awk.
_num_cmp()
{
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		if (a !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ ||
		    b !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/)
			exit 2
		a += 0; b += 0
		if (op == "<") r = a < b
		else if (op == "<=") r = a <= b
		else if (op == ">") r = a > b
		else if (op == ">=") r = a >= b
		else if (op == "==") r = a == b
		exit !r
	}'
}

_assert_num()
{
	_num_cmp "$2" "$3" "$4"
	case $? in
	0) pass "$1" ;;
	2) fail "$1" "not numbers: '$2' $3 '$4'" ;;
	*) fail "$1" "expected $2 $3 $4" ;;
	esac
}

# assert_lt NAME A B: A < B (numbers).  _le, _gt, _ge alike.
assert_lt() { _assert_num "$1" "$2" "<" "$3"; }
assert_le() { _assert_num "$1" "$2" "<=" "$3"; }
assert_gt() { _assert_num "$1" "$2" ">" "$3"; }
assert_ge() { _assert_num "$1" "$2" ">=" "$3"; }
assert_num_eq() { _assert_num "$1" "$2" "==" "$3"; }

# assert_near NAME EXPECTED ACTUAL TOL: |ACTUAL - EXPECTED| <= TOL.
assert_near()
{
	if awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN {
		if (a !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) exit 1
		d = a - e; if (d < 0) d = -d; exit !(d <= t) }'; then
		pass "$1"
	else
		fail "$1" "expected $2 +- $4, got '$3'"
	fi
}

# assert_ok NAME CMD...: CMD succeeds (its output shown on failure).
assert_ok()
{
	_n=$1
	shift
	if _out=$("$@" 2>&1); then
		pass "$_n"
	else
		fail "$_n" "'$*' failed: $(echo "$_out" | tail -n 3)"
	fi
}

# assert_fails NAME CMD...: CMD fails.
assert_fails()
{
	_n=$1
	shift
	if "$@" >/dev/null 2>&1; then
		fail "$_n" "'$*' succeeded, expected it to fail"
	else
		pass "$_n"
	fi
}

# assert_match NAME PATTERN TEXT: TEXT matches the grep -E PATTERN.
assert_match()
{
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1" "'$3' does not match /$2/"
	fi
}

# ---------------------------------------------------------------- waiting

# wait_for SECONDS WHAT CMD [ARG...]: run CMD (a command or a shell
# function, no shell string) every 0.1 s until it succeeds; 0 then.  After
# SECONDS (decimals allowed) of polling, print "wait_for: WHAT: not within
# SECONDS s" on stderr and return 1; the caller fails or bails with its
# check's name.  Waits on the condition a fixed sleep stood for: a log
# line, a socket listening, a file, a counter reaching a value.
wait_for()
{
	_wf_n=$(awk -v s="$1" 'BEGIN { printf "%d", s * 10 + 0.5 }')
	_wf_what=$2
	shift 2
	_wf_i=0
	while ! "$@" >/dev/null 2>&1; do
		if [ "$_wf_i" -ge "$_wf_n" ]; then
			echo "wait_for: $_wf_what: not within $(awk \
			    -v n="$_wf_n" 'BEGIN { print n / 10 }') s" >&2
			return 1
		fi
		sleep 0.1
		_wf_i=$((_wf_i + 1))
	done
	return 0
}

# wait_log SECONDS PATTERN FILE [LINE]: wait_for a line matching the grep
# -E PATTERN in FILE, from line LINE on (default 1: LINE is one more than
# `wc -l` before the event, to skip what an earlier run logged).
wait_log()
{
	wait_for "$1" "/$2/ in $3" _wait_log_has "$2" "$3" "${4:-1}"
}

_wait_log_has()
{
	tail -n "+$3" "$2" 2>/dev/null | grep -Eq -- "$1"
}

# wait_listen SECONDS NETNS PORT [udp]: wait_for a TCP socket listening
# on PORT in network namespace NETNS (ss -ltn), or a bound UDP one.
wait_listen()
{
	wait_for "$1" "${4:-tcp} port $3 listening in $2" _wait_listen_has \
	    "$2" "$3" "${4:-tcp}"
}

_wait_listen_has()
{
	case $3 in
	udp) ip netns exec "$1" ss -Hlun "sport = :$2" | grep -q . ;;
	*) ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q . ;;
	esac
}
