/* ctf_classes_private.h - the event classes of a CTF export: one per
 * call site. */
#ifndef RECORDER_CTF_CLASSES_PRIVATE_H
#define RECORDER_CTF_CLASSES_PRIVATE_H

#include "base/visibility_private.h"

#include "segment/ctf_metadata_private.h"

/* Event classes by (process, site, argument types): the site of a
 * record gives its class; the types are part of the key only because a
 * damaged segment may give one site records of several shapes. */
typedef struct ctf_class_table
{
    ctf_event_class *classes;           /* by id */
    unsigned         count, room;
    unsigned        *slots;             /* hash: id + 1, 0 for free */
    unsigned         slot_count;        /* a power of 2, or 0 */
    unsigned        *process;           /* by id, part of the key */
    uint64_t        *site;              /* by id, part of the key */
} ctf_class_table;

/* Where a site is, to name its class. Any string may be NULL. */
typedef struct ctf_site
{
    unsigned    process;
    uint64_t    site;
    const char *recorder;
    const char *function;
    unsigned    line;
} ctf_site;

/* The id of the class of 'site' with these argument types, added if new
 * (named "RECORDER:FUNCTION:LINE", or "RECORDER:site_ID" for a site
 * without a known place). UINT32_MAX if out of memory. */
extern uint32_t ctf_class_find(ctf_class_table *table, const ctf_site *site,
                               unsigned nargs, const ctf_field_type *types)
    RECORDER_HIDDEN;
extern void ctf_class_table_free(ctf_class_table *table) RECORDER_HIDDEN;

/* Show in base 16 the integer arguments that 'format' prints with %x,
 * %X or %p. Arguments are counted as printf counts them (a '*' width or
 * precision takes one); if that count is not 'nargs', the format does
 * not tell which is which and 'types' stay as they are. */
extern void ctf_class_hex_arguments(const char *format, unsigned nargs,
                                    ctf_field_type *types) RECORDER_HIDDEN;

#endif /* RECORDER_CTF_CLASSES_PRIVATE_H */
