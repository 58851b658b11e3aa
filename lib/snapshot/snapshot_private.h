/* snapshot_private.h - how the files of lib/snapshot talk to each other.
 *
 * Conditions live in RECORDER_WATCH_SLOTS slots (record/watch_private.h).
 * The program's thread or the command thread arms and disarms them; the
 * snapshot thread polls their flags, decides which triggers to take and
 * writes the files. Counts are per condition, hold-off and maximum for
 * the whole run.
 */
#ifndef RECORDER_SNAPSHOT_PRIVATE_H
#define RECORDER_SNAPSHOT_PRIVATE_H

#include "base/visibility_private.h"
#include "record/watch_private.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest condition text kept, plus one. */
#define SNAPSHOT_CONDITION_TEXT 96

typedef enum snapshot_format
{
    SNAPSHOT_TEXT,
    SNAPSHOT_CHROME,
    SNAPSHOT_CTF
} snapshot_format;

/* What the thread knows of a condition's slot. */
typedef struct snapshot_slot_view
{
    bool     armed;
    uint32_t serial;                    /* new each time the slot is armed */
    char     text[SNAPSHOT_CONDITION_TEXT];
} snapshot_slot_view;

/* ---- snapshot_settings.c -------------------------------------------- */

typedef struct snapshot_settings
{
    uint64_t        post_ms;            /* snapshot_post, default 100 */
    uint64_t        holdoff_ms;         /* snapshot_holdoff, default 1000 */
    uint64_t        max;                /* snapshot_max, default 10 */
    snapshot_format format;             /* snapshot_format, default text */
} snapshot_settings;

snapshot_settings snapshot_settings_now(void) RECORDER_HIDDEN;

/* snapshot_post=, snapshot_holdoff=, snapshot_max=, snapshot_format=:
 * -1 if 'name' is none of them. */
int snapshot_settings_item(const char *name, const char *value, char *why,
                           size_t size) RECORDER_HIDDEN;

/* ---- snapshot_conditions.c ------------------------------------------ */

/* snapshot=...: -1 if 'name' is not "snapshot". */
int snapshot_conditions_item(const char *name, const char *value, char *why,
                             size_t size) RECORDER_HIDDEN;

/* Watch what exports added since (crossings name channels). */
void snapshot_conditions_refresh(void) RECORDER_HIDDEN;

/* ---- snapshot_thread.c ------------------------------------------------ */

/* Start the thread if it does not run (a condition was armed). */
void snapshot_thread_start(void) RECORDER_HIDDEN;

/* Slot 'slot' was armed with condition 'text' and serial 'serial':
 * start its counts afresh, from the hits the record path made so far.
 * The conditions tell the thread, which never calls them. */
void snapshot_thread_slot_armed(unsigned slot, uint32_t serial,
                                const char *text) RECORDER_HIDDEN;

/* Slot 'slot' was disarmed: triggers still flagged are not taken. */
void snapshot_thread_slot_disarmed(unsigned slot) RECORDER_HIDDEN;

/* Snapshots taken and triggers suppressed for slot 'slot'. */
void snapshot_thread_counts(unsigned slot, uint64_t *taken,
                            uint64_t *suppressed) RECORDER_HIDDEN;

/* ---- snapshot_file.c -------------------------------------------------- */

/* Fix the directory snapshots go to, from this process's environment,
 * once: RECORDER_SNAPSHOT_DIR, else $XDG_RUNTIME_DIR, else the segment's
 * directory. */
void snapshot_file_fix_directory(void) RECORDER_HIDDEN;

/* Write one snapshot: what the rings hold up to 'until_ns' after the
 * clock's start, for condition 'text' that fired at 'at_ns'. True if a
 * file was written (its final name in path[size]). A failure says one
 * line on stderr per kind of failure, for the run. */
bool snapshot_file_write(const char *text, uint64_t at_ns, uint64_t until_ns,
                         snapshot_format format, char *path, size_t size)
    RECORDER_HIDDEN;

/* ---- snapshot_text.c -------------------------------------------------- */

/* The text dump of every recorder's records up to 'until_ns', oldest
 * first, to file descriptor 'fd', without moving where dumps start.
 * False if a write failed (errno says why). */
bool snapshot_text_write(int fd, const char *header, uint64_t until_ns)
    RECORDER_HIDDEN;

/* ---- snapshot_share.c ------------------------------------------------- */

/* Publish slot 'slot' (its text, counts) in the segment, if sharing. */
void snapshot_share_slot(unsigned slot, const snapshot_slot_view *view,
                         uint64_t taken, uint64_t suppressed)
    RECORDER_HIDDEN;

/* Publish a snapshot written at 'at_ns' for slot 'slot'. */
void snapshot_share_event(unsigned slot, uint64_t at_ns) RECORDER_HIDDEN;

#endif /* RECORDER_SNAPSHOT_PRIVATE_H */
