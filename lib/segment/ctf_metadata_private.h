/* ctf_metadata_private.h - the TSDL text of a CTF 1.8 trace of flight
 * recorders. */
#ifndef RECORDER_CTF_METADATA_PRIVATE_H
#define RECORDER_CTF_METADATA_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Arguments a record may carry (RECORDER_MAX_ARGS is 12): more are
 * dropped from the typed fields (the rendered message keeps them). */
#define CTF_ARGS_MAX            16

/* How one argument is stored and shown. */
typedef enum ctf_field_type
{
    CTF_FIELD_SIGNED,                   /* 64-bit, decimal */
    CTF_FIELD_UNSIGNED,                 /* 64-bit, decimal */
    CTF_FIELD_HEX,                      /* 64-bit unsigned, shown in base 16 */
    CTF_FIELD_DOUBLE,                   /* IEEE 754 binary64 */
    CTF_FIELD_STRING                    /* NUL-terminated UTF-8 */
} ctf_field_type;

/* One event class: one call site of one process, with the types of its
 * arguments. 'name' is the class's name ("RECORDER:FUNCTION:LINE"). */
typedef struct ctf_event_class
{
    uint32_t       id;
    char           name[192];
    unsigned       nargs;
    ctf_field_type types[CTF_ARGS_MAX];
} ctf_event_class;

/* One process: a stream of the trace. */
typedef struct ctf_process
{
    const char *program;
    unsigned    pid;
    const char *host;
} ctf_process;

/* What the trace block, environment and clock say. The clock counts
 * nanoseconds from 'offset_ns' of CLOCK_MONOTONIC (the start of the
 * earliest process, the text dump's time base). */
typedef struct ctf_trace_info
{
    uint8_t            uuid[16];
    bool               big_endian;
    uint64_t           offset_ns;
    const ctf_process *processes;
    unsigned           process_count;
} ctf_trace_info;

/* Write the metadata of 'info' and its 'count' event classes to 'out'.
 * Returns false if the writes failed. */
extern bool ctf_metadata_write(FILE *out, const ctf_trace_info *info,
                               const ctf_event_class *classes,
                               unsigned count) RECORDER_HIDDEN;

#endif /* RECORDER_CTF_METADATA_PRIVATE_H */
