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

CC              ?= cc
CXX             ?= c++
OPT             ?= -O2
CFLAGS          ?= $(OPT) -g
WARNINGS        := -Wall -Wextra
CPPFLAGS_LIB    := -Iinclude/recorder -Ilib
ALL_CFLAGS      := -std=gnu11 $(WARNINGS) $(CFLAGS) -pthread
LDLIBS          := -pthread -lrt

BUILD           := build
DEPS            := share/scripts/ensure-deps
CHECK_PACKAGES  := gcc g++ clang make pkg-config libcmocka-dev binutils
DEMO_PACKAGES   := gcc make

LIB_SOURCES     := $(wildcard lib/*.c)
LIB_OBJECTS     := $(LIB_SOURCES:lib/%.c=$(BUILD)/lib/%.o)
PIC_OBJECTS     := $(LIB_SOURCES:lib/%.c=$(BUILD)/lib/%.pic.o)
STATIC_LIB      := $(BUILD)/librecorder.a
SHARED_LIB      := $(BUILD)/librecorder.so.$(VERSION)
SHARED_LINKS    := $(BUILD)/librecorder.so.$(SONAME_MAJOR) $(BUILD)/librecorder.so

EXAMPLE_SOURCES := $(wildcard share/examples/*.c)
EXAMPLES        := $(EXAMPLE_SOURCES:share/examples/%.c=$(BUILD)/examples/%)

SCOPE_SOURCES   := $(wildcard scope/*.c)
SCOPE_OBJECTS   := $(SCOPE_SOURCES:scope/%.c=$(BUILD)/scope/%.o)
SCOPE           := $(BUILD)/recorder_scope

TEST_SOURCES    := $(wildcard tests/test_*.c)
TESTS           := $(TEST_SOURCES:tests/%.c=$(BUILD)/tests/%)
TEST_HELPERS    := $(BUILD)/tests/cplusplus_headers $(BUILD)/tests/quoted_include

HEADERS         := include/recorder/recorder.h include/recorder/recorder_ring.h \
                   include/recorder/recorder_share.h
MAN3            := $(wildcard share/man/man3/*.3)

.PHONY: all check check-asan check-tsan demo deps-check deps-demo install \
        uninstall clean tests

all: $(STATIC_LIB) $(SHARED_LIB) $(SHARED_LINKS) $(EXAMPLES) $(SCOPE)

# --- library ---------------------------------------------------------------

$(BUILD)/lib/%.o: lib/%.c $(wildcard lib/*.h) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS_LIB) -c $< -o $@

$(BUILD)/lib/%.pic.o: lib/%.c $(wildcard lib/*.h) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS_LIB) -fPIC -c $< -o $@

$(STATIC_LIB): $(LIB_OBJECTS)
	rm -f $@
	ar rcs $@ $^

# Export only the public API (recorder_* names); everything else is local.
$(SHARED_LIB): $(PIC_OBJECTS) lib/librecorder.map
	$(CC) -shared -Wl,-soname,librecorder.so.$(SONAME_MAJOR) \
	    -Wl,--version-script=lib/librecorder.map -o $@ $(PIC_OBJECTS) $(LDLIBS)

$(BUILD)/librecorder.so.$(SONAME_MAJOR) $(BUILD)/librecorder.so: $(SHARED_LIB)
	ln -sf $(notdir $(SHARED_LIB)) $@

# --- examples --------------------------------------------------------------

$(BUILD)/examples/%: share/examples/%.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Iinclude $< -o $@ $(STATIC_LIB) $(LDLIBS) -lm

# --- scope -------------------------------------------------------------------

$(BUILD)/scope/%.o: scope/%.c $(wildcard scope/*.h) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Iinclude -Iscope -c $< -o $@

$(SCOPE): $(SCOPE_OBJECTS) $(STATIC_LIB)
	$(CC) $(ALL_CFLAGS) $(SCOPE_OBJECTS) -o $@ $(STATIC_LIB) $(LDLIBS)

# --- tests -----------------------------------------------------------------

$(BUILD)/tests/test_%: tests/test_%.c $(STATIC_LIB) $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS_LIB) -Itests $< -o $@ $(STATIC_LIB) -lcmocka $(LDLIBS)

# Every public header must compile as C++ (g++) and with -Iinclude/recorder.
$(BUILD)/tests/cplusplus_headers: tests/cplusplus_headers.cpp $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CXX) -std=c++11 $(WARNINGS) -Werror $(CFLAGS) -Iinclude $< -o $@ $(STATIC_LIB) $(LDLIBS)

$(BUILD)/tests/quoted_include: tests/quoted_include.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Werror -Iinclude/recorder $< -o $@ $(STATIC_LIB) $(LDLIBS)

tests: $(TESTS) $(TEST_HELPERS)

deps-check:
	@sh $(DEPS) $(CHECK_PACKAGES)

deps-demo:
	@sh $(DEPS) $(DEMO_PACKAGES)

# Builds in its own make so the dependency step runs before any compiler.
check: deps-check
	@$(MAKE) --no-print-directory all tests
	@BUILD=$(BUILD) sh tests/run-tests $(TESTS) $(TEST_HELPERS)

# The whole suite again under sanitizers, each in its own build tree.
SANITIZE_ASAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined
SANITIZE_TSAN   := -fsanitize=thread

check-asan: deps-check
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer $(SANITIZE_ASAN)" sanitized-check

check-tsan: deps-check
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp $$TSAN_OPTIONS" \
	    $(MAKE) --no-print-directory BUILD=$(BUILD)/tsan \
	    CFLAGS="-O1 -g $(SANITIZE_TSAN)" sanitized-check

# Helper of the two above; the test checks that compare builds or install
# are left to the plain 'make check'.
sanitized-check: all tests
	@BUILD=$(BUILD) SANITIZED=1 sh tests/run-tests $(TESTS) $(TEST_HELPERS)

demo: deps-demo
	@$(MAKE) --no-print-directory all
	$(BUILD)/examples/two_threads

# --- install ---------------------------------------------------------------

install: all
	install -d $(DESTDIR)$(INCLUDEDIR)/recorder $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man3
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

uninstall:
	rm -f $(HEADERS:include/recorder/%=$(DESTDIR)$(INCLUDEDIR)/recorder/%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/recorder 2>/dev/null
	rm -f $(DESTDIR)$(LIBDIR)/librecorder.a $(DESTDIR)$(LIBDIR)/$(notdir $(SHARED_LIB)) \
	    $(DESTDIR)$(LIBDIR)/librecorder.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/librecorder.so
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/recorder.pc
	rm -f $(MAN3:share/man/man3/%=$(DESTDIR)$(MANDIR)/man3/%)

clean:
	rm -rf $(BUILD)
