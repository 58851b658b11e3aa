/* compat_append.c - recorder 1.2's recorder_append functions.
 *
 * They take a format and a function name at run time: the record goes to
 * the site compat_sites.c keeps for the pair, through the record path
 * itself, so it is dumped, traced and shared like any other.
 */
#include "record/compat_sites_private.h"
#include "record/record_private.h"

uintptr_t recorder_order;

/* The recorder_append family: 1.2 stored 4, 8 or 12 words whatever the
 * format used, so as many arguments are recorded. */
static ringidx_t record_words(recorder_info *rec, const char *where,
                              const char *format, bool fast, unsigned count,
                              const uintptr_t *words)
{
    if (rec->trace == -1)
        return 0;                       /* off, as record() would be */
    uint64_t args[RECORDER_MAX_ARGS] = { 0 };
    for (unsigned a = 0; a < count; a++)
        args[a] = words[a];
    __atomic_fetch_add(&recorder_order, 1, __ATOMIC_RELAXED);
    return (ringidx_t) recorder_write_indexed(
        rec, recorder_compat_site(format, where), fast, count, args);
}

ringidx_t recorder_append(recorder_info *rec, const char *where,
                          const char *format, uintptr_t a0, uintptr_t a1,
                          uintptr_t a2, uintptr_t a3)
{
    const uintptr_t words[] = { a0, a1, a2, a3 };
    return record_words(rec, where, format, false, 4, words);
}

ringidx_t recorder_append2(recorder_info *rec, const char *where,
                           const char *format, uintptr_t a0, uintptr_t a1,
                           uintptr_t a2, uintptr_t a3, uintptr_t a4,
                           uintptr_t a5, uintptr_t a6, uintptr_t a7)
{
    const uintptr_t words[] = { a0, a1, a2, a3, a4, a5, a6, a7 };
    return record_words(rec, where, format, false, 8, words);
}

ringidx_t recorder_append3(recorder_info *rec, const char *where,
                           const char *format, uintptr_t a0, uintptr_t a1,
                           uintptr_t a2, uintptr_t a3, uintptr_t a4,
                           uintptr_t a5, uintptr_t a6, uintptr_t a7,
                           uintptr_t a8, uintptr_t a9, uintptr_t a10,
                           uintptr_t a11)
{
    const uintptr_t words[] = { a0, a1, a2, a3, a4, a5,
                                a6, a7, a8, a9, a10, a11 };
    return record_words(rec, where, format, false, 12, words);
}

ringidx_t recorder_append_fast(recorder_info *rec, const char *where,
                               const char *format, uintptr_t a0,
                               uintptr_t a1, uintptr_t a2, uintptr_t a3)
{
    const uintptr_t words[] = { a0, a1, a2, a3 };
    return record_words(rec, where, format, true, 4, words);
}

ringidx_t recorder_append_fast2(recorder_info *rec, const char *where,
                                const char *format, uintptr_t a0,
                                uintptr_t a1, uintptr_t a2, uintptr_t a3,
                                uintptr_t a4, uintptr_t a5, uintptr_t a6,
                                uintptr_t a7)
{
    const uintptr_t words[] = { a0, a1, a2, a3, a4, a5, a6, a7 };
    return record_words(rec, where, format, true, 8, words);
}

ringidx_t recorder_append_fast3(recorder_info *rec, const char *where,
                                const char *format, uintptr_t a0,
                                uintptr_t a1, uintptr_t a2, uintptr_t a3,
                                uintptr_t a4, uintptr_t a5, uintptr_t a6,
                                uintptr_t a7, uintptr_t a8, uintptr_t a9,
                                uintptr_t a10, uintptr_t a11)
{
    const uintptr_t words[] = { a0, a1, a2, a3, a4, a5,
                                a6, a7, a8, a9, a10, a11 };
    return record_words(rec, where, format, true, 12, words);
}
