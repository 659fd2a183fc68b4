#!/bin/sh
# t_usage: hoplab's command line, without a lab (no root needed).
#
# 1. The usage texts in the docs are the real ones: every
#    <!-- usage:hoplab [COMMAND] --> block of README.md and docs/*.md is,
#    word for word, what `hoplab [COMMAND] --help` prints (STYLE.md asks
#    for a usage() that matches the README), and every command that
#    `hoplab --help` lists has a block (undeploy shares deploy's text).
#    The same for the other four programs: README.md's
#    <!-- usage:hoplab-agent --> (-gen, -router, -link) block is what
#    that program's --help prints, and each of the four has one.
# 2. --help prints the usage on stdout and exits 0; a command given wrong
#    arguments (an unknown option, an operand missing or too many)
#    prints that command's own usage on stderr and exits 2; `hoplab` alone
#    and an unknown command print hoplab's usage on stderr and exit 2.
# 3. Options and operands come in any order and the global options also
#    work after the command: `run --dry-run PLAN`, `run PLAN --dry-run`
#    and `run -q PLAN --dry-run -v` print the same plan listing, and a bad
#    global value after the command is refused with its message.
. "$(dirname "$0")/lib.sh"
cd "$HL_ROOT" || exit 1
HOPLAB=$HL_BIN/hoplab
T=$(mktemp -d /tmp/hoplab-t-usage.XXXXXX)
at_exit "rm -rf '$T'"
PLAN=examples/demo.yaml
# No deploy/lab.sh there: a lab command that got past its checks by
# mistake fails instead of building a lab (this runs as root in make check).
HOPLAB_HOME=$T
export HOPLAB_HOME

# The commands hoplab --help lists, one per line.
"$HOPLAB" --help | awk '/^Commands/ { on = 1; next } on && /^$/ { exit }
    on { print $1 }' >"$T/commands"
[ "$(wc -l <"$T/commands" | tr -d ' ')" = 10 ] ||
	bail commands_listed "hoplab --help does not list 10 commands"
pass commands_listed

# 1. Every usage block of the docs against the program.
for doc in README.md docs/*.md; do
	awk -v dir="$T" '
	    /^<!-- usage:hoplab[ a-z]* -->$/ {
		name = $2; sub(/^usage:/, "", name)
		if ($3 != "-->") name = name "_" $3
		out = dir "/block." name; printf "" >out; on = 1; next }
	    /^<!-- \/usage:hoplab/ { on = 0; close(out) }
	    on && !/^```$/ { print >out }' "$doc"
done
for f in "$T"/block.hoplab "$T"/block.hoplab_*; do
	[ -e "$f" ] || continue
	name=${f#"$T"/block.}
	cmd=${name#hoplab}
	cmd=${cmd#_}
	# shellcheck disable=SC2086 # $cmd is one word or none
	"$HOPLAB" $cmd --help >"$T/help" 2>"$T/help.err"
	if diff -u "$f" "$T/help" >"$T/diff"; then
		pass "doc_block_${cmd:-hoplab}"
	else
		cat "$T/diff"
		fail "doc_block_${cmd:-hoplab}" "the docs' usage block differs from hoplab $cmd --help (above)"
	fi
done
# The other programs' blocks, README.md only.
awk -v dir="$T" '
    /^<!-- usage:hoplab-[a-z]+ -->$/ {
	name = $2; sub(/^usage:/, "", name)
	out = dir "/prog." name; printf "" >out; on = 1; next }
    /^<!-- \/usage:hoplab-/ { on = 0; close(out) }
    on && !/^```$/ { print >out }' README.md
for prog in hoplab-agent hoplab-gen hoplab-router hoplab-link; do
	if [ ! -s "$T/prog.$prog" ]; then
		fail "readme_block_$prog" "README.md has no <!-- usage:$prog --> block"
		continue
	fi
	"$HL_BIN/$prog" --help >"$T/help" 2>"$T/help.err"
	if diff -u "$T/prog.$prog" "$T/help" >"$T/diff"; then
		pass "readme_block_$prog"
	else
		cat "$T/diff"
		fail "readme_block_$prog" "README.md's usage block differs from $prog --help (above)"
	fi
done
if [ -s "$T/block.hoplab" ]; then
	pass readme_has_hoplab_block
else
	fail readme_has_hoplab_block "README.md has no <!-- usage:hoplab --> block"
fi
while read -r c; do
	"$HOPLAB" "$c" --help >"$T/h.$c" 2>"$T/h.$c.err"; rc=$?
	assert_eq "help_${c}_exit" 0 "$rc"
	assert_eq "help_${c}_stderr" "" "$(cat "$T/h.$c.err")"
	ref=$c
	[ "$c" = undeploy ] && ref=deploy
	if [ -f "$T/block.hoplab_$ref" ] && cmp -s "$T/h.$c" "$T/block.hoplab_$ref"; then
		pass "doc_has_${c}"
	else
		fail "doc_has_${c}" "no usage block in README.md or docs/ equals hoplab $c --help"
	fi
	"$HOPLAB" "$c" -h >"$T/hh" 2>&1
	assert_eq "short_h_${c}" "" "$(cmp "$T/hh" "$T/h.$c" 2>&1)"
done <"$T/commands"

# 2. Wrong arguments: the command's own usage on stderr, exit 2.
while read -r c; do
	"$HOPLAB" "$c" --bogus-option >"$T/out" 2>"$T/err"; rc=$?
	assert_eq "bogus_${c}_exit" 2 "$rc"
	assert_eq "bogus_${c}_stdout" "" "$(cat "$T/out")"
	assert_eq "bogus_${c}_says" "hoplab $c: unrecognized option '--bogus-option'" \
	    "$(head -n 1 "$T/err")"
	tail -n +2 "$T/err" >"$T/err.usage"
	assert_eq "bogus_${c}_usage" "" "$(cmp "$T/err.usage" "$T/h.$c" 2>&1)"
done <"$T/commands"

# wrong_args NAME USAGE_OF ARGS...: exit 2, and stderr is the usage of
# command USAGE_OF, after getopt's line when there is one.
wrong_args()
{
	_n=$1 _u=$2
	shift 2
	"$HOPLAB" "$@" >"$T/out" 2>"$T/err"; _rc=$?
	assert_eq "${_n}_exit" 2 "$_rc"
	sed -n '/^usage: /,$p' "$T/err" >"$T/err.usage"
	assert_eq "${_n}_usage" "" "$(cmp "$T/err.usage" "$T/h.$_u" 2>&1)"
	assert_eq "${_n}_before_usage" 0 "$(sed -n '/^usage: /q; p' "$T/err" |
	    grep -cv "^hoplab $_u: ")"
}
wrong_args keygen_alone keygen keygen
wrong_args keygen_dir_only keygen keygen "$T/keys"
wrong_args run_alone run run
wrong_args run_two_plans run run "$PLAN" "$PLAN"
wrong_args run_lab_and_dry run run --lab --dry-run "$PLAN"
wrong_args run_resume_no_arg run run "$PLAN" --resume
wrong_args attach_alone attach attach
wrong_args lab_alone lab lab
wrong_args lab_unknown_action lab lab frobnicate
wrong_args lab_plan_with_routers lab lab up A --plan "$PLAN"
wrong_args agents_operand agents agents extra
wrong_args demo_operand demo demo extra
wrong_args link_host_only link link w-A-B
wrong_args link_counters_at link link w-A-B counters --at +1s
wrong_args report_alone report report
wrong_args report_two report report a b
assert_eq keygen_made_nothing "" "$(ls "$T/keys" 2>/dev/null)"

"$HOPLAB" >"$T/out" 2>"$T/err"; rc=$?
assert_eq bare_exit 2 "$rc"
assert_eq bare_usage "" "$(cmp "$T/err" "$T/block.hoplab" 2>&1)"
"$HOPLAB" frobnicate >"$T/out" 2>"$T/err"; rc=$?
assert_eq unknown_exit 2 "$rc"
assert_eq unknown_says "hoplab: unknown command 'frobnicate'" "$(head -n 1 "$T/err")"
tail -n +2 "$T/err" >"$T/err.usage"
assert_eq unknown_usage "" "$(cmp "$T/err.usage" "$T/block.hoplab" 2>&1)"
"$HOPLAB" --help >"$T/out" 2>"$T/err"; rc=$?
assert_eq top_help_exit 0 "$rc"
assert_eq top_help_stderr "" "$(cat "$T/err")"

# 3. Any order; global options after the command.
"$HOPLAB" run --dry-run "$PLAN" >"$T/dry1" 2>&1; rc1=$?
"$HOPLAB" run "$PLAN" --dry-run >"$T/dry2" 2>&1; rc2=$?
"$HOPLAB" run -q "$PLAN" --dry-run -v >"$T/dry3" 2>&1; rc3=$?
assert_eq dry_run_exits "0 0 0" "$rc1 $rc2 $rc3"
if grep -q '^plan demo (examples/demo.yaml): ' "$T/dry1"; then
	pass dry_run_lists_plan
else
	fail dry_run_lists_plan "$(head -n 3 "$T/dry1")"
fi
assert_eq dry_run_after_plan "" "$(cmp "$T/dry1" "$T/dry2" 2>&1)"
assert_eq dry_run_globals_after "" "$(cmp "$T/dry1" "$T/dry3" 2>&1)"
"$HOPLAB" run -k 300 --dry-run "$PLAN" >"$T/out" 2>"$T/err"; rc=$?
assert_eq bad_global_after_exit 2 "$rc"
assert_eq bad_global_after_says \
    "hoplab: -k 300: expected a number 0..255 (subnet 198.19.K.0/24)" \
    "$(cat "$T/err")"
"$HOPLAB" run --version >"$T/out" 2>&1; rc=$?
assert_eq version_after_exit 0 "$rc"
if grep -q '^hoplab [0-9.]*, management protocol [0-9]*$' "$T/out"; then
	pass version_after
else
	fail version_after "$(cat "$T/out")"
fi
finish
