/* compat_sites.c - call sites for records made the recorder 1.2 way.
 *
 * recorder_append() and recorder_trace_entry() receive a format and a
 * function name at run time, where record() has a static call site. The
 * first record of each (format, function) pair claims one of a fixed table
 * of sites, found again by hashing the two pointers: lock-free, no
 * allocation, so recorder_append() keeps the record path's rules.
 *
 * The table is one registered range, so dumps follow its sites even while
 * the rings are shared. A segment copies the table when it is made: a site
 * claimed later shows there with the placeholder format below, which says
 * why its text is missing.
 */
#include "record/compat_sites_private.h"

#include <string.h>

#define COMPAT_SITES    1024            /* a power of two */
#define COMPAT_FILE_MAX 128

enum { FREE, FILLING, READY };

static const char *site_formats[COMPAT_SITES];  /* the keys, as given */
static const char *site_wheres[COMPAT_SITES];
static unsigned site_states[COMPAT_SITES];
static char site_files[COMPAT_SITES][COMPAT_FILE_MAX];

/* Not '<': a format's leading '<', '>' or '=' changes the indentation. */
static const char unclaimed[] =
    "(recorder 1.2 record: its format is not in this segment)";

static recorder_site table_full = {
    "(recorder 1.2 record: more than 1024 formats, this one not kept)",
    "", "", 0, 0
};

/* Valid strings from the start, so a reader that follows a site (even one
 * a forged slot names) never meets a NULL. */
static recorder_site sites[COMPAT_SITES] = {
    [0 ... COMPAT_SITES - 1] = { unclaimed, "", "", 0, 0 }
};

/* Constructors of the program may record before this one runs: that is
 * fine, the sites are only known later to the checks of shared rings. */
__attribute__((constructor)) static void compat_sites_init(void)
{
    recorder_sites_register(sites, sites + COMPAT_SITES);
    recorder_sites_register(&table_full, &table_full + 1);
}

/* 1.2 formats begin with RECORDER_SOURCE_LOCATION, "FILE:LINE:". Split it
 * off: the file into 'file', the line into '*line'; return the format
 * after it, or the whole format if it has no such prefix. */
static const char *split_location(const char *format, char *file,
                                  uint32_t *line)
{
    for (const char *at = format; *at && at - format < COMPAT_FILE_MAX; at++)
    {
        if (*at == ' ' || *at == '%')
            break;                      /* a message, not a file name */
        if (*at != ':' || at == format || at[1] < '0' || at[1] > '9')
            continue;
        uint32_t number = 0;
        const char *digit = at + 1;
        for (; *digit >= '0' && *digit <= '9'; digit++)
            number = number * 10 + (uint32_t) (*digit - '0');
        if (*digit != ':')
            continue;
        memcpy(file, format, (size_t) (at - format));
        file[at - format] = 0;
        *line = number;
        return digit + 1;
    }
    file[0] = 0;
    *line = 0;
    return format;
}

static void fill(unsigned s, const char *format, const char *where)
{
    recorder_site *site = &sites[s];
    uint32_t line;
    const char *message = split_location(format, site_files[s], &line);
    site_formats[s] = format;
    site_wheres[s] = where;
    /* Each pointer is stored whole, after what it points to is written:
     * a reader sees the old string or the new one, never a torn one. */
    __atomic_store_n(&site->line, line, __ATOMIC_RELAXED);
    __atomic_store_n(&site->file, (const char *) site_files[s],
                     __ATOMIC_RELEASE);
    __atomic_store_n(&site->function, where ? where : "", __ATOMIC_RELEASE);
    __atomic_store_n(&site->format, message, __ATOMIC_RELEASE);
}

static unsigned hash(const char *format, const char *where)
{
    uint64_t key = (uint64_t) (uintptr_t) format * 0x9E3779B97F4A7C15ull ^
                   (uint64_t) (uintptr_t) where * 0xC2B2AE3D27D4EB4Full;
    return (unsigned) (key >> 40) & (COMPAT_SITES - 1);
}

const recorder_site *recorder_compat_site(const char *format,
                                          const char *where)
{
    if (!format)
        format = "";
    unsigned s = hash(format, where);
    for (unsigned probes = 0; probes < COMPAT_SITES; )
    {
        unsigned state = __atomic_load_n(&site_states[s], __ATOMIC_ACQUIRE);
        if (state == FREE &&
            __atomic_compare_exchange_n(&site_states[s], &state, FILLING, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        {
            fill(s, format, where);
            __atomic_store_n(&site_states[s], READY, __ATOMIC_RELEASE);
            return &sites[s];
        }
        if (state == FREE)
            continue;                   /* lost the race: look again */
        /* A site being filled may be ours: another one is claimed then,
         * which costs a table entry, not a wait. */
        if (state == READY && site_formats[s] == format &&
            site_wheres[s] == where)
            return &sites[s];
        s = (s + 1) & (COMPAT_SITES - 1);
        probes++;
    }
    return &table_full;
}
