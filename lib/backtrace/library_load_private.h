/* library_load_private.h - optional libraries, opened at run time.
 *
 * libunwind walks the stack of a crash and libdw reads its DWARF; both make
 * reports better, neither is needed to record. So they are not linked in:
 * a program links with -lrecorder -lpthread -lm, as with recorder 1.2, and
 * a library missing at run time only makes reports rawer.
 */
#ifndef RECORDER_LIBRARY_LOAD_PRIVATE_H
#define RECORDER_LIBRARY_LOAD_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stddef.h>

/* A function to look up, and where its address goes in the caller's table
 * (a struct of function pointers). */
typedef struct library_symbol
{
    const char *name;
    size_t      offset;
    bool        optional;               /* NULL in the table if missing */
} library_symbol;

/* The name a header's macro gives a function (libunwind's unw_step is
 * _ULx86_64_step on x86_64), as a string for dlsym. */
#define LIBRARY_SYMBOL_NAME(function)   LIBRARY_SYMBOL_QUOTE(function)
#define LIBRARY_SYMBOL_QUOTE(function)  #function

/* Open 'soname' and fill 'table' with 'symbols'. False, with nothing kept
 * open, if the library is missing or lacks a symbol that is not optional:
 * a library of another version or another vendor with the same name.
 * Not async-signal-safe (dlopen). */
bool library_load(const char *soname, const library_symbol *symbols,
                  unsigned count, void *table) RECORDER_HIDDEN;

#endif /* RECORDER_LIBRARY_LOAD_PRIVATE_H */
