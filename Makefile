# SPDX-License-Identifier: GPL-2.0-or-later
# ftc: plain GNU make. `make`, `make static`, `make test`, `make demo`,
# `make bench`, `make install`, `make asan`.

VERSION   := 0.4.0
# The library's ABI: bumped with any change to a public structure's layout
# or to a function's signature (Documentation/libftc.md).
SOVERSION := 1
PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR    := $(PREFIX)/bin
LIBDIR    := $(PREFIX)/lib
INCDIR    := $(PREFIX)/include/ftc
MANDIR    := $(PREFIX)/share/man/man1
MAN3DIR   := $(PREFIX)/share/man/man3
COMPDIR   := $(PREFIX)/share/bash-completion/completions
PCDIR     := $(LIBDIR)/pkgconfig
# Where the system's libtraceevent looks for plugins, whatever PREFIX is:
# there trace-cmd report loads ftc's too. pkg-config names it on some
# systems; Debian's is under libtraceevent's libdir.
TEP_PLUGIN_DIR ?= $(or $(shell pkg-config --variable=plugin_dir libtraceevent), \
		  $(shell pkg-config --variable=libdir libtraceevent)/traceevent/plugins)

CC        ?= cc
PKG_CONFIG ?= pkg-config
# The static binary's name, and its objects' folder (B, below).
STATIC_BIN := ftc-static
# A cross build for a board (Documentation/hacking.md, "Cross build"):
# `make static CROSS_COMPILE=aarch64-linux-gnu-` (or arm-linux-gnueabihf-)
# links Debian's libraries of that architecture, unpacked by
# scripts/cross-sysroot, into ftc-static-arm64 (ftc-static-armhf).
ifneq ($(CROSS_COMPILE),)
CROSS_TRIPLET := $(patsubst %-,%,$(CROSS_COMPILE))
CROSS_ARCH := $(or $(if $(filter aarch64-%,$(CROSS_TRIPLET)),arm64), \
		   $(if $(filter arm-%hf,$(CROSS_TRIPLET)),armhf),$(CROSS_TRIPLET))
SYSROOT   ?= $(shell scripts/cross-sysroot $(CROSS_ARCH))
ifeq ($(SYSROOT),)
$(error no sysroot for $(CROSS_ARCH): see the line of scripts/cross-sysroot above)
endif
ifeq ($(origin CC),default)
CC        := $(CROSS_COMPILE)gcc
endif
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	      PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)/pkgconfig pkg-config
EXTRA_CFLAGS += -I$(SYSROOT)/usr/include -I$(SYSROOT)/usr/include/$(CROSS_TRIPLET)
LDFLAGS   += -L$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)
STATIC_BIN := ftc-static-$(CROSS_ARCH)
B         ?= build/$(CROSS_ARCH)
endif
# The syscall tables are generated with the build machine's preprocessor.
HOSTCC    ?= cc
PKGS      := libtracefs libtraceevent libelf libdw zlib libzstd
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS  := $(shell $(PKG_CONFIG) --libs $(PKGS))
PKG_STATIC_LIBS := $(shell $(PKG_CONFIG) --libs --static $(PKGS))

WARN      := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CFLAGS    ?= -O2 -g
# libftc/ holds the public headers, each folder under it one step of the
# data path (Documentation/design.md) with its internal headers.
LIB_DIRS  := $(sort $(patsubst %/,%,$(dir $(wildcard libftc/*/*.c libftc/*/*.h))))
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) \
	     -DFTC_VERSION='"$(VERSION)"' -Ilibftc $(LIB_DIRS:%=-I%) -Icmd $(PKG_CFLAGS) -MMD -MP
LDLIBS    := $(PKG_LIBS) -lm -lpthread
# ncurses is ftc top's alone: the command links it, libftc does not.
CURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw)
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw)
CURSES_STATIC_LIBS := $(shell $(PKG_CONFIG) --libs --static ncursesw)

# Every build flavour lives in its own folder so they never mix objects.
B         ?= build/default
LIB_SRC   := $(sort $(wildcard libftc/*/*.c))
CMD_SRC   := $(sort $(wildcard cmd/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
PIC_OBJ   := $(LIB_SRC:%.c=$(B)/pic/%.o)
CMD_OBJ   := $(CMD_SRC:%.c=$(B)/%.o)
# One generated source: the syscall names (scripts/gen-syscalls).
SYSCALLS_C := $(B)/gen/syscall-names.c
LIB_OBJ   += $(B)/gen/syscall-names.o
PIC_OBJ   += $(B)/pic/gen/syscall-names.o
# And the timeline's page, compiled into ftc (scripts/gen-embed).
TIMELINE_C := $(B)/gen/timeline-page.c
CMD_OBJ   += $(B)/gen/timeline-page.o
UNIT_SRC  := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
# The installed headers: libftc.so exports what these declare, nothing else
# (tests/host/exports.sh reads this list through `make public-headers`).
PUBLIC_HDR := $(sort $(wildcard libftc/ftc*.h))

# libtraceevent plugins (Documentation/hacking.md, "Plugins"): each
# plugins/plugin_*.c is one .so, linked with the other plugins/*.c and the
# syscall tables; ftc report loads them from plugins/ beside the binary.
PLUGIN_SRC := $(sort $(wildcard plugins/plugin_*.c))
PLUGIN_LIB := $(filter-out $(PLUGIN_SRC) plugins/static.c,$(sort $(wildcard plugins/*.c)))
PLUGINS   := $(PLUGIN_SRC:%.c=%.so)
PLUGIN_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Ilibftc \
	     -Ilibftc/base -Ilibftc/symbols -Iplugins $(PKG_CFLAGS) -MMD -MP
PLUGIN_PIC_LIB := $(PLUGIN_LIB:%.c=$(B)/pic/%.o) $(B)/pic/libftc/base/syscall-table.o \
	     $(B)/pic/gen/syscall-names.o
# ftc-static's copies, registered by plugins/static.c (not ftc_perf's:
# ftc prints those records with its own handler).
PLUGIN_STATIC_OBJ := $(B)/static/plugins/plugin_ftc_syscalls.o $(B)/static/plugins/plugin_ftc_signal.o \
	     $(PLUGIN_LIB:%.c=$(B)/static/%.o) $(B)/static/plugins/static.o

.PHONY: all shared-check plugins static asan test test-build test-asan demo bench install clean check-deps fuzz public-headers lib-dirs static-boards example-static
all: ftc $(B)/libftc.a $(B)/libftc.so shared-check unit plugins

# Copy then rename, so a running ./ftc is never overwritten in place.
ftc: $(B)/ftc
	cp $< $@.tmp && mv -f $@.tmp $@

# ftc syscalls decodes arguments as the syscalls plugin does, from the same
# sources (ftc-static has them with its plugins).
SC_DECODE_OBJ := $(B)/plugins/sc-decode.o $(B)/plugins/sc-sigs.o

$(B)/ftc: $(CMD_OBJ) $(SC_DECODE_OBJ) $(B)/libftc.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(SC_DECODE_OBJ) $(B)/libftc.a $(LDFLAGS) $(LDLIBS) \
		$(CURSES_LIBS)

$(B)/cmd/top-screen.o $(B)/cmd/top-keys.o: ALL_CFLAGS += $(CURSES_CFLAGS)
$(B)/cmd/syscalls.o: ALL_CFLAGS += -Iplugins

$(B)/libftc.a: $(LIB_OBJ)
	rm -f $@ && $(CROSS_COMPILE)ar rcs $@ $^

# The version script names the exports (FTC_API's functions, checked by
# tests/host/exports.sh) and makes everything else local.
$(B)/libftc.so: $(PIC_OBJ) libftc/libftc.map
	$(CC) -shared -Wl,-soname,libftc.so.$(SOVERSION) -Wl,--version-script=libftc/libftc.map \
		-o $@ $(PIC_OBJ) $(LDFLAGS) $(LDLIBS)

# ftc is the library's first client: the same objects linked against
# libftc.so, which exports the public API alone, must leave nothing
# undefined (tests/host/shared-link.sh runs the result). The soname's link
# beside the library lets it run from the build folder.
shared-check: $(B)/ftc-shared
$(B)/ftc-shared: $(CMD_OBJ) $(SC_DECODE_OBJ) $(B)/libftc.so
	ln -sf libftc.so $(B)/libftc.so.$(SOVERSION)
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(SC_DECODE_OBJ) -L$(B) -l:libftc.so -Wl,--no-undefined \
		-Wl,-rpath,$(abspath $(B)) $(LDFLAGS) $(LDLIBS) $(CURSES_LIBS)

# The syscall names by number, generated from the kernel's uapi headers
# (scripts/gen-syscalls; the lookups are libftc/base/syscall-table.c).
$(SYSCALLS_C): scripts/gen-syscalls
	@mkdir -p $(dir $@)
	CC="$(HOSTCC)" scripts/gen-syscalls > $@.tmp && mv -f $@.tmp $@

$(B)/gen/syscall-names.o: $(SYSCALLS_C)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/pic/gen/syscall-names.o: $(SYSCALLS_C)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

# ftc report --timeline's page: its HTML, style and script as bytes.
$(TIMELINE_C): cmd/timeline-page.html scripts/gen-embed
	@mkdir -p $(dir $@)
	scripts/gen-embed cmd_timeline_page $< > $@.tmp && mv -f $@.tmp $@

$(B)/gen/timeline-page.o: $(TIMELINE_C)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

plugins: $(PLUGINS)
# objects that only a pattern rule names: keep them
.SECONDARY: $(PLUGIN_PIC_LIB) $(PLUGIN_SRC:%.c=$(B)/pic/%.o)
plugins/%.so: $(B)/pic/plugins/%.o $(PLUGIN_PIC_LIB)
	$(CC) -shared -o $@.tmp $^ $(LDFLAGS) $(PLUGIN_LIBS) && mv -f $@.tmp $@

# plugin_ftc_perf prints with libftc's code (symbols/perf-print.c and the
# symbols it uses): the objects it needs come from an archive of libftc's
# PIC objects, hidden inside the plugin.
plugins/plugin_ftc_perf.so: $(B)/libftc-pic.a
plugins/plugin_ftc_perf.so: PLUGIN_LIBS = -Wl,--exclude-libs,ALL $(B)/libftc-pic.a $(LDLIBS)
$(B)/libftc-pic.a: $(PIC_OBJ)
	rm -f $@ && $(CROSS_COMPILE)ar rcs $@ $^

# Only the loader, unloader and options leave a plugin (FTC_PLUGIN_EXPORT).
$(B)/pic/plugins/%.o: plugins/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(B)/static/plugins/%.o: plugins/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -DFTC_PLUGIN_STATIC -c -o $@ $<

# libftc keeps everything but its API (FTC_API, libftc/ftc-api.h) to itself:
# libftc.so exports only that, and a program that links libftc.a into a
# shared object of its own does not re-export our internals either.
$(LIB_OBJ) $(PIC_OBJ): ALL_CFLAGS += -fvisibility=hidden

# The two files that print FTC_VERSION are rebuilt when VERSION changes.
$(B)/cmd/ftc.o $(B)/libftc/base/error.o $(B)/pic/libftc/base/error.o: Makefile

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

unit: $(UNIT_BIN)
$(B)/tests/%: tests/unit/%.c $(B)/libftc.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(B)/libftc.a $(LDFLAGS) $(LDLIBS)

# A fully static ftc for boards and the lab initramfs. libtraceevent's
# plugin loader uses dlopen, so glibc warns: static builds load no plugins
# from files, and ftc's own plugins are linked in instead (plugins/static.c).
# ftc-static is stripped; its debug information is kept beside it in
# ftc-static.debug, which gdb finds through the .gnu_debuglink and the
# build-id they share.
static: $(STATIC_BIN)
# ftc's own plugins, linked in with the commands' objects (plugins/static.c).
$(STATIC_BIN): $(PLUGIN_STATIC_OBJ)
$(STATIC_BIN): CMD_OBJ += $(PLUGIN_STATIC_OBJ)
$(STATIC_BIN): $(CMD_OBJ) $(B)/libftc.a
	rm -f $@ $@.debug $@.full
	$(CC) $(ALL_CFLAGS) -static -Wl,--build-id -o $@.full $(CMD_OBJ) $(B)/libftc.a \
		$(PKG_STATIC_LIBS) $(CURSES_STATIC_LIBS) -lzstd -lm -lpthread 2>&1 | \
		grep -v -e 'dlopen' -e 'getpw' -e 'getgr' -e 'in function' || true
	@test -x $@.full
	$(CROSS_COMPILE)objcopy --only-keep-debug $@.full $@.debug
	$(CROSS_COMPILE)objcopy --strip-all --add-gnu-debuglink=$@.debug $@.full $@.tmp
	rm -f $@.full && mv -f $@.tmp $@

asan:
	$(MAKE) B=build/asan EXTRA_CFLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -O1' \
		LDFLAGS='-fsanitize=address,undefined' build/asan/ftc unit
	cp build/asan/ftc ftc-asan.tmp && mv -f ftc-asan.tmp ftc-asan

check-deps:
	@scripts/install-deps

# The session example (Documentation/examples/ftc-graph.c), static, for
# the lab guest (tests/lab/session-example.sh): built from the public
# headers alone (-Ilibftc, not its folders), as a client program is.
EXAMPLE_STATIC := $(B)/examples/ftc-graph-static
example-static: $(EXAMPLE_STATIC)
$(EXAMPLE_STATIC): Documentation/examples/ftc-graph.c $(B)/libftc.a
	@mkdir -p $(dir $@)
	rm -f $@
	$(CC) -std=c11 -Wall -Wextra -Werror $(CFLAGS) -static -Ilibftc $(PKG_CFLAGS) -o $@ $< \
		$(B)/libftc.a $(PKG_STATIC_LIBS) -lzstd -lm -lpthread 2>&1 | \
		grep -v -e 'dlopen' -e 'getpw' -e 'getgr' -e 'in function' || true
	@test -x $@

# The Arm lab guests' binaries (tests/lab/arm64*.sh, armhf.sh).
static-boards:
	$(MAKE) static CROSS_COMPILE=aarch64-linux-gnu-
	$(MAKE) static CROSS_COMPILE=arm-linux-gnueabihf-

# The five builds the suite runs take a CPU each in turn unless make runs
# them side by side: make test does, whatever -j it was given.
test:
	$(MAKE) -j$(shell nproc) test-build
	tests/run

test-build: all static static-boards asan example-static

test-asan: asan
	FTC=$(CURDIR)/ftc-asan FTC_UNIT_DIR=$(CURDIR)/build/asan/tests tests/run --no-lab

demo: check-deps
	$(MAKE) all
	scripts/demo

bench: all
	bench/run

fuzz:
	tests/fuzz/run --long

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(MAN3DIR) $(DESTDIR)$(COMPDIR) $(DESTDIR)$(PCDIR)
	install -m 755 ftc $(DESTDIR)$(BINDIR)/ftc
	install -m 644 $(B)/libftc.a $(DESTDIR)$(LIBDIR)/libftc.a
	install -m 755 $(B)/libftc.so $(DESTDIR)$(LIBDIR)/libftc.so.$(VERSION)
	ln -sf libftc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libftc.so.$(SOVERSION)
	ln -sf libftc.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libftc.so
	install -m 644 $(PUBLIC_HDR) $(DESTDIR)$(INCDIR)/
	install -m 644 Documentation/*.1 $(DESTDIR)$(MANDIR)/
	install -m 644 Documentation/*.3 $(DESTDIR)$(MAN3DIR)/
	install -m 644 bash-completion/ftc $(DESTDIR)$(COMPDIR)/ftc
	install -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	install -m 644 $(PLUGINS) $(DESTDIR)$(TEP_PLUGIN_DIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		libftc/libftc.pc.in > $(DESTDIR)$(PCDIR)/libftc.pc

public-headers:
	@printf '%s\n' $(PUBLIC_HDR)

lib-dirs:
	@printf '%s\n' $(LIB_DIRS)

clean:
	rm -rf build ftc ftc-static ftc-static.debug ftc-static-arm64* ftc-static-armhf* ftc-asan tests/out $(PLUGINS)

-include $(shell find build -name '*.d' 2>/dev/null)
