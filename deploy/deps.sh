#!/bin/sh
#
# deps.sh: install the Debian packages hoplab needs to build, test and demo
# (run by `make deps`, which `make check` and `make demo` run first).
#
# It asks dpkg which of the packages below are missing and installs only
# those, with apt-get and no recommended extras; `apt-get update` runs only
# when something is missing.  When everything is there it prints one line
# and touches nothing, so it is cheap to run before every check.  Without
# root it says what is missing and how to install it, and fails.
#
# It deliberately does not upgrade installed packages, add repositories or
# fetch anything outside Debian's own archive.  Written for Debian 12.
#
# The list: the C toolchain and the libraries the Makefile links
# (libzmq with libsodium for CURVE, protobuf-c, libpcap, libyaml/libcyaml,
# CUnit for the unit suites), iproute2 and nftables for the namespace lab
# and its tests, gnuplot for the result plots, tcpdump, procps (sysctl,
# ps) and iputils-ping for the integration tests' reachability checks,
# python3 for tools/callgraph.py (make check's shape part), bird2 for the
# routing daemons of kernel routers (issue 15), python3-jsonschema for
# t_json's check of --json and --json-stream against docs/*.schema.json,
# mandoc and man-db (groff) for t_man's checks of the manual pages,
# chromium, tshark and python3-pandas for t_webreport (the report page
# rendered headless, the Wireshark dissector tools/wireshark/hoplab.lua,
# the pandas snippet of docs/results.md; issue 18), r-base-core for
# the same page's R snippet, which t_webreport runs too, clang and llvm
# to compile hoplab-router's XDP fast path for the BPF target (issue
# 19; its headers come from libbpf-dev, its loader from libxdp-dev and
# libbpf).  make deb's own
# tools (debhelper, lintian) are not here: deploy/deb.sh asks for them.

set -u

pkgs="build-essential pkg-config libzmq3-dev libprotobuf-c-dev
protobuf-c-compiler libpcap-dev libcunit1-dev libyaml-dev libcyaml-dev
libsodium-dev iproute2 nftables gnuplot-nox tcpdump procps iputils-ping
openssh-server openssh-client
iperf3 traceroute ethtool netsniff-ng jq libxdp-dev libbpf-dev python3
python3-jsonschema bird2 mandoc man-db chromium tshark python3-pandas
r-base-core clang llvm"

# Print the packages of $pkgs that dpkg does not list as installed.
missing_pkgs()
{
	for p in $pkgs; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
		[ "$st" = installed ] || printf '%s ' "$p"
	done
}

n=$(echo "$pkgs" | wc -w)
missing=$(missing_pkgs | sed "s/ *$//")
if [ -z "$missing" ]; then
	echo "deps: all $n packages present"
	exit 0
fi

echo "deps: missing: $missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: installing packages needs root; run: sudo make deps" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update || { echo "deps: apt-get update failed" >&2; exit 1; }
# $missing is a list of package names: split it into words on purpose.
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing ||
    { echo "deps: apt-get install failed" >&2; exit 1; }

still=$(missing_pkgs)
if [ -n "$still" ]; then
	echo "deps: still missing after apt-get install: $still" >&2
	exit 1
fi
echo "deps: installed $missing"
