/* dump_private.h - dumping from contexts that cannot use regular expressions. */
#ifndef RECORDER_DUMP_PRIVATE_H
#define RECORDER_DUMP_PRIVATE_H

#include "record/output_private.h"

/* Dump every recorder through 'out'. No allocation, no regex: safe in a
 * signal handler with the default output functions. 'final': the process
 * is about to die, so a record still being written when the dump reaches
 * it will never be finished; print what follows it instead of leaving the
 * lane to a next dump. */
unsigned recorder_dump_all(const recorder_output *out, bool final)
    RECORDER_HIDDEN;

#endif /* RECORDER_DUMP_PRIVATE_H */
