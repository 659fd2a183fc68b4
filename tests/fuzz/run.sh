#!/bin/sh
#
# run.sh: build the libFuzzer targets and run each for a bounded time:
#
#   fuzz_envelope      envelope decoding (lib/msg.c), default 20 s (first
#                      argument), from a seed corpus of valid envelopes
#                      made by the unit suites' kinds (tests/fuzz/seeds)
#   fuzz_router_frame  hoplab-router's packet path (router/*.c on a fake
#                      lib/pktio), default 10 s (second argument), from
#                      an empty corpus (the target builds its own frames;
#                      its regressions run at every start)
#   fuzz_router_config hoplab-router's configuration parser (router/
#                      config*.c), default 10 s (third argument), from
#                      seeds_router_config/ with router_config.dict
#   fuzz_plan          the plan loader (controller/plan/*.c), default 10 s
#                      (fourth argument), from the plans of tests/plans/
#                      and examples/
#   fuzz_rip           hoplab-router's RIP parser and protocol (router/
#                      rip*.c), as long as fuzz_router_frame (fifth
#                      argument, default the second), from an empty
#                      corpus
#
# The four build at once and run two at a time (each is one process; the
# machine has two cores), so the part takes about the two longest times.
#
# Prints one summary line for tests/check.sh:
#
#   fuzz: N passed, M failed
#
# Needs clang with libFuzzer (Debian: clang).  Without it the part fails
# and says so; it is never silently skipped.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$here/../..
secs=${1:-20}
rsecs=${2:-10}
csecs=${3:-10}
psecs=${4:-10}
ripsecs=${5:-$rsecs}
out=$root/build/fuzz
pass=0
fail=0
mkdir -p "$out/corpus" "$out/corpus_router" "$out/corpus_config" \
    "$out/corpus_plan" "$out/corpus_rip" || exit 1
if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang not found (apt-get install clang)"
	echo "fuzz: 0 passed, 5 failed"
	exit 1
fi
[ -f "$root/build/proto/hoplab.pb-c.c" ] ||
    make -C "$root" build/proto/hoplab.pb-c.c >/dev/null || exit 1

# build NAME SOURCES... (then -l flags): build/fuzz/NAME; its status in
# build/fuzz/NAME.built (0: built).  Run in the background, all at once.
build()
{
	_name=$1
	shift
	if clang -g -O1 -std=c11 -D_GNU_SOURCE -I"$root" -I"$root/lib" \
	    -I"$root/build" -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined -o "$out/$_name" "$@" \
	    2>"$out/$_name.build.log"; then
		echo 0 >"$out/$_name.built"
	else
		echo 1 >"$out/$_name.built"
	fi
}

# run NAME SECS CORPUS MAXLEN [FLAGS]: run it if it built; its verdict
# in build/fuzz/NAME.verdict (pass or fail), its lines in NAME.out.
run()
{
	if [ "$(cat "$out/$1.built")" != 0 ]; then
		{ cat "$out/$1.build.log"; echo "fuzz: $1 does not build"; } \
		    >"$out/$1.out"
		echo fail >"$out/$1.verdict"
	elif "$out/$1" -max_total_time="$2" -max_len="$4" -rss_limit_mb=2048 \
	    ${5:-} \
	    -print_final_stats=1 -artifact_prefix="$out/$1-" "$3" \
	    >"$out/$1.log" 2>&1; then
		grep -E "stat::number_of_executed_units|^#[0-9]+ *DONE" \
		    "$out/$1.log" | sed "s/^/fuzz: $1: /" >"$out/$1.out"
		echo pass >"$out/$1.verdict"
	else
		{ tail -n 40 "$out/$1.log"
		  echo "fuzz: $1 failed (crash input in $out/$1-*)"; } \
		    >"$out/$1.out"
		echo fail >"$out/$1.verdict"
	fi
}

r=$root/router
rm -f "$out"/*.built "$out"/*.verdict
build fuzz_envelope "$here/fuzz_envelope.c" "$root/lib/msg.c" \
    "$root/build/proto/hoplab.pb-c.c" -lzmq -lprotobuf-c &
build fuzz_router_frame "$here/fuzz_router_frame.c" "$r/router.c" \
    "$r/port.c" "$r/arp.c" "$r/icmp.c" "$r/fwd.c" "$r/fib.c" \
    "$r/classify.c" "$r/filter.c" "$r/sched.c" "$r/sojourn.c" \
    "$r/config.c" "$r/config_qos.c" "$r/config_value.c" \
    "$r/config_rip.c" "$r/rip.c" "$r/ripio.c" "$r/ripwire.c" \
    "$r/ripauth.c" "$r/rtlog.c" "$r/config_nat.c" "$r/nat.c" \
    "$r/natpkt.c" "$root/lib/yamldoc.c" \
    "$root/lib/clock.c" "$root/lib/log.c" "$root/lib/stats.c" \
    "$root/lib/pkt.c" "$root/lib/cpulist.c" "$root/lib/dscp.c" -lyaml \
    -lsodium -lm &
build fuzz_router_config "$here/fuzz_router_config.c" "$r/config.c" \
    "$r/config_qos.c" "$r/config_value.c" "$r/classify.c" "$r/filter.c" \
    "$r/sched.c" "$r/config_rip.c" "$r/config_nat.c" \
    "$root/lib/yamldoc.c" "$root/lib/clock.c" "$root/lib/cpulist.c" "$root/lib/dscp.c" \
    -lyaml -lm &
# The plan loader with every module it calls (lib/ whole: it is small).
build fuzz_plan "$here/fuzz_plan.c" "$root"/controller/plan/*.c \
    "$root"/lib/*.c "$root/build/proto/hoplab.pb-c.c" \
    -lzmq -lsodium -lprotobuf-c -lyaml -lpcap -lm &
build fuzz_rip "$here/fuzz_rip.c" "$r/rip.c" "$r/ripwire.c" "$r/ripauth.c" \
    -lsodium &
wait

cp "$here"/seeds/* "$out/corpus/" 2>/dev/null
cp "$here"/seeds_router_config/* "$out/corpus_config/"
cp "$root"/tests/plans/*.yaml "$root"/examples/*.yaml "$out/corpus_plan/" \
    2>/dev/null
# two, then three at a time: each target is one process, and there are
# two cores (the three small parsers share them for their bounded time)
run fuzz_envelope "$secs" "$out/corpus" 4096 &
run fuzz_router_frame "$rsecs" "$out/corpus_router" 8192 &
wait
run fuzz_router_config "$csecs" "$out/corpus_config" 4096 \
    "-dict=$here/router_config.dict" &
run fuzz_plan "$psecs" "$out/corpus_plan" 8192 &
run fuzz_rip "$ripsecs" "$out/corpus_rip" 2048 &
wait
for t in fuzz_envelope fuzz_router_frame fuzz_router_config fuzz_plan \
    fuzz_rip; do
	cat "$out/$t.out"
	if [ "$(cat "$out/$t.verdict" 2>/dev/null)" = pass ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done

echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
