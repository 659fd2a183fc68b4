#!/bin/sh
# t_mgmt_curve: CURVE on the management plane, as a user sees it.
# Lab prefix hlm1, management K 240.
#
# 1. lab up makes the keys by itself: a pair per host and the controller's,
#    secret halves mode 0600, named in the inventory; `hoplab agents`
#    lists every agent as "curve ok".
# 2. a controller whose key the agents do not hold: exit 1 and "agent B
#    (198.19.240.12:7700) refused our key"; agent B logs the attempt.
# 3. an inventory with a wrong public_key for B: B is named, the others
#    still answer.
# 4. --insecure against CURVE agents is refused with a sentence; a plain
#    agent (started --insecure) answers only `hoplab --insecure`, which
#    shows it as PLAIN.
# 5. an agent started without keys and without --insecure refuses to run;
#    keygen never overwrites a key.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlm1 240
T=$(mktemp -d /tmp/hoplab-t-curve.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab"
PLAIN_PID=
at_exit '[ -n "$PLAIN_PID" ] && kill "$PLAIN_PID" 2>/dev/null'

lab_up
S=$LAB_STATE
mode=$(stat -c %a "$S/keys/controller.key")
assert_eq "controller secret key is 0600" 600 "$mode"
mode=$(stat -c %a "$S/keys/B.key")
assert_eq "agent secret key is 0600" 600 "$mode"
assert_match "inventory names the controller key" \
    "^controller_key: keys/controller.key$" "$(cat "$S/inventory.yaml")"
assert_eq "inventory holds 4 public keys" 4 \
    "$(grep -c '^    public_key: "' "$S/inventory.yaml")"
out=$("$HOPLAB" -p hlm1 agents 2>&1)
assert_eq "4 agents answer over CURVE" 4 "$(echo "$out" | grep -c ' curve  *ok$')"

# --- 2. a controller key the agents do not hold --------------------------
"$HOPLAB" keygen "$T/k" rogue >/dev/null 2>&1
sed "s#^controller_key: .*#controller_key: $T/k/rogue.key#" \
    "$S/inventory.yaml" >"$T/rogue.yaml"
out=$("$HOPLAB" -i "$T/rogue.yaml" agents 2>&1); rc=$?
assert_eq "rogue controller: exit 1" 1 "$rc"
assert_match "rogue controller: console names agent B and the refusal" \
    "agent B \(198\.19\.240\.12:7700\) refused our key" "$out"
assert_match "agent B logged the refused attempt" \
    "refused a controller from 198\.19\.240\.1: its key" "$(cat "$S/B.log")"

# --- 3. a wrong public_key for B in the inventory -----------------------
rogue_pub=$(sed -n 's/^public-key = "\(.*\)"$/\1/p' "$T/k/rogue.pub")
b_pub=$(sed -n 's/^public-key = "\(.*\)"$/\1/p' "$S/keys/B.pub")
awk -v b="$b_pub" -v r="$rogue_pub" -v k="$S/keys/controller.key" '
    index($0, b) { print "    public_key: \"" r "\""; next }
    /^controller_key:/ { print "controller_key: " k; next }
    { print }' "$S/inventory.yaml" >"$T/wrongpub.yaml"
out=$("$HOPLAB" -i "$T/wrongpub.yaml" agents 2>&1); rc=$?
assert_eq "wrong public_key: exit 1" 1 "$rc"
assert_match "wrong public_key: B named, with the likely cause" \
    "agent B \(198\.19\.240\.12:7700\) closed the connection during the CURVE handshake.*public_key" "$out"
assert_eq "wrong public_key: the other 3 still answer" 3 \
    "$(echo "$out" | grep -c ' curve  *ok$')"

# --- 4. plain text only when asked for -----------------------------------
out=$("$HOPLAB" -p hlm1 --insecure agents 2>&1); rc=$?
assert_eq "--insecure against CURVE agents: exit 1" 1 "$rc"
assert_match "--insecure against CURVE agents: said so" \
    "agent gen \(198\.19\.240\.10:7700\) requires CURVE" "$out"
mkdir -p "$T/plain"
ip netns exec hlm1-C "$HL_BIN/hoplab-agent" -d --insecure \
    --insecure-on-network -N plain \
    -l 198.19.240.13:7701 -r "$T/plain" >"$T/plain.log" 2>&1 &
PLAIN_PID=$!
printf 'agents:\n  - name: plain\n    address: 198.19.240.13\n    port: 7701\n' \
    >"$T/plain.yaml"
i=0
while [ $i -lt 50 ] && ! grep -q -- "--insecure:" "$T/plain.log"; do
	sleep 0.1; i=$((i + 1))
done
out=$("$HOPLAB" -i "$T/plain.yaml" --insecure agents 2>&1); rc=$?
assert_eq "plain agent with --insecure: exit 0" 0 "$rc"
assert_match "plain agent shown as PLAIN" "^plain .* PLAIN  *ok$" "$out"
out=$("$HOPLAB" -i "$T/plain.yaml" agents 2>&1); rc=$?
assert_match "no controller_key and no --insecure: said what to do" \
    "plain.yaml has no controller_key: make a key pair" "$out"
printf 'controller_key: %s\nagents:\n  - name: plain\n    address: 198.19.240.13\n    port: 7701\n    public_key: "%s"\n' \
    "$S/keys/controller.key" "$rogue_pub" >"$T/plain2.yaml"
out=$("$HOPLAB" -i "$T/plain2.yaml" agents 2>&1); rc=$?
assert_eq "CURVE controller against a plain agent: exit 1" 1 "$rc"
assert_match "CURVE controller against a plain agent: said so" \
    "agent plain \(198\.19\.240\.13:7701\) runs without CURVE \(--insecure\)" "$out"
assert_match "plain agent warned of its --insecure mode" \
    "management traffic in plain text" "$(cat "$T/plain.log")"
kill "$PLAIN_PID"; wait "$PLAIN_PID" 2>/dev/null; PLAIN_PID=

# --- 5. no keys, no run; no overwrite ------------------------------------
out=$("$HL_BIN/hoplab-agent" -d -N nokeys -l 127.0.0.1:7799 \
    -r "$T/nokeys" 2>&1); rc=$?
assert_eq "agent without keys: exit 2" 2 "$rc"
assert_match "agent without keys: says what to give" \
    "CURVE needs --key FILE and --authorized PATH" "$out"
out=$("$HOPLAB" keygen "$T/k" rogue 2>&1); rc=$?
assert_eq "keygen over an existing key: exit 1" 1 "$rc"
assert_match "keygen never overwrites" "never overwrites" "$out"
finish
