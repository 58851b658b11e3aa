#!/bin/sh
# Write the sources of a QEMU-shaped program into DIR: what QEMU's recorder
# trace back-end generates for EVENTS trace events. trace.h declares each
# event's recorder (RECORDER_DECLARE), a tweak and a ring; trace.c defines
# them (RECORDER_DEFINE, 8 slots each); trace_first.c records once into
# each of the first N events (trace_first(N)), from a call site of its own,
# "event_I value I", as QEMU's generated trace functions do.
#
#   sh tests/support/qemu_shaped_sources.sh DIR [EVENTS]
#
# Used by tests/compat/check-qemu-shaped-build.sh, the Makefile (the
# tests/writers/qemu_shaped program) and make bench.
set -eu
dir=$1
events=${2:-1500}
mkdir -p "$dir"
{
    echo '#ifndef TRACE_H'
    echo '#define TRACE_H'
    echo '#include <recorder/recorder.h>'
    echo '#include <recorder/recorder_ring.h>'
    echo 'RECORDER_TWEAK_DECLARE(trace_tweak);'
    echo 'RECORDER_RING_DECLARE(trace_ring, int, 16);'
    i=0
    while [ $i -lt "$events" ]; do
        echo "RECORDER_DECLARE(event_$i);"
        i=$((i + 1))
    done
    echo 'static inline void trace_event_7(int fd, unsigned size)'
    echo '{ record(event_7, "event_7 fd %d size %u", fd, size); }'
    echo 'unsigned trace_first(unsigned n);'
    echo '#endif'
} > "$dir/trace.h"
{
    echo '#include "trace.h"'
    echo 'RECORDER_TWEAK_DEFINE(trace_tweak, 3, "A tweak of the trace");'
    echo 'RECORDER_RING_DEFINE(trace_ring, int, 16);'
    i=0
    while [ $i -lt "$events" ]; do
        echo "RECORDER_DEFINE(event_$i, 8, \"Tracepoint event_$i\");"
        i=$((i + 1))
    done
} > "$dir/trace.c"
{
    # One small function per event, as QEMU's trace_NAME(): quick to
    # compile, where one function of EVENTS records is not.
    echo '#include "trace.h"'
    i=0
    while [ $i -lt "$events" ]; do
        echo "static void trace_$i(void)"
        echo "{ record(event_$i, \"event_$i value %u\", ${i}u); }"
        i=$((i + 1))
    done
    echo 'static void (*const traces[])(void) = {'
    i=0
    while [ $i -lt "$events" ]; do
        echo "    trace_$i,"
        i=$((i + 1))
    done
    echo '};'
    echo 'unsigned trace_first(unsigned n)'
    echo '{'
    echo "    unsigned count = n < ${events}u ? n : ${events}u;"
    echo '    for (unsigned i = 0; i < count; i++)'
    echo '        traces[i]();'
    echo '    return count;'
    echo '}'
} > "$dir/trace_first.c"
