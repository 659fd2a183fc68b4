#!/bin/sh
# t_man: the manual pages (man/*.[158], mdoc) against the programs, without
# a lab (no root needed).
#
# 1. Every page renders without a warning: `mandoc -T lint -W warning`
#    prints nothing, and neither does groff through
#    `MANWIDTH=80 man --warnings -l PAGE` on stderr.
# 2. Every option that a program's --help prints (for hoplab also every
#    command's `hoplab COMMAND --help`) appears, as a word, in the text of
#    that program's page (mandoc -T ascii).  The truth is the program's
#    own --help, so an option added to a program and not to its page fails
#    here.  hoplab's options must also be in the bash completion
#    (deploy/hoplab.bash).
# 3. Every key the plan loader accepts (the *_keys[] tables of
#    controller/plan/*.c) is an `Ic` word of hoplab-plan(5).
. "$(dirname "$0")/lib.sh"
cd "$HL_ROOT" || exit 1
T=$(mktemp -d /tmp/hoplab-t-man.XXXXXX)
at_exit "rm -rf '$T'"
HL_SCENARIO=t_man

for tool in mandoc man col; do
	command -v "$tool" >/dev/null ||
		bail "have_$tool" "$tool is missing (make deps installs it)"
done

# 1. Lint, both formatters.
pages=$(ls man/*.[158])
assert_eq pages_count 6 "$(echo "$pages" | wc -l | tr -d ' ')"
for p in $pages; do
	n=${p#man/}
	assert_eq "mandoc_lint_$n" "" "$(mandoc -T lint -W warning "$p" 2>&1)"
	assert_eq "groff_warnings_$n" "" \
	    "$(MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)"
done

# The options a --help text names: --long and -x words (not inside
# words such as hoplab-gen or a-b), short clusters [-dhnv] split.
help_opts()
{
	grep -oE '(^|[^A-Za-z0-9_./:-])--?[A-Za-z][A-Za-z0-9-]*' |
	    sed -E 's/^[^-]*//' |
	    sed -E 's/^-([A-Za-z]{2,})$/\1/; t clus; b; :clus; s/(.)/-\1\n/g' |
	    sed '/^$/d' | sort -u
}

# has_word FILE WORD: WORD appears in FILE delimited by non-option chars.
has_word()
{
	grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"
}

# 2. --help against the page.
for prog in hoplab hoplab-agent hoplab-gen hoplab-router hoplab-link; do
	page=$(ls man/"$prog".[18])
	mandoc -T ascii -O width=250 "$page" | col -b >"$T/$prog.txt"
	"$HL_BIN/$prog" --help >"$T/$prog.help" 2>&1 ||
		fail "${prog}_help_runs" "$prog --help exited non-zero"
	if [ "$prog" = hoplab ]; then
		for c in $(awk '/^Commands/ { on = 1; next } on && /^$/ { exit }
		    on { print $1 }' "$T/$prog.help"); do
			"$HL_BIN/hoplab" "$c" --help >>"$T/$prog.help" 2>&1
		done
	fi
	help_opts <"$T/$prog.help" >"$T/$prog.opts"
	n=$(wc -l <"$T/$prog.opts" | tr -d ' ')
	[ "$n" -ge 10 ] || fail "${prog}_opts_found" "only $n options in --help"
	missing=
	while read -r o; do
		has_word "$T/$prog.txt" "$o" || missing="$missing $o"
	done <"$T/$prog.opts"
	assert_eq "${prog}_page_has_every_option ($n)" "" "$missing"
done

# hoplab's options in the completion (its -m is `uname -m` in deploy's
# text, not an option).
missing=
while read -r o; do
	[ "$o" = -m ] && continue
	has_word deploy/hoplab.bash "$o" || missing="$missing $o"
done <"$T/hoplab.opts"
assert_eq completion_has_every_option "" "$missing"
if command -v bash >/dev/null; then
	out=$(bash -c '. deploy/hoplab.bash; COMP_WORDS=(hoplab r); COMP_CWORD=1
	    _hoplab; echo "${COMPREPLY[*]}"; COMP_WORDS=(hoplab run --d)
	    COMP_CWORD=2; _hoplab; echo "${COMPREPLY[*]}"' 2>&1)
	assert_eq completion_completes "run report
--dry-run" "$out"
fi

# 3. Plan keys: every quoted word of the loader's key tables.
for f in controller/plan/*.c; do
	awk '/(keys|KEYS)\[[A-Z_]*\] = \{/ { on = 1 } on { print }
	    on && /\};/ { on = 0 }' "$f"
done | grep -oE '"[a-z_0-9]+"' | tr -d '"' | sort -u >"$T/keys"
n=$(wc -l <"$T/keys" | tr -d ' ')
[ "$n" -ge 100 ] || fail plan_keys_found "only $n keys in controller/plan"
awk '/^\./ { for (i = 1; i < NF; i++) if ($i == "Ic" || $i == ".Ic") print $(i + 1) }' \
    man/hoplab-plan.5 | tr -d ',;' | sort -u >"$T/ic"
assert_eq "plan_page_has_every_key ($n)" "" \
    "$(comm -23 "$T/keys" "$T/ic" | tr '\n' ' ' | sed 's/ $//')"
finish
