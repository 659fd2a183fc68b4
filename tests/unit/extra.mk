# Program modules a unit suite links besides lib/ (ASan objects).
# UNIT_EXTRA_test_gen_flow = build/asan/generator/flow.o
UNIT_EXTRA_test_hops = build/asan/controller/hops.o build/asan/controller/topo.o
UNIT_EXTRA_test_gen_flowspec = build/asan/generator/flowspec.o
UNIT_EXTRA_test_router_fib = build/asan/router/fib.o
UNIT_EXTRA_test_router_sched = build/asan/router/sched.o
UNIT_EXTRA_test_router_filter = build/asan/router/filter.o
UNIT_EXTRA_test_router_classify = build/asan/router/classify.o
UNIT_EXTRA_test_router_sojourn = build/asan/router/sojourn.o
UNIT_EXTRA_test_gen_pace = build/asan/generator/pace.o build/asan/generator/tsmatch.o
UNIT_EXTRA_test_router_fwd = build/asan/router/fwd.o build/asan/router/icmp.o
UNIT_EXTRA_test_router_arp = build/asan/router/arp.o
UNIT_EXTRA_test_router_config = build/asan/router/config.o build/asan/router/config_qos.o build/asan/router/classify.o build/asan/router/sched.o build/asan/router/filter.o
UNIT_EXTRA_test_sshrun = build/asan/controller/sshrun.o
UNIT_EXTRA_test_spool = build/asan/agent/spool.o
UNIT_EXTRA_test_gen_series = build/asan/generator/series.o build/asan/generator/records.o
UNIT_EXTRA_test_link_profile = build/asan/router/link/profile.o
UNIT_EXTRA_test_link_impair = build/asan/router/link/impair.o build/asan/router/link/profile.o
