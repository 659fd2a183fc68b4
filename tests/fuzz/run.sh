#!/bin/sh
#
# run.sh [SECS [NAME...]]: build the libFuzzer targets (tests/fuzz/fuzz.mk)
# and run each for a bounded time, SECS each if given, else its time in
# the table below; NAMEs (fuzz_plan ...) run only those.  make check runs
# it without arguments.
#
# Each target starts from its seed corpus, tests/fuzz/corpus/NAME/ (NAME
# without "fuzz_"; valid inputs and a few known-tricky ones, crashes it
# once found among them) plus, for the plan loader, the plans of
# tests/plans/ and examples/, copied into build/fuzz/corpus_NAME/, which
# keeps what libFuzzer adds from one run to the next.  The targets run in
# two lanes side by side (each target is one process; the machine has
# two cores), so the part takes about half the sum of the times.
#
# Prints, per target, "fuzz: NAME: N runs in T s (X exec/s)", or why it
# failed (the crashing input is kept as build/fuzz/NAME-crash-*, an input
# that runs 10 s as NAME-timeout-*), then
# one summary line for tests/check.sh:
#
#   fuzz: N passed, M failed
#
# Needs clang with libFuzzer (Debian: clang).  Without it the part fails
# and says so; it is never silently skipped.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$(CDPATH='' cd -- "$here/../.." && pwd)
out=$root/build/fuzz
secs=${1:-}
[ $# -gt 0 ] && shift
only="$*"

# NAME LANE SECS MAXLEN [FLAGS]: what runs, where and how long.  SECS is
# libFuzzer's -max_total_time, which it checks in whole seconds: a
# target runs about SECS + 1 s.  The lanes hold about the same time (26
# and 27 s); the packet paths and the big loaders get a second more.
table='fuzz_envelope 0 3 4096
fuzz_router_frame 1 3 8192
fuzz_router_config 0 2 4096 -dict=tests/fuzz/router_config.dict
fuzz_plan 1 3 8192
fuzz_rip 0 2 2048
fuzz_inventory 1 2 8192 -dict=tests/fuzz/inventory.dict
fuzz_keys 0 2 1024
fuzz_dist 1 2 256 -dict=tests/fuzz/dist.dict
fuzz_dist_csv 0 2 4096
fuzz_pcap 1 2 8192
fuzz_capmatch 0 2 4096
fuzz_link_profile 1 2 512 -dict=tests/fuzz/link_profile.dict
fuzz_link_table 0 2 4096
fuzz_link_at 1 2 1024 -dict=tests/fuzz/link_profile.dict
fuzz_gen_rx 0 3 8192
fuzz_gen_l2 1 3 8192'

names=$(echo "$table" | awk '{ print $1 }')
if [ -n "$only" ]; then
	for n in $only; do
		echo "$names" | grep -qx "$n" ||
		    { echo "fuzz: no target $n"; exit 2; }
	done
	names=$only
fi
if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang not found (apt-get install clang)"
	echo "fuzz: 0 passed, $(echo "$names" | wc -w) failed"
	exit 1
fi
mkdir -p "$out" || exit 1
cd "$root" || exit 1
make --no-print-directory build/proto/hoplab.pb-c.c build/commit.h \
    >/dev/null || exit 1

# Build what changed (-k: one target that does not build does not stop
# the others); a target is built when make then finds it up to date.
bins=
for n in $names; do
	bins="$bins build/fuzz/$n"
done
make --no-print-directory -f tests/fuzz/fuzz.mk -k -j2 $bins \
    >"$out/build.log" 2>&1

# run NAME SECS MAXLEN [FLAGS]: its lines in build/fuzz/NAME.out, its
# verdict (pass or fail) in NAME.verdict.
run()
{
	_n=$1 _s=$2 _m=$3
	shift 3
	_c=$out/corpus_${_n#fuzz_}
	if ! make -q -f tests/fuzz/fuzz.mk "build/fuzz/$_n" 2>/dev/null; then
		{ grep -v "^make" "$out/build.log" | tail -n 30
		  echo "fuzz: $_n does not build (build/fuzz/build.log)"; } \
		    >"$out/$_n.out"
		echo fail >"$out/$_n.verdict"
		return
	fi
	mkdir -p "$_c"
	cp "$here/corpus/${_n#fuzz_}"/* "$_c/" 2>/dev/null
	[ "$_n" = fuzz_plan ] &&
	    cp tests/plans/*.yaml examples/*.yaml "$_c/" 2>/dev/null
	_t0=$(date +%s%N)
	if "$out/$_n" -max_total_time="$_s" -max_len="$_m" \
	    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "$@" \
	    -artifact_prefix="$out/$_n-" "$_c" >"$out/$_n.log" 2>&1; then
		_t1=$(date +%s%N)
		awk -v n="$_n" -v t="$(((_t1 - _t0) / 1000000))" '
		    /stat::number_of_executed_units/ { runs = $2 }
		    END { printf "fuzz: %s: %d runs in %.1f s (%d exec/s)\n",
			n, runs, t / 1000, (t > 0 ? runs * 1000 / t : 0) }' \
		    "$out/$_n.log" >"$out/$_n.out"
		echo pass >"$out/$_n.verdict"
	else
		{ tail -n 40 "$out/$_n.log"
		  echo "fuzz: $_n failed (crash input in $out/$_n-*)"; } \
		    >"$out/$_n.out"
		echo fail >"$out/$_n.verdict"
	fi
}

# lane L: the targets of lane L (any lane when NAMEs were given, split
# alternately), one after another.
lane()
{
	_lane=$1
	_i=0
	for n in $names; do
		set -- $(echo "$table" | awk -v n="$n" '$1 == n')
		if [ -n "$only" ]; then
			_l=$((_i % 2))
			_i=$((_i + 1))
		else
			_l=$2
		fi
		[ "$_l" = "$_lane" ] || continue
		_name=$1
		_secs=${secs:-$3}
		_max=$4
		shift 4
		run "$_name" "$_secs" "$_max" "$@"
	done
}

# The targets that read files write each input in a folder of their own
# under TMPDIR (tests/fuzz/fztmp.c); a crash leaves it: here, not /tmp.
rm -f "$out"/*.verdict
rm -rf "$out/tmp"
mkdir -p "$out/tmp" || exit 1
TMPDIR=$out/tmp
export TMPDIR
lane 0 &
lane 1 &
wait
pass=0
fail=0
for n in $names; do
	cat "$out/$n.out"
	if [ "$(cat "$out/$n.verdict" 2>/dev/null)" = pass ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
