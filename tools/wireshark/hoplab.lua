-- hoplab.lua: a Wireshark dissector for hoplab's probe header, the first
-- 18 bytes of every measured packet's UDP payload (hoplab-gen's l2 and
-- udp modes) and of its ICMP echo data (icmp mode); lib/probe.h has the
-- layout, network byte order:
--
--    0  u16 magic    0x484C ("HL")
--    2  u8  version  1
--    3  u8  flags    reserved, 0
--    4  u16 flow id  the flow's place in the plan's flows: list, from 1
--    6  u32 sequence from 0 per flow
--   10  i64 transmit timestamp, CLOCK_REALTIME nanoseconds
--
-- Registered as a heuristic dissector of UDP and of ICMP: a payload of
-- at least 18 bytes that starts with the magic and version 1 is a probe,
-- whatever its port (the l2 mode sends to UDP port 9, udp mode flows to
-- 9000 + their index).  hoplab has no EtherType of its own: l2 mode
-- frames are plain Ethernet / IPv4 / UDP.  Fields: hoplab.magic,
-- hoplab.version, hoplab.flags, hoplab.flow, hoplab.seq, hoplab.tx_ns,
-- hoplab.tx_time and hoplab.since_tx (the capture's time stamp minus the
-- transmit time: the delay up to the capture point when both clocks are
-- one, as in the namespace lab).
--
-- Use: tshark -X lua_script:tools/wireshark/hoplab.lua -r FILE.pcap
--      -Y hoplab -T fields -e hoplab.flow -e hoplab.seq
-- or copy this file to ~/.local/lib/wireshark/plugins/ (docs/results.md,
-- "Opening the captures in Wireshark").
--
-- Deliberately not here: the follow-up datagrams of udp mode ("HC",
-- generator/followup.h), which show as plain UDP data.

local MAGIC = 0x484C
local VERSION = 1
local LEN = 18

local hoplab = Proto("hoplab", "hoplab probe")
local frame_time = Field.new("frame.time")	-- an NSTime, to the ns

local f = {
	magic = ProtoField.uint16("hoplab.magic", "Magic", base.HEX),
	version = ProtoField.uint8("hoplab.version", "Version", base.DEC),
	flags = ProtoField.uint8("hoplab.flags", "Flags", base.HEX),
	flow = ProtoField.uint16("hoplab.flow", "Flow id", base.DEC),
	seq = ProtoField.uint32("hoplab.seq", "Sequence number", base.DEC),
	tx_ns = ProtoField.int64("hoplab.tx_ns",
	    "Transmit timestamp (ns since 1970, CLOCK_REALTIME)", base.DEC),
	tx_time = ProtoField.absolute_time("hoplab.tx_time", "Transmit time",
	    base.UTC),
	since_tx = ProtoField.relative_time("hoplab.since_tx",
	    "Captured after transmit"),
}
hoplab.fields = { f.magic, f.version, f.flags, f.flow, f.seq, f.tx_ns,
    f.tx_time, f.since_tx }

-- NSTime of a count of nanoseconds (an Int64), also before 1970.
local function nstime(ns)
	local secs = ns / 1000000000
	local rem = ns - secs * 1000000000
	if rem < 0 then
		secs = secs - 1
		rem = rem + 1000000000
	end
	return NSTime.new(secs:tonumber(), rem:tonumber())
end

local function is_probe(tvb)
	return tvb:len() >= LEN and tvb(0, 2):uint() == MAGIC and
	    tvb(2, 1):uint() == VERSION
end

local function dissect(tvb, pinfo, tree)
	local ns = tvb(10, 8):int64()
	local tx = nstime(ns)
	local flow = tvb(4, 2):uint()
	local seq = tvb(6, 4):uint()
	local t = tree:add(hoplab, tvb(0, LEN))

	t:append_text(string.format(", flow %d, seq %d", flow, seq))
	t:add(f.magic, tvb(0, 2))
	t:add(f.version, tvb(2, 1))
	t:add(f.flags, tvb(3, 1))
	t:add(f.flow, tvb(4, 2))
	t:add(f.seq, tvb(6, 4))
	t:add(f.tx_ns, tvb(10, 8))
	t:add(f.tx_time, tvb(10, 8), tx)
	local now = frame_time()
	if now ~= nil then
		t:add(f.since_tx, tvb(10, 8), now() - tx):set_generated()
	end
	if tvb:len() > LEN then
		Dissector.get("data"):call(tvb(LEN):tvb(), pinfo, tree)
	end
	pinfo.cols.protocol = "hoplab"
	pinfo.cols.info = string.format("probe flow %d seq %d", flow, seq)
	return LEN
end

function hoplab.dissector(tvb, pinfo, tree)
	if not is_probe(tvb) then
		return 0
	end
	return dissect(tvb, pinfo, tree)
end

local function heuristic(tvb, pinfo, tree)
	if not is_probe(tvb) then
		return false
	end
	dissect(tvb, pinfo, tree)
	return true
end

hoplab:register_heuristic("udp", heuristic)
hoplab:register_heuristic("icmp", heuristic)
-- "Decode As" for a port of one's choice, too.
DissectorTable.get("udp.port"):add_for_decode_as(hoplab)
