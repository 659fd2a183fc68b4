#!/bin/sh
# t_calibrate: a known delay spliced after one router shows up in that
# router's increment, and nowhere else.  Chain lab A, B, C (kernel
# forwarding), prefix hlcal, management K 203.
#
# plans/calibrate-wire.yaml puts hoplab-link with `delay 30us` into link
# B-C (forward), which only variant A-B-C crosses; plans/calibrate-
# clean.yaml is the same chain and flow (64-byte frames incl. FCS, 3000
# probes 1 ms apart, variants A-B and A-B-C) without it.  They run clean,
# wire, clean.  From hops.csv (columns read by name, row method
# `difference`, variants `A-B-C - A-B`):
#
#   D_wire   the increment of A-B-C over A-B with the wire
#   D_clean  the same without, the mean of the runs before and after (a
#            drift of the machine over the three cancels to first
#            order): router C's own time (and its links')
#   R        the wire's mean residence per probe from its truth file
#            (links/A-B-C_B-C_64_1.csv, the CSV export: actual - arrival
#            of every sent probe): 30 us plus the link's own floor
#
# Checks:
#
# 1. the truth file: every probe of the point was sent, each intended
#    exactly 30 us after its arrival stamp (the profile, by hand), none
#    before its time (actual >= intended);
# 2. variant A-B crosses no wire (no truth file of its own);
# 3. calibration: D_wire = D_clean + R within the intervals hops.csv
#    states, widened by TOL_US (6 us): |D_wire - D_clean - R| <=
#    half-width(wire) + the clean runs' mean half-width + TOL_US.
#    Why 6 us: the plans run one after the other, and on a loaded 2-core
#    VM the mean delay of a whole run drifts by microseconds from run to
#    run while the stated per-packet intervals are a few tenths wide
#    (D_clean ranged from -0.74 to 3.38 us over seven single runs here,
#    a negative "router time" among them: issue 13's point); and the
#    splice itself costs what no truth file sees, the extra veth
#    crossing and the link's send() (0 to 3 us, bench/link_wire.sh's
#    "over direct" minus "truth").  Measured residuals: -0.25 to 4.5 us
#    at load average 0.2 to 2, 7.7 us (bound 13.6) beside two CPU hogs.
#    A 30 us delay that went missing, was counted twice or landed in the
#    wrong increment fails it by 24 us or more;
# 4. the same without the truth file's help: D_wire - D_clean is at
#    least 30 us - TOL_US (the delay cannot hide in the floor).
# The numbers are printed.  About 30 s.  Run as root; tests/integration/
# run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

TOL_US=6
PLANS=$HL_ROOT/tests/integration/plans

need_root
for b in hoplab hoplab-agent hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlcal 203
T=$(mktemp -d /tmp/hoplab-t-calibrate.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
lab_up A B C

# run NAME: hoplab run plans/NAME.yaml into T/NAME; prints the folder.
run()
{
	if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -q -o "$T/$1" run \
	    "$PLANS/$1.yaml" >"$T/$1.log" 2>&1; then
		sed 's/^/    /' "$T/$1.log" >&2
		return 1
	fi
	ls -d "$T/$1"/"$1"-*
}

# hop FILE COLUMN: COLUMN of the `difference` row `A-B-C - A-B` of the
# flow `probe` in hops.csv FILE (header names, any column order).
hop()
{
	awk -F, -v want="$2" 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["flow"] == "probe" && $h["method"] == "difference" &&
	    $h["variants"] == "A-B-C - A-B" { print $h[want]; exit }' "$1"
}

# truth FILE: "SENT OTHER BAD_INTENDED EARLY MEAN_US" over the a-b probes
# of the truth export FILE (delay_ns = actual - arrival, error_ns =
# actual - intended).
truth()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["dir"] == "a-b" && $h["kind"] == "probe" {
		if ($h["fate"] != "sent") { other++; next }
		n++
		# intended - arrival, as the difference of the two small
		# columns: the stamps themselves (19 digits) are beyond
		# the exact range of awk numbers
		if ($h["delay_ns"] - $h["error_ns"] != 30000)
			bad++
		if ($h["error_ns"] < 0)
			early++
		s += $h["delay_ns"]
	    }
	    END { printf "%d %d %d %d %.3f\n", n, other, bad, early,
		n ? s / n / 1000 : 0 }' "$1"
}

# clean, wire, clean: the clean increment is the mean of the runs before
# and after, so that a drift of the machine over the three cancels to
# first order
DC1=$(run calibrate-clean) || bail run_clean "hoplab run calibrate-clean.yaml failed"
mv "$T/calibrate-clean" "$T/clean1"
DC1=$T/clean1/$(basename "$DC1")
DW=$(run calibrate-wire) || bail run_wire "hoplab run calibrate-wire.yaml failed"
pass run_with_the_wire_completes
DC2=$(run calibrate-clean) || bail run_clean "hoplab run calibrate-clean.yaml failed"
pass runs_without_the_wire_complete

# 1.
TC=$DW/links/A-B-C_B-C_64_1.csv
[ -s "$TC" ] || bail truth_csv "no truth export $TC: $(ls "$DW/links")"
set -- $(truth "$TC")
sent=$1 other=$2 bad=$3 early=$4 R=$5
echo "    truth: $sent probes sent, $other not, mean residence $R us"
assert_eq truth_every_probe_sent 0 "$other"
assert_ge truth_has_the_probes "$sent" 3000
assert_eq truth_intended_exactly_30us_after_arrival 0 "$bad"
assert_eq truth_no_probe_sent_before_its_time 0 "$early"

# 2.
assert_eq variant_A_B_crosses_no_wire "" "$(ls "$DW/links" | grep '^A-B_')"

# 3.
for f in "$DW/hops.csv" "$DC1/hops.csv" "$DC2/hops.csv"; do
	for c in t_router_us ci95_lo_us ci95_hi_us samples; do
		v=$(hop "$f" $c)
		[ -n "$v" ] || bail hops_row "no A-B-C - A-B $c in $f: $(cat "$f")"
	done
done
# est FILE: "T_ROUTER HALF_WIDTH" of the A-B-C - A-B row of FILE.
est()
{
	awk -v t="$(hop "$1" t_router_us)" -v lo="$(hop "$1" ci95_lo_us)" \
	    -v hi="$(hop "$1" ci95_hi_us)" 'BEGIN { printf "%.4f %.4f", t,
	    (hi - lo) / 2 }'
}
set -- $(est "$DW/hops.csv") $(est "$DC1/hops.csv") $(est "$DC2/hops.csv")
dw=$1 hw=$2 c1=$3 h1=$4 c2=$5 h2=$6
res=$(awk -v dw="$dw" -v hw="$hw" -v c1="$c1" -v h1="$h1" -v c2="$c2" \
    -v h2="$h2" -v r="$R" -v tol="$TOL_US" 'BEGIN {
	dc = (c1 + c2) / 2
	err = dw - dc - r
	bound = hw + (h1 + h2) / 2 + tol
	printf "%.3f %.3f %.3f %.3f", dc, err, err < 0 ? -err : err, bound }')
set -- $res
dc=$1
echo "    A-B-C - A-B: with the wire $dw +- $hw us; without $c1 +- $h1" \
    "(before) and $c2 +- $h2 (after), mean $dc us; wire residence" \
    "$R us: D_wire - D_clean - R = $2 us (bound $4 us)"
assert_le increment_is_router_plus_truth_residence "$3" "$4"

# 4.
assert_ge delay_shows_in_the_increment \
    "$(awk -v a="$dw" -v b="$dc" 'BEGIN { printf "%.3f", a - b }')" \
    $((30 - TOL_US))
finish
