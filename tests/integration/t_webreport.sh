#!/bin/sh
# t_webreport: a run's folder as its users open it: the report page in a
# real browser, the captures in tshark with hoplab's Lua dissector, the
# CSV files in pandas (docs/report.md "The report page", docs/results.md
# "Opening the captures in Wireshark" and "Loading a folder in pandas
# and R").  Lab prefix hlwr, management K 192.
#
# One run (chain A B through hoplab routers, variants A and A-B, 2
# repetitions, an empty impairment on A-B and a 0.2 s loss of 100 % on
# it, per-packet records and the generator's captures; flows probe
# (1200 x 64 B) and bulk (600 x 512 B)), about 20 s, then:
#
# 1. `hoplab report` on a copy with a hand-made evil.csv (a cell that is
#    an <img> tag, one with & and quotes) writes index.html; headless
#    Chromium (Debian's chromium) renders it to a screenshot (kept in
#    build/integration/, its path printed) and dumps its DOM after load,
#    and webreport_dom.py checks the DOM against the folder's files: every
#    CSV file a table cell by cell (the first 500 rows; pdf.csv has 800),
#    hops.csv's flagged rows marked, every plots/*.png an image the
#    browser decoded at the PNG's own width, nothing outside the folder,
#    no element made by a file's text, run.json's status and hosts shown.
#    Then the same with one PNG replaced by garbage (--no-plots keeps
#    it): exactly that image must fail, which shows the load check can;
#    and a ragged CSV file added is shown as its error, not refused.
# 2. tshark with tools/wireshark/hoplab.lua on every point's gen-tx
#    capture prints, as "flow seq" lines, exactly the flows (the flow's
#    place in the plan, from 1) and sequence numbers of that point's
#    packets/ files (the generator's per-packet records), and decodes
#    nothing else (as many hoplab packets as UDP packets to port 9).
# 3. the pandas snippet of docs/results.md, cut out of the doc and run
#    as it stands in a folder with results/demo-* (this run), gives
#    delay.loc["A", 64, "probe"] equal to the mean of summary.csv's rows
#    worked out here with awk; the R snippet too (r-base-core).
# 4. Bad input: `hoplab report` on a folder with a run.json but no
#    summary.csv exits 2, says it is not a results folder, and writes no
#    index.html.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlwr 192
T=$(mktemp -d /tmp/hoplab-t-webreport.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlwr"
cat >"$T/plan.yaml" <<'PLAN'
name: webreport
topology: {chain: [A, B]}
variants: [A, A-B]
router: {impl: hoplab}
repeat: 2
records: true
captures: {}
impairments:
  - {link: A-B}
faults:
  - {at: 0.5s, link: A-B, set: "loss 100%"}
  - {at: 0.7s, link: A-B, set: ""}
flows:
  - {name: probe, mode: l2, frame: 64, idt: 1ms, count: 1200}
  - {name: bulk, mode: l2, frame: 512, idt: 2ms, count: 600}
PLAN
lab_up A B

# --- the run ---------------------------------------------------------------
if ! $HOPLAB -q -o "$T/r" run "$T/plan.yaml" >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run failed"
fi
D=$(ls -d "$T"/r/webreport-*)
pass run
PY=/usr/bin/python3	# Debian's, with python3-pandas (not a pyenv one)

# --- 1. the report page in headless Chromium ----------------------------
# chromium FLAG FILE: load FILE in a fresh profile, no network services.
chromium_page()
{
	_prof=$(mktemp -d "$T/chromium.XXXXXX")
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --no-first-run --user-data-dir="$_prof" \
	    --virtual-time-budget=10000 --window-size=1280,2000 "$1" \
	    "file://$2" 2>>"$T/chromium.err"
}
# dom_checks NAME DOM DIR: webreport_dom.py's lines as pass and fail.
dom_checks()
{
	"$PY" "$HL_ROOT/tests/integration/webreport_dom.py" "$2" "$3" \
	    >"$T/$1.checks" 2>&1
	while read -r _st _name _why; do
		case $_st in
		ok) pass "$1_$_name" ;;
		FAIL) fail "$1_$_name" "$_why" ;;
		'#') echo "  $_name $_why" ;;
		*) fail "$1_checker" "$_st $_name $_why" ;;
		esac
	done <"$T/$1.checks"
}
command -v chromium >/dev/null || bail chromium "chromium is not installed (make deps)"
C="$T/copy"
cp -r "$D" "$C"
printf '%s\n' 'name,text' 'tag,"<img src=x id=evil onerror=alert(1)>"' \
    'amp,"a & b, ""quoted"""' >"$C/evil.csv"
if $HOPLAB report "$C" >"$T/report.log" 2>&1 && [ -s "$C/index.html" ] &&
    grep -q "^Report page: $(cd "$C" && pwd -P)/index.html (17 tables, 10 plots)$" \
    "$T/report.log"; then
	pass report_writes_page
else
	sed 's/^/    /' "$T/report.log" | tail -5
	fail report_writes_page "no index.html or no line saying so"
fi
SHOT_DIR=$HL_ROOT/build/integration
mkdir -p "$SHOT_DIR"
SHOT=$SHOT_DIR/webreport.png
rm -f "$SHOT"
chromium_page --screenshot="$SHOT" "$C/index.html" >/dev/null
[ "$(od -An -tx1 -N8 "$SHOT" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    pass screenshot || fail screenshot "$(tail -3 "$T/chromium.err")"
echo "  screenshot of the report page: $SHOT"
chromium_page --dump-dom "$C/index.html" >"$T/dom.html"
dom_checks page "$T/dom.html" "$C"

# A PNG that is no image: its <img> alone fails, the others load.  A
# ragged CSV file is shown as csvread's message, not refused.
C3="$T/broken"
cp -r "$C" "$C3"
echo "not a png" >"$C3/plots/links.png"
printf 'a,b\n1,2,3\n' >"$C3/ragged.csv"
$HOPLAB report --no-plots "$C3" >"$T/broken.log" 2>&1 ||
    fail broken_report "$(tail -2 "$T/broken.log")"
chromium_page --dump-dom "$C3/index.html" >"$T/broken.html"
"$PY" "$HL_ROOT/tests/integration/webreport_dom.py" "$T/broken.html" "$C3" \
    >"$T/broken.checks" 2>&1
assert_eq broken_png_fails_load_check "FAIL table_ragged.csv: no table with data-file=ragged.csv|FAIL img_links.png: data-loaded=no data-width=0, the PNG's width None|" \
    "$(grep '^FAIL' "$T/broken.checks" | tr '\n' '|')"
tr '\n' ' ' <"$T/broken.html" | grep -Eq \
    'ragged.csv</h3> <p class="missing">cannot be shown: [^<]*ragged.csv:2' &&
    pass ragged_csv_shown_as_its_error ||
    fail ragged_csv_shown_as_its_error "$(grep -A1 'ragged.csv</h3>' "$T/broken.html")"

# --- 2. the captures in tshark --------------------------------------------
command -v tshark >/dev/null || bail tshark "tshark is not installed (make deps)"
LUA=$HL_ROOT/tools/wireshark/hoplab.lua
npts=0
for cap in "$D"/captures/*/gen-tx.pcap; do
	pt=$(basename "$(dirname "$cap")")		# A-B_64_r1
	var=${pt%%_*}
	rep=${pt##*_r}
	: >"$T/want"
	id=0
	for flow in probe bulk; do
		id=$((id + 1))
		csv_col "$D/packets/${var}_rep$rep-$flow.csv" seq |
		    sed "s/^/$id /" >>"$T/want"
	done
	sort -u -o "$T/want" "$T/want"
	timeout 60 tshark -X lua_script:"$LUA" -r "$cap" -Y hoplab -T fields \
	    -e hoplab.flow -e hoplab.seq 2>"$T/tshark.err" |
	    tr '\t' ' ' | sort >"$T/got"
	nudp=$(timeout 60 tshark -r "$cap" -Y "udp.dstport == 9" 2>/dev/null |
	    wc -l)
	if [ -s "$T/want" ] && cmp -s "$T/want" "$T/got" &&
	    [ "$nudp" = "$(wc -l <"$T/got")" ]; then
		pass "tshark_flows_seqs_$pt"
	else
		fail "tshark_flows_seqs_$pt" "$(wc -l <"$T/want") records, \
$(wc -l <"$T/got") decoded, $nudp UDP to port 9: \
$(diff "$T/want" "$T/got" | head -3 | tr '\n' ' ') $(head -2 "$T/tshark.err")"
	fi
	npts=$((npts + 1))
done
assert_eq tshark_points 4 "$npts"

# --- 3. the pandas snippet of docs/results.md -----------------------------
# snippet NAME: the fenced block after <!-- snippet:NAME ...-->.
snippet()
{
	sed -n "/^<!-- snippet:$1[ >]/,/^<!-- \/snippet:$1 -->/p" \
	    "$HL_ROOT/docs/results.md" | sed '1,2d;$d' | sed '$d'
}
snippet pandas >"$T/snippet.py"
grep -q 'read_csv(run / "summary.csv")' "$T/snippet.py" ||
    bail pandas_snippet "no pandas snippet in docs/results.md"
mkdir -p "$T/py/results"
ln -s "$D" "$T/py/results/demo-20261203T000000Z"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["variant"] == "A" && $c["frame_bytes"] == 64 && $c["flow"] == "probe" {
	s += $c["delay_mean_us"]; n++ }
    END { printf "%.4f", s / n }' "$D/summary.csv")
got=$(cd "$T/py" && "$PY" -c 'exec(open("'"$T"'/snippet.py").read())
print("%.4f" % delay.loc["A", 64, "probe"], len(packets))' \
    2>"$T/pandas.err" | tail -1)
# 8 packets/ files: 2 variants x 2 repetitions x 2 flows.
assert_eq pandas_snippet_delay_and_packets "$want 8" "$got"
[ -s "$T/pandas.err" ] && sed 's/^/    /' "$T/pandas.err" | tail -3
if command -v Rscript >/dev/null; then
	snippet r >"$T/snippet.R"
	(cd "$T/py" && Rscript "$T/snippet.R") >"$T/r.out" 2>&1 &&
	    grep -q "$want" "$T/r.out" && pass r_snippet ||
	    fail r_snippet "$(tail -3 "$T/r.out")"
else
	fail r_snippet "no Rscript: sudo make deps (r-base-core)"
fi

# --- 4. bad input ------------------------------------------------------------
mkdir "$T/notres"
cp "$D/run.json" "$T/notres/"
$HOPLAB report "$T/notres" >"$T/bad.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "is not a results folder" "$T/bad.log" &&
    [ ! -e "$T/notres/index.html" ] && pass not_results_folder_exit_2 ||
    fail not_results_folder_exit_2 "rc=$rc: $(cat "$T/bad.log")"
finish
