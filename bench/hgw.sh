#!/bin/sh
#
# bench/hgw.sh: the home-gateway table (make bench's part p; issue 16):
# the NAT throughput of TCP uploads, 5 parallel connections per device,
# through a kernel NAT router (nftables masquerade) and through
# hoplab-router's NAT, for one network of 10 devices on a switch, 10
# networks of 1 device, and a single device.
#
# The plans are examples/hgw-{1x10,10x1,1x1}-{linux,hoplab}.yaml (each
# device uploads to Srv for 5 s over `streams: 5`, all of them in the
# flow group `devices`), run REPS times each.  The table gives, from
# flows_total_summary.csv (the group's total per repetition, then its
# mean and 95 % interval over them), the total throughput and the mean
# per device (the total / the devices), and hoplab-router's total as a
# ratio of the kernel's.  On the namespace lab every device, the router
# and the server share this machine's cores: the totals measure the
# machine as much as the NAT.
#
# Environment: REPS (5), SHAPES ("1x10 10x1 1x1").  Lab hlhg, K 204,
# built and removed by `hoplab run --lab`.  Root.  About 45 s per plan
# with the defaults: 5 minutes.  Asserts nothing.
set -u
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
HOPLAB=$ROOT/bin/hoplab
REPS=${REPS:-5}
SHAPES=${SHAPES:-"1x10 10x1 1x1"}
W=$(mktemp -d /tmp/hoplab-hgw.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ "$(id -u)" = 0 ] || { echo "hgw.sh: needs root (namespaces)"; exit 1; }
[ -x "$HOPLAB" ] || { echo "hgw.sh: $HOPLAB missing (make)"; exit 1; }

# total DIR COLUMN: flows_total_summary.csv's COLUMN for the group.
total()
{
	awk -F, -v col="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["flow"] == "devices" { v = $c[col] }
	END { print (v == "" ? "-" : v) }' "$1/flows_total_summary.csv" \
	    2>/dev/null
}

printf '%-6s %-7s %7s %4s %14s %12s %16s %9s\n' shape router devices n \
    total_mbps ci95 per_device_mbps hoplab/linux
for shape in $SHAPES; do
	case $shape in 1x1) dev=1 ;; *) dev=10 ;; esac
	linux_total=
	for impl in linux hoplab; do
		plan=$W/$shape-$impl.yaml
		sed -e "s/^repeat: .*/repeat: $REPS/" \
		    "$ROOT/examples/hgw-$shape-$impl.yaml" >"$plan"
		out=$W/out-$shape-$impl
		if ! timeout $((REPS * 20 + 60)) "$HOPLAB" -p hlhg -k 204 \
		    -o "$out" run --lab "$plan" >"$W/$shape-$impl.log" 2>&1
		then
			printf '%-6s %-7s failed: %s\n' "$shape" "$impl" \
			    "$(grep -m 1 'hoplab: ' "$W/$shape-$impl.log" ||
			    tail -n 1 "$W/$shape-$impl.log")"
			continue
		fi
		d=$(ls -d "$out"/*-* | head -n 1)
		t=$(total "$d" throughput_mbps_mean)
		ci=$(total "$d" throughput_mbps_ci95)
		ratio=-
		[ "$impl" = linux ] && linux_total=$t
		[ "$impl" = hoplab ] && [ -n "$linux_total" ] &&
		    ratio=$(awk -v a="$t" -v b="$linux_total" \
		    'BEGIN { if (b > 0 && a != "-") printf "%.3f", a / b; else print "-" }')
		printf '%-6s %-7s %7s %4s %14s %12s %16s %9s\n' "$shape" \
		    "$impl" "$dev" "$(total "$d" n_reps)" "$t" "$ci" \
		    "$(awk -v a="$t" -v n="$dev" 'BEGIN { if (a == "-") print "-"; else printf "%.1f", a / n }')" \
		    "$ratio"
	done
done
echo "(Mbit/s of TCP payload the server received, the group's total per" \
    "repetition; ci95: its 95 % interval over the n repetitions; REPS=$REPS)"
