#!/bin/sh
#
# install.sh: `make install` and `make uninstall` (run by the Makefile,
# which passes PREFIX, DESTDIR and SYSTEMDUNITDIR in the environment).
#
#   sh deploy/install.sh install | uninstall | list
#
# One list of files (items() below) serves both actions, so uninstall
# removes exactly what install put there and nothing else; `list` prints
# it.  The layout (docs/deploy.md "make install"):
#
#   PREFIX/lib/hoplab/          a hoplab folder as the source tree has it:
#     bin/hoplab, bin/hoplab-*  the programs
#     deploy/lab.sh, remote.sh, hoplab-agent.service
#     examples -> ../../share/hoplab/examples
#   PREFIX/bin/hoplab, hoplab-gen            links into lib/hoplab/bin
#   PREFIX/sbin/hoplab-agent, -router, -link links into lib/hoplab/bin
#   PREFIX/share/hoplab/examples/            the example plans
#   PREFIX/share/man/man{1,5,8}/             the manual pages
#   PREFIX/share/doc/hoplab/                 README.md and docs/*.md
#   PREFIX/share/bash-completion/completions/hoplab
#   SYSTEMDUNITDIR/hoplab-agent.service      (default PREFIX/lib/systemd/system)
#
# The programs find their folder as the parent of the folder of their own
# executable (controller/deploy/lab.h), with symbolic links resolved, so
# an installed hoplab finds deploy/lab.sh, its agents and examples/demo.yaml
# in PREFIX/lib/hoplab exactly as bin/hoplab finds them in the tree, under
# any PREFIX and DESTDIR.  Programs not built (hoplab-router and
# hoplab-link need libxdp) are skipped by install and still removed by
# uninstall.  Uninstall keeps what the agent made at run time: its spool
# /var/lib/hoplab-agent and /etc/hoplab (written by hoplab deploy).

set -u

here=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd) || exit 1
cd "$here" || exit 1
prefix=${PREFIX:-/usr/local}
dest=${DESTDIR:-}
unitdir=${SYSTEMDUNITDIR:-$prefix/lib/systemd/system}
lib=$prefix/lib/hoplab
share=$prefix/share

die()
{
	echo "install.sh: $*" >&2
	exit 1
}

case $prefix in
/*) ;;
*) die "PREFIX must be an absolute path, not '$prefix'" ;;
esac

# Print the items, one a line: "file MODE SOURCE TARGET", "link TARGET
# POINTS-TO" or "unit SOURCE TARGET" (the unit, its ExecStart rewritten),
# then "dir DIR" for each folder that belongs to hoplab alone (removed
# by uninstall when empty), deepest first.
items()
{
	for p in hoplab hoplab-agent hoplab-gen hoplab-router hoplab-link; do
		echo "file 0755 bin/$p $lib/bin/$p"
	done
	for p in hoplab hoplab-gen; do
		echo "link $prefix/bin/$p ../lib/hoplab/bin/$p"
	done
	for p in hoplab-agent hoplab-router hoplab-link; do
		echo "link $prefix/sbin/$p ../lib/hoplab/bin/$p"
	done
	echo "file 0755 deploy/lab.sh $lib/deploy/lab.sh"
	echo "file 0755 deploy/remote.sh $lib/deploy/remote.sh"
	echo "file 0644 deploy/hoplab-agent.service $lib/deploy/hoplab-agent.service"
	echo "link $lib/examples ../../share/hoplab/examples"
	for f in examples/*; do
		case $f in
		*.sh) echo "file 0755 $f $share/hoplab/$f" ;;
		*) echo "file 0644 $f $share/hoplab/$f" ;;
		esac
	done
	for f in man/*.[158]; do
		sec=${f##*.}
		echo "file 0644 $f $share/man/man$sec/${f#man/}"
	done
	echo "file 0644 README.md $share/doc/hoplab/README.md"
	for f in docs/*.md docs/*.schema.json; do
		echo "file 0644 $f $share/doc/hoplab/$f"
	done
	echo "file 0644 tools/wireshark/hoplab.lua $share/hoplab/wireshark/hoplab.lua"
	echo "file 0644 deploy/hoplab.bash $share/bash-completion/completions/hoplab"
	echo "unit deploy/hoplab-agent.service $unitdir/hoplab-agent.service"
	for d in "$lib/bin" "$lib/deploy" "$lib" "$share/hoplab/examples" \
	    "$share/hoplab/wireshark" "$share/hoplab" "$share/doc/hoplab/docs" \
	    "$share/doc/hoplab"; do
		echo "dir $d"
	done
}

do_install()
{
	items | while read -r kind a b c; do
		case $kind in
		file)
			[ -e "$b" ] || {
				case $b in
				bin/hoplab-router | bin/hoplab-link) continue ;;
				esac
				die "$b is missing; run make"
			}
			install -D -m "$a" "$b" "$dest$c" || exit 1
			;;
		link)
			mkdir -p "$(dirname "$dest$a")" || exit 1
			ln -sfn "$b" "$dest$a" || exit 1
			;;
		unit)
			# The agent of a package or make install runs from
			# PREFIX/sbin; hoplab deploy's copy keeps its own path.
			mkdir -p "$(dirname "$dest$b")" || exit 1
			sed -e "s|^ExecStart=/usr/local/lib/hoplab/hoplab-agent |ExecStart=$prefix/sbin/hoplab-agent |" \
			    -e "s|^# Installed by .hoplab deploy. as .*|# Installed by make install or the hoplab package as $b;|" \
			    -e "s|written by the same command\\.|written by hoplab deploy or by hand.|" \
			    "$a" >"$dest$b" || exit 1
			chmod 0644 "$dest$b"
			;;
		esac
	done || exit 1
	echo "install: hoplab installed under $dest$prefix"
}

do_uninstall()
{
	items | while read -r kind a b c; do
		case $kind in
		file) rm -f "$dest$c" ;;
		link) rm -f "$dest$a" ;;
		unit) rm -f "$dest$b" ;;
		dir) [ -d "$dest$a" ] && rmdir "$dest$a" 2>/dev/null ;;
		esac
	done
	echo "uninstall: hoplab removed from $dest$prefix" \
	    "(kept: /var/lib/hoplab-agent and /etc/hoplab, if any)"
}

case ${1:-} in
install) do_install ;;
uninstall) do_uninstall ;;
list) items ;;
*) die "usage: sh deploy/install.sh install|uninstall|list" ;;
esac
