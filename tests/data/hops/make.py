#!/usr/bin/env python3
# Writes the two crafted results folders of tests/integration/t_hops_flags.sh
# (run once; the folders are committed, this script says how they were made).
# Sequential mode: variants A, A-B, A-B-C (20, 23, 26 us: 3 us a router),
# 5 repetitions, run = (rep - 1) * 3 + variant (interleaved), 4 bins of 500
# packets a run.  "shifted": run 5 (A-B, rep 2) 6 us later in every bin.
import os
VARIANTS = [("A", 1, 20.0), ("A-B", 2, 23.0), ("A-B-C", 3, 26.0)]
RUN_OFF = [0.00, 0.04, -0.03, 0.02, -0.05]	# per repetition
BIN_OFF = [0.10, -0.05, 0.02, -0.07]		# per bin
SUM = ("variant,routers,frame_bytes,rep,flow,sent,received,lost,"
       "delay_mean_us,delay_p50_us,delay_p99_us,delay_std_us,ttl_min,run")
IVL = ("variant,routers,frame_bytes,rep,flow,interval,start_s,length_s,"
       "sent,received,lost,tx_bytes,rx_bytes,rx_mbps,delay_mean_us,"
       "delay_min_us,delay_max_us,run")

def write(name, shift_run):
    os.makedirs(name, exist_ok=True)
    s, iv = [SUM], [IVL]
    for rep in range(1, 6):
        for k, (v, n, base) in enumerate(VARIANTS):
            run = (rep - 1) * 3 + k + 1
            m0 = base + RUN_OFF[(rep - 1 + k) % 5]
            if run == shift_run:
                m0 += 6.0
            bins = [m0 + o for o in BIN_OFF]
            mean = sum(bins) / 4
            s.append("%s,%d,64,%d,probe,2000,2000,0,%.3f,%.3f,%.3f,2.000,"
                     "%d,%d" % (v, n, rep, mean, mean - 0.5, mean + 8,
                                64 - n, run))
            for i, b in enumerate(bins):
                iv.append("%s,%d,64,%d,probe,%d,%.6f,0.500000,500,500,0,"
                          "32000,32000,0.5120,%.3f,%.3f,%.3f,%d" %
                          (v, n, rep, i, i * 0.5, b, b - 2, b + 15, run))
    open(name + "/summary.csv", "w").write("\n".join(s) + "\n")
    open(name + "/intervals.csv", "w").write("\n".join(iv) + "\n")

write("consistent", 0)
write("shifted", 5)
