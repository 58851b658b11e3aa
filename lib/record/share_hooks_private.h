/* share_hooks_private.h - how modules below the segment writer reach it.
 *
 * trace_spec.c (share=, export requests, traces changed), share_commands.c
 * (a command changed traces) and output.c (are rings shared?) sit below
 * share_writer.c, which uses them; they must not call up into it by name.
 * They call these functions instead, which go through the table that
 * share_writer.c installs with recorder_share_install(). (The registry and
 * sites.c have their own listeners: registry_private.h, sites_private.h.)
 *
 * Why an explicit install rather than a constructor in share_writer.c:
 * from librecorder.a the linker takes share_writer.o only if the program
 * references one of its symbols, and once no lower module names the
 * writer, a constructor there would silently not exist in a statically
 * linked program. So every entry point that may start sharing and sits
 * above both modules calls recorder_share_install() first:
 * recorder_trace_set() (trace_set.c) and recorder_dump_on_common_signals()
 * (signals.c), as does recorder_share_open_path() itself. That call is the
 * reference that links the writer in, and it does the same in
 * librecorder.so, where nothing depends on link order. Remote commands
 * arrive only through a segment, so the writer is installed by then.
 */
#ifndef RECORDER_SHARE_HOOKS_PRIVATE_H
#define RECORDER_SHARE_HOOKS_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stddef.h>

struct recorder_export_request;         /* trace_spec_private.h */
struct recorder_info;                   /* recorder.h */

typedef struct recorder_share_hooks
{
    bool (*open_path)(const char *path);
    void (*export)(const struct recorder_export_request *request);
    void (*refresh)(void);
    bool (*active)(void);
    bool (*limits)(char *out, size_t size);
    unsigned (*file_mode)(void);
    void (*first_record)(struct recorder_info *rec);
} recorder_share_hooks;

/* Set by the writer ('hooks' must outlive the process). */
void recorder_share_hooks_set(const recorder_share_hooks *hooks)
    RECORDER_HIDDEN;

/* Create the segment at 'path' (NULL: the default) or move there. False,
 * with a message on stderr, if it cannot, or if the writer is not in this
 * program. */
bool recorder_share_start(const char *path) RECORDER_HIDDEN;

/* Apply a new export request, creating the segment if needed. */
void recorder_share_request(const struct recorder_export_request *request)
    RECORDER_HIDDEN;

/* Copy current trace and tweak values into the segment, if sharing. */
void recorder_share_update(void) RECORDER_HIDDEN;

/* The permission bits of the segment's file now (fstat), 0 if not
 * sharing: the command thread serves commands only while they are
 * private. */
unsigned recorder_share_file_mode(void) RECORDER_HIDDEN;

/* What the segment left out (entries of full tables, "3 channels (channel
 * table full at 1048576)"), in out[size]; false if nothing, or if not
 * sharing. */
bool recorder_share_limits(char *out, size_t size) RECORDER_HIDDEN;

/* From the record path, on the first record in a lane of the ring of
 * 'rec': a segment writer gives the ring its place in the segment if it
 * has none yet. Lock-free, no allocation, no system call. */
void recorder_share_first_record(struct recorder_info *rec) RECORDER_HIDDEN;

/* True once this process writes a segment. Lock-free. */
bool recorder_sharing(void) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_HOOKS_PRIVATE_H */
