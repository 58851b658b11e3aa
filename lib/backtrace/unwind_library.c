/* unwind_library.c - open libunwind (libunwind.so.8) at run time. */
#include "backtrace/unwind_library_private.h"
#include "backtrace/library_load_private.h"
#include "recorder.h"

#include <execinfo.h>
#include <pthread.h>

#define UNWIND_SONAME   "libunwind.so.8"

#define SYMBOL(function, field, optional)                               \
    { LIBRARY_SYMBOL_NAME(function), offsetof(unwind_library, field),   \
      optional }

static unwind_library table;
static const unwind_library *published;   /* &table once it is filled */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    static const library_symbol symbols[] = {
        SYMBOL(unw_init_local, init_local, false),
        SYMBOL(unw_init_local2, init_local2, true),
        SYMBOL(unw_get_reg, get_reg, false),
        SYMBOL(unw_step, step, false),
        SYMBOL(unw_is_signal_frame, is_signal_frame, false),
    };
    if (library_load(UNWIND_SONAME, symbols,
                     sizeof(symbols) / sizeof(symbols[0]), &table))
    {
        __atomic_store_n(&published, &table, __ATOMIC_RELEASE);
        return;
    }
    record(recorder, "No " UNWIND_SONAME ": crash stacks are walked by "
           "glibc's backtrace()");
    /* Its first call opens libgcc_s: not in a signal handler. */
    void *frame;
    backtrace(&frame, 1);
}

void unwind_library_load(void)
{
    pthread_once(&load_once, load);
}

const unwind_library *unwind_library_get(void)
{
    return __atomic_load_n(&published, __ATOMIC_ACQUIRE);
}
