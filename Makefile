# recorder - a flight recorder for C and C++ programs.
#
#   make                build the libraries and examples into build/
#   make check          install missing Debian packages, build, run all tests
#   make demo           install missing Debian packages, build, run the demo
#   make install        PREFIX=/usr/local DESTDIR= (headers, libs, .pc, man)
#   make uninstall

VERSION         := 1.3.0
SONAME_MAJOR    := 1

PREFIX          ?= /usr/local
DESTDIR         ?=
LIBDIR          ?= $(PREFIX)/lib
INCLUDEDIR      ?= $(PREFIX)/include
MANDIR          ?= $(PREFIX)/share/man
PKGCONFIGDIR    ?= $(LIBDIR)/pkgconfig
LIBEXECDIR      ?= $(PREFIX)/libexec
BINDIR          ?= $(PREFIX)/bin
DATADIR         ?= $(PREFIX)/share

CC              ?= cc
CXX             ?= c++
OPT             ?= -O2
CFLAGS          ?= $(OPT) -g
WARNINGS        := -Wall -Wextra
# For C (g++ refuses the last two): no name hides another, every function
# that is not static has a prototype in a header, no "f()" declarations.
C_WARNINGS      := $(WARNINGS) -Wshadow -Wmissing-prototypes -Wstrict-prototypes
# lib/ is on the include path, not its folders: a private #include names
# the folder of its header ("segment/share_file_private.h"); the public
# headers are named alone ("recorder.h").
CPPFLAGS_LIB    := -Iinclude/recorder -Ilib
ALL_CFLAGS      := -std=gnu11 $(C_WARNINGS) $(CFLAGS) -pthread
# Every compiler run also writes the headers it read to TARGET.d (included
# at the end): touching a header rebuilds only what includes it.
DEPFLAGS        = -MMD -MP -MF $@.d -MT $@
# Threads only, as with recorder 1.2 (-lrecorder -lpthread -lm). libunwind
# (walks the stack of a crash) and libdw (reads its DWARF) are opened at
# run time by their sonames (lib/backtrace/library_load.c): their -dev packages
# give the headers, and a program runs, with rawer reports, without them.
LDLIBS          := -pthread

BUILD           := build
DEPS            := share/scripts/ensure-deps
CHECK_PACKAGES  := gcc g++ clang make pkg-config libcmocka-dev binutils \
                   libunwind-dev libdw-dev \
                   libgtk-4-dev xvfb xauth xdotool imagemagick python3 gdb \
                   libmicrohttpd-dev prometheus babeltrace2 strace \
                   gobject-introspection libgirepository1.0-dev \
                   gir1.2-gtk-4.0 python3-gi
DEMO_PACKAGES   := gcc make pkg-config libgtk-4-dev libunwind-dev libdw-dev \
                   libmicrohttpd-dev gobject-introspection \
                   libgirepository1.0-dev

# Every folder of lib/ but helper/, the crash handler's program.
LIB_SOURCES     := $(filter-out lib/helper/%,$(wildcard lib/*/*.c))
LIB_OBJECTS     := $(LIB_SOURCES:lib/%.c=$(BUILD)/lib/%.o)
PIC_OBJECTS     := $(LIB_SOURCES:lib/%.c=$(BUILD)/lib/%.pic.o)
STATIC_LIB      := $(BUILD)/librecorder.a
SHARED_LIB      := $(BUILD)/librecorder.so.$(VERSION)
SHARED_LINKS    := $(BUILD)/librecorder.so.$(SONAME_MAJOR) $(BUILD)/librecorder.so
# The crash handler execs this to read DWARF outside the dying process. It
# looks for it next to the library or program (build tree), then in
# LIBEXECDIR/recorder; $RECORDER_SYMBOLIZE overrides.
SYMBOLIZE       := $(BUILD)/recorder_symbolize

# embed_scope.c embeds the scope's graph widget: it needs GTK and its own
# library (scope graph widget, below).
EXAMPLE_SOURCES := $(filter-out share/examples/embed_scope.c,\
                   $(wildcard share/examples/*.c))
EXAMPLES        := $(EXAMPLE_SOURCES:share/examples/%.c=$(BUILD)/examples/%)

# scope/ is layered in folders (scope/README.md); flags follow the folder.
# Only scope/window/ sees GTK: it builds recorder_scope_window, which
# recorder_scope execs for a window. Everything else (text modes, captures,
# metrics) is plain C with cairo and libmicrohttpd, and so is the front.
SCOPE_SOURCES   := $(wildcard scope/*/*.c)
SCOPE_OBJECTS   := $(SCOPE_SOURCES:scope/%.c=$(BUILD)/scope/%.o)
SCOPE_MAIN      := $(BUILD)/scope/cli/recorder_scope.o
SCOPE_WINDOW_MAIN := $(BUILD)/scope/window/window_main.o
SCOPE_WINDOW_OBJECTS := $(filter-out $(SCOPE_WINDOW_MAIN), \
                        $(filter $(BUILD)/scope/window/%,$(SCOPE_OBJECTS)))
SCOPE_CORE      := $(filter-out $(SCOPE_MAIN) $(SCOPE_WINDOW_MAIN) \
                   $(SCOPE_WINDOW_OBJECTS),$(SCOPE_OBJECTS))
SCOPE           := $(BUILD)/recorder_scope
SCOPE_WINDOW    := $(BUILD)/recorder_scope_window
# Window positions (-g WxH@XxY) need Xlib; without it they are ignored.
# Recursive (=): pkg-config runs once the dependencies are installed.
SCOPE_PKGS      := cairo libmicrohttpd
SCOPE_WINDOW_PKGS = gtk4 epoxy \
                  $(shell pkg-config --exists gtk4-x11 x11 2>/dev/null && echo x11)
SCOPE_CFLAGS    = $(shell pkg-config --cflags $(SCOPE_PKGS))
SCOPE_WINDOW_CFLAGS = $(shell pkg-config --cflags $(SCOPE_WINDOW_PKGS)) \
                  $(if $(findstring x11,$(SCOPE_WINDOW_PKGS)),-DSCOPE_HAVE_X11)
SCOPE_LIBS      = $(shell pkg-config --libs $(SCOPE_PKGS)) -lm
SCOPE_WINDOW_LIBS = $(shell pkg-config --libs $(SCOPE_WINDOW_PKGS)) $(SCOPE_LIBS)
MAN1            := share/man/man1/recorder_scope.1

# The scope's graph as a GTK 4 widget other programs embed
# (include/recorder/recorder_scope_graph.h): a shared library of its own
# with the graph's folders below window/ and librecorder inside, only the
# widget's API exported; GObject introspection data for Python.
GRAPH_NAME      := recorder-scope-gtk4
GRAPH_HEADER    := include/recorder/recorder_scope_graph.h
GRAPH_SOURCES   := $(wildcard scope/common/*.c scope/source/*.c \
                   scope/view/*.c scope/draw/*.c scope/window/graph_view*.c) \
                   scope/window/recorder_scope_graph.c
GRAPH_OBJECTS   := $(GRAPH_SOURCES:scope/%.c=$(BUILD)/scope/%.pic.o)
# Python loads the widget with dlopen, which cannot place a library's
# thread-local block in the static TLS area when it is this large (8 KiB):
# the record path's initial-exec variables go general-dynamic in this
# copy of librecorder, which records nothing (the program's own does).
GRAPH_RECORD    := $(BUILD)/scope/window/graph_record.pic.o
GRAPH_LIB_OBJECTS := $(filter-out $(BUILD)/lib/record/record.pic.o,\
                     $(PIC_OBJECTS)) $(GRAPH_RECORD)
GRAPH_LIB       := $(BUILD)/lib$(GRAPH_NAME).so.$(VERSION)
GRAPH_LINKS     := $(BUILD)/lib$(GRAPH_NAME).so.$(SONAME_MAJOR) \
                   $(BUILD)/lib$(GRAPH_NAME).so
GRAPH_GIR       := $(BUILD)/RecorderScope-1.0.gir
GRAPH_TYPELIB   := $(BUILD)/RecorderScope-1.0.typelib
GRAPH_LIBS      = $(shell pkg-config --libs gtk4 cairo) -lm
GIRDIR          ?= $(DATADIR)/gir-1.0
TYPELIBDIR      ?= $(LIBDIR)/girepository-1.0
DESKTOP         := share/applications/recorder_scope.desktop

# Tests are grouped by what they test (tests/README.md); each builds to
# the same folder under $(BUILD)/tests.
TEST_SOURCES    := $(wildcard tests/*/test_*.c)
TESTS           := $(TEST_SOURCES:tests/%.c=$(BUILD)/tests/%)
# Scope unit tests link the scope's plain C folders too; test_scope_window_*
# also link the window's and GTK (what needs a display they do only when
# asked).
SCOPE_TESTS     := $(filter $(BUILD)/tests/scope/%,$(TESTS))
SCOPE_GTK_TESTS := $(filter $(BUILD)/tests/scope/test_scope_window_%,$(TESTS))
LIB_TESTS       := $(filter-out $(SCOPE_TESTS),$(TESTS))
TEST_HELPERS    := $(BUILD)/tests/compat/cplusplus_headers \
                   $(BUILD)/tests/compat/quoted_include
# Programs the shell checks start to fill segments (tests/writers).
TEST_WRITERS    := $(patsubst tests/%.c,$(BUILD)/tests/%,\
                   $(wildcard tests/writers/*.c))
# And a QEMU-shaped one, its sources generated (tests/writers/qemu_shaped/).
QEMU_SHAPED     := $(BUILD)/tests/writers/qemu_shaped

FUZZ_SOURCES    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES      := $(FUZZ_SOURCES:tests/fuzz/%.c=%)
REPLAYS         := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/replay_%)
REPLAY_MAIN     := $(BUILD)/tests/fuzz/replay_main.o

BENCH_BUILD     := $(BUILD)/bench
FUZZ_BUILD      := $(BUILD)/fuzz

HEADERS         := include/recorder/recorder.h include/recorder/recorder_ring.h \
                   include/recorder/recorder_share.h \
                   include/recorder/recorder_backtrace.h \
                   include/recorder/recorder_regex.h \
                   include/recorder/recorder_level.h
MAN3            := $(wildcard share/man/man3/*.3)

.PHONY: all check check-asan check-tsan sanitized-check demo deps-check \
        deps-demo install uninstall clean tests fuzz bench deps-fuzz \
        no-header-list

all: $(STATIC_LIB) $(SHARED_LIB) $(SHARED_LINKS) $(SYMBOLIZE) $(EXAMPLES) \
     $(SCOPE) $(SCOPE_WINDOW) $(GRAPH_LIB) $(GRAPH_LINKS) $(GRAPH_TYPELIB) \
     $(BUILD)/examples/embed_scope

tests: $(TESTS) $(TEST_HELPERS) $(REPLAYS) $(TEST_WRITERS) $(QEMU_SHAPED)

# --- library ---------------------------------------------------------------

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -c $< -o $@

$(BUILD)/lib/%.pic.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -fPIC -c $< -o $@

$(STATIC_LIB): $(LIB_OBJECTS)
	rm -f $@
	ar rcs $@ $^

# Export only the public API (recorder_* names); everything else is local.
$(SHARED_LIB): $(PIC_OBJECTS) lib/librecorder.map
	$(CC) -shared -Wl,-soname,librecorder.so.$(SONAME_MAJOR) \
	    -Wl,--version-script=lib/librecorder.map -o $@ $(PIC_OBJECTS) $(LDLIBS)

$(BUILD)/librecorder.so.$(SONAME_MAJOR) $(BUILD)/librecorder.so: $(SHARED_LIB)
	ln -sf $(notdir $(SHARED_LIB)) $@

$(BUILD)/lib/crash/crash.o $(BUILD)/lib/crash/crash.pic.o: \
    CPPFLAGS_LIB += -DRECORDER_LIBEXECDIR='"$(LIBEXECDIR)/recorder"'

$(SYMBOLIZE): lib/helper/recorder_symbolize.c $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) $< -o $@ $(STATIC_LIB) \
	    $(LDLIBS)

# --- examples --------------------------------------------------------------

$(BUILD)/examples/%: share/examples/%.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude -Itests/support $< -o $@ $(STATIC_LIB) $(LDLIBS) -lm

# --- scope -------------------------------------------------------------------

$(BUILD)/scope/%.o: scope/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude -Iscope $(SCOPE_CFLAGS) -c $< -o $@

$(BUILD)/scope/window/%.o: scope/window/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude -Iscope $(SCOPE_CFLAGS) \
	    $(SCOPE_WINDOW_CFLAGS) -c $< -o $@

# Where the front looks for the window program once installed.
$(BUILD)/scope/cli/window_launch.o: \
    SCOPE_CFLAGS += -DSCOPE_LIBEXECDIR='"$(LIBEXECDIR)/recorder"'

$(SCOPE): $(SCOPE_MAIN) $(SCOPE_CORE) $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $(SCOPE_MAIN) $(SCOPE_CORE) -o $@ $(STATIC_LIB) \
	    $(SCOPE_LIBS) $(LDLIBS)

$(SCOPE_WINDOW): $(SCOPE_WINDOW_MAIN) $(SCOPE_WINDOW_OBJECTS) $(SCOPE_CORE) \
                 $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $(SCOPE_WINDOW_MAIN) $(SCOPE_WINDOW_OBJECTS) \
	    $(SCOPE_CORE) -o $@ $(STATIC_LIB) $(SCOPE_WINDOW_LIBS) $(LDLIBS)

# --- scope graph widget ----------------------------------------------------------

$(BUILD)/scope/%.pic.o: scope/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -Iinclude -Iscope $(SCOPE_CFLAGS) \
	    $(SCOPE_WINDOW_CFLAGS) -c $< -o $@

$(GRAPH_RECORD): lib/record/record.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -fPIC \
	    '-Dtls_model(model)=tls_model("global-dynamic")' -c $< -o $@

$(GRAPH_LIB): $(GRAPH_OBJECTS) $(GRAPH_LIB_OBJECTS) \
              scope/window/recorder_scope_graph.map
	$(CC) -shared -Wl,-soname,lib$(GRAPH_NAME).so.$(SONAME_MAJOR) \
	    -Wl,--version-script=scope/window/recorder_scope_graph.map -o $@ \
	    $(GRAPH_OBJECTS) $(GRAPH_LIB_OBJECTS) $(GRAPH_LIBS) $(LDLIBS)

$(GRAPH_LINKS): $(GRAPH_LIB)
	ln -sf $(notdir $(GRAPH_LIB)) $@

# g-ir-scanner builds and runs a program that loads the library to ask
# GObject for the type's properties and signals (built with our CFLAGS,
# so a sanitized library gets its runtime; what it finds in GLib at its
# exit is not ours to report);
# the comments of the header and the source add the rest.
$(GRAPH_GIR): $(GRAPH_HEADER) scope/window/recorder_scope_graph.c $(GRAPH_LINKS)
	CC="$(CC)" CFLAGS="$(CFLAGS)" LDFLAGS="$(CFLAGS)" \
	ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=report_bugs=0 \
	LD_LIBRARY_PATH=$(BUILD) \
	g-ir-scanner --quiet --warn-error \
	    --namespace=RecorderScope --nsversion=1.0 \
	    --identifier-prefix=RecorderScope --symbol-prefix=recorder_scope \
	    --include=Gtk-4.0 --pkg=gtk4 --library=$(GRAPH_NAME) \
	    --library-path=$(BUILD) --c-include=recorder/recorder_scope_graph.h \
	    --pkg-export=$(GRAPH_NAME) --cflags-begin -Iinclude --cflags-end \
	    $(GRAPH_HEADER) scope/window/recorder_scope_graph.c -o $@

$(GRAPH_TYPELIB): $(GRAPH_GIR)
	g-ir-compiler $< -o $@

# Built here against the tree's library; tests build it as a user would.
$(BUILD)/examples/embed_scope: share/examples/embed_scope.c $(GRAPH_LINKS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude $(shell pkg-config --cflags gtk4) \
	    $< -o $@ -L$(BUILD) -l$(GRAPH_NAME) $(shell pkg-config --libs gtk4)

# Programs that record known values for the shell checks: channels
# (scope_feeder), events beside a channel (scope_event_feeder), a quiet
# signal with one spike (spike_writer), numbered events of several
# processes (multi_writer), a steady count beside known values
# (metrics_writer) and others; forge_segment rewrites a segment as an
# attacker would and needs lib's private headers; forge_v12_segment writes
# one as a recorder 1.2 program does (1.2's own C types), needing nothing
# of ours.
$(TEST_WRITERS): $(BUILD)/tests/writers/%: tests/writers/%.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude $(CPPFLAGS_LIB) -Itests/support $< -o $@ \
	    $(STATIC_LIB) $(LDLIBS)

# A QEMU-shaped program, 1 500 recorders of 8 slots: its sources are
# generated as QEMU's recorder trace back-end generates its own.
$(QEMU_SHAPED): tests/writers/qemu_shaped/main.c \
                tests/support/qemu_shaped_sources.sh $(STATIC_LIB)
	@mkdir -p $(@D)
	sh tests/support/qemu_shaped_sources.sh $@.src 1500
	$(CC) $(ALL_CFLAGS) -Iinclude -I$@.src $@.src/trace.c \
	    $@.src/trace_first.c $< -o $@ $(STATIC_LIB) $(LDLIBS)

# --- tests -----------------------------------------------------------------

# Compiled apart from linking: a header change recompiles only the tests
# that include it (the others only link again if the library changed).
$(LIB_TESTS:%=%.o): $(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -Itests/support -c $< -o $@

$(SCOPE_TESTS:%=%.o): $(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -Iinclude -Iscope \
	    -Itests/support $(SCOPE_CFLAGS) -c $< -o $@

$(SCOPE_GTK_TESTS:%=%.o): SCOPE_CFLAGS += $(SCOPE_WINDOW_CFLAGS)

$(LIB_TESTS): %: %.o $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $< -o $@ $(STATIC_LIB) -lcmocka $(LDLIBS)

$(filter-out $(SCOPE_GTK_TESTS),$(SCOPE_TESTS)): %: %.o $(SCOPE_CORE) $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $< -o $@ $(SCOPE_CORE) $(STATIC_LIB) -lcmocka \
	    $(SCOPE_LIBS) $(LDLIBS)

$(SCOPE_GTK_TESTS): %: %.o $(SCOPE_CORE) $(SCOPE_WINDOW_OBJECTS) $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $< -o $@ $(SCOPE_WINDOW_OBJECTS) $(SCOPE_CORE) \
	    $(STATIC_LIB) -lcmocka $(SCOPE_WINDOW_LIBS) $(LDLIBS)

# Every public header must compile as C++ (g++) and with -Iinclude/recorder.
$(BUILD)/tests/compat/cplusplus_headers: tests/compat/cplusplus_headers.cpp $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CXX) -std=c++11 $(WARNINGS) -Werror $(CFLAGS) $(DEPFLAGS) -Iinclude $< \
	    -o $@ $(STATIC_LIB) $(LDLIBS)

$(BUILD)/tests/compat/quoted_include: tests/compat/quoted_include.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Werror $(DEPFLAGS) -Iinclude/recorder $< -o $@ \
	    $(STATIC_LIB) $(LDLIBS)

# Fuzz targets also build as plain programs that replay seeds and the
# inputs of past crashes (tests/fuzz/regressions), run by make check.
$(REPLAY_MAIN): tests/fuzz/replay_main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -Itests/fuzz -c $< -o $@

$(BUILD)/tests/fuzz/replay_%: tests/fuzz/%.c $(REPLAY_MAIN) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -Itests/fuzz $< \
	    $(REPLAY_MAIN) -o $@ $(STATIC_LIB) $(LDLIBS)

deps-check:
	@sh $(DEPS) $(CHECK_PACKAGES)

deps-demo:
	@sh $(DEPS) $(DEMO_PACKAGES)

# Builds in its own make so the dependency step runs before any compiler.
check: deps-check
	@$(MAKE) --no-print-directory all tests
	@BUILD=$(BUILD) sh tests/support/run-tests $(TESTS) $(TEST_HELPERS)

# The whole suite again under sanitizers, each in its own build tree.
SANITIZE_ASAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined
SANITIZE_TSAN   := -fsanitize=thread

check-asan: deps-check
	@LSAN_OPTIONS="suppressions=$(CURDIR)/tests/support/lsan.supp $$LSAN_OPTIONS" \
	    $(MAKE) --no-print-directory BUILD=$(BUILD)/asan \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer $(SANITIZE_ASAN)" sanitized-check

check-tsan: deps-check
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/support/tsan.supp $$TSAN_OPTIONS" \
	    $(MAKE) --no-print-directory BUILD=$(BUILD)/tsan \
	    CFLAGS="-O1 -g $(SANITIZE_TSAN)" sanitized-check

# Helper of the two above; the test checks that compare builds or install
# are left to the plain 'make check'.
sanitized-check: all tests
	@BUILD=$(BUILD) SANITIZED=1 sh tests/support/run-tests $(TESTS) $(TEST_HELPERS)

# --- fuzzing (clang libFuzzer) -------------------------------------------------

FUZZ_SECONDS    ?= 60
FUZZ_CFLAGS     := -std=gnu11 -g -O1 -pthread -fno-omit-frame-pointer \
                   -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_LIB_OBJECTS := $(LIB_SOURCES:lib/%.c=$(FUZZ_BUILD)/lib/%.o)
.SECONDARY: $(FUZZ_LIB_OBJECTS)

$(FUZZ_BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link $(CPPFLAGS_LIB) \
	    -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJECTS)
	clang $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer $(CPPFLAGS_LIB) \
	    -Itests/fuzz $< $(FUZZ_LIB_OBJECTS) -o $@ $(LDLIBS)

# Each target runs FUZZ_SECONDS; new inputs go to build/fuzz/corpus, crashes
# to build/fuzz/crash-*. Copy a crash into tests/fuzz/regressions/TARGET/
# once fixed, so make check replays it for ever.
# libFuzzer's runtime comes with Debian's libclang-rt-14-dev.
deps-fuzz: deps-check
	@sh $(DEPS) clang libclang-rt-14-dev

fuzz: deps-fuzz $(FUZZ_NAMES:%=$(FUZZ_BUILD)/%)
	@for name in $(FUZZ_NAMES); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$name tests/fuzz/regressions/$$name; \
	    log=$(FUZZ_BUILD)/$$name.log; \
	    echo "=== $$name, $(FUZZ_SECONDS) s"; \
	    if ! $(FUZZ_BUILD)/$$name -max_total_time=$(FUZZ_SECONDS) \
	        -close_fd_mask=3 -print_final_stats=1 \
	        -artifact_prefix=$(FUZZ_BUILD)/crash-$$name- \
	        $(FUZZ_BUILD)/corpus/$$name tests/fuzz/seeds/$$name \
	        tests/fuzz/regressions/$$name > $$log 2>&1; then \
	        grep -E "ERROR|SUMMARY|Test unit written" $$log; \
	        echo "$$name: failed, see $$log"; exit 1; \
	    fi; \
	    grep -E "number_of_executed_units|average_exec_per_sec|new_units_added" $$log; \
	done; echo "fuzz: no crash"

# --- benchmarks ---------------------------------------------------------------

BENCH_CFLAGS    := -std=gnu11 -O2 -g -DNDEBUG -pthread $(C_WARNINGS)
BENCH_LIB_OBJECTS := $(LIB_SOURCES:lib/%.c=$(BENCH_BUILD)/lib/%.o)
BENCH_SCOPE_OBJECTS := $(SCOPE_CORE:$(BUILD)/scope/%=$(BENCH_BUILD)/scope/%)
BENCH_OBJECTS   := $(BENCH_BUILD)/tests/recorder_bench.o \
                   $(BENCH_BUILD)/tests/bench_scope.o

$(BENCH_BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -c $< -o $@

$(BENCH_BUILD)/scope/%.o: scope/%.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) -Iinclude -Iscope $(SCOPE_CFLAGS) -c $< -o $@

$(BENCH_OBJECTS): $(BENCH_BUILD)/tests/%.o: tests/bench/%.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) $(CPPFLAGS_LIB) -Iinclude -Iscope \
	    -Itests/bench $(SCOPE_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/recorder_bench: $(BENCH_OBJECTS) $(BENCH_LIB_OBJECTS) \
                               $(BENCH_SCOPE_OBJECTS)
	$(CC) $(BENCH_CFLAGS) $^ -o $@ $(SCOPE_LIBS) $(LDLIBS)

$(BENCH_BUILD)/bench_feeder: tests/bench/bench_feeder.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iinclude -Itests/support $< -o $@ $(STATIC_LIB) $(LDLIBS) -lm

# GTK showing a scrolling plot and nothing else: the scope window's floor,
# with the renderer the scope would pick.
$(BENCH_BUILD)/gtk_floor: tests/bench/gtk_floor.c scope/window/renderer_choice.c \
                          scope/window/still_bin.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iscope $(SCOPE_WINDOW_CFLAGS) $^ -o $@ \
	    $(SCOPE_WINDOW_LIBS)

# Release build, one table of medians and ratios, what sharing costs a
# QEMU-shaped program, then the scope window's CPU under Xvfb; non-zero if
# a target is missed (the message names it).
bench: deps-check $(BENCH_BUILD)/recorder_bench $(BENCH_BUILD)/bench_feeder \
       $(SCOPE) $(SCOPE_WINDOW) \
       $(BUILD)/examples/perfdata $(BENCH_BUILD)/gtk_floor $(QEMU_SHAPED)
	@status=0; $(BENCH_BUILD)/recorder_bench || status=1; \
	sh tests/bench/segment_memory.sh $(BUILD) || status=1; \
	sh tests/bench/scope_window_cpu.sh $(BUILD) || status=1; exit $$status

demo: deps-demo
	@$(MAKE) --no-print-directory all
	@sh share/scripts/scope-demo $(BUILD)

# --- install ---------------------------------------------------------------

install: all
	install -d $(DESTDIR)$(INCLUDEDIR)/recorder $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/applications
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/recorder/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHARED_LIB)) $(DESTDIR)$(LIBDIR)/librecorder.so.$(SONAME_MAJOR)
	ln -sf $(notdir $(SHARED_LIB)) $(DESTDIR)$(LIBDIR)/librecorder.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    share/pkgconfig/recorder.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/recorder.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/recorder.pc
	install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/
	install -d $(DESTDIR)$(LIBEXECDIR)/recorder
	install -m 755 $(SYMBOLIZE) $(SCOPE_WINDOW) $(DESTDIR)$(LIBEXECDIR)/recorder/
	install -m 755 $(SCOPE) $(DESTDIR)$(BINDIR)/
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(DESKTOP) $(DESTDIR)$(DATADIR)/applications/
	install -d $(DESTDIR)$(GIRDIR) $(DESTDIR)$(TYPELIBDIR)
	install -m 644 $(GRAPH_HEADER) $(DESTDIR)$(INCLUDEDIR)/recorder/
	install -m 755 $(GRAPH_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(GRAPH_LIB)) $(DESTDIR)$(LIBDIR)/lib$(GRAPH_NAME).so.$(SONAME_MAJOR)
	ln -sf $(notdir $(GRAPH_LIB)) $(DESTDIR)$(LIBDIR)/lib$(GRAPH_NAME).so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    share/pkgconfig/$(GRAPH_NAME).pc.in > $(DESTDIR)$(PKGCONFIGDIR)/$(GRAPH_NAME).pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/$(GRAPH_NAME).pc
	install -m 644 $(GRAPH_GIR) $(DESTDIR)$(GIRDIR)/
	install -m 644 $(GRAPH_TYPELIB) $(DESTDIR)$(TYPELIBDIR)/

uninstall:
	rm -f $(HEADERS:include/recorder/%=$(DESTDIR)$(INCLUDEDIR)/recorder/%) \
	    $(DESTDIR)$(INCLUDEDIR)/recorder/$(notdir $(GRAPH_HEADER))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/recorder 2>/dev/null
	rm -f $(DESTDIR)$(LIBDIR)/librecorder.a $(DESTDIR)$(LIBDIR)/$(notdir $(SHARED_LIB)) \
	    $(DESTDIR)$(LIBDIR)/librecorder.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/librecorder.so
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/recorder.pc
	rm -f $(MAN3:share/man/man3/%=$(DESTDIR)$(MANDIR)/man3/%)
	rm -f $(DESTDIR)$(LIBEXECDIR)/recorder/$(notdir $(SYMBOLIZE)) \
	    $(DESTDIR)$(LIBEXECDIR)/recorder/$(notdir $(SCOPE_WINDOW))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/recorder 2>/dev/null
	rm -f $(DESTDIR)$(BINDIR)/$(notdir $(SCOPE)) \
	    $(DESTDIR)$(MANDIR)/man1/$(notdir $(MAN1)) \
	    $(DESTDIR)$(DATADIR)/applications/$(notdir $(DESKTOP))
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(GRAPH_LIB)) \
	    $(DESTDIR)$(LIBDIR)/lib$(GRAPH_NAME).so.$(SONAME_MAJOR) \
	    $(DESTDIR)$(LIBDIR)/lib$(GRAPH_NAME).so \
	    $(DESTDIR)$(PKGCONFIGDIR)/$(GRAPH_NAME).pc \
	    $(DESTDIR)$(GIRDIR)/$(notdir $(GRAPH_GIR)) \
	    $(DESTDIR)$(TYPELIBDIR)/$(notdir $(GRAPH_TYPELIB))
	-rmdir $(DESTDIR)$(GIRDIR) $(DESTDIR)$(TYPELIBDIR) 2>/dev/null

clean:
	rm -rf $(BUILD)

# --- header dependencies ---------------------------------------------------

# What each compiler run wrote (see DEPFLAGS); missing until first built.
COMPILED        := $(LIB_OBJECTS) $(PIC_OBJECTS) $(SYMBOLIZE) $(EXAMPLES) \
                   $(SCOPE_OBJECTS) $(GRAPH_OBJECTS) $(GRAPH_RECORD) \
                   $(BUILD)/examples/embed_scope \
                   $(TEST_WRITERS) $(TESTS:%=%.o) \
                   $(TEST_HELPERS) $(REPLAY_MAIN) $(REPLAYS) \
                   $(FUZZ_LIB_OBJECTS) $(FUZZ_NAMES:%=$(FUZZ_BUILD)/%) \
                   $(BENCH_LIB_OBJECTS) $(BENCH_SCOPE_OBJECTS) \
                   $(BENCH_OBJECTS) $(BENCH_BUILD)/bench_feeder
-include $(COMPILED:%=%.d)
# Built before it wrote one (an older tree): build it again, once.
$(filter-out $(patsubst %.d,%,$(wildcard $(COMPILED:%=%.d))),$(COMPILED)): \
    no-header-list
no-header-list:
