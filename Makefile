# hoplab — build, deps, check, demo, bench.
#
#   make            build bin/hoplab, bin/hoplab-agent, bin/hoplab-gen
#   make deps       install the missing Debian packages (root)
#   sudo make demo  deps, build, run the A / A-B / A-B-C demo on a netns lab
#   sudo make check deps, build, unit suites (ASan/UBSan), integration tests
#   make unit       only the unit suites
#   make bench      side-by-side benchmarks against peer tools (not in CI)
#   make install    programs, man pages, unit, examples, docs, completion
#                   under DESTDIR PREFIX (default /usr/local); make uninstall
#   make deb        the Debian package (debhelper), into build/deb/;
#                   make deb-test installs, checks and removes it (root)

CC	?= cc
OPT	?= -O2
# snprintf into fixed buffers truncates on purpose; GCC cannot tell.
WARN	= -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Wno-format-truncation
CPPFLAGS += -I. -Ilib -Ibuild
CFLAGS	+= $(WARN) $(OPT) -g -MMD -MP
LDLIBS	= -lzmq -lsodium -lprotobuf-c -lyaml -lpcap -lm
SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

PROTO_H	= build/proto/hoplab.pb-c.h
PROTO_C	= build/proto/hoplab.pb-c.c

LIB_SRC	= $(sort $(wildcard lib/*.c))
LIB_OBJ	= $(LIB_SRC:%.c=build/%.o) build/proto/hoplab.pb-c.o
ASAN_LIB_OBJ = $(LIB_SRC:%.c=build/asan/%.o) build/asan/proto/hoplab.pb-c.o

# controller/ holds main.c and one folder per job (docs/architecture.md).
CONTROLLER_SRC	= $(sort $(wildcard controller/*.c controller/*/*.c))
CONTROLLER_OBJ	= $(patsubst %.c,build/%.o,$(CONTROLLER_SRC))
# The plan parser, for the unit suites that load plans (ASan objects).
PLAN_ASAN_OBJ = $(patsubst %.c,build/asan/%.o,$(sort $(wildcard controller/plan/plan*.c)))
AGENT_OBJ = $(patsubst %.c,build/%.o,$(sort $(wildcard agent/*.c)))
GEN_OBJ	= $(patsubst %.c,build/%.o,$(sort $(wildcard generator/*.c)))
ROUTER_OBJ = $(patsubst %.c,build/%.o,$(sort $(wildcard router/*.c)))
# The XDP fast path's program (router/bpf/), compiled for the BPF target
# and linked into hoplab-router as bytes (router/bpf/fastpath_obj.S).
BPF_CC	?= clang
BPF_CFLAGS = -target bpf -O2 -g -Wall -Werror -I/usr/include/$(shell $(CC) -dumpmachine)
ifneq ($(ROUTER_OBJ),)
ROUTER_OBJ += build/router/bpf/fastpath_obj.o
endif
LINK_OBJ = $(patsubst %.c,build/%.o,$(sort $(wildcard link/*.c)))

PROGS	= bin/hoplab bin/hoplab-agent bin/hoplab-gen
ifneq ($(ROUTER_OBJ),)
PROGS	+= bin/hoplab-router
endif
ifneq ($(LINK_OBJ),)
PROGS	+= bin/hoplab-link
endif

# Unit suites: tests/unit/test_NAME.c, each linked with the shared runner
# (tests/unit/unit.c), lib/ (ASan build) and, for program modules, the
# objects listed in UNIT_EXTRA_NAME.
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=build/asan/tests/%)
-include tests/unit/extra.mk

# Small tools used by tests and benchmarks (tools/).
TOOLS	= build/tools/pcapdelay

.SECONDARY:
.PHONY: all deps check unit integration demo bench clean lab-down fmt FORCE \
	install uninstall deb deb-test
all: $(PROGS) $(TOOLS)

deps:
	@sh deploy/deps.sh

# The commit hoplab is built from, for run.json's manifest (lib/hostinfo):
# build/commit.h changes only when the commit (or its dirtiness) does, so
# only lib/hostinfo.o is built again.  Without git or .git: "unknown".
HOPLAB_COMMIT := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
build/commit.h: FORCE
	@mkdir -p build
	@echo '#define HOPLAB_COMMIT "$(HOPLAB_COMMIT)"' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
build/lib/hostinfo.o build/asan/lib/hostinfo.o: build/commit.h
FORCE:

$(PROTO_C) $(PROTO_H): proto/hoplab.proto
	@mkdir -p build
	protoc-c --c_out=build $<

build/%.o: %.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/asan/%.o: %.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -c -o $@ $<

build/asan/proto/hoplab.pb-c.o: $(PROTO_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -c -o $@ $<

build/proto/hoplab.pb-c.o: $(PROTO_C)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/libhoplab.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

build/asan/libhoplab.a: $(ASAN_LIB_OBJ)
	$(AR) rcs $@ $^

bin/hoplab: $(CONTROLLER_OBJ) build/libhoplab.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bin/hoplab-agent: $(AGENT_OBJ) build/libhoplab.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bin/hoplab-gen: $(GEN_OBJ) build/libhoplab.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/tools/pcapdelay: tools/pcapdelay.c build/lib/capmatch.o build/lib/probe.o build/lib/clock.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lpcap -lm

build/router/bpf/fastpath.bpf.o: router/bpf/fastpath.bpf.c router/bpf/fastpath_abi.h
	@mkdir -p $(dir $@)
	$(BPF_CC) $(BPF_CFLAGS) -c -o $@ $<

build/router/bpf/fastpath_obj.o: router/bpf/fastpath_obj.S build/router/bpf/fastpath.bpf.o
	$(CC) -c -o $@ $<

bin/hoplab-router: $(ROUTER_OBJ) build/libhoplab.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lxdp -lbpf

bin/hoplab-link: $(LINK_OBJ) build/libhoplab.a
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.SECONDEXPANSION:
build/asan/tests/%: tests/unit/%.c build/asan/tests/unit/unit.o build/asan/libhoplab.a $$(UNIT_EXTRA_$$*) | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -o $@ $< build/asan/tests/unit/unit.o \
	    $(UNIT_EXTRA_$*) build/asan/libhoplab.a $(LDLIBS) -lcunit

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

integration: $(PROGS) $(TOOLS)
	@sh tests/integration/run.sh

# make check: everything a change must pass.  Root for the netns lab.
check: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all $(UNIT_BIN)
	@sh tests/check.sh $(UNIT_BIN)

demo: deps
	@if [ "$$(id -u)" != 0 ]; then \
	    echo "make demo: the lab needs root for network namespaces; run: sudo make demo" >&2; \
	    exit 1; fi
	@$(MAKE) --no-print-directory all
	bin/hoplab demo

lab-down:
	bin/hoplab lab down

bench: all
	@sh bench/run.sh

# make install: deploy/install.sh has the list of files (one list for
# both, so uninstall removes exactly what install put there).
PREFIX	?= /usr/local
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
install: all
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' SYSTEMDUNITDIR='$(SYSTEMDUNITDIR)' \
	    sh deploy/install.sh install

uninstall:
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' SYSTEMDUNITDIR='$(SYSTEMDUNITDIR)' \
	    sh deploy/install.sh uninstall

# make deb: dpkg-buildpackage on a copy of the tree in build/deb/, so the
# tree itself gets no build outputs (deploy/deb.sh).
deb:
	@sh deploy/deb.sh

# make deb-test: install the package on this machine with apt-get, check
# it, remove it (root; not part of make check: it changes /usr).
deb-test:
	@sh tests/deb/t_deb.sh

fmt:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
