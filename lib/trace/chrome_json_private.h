/* chrome_json_private.h - the Chrome trace-event JSON writer.
 *
 * One writer for both exports: recorder_share_chrome_json() feeds it the
 * records, channel samples and crash reports of segments, and
 * recorder_dump_chrome_json() the records of the process's own rings, so
 * the two files have one format. Events are kept until the end and
 * written sorted by time (metadata first), which lets a source give them
 * process by process.
 */
#ifndef RECORDER_CHROME_JSON_PRIVATE_H
#define RECORDER_CHROME_JSON_PRIVATE_H

#include "base/visibility_private.h"
#include "recorder_share.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct chrome_json chrome_json;
struct recorder_backtrace;

chrome_json *chrome_json_new(void) RECORDER_HIDDEN;
void chrome_json_delete(chrome_json *json) RECORDER_HIDDEN;

/* A process: its process_name metadata event. Returns its index for the
 * calls below. 'program' is shown as given (escape it first if it comes
 * from a segment). */
unsigned chrome_json_process(chrome_json *json, unsigned pid,
                             const char *program) RECORDER_HIDDEN;

/* One record as an instant event, 'ns' nanoseconds after the time origin
 * of the file; the first record of a lane adds its thread_name. */
void chrome_json_record(chrome_json *json, unsigned process, uint64_t ns,
                        const recorder_share_record *record) RECORDER_HIDDEN;

/* One sample of a channel as a counter event. Not-a-number and infinite
 * values, which JSON cannot say, are left out. */
void chrome_json_counter(chrome_json *json, unsigned process, uint64_t ns,
                         const char *channel, double value) RECORDER_HIDDEN;

/* A crash report as a process-wide instant event with its frames. */
void chrome_json_crash(chrome_json *json, unsigned process, uint64_t ns,
                       const struct recorder_backtrace *backtrace)
    RECORDER_HIDDEN;

/* Latest time of an event of 'process' so far (0 if none). */
uint64_t chrome_json_last_ns(const chrome_json *json, unsigned process)
    RECORDER_HIDDEN;

/* Write the file: {"traceEvents":[...],"displayTimeUnit":"ns"}, one event
 * a line, sorted by time. False if memory ran out on the way (the file
 * then lacks events) or 'out' has an error. */
bool chrome_json_write(chrome_json *json, FILE *out) RECORDER_HIDDEN;

/* 'text' as the inside of a JSON string in out[size]: quotes, backslashes
 * and control characters escaped, bytes that are not valid UTF-8 written
 * as the text \xNN (as recorder_share_escape shows them). Always
 * NUL-terminates when size > 0, never splits an escape; returns the bytes
 * written (at most 6 * length). */
size_t chrome_json_escape(char *out, size_t size, const char *text,
                          size_t length) RECORDER_HIDDEN;

/* The process's own flight recorder, from the oldest record kept to the
 * last one made 'until_ns' after the clock's start (UINT64_MAX: all), as
 * recorder_dump_chrome_json() writes it, to 'out' (flushed, not closed).
 * The number of records, or -1 with errno set. */
int recorder_chrome_json_self(FILE *out, uint64_t until_ns) RECORDER_HIDDEN;

/* Let trace_spec.c's chrome=FILE write recorder_dump_chrome_json(path) at
 * exit (the last path given wins). trace_spec.c sits below this module
 * (which reads its export requests), so it calls up through the hook this
 * sets; recorder_trace_set() installs it, which also links this module
 * into programs built with librecorder.a. */
void recorder_chrome_json_install(void) RECORDER_HIDDEN;

#endif /* RECORDER_CHROME_JSON_PRIVATE_H */
