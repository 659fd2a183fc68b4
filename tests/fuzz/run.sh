#!/bin/sh
#
# run.sh: build the libFuzzer target for envelope decoding and run it for
# a bounded time (default 20 s, first argument), from a seed corpus of
# valid envelopes made by the unit suites' kinds (tests/fuzz/seeds).
# Prints one summary line for tests/check.sh:
#
#   fuzz: N passed, M failed
#
# Needs clang with libFuzzer (Debian: clang).  Without it the part fails
# and says so; it is never silently skipped.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$here/../..
secs=${1:-20}
out=$root/build/fuzz
mkdir -p "$out/corpus" || exit 1
if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang not found (apt-get install clang)"
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
[ -f "$root/build/proto/hoplab.pb-c.c" ] ||
    make -C "$root" build/proto/hoplab.pb-c.c >/dev/null || exit 1
if ! clang -g -O1 -D_GNU_SOURCE -I"$root" -I"$root/lib" -I"$root/build" \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -o "$out/fuzz_envelope" "$here/fuzz_envelope.c" "$root/lib/msg.c" \
    "$root/build/proto/hoplab.pb-c.c" -lzmq -lprotobuf-c 2>"$out/build.log"; then
	cat "$out/build.log"
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
cp "$here"/seeds/* "$out/corpus/" 2>/dev/null
if "$out/fuzz_envelope" -max_total_time="$secs" -max_len=4096 \
    -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$out/" \
    "$out/corpus" \
    >"$out/fuzz.log" 2>&1; then
	grep -E "stat::number_of_executed_units|^#[0-9]+ *DONE" "$out/fuzz.log" |
	    sed 's/^/fuzz: /'
	echo "fuzz: 1 passed, 0 failed"
	exit 0
fi
tail -n 40 "$out/fuzz.log"
echo "fuzz: 0 passed, 1 failed (crash input in $out)"
exit 1
