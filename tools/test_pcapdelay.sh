#!/bin/sh
# shellcheck disable=SC2059 # the printf formats are octal escapes
# test_pcapdelay.sh PCAPDELAY: check tools/pcapdelay against captures
# crafted here byte by byte, whose answers are worked out by hand.
#
# tx.pcap (nanosecond pcap, Ethernet): probes of flow 1, seq 0, 1, 2 at
#   t = 10.000000000, 10.000100000, 10.000200000 s (probe stamps 9 us
#   earlier), one non-probe UDP packet, and a probe of flow 2 seq 0.
# rx.pcap: flow 1 seq 0 at 10.000001500 (delay 1500 ns), seq 2 at
#   10.000202500 (2500 ns) and again at 10.000203000 (a duplicate), flow 1
#   seq 9 (never sent), flow 2 seq 0 at +4000 ns, a packet with a wrong
#   magic, a probe to another UDP port (1000 ns, dport 7).
#
# Expected (delay mode, every flow, every port): matched 3 (1:0, 1:2, 2:0),
#   tx_only 1 (1:1), rx_only 1 (1:9), rx_dup 1, delays 1500 2500 4000:
#   mean 2666.7, min 1500, p50 2500 (nearest rank), max 4000, tx_lag mean
#   9000.  With -f 1: matched 2, mean 2000.  Gap mode on tx.pcap with
#   -p 9: 4 probes to port 9 (the non-probe goes to port 53) at 0, 100,
#   200, 300 us: gaps 3, mean 100000, std 0.
# Prints one line per check; exits 1 if any failed.
set -u
PD=${1:?usage: test_pcapdelay.sh PCAPDELAY}
T=$(mktemp -d /tmp/hoplab-pcapdelay.XXXXXX)
trap 'rm -rf "$T"' EXIT
FAILS=0

# oct N BYTES ORDER: N as BYTES bytes (le or be) in printf octal escapes.
oct()
{
	awk -v v="$1" -v n="$2" -v o="$3" 'BEGIN {
		for (i = 0; i < n; i++) { b[i] = v % 256; v = int(v / 256) }
		for (i = 0; i < n; i++)
			printf "\\%03o", b[o == "le" ? i : n - 1 - i]
	}'
}

# pkt SEC NSEC FLOW SEQ PROBE_TX DPORT [MAGIC]: one pcap record, 60 bytes.
pkt()
{
	f="$(oct 0 6 be)$(oct 0 6 be)$(oct 2048 2 be)"		# Ethernet
	f="$f\\105\\000$(oct 46 2 be)\\000\\001\\000\\000\\100\\021\\000\\000"
	f="$f$(oct 3323068417 4 be)$(oct 3323094018 4 be)"	# IPv4
	f="$f$(oct 49184 2 be)$(oct "$6" 2 be)$(oct 26 2 be)\\000\\000"	# UDP
	f="$f$(oct "${7:-18508}" 2 be)\\001\\000$(oct "$3" 2 be)"	# probe
	f="$f$(oct "$4" 4 be)$(oct "$5" 8 be)"
	printf "$(oct "$1" 4 le)$(oct "$2" 4 le)$(oct 60 4 le)$(oct 60 4 le)$f"
}

hdr()
{
	printf "$(oct 2712812621 4 le)$(oct 2 2 le)$(oct 4 2 le)"
	printf "$(oct 0 4 le)$(oct 0 4 le)$(oct 65535 4 le)$(oct 1 4 le)"
}

{
	hdr
	pkt 10 0 1 0 9999991000 9
	pkt 10 100000 1 1 10000091000 9
	pkt 10 150000 0 0 0 53 4660		# not a probe
	pkt 10 200000 1 2 10000191000 9
	pkt 10 300000 2 0 10000291000 9
} >"$T/tx.pcap"
{
	hdr
	pkt 10 1500 1 0 9999991000 9
	pkt 10 202500 1 2 10000191000 9
	pkt 10 203000 1 2 10000191000 9
	pkt 10 250000 1 9 10000241000 9
	pkt 10 304000 2 0 10000291000 9
	pkt 10 305000 2 1 0 9 4660		# wrong magic
} >"$T/rx.pcap"

check()
{
	got=$(echo "$out" | awk -v n="$1" '$1 == n { print $2 }')
	if [ "$got" = "$2" ]; then
		echo "  ok   pcapdelay $3: $1 $got"
	else
		echo "  FAIL pcapdelay $3: $1 expected $2, got '$got'"
		FAILS=$((FAILS + 1))
	fi
}

out=$("$PD" "$T/tx.pcap" "$T/rx.pcap")
check matched 3 all
check tx_only 1 all
check rx_only 1 all
check rx_dup 1 all
check tx_dup 0 all
check delay_mean_ns 2666.7 all
check delay_min_ns 1500 all
check delay_p50_ns 2500 all
check delay_max_ns 4000 all
check tx_lag_mean_ns 9000.0 all
out=$("$PD" -f 1 "$T/tx.pcap" "$T/rx.pcap")
check matched 2 flow1
check delay_mean_ns 2000.0 flow1
out=$("$PD" -g -p 9 "$T/tx.pcap")
check gaps 3 gap
check gap_mean_ns 100000.0 gap
check gap_std_ns 0.0 gap
out=$("$PD" -g -n 1 "$T/tx.pcap")
check gaps 3 gap-all-skip1
check gap_min_ns 50000 gap-all-skip1
"$PD" "$T/rx.pcap" "$T/tx.pcap" -x >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] && echo "  ok   pcapdelay bad usage: exit 1" ||
    { echo "  FAIL pcapdelay bad usage: exit $rc"; FAILS=$((FAILS + 1)); }
exit $((FAILS > 0))
