/* dw_library.c - open elfutils' libdw (libdw.so.1) at run time. */
#include "backtrace/dw_library_private.h"
#include "backtrace/library_load_private.h"

#include <pthread.h>

#define DW_SONAME       "libdw.so.1"

static dw_library table;
static const dw_library *loaded;        /* &table once it is filled */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
#define DW_LIBRARY_SYMBOL(function) \
    { #function, offsetof(dw_library, function), false },
    static const library_symbol symbols[] = {
        DW_LIBRARY_FUNCTIONS(DW_LIBRARY_SYMBOL)
    };
#undef DW_LIBRARY_SYMBOL
    if (library_load(DW_SONAME, symbols, sizeof(symbols) / sizeof(symbols[0]),
                     &table))
        loaded = &table;
}

const dw_library *dw_library_get(void)
{
    pthread_once(&load_once, load);
    return loaded;
}
