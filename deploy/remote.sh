#!/bin/sh
#
# remote.sh: the target side of `hoplab deploy` and `hoplab undeploy`.
#
# The controller never copies this file to the target: it runs
#
#	ssh [options] [user@]host sh -s -- ACTION ARG...  < deploy/remote.sh
#
# so the target needs nothing but a POSIX sh, coreutils and sha256sum.
# Every ARG was validated by the controller (absolute paths and names made
# of [A-Za-z0-9._/:-] only), so the remote shell needs no quoting.  The
# output is one "KEY VALUE..." line per fact, parsed by controller/deploy/deploy.c;
# anything the user should read comes as "error TEXT" lines.
#
# Actions:
#   probe PREFIX DEST...      facts about the target: arch, uid, whether
#                             systemd runs, whether cc and make exist, the
#                             sha256 of each installed DEST (relative to
#                             PREFIX) and whether the agent runs; creates a
#                             private staging folder and prints its path
#   build STAGE JOBS TARGET.. unpack STAGE/src.tar.gz, run make TARGET...
#                             there, leave the programs in STAGE
#   install PREFIX STAGE DEST:MODE...
#                             install each staged file whose content
#                             differs, record it in the manifest, start or
#                             restart the agent as needed, remove STAGE
#   cleanup STAGE             remove a staging folder after a failure
#   install-deb STAGE DEST:MODE...
#                             (`deploy --deb`, PREFIX /) apt-get install
#                             STAGE/hoplab.deb when it was copied, install
#                             the staged configuration files, start or
#                             restart the package's agent, remove STAGE
#   undeploy PREFIX           stop and disable the agent, remove every file
#                             and folder the manifest lists; after
#                             `deploy --deb` also apt-get purge hoplab
#
# Layout under PREFIX ("/" on a real machine; a temporary root in tests):
#   usr/local/lib/hoplab/      the programs and MANIFEST
#   etc/hoplab/agent.env       HOPLAB_AGENT_OPTS for the agent
#   etc/systemd/system/hoplab-agent.service
#   run/hoplab-agent/          run folder in daemon mode (systemd makes
#                              /run/hoplab-agent itself: RuntimeDirectory)
#   var/lib/hoplab-agent/spool/  the spool in daemon mode (systemd makes
#                              /var/lib/hoplab-agent: StateDirectory); left
#                              by undeploy while it holds results
#
# With `deploy --deb` the package holds the programs (/usr/lib/hoplab/bin,
# /usr/sbin/hoplab-agent) and the unit (/lib/systemd/system); deploy adds
# only etc/hoplab/ (agent.env, the keys) and its manifest
# etc/hoplab/MANIFEST, whose "deb SHA256" line is the checksum of the .deb
# it installed last (the probe's "debsha").  A host is deployed one way
# or the other: each refuses while the other's manifest is there.
#
# systemd is used when PREFIX is / and systemd runs (/run/systemd/system
# exists, sd_booted(3)); otherwise the agent is started in its own daemon
# mode with a pid file, and the output says so.
#
# It deliberately does not: install packages other than the hoplab .deb
# it was given (apt-get brings that one's dependencies), edit files it did
# not install, remove anything not listed in its manifest (the hoplab
# package only when the manifest says deploy installed it), or kill a
# process other than the agent whose pid file and executable it checks.

set -u

lib=usr/local/lib/hoplab
unit=etc/systemd/system/hoplab-agent.service
envf=etc/hoplab/agent.env
rund=run/hoplab-agent
stated=var/lib/hoplab-agent
debman=etc/hoplab/MANIFEST
debexe=usr/lib/hoplab/bin/hoplab-agent
# apt-get and dpkg wait for a lock another apt holds (unattended-upgrades)
# instead of failing at once.
apt="apt-get -q -y -o DPkg::Lock::Timeout=120"

err()
{
	echo "error $*"
}

# Print the sha256 of FILE, or "-" when it does not exist.
sha()
{
	if [ -f "$1" ]; then
		sha256sum <"$1" | cut -d' ' -f1
	else
		echo -
	fi
}

# PREFIX without its trailing slash ("/" becomes "").
root_of()
{
	case $1 in
	/) echo "" ;;
	*) echo "${1%/}" ;;
	esac
}

use_systemd()
{
	[ "$1" = "" ] && [ -d /run/systemd/system ] &&
	    command -v systemctl >/dev/null 2>&1
}

alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	al_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$al_st" ] && [ "$al_st" != Z ]
}

# Print the PID of the daemon-mode agent under ROOT if it runs: the pid
# file's process must still be ROOT's hoplab-agent (also when the binary
# was replaced: the kernel then says "(deleted)").
daemon_pid()
{
	dp_f=$1/$rund/agent.pid
	[ -r "$dp_f" ] || return 1
	dp_p=$(cat "$dp_f" 2>/dev/null)
	case $dp_p in ''|*[!0-9]*) return 1 ;; esac
	alive "$dp_p" || return 1
	dp_exe=$(readlink "/proc/$dp_p/exe" 2>/dev/null)
	case ${dp_exe% (deleted)} in
	"$1/$lib/hoplab-agent"|"$1/$debexe")
		echo "$dp_p"
		return 0 ;;
	esac
	return 1
}

cmd_probe()
{
	pr_root=$(root_of "$1")
	shift
	echo "arch $(uname -m)"
	echo "uid $(id -u)"
	if use_systemd "$pr_root"; then echo "systemd 1"; else echo "systemd 0"; fi
	if command -v cc >/dev/null 2>&1; then echo "cc 1"; else echo "cc 0"; fi
	if command -v make >/dev/null 2>&1; then echo "make 1"; else echo "make 0"; fi
	for pr_d in "$@"; do
		echo "sha $pr_d $(sha "$pr_root/$pr_d")"
	done
	probe_deb "$pr_root"
	if use_systemd "$pr_root"; then
		pr_p=$(systemctl show -p MainPID --value hoplab-agent.service \
		    2>/dev/null)
		if [ -n "$pr_p" ] && [ "$pr_p" != 0 ]; then
			echo "agent $pr_p"
		else
			echo "agent -"
		fi
	elif pr_p=$(daemon_pid "$pr_root"); then
		echo "agent $pr_p"
	else
		echo "agent -"
	fi
	pr_s=$(mktemp -d "${TMPDIR:-/tmp}/hoplab-deploy.XXXXXX") ||
	    { err "cannot create a staging folder in ${TMPDIR:-/tmp}"; exit 1; }
	echo "stage $pr_s"
}

# The facts `deploy --deb` needs: dpkg's architecture ("-": no dpkg),
# the installed hoplab package's version ("-": none), whether the copied
# programs' manifest or deploy's package manifest is there, and the sha256
# of the .deb deploy installed last.
probe_deb()
{
	if command -v dpkg >/dev/null 2>&1; then
		echo "dpkg $(dpkg --print-architecture)"
	else
		echo "dpkg -"
	fi
	pd_v=$(dpkg-query -W -f='${Status} ${Version}' hoplab 2>/dev/null)
	case $pd_v in
	"install ok installed "*) echo "debver ${pd_v##* }" ;;
	*) echo "debver -" ;;
	esac
	[ -f "$1/$lib/MANIFEST" ] && echo "copied 1" || echo "copied 0"
	if [ -z "$1" ] && [ -f "/$debman" ]; then
		echo "debmanifest 1"
		pd_s=$(sed -n 's/^deb //p' "/$debman")
		echo "debsha ${pd_s:--}"
	else
		echo "debmanifest 0"
	fi
}

cmd_build()
{
	bu_s=$1
	bu_j=$2
	shift 2
	command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 ||
	    { err "the target has no C compiler (cc) or no make"; exit 1; }
	mkdir "$bu_s/src" && tar -xzf "$bu_s/src.tar.gz" -C "$bu_s/src" ||
	    { err "cannot unpack the sources in $bu_s"; exit 1; }
	if ! make -C "$bu_s/src" -j "$bu_j" "$@" >"$bu_s/build.log" 2>&1; then
		err "make on the target failed; its last lines:"
		tail -n 15 "$bu_s/build.log" | sed 's/^/error   /'
		exit 1
	fi
	for bu_t in "$@"; do
		cp "$bu_s/src/$bu_t" "$bu_s/" || { err "cannot copy $bu_t"; exit 1; }
	done
	rm -rf "$bu_s/src" "$bu_s/src.tar.gz"
	echo "built $*"
}

# Add "KIND PATH" to the manifest once.
note()
{
	grep -qxF "$1 $2" "$manifest" 2>/dev/null || echo "$1 $2" >>"$manifest"
}

# mkdir -p ROOT/REL, noting in the manifest each folder it creates (in
# md_new too, for the folders made before the manifest exists).
make_dirs()
{
	md_p=
	md_rest=$1
	while [ -n "$md_rest" ]; do
		md_c=${md_rest%%/*}
		case $md_rest in
		*/*) md_rest=${md_rest#*/} ;;
		*) md_rest= ;;
		esac
		[ -n "$md_c" ] || continue
		md_p=${md_p:+$md_p/}$md_c
		[ -d "$inst_root/$md_p" ] && continue
		mkdir -m 0755 "$inst_root/$md_p" || return 1
		md_new="$md_new $md_p"
		[ -n "$manifest" ] && note dir "$md_p"
	done
	return 0
}

# Install STAGE/basename(DEST) as ROOT/DEST with MODE if its content differs.
install_one()
{
	io_dest=${1%:*}
	io_mode=${1##*:}
	io_src=$2/${io_dest##*/}
	[ -f "$io_src" ] || return 0
	if [ "$(sha "$io_src")" = "$(sha "$inst_root/$io_dest")" ]; then
		echo "same $io_dest"
		note file "$io_dest"
		return 0
	fi
	make_dirs "${io_dest%/*}" || { err "cannot create ${io_dest%/*}"; return 1; }
	cp "$io_src" "$inst_root/$io_dest.new" &&
	    chmod "$io_mode" "$inst_root/$io_dest.new" &&
	    mv -f "$inst_root/$io_dest.new" "$inst_root/$io_dest" ||
	    { err "cannot install $inst_root/$io_dest"; return 1; }
	note file "$io_dest"
	echo "installed $io_dest"
	changed=1
}

# The agent's options from agent.env (HOPLAB_AGENT_OPTS="...").
agent_opts()
{
	sed -n 's/^HOPLAB_AGENT_OPTS="\(.*\)"$/\1/p' "$inst_root/$envf" 2>/dev/null
}

stop_pid()
{
	kill -TERM "$1" 2>/dev/null
	sp_i=0
	while alive "$1" && [ $sp_i -lt 50 ]; do
		sleep 0.1
		sp_i=$((sp_i + 1))
	done
	alive "$1" && kill -KILL "$1" 2>/dev/null
	sleep 0.1
	! alive "$1"
}

start_daemon()
{
	sd_dir=$inst_root/$rund
	if sd_p=$(daemon_pid "$inst_root"); then
		if [ "$changed" = 0 ]; then
			echo "agent running $sd_p"
			return 0
		fi
		stop_pid "$sd_p" || { err "agent pid $sd_p does not stop"; return 1; }
	fi
	make_dirs "$rund" || { err "cannot create $sd_dir"; return 1; }
	note tree "$rund"
	make_dirs "$stated" ||
	    { err "cannot create $inst_root/$stated"; return 1; }
	note_spool
	rm -f "$sd_dir/agent.pid"
	# The agent daemonizes itself (daemon(3)) and writes agent.pid.
	# shellcheck disable=SC2046
	"$agent_bin" -r "$sd_dir" \
	    --spool "$inst_root/$stated/spool" $(agent_opts) \
	    </dev/null >/dev/null 2>"$sd_dir/start.err" ||
	    { err "the agent did not start: $(tail -n 3 "$sd_dir/start.err")"; return 1; }
	sd_i=0
	while [ $sd_i -lt 50 ]; do
		if sd_p=$(daemon_pid "$inst_root"); then
			echo "agent started $sd_p"
			return 0
		fi
		sleep 0.1
		sd_i=$((sd_i + 1))
	done
	err "the agent exited at once; last lines of $sd_dir/agent.log:"
	tail -n 5 "$sd_dir/agent.log" "$sd_dir/start.err" 2>/dev/null |
	    sed 's/^/error   /'
	return 1
}

# The spool outlives the run folder, and undeploy while it holds results:
# its folders are noted as dirs, removed only when empty, and its lock
# file as a file.  (With systemd, StateDirectory= makes them.)
note_spool()
{
	note dir "$stated"
	note dir "$stated/spool"
	note file "$stated/spool/.lock"
}

start_systemd()
{
	note_spool
	systemctl daemon-reload || { err "systemctl daemon-reload failed"; return 1; }
	systemctl enable -q hoplab-agent.service ||
	    { err "systemctl enable hoplab-agent failed"; return 1; }
	if [ "$changed" = 1 ]; then
		systemctl restart hoplab-agent.service
		ss_what=started
	elif systemctl is-active -q hoplab-agent.service; then
		ss_what=running
	else
		systemctl start hoplab-agent.service
		ss_what=started
	fi
	sleep 0.2
	if ! systemctl is-active -q hoplab-agent.service; then
		err "hoplab-agent.service is not active; journalctl says:"
		journalctl -q -n 5 -u hoplab-agent.service 2>/dev/null |
		    sed 's/^/error   /'
		return 1
	fi
	echo "agent $ss_what $(systemctl show -p MainPID --value hoplab-agent.service)"
}

cmd_install()
{
	inst_root=$(root_of "$1")
	in_stage=$2
	shift 2
	manifest=
	md_new=
	changed=0
	agent_bin=$inst_root/$lib/hoplab-agent
	if [ -z "$inst_root" ] && [ -f "/$debman" ]; then
		rm -rf "$in_stage"
		err "hoplab was deployed here as a package (/$debman): deploy" \
		    "with --deb, or hoplab undeploy first"
		exit 1
	fi
	start_manifest "$lib/MANIFEST"
	install_staged 0 "$@"
	start_agent
}

# Make the folder of the manifest REL (under inst_root) and start it:
# the folders just made, the manifest itself.
start_manifest()
{
	make_dirs "${1%/*}" || { err "cannot create $inst_root/${1%/*}"; exit 1; }
	manifest=$inst_root/$1
	for sm_d in $md_new; do
		note dir "$sm_d"
	done
	note file "$1"
}

# Unless RC (of what came before) is not 0, install each staged
# DEST:MODE; remove the stage; exit 1 when anything failed.
install_staged()
{
	is_rc=$1
	shift
	if [ "$is_rc" = 0 ]; then
		for is_spec in "$@"; do
			install_one "$is_spec" "$in_stage" || is_rc=1
		done
	fi
	rm -rf "$in_stage"
	[ "$is_rc" = 0 ] || exit 1
}

# Check the agent's configuration, then start it (systemd, else daemon
# mode) or leave it running when nothing changed.
start_agent()
{
	# A rejected configuration is reported before anything is started.
	# shellcheck disable=SC2046
	in_chk=$("$agent_bin" -n $(agent_opts) 2>&1) ||
	    { err "the agent does not run on this machine: $in_chk"; exit 1; }
	if use_systemd "$inst_root"; then
		note mode systemd
		echo "mode systemd"
		start_systemd || exit 1
	else
		note mode daemon
		echo "mode daemon $inst_root/$rund/agent.pid"
		start_daemon || exit 1
	fi
}

# apt-get install the staged .deb (its dependencies from the target's
# repositories; --reinstall: a rebuilt .deb of the installed version is
# still installed), then record its sha256 in the manifest.
install_deb()
{
	id_sha=$(sha "$1")
	note package hoplab
	if ! DEBIAN_FRONTEND=noninteractive $apt --reinstall --allow-downgrades \
	    --no-install-recommends install "$1" >"$in_stage/apt.log" 2>&1; then
		err "apt-get install of the package failed; its last lines:"
		tail -n 8 "$in_stage/apt.log" | sed 's/^/error   /'
		return 1
	fi
	grep -v '^deb ' "$manifest" >"$manifest.new"
	echo "deb $id_sha" >>"$manifest.new"
	mv -f "$manifest.new" "$manifest"
	echo "package $(dpkg-query -W -f='${Version}' hoplab)"
	changed=1
}

cmd_install_deb()
{
	inst_root=
	in_stage=$1
	shift
	manifest=
	md_new=
	changed=0
	agent_bin=/usr/sbin/hoplab-agent
	if [ -f "/$lib/MANIFEST" ]; then
		rm -rf "$in_stage"
		err "hoplab was deployed here by copying the programs" \
		    "(/$lib/MANIFEST): hoplab undeploy first"
		exit 1
	fi
	command -v apt-get >/dev/null 2>&1 || { rm -rf "$in_stage"
		err "the target has no apt-get (not Debian?): deploy without --deb"
		exit 1; }
	start_manifest "$debman"
	in_rc=0
	if [ -f "$in_stage/hoplab.deb" ]; then
		install_deb "$in_stage/hoplab.deb" || in_rc=1
	fi
	install_staged $in_rc "$@"
	start_agent
}

cmd_cleanup()
{
	case $1 in
	*/hoplab-deploy.*) rm -rf "$1" ;;
	esac
}

# A manifest path must be relative and must not climb out of PREFIX.
safe_rel()
{
	case $1 in
	''|/*|*..*) return 1 ;;
	esac
	return 0
}

cmd_undeploy()
{
	inst_root=$(root_of "$1")
	manifest=$inst_root/$lib/MANIFEST
	if [ ! -f "$manifest" ] && [ -z "$inst_root" ] && [ -f "/$debman" ]; then
		manifest=/$debman
	fi
	if [ ! -f "$manifest" ]; then
		echo "nothing"
		return 0
	fi
	if grep -qx "mode systemd" "$manifest" && use_systemd "$inst_root"; then
		un_p=$(systemctl show -p MainPID --value hoplab-agent.service)
		systemctl disable -q --now hoplab-agent.service 2>/dev/null
		[ -n "$un_p" ] && [ "$un_p" != 0 ] && echo "stopped $un_p"
	fi
	if un_p=$(daemon_pid "$inst_root"); then
		stop_pid "$un_p" || { err "agent pid $un_p does not stop"; exit 1; }
		echo "stopped $un_p"
	fi
	un_list=$(cat "$manifest")
	if grep -qx "package hoplab" "$manifest"; then
		purge_deb || exit 1
	fi
	un_n=0
	while read -r un_kind un_path; do
		safe_rel "$un_path" || continue
		case $un_kind in
		file) rm -f "$inst_root/$un_path" && un_n=$((un_n + 1)) ;;
		tree) rm -rf "$inst_root/$un_path" && un_n=$((un_n + 1)) ;;
		esac
	done <<EOF
$un_list
EOF
	# Folders last, deepest first, and only when empty.
	echo "$un_list" | sed -n 's/^dir //p' | awk '{ print length, $0 }' |
	    sort -rn | cut -d' ' -f2- | while read -r un_path; do
		safe_rel "$un_path" && rmdir "$inst_root/$un_path" 2>/dev/null
	done
	rm -f "$manifest"
	if [ -z "$inst_root" ] && use_systemd ""; then
		systemctl daemon-reload
	fi
	echo "removed $un_n"
	# The spool is kept while it holds results no controller has
	# collected (hoplab attach); say so, with how many entries.
	if [ -d "$inst_root/$stated/spool" ]; then
		un_k=$(ls -A "$inst_root/$stated/spool" | wc -l)
		echo "kept $inst_root/$stated/spool $un_k"
	fi
}

# apt-get purge hoplab (its files and dpkg's record of it), when dpkg
# knows it at all; the version purged is printed.
purge_deb()
{
	pu_v=$(dpkg-query -W -f='${Status} ${Version}' hoplab 2>/dev/null)
	case $pu_v in
	''|*not-installed*) return 0 ;;
	esac
	if ! DEBIAN_FRONTEND=noninteractive $apt purge hoplab \
	    >"$inst_root/etc/hoplab/apt.log" 2>&1; then
		err "apt-get purge hoplab failed; its last lines:"
		tail -n 8 "$inst_root/etc/hoplab/apt.log" | sed 's/^/error   /'
		return 1
	fi
	rm -f "$inst_root/etc/hoplab/apt.log"
	echo "purged ${pu_v##* }"
}

main()
{
	[ $# -ge 1 ] || { err "remote.sh: no action"; exit 2; }
	m_act=$1
	shift
	case $m_act in
	probe) cmd_probe "$@" ;;
	build) cmd_build "$@" ;;
	install) cmd_install "$@" ;;
	install-deb) cmd_install_deb "$@" ;;
	cleanup) cmd_cleanup "$@" ;;
	undeploy) cmd_undeploy "$@" ;;
	*) err "remote.sh: unknown action $m_act"; exit 2 ;;
	esac
}

# Last line: the shell has read the whole script before anything runs, and
# nothing started here can read the rest of it from stdin.
main "$@" </dev/null
