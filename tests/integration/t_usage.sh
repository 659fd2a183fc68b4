#!/bin/sh
# t_usage: the README's copy of `hoplab --help` is the real one.  STYLE.md
# asks for a usage() that matches the README; this keeps them together.
# No lab, no root needed.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d /tmp/hoplab-t-usage.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
awk '/<!-- usage:hoplab -->/ { on = 1; next }
    /<!-- \/usage:hoplab -->/ { on = 0 }
    on && !/^```$/' README.md >"$T/readme"
bin/hoplab --help >"$T/help"
if [ ! -s "$T/readme" ]; then
	echo "FAIL t_usage: README.md has no <!-- usage:hoplab --> block"
	exit 1
fi
if ! diff -u "$T/readme" "$T/help"; then
	echo "FAIL t_usage: README.md's usage block differs from hoplab --help (above)"
	exit 1
fi
echo "PASS t_usage"
