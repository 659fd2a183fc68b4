#!/bin/sh
#
# t_deploy: `hoplab deploy` and `hoplab undeploy` against a real sshd.
#
# Namespace prefix hlt8, management net K 238 (198.19.238.0/24).
#
# One network namespace hlt8-t is the "machine" (tests/integration/
# sshlab.sh): its mgmt0 has 198.19.238.10/24, the root end hlt8-m-t
# 198.19.238.1/24.  An OpenSSH sshd runs inside it with its own config,
# host key, authorized key and pid file in a temp folder, listening only
# on 198.19.238.10:2222, started and killed by PID.  The namespace shares the file system, so deploy
# installs under --prefix (a temp root), never into /usr/local; without
# systemd in the namespace the agent runs in its own daemon mode.
#
# Checked: the first deploy copies and starts the agent, which answers
# `hoplab agents` over CURVE with the deployed keys; a second deploy
# copies nothing and says "unchanged"; a tampered installed file is
# noticed and replaced; a host whose ssh port refuses is reported; undeploy
# stops the agent (by PID) and leaves nothing under the prefix nor the
# remote staging folder; a second undeploy finds nothing.  All torn down on
# any exit.  Needs root and openssh-server (deploy/deps.sh).

. "$(dirname "$0")/lib.sh"

need_root
NS=hlt8-t
VETH=hlt8-m-t
ADDR=198.19.238.10
ROOT_ADDR=198.19.238.1
PORT=2222
HOPLAB=$HL_BIN/hoplab

T=$(mktemp -d /tmp/hoplab-t-deploy.XXXXXX) || bail tmp "mktemp failed"
at_exit "rm -rf '$T'"
. "$HL_ROOT/tests/integration/sshlab.sh"

# True while PID runs and is not a zombie (a daemon's zombie waits for
# whoever reaps orphans here).
alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# ---------------------------------------------------------------- machine
sshlab_up

"$HOPLAB" keygen "$T/keys" controller "$ADDR" >/dev/null ||
    bail keygen "hoplab keygen failed"

# A snapshot of the programs and scripts, so that a rebuild in the tree
# while this runs cannot change what "unchanged" means.
H=$T/home
mkdir -p "$H/bin" "$H/deploy" &&
    cp "$HL_BIN"/hoplab* "$H/bin/" &&
    cp "$HL_ROOT/deploy/remote.sh" "$HL_ROOT/deploy/hoplab-agent.service" \
    "$H/deploy/" || bail snapshot "cannot copy the programs to $H"
export HOPLAB_HOME="$H"
HOPLAB=$H/bin/hoplab
HL_BIN=$H/bin
R=$T/root
mkdir "$R"
export XDG_STATE_HOME="$T/state"
export TMPDIR="$T"
deploy()
{
	"$HOPLAB" "$@" -k "$T/keys" --prefix "$R" -P "$PORT" -s "$T/id" \
	    "root@$ADDR"
}

# ---------------------------------------------------------------- deploy
out=$(deploy -v deploy 2>"$T/deploy1.err")
rc=$?
echo "    $out"
assert_eq deploy1_exit 0 "$rc"
assert_match deploy1_line \
    "^host root@$ADDR: deployed 0\.1\.0 \([0-9]+ files copied, [0-9]+ installed; no systemd under --prefix: agent in daemon mode.*agent answered in [0-9.]+ s" \
    "$out"
for f in usr/local/lib/hoplab/hoplab-agent usr/local/lib/hoplab/hoplab-gen \
    etc/hoplab/agent.env etc/hoplab/agent.key \
    etc/hoplab/controllers/controller.pub \
    etc/systemd/system/hoplab-agent.service; do
	[ -f "$R/$f" ] || fail "installed_$(basename "$f")" "$R/$f missing"
done
assert_ok installed_agent_same cmp "$HL_BIN/hoplab-agent" \
    "$R/usr/local/lib/hoplab/hoplab-agent"
assert_eq key_mode 600 "$(stat -c %a "$R/etc/hoplab/agent.key")"
# issue 17: bound to the management address, not 0.0.0.0
assert_match agent_env_binds_the_mgmt_address "-l $ADDR:7700 " \
    "$(cat "$R/etc/hoplab/agent.env")"
assert_eq agent_listens_there_only "LISTEN $ADDR:7700" \
    "$(ip netns exec "$NS" ss -Hltn 'sport = :7700' | awk '{ print $1, $4 }')"
assert_match known_host_recorded "ssh-ed25519" \
    "$(cat "$T/state/hoplab/known_hosts" 2>/dev/null)"
stage=$(sed -n "s|.* root@$ADDR:\(/[^ ]*hoplab-deploy\.[A-Za-z0-9]*\)/\$|\1|p" \
    "$T/deploy1.err" | head -n 1)
assert_match stage_named "hoplab-deploy\." "$stage"
[ -n "$stage" ] && [ ! -e "$stage" ] && pass stage_removed ||
    fail stage_removed "remote staging folder '$stage' still there"

PIDF=$R/run/hoplab-agent/agent.pid
pid1=$(cat "$PIDF" 2>/dev/null)
assert_match agent_pid_file "^[0-9]+\$" "$pid1"
assert_eq agent_in_namespace "$NS" "$(ip netns identify "$pid1" 2>/dev/null)"
# Daemon mode keeps the spool in the state folder under the prefix (the
# agent holds its lock there), never in the run folder or the real /var.
assert_ok agent_spool_in_state_folder \
    test -f "$R/var/lib/hoplab-agent/spool/.lock"
assert_eq agent_no_spool_in_run_folder "" \
    "$(ls -d "$R/run/hoplab-agent/spool" 2>/dev/null)"

sshlab_agents_ok "0\.1\.0"

# ---------------------------------------------------------------- again
out=$(deploy deploy 2>&1)
rc=$?
echo "    $out"
assert_eq deploy2_exit 0 "$rc"
assert_match deploy2_unchanged "^host root@$ADDR: unchanged, agent answered" \
    "$out"
assert_eq deploy2_same_agent "$pid1" "$(cat "$PIDF" 2>/dev/null)"

# A changed installed file is noticed (by sha256) and replaced.
printf 'x' >>"$R/usr/local/lib/hoplab/hoplab-gen"
out=$(deploy deploy 2>&1)
rc=$?
echo "    $out"
assert_eq deploy3_exit 0 "$rc"
assert_match deploy3_one_file "deployed 0\.1\.0 \(1 file copied, 1 installed" \
    "$out"
assert_ok deploy3_gen_restored cmp "$HL_BIN/hoplab-gen" \
    "$R/usr/local/lib/hoplab/hoplab-gen"
pid2=$(cat "$PIDF" 2>/dev/null)
alive "$pid1" && fail deploy3_restart "old agent $pid1 still runs" ||
    pass deploy3_restart

# ---------------------------------------------------------------- failures
out=$("$HOPLAB" deploy -k "$T/keys" --prefix "$R" -P 2223 -s "$T/id" \
    "root@$ADDR" 2>&1)
rc=$?
echo "    $out" | head -n 1
assert_eq refused_exit 1 "$rc"
assert_match refused_line "^host root@$ADDR: ssh: connect to host $ADDR port 2223: Connection refused" \
    "$out"
assert_fails bad_target "$HOPLAB" deploy --insecure --insecure-on-network \
    "root@-oProxyCommand=x"
out=$("$HOPLAB" deploy --insecure "root@$ADDR" 2>&1)
assert_eq insecure_alone_exit 2 "$?"
assert_match insecure_alone_names_the_risk \
    "add --insecure-on-network to take that risk" "$out"

# ---------------------------------------------------------------- undeploy
out=$(deploy undeploy 2>&1)
rc=$?
echo "    $out"
assert_eq undeploy_exit 0 "$rc"
assert_match undeploy_line "^host root@$ADDR: undeployed: agent pid $pid2 stopped" \
    "$out"
alive "$pid2" && fail agent_gone "agent $pid2 still runs" ||
    pass agent_gone
left=$(find "$R" -mindepth 1 | head -n 5)
assert_eq nothing_left "" "$left"
assert_eq no_process_left "" "$(ip netns pids "$NS" | grep -vx "$SSHD_PID")"
out=$(deploy undeploy 2>&1)
assert_match undeploy2_nothing "^host root@$ADDR: nothing installed" "$out"

finish
