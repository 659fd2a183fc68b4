# Program modules a unit suite links besides lib/ (ASan objects).
# UNIT_EXTRA_test_gen_flow = build/asan/generator/flow.o
