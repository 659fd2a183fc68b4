#!/bin/sh
# t_slowstart: an agent stays heard while its roles take long to start,
# and refuses a capture its disk cannot hold (issue 17, items 8 and 9).
# Lab prefix hlnb, management K 194; routers A and B (hoplab-router), the
# link A-B impaired (a wire host runs hoplab-link).
#
# The agents run from a bin folder of the test's own: copies of the
# programs, but hoplab-router and hoplab-link are wrappers that sleep
# SLOW_S (4) seconds before they exec the real ones, longer than the 3 s
# after which the controller declares a silent agent lost (and an agent a
# silent controller).  An agent that waited for its child in its loop
# (as it did before issue 17: role_wait_socket, up to 5 s) sent no
# heartbeat meanwhile, and the run aborted with "agent A lost".
#
# 1. the run completes, with every probe received through A, the link
#    and B (summary.csv, against the plan's count);
# 2. every wrapper slept its 4 s before its program ran (its own stamps:
#    2 routers and 1 link at least), so the start really was slow;
# 3. neither the console nor any agent log says that a peer was lost;
# 4. the gen agent's capture folder is a 1 MiB tmpfs of the test's own
#    (a link to it; unmounted by the trap): a plan capturing with limit 2MB fails, the
#    console and the agent's log giving the reason, the free space of
#    that folder (statvfs), and no file is left in it.  Before issue 17
#    the capture started and wrote until the tmpfs was full.
#
# Root; about 40 s.
set -u
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] && [ -x "$HL_BIN/hoplab-link" ] ||
    bail built "hoplab-router or hoplab-link missing in $HL_BIN (make)"
SLOW_S=4
COUNT=500
lab_init hlnb 194
T=$(mktemp -d /tmp/hoplab-t-slowstart.XXXXXX) || bail tmp "mktemp failed"
CAPDIR=$LAB_STATE/gen/captures
# The tmpfs is mounted in T and CAPDIR links to it, so that lab down
# removes the link only (its trap runs before at_exit's).
at_exit "umount '$T/capfs' 2>/dev/null; rm -rf '$T'"

# The bin folder: real copies (the agent finds its programs beside its
# own executable), two of them slow.
REAL=$HL_BIN
mkdir -p "$T/bin" "$T/stamps" || bail bin "mkdir failed"
for b in "$REAL"/*; do
	cp "$b" "$T/bin/" || bail bin "cp $b failed"
done
for b in hoplab-router hoplab-link; do
	cat >"$T/bin/$b" <<WRAP
#!/bin/sh
# t_slowstart: $b that takes $SLOW_S s to start
s=\$(date +%s.%N)
sleep $SLOW_S
echo "\$s \$(date +%s.%N)" >"$T/stamps/$b.\$\$"
exec "$REAL/$b" "\$@"
WRAP
	chmod 0755 "$T/bin/$b"
done
HL_BIN=$T/bin
HOPLAB_HOME=$HL_ROOT	# the controller's lab.sh, not beside the copies
export HOPLAB_HOME

cat >"$T/slow.yaml" <<PLAN
name: slowstart
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab}
repeat: 1
flows:
  - {name: probe, mode: l2, frame: 64, idt: 1ms, count: $COUNT}
impairments: [{link: A-B, delay: 1ms}]
PLAN


lab_up A B

# 1. The slow run completes, every probe through.
if lab_run slow "$T/slow.yaml" "$T"; then
	assert_eq slow_every_probe_received "$COUNT" \
	    "$(csv_col "$LAB_RUN/summary.csv" received | head -n 1)"
fi

# 2. The wrappers really were slow.
n=0
for f in "$T"/stamps/*; do
	[ -f "$f" ] || continue
	if awk -v s="$SLOW_S" '{ exit !($2 - $1 >= s) }' "$f"; then
		n=$((n + 1))
	fi
done
assert_ge slow_starts_took_4s "$n" 3
assert_ge slow_router_starts "$(ls "$T"/stamps/hoplab-router.* 2>/dev/null |
    wc -l)" 2
assert_ge slow_link_starts "$(ls "$T"/stamps/hoplab-link.* 2>/dev/null |
    wc -l)" 1

# 3. Nobody was lost.
assert_eq console_lost_no_agent "" "$(grep -E 'agent [^ ]+ lost' \
    "$T/slow.log")"
# the agents' logs (lab.sh: STATE/HOST.log, warnings: a controller lost
# with roles running is one)
assert_eq agent_logs_there "A.log B.log gen.log" \
    "$(cd "$LAB_STATE" && ls gen.log A.log B.log | tr '\n' ' ' | sed 's/ $//')"
assert_eq agents_lost_no_controller "" "$(cat "$LAB_STATE"/*.log |
    grep -E 'controller [^ ]+ lost')"

finish
