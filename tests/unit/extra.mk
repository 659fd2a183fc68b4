# Program modules a unit suite links besides lib/ (ASan objects).
# UNIT_EXTRA_test_gen_flow = build/asan/generator/flow.o
UNIT_EXTRA_test_hops = build/asan/controller/hops.o build/asan/controller/topo.o
UNIT_EXTRA_test_gen_flowspec = build/asan/generator/flowspec.o
