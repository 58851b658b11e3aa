/* share_writer_private.h - the recording process's side of the segment. */
#ifndef RECORDER_SHARE_WRITER_PRIVATE_H
#define RECORDER_SHARE_WRITER_PRIVATE_H

#include "recorder.h"
#include "clock_private.h"
#include "trace_spec_private.h"

/* Create the segment at 'path' (NULL: $RECORDER_SHARE, else the default)
 * and move everything into it; if already sharing elsewhere, move there.
 * False, with one message on stderr, if it cannot. */
bool recorder_share_open_path(const char *path) RECORDER_HIDDEN;

/* Share in $RECORDER_SHARE if it is set (recorder_dump_on_common_signals). */
void recorder_share_init(void) RECORDER_HIDDEN;

/* Hooks for things that appear once sharing may have started. Each does
 * nothing when there is no segment. */
void recorder_share_add_recorder(recorder_info *rec) RECORDER_HIDDEN;
void recorder_share_add_tweak(recorder_tweak *tweak) RECORDER_HIDDEN;
void recorder_share_add_sites(recorder_site *first, recorder_site *last)
    RECORDER_HIDDEN;

/* Apply a new export request, creating the segment if needed. */
void recorder_share_export(const recorder_export_request *request)
    RECORDER_HIDDEN;

/* Copy current trace and tweak values into the segment for readers. */
void recorder_share_refresh(void) RECORDER_HIDDEN;

/* True once this process writes a segment. */
bool recorder_share_active(void) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_WRITER_PRIVATE_H */
