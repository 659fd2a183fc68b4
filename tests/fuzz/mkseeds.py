#!/usr/bin/env python3
"""mkseeds.py: write the seed corpora of tests/fuzz/corpus/ that are not
plain text written by hand (pcap files, frame and datagram sequences in
the targets' own input formats), and the text ones alongside, so that
one run of this script gives every seed back.  Run from anywhere:

    python3 tests/fuzz/mkseeds.py

Each corpus holds valid inputs and a few known-tricky ones (names
starting with "tricky-"); crashes the targets found are added by hand as
"crash-..." and never rewritten here."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
C = os.path.join(HERE, "corpus")


def put(target, name, data):
    d = os.path.join(C, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def probe(flow, seq, tx_ns):
    return struct.pack("!HBBHIq", 0x484C, 1, 0, flow, seq, tx_ns)


def udp4(payload, dport=9000, frag=0):
    udp = struct.pack("!HHHH", 40000, dport, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, frag, 64,
                     17, 0, bytes([198, 18, 0, 1]), bytes([198, 18, 1, 2]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return ip + udp


def eth(ip, vlan=False):
    h = b"\x02\0\0\0\0\x02" + b"\x02\0\0\0\0\x01"
    if vlan:
        h += struct.pack("!HH", 0x8100, 7)
    return h + struct.pack("!H", 0x0800) + ip


def sll(ip):
    return struct.pack("!HHH8sH", 0, 1, 6, b"\x02\0\0\0\0\x01\0\0",
                       0x0800) + ip


def pcap(frames, linktype=1, nano=True, ts0=1764470000):
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out = struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for i, f in enumerate(frames):
        sub = i * 1000 * (1 if nano else 1)
        out += struct.pack("<IIII", ts0, sub, len(f), len(f)) + f
    return out


def pcapng(frames, linktype=1, ts0=1764470000 * 1000000):
    def block(t, body):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", t, n) + body + struct.pack("<I", n)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", linktype, 0, 65535))
    for i, f in enumerate(frames):
        ts = (ts0 + i * 10) % 2**64
        out += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF,
                                    len(f), len(f)) + f)
    return out


def pcaps():
    fr = [eth(udp4(probe(1, s, 1764470000 * 10**9 + s))) for s in range(4)]
    put("pcap", "probes-nano.pcap", pcap(fr))
    put("pcap", "probes-usec.pcap", pcap(fr, nano=False))
    put("pcap", "vlan-dup.pcap", pcap([eth(udp4(probe(2, 0, 5)), True)] * 3))
    put("pcap", "sll.pcap", pcap([sll(udp4(probe(3, 1, 7)))], linktype=113))
    put("pcap", "raw.pcap", pcap([udp4(probe(4, 9, 1))], linktype=101))
    put("pcap", "probes.pcapng", pcapng(fr))
    put("pcap", "tricky-empty.pcap", pcap([]))
    put("pcap", "tricky-truncated.pcap", pcap(fr)[:-7])
    # found at once by fuzz_pcap: a first stamp of 0 lost the first gap
    put("pcap", "tricky-zero-stamps.pcap", pcap(fr, ts0=0))
    # found by hand after fuzz_pcap: a pcapng stamp of 2^64 - 1 us
    # overflowed tv_sec * 1e9 in dist.c and capmatch.c
    put("pcap", "crash-pcapng-huge-stamp.pcapng",
        pcapng(fr[:2], ts0=2**64 - 5))
    put("pcap", "tricky-fragment.pcap", pcap([eth(udp4(probe(1, 1, 1),
                                                       frag=0x20))]))


def ops(frames):
    """capmatch's input: flags, stamp step (us), length, frame."""
    return b"".join(struct.pack("!BHH", fl, step, len(f)) + f
                    for fl, step, f in frames)


def capmatch():
    tx = [(0x00, 10, eth(udp4(probe(1, s, s)))) for s in range(4)]
    rx = [(0x08, 100, eth(udp4(probe(1, s, s)))) for s in (0, 2, 1, 1, 7)]
    put("capmatch", "tx-rx.bin", ops(tx + rx))
    put("capmatch", "linktypes.bin", ops([
        (0x01, 1, eth(udp4(probe(2, 0, 0)), True)),
        (0x0a, 5, sll(udp4(probe(2, 0, 0)))),
        (0x14, 1, udp4(b"\0" * 18)), (0x1d, 3, udp4(b"\0" * 18)),
        (0x13, 1, b"\0" * 20 + udp4(b"\0" * 18))]))
    put("capmatch", "tricky-short.bin", ops([(0x00, 1, eth(udp4(b"HL"))),
                                             (0x04, 1, b"\x45")]))


def dgrams(items, dynamic=0):
    """gen_rx's input: a byte (bit 0: flows created on arrival), then
    per datagram: flags, ttl, step (us), length, payload."""
    return bytes([dynamic]) + b"".join(struct.pack("!BBHH", fl, ttl, step, len(p)) + p
                    for fl, ttl, step, p in items)


def followup(typ, entries, boot=b"\x11" * 16):
    h = struct.pack("!HBBHH", 0x4843, 1, typ, len(entries), 0) + boot
    return h + b"".join(struct.pack("!HBBIq", *e) for e in entries)


def gen_rx():
    t0 = 1764470000 * 10**9
    pr = [(0, 64, 10, probe(1, s, t0 + s * 1000) + b"\0" * 28)
          for s in range(5)]
    stamps = (0, 64, 1, followup(1, [(1, 0, 0, s, t0 + s * 1000 + 5)
                                     for s in range(5)]))
    end = (0, 64, 1, followup(2, [(1, 0, 0, 0, 6)]))
    put("gen_rx", "probes-stamps-end.bin", dgrams(pr + [stamps, end]))
    put("gen_rx", "dynamic.bin", dgrams(pr + [stamps, end], 1))
    put("gen_rx", "reorder-dup.bin", dgrams([pr[2], pr[0], pr[0], pr[4],
                                             (8, 63, 3, pr[1][3])]))
    put("gen_rx", "tricky-end-huge.bin", dgrams(
        [pr[0], (0, 0, 0, followup(2, [(1, 1, 0, 0, 2**62),
                                       (7, 2, 0, 0, -1)]))], 1))
    # found by fuzz_gen_rx: a probe stamped -7.4e18 overflowed rx - tx
    put("gen_rx", "crash-stamp-overflow.bin", dgrams(
        [(0, 64, 10, probe(1, 0, -7458902036854773808) + b"\0" * 28)]))
    put("gen_rx", "tricky-shaped.bin", dgrams(
        [(1, 1, 0, b"\xff" * 18), (6, 0, 0, b"\0" * 40),
         (2, 0, 0, b"\0" * 24), (0, 0, 0, b"HC")]))


def l2frames(items):
    """gen_l2's input: flags, stamp step (us), length, bytes."""
    return b"".join(struct.pack("!BHH", fl, step, len(b)) + b
                    for fl, step, b in items)


def gen_l2():
    t0 = 1764470000 * 10**9

    def pr(dst_b, ttl, flow, seq, tx, size=0):
        return bytes([dst_b, ttl, flow]) + struct.pack("!Iq", seq, tx) + \
            b"\0" * 4 + bytes([size])
    put("gen_l2", "probes.bin", l2frames(
        [(1, 10, pr(0, 64, 0, s, t0 + s * 1000)) for s in range(4)] +
        [(1, 10, pr(1, 63, 2, 0, t0)), (5, 1, pr(0, 64, 1, 0, t0))]))
    put("gen_l2", "arp.bin", l2frames(
        [(2, 1, b"\x02\0\0\0\0\x09" + b"\x02"), (2, 1, b"\x04\x05\0\0\0"
                                                    b"\x09\x01\x03"),
         (2, 1, b"\x02\0\0\0\0\x09\x07\x04")]))
    put("gen_l2", "raw.bin", l2frames(
        [(0, 1, eth(udp4(probe(1, 3, t0), dport=7))),
         (0, 1, eth(udp4(probe(3, 3, t0), dport=7)))]))
    put("gen_l2", "tricky-stamps.bin", l2frames(
        [(1, 1, pr(0, 64, 0, 1, -2**63)), (1, 1, pr(0, 64, 0, 2, 2**63 - 1)),
         (1, 1, pr(0, 64, 0, 5000, t0))]))


def text():
    key = '"rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"'
    put("inventory", "lab.yaml",
        "lab: hl\ncontroller_key: keys/controller.key\nagents:\n"
        "  - name: gen\n    address: 198.19.0.10\n    port: 7700\n"
        "    interfaces: [tx, rx]\n    public_key: " + key + "\n"
        "  - name: A\n    address: 198.19.0.11\n")
    put("inventory", "hosts.yaml", "agents:\n  - {name: r1, address: "
        "r1.lab.example, port: 7701, interfaces: [eth1, eth2@x]}\n")
    put("inventory", "tricky-dup.yaml", "agents:\n  - {name: a, address: "
        "198.19.0.1}\n  - {name: a, address: 198.19.0.2}\n")
    put("inventory", "tricky-dots.yaml", "agents:\n  - {name: a, address: "
        "999.1.1.1, interfaces: ['..', x]}\n")
    # public_key_file: /dev/zero hung keys_load (fgets never ends)
    put("inventory", "crash-devzero.yaml", "agents:\n  - {name: a, "
        "address: 198.19.0.1, public_key_file: /dev/zero}\n")
    # a real pair (hoplab keygen), used for nothing but this seed
    put("keys", "pair.key", '# hoplab CURVE key pair "fz"; keep this file secret\npublic-key = "zw?0!>/-RyNzBG!z27jf=S=xZC>$sRIR=)nfr#cz"\nsecret-key = "l!YWZJ@TP&Pl^Zkb-sgLx=n+H[6jL/mgkrnziAAB"\n')
    put("keys", "one.pub", "public-key = " + key + "\n")
    put("keys", "tricky-twice.pub", "public-key = " + key + "\n"
        "public-key = " + key + "\n")
    put("keys", "tricky-long-line.pub", "public-key = " + key + " " * 300 +
        "\n")
    for n, s in (("exp", "\x01exp:10us"), ("uniform", "\x00uniform:64:1518"),
                 ("normal", "\x01normal:1ms:100us"),
                 ("lognormal", "\x00lognormal:500:100"),
                 ("pareto", "\x00pareto:1.5:64"), ("cauchy",
                 "\x01cauchy:1ms:10us"), ("gamma", "\x00gamma:2:300"),
                 ("weibull", "\x01weibull:1.5:1ms"), ("const", "\x001000"),
                 ("tricky-tiny", "\x00gamma:1e-300:1e308"),
                 ("tricky-colons", "\x01uniform:1s::"),
                 # found by fuzz_dist: the gamma cdf gave -inf, then
                 # decreased (shapes beyond 1e10)
                 ("crash-gamma-huge-shape",
                  "\x00gamma:4666666666666666667:300"),
                 ("crash-gamma-1e31", "\x00gamma:1e31:18"),
                 # found by fuzz_dist with dist.dict: MEAN * MEAN
                 # overflowed, sigma 0, a cdf of NaN
                 ("crash-lognormal-huge-mean",
                  "\x00lognormal:1e308:1e30:"),
                 # and then: sqrt(9 * 1e308) is inf, the cdf NaN
                 ("crash-gamma-1e308", "\x00gamma:1e308:1")):
        put("dist", n, s)
    put("dist_csv", "times.csv", "# gaps\n10us\n20us, x\n1.5ms\n\n5ns\n")
    put("dist_csv", "bytes.csv", "64\n1518;a\n512\t\n")
    put("dist_csv", "tricky-huge.csv", "1e308\n-1e308\n1e400\nnan\n")
    # found by fuzz_dist_csv: the values before a bad line leaked
    put("dist_csv", "crash-leak-bad-line.csv", "10us\n20us\nx\n")
    for n, s in (("netem", "delay 10ms 2ms 25% distribution normal loss 1% "
                  "25% duplicate 0.5% corrupt 0.1% reorder 5% 50% gap 3 "
                  "rate 100mbit 20 limit 500"),
                 ("gemodel", "loss gemodel 1% 10% 70% 0.1% limit-bytes 65536 "
                  "seed 7 fifo nonip pass oversize pass runt drop"),
                 ("none", "none"), ("pareto", "delay 1s 500ms distribution "
                  "paretonormal rate 125kbps -4"),
                 ("tricky-reorder", "reorder 5%"),
                 ("tricky-max", "delay 60s 60s 1 rate 400gbit 4096")):
        put("link_profile", n, s)
    put("link_table", "normal.dist", "# netem normal\n" +
        " ".join(str(v) for v in range(-32768, 32768, 4096)) + "\n")
    put("link_table", "tricky-range.dist", "1 2 32768\n")
    put("link_table", "tricky-text.dist", "1 2\nabc\n")
    for n, s in (("set", "set a-b delay 10ms loss 1%"),
                 ("at-rel", "at +10s set b-a rate 10mbit"),
                 ("at-abs", "at @1764470000.25 set a-b none"),
                 ("counters", "counters"), ("at-only", "+1.5s"),
                 # found by fuzz_link_at at once: now + 292 years
                 # overflowed (and applied the profile at once)
                 ("tricky-far", "at +9223372036s set a-b none"),
                 ("tricky-abs", "@9000000000.999999999999")):
        put("link_at", n, s)


pcaps()
capmatch()
gen_rx()
gen_l2()
text()
