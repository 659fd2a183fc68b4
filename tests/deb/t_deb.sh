#!/bin/sh
# t_deb: the package `make deb` built (build/deb/hoplab_*.deb) installs,
# works and goes away again on this machine (root; run by `make
# deb-test`, not by make check: it changes the machine's /usr).
#
# 1. `apt-get install ./build/deb/hoplab_VERSION_ARCH.deb` succeeds (apt
#    brings the libraries it depends on) and dpkg lists it installed.
# 2. The installed programs work: /usr/bin/hoplab --help is the tree's
#    bin/hoplab --help, `hoplab run --dry-run` of
#    /usr/share/hoplab/examples/demo.yaml lists the plan, hoplab-agent -n
#    finds hoplab-gen beside it, `man hoplab` (and every other page) is
#    found by man-db and renders without a warning, and the unit is in
#    /lib/systemd/system, not enabled.
# 3. `apt-get remove hoplab` removes every file `dpkg -L hoplab` listed,
#    and `apt-get purge` leaves dpkg with no record of it.
# A hoplab package that was installed before is refused (the test would
# remove it).
. "$(dirname "$0")/../integration/lib.sh"
cd "$HL_ROOT" || exit 1
HL_SCENARIO=t_deb
need_root
deb_lock || bail deb_lock "another scenario installs the hoplab package here"
T=$(mktemp -d /tmp/hoplab-t-deb.XXXXXX)
at_exit "rm -rf '$T'"
unset HOPLAB_HOME
deb=$(ls build/deb/hoplab_*_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)
[ -n "$deb" ] || bail have_deb "no build/deb/hoplab_*.deb: run make deb first"
if dpkg-query -W -f='${db:Status-Status}' hoplab 2>/dev/null | grep -q installed; then
	bail not_installed_before "hoplab is installed already; remove it first"
fi

# 1.
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "./$deb" >"$T/apt" 2>&1 || bail apt_install "$(tail -n 5 "$T/apt")"
pass apt_install
assert_eq dpkg_status installed \
    "$(dpkg-query -W -f='${db:Status-Status}' hoplab 2>/dev/null)"
at_exit "DEBIAN_FRONTEND=noninteractive apt-get purge -y hoplab >/dev/null 2>&1"
dpkg -L hoplab >"$T/files"

# 2.
/usr/bin/hoplab --help >"$T/help" 2>&1; rc=$?
assert_eq help_exit 0 "$rc"
assert_eq help_same "" "$(bin/hoplab --help | cmp - "$T/help" 2>&1)"
/usr/bin/hoplab run --dry-run /usr/share/hoplab/examples/demo.yaml >"$T/dry" 2>&1
if grep -q '^plan demo (/usr/share/hoplab/examples/demo.yaml): ' "$T/dry"; then
	pass dry_run
else
	fail dry_run "$(head -n 3 "$T/dry")"
fi
/usr/sbin/hoplab-agent -n --insecure -l 127.0.0.1:7700 -N t -r "$T/run" \
    >"$T/ag" 2>"$T/ag.err"
assert_eq agent_check "configuration OK" "$(cat "$T/ag")"
assert_eq agent_finds_gen "" "$(cat "$T/ag.err")"
for page in hoplab hoplab-gen hoplab-plan hoplab-agent hoplab-router hoplab-link; do
	MANWIDTH=80 man --warnings "$page" >"$T/man" 2>"$T/man.err"; rc=$?
	assert_eq "man_$page" "0 " "$rc $(cat "$T/man.err")"
done
if MANWIDTH=80 man hoplab 2>/dev/null | grep -q 'hoplab-plan(5)'; then
	pass man_hoplab_text
else
	fail man_hoplab_text "man hoplab does not show the page"
fi
assert_eq unit_execstart \
    "ExecStart=/usr/sbin/hoplab-agent -d -r /run/hoplab-agent --spool /var/lib/hoplab-agent/spool \$HOPLAB_AGENT_OPTS" \
    "$(grep '^ExecStart=' /lib/systemd/system/hoplab-agent.service)"
assert_eq unit_not_enabled "" \
    "$(ls /etc/systemd/system/multi-user.target.wants/hoplab-agent.service 2>/dev/null)"

# 3.
DEBIAN_FRONTEND=noninteractive apt-get remove -y hoplab >"$T/rm" 2>&1 ||
	fail apt_remove "$(tail -n 5 "$T/rm")"
assert_eq remove_leaves_no_file "" "$(files_left "$T/files")"
n=$(grep -c . "$T/files")
[ "$n" -gt 50 ] && pass "dpkg_listed_files ($n)" || fail dpkg_listed_files "$n"
DEBIAN_FRONTEND=noninteractive apt-get purge -y hoplab >"$T/purge" 2>&1
st=$(dpkg-query -W -f='${db:Status-Status}' hoplab 2>/dev/null)
assert_eq purged "" "${st#not-installed}"
finish
