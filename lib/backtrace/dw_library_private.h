/* dw_library_private.h - elfutils' libdw, if it is there.
 *
 * Opened at run time (library_load_private.h) by whoever symbolizes: the
 * recorder_symbolize helper, a reader of a crash report, a program that
 * captures its own backtrace. Without it, frames keep their module and
 * offset. Only the headers are needed to build.
 */
#ifndef RECORDER_DW_LIBRARY_PRIVATE_H
#define RECORDER_DW_LIBRARY_PRIVATE_H

#include "base/visibility_private.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>

/* Every libdw function symbolize.c calls; the table has one field each,
 * named as the function. */
#define DW_LIBRARY_FUNCTIONS(X)                                         \
    X(dwfl_begin) X(dwfl_end) X(dwfl_report_begin) X(dwfl_report_elf)   \
    X(dwfl_report_end) X(dwfl_build_id_find_elf)                        \
    X(dwfl_standard_find_debuginfo) X(dwfl_offline_section_address)     \
    X(dwfl_module_build_id) X(dwfl_module_addrdie)                      \
    X(dwfl_module_addrinfo) X(dwfl_module_getsrc) X(dwfl_lineinfo)      \
    X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_formstring)           \
    X(dwarf_formudata) X(dwarf_tag) X(dwarf_getsrcfiles)                \
    X(dwarf_filesrc) X(dwarf_getscopes) X(dwarf_getscopes_die)

typedef struct dw_library
{
#define DW_LIBRARY_FIELD(function)  __typeof__(function) *function;
    DW_LIBRARY_FUNCTIONS(DW_LIBRARY_FIELD)
#undef DW_LIBRARY_FIELD
} dw_library;

/* libdw's functions, opened on the first call; NULL if it cannot be
 * loaded. Thread-safe, not async-signal-safe. */
const dw_library *dw_library_get(void) RECORDER_HIDDEN;

#endif /* RECORDER_DW_LIBRARY_PRIVATE_H */
