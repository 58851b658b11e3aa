/* output_private.h - turning one record into one line of output.
 *
 * Shared by dumps, live traces and signal handlers; everything here is
 * async-signal-safe as long as the configured show and format functions
 * and custom conversions are.
 */
#ifndef RECORDER_OUTPUT_PRIVATE_H
#define RECORDER_OUTPUT_PRIVATE_H

#include "recorder.h"
#include "text/record_line_private.h"
#include <stdbool.h>

typedef struct recorder_output
{
    recorder_format_fn format;
    recorder_show_fn   show;
    void *             arg;             /* what 'show' writes to */
    bool               strings_valid;   /* %s may be dereferenced */
    bool               signal_safe;
} recorder_output;

/* The configured format, show and output, for the current context. */
recorder_output recorder_output_current(bool signal_safe) RECORDER_HIDDEN;

/* Render one record of recorder 'label' (trace value 'trace') and show it. */
void recorder_output_record(const recorder_output *out, const char *label,
                            intptr_t trace, const recorder_site *site,
                            uint64_t index, uint64_t stamp,
                            const uint64_t *args, unsigned nargs)
    RECORDER_HIDDEN;

/* The message of a record as a dump of 'out' renders it, in
 * message[RECORDER_MESSAGE_MAX] (no indentation carried from other
 * records), and the options it renders with, for its arguments. Returns
 * whether 'site' is one a dump trusts (else the message says only the
 * address). */
bool recorder_output_message(char *message, const recorder_output *out,
                             intptr_t trace, const recorder_site *site,
                             const uint64_t *args, unsigned nargs,
                             struct recorder_render_options *options)
    RECORDER_HIDDEN;

/* Flush the stdio buffer of the configured output, if it is a FILE. */
void recorder_output_flush(void) RECORDER_HIDDEN;

/* Print a library message on the output, one show call per line: used for
 * help, list, warnings. */
void recorder_output_text(const char *text) RECORDER_HIDDEN;

/* The file descriptor the default show function writes to. */
int recorder_output_fd(void) RECORDER_HIDDEN;

/* Write 'text' on that descriptor. Async-signal-safe, keeps errno: for
 * signal and crash handlers (safe_output.c, below us, knows no output). */
void recorder_output_say(const char *text) RECORDER_HIDDEN;

#endif /* RECORDER_OUTPUT_PRIVATE_H */
