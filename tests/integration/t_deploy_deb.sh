#!/bin/sh
#
# t_deploy_deb: `hoplab deploy --deb` installs the package of `make deb`
# on a machine over ssh, and `hoplab undeploy` purges it again.
#
# Namespace prefix hldd, management net K 197 (198.19.197.0/24): the
# machine is namespace hldd-t with an sshd on 198.19.197.10:2222
# (tests/integration/sshlab.sh, as t_deploy.sh).
#
# The namespace shares the file system with this machine, so the package
# is installed for real, here, with apt-get, and the agent's files go to
# the real /etc/hoplab, /run/hoplab-agent and /var/lib/hoplab-agent.  So
# the test refuses to run (SKIP, exit 0) when a hoplab package is
# installed already or any of those folders exists: it never removes a
# user's install.  On any exit it stops the agent it started (by PID),
# purges the package and removes those folders.
#
# The .deb is built from this tree by deploy/deb.sh (about 50 s) once per
# tree: it is kept in build/deb-cache/TREE/, TREE the git tree hash of the
# work tree as it is (committed or not) without tests/ (which the package
# does not hold), and built again only when that changes.
#
# Two such scenarios (this one, tests/deb/t_deb.sh) never run at once: they
# hold /run/lock/hoplab-package-test.lock (flock).
#
# Checked: a file that is not a .deb, a .deb of another architecture and a
# target without dpkg are refused with the host and the file named; the
# first deploy installs the package (dpkg says installed, the agent runs
# from /usr/lib/hoplab/bin in the namespace) and the agent answers
# `hoplab agents` over CURVE; a second deploy says unchanged and copies
# nothing; a repacked .deb of the same version is reinstalled and the
# agent restarted; a copy deploy there is refused; undeploy stops the
# agent, purges the package (dpkg knows nothing of hoplab), every file
# `dpkg -L hoplab` listed is gone and nothing of hoplab is left but a
# spool folder that holds an entry, which it names; a second undeploy
# finds nothing.  The same with systemd on the target (a stand-in
# systemctl, below): the package's unit is enabled and restarted, its
# agent answers, undeploy disables it and leaves nothing.  Needs root, openssh-server,
# dpkg-dev, debhelper and the build dependencies (deploy/deps.sh).

. "$(dirname "$0")/lib.sh"

need_root
NS=hldd-t
VETH=hldd-m-t
ADDR=198.19.197.10
ROOT_ADDR=198.19.197.1
PORT=2222
NODPKG_PORT=2223
HOPLAB=$HL_BIN/hoplab
SPOOL=/var/lib/hoplab-agent/spool

skip()
{
	echo "$HL_SCENARIO: SKIP: $*"
	exit 0
}

# One scenario at a time installs the package here (also from another
# work tree), and nothing of hoplab may be on this machine before: the
# test removes it.
deb_lock || skip "another scenario installs the hoplab package here" \
    "(/run/lock/hoplab-package-test.lock held for 120 s)"
st=$(dpkg-query -W -f='${Status}' hoplab 2>/dev/null)
case $st in
''|*not-installed*) ;;
*) skip "a hoplab package is installed on this machine ($st):" \
    "this test would remove it" ;;
esac
for d in /etc/hoplab /run/hoplab-agent /var/lib/hoplab-agent \
    /usr/local/lib/hoplab /etc/systemd/system/hoplab-agent.service; do
	[ -e "$d" ] && skip "$d exists on this machine: this test would remove it"
done
command -v dpkg-buildpackage >/dev/null 2>&1 &&
    command -v dh >/dev/null 2>&1 ||
    skip "the .deb cannot be built: no dpkg-buildpackage or debhelper" \
    "(apt-get install dpkg-dev debhelper)"

T=$(mktemp -d /tmp/hoplab-t-deploy-deb.XXXXXX) || bail tmp "mktemp failed"
MINE=0		# 1 once this test may have installed the package
AGENT_PID=

# The agent this test started (its pid file's process, if it is the
# package's agent), the package and the agent's folders: all gone.
cleanup_machine()
{
	p=$(cat /run/hoplab-agent/agent.pid 2>/dev/null)
	case $p in
	''|*[!0-9]*) ;;
	*)	case $(readlink "/proc/$p/exe" 2>/dev/null) in
		/usr/lib/hoplab/bin/hoplab-agent*) kill -KILL "$p" ;;
		esac ;;
	esac
	[ -n "$AGENT_PID" ] && kill -KILL "$AGENT_PID" 2>/dev/null
	if [ "$MINE" = 1 ]; then
		case $(dpkg-query -W -f='${Status}' hoplab 2>/dev/null) in
		''|*not-installed*) ;;
		*) DEBIAN_FRONTEND=noninteractive apt-get purge -y -q hoplab \
		    >/dev/null 2>&1 ;;
		esac
		rm -rf /etc/hoplab /run/hoplab-agent /var/lib/hoplab-agent \
		    /usr/local/lib/hoplab /etc/systemd/system/hoplab-agent.service
	fi
	rm -rf "$T"
}
at_exit cleanup_machine

alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# ---------------------------------------------------------------- the .deb
# The work tree's git tree hash (untracked files that are not ignored
# too: what deb.sh copies) but tests/, through an index of our own.
tree=$(cd "$HL_ROOT" && export GIT_INDEX_FILE="$T/index" &&
    git read-tree HEAD && git add -A && git rm -r -q --cached tests &&
    git write-tree) ||
    bail tree_hash "git cannot hash the work tree"
CACHE=$HL_ROOT/build/deb-cache
DEB=$(ls "$CACHE/$tree"/hoplab_*_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)
if [ -z "$DEB" ]; then
	t0=$(date +%s)
	rm -rf "$CACHE" && mkdir -p "$CACHE" || bail cache "cannot make $CACHE"
	# nice: make check's lane of delay measurements runs beside this.
	(cd "$HL_ROOT" && HOPLAB_DEB_OUT=build/deb-cache/$tree.tmp \
	    HOPLAB_DEB_LINT=0 nice -n 19 sh deploy/deb.sh) >"$T/deb.log" 2>&1 || {
		tail -n 20 "$T/deb.log" | sed 's/^/    /'
		bail make_deb "deploy/deb.sh failed"
	}
	mv "$CACHE/$tree.tmp" "$CACHE/$tree" || bail cache "cannot rename"
	DEB=$(ls "$CACHE/$tree"/hoplab_*_*.deb | grep -v dbgsym | head -n 1)
	echo "    built $DEB in $(($(date +%s) - t0)) s"
else
	echo "    $DEB from the cache (tree $tree)"
fi
VERSION=$(dpkg-deb -f "$DEB" Version)
ARCH=$(dpkg --print-architecture)

# ---------------------------------------------------------------- machine
. "$HL_ROOT/tests/integration/sshlab.sh"
sshlab_up
MAIN_SSHD=$SSHD_PID
"$HOPLAB" keygen "$T/keys" controller "$ADDR" >/dev/null ||
    bail keygen "hoplab keygen failed"
export XDG_STATE_HOME="$T/state"
export TMPDIR="$T"
deploy()
{
	_p=$1
	shift
	"$HOPLAB" "$@" -k "$T/keys" -P "$_p" -s "$T/id" "root@$ADDR"
}

# deploy_ok NAME PORT REGEX ARG...: `deploy PORT ARG...` exits 0 and
# says REGEX (checks NAME_exit and NAME_line); what it said in $out.
deploy_ok()
{
	_name=$1
	_port=$2
	_re=$3
	shift 3
	out=$(deploy "$_port" "$@" 2>&1)
	_rc=$?
	echo "$out" | sed 's/^/    /'
	assert_eq "${_name}_exit" 0 "$_rc"
	assert_match "${_name}_line" "$_re" "$out"
}

# ---------------------------------------------------------------- bad input
printf 'not a package\n' >"$T/bad.deb"
out=$(deploy "$PORT" deploy --deb "$T/bad.deb" 2>&1)
assert_eq notadeb_exit 2 "$?"
assert_match notadeb_names_file_and_host \
    "--deb $T/bad\.deb: not a Debian package .*nothing deployed to host root@$ADDR" \
    "$out"
echo "    $out"

# A .deb named hoplab for another architecture (dpkg-deb --build of a
# control file alone).
other=arm64
[ "$ARCH" = arm64 ] && other=amd64
mkdir -p "$T/other/DEBIAN"
printf 'Package: hoplab\nVersion: %s\nArchitecture: %s\nMaintainer: t <t@hoplab.invalid>\nDescription: test\n' \
    "$VERSION" "$other" >"$T/other/DEBIAN/control"
dpkg-deb -Zgzip --build "$T/other" "$T/other.deb" >/dev/null ||
    bail other_deb "dpkg-deb --build failed"
out=$(deploy "$PORT" deploy --deb "$T/other.deb" 2>&1)
assert_eq other_arch_exit 1 "$?"
assert_match other_arch_line \
    "^host root@$ADDR: $T/other\.deb is a package for $other, the target's dpkg architecture is $ARCH" \
    "$out"
echo "    $out" | head -n 1

# A target without dpkg: a second sshd whose sessions see a /usr/bin/dpkg
# that is not executable (a bind mount in a mount namespace of its own;
# unshare makes it private, nothing changes on this machine).
printf '#!/bin/sh\nexit 1\n' >"$T/nodpkg"
chmod 0644 "$T/nodpkg"
cat >"$T/nodpkg.sh" <<EOF
mount --bind "$T/nodpkg" /usr/bin/dpkg || exit 1
exec "\$@"
EOF
sshlab_sshd nodpkg "$NODPKG_PORT" unshare -m sh "$T/nodpkg.sh"
out=$(deploy "$NODPKG_PORT" deploy --deb "$DEB" 2>&1)
assert_eq no_dpkg_exit 1 "$?"
assert_match no_dpkg_line \
    "^host root@$ADDR: $DEB: the target has no dpkg \(not a Debian system\?\)" \
    "$out"
echo "    $out" | head -n 1
kill "$SSHD_PID" && wait "$SSHD_PID" 2>/dev/null
case $(dpkg-query -W -f='${Status}' hoplab 2>/dev/null) in
''|*not-installed*) pass bad_input_installed_nothing ;;
*) fail bad_input_installed_nothing "hoplab is installed" ;;
esac

# ---------------------------------------------------------------- deploy
MINE=1
t0=$(date +%s)
out=$(deploy "$PORT" -v deploy --deb "$DEB" 2>"$T/deploy1.err")
rc=$?
echo "    $out ($(($(date +%s) - t0)) s)"
assert_eq deploy1_exit 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/    /' "$T/deploy1.err" | tail -n 20
assert_match deploy1_line \
    "^host root@$ADDR: deployed $VERSION \(package hoplab $VERSION installed from $DEB; [0-9]+ files copied, 3 installed; no systemd on the target: agent in daemon mode, pid file /run/hoplab-agent/agent\.pid, pid [0-9]+\), agent answered in [0-9.]+ s" \
    "$out"
assert_eq dpkg_installed "install ok installed $VERSION" \
    "$(dpkg-query -W -f='${Status} ${Version}' hoplab 2>/dev/null)"
dpkg -L hoplab >"$T/files" 2>/dev/null
n=$(grep -c . "$T/files")
assert_gt dpkg_lists_files "$n" 50
AGENT_PID=$(cat /run/hoplab-agent/agent.pid 2>/dev/null)
assert_match agent_pid_file "^[0-9]+\$" "$AGENT_PID"
assert_eq agent_from_package /usr/lib/hoplab/bin/hoplab-agent \
    "$(readlink "/proc/$AGENT_PID/exe" 2>/dev/null)"
assert_eq agent_in_namespace "$NS" "$(ip netns identify "$AGENT_PID" 2>/dev/null)"
assert_eq key_mode 600 "$(stat -c %a /etc/hoplab/agent.key 2>/dev/null)"
assert_match agent_env_binds_the_mgmt_address "-l $ADDR:7700 " \
    "$(cat /etc/hoplab/agent.env 2>/dev/null)"
assert_eq no_copied_programs "" "$(ls -d /usr/local/lib/hoplab 2>/dev/null)"
assert_ok agent_spool_in_state_folder test -f "$SPOOL/.lock"

sshlab_agents_ok "$VERSION"

# ---------------------------------------------------------------- again
out=$(deploy "$PORT" -v deploy --deb "$DEB" 2>"$T/deploy2.err")
rc=$?
echo "    $out"
assert_eq deploy2_exit 0 "$rc"
assert_match deploy2_unchanged \
    "^host root@$ADDR: unchanged \(package hoplab already installed\), agent answered" \
    "$out"
assert_eq deploy2_copied_nothing "" "$(grep '^/usr/bin/scp ' "$T/deploy2.err")"
assert_eq deploy2_same_agent "$AGENT_PID" "$(cat /run/hoplab-agent/agent.pid 2>/dev/null)"

# A .deb of the same version with other content (repacked with one line
# more in its README) is copied and reinstalled, and the agent restarted.
dpkg-deb -R "$DEB" "$T/re" && echo "t_deploy_deb" >>"$T/re/usr/share/doc/hoplab/README.md" &&
    dpkg-deb -Zgzip --build "$T/re" "$T/hoplab_re.deb" >/dev/null ||
    bail repack "cannot repack $DEB"
deploy_ok deploy3 "$PORT" \
    "^host root@$ADDR: deployed $VERSION \(package hoplab $VERSION installed from $T/hoplab_re\.deb; 1 file copied, 0 installed;" \
    deploy --deb "$T/hoplab_re.deb"
assert_eq deploy3_new_content t_deploy_deb \
    "$(tail -n 1 /usr/share/doc/hoplab/README.md 2>/dev/null)"
alive "$AGENT_PID" && fail deploy3_restart "old agent $AGENT_PID still runs" ||
    pass deploy3_restart
AGENT_PID=$(cat /run/hoplab-agent/agent.pid 2>/dev/null)
assert_eq deploy3_agent_from_package /usr/lib/hoplab/bin/hoplab-agent \
    "$(readlink "/proc/$AGENT_PID/exe" 2>/dev/null)"

# A copy deploy onto the package's host is refused (one or the other).
H=$T/home
mkdir -p "$H/bin" "$H/deploy" && cp "$HL_BIN"/hoplab* "$H/bin/" &&
    cp "$HL_ROOT/deploy/remote.sh" "$HL_ROOT/deploy/hoplab-agent.service" \
    "$H/deploy/"
out=$(HOPLAB_HOME=$H deploy "$PORT" deploy 2>&1)
assert_eq copy_over_package_exit 1 "$?"
assert_match copy_over_package_refused \
    "^host root@$ADDR: hoplab was deployed here as a package \(/etc/hoplab/MANIFEST\)" \
    "$out"
assert_eq copy_over_package_nothing_copied "" \
    "$(ls -d /usr/local/lib/hoplab /etc/systemd/system/hoplab-agent.service 2>/dev/null)"

# ---------------------------------------------------------------- undeploy
# An entry in the spool (results no controller collected) keeps it.
echo x >"$SPOOL/t_deploy_deb.keep"
deploy_ok undeploy "$PORT" \
    "^host root@$ADDR: undeployed: agent pid $AGENT_PID stopped, package hoplab $VERSION purged, [0-9]+ files and folders removed; kept the spool folder $SPOOL \(1 entry no controller collected" \
    undeploy
alive "$AGENT_PID" && fail agent_gone "agent $AGENT_PID still runs" ||
    pass agent_gone
assert_eq dpkg_knows_nothing "" \
    "$(dpkg-query -W -f='${Status}' hoplab 2>/dev/null | grep -v not-installed)"
assert_eq dpkg_l_nothing "" "$(dpkg -l 'hoplab*' 2>/dev/null | grep '^[a-z][a-z] ')"
assert_eq package_files_gone "" "$(files_left "$T/files")"
assert_eq only_the_spool_left "$SPOOL/t_deploy_deb.keep" \
    "$(find /etc/hoplab /run/hoplab-agent /var/lib/hoplab-agent /usr/lib/hoplab \
    /usr/share/hoplab /usr/share/doc/hoplab -mindepth 1 -not -type d 2>/dev/null)"
assert_eq no_systemd_state_left "" \
    "$(find /var/lib/systemd /etc/systemd -name '*hoplab*' 2>/dev/null)"
rm -rf /var/lib/hoplab-agent
out=$(deploy "$PORT" undeploy 2>&1)
assert_match undeploy2_nothing "^host root@$ADDR: nothing installed" "$out"

# ---------------------------------------------------------------- systemd
# A target where systemd runs: a third sshd whose mount namespace has a
# /run/systemd/system (a tmpfs on /run/systemd) and, over
# /usr/bin/systemctl, a stand-in that logs each call and, for start and
# restart, runs the package's unit as systemd would: its ExecStart with
# EnvironmentFile's HOPLAB_AGENT_OPTS, RuntimeDirectory and
# StateDirectory made first; stop and disable --now end that process and
# remove the run folder.  What is checked is that deploy drives the
# package's unit (enable, restart, is-active, MainPID, disable --now), and
# that the agent the unit's command line starts answers.
SYSD_PORT=2224
cat >"$T/systemctl" <<EOF2
#!/bin/sh
echo "\$*" >>"$T/systemctl.log"
unit=/lib/systemd/system/hoplab-agent.service
pidf=$T/unit.pid
running()
{
	p=\$(cat "\$pidf" 2>/dev/null) && [ -n "\$p" ] && kill -0 "\$p" 2>/dev/null
}
stop()
{
	if running; then
		kill "\$p"
		i=0
		while kill -0 "\$p" 2>/dev/null && [ \$i -lt 50 ]; do
			sleep 0.1
			i=\$((i + 1))
		done
	fi
	rm -rf "\$pidf" /run/hoplab-agent
}
start()
{
	[ -f "\$unit" ] || exit 5
	HOPLAB_AGENT_OPTS=
	. /etc/hoplab/agent.env
	mkdir -p -m 0700 /run/hoplab-agent /var/lib/hoplab-agent
	eval "set -- \$(sed -n 's/^ExecStart=//p' "\$unit")"
	setsid "\$@" </dev/null >>"$T/unit.log" 2>&1 &
	echo \$! >"\$pidf"
}
case \$1 in
restart) stop; start ;;
start) running || start ;;
stop) stop ;;
disable) case "\$*" in *--now*) stop ;; esac ;;
is-active) running ;;
show) if running; then echo "\$p"; else echo 0; fi ;;
esac
exit 0
EOF2
chmod 0755 "$T/systemctl"
cat >"$T/systemd.sh" <<EOF2
mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system &&
    mount --bind "$T/systemctl" /usr/bin/systemctl || exit 1
exec "\$@"
EOF2
sshlab_sshd systemd "$SYSD_PORT" unshare -m sh "$T/systemd.sh"
SYSD_SSHD=$SSHD_PID
deploy_ok sysd_deploy "$SYSD_PORT" \
    "^host root@$ADDR: deployed $VERSION \(package hoplab $VERSION installed from $DEB; 4 files copied, 3 installed; systemd unit hoplab-agent, pid [0-9]+\), agent answered" \
    deploy --deb "$DEB"
AGENT_PID=$(cat "$T/unit.pid" 2>/dev/null)
assert_match sysd_unit_enabled_restarted \
    "enable -q hoplab-agent.service.restart hoplab-agent.service" \
    "$(tr '\n' '.' <"$T/systemctl.log" 2>/dev/null)"
assert_eq sysd_agent_from_package /usr/lib/hoplab/bin/hoplab-agent \
    "$(readlink "/proc/$AGENT_PID/exe" 2>/dev/null)"
assert_match sysd_agent_runs_the_units_command \
    "^/usr/sbin/hoplab-agent -d -r /run/hoplab-agent --spool /var/lib/hoplab-agent/spool -N $ADDR -l $ADDR:7700 -k /etc/hoplab/agent.key -a /etc/hoplab/controllers\$" \
    "$(tr '\0' ' ' <"/proc/$AGENT_PID/cmdline" 2>/dev/null | sed 's/ $//')"
sshlab_agents_ok "$VERSION" sysd_agents
out=$(deploy "$SYSD_PORT" deploy --deb "$DEB" 2>&1)
assert_match sysd_deploy2_unchanged \
    "^host root@$ADDR: unchanged \(package hoplab already installed\)" "$out"
assert_eq sysd_deploy2_same_agent "$AGENT_PID" "$(cat "$T/unit.pid" 2>/dev/null)"
deploy_ok sysd_undeploy "$SYSD_PORT" \
    "^host root@$ADDR: undeployed: agent pid $AGENT_PID stopped, package hoplab $VERSION purged, [0-9]+ files and folders removed\$" \
    undeploy
assert_match sysd_unit_disabled "disable -q --now hoplab-agent.service" \
    "$(cat "$T/systemctl.log" 2>/dev/null)"
alive "$AGENT_PID" && fail sysd_agent_gone "agent $AGENT_PID still runs" ||
    pass sysd_agent_gone
assert_eq sysd_dpkg_knows_nothing "" \
    "$(dpkg-query -W -f='${Status}' hoplab 2>/dev/null | grep -v not-installed)"
assert_eq sysd_nothing_left "" \
    "$(ls -d /etc/hoplab /run/hoplab-agent /var/lib/hoplab-agent /usr/lib/hoplab 2>/dev/null)"
kill "$SYSD_SSHD" && wait "$SYSD_SSHD" 2>/dev/null
assert_eq no_process_left "" "$(ip netns pids "$NS" | grep -vx "$MAIN_SSHD")"

finish
