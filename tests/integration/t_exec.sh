#!/bin/sh
# t_exec: the user's own commands in a run (docs/plans.md "exec", issue
# 14).  Lab prefix hlex, management K 224; routers A, B, kernel
# forwarding; the lab's agents run with --allow-exec.
#
# An nftables table of the test's own on router A counts the probes it
# forwards (udp dport 9) and every UDP packet (the warm-up too).  mark.sh,
# shipped with the plan (files:), writes the time, its network namespace
# and those counters into $T/PHASE.mark and prints the same line.
# Known truth:
#
# 1. ok.yaml (3000 probes 1 ms apart): the setup command on A ran in A's
#    namespace before any packet (both counters 0), the timed one at 1 s
#    saw about 1000 probes (600..1400: it is on the traffic's timeline),
#    the teardown one every probe (3000), in that order by their times;
#    the captured stdout in exec/ is byte for byte what mark.sh printed,
#    and gen's setup command's stdout and stderr are what it wrote;
#    exec.csv has a row per command with exit code 0;
# 2. a hanging command (`sleep 600` at 0.5 s, timeout 1s) is killed and
#    reported: exec.csv timed_out 1, signal 15, ended 0.9..3 s after its
#    start, and no `sleep 600` is left in B's namespace; the run itself
#    completes; `hoplab report` marks both timed commands on the time
#    plot at their times;
# 3. fail.yaml: a setup command that writes to stderr and exits 3 stops
#    the run before traffic: hoplab exits non-zero naming host A, the
#    command, "exited with 3" and its stderr; A's UDP counter did not
#    move (not even the warm-up went out); its teardown command still ran;
# 4. a plan file naming a file that does not exist is refused at load
#    with file:line: key;
# 5. with B's agent restarted by hand without --allow-exec, `hoplab
#    agents` shows EXEC no for B, and ok.yaml is refused before anything
#    starts (no results folder, A's setup did not run) with file:line:
#    key, naming agent B and --allow-exec;
# 6. a topology plan (H1 - R1 - H2): setup on R1, timed on H2, teardown
#    on H1 each ran in its host's namespace, in that order, exit 0.
# About 30 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v nft >/dev/null || bail nft "nft is missing"
lab_init hlex 224
T=$(mktemp -d /tmp/hoplab-t-exec.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p $LAB_PREFIX"

cat >"$T/mark.sh" <<'EOF'
#!/bin/sh
# mark.sh PHASE DIR: time, network namespace, probes and UDP packets seen.
c() { nft list counter inet hlex "$1" 2>/dev/null |
    awk '{ for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'; }
line="$1 $(date +%s.%N) $(readlink /proc/self/ns/net) $(c probes) $(c anyudp)"
echo "$line" >"$2/$1.mark"
echo "$line"
EOF

cat >"$T/ok.yaml" <<PLAN
name: ex
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: linux}
flows:
  - {name: probe, frame: 128, idt: 1ms, count: 3000}
exec:
  - {host: A, at: setup, cmd: [sh, mark.sh, setup, "$T"], files: [mark.sh]}
  - {host: gen, at: setup, cmd: [sh, -c, "echo out-of-gen; echo err-of-gen >&2"]}
  - {host: A, at: 1s, cmd: [sh, mark.sh, timed, "$T"], files: [mark.sh]}
  - {host: B, at: 0.5s, cmd: [sleep, "600"], timeout: 1s}
  - {host: A, at: teardown, cmd: [sh, mark.sh, teardown, "$T"], files: [mark.sh]}
PLAN
cat >"$T/fail.yaml" <<PLAN
name: exfail
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: linux}
flows:
  - {name: probe, frame: 128, idt: 1ms, count: 1000}
exec:
  - {host: A, at: setup, cmd: [sh, -c, "echo oops-on-stderr >&2; exit 3"]}
  - {host: A, at: teardown, cmd: [sh, mark.sh, teardown2, "$T"], files: [mark.sh]}
PLAN

# 4. first: refused before any lab is needed.
sed 's/files: \[mark.sh\]}$/files: [nope.sh]}/' "$T/fail.yaml" >"$T/bad.yaml"
$HOPLAB run "$T/bad.yaml" >"$T/bad.log" 2>&1
assert_eq missing_file_exit_2 2 "$?"
assert_match missing_file_named "bad.yaml:9: exec\[1\]\.files\[0\]: \
$T/nope.sh: No such file or directory" "$(cat "$T/bad.log")"

lab_up A B
at_exit "ip netns exec $LAB_PREFIX-A nft delete table inet hlex 2>/dev/null"
in_host A nft -f - <<'EOF' || bail nft_table "cannot add table inet hlex on A"
table inet hlex {
	counter probes {}
	counter anyudp {}
	chain hlexfwd {
		type filter hook forward priority 0; policy accept;
		udp dport 9 counter name probes
		meta l4proto udp counter name anyudp
	}
}
EOF

# 1. and 2.
if ! $HOPLAB -o "$T/r" run "$T/ok.yaml" >"$T/ok.log" 2>&1; then
	sed 's/^/    /' "$T/ok.log"
	bail run_ok "hoplab run ok.yaml failed"
fi
pass run_with_exec_completes
D=$(ls -d "$T"/r/ex-*)
# field PHASE N: the Nth field of PHASE.mark.
field() { awk -v n="$2" '{ print $n }' "$T/$1.mark"; }
nsA=$(in_host A readlink /proc/self/ns/net)
assert_eq setup_in_A_namespace "$nsA" "$(field setup 3)"
assert_eq setup_before_any_probe 0 "$(field setup 4)"
assert_eq setup_before_the_warm_up 0 "$(field setup 5)"
assert_ge timed_at_1s_saw_600_probes "$(field timed 4)" 600
assert_le timed_at_1s_saw_1400_probes_at_most "$(field timed 4)" 1400
assert_eq teardown_after_every_probe 3000 "$(field teardown 4)"
assert_lt setup_before_timed "$(field setup 2)" "$(field timed 2)"
assert_lt timed_before_teardown "$(field timed 2)" "$(field teardown 2)"
assert_eq exec_csv_rows 5 "$(($(wc -l <"$D/exec.csv") - 1))"
row() { awk -F, -v h="$1" -v a="$2" -v k="$3" 'NR == 1 {
    for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["host"] == h && $c["at"] == a { print $c[k]; exit }' "$D/exec.csv"; }
for w in "A setup" "gen setup" "A 1.000" "A teardown"; do
	assert_eq "exit_0: $w" 0 "$(row $w exit_code)"
done
for p in setup timed teardown; do
	at=$p; [ $p = timed ] && at=1.000
	log=$(row A $at log)
	assert_ok "stdout_of_$p: as printed" cmp -s "$T/$p.mark" \
	    "$D/$log.stdout"
done
log=$(row gen setup log)
assert_eq gen_stdout out-of-gen "$(cat "$D/$log.stdout")"
assert_eq gen_stderr err-of-gen "$(cat "$D/$log.stderr")"
assert_eq gen_stdout_bytes 11 "$(row gen setup stdout_bytes)"
assert_eq sleep_timed_out 1 "$(row B 0.500 timed_out)"
assert_eq sleep_killed_by_sigterm 15 "$(row B 0.500 signal)"
assert_eq sleep_no_exit_code "" "$(row B 0.500 exit_code)"
took=$(awk -v s="$(row B 0.500 start_unix_s)" -v e="$(row B 0.500 \
    end_unix_s)" 'BEGIN { print e - s }')
assert_ge sleep_ran_its_timeout "$took" 0.9
assert_le sleep_killed_soon_after "$took" 3
left=0
for pid in $(ip netns pids "$LAB_PREFIX-B"); do
	[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" = "sleep 600 " ] &&
	    left=$((left + 1))
done
assert_eq no_sleep_left_in_B 0 "$left"
# The time plot marks the timed commands at their times (hoplab report).
$HOPLAB report "$D" >"$T/report.log" 2>&1
gp=$(cat "$D"/plots/time_probe_128.gp 2>/dev/null)
assert_match plot_marks_timed_A "label [0-9]+ 'exec A: sh' at 1," "$gp"
assert_match plot_marks_timed_B "label [0-9]+ 'exec B: sleep' at 0.5," "$gp"

# 3.
udp0=$(field teardown 5)
$HOPLAB -o "$T/r2" run "$T/fail.yaml" >"$T/fail.log" 2>&1
rc=$?
assert_ne_0() { [ "$1" != 0 ]; }
assert_ok failing_setup_fails_the_run assert_ne_0 "$rc"
assert_match failing_setup_message "exec setup on A: \`sh -c echo \
oops-on-stderr >&2; exit 3\` exited with 3; stderr: oops-on-stderr" \
    "$(cat "$T/fail.log")"
assert_eq no_packet_after_failed_setup "$udp0" "$(field teardown2 5)"
assert_ok teardown_ran_after_the_failure test -s "$T/teardown2.mark"

# 5.
pid=$(cat "$LAB_STATE/B.pid")
kill "$pid"
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 10 "agent B ends" gone "$pid" || bail agent_b_stop "B did not stop"
setsid ip netns exec "$LAB_PREFIX-B" "$HL_BIN/hoplab-agent" -d -N B \
    -l "$(lab_addr 2):7700" -r "$LAB_STATE/B" -k "$LAB_STATE/keys/B.key" \
    -a "$LAB_STATE/keys/controller.pub" </dev/null >"$T/B2.log" 2>&1 &
echo $! >"$LAB_STATE/B.pid"
wait_listen 10 "$LAB_PREFIX-B" 7700 || bail agent_b_again "B did not listen"
out=$($HOPLAB agents 2>&1)
assert_match agents_exec_yes_for_A "^A .* yes +curve +ok$" "$out"
assert_match agents_exec_no_for_B "^B .* no +curve +ok$" "$out"
rm -f "$T/setup.mark"
$HOPLAB -o "$T/r3" run "$T/ok.yaml" >"$T/refused.log" 2>&1
rc=$?
assert_ok plan_refused_without_allow_exec assert_ne_0 "$rc"
assert_match refusal_names_agent_b "ok.yaml:11: exec\[3\]\.host: agent B \
was not started with --allow-exec" "$(cat "$T/refused.log")"
assert_ok nothing_ran_when_refused test ! -e "$T/setup.mark"
assert_ok no_results_folder_when_refused test ! -e "$T/r3"

# 6. a topology plan: the commands run on its hosts, setup, timed and
# teardown, through the topology runner.
lab_down
cat >"$T/topo.yaml" <<PLAN
name: extopo
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
  links:
    - [H1, R1]
    - [R1, H2]
flows:
  - {name: f1, from: H1, to: H2, mode: udp, frame: 128, idt: 1ms, count: 1500}
exec:
  - {host: R1, at: setup, cmd: [sh, mark.sh, tsetup, "$T"], files: [mark.sh]}
  - {host: H2, at: 0.5s, cmd: [sh, mark.sh, ttimed, "$T"], files: [mark.sh]}
  - {host: H1, at: teardown, cmd: [sh, mark.sh, tteardown, "$T"], files: [mark.sh]}
PLAN
LAB_IS_UP=1
if ! $HOPLAB -k "$LAB_K" lab up --plan "$T/topo.yaml" >"$T/tup.log" 2>&1; then
	sed 's/^/    /' "$T/tup.log"
	bail topo_lab_up "hoplab lab up --plan failed"
fi
if ! $HOPLAB -k "$LAB_K" -o "$T/r4" run "$T/topo.yaml" >"$T/topo.log" 2>&1
then
	sed 's/^/    /' "$T/topo.log"
	fail topo_run "hoplab run topo.yaml failed"
fi
D=$(ls -d "$T"/r4/extopo-* 2>/dev/null)
assert_eq topo_exec_rows 3 "$(($(wc -l <"$D/exec.csv") - 1))"
assert_eq topo_all_exit_0 "0 0 0" "$(csv_col "$D/exec.csv" exit_code |
    tr '\n' ' ' | sed 's/ $//')"
assert_eq topo_setup_in_R1 "$(in_host R1 readlink /proc/self/ns/net)" \
    "$(field tsetup 3)"
assert_eq topo_timed_in_H2 "$(in_host H2 readlink /proc/self/ns/net)" \
    "$(field ttimed 3)"
assert_eq topo_teardown_in_H1 "$(in_host H1 readlink /proc/self/ns/net)" \
    "$(field tteardown 3)"
assert_lt topo_setup_before_timed "$(field tsetup 2)" "$(field ttimed 2)"
assert_lt topo_timed_before_teardown "$(field ttimed 2)" \
    "$(field tteardown 2)"

lab_down
assert_eq lab_down_leaves_no_namespace 0 \
    "$(ip netns list | grep -c "^$LAB_PREFIX-")"
finish
