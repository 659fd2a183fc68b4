#!/bin/sh
# t_icmp_chain: icmp (ping) flows of a chain plan, from the generator,
# beside an l2 flow, run by `hoplab run` on the namespace lab (lab
# prefix hlic2, management K 223), chain gen:tx -> A -> B -> gen:rx,
# variants A and A-B, once with kernel routers and once with hoplab-router.
#
# 1. Bad input, refused at load (exit 2) with file:line and the key,
#    before anything starts: an icmp flow's dst that no router of the
#    shortest variant owns (198.18.1.2 is B's in, not in variant A),
#    and a plan whose only flow is icmp; the dry run shows the ping
#    role and sequential variants.
# 2. linux: flow `probe` (l2, 1000 packets 1 ms apart) and `ping` (icmp
#    to the default, the last router's 198.18.100.1, 40 requests 25 ms
#    apart).  An nftables table of the test's own on A (forward hook)
#    drops every 10th echo request to 198.18.100.1 that A forwards: in
#    variant A, A itself owns the address (the input hook, not forward),
#    so it loses none; in A-B the rule's counter is 4 (requests 1, 11,
#    21, 31).  Known truth: summary.csv has delay_kind rtt for ping and
#    one-way for probe; ping's loss in A-B equals the rule's counter,
#    0 in A; reply TTL 64 in A (A answers with 64, no router back) and
#    63 in A-B (B answers, A on the way back); probe loses nothing
#    (TTL 63 / 62, the runner's own check); hops.csv has no ping row; the
#    kernel address the agent gave gen:tx (198.18.0.3) is gone after the
#    run (ip -n PREFIX-gen addr); `hoplab report` labels ping's PDF and
#    time figures round-trip time, probe's PDF one-way delay (the .gp).
# 3. hoplab: the same plan with router: {impl: hoplab} and ping's dst
#    198.18.0.2 (A's in, in both variants): reply TTL 64 in both, no
#    loss, the address gone again.
# About 25 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-router; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlic2 223
T=$(mktemp -d /tmp/hoplab-t-icmp-chain.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

cat >"$T/linux.yaml" <<'YAML'
name: chainping
topology: {chain: [A, B]}
variants: [A, A-B]
variants_mode: sequential
router: {impl: linux}
flows:
  - {name: probe, frame: 128, idt: 1ms, count: 1000}
  - {name: ping, mode: icmp, frame: 64, idt: 25ms, count: 40}
YAML
sed -e 's/impl: linux/impl: hoplab/' \
    -e 's/count: 40}/count: 40, dst: 198.18.0.2}/' \
    "$T/linux.yaml" >"$T/hoplab.yaml"
sed -e 's/count: 40}/count: 40, dst: 198.18.1.2}/' \
    "$T/linux.yaml" >"$T/nowhere.yaml"
sed -e '/name: probe/d' "$T/linux.yaml" >"$T/alone.yaml"

# cell FILE VARIANT FLOW COLUMN: COLUMN of that row of summary FILE
# (a quoted field, ts_source's "tx=..,rx=..", counts as one).
cell()
{
	awk -F, -v v="$2" -v f="$3" -v name="$4" '{ gsub(/"[^"]*"/, "q")
	    $0 = $0 } NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["variant"] == v && $h["flow"] == f { print $h[name] }' "$1"
}

# ping_addr: gen:tx's kernel addresses 198.18.0.3 (none: "").
ping_addr()
{
	ip -n "$LAB_PREFIX-gen" -4 -o addr show dev tx 2>/dev/null |
	    grep -o '198\.18\.0\.3/24' || true
}

# 1.
$HL -o "$T/nowhere" run "$T/nowhere.yaml" >"$T/nowhere.log" 2>&1
assert_eq dst_not_in_every_variant_exit_2 2 "$?"
assert_match dst_not_in_every_variant_names_file_line_key \
    "nowhere.yaml:8: flows\[1\].dst: no router of the chain owns 198.18.1.2 in every variant" \
    "$(cat "$T/nowhere.log")"
$HL -o "$T/alone" run "$T/alone.yaml" >"$T/alone.log" 2>&1
assert_eq icmp_alone_exit_2 2 "$?"
assert_match icmp_alone_names_file_line_key \
    "alone.yaml:7: flows: a chain plan's icmp flows run beside its l2 flows" \
    "$(cat "$T/alone.log")"
assert_eq bad_input_nothing_started no "$([ -e "$T/nowhere" ] ||
    [ -e "$T/alone" ] && echo yes || echo no)"
$HL run --dry-run "$T/linux.yaml" >"$T/dry.log" 2>&1
assert_match dry_run_shows_the_ping_role_sequential \
    "variants sequential.*ping: hoplab-gen --mode icmp on gen from 198.18.0.3 \\(a kernel address on gen:tx for the role\\) to 198.18.100.1, beside the l2 generator" \
    "$(tr '\n' ' ' <"$T/dry.log")"

# 2.
lab_up A B
at_exit "ip netns exec '$LAB_PREFIX-A' nft delete table ip hlic2_test \
    2>/dev/null || true"
in_host A nft -f - <<'NFT' || bail nft_rule "the nftables rule on A failed"
table ip hlic2_test {
	chain ping_drop {
		type filter hook forward priority 0; policy accept;
		ip daddr 198.18.100.1 icmp type echo-request numgen inc mod 10 == 0 counter drop
	}
}
NFT
if ! $HL -o "$T/linux" run "$T/linux.yaml" >"$T/linux.log" 2>&1; then
	sed 's/^/    /' "$T/linux.log"
	bail linux_run "hoplab run (linux) failed"
fi
pass linux_run_completes
truth=$(in_host A nft list table ip hlic2_test |
    sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
in_host A nft delete table ip hlic2_test
S=$(ls -d "$T/linux"/*-*)/summary.csv
grep 'ping' "$T/linux.log" | sed 's/^/    /'
assert_eq nft_counter_4 4 "$truth"
for v in A A-B; do
	assert_eq "linux_${v}_ping_rtt" rtt "$(cell "$S" $v ping delay_kind)"
	assert_eq "linux_${v}_probe_one_way" one-way \
	    "$(cell "$S" $v probe delay_kind)"
	assert_eq "linux_${v}_ping_sent_40" 40 "$(cell "$S" $v ping sent)"
	assert_eq "linux_${v}_probe_lost_0" 0 "$(cell "$S" $v probe lost)"
done
assert_eq linux_A_ping_lost_0 0 "$(cell "$S" A ping lost)"
assert_eq linux_A-B_ping_lost_equals_nft_counter "$truth" \
    "$(cell "$S" A-B ping lost)"
assert_eq linux_A_ping_reply_ttl_64 "64 64" \
    "$(cell "$S" A ping ttl_min) $(cell "$S" A ping ttl_max)"
assert_eq linux_A-B_ping_reply_ttl_63 "63 63" \
    "$(cell "$S" A-B ping ttl_min) $(cell "$S" A-B ping ttl_max)"
assert_eq linux_hops_has_no_ping_estimate 0 \
    "$(grep -c '^ping,' "$(dirname "$S")/hops.csv" || true)"
assert_eq linux_kernel_address_gone "" "$(ping_addr)"
# `hoplab report` names ping's delays round-trip times, probe's one-way.
P=$(dirname "$S")/plots
if $HL report "$(dirname "$S")" >"$T/report.log" 2>&1; then
	assert_eq report_ping_pdf_says_rtt 1 "$(grep -c \
	    "xlabel 'round-trip time (us" "$P/delay_pdf_ping_64.gp")"
	assert_eq report_probe_pdf_says_one_way 1 "$(grep -c \
	    "xlabel 'one-way delay (us" "$P/delay_pdf_probe_128.gp")"
	assert_eq report_ping_time_says_rtt 1 "$(grep -c \
	    "ylabel 'mean round-trip time (us)'" "$P/time_ping_64.gp")"
else
	sed 's/^/    /' "$T/report.log"
	fail report "hoplab report failed"
fi

# 3.
if ! $HL -o "$T/hoplab" run "$T/hoplab.yaml" >"$T/hoplab.log" 2>&1; then
	sed 's/^/    /' "$T/hoplab.log"
	bail hoplab_run "hoplab run (hoplab) failed"
fi
pass hoplab_run_completes
S=$(ls -d "$T/hoplab"/*-*)/summary.csv
for v in A A-B; do
	assert_eq "hoplab_${v}_ping_rtt" rtt "$(cell "$S" $v ping delay_kind)"
	assert_eq "hoplab_${v}_ping_sent_40_lost_0" "40 0" \
	    "$(cell "$S" $v ping sent) $(cell "$S" $v ping lost)"
	assert_eq "hoplab_${v}_ping_reply_ttl_64" "64 64" \
	    "$(cell "$S" $v ping ttl_min) $(cell "$S" $v ping ttl_max)"
	assert_eq "hoplab_${v}_probe_lost_0" 0 "$(cell "$S" $v probe lost)"
done
assert_eq hoplab_kernel_address_gone "" "$(ping_addr)"

lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
