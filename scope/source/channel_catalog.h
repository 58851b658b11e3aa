/* channel_catalog.h - what the picker offers: the channels and recorders
 * of a segment, as recorder_scope -l lists them, and the command that
 * exports a recorder's arguments as new channels.
 *
 * Plain C. Everything comes from the segment, so it is untrusted: names
 * are copies (the share API terminates them), shown through GTK labels,
 * never a terminal.
 */
#ifndef SCOPE_CHANNEL_CATALOG_H
#define SCOPE_CHANNEL_CATALOG_H

#include <recorder/recorder_share.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct scope_catalog_channel
{
    char     name[64];
    char     unit[32];                  /* "" when not known yet */
    char     recorder[64];              /* "" when not known */
    unsigned argument;
} scope_catalog_channel;

typedef struct scope_catalog_recorder
{
    char     name[64];
    char     description[128];
    char     exported[64 * 4];          /* its channels by argument, as an
                                           export names them: "a,_,b" */
} scope_catalog_recorder;

typedef struct scope_catalog
{
    scope_catalog_channel * channels;   /* active ones, in segment order */
    unsigned                channel_count;
    scope_catalog_recorder *recorders;
    unsigned                recorder_count;
    char                    no_recorders[256]; /* why there are none, or "" */
} scope_catalog;

/* Read what 'share' holds now. False if out of memory (the catalog then
 * holds what fitted). */
bool scope_catalog_read(scope_catalog *catalog, recorder_share *share);
void scope_catalog_free(scope_catalog *catalog);

/* "RECORDER=NAMES", the RECORDER_TRACES item exporting the arguments of
 * 'recorder' as the comma-separated channel 'names' ("_" or nothing skips
 * an argument), checked as the program checks it: letters, digits, '_',
 * '.', '-', not starting with a digit, at most RECORDER_MAX_ARGS names.
 * Spaces around names are dropped. False with the reason in error[size]. */
bool scope_export_command(const char *recorder, const char *names,
                          char *buf, size_t size, char *error,
                          size_t error_size);

#endif /* SCOPE_CHANNEL_CATALOG_H */
