#!/bin/sh
#
# deb.sh: `make deb`, the Debian package hoplab_VERSION_ARCH.deb built with
# debhelper (debian/), into build/deb/ (or $HOPLAB_DEB_OUT).
#
# It copies the tree's files (those git knows, committed or not, and new
# ones it does not ignore) to build/deb/hoplab-VERSION/ and runs
# `dpkg-buildpackage -us -uc -b` there, so the build's outputs
# (debian/hoplab/, debian/files, the .deb, .buildinfo and .changes, which
# dpkg-buildpackage writes into the parent folder) never land in the tree
# or beside it.  Then lintian checks the package when it is installed,
# and its errors fail make deb; warnings are printed.
#
# Without dpkg-buildpackage or debhelper it says which package to install
# and fails; missing build dependencies are named by dpkg-buildpackage
# itself.  The version is debian/changelog's, which must be the
# programs' HOPLAB_VERSION (lib/msg.h).

set -u

here=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd) || exit 1
cd "$here" || exit 1

die()
{
	echo "make deb: $*" >&2
	exit 1
}

# need PROGRAM PACKAGE: fail with the package to install when PROGRAM is
# not on PATH.
need()
{
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "make deb needs $2: apt-get install $2" >&2
	exit 1
}

need dpkg-buildpackage dpkg-dev
need dh debhelper

version=$(sed -n '1s/^hoplab (\([^)]*\)).*/\1/p' debian/changelog)
prog=$(sed -n 's/^#define HOPLAB_VERSION[ \t]*"\(.*\)"/\1/p' lib/msg.h)
[ -n "$version" ] || die "cannot read the version of debian/changelog"
[ "$version" = "$prog" ] ||
	die "debian/changelog says $version, lib/msg.h HOPLAB_VERSION $prog"

# HOPLAB_DEB_OUT: another folder (relative to the tree) for all of it,
# as tests/integration/t_deploy_deb.sh's cache of one .deb per tree.
out=${HOPLAB_DEB_OUT:-build/deb}
src=$out/hoplab-$version
rm -rf "$out" || exit 1
mkdir -p "$src" || exit 1
commit=unknown
if git rev-parse --git-dir >/dev/null 2>&1; then
	commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
	# Files git tracks or would track, as they are in the work tree.
	git ls-files -z --cached --others --exclude-standard |
	    xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' sh |
	    tar -cf - --verbatim-files-from -T - | tar -xf - -C "$src" ||
	    die "copying the tree failed"
else
	tar -cf - --exclude=./build --exclude=./bin --exclude=./results . |
	    tar -xf - -C "$src" || die "copying the tree failed"
fi

echo "deb: building hoplab $version ($commit) in $src"
(cd "$src" && HOPLAB_COMMIT=$commit DEB_BUILD_OPTIONS=parallel=2 \
    dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	die "dpkg-buildpackage failed (whole log: $out/build.log)"
}
rm -rf "$src"
deb=$(ls "$out"/hoplab_"$version"_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "dpkg-buildpackage made no .deb (log: $out/build.log)"
echo "deb: $deb"

# HOPLAB_DEB_LINT=0: no lintian (t_deploy_deb, which tests deploy, not
# the package's form; make deb and make deb-test keep it).
if [ "${HOPLAB_DEB_LINT:-1}" = 0 ]; then
	echo "deb: lintian not run (HOPLAB_DEB_LINT=0)"
	exit 0
fi
if ! command -v lintian >/dev/null 2>&1; then
	echo "deb: lintian is not installed (apt-get install lintian): not checked"
	exit 0
fi
lintian "$deb" >"$out/lintian.txt" 2>&1
cat "$out/lintian.txt"
if grep -q '^E: ' "$out/lintian.txt"; then
	die "lintian reports errors (above)"
fi
echo "deb: lintian: $(grep -c '^E: ' "$out/lintian.txt") errors," \
    "$(grep -c '^W: ' "$out/lintian.txt") warnings"
