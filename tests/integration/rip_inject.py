#!/usr/bin/env python3
# rip_inject.py: hand-made RIP packets for t_rip.sh, sent with a raw IPv4
# socket (IP_HDRINCL) from inside the scenario's own namespace, so that
# the source address and port can be what each case needs.  Each case is
# built from RFC 2453's layouts (header 4 bytes, entries 20 bytes) and,
# where it is authenticated, RFC 4822's (auth entry, trailer 0xffff
# 0x0001, HMAC-SHA256 over the packet with Apad in the digest field),
# with python's own hmac module: independent of router/ripauth.c.
#
#   rip_inject.py SRC DST SECRET KEY_ID CASE COUNT
#
# CASE: short, version1, badfamily, oversize, noauth, wrongkey,
# badport, badentry, badcsum (a good packet with a wrong UDP checksum).
import hmac, hashlib, socket, struct, sys

src, dst, secret, key_id, case, count = sys.argv[1:7]
key_id, count = int(key_id), int(count)

def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def entry(net, mask, metric, family=2, nh="0.0.0.0"):
    return struct.pack("!HH4s4s4sI", family, 0, socket.inet_aton(net),
                       socket.inet_aton(mask), socket.inet_aton(nh), metric)

def signed(entries, key, seq):
    hdr = struct.pack("!BBH", 2, 2, 0)
    plen = 4 + 20 + 20 * len(entries)
    auth = struct.pack("!HHHBBIII", 0xffff, 3, plen, key_id, 32, seq, 0, 0)
    body = hdr + auth + b"".join(entries) + struct.pack("!HH", 0xffff, 1)
    apad = bytes.fromhex("878fe1f3") * 8
    digest = hmac.new(key, body + apad, hashlib.sha256).digest()
    return body + digest

good = entry("198.18.99.0", "255.255.255.0", 1)
sport = 520
if case == "short":
    payload = b"\x02\x02"
elif case == "version1":
    payload = struct.pack("!BBH", 2, 1, 0) + good
elif case == "badfamily":
    payload = struct.pack("!BBH", 2, 2, 0) + entry("198.18.99.0",
        "255.255.255.0", 1, family=7)
elif case == "oversize":
    payload = struct.pack("!BBH", 2, 2, 0) + good * 26
elif case == "wrongkey":
    payload = signed([good], b"not-the-key", 1)
elif case == "badport":
    sport = 999
    payload = signed([good], secret.encode(), 1)
elif case in ("noauth", "badcsum"):
    payload = struct.pack("!BBH", 2, 2, 0) + good
elif case == "badentry":
    # metric 0, metric 17, a mask with a hole: three entries refused
    payload = signed([entry("198.18.98.0", "255.255.255.0", 0),
                      entry("198.18.97.0", "255.255.255.0", 17),
                      entry("198.18.96.0", "255.0.255.0", 1)],
                     secret.encode(), 1)
else:
    sys.exit("unknown case " + case)

ulen = 8 + len(payload)
s_a, d_a = socket.inet_aton(src), socket.inet_aton(dst)
pseudo = s_a + d_a + struct.pack("!BBH", 0, 17, ulen)
udp = struct.pack("!HHHH", sport, 520, ulen, 0) + payload
c = csum(pseudo + udp) or 0xffff
if case == "badcsum":
    c ^= 0x0101
udp = udp[:6] + struct.pack("!H", c) + udp[8:]
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0xc0, 20 + ulen, 0, 0, 1, 17, 0,
                 s_a, d_a)
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
sk = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
for _ in range(count):
    sk.sendto(ip + udp, (dst, 0))
