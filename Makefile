# benchlog - plain Makefile.
#
#   make            build build/benchlog
#   make demo       install missing packages, build, parse the bundled corpus into out/,
#                   draw its charts there and print its comparison tables
#   make check      install missing packages, then every test under ASan and UBSan
#   make check-quick   unit tests and the golden corpus only (the edit loop)
#   make bench      parse throughput and peak memory on generated inputs, and the
#                   pathological inputs at full size
#   make valgrind   the corpus and hostile inputs under valgrind (part of check)
#   make chart-bench   rendering time of a 100-bar chart (PNG, SVG, PDF)
#   make fuzz       run the libFuzzer targets (FUZZ_SECONDS each, default 300)
#   make install    PREFIX=/usr/local DESTDIR=
#   make golden-update   rewrite corpus/*/*/expected.json (review the diff!)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/benchlog
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DESTDIR ?=

CC ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config
PYTHON ?= /usr/bin/python3
VERSION := 0.1.0
SOVERSION := 0

PKGS := libpcre2-8 jansson cairo pangocairo pangoft2 fontconfig zlib
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
DEP_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm
# build/benchlog draws through a module it loads when it first draws
# (render/draw_module.h): it starts without cairo, pango, fontconfig and
# the libraries they bring. The module is installed in MODULE_DIR.
CORE_LIBS = $(shell $(PKG_CONFIG) --libs libpcre2-8 jansson) -lm -ldl
MODULE_DIR ?= $(LIBDIR)/benchlog
DRAW_MODULE := build/benchlog-draw.so

# Whole-program optimization: the hot paths cross files (a parser's row,
# the result store, the writer). Fat objects keep machine code beside
# the intermediate form, so that build/public/libbenchlog.a links in a
# program built without LTO.
CFLAGS ?= -O3 -g -flto=auto -ffat-lto-objects
# The regular and bold files of DejaVu Sans (Debian: fonts-dejavu-core):
# chart texts are set from these two alone, without the system's fontconfig
# configuration, unless a text has a character they lack or a file is
# missing (render/fonts.c).
FONT_FILE ?= /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
FONT_BOLD_FILE ?= /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
DEFS := -D_GNU_SOURCE -DBL_VERSION='"$(VERSION)"' -DBL_FONT_FILE='"$(FONT_FILE)"' \
	-DBL_FONT_BOLD_FILE='"$(FONT_BOLD_FILE)"'
ALL_CFLAGS = $(WARN) $(DEFS) $(DEP_CFLAGS) $(CFLAGS)
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC := $(sort $(wildcard api/*.c base/*.c parsers/*.c ingest/*.c render/*.c replay/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
GEN_SRC := build/gen/schema.c
HDRS := $(wildcard base/*.h parsers/*.h ingest/*.h render/*.h replay/*.h cli/*.h tests/*.h tests/unit/*.h tests/fuzz/*.h)
# each object depends on the headers it includes, as the compiler lists
# them in a .d file beside it (-MMD); a header removed is no error (-MP)
DEPFLAGS = -MMD -MP

LIB_OBJ := $(LIB_SRC:%.c=build/%.o) build/gen/schema.o
# The public library (include/benchlog.h): what reads posts into
# documents, without the charts and replays. Its objects are the same as
# the program's; only the functions include/benchlog.h marks are exported.
API_SRC := $(sort $(wildcard api/*.c))
PUB_OBJ := $(sort $(wildcard base/*.c parsers/*.c ingest/*.c) $(API_SRC))
PUB_OBJ := $(PUB_OBJ:%.c=build/%.o)
SONAME := libbenchlog.so.$(SOVERSION)
REALNAME := libbenchlog.so.$(VERSION)
PUB_LIBS := libpcre2-8 jansson
CLI_OBJ := $(CLI_SRC:%.c=build/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=build-san/%.o) build-san/gen/schema.o
SAN_CLI_OBJ := $(CLI_SRC:%.c=build-san/%.o)

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=build-san/tests/%)

.PHONY: all libs deps demo check check-quick test format format-check unit man-check golden schema-check seeds-check install-check golden-update report-check list-check \
	bench fuzz fuzz-smoke install uninstall clean format pathological valgrind parallel-check jobs-check \
	chart-check chart-model-check demo-check chart-bench roundtrip bench-mbox samples-check replay-check output-check

all: build/benchlog

# library leaks that benchlog cannot free (see the file) are not findings
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

# The Debian packages, installed when pkg-config (or a test tool) is missing.
deps:
	@if ! $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null || ! $(PYTHON) -c 'import jsonschema' 2>/dev/null \
	   || ! command -v $(CLANG) >/dev/null 2>&1; then ./scripts/install-deps.sh; fi

build/gen/schema.c build-san/gen/schema.c: schema/benchlog.schema.json scripts/embed.sh
	@mkdir -p $(dir $@)
	./scripts/embed.sh bl_schema_text $< > $@

# position-independent, names hidden but those the public header exports:
# the same objects make the program and the shared library
build/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden $(DEPFLAGS) -c $< -o $@

build-san/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"
	@$(CC) $(WARN) $(DEFS) $(DEP_CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -c $< -o $@

build/gen/%.o: build/gen/%.c
	@$(CC) $(CFLAGS) -c $< -o $@

build-san/gen/%.o: build-san/gen/%.c
	@$(CC) $(SAN_FLAGS) -c $< -o $@

build/libbenchlog.a: $(LIB_OBJ)
	@$(AR) rcs $@ $^

build-san/libbenchlog.a: $(SAN_LIB_OBJ)
	@$(AR) rcs $@ $^

# the public libraries: shared, and static with its inner names made local
build/$(REALNAME): $(PUB_OBJ)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ \
		$(shell $(PKG_CONFIG) --libs $(PUB_LIBS)) -lm

build/public/libbenchlog.a: $(PUB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	@$(LD) -r -o build/public/benchlog.o $^
	@# its code only: the LTO form (CFLAGS) would carry the hidden names
	@objcopy --wildcard -R '.gnu.lto_*' -R '.gnu.debuglto_*' --localize-hidden \
		build/public/benchlog.o
	@$(AR) rcs $@ build/public/benchlog.o

libs: build/$(REALNAME) build/public/libbenchlog.a

# the drawing code comes from the module (cli/lazy/draw.c stands in for
# it), which is built with the program
build/benchlog: $(CLI_OBJ) build/cli/lazy/draw.o build/libbenchlog.a | $(DRAW_MODULE)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(CORE_LIBS)

# MODULE_DIR is compiled in: when LIBDIR is not PREFIX/lib (where the
# program also looks, ../lib/benchlog beside its directory), give it to
# `make` as to `make install`. The program takes only a module built from
# the same interface: a checksum of the headers they share.
DRAW_ABI = $(shell cat render/render.h render/draw_module.h | cksum | cut -d' ' -f1)
build/cli/lazy/draw.o: DEFS += -DBL_MODULE_DIR='"$(MODULE_DIR)"' -DBL_DRAW_ABI=$(DRAW_ABI)UL
build/render/draw_module.o: DEFS += -DBL_DRAW_ABI=$(DRAW_ABI)UL

$(DRAW_MODULE): build/render/draw_module.o build/libbenchlog.a
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -shared -Wl,--no-undefined -o $@ $^ $(DEP_LIBS)

build-san/benchlog: $(SAN_CLI_OBJ) build-san/libbenchlog.a
	@echo "  LD-SAN  $@"
	@$(CC) $(SAN_FLAGS) -o $@ $^ $(DEP_LIBS)

build-san/tests/%: tests/unit/%.c build-san/libbenchlog.a
	@mkdir -p $(dir $@)
	@echo "  LD-SAN  $@"
	@$(CC) $(WARN) $(DEFS) $(DEP_CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -o $@ $< build-san/libbenchlog.a $(DEP_LIBS)

build-san/tests/golden: tests/golden.c build-san/libbenchlog.a
	@mkdir -p $(dir $@)
	@echo "  LD-SAN  $@"
	@$(CC) $(WARN) $(DEFS) $(DEP_CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -o $@ $< build-san/libbenchlog.a $(DEP_LIBS)

build/tests/golden: tests/golden.c build/libbenchlog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< build/libbenchlog.a $(DEP_LIBS)

# ---------------------------------------------------------------- demo

demo: deps
	@$(MAKE) --no-print-directory build/benchlog
	@./scripts/demo.sh build/benchlog corpus out

# ---------------------------------------------------------------- tests

check: deps
	@$(MAKE) --no-print-directory test

test: format-check unit golden schema-check seeds-check samples-check roundtrip chart-check chart-model-check \
	demo-check install-check man-check \
	pathological valgrind parallel-check jobs-check replay-check output-check report-check list-check fuzz-smoke
	@echo "make check: all tests passed"

# The edit loop's check: unit tests and the golden corpus, sanitizers on.
check-quick: deps
	@$(MAKE) --no-print-directory unit golden
	@echo "make check-quick: unit and golden passed"

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

golden: build-san/tests/golden
	build-san/tests/golden corpus

golden-update: build/tests/golden
	build/tests/golden --update corpus

schema-check: build-san/benchlog
	$(PYTHON) tests/validate.py schema/benchlog.schema.json build-san/benchlog corpus

seeds-check: build-san/benchlog
	@./tests/seeds.sh build-san/benchlog

# The replay safety corpus, end-to-end replays with the real dd and
# bonnie++, Ctrl-C and timeouts (about 30 s).
replay-check: build-san/benchlog
	$(PYTHON) tests/replay/run_tests.py build-san/benchlog

# benchlog report in headless Chromium: the DOM of the seeds' and a case
# per tool's reports, desktop and phone widths; screenshots in
# build/report-shots/.
report-check: build-san/benchlog
	$(PYTHON) tests/report_browser.py build-san/benchlog

# Every metric the corpus, seeds and samples give is in its tool's
# catalog (benchlog list TOOL).
list-check: build/benchlog
	$(PYTHON) tests/metric_catalog.py build/benchlog

# -o keeps the mode (and, as root, the owner) of the file it replaces.
output-check: build-san/benchlog
	$(PYTHON) tests/output_mode.py build-san/benchlog

# The manual page renders without a groff warning and has an entry for
# every option of every command's --help.
man-check: build/benchlog
	@$(PYTHON) tests/man_check.py build/benchlog docs/benchlog.1

# make install into a scratch DESTDIR: every file lands where PREFIX says.
# make install into a scratch DESTDIR: every file lands where PREFIX says,
# the library exports exactly the names of api/exports.txt, and the
# example program builds against the installed pkg-config file, shared
# and static, and reads a post.
install-check: build/benchlog build-san/benchlog
	@rm -rf build/install-check
	@$(MAKE) --no-print-directory -s install DESTDIR=$(CURDIR)/build/install-check PREFIX=/opt/bl
	@test -x build/install-check/opt/bl/bin/benchlog
	@test -f build/install-check/opt/bl/share/man/man1/benchlog.1
	@test -f build/install-check/opt/bl/share/benchlog/benchlog.schema.json
	@build/install-check/opt/bl/bin/benchlog --version | grep -q '^benchlog '
	@./tests/check_exports.sh api/exports.txt build/install-check/opt/bl/lib
	@./tests/example_check.sh $(CURDIR)/build/install-check /opt/bl corpus/dd/bsd-freebsd-ibs-obs/input
	@test -f build/install-check/opt/bl/lib/benchlog/benchlog-draw.so
	@./tests/module_check.sh build/install-check/opt/bl/bin/benchlog build-san/benchlog \
		corpus/dd/bsd-freebsd-ibs-obs/input
	@echo "install: 1 passed, 0 failed"

# Hostile inputs with bounds on time and memory (the optimized build: the
# sanitizers cannot run under an address-space limit).
pathological: build/benchlog
	$(PYTHON) tests/pathological/run.py build/benchlog

valgrind: build/benchlog build/tests/test_re
	@./tests/valgrind.sh build/benchlog build/tests/test_re

# the test of patterns on unpadded subjects, for valgrind (no sanitizers)
build/tests/test_re: tests/unit/test_re.c build/libbenchlog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< build/libbenchlog.a $(DEP_LIBS)

# `parse --jobs N` gives the serial run's output, byte for byte (built with
# the sanitizers: the workers and the copying of their output are checked).
jobs-check: build-san/benchlog
	$(PYTHON) tests/jobs.py build-san/benchlog

# A run under GNU parallel gives the serial run's documents.
parallel-check: build/benchlog
	$(PYTHON) tests/parallel.py build/benchlog

# chart and table end to end: every format opens, provenance, --all, pipes,
# exit codes, same bytes for the same input
chart-check: build-san/benchlog
	$(PYTHON) tests/chart_cli.py build-san/benchlog

# make demo fits 80 columns and says what it found and where it wrote.
demo-check:
	@$(MAKE) --no-print-directory build/benchlog
	./tests/demo_check.sh build/benchlog

# What each post compares, on the chart model (chart --model): the seeds,
# a case of every tool and a replay of seed 000.
chart-model-check: build-san/benchlog
	$(PYTHON) tests/chart_model.py build-san/benchlog

# Every bare corpus case wrapped as QP, mbox, MIME+HTML, quoted, HTML and
# flattened must give the same runs.
roundtrip: build-san/benchlog
	$(PYTHON) tests/roundtrip.py build-san/benchlog corpus

# Every value of the real iozone capture, placed by an independent reader.
samples-check: build-san/benchlog
	$(PYTHON) tests/iozone_sample.py build-san/benchlog corpus/iozone/sample-3.489/input

# ---------------------------------------------------------------- fuzzing

FUZZ_SECONDS ?= 300
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_FLAGS := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
# The library is compiled once with libFuzzer's coverage instrumentation
# (fuzzer-no-link) and linked into every target with libFuzzer's main.
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o) build-fuzz/obj/gen/schema.o
# kept between builds: make would delete them as intermediates of the targets
.SECONDARY: $(FUZZ_LIB_OBJ)

build-fuzz/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC-FUZZ $<"
	@$(CLANG) $(WARN) $(DEFS) $(DEP_CFLAGS) $(FUZZ_FLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

build-fuzz/obj/gen/schema.o: $(GEN_SRC)
	@mkdir -p $(dir $@)
	@$(CLANG) $(WARN) $(DEFS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

build-fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(CLANG) $(WARN) $(DEFS) $(DEP_CFLAGS) $(FUZZ_FLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(DEP_LIBS)

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS)
	@./tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# A short run of every target, part of make check.
fuzz-smoke: $(FUZZ_TARGETS)
	@./tests/fuzz/run.sh 10 $(FUZZ_TARGETS)

# ---------------------------------------------------------------- bench

bench: deps
	@$(MAKE) --no-print-directory build/benchlog build/tests/rss_run
	$(PYTHON) tests/bench/bench.py build/benchlog
	$(PYTHON) tests/pathological/run.py --full build/benchlog

# the launcher bench.py measures every command with (peak RSS, times)
build/tests/rss_run: tests/bench/rss_run.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# rendering time of a 100-bar chart in each format (CPU time, in process)
build/tests/chart_bench: tests/bench/chart_bench.c build/libbenchlog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< build/libbenchlog.a $(DEP_LIBS)

chart-bench: build/tests/chart_bench
	build/tests/chart_bench

# Peak memory streaming generated mboxes (files removed afterwards).
bench-mbox: deps
	@$(MAKE) --no-print-directory build/benchlog
	$(PYTHON) tests/bench/mbox_rss.py build/benchlog 10000 100000

# ---------------------------------------------------------------- install

install: build/benchlog libs
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	install -m 0755 build/benchlog $(DESTDIR)$(BINDIR)/benchlog
	install -d $(DESTDIR)$(MODULE_DIR)
	install -m 0644 $(DRAW_MODULE) $(DESTDIR)$(MODULE_DIR)/benchlog-draw.so
	install -m 0644 docs/benchlog.1 $(DESTDIR)$(MANDIR)/man1/benchlog.1
	install -m 0644 schema/benchlog.schema.json $(DESTDIR)$(DATADIR)/benchlog.schema.json
	install -m 0644 schema/replay.schema.json $(DESTDIR)$(DATADIR)/replay.schema.json
	install -m 0755 build/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libbenchlog.so
	install -m 0644 build/public/libbenchlog.a $(DESTDIR)$(LIBDIR)/libbenchlog.a
	install -m 0644 include/benchlog.h $(DESTDIR)$(INCLUDEDIR)/benchlog.h
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|; s|@REQUIRES@|$(PUB_LIBS)|' api/benchlog.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/benchlog.pc
	chmod 0644 $(DESTDIR)$(LIBDIR)/pkgconfig/benchlog.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/benchlog $(DESTDIR)$(MODULE_DIR)/benchlog-draw.so \
	      $(DESTDIR)$(MANDIR)/man1/benchlog.1 \
	      $(DESTDIR)$(DATADIR)/benchlog.schema.json $(DESTDIR)$(DATADIR)/replay.schema.json \
	      $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libbenchlog.so $(DESTDIR)$(LIBDIR)/libbenchlog.a \
	      $(DESTDIR)$(INCLUDEDIR)/benchlog.h $(DESTDIR)$(LIBDIR)/pkgconfig/benchlog.pc
	-rmdir $(DESTDIR)$(MODULE_DIR) 2>/dev/null

# The C sources as .clang-format lays them out.
FORMAT_SRC = $(sort $(LIB_SRC) $(CLI_SRC) $(HDRS) $(wildcard cli/lazy/*.c include/*.h examples/*.c tests/*.c tests/bench/*.c \
	tests/unit/*.c tests/fuzz/*.c tests/fuzz/*.h))

format:
	clang-format -i $(FORMAT_SRC)

# Fails, naming the lines, where a source departs from .clang-format.
format-check:
	@clang-format --dry-run --Werror $(FORMAT_SRC)
	@echo "format: $(words $(FORMAT_SRC)) files as .clang-format lays them out"

clean:
	rm -rf build build-san build-fuzz out

# the headers each object and test includes (written by -MMD)
-include $(shell find build build-san build-fuzz -name '*.d' 2>/dev/null)
