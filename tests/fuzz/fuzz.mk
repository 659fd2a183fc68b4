# fuzz.mk: the libFuzzer targets of tests/fuzz/, built by run.sh with
#
#   make -f tests/fuzz/fuzz.mk -k -j2 [build/fuzz/NAME...]
#
# from the top of the tree.  Every source is compiled once into
# build/fuzz/obj/ with clang's coverage (fuzzer-no-link), ASan and UBSan,
# and kept there with its dependencies (-MMD), so that a make check after
# an edit compiles only what changed; lib/ becomes build/fuzz/libhoplab.a
# and each target links its harness (tests/fuzz/NAME.c), the program
# modules it lists in SRC_NAME and the archive, so that a harness that
# defines functions of lib/ itself (fuzz_router_frame's fake pktio) keeps
# them.  The real parsers are linked, never copies.

FZ_CC	= clang
FZ_OUT	= build/fuzz
FZ_SAN	= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FZ_CFLAGS = -g -O1 -std=c11 -D_GNU_SOURCE -I. -Ilib -Ibuild $(FZ_SAN) \
	    -fsanitize=fuzzer-no-link -MMD -MP
# The harnesses are ours: they build without a warning.
FZ_HFLAGS = -Wall -Wextra -Werror
FZ_LDLIBS = -lzmq -lsodium -lprotobuf-c -lyaml -lpcap -lm

fz_obj	= $(patsubst %.c,$(FZ_OUT)/obj/%.o,$(1))
FZ_LIB	= $(FZ_OUT)/libhoplab.a
FZ_LIB_SRC = $(sort $(wildcard lib/*.c)) build/proto/hoplab.pb-c.c

# Program modules each target links besides lib/ (none: lib/ only).
R	= router
SRC_fuzz_envelope =
SRC_fuzz_router_frame = $(R)/router.c $(R)/rtables.c $(R)/port.c $(R)/arp.c $(R)/icmp.c \
	$(R)/fwd.c $(R)/fib.c $(R)/classify.c $(R)/filter.c $(R)/sched.c \
	$(R)/sojourn.c $(R)/config.c $(R)/config_routes.c $(R)/config_qos.c $(R)/config_value.c \
	$(R)/config_rip.c $(R)/rip.c $(R)/ripio.c $(R)/ripwire.c \
	$(R)/ripauth.c $(R)/rtlog.c $(R)/config_nat.c $(R)/nat.c \
	$(R)/natpkt.c $(R)/fpmirror.c
SRC_fuzz_router_config = $(R)/config.c $(R)/config_routes.c $(R)/config_qos.c \
	$(R)/config_value.c $(R)/classify.c $(R)/filter.c $(R)/sched.c \
	$(R)/config_rip.c $(R)/config_nat.c
SRC_fuzz_plan = $(sort $(wildcard controller/plan/*.c))
SRC_fuzz_rip = $(R)/rip.c $(R)/ripwire.c $(R)/ripauth.c
SRC_fuzz_inventory =
SRC_fuzz_keys = tests/fuzz/fztmp.c
SRC_fuzz_dist =
SRC_fuzz_dist_csv = tests/fuzz/fztmp.c
SRC_fuzz_pcap = tests/fuzz/fztmp.c
SRC_fuzz_capmatch =
# hoplab-link without its main(): the profile, the control side.
FZ_LINK_SRC = $(filter-out link/main.c,$(sort $(wildcard link/*.c)))
SRC_fuzz_link_profile = $(FZ_LINK_SRC)
SRC_fuzz_link_table = $(FZ_LINK_SRC) tests/fuzz/fztmp.c
SRC_fuzz_link_at = $(FZ_LINK_SRC)
# hoplab-gen without its main(): the udp receiver and what it calls.
SRC_fuzz_gen_rx = $(filter-out generator/main.c, \
	$(sort $(wildcard generator/*.c)))
# the same; its harness defines the pktio functions gen.c and rx.c call
SRC_fuzz_gen_l2 = $(SRC_fuzz_gen_rx)

FZ_TARGETS = fuzz_envelope fuzz_router_frame fuzz_router_config fuzz_plan \
	fuzz_rip fuzz_inventory fuzz_keys fuzz_dist fuzz_dist_csv fuzz_pcap \
	fuzz_capmatch fuzz_link_profile fuzz_link_table fuzz_link_at \
	fuzz_gen_rx fuzz_gen_l2
FZ_BINS	= $(FZ_TARGETS:%=$(FZ_OUT)/%)

.PHONY: all
.SECONDARY:
.DELETE_ON_ERROR:
all: $(FZ_BINS)

$(FZ_OUT)/obj/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_CFLAGS) $(FZ_HFLAGS) -c -o $@ $<

$(FZ_OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_CFLAGS) -c -o $@ $<

$(FZ_LIB): $(call fz_obj,$(FZ_LIB_SRC))
	rm -f $@
	ar rcs $@ $^

.SECONDEXPANSION:
$(FZ_BINS): $(FZ_OUT)/%: $$(call fz_obj,tests/fuzz/%.c $$(SRC_%)) $(FZ_LIB)
	$(FZ_CC) $(FZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FZ_LDLIBS)

-include $(shell find $(FZ_OUT)/obj -name '*.d' 2>/dev/null)
