#!/bin/sh
# t_install: `make install` and `make uninstall` (deploy/install.sh) into a
# DESTDIR, and the installed programs run from there (no lab, no root
# needed; lab prefix hlin for one `lab status` that finds no lab).
#
# 1. install with PREFIX=/usr puts the programs in usr/bin and usr/sbin
#    (links into usr/lib/hoplab/bin), the six manual pages, the unit with
#    ExecStart=/usr/sbin/hoplab-agent, the completion, the examples and
#    the docs where a Debian user looks for them.
# 2. The installed programs work from the installed layout, HOPLAB_HOME
#    unset: hoplab --help is bin/hoplab's, a dry run of the installed
#    examples/demo.yaml lists the plan, `hoplab lab status` runs the
#    installed deploy/lab.sh (its path in the message), and the installed
#    agent finds hoplab-gen beside itself (-n warns when it does not).
# 3. uninstall leaves no file or link that install made, and keeps a file
#    of someone else's in the same folders.  The same with the default
#    PREFIX (/usr/local).
# 4. make deb (deploy/deb.sh) on a PATH without debhelper (or without
#    dpkg-buildpackage) says which package to install and fails.
. "$(dirname "$0")/lib.sh"
cd "$HL_ROOT" || exit 1
T=$(mktemp -d /tmp/hoplab-t-install.XXXXXX)
at_exit "rm -rf '$T'"
HL_SCENARIO=t_install
unset HOPLAB_HOME
D=$T/dest

PREFIX=/usr DESTDIR=$D sh deploy/install.sh install >"$T/out" 2>&1 ||
	bail install_runs "$(cat "$T/out")"
pass install_runs

# 1. Where things are.
for f in usr/bin/hoplab usr/bin/hoplab-gen usr/sbin/hoplab-agent \
    usr/share/man/man1/hoplab.1 usr/share/man/man1/hoplab-gen.1 \
    usr/share/man/man5/hoplab-plan.5 usr/share/man/man8/hoplab-agent.8 \
    usr/share/man/man8/hoplab-router.8 usr/share/man/man8/hoplab-link.8 \
    usr/share/bash-completion/completions/hoplab \
    usr/lib/systemd/system/hoplab-agent.service \
    usr/share/hoplab/examples/demo.yaml usr/share/doc/hoplab/README.md \
    usr/share/doc/hoplab/docs/plans.md usr/lib/hoplab/deploy/lab.sh; do
	if [ -e "$D/$f" ]; then pass "installed $f"; else fail "installed $f" missing; fi
done
for p in hoplab-router hoplab-link; do
	[ -x bin/$p ] || continue
	if [ -x "$D/usr/sbin/$p" ]; then pass "installed usr/sbin/$p"
	else fail "installed usr/sbin/$p" missing; fi
done
assert_eq unit_execstart \
    "ExecStart=/usr/sbin/hoplab-agent -d -r /run/hoplab-agent --spool /var/lib/hoplab-agent/spool \$HOPLAB_AGENT_OPTS" \
    "$(grep '^ExecStart=' "$D/usr/lib/systemd/system/hoplab-agent.service")"
assert_eq bin_is_relative_link ../lib/hoplab/bin/hoplab \
    "$(readlink "$D/usr/bin/hoplab")"

# 2. Run from there.
"$D/usr/bin/hoplab" --help >"$T/help" 2>&1; rc=$?
assert_eq installed_help_exit 0 "$rc"
assert_eq installed_help_same "" "$(bin/hoplab --help | cmp - "$T/help" 2>&1)"
"$D/usr/bin/hoplab" run --dry-run "$D/usr/share/hoplab/examples/demo.yaml" \
    >"$T/dry" 2>&1; rc=$?
assert_eq installed_dry_run_exit 0 "$rc"
if grep -q '^plan demo (.*/usr/share/hoplab/examples/demo.yaml): ' "$T/dry"; then
	pass installed_dry_run_lists_plan
else
	fail installed_dry_run_lists_plan "$(head -n 3 "$T/dry")"
fi
"$D/usr/bin/hoplab" -p hlin lab status >"$T/st" 2>&1
if grep -qF "$D/usr/lib/hoplab/deploy/lab.sh" "$T/st"; then
	pass installed_lab_script
else
	fail installed_lab_script "$(cat "$T/st")"
fi
"$D/usr/sbin/hoplab-agent" -n --insecure -l 127.0.0.1 -N t -r "$T/run" \
    --spool "$T/spool" >"$T/ag" 2>"$T/ag.err"
assert_eq installed_agent_check "configuration OK" "$(cat "$T/ag")"
assert_eq installed_agent_finds_gen "" "$(cat "$T/ag.err")"
"$D/usr/bin/hoplab-gen" --help >/dev/null 2>&1; rc=$?
assert_eq installed_gen_help 0 "$rc"

# 3. Uninstall: nothing of ours left, the foreign files kept.
echo other >"$D/usr/bin/other"
echo other >"$D/usr/share/man/man1/other.1"
PREFIX=/usr DESTDIR=$D sh deploy/install.sh uninstall >"$T/out" 2>&1; rc=$?
assert_eq uninstall_exit 0 "$rc"
assert_eq uninstall_leaves_only_foreign "$D/usr/bin/other
$D/usr/share/man/man1/other.1" "$(find "$D" ! -type d | sort)"
assert_eq uninstall_removes_own_folders "" \
    "$(find "$D" -type d -name 'hoplab*' | sort)"

# The default PREFIX.
D2=$T/dest2
DESTDIR=$D2 sh deploy/install.sh install >"$T/out" 2>&1 ||
	fail default_prefix_install "$(cat "$T/out")"
"$D2/usr/local/bin/hoplab" --help >/dev/null 2>&1; rc=$?
assert_eq default_prefix_help 0 "$rc"
DESTDIR=$D2 sh deploy/install.sh uninstall >"$T/out" 2>&1
assert_eq default_prefix_uninstall_leaves_nothing "" "$(find "$D2" ! -type d)"

# 4. A PATH with only what deb.sh needs before its checks.
mkdir "$T/path"
ln -s "$(command -v dirname)" "$T/path/dirname"
PATH=$T/path /bin/sh deploy/deb.sh >"$T/out" 2>&1; rc=$?
assert_eq deb_without_dpkg_dev "1 make deb needs dpkg-dev: apt-get install dpkg-dev" \
    "$rc $(cat "$T/out")"
if command -v dpkg-buildpackage >/dev/null; then
	ln -s "$(command -v dpkg-buildpackage)" "$T/path/dpkg-buildpackage"
	PATH=$T/path /bin/sh deploy/deb.sh >"$T/out" 2>&1; rc=$?
	assert_eq deb_without_debhelper \
	    "1 make deb needs debhelper: apt-get install debhelper" \
	    "$rc $(cat "$T/out")"
fi
finish
