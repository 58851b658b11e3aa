/* snapshot_settings.c - snapshot_post=, snapshot_holdoff=, snapshot_max=
 * and snapshot_format=: how snapshots are taken, for every condition. */
#include "snapshot/snapshot_private.h"
#include "trace/trace_spec_private.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds: a day of delay or hold-off, a million files. */
#define MOST_MS         (24ull * 3600 * 1000)
#define MOST_SNAPSHOTS  1000000ull

static uint64_t post_ms = 100, holdoff_ms = 1000, most = 10;
static uint32_t format = SNAPSHOT_TEXT;

snapshot_settings snapshot_settings_now(void)
{
    return (snapshot_settings) {
        .post_ms = __atomic_load_n(&post_ms, __ATOMIC_RELAXED),
        .holdoff_ms = __atomic_load_n(&holdoff_ms, __ATOMIC_RELAXED),
        .max = __atomic_load_n(&most, __ATOMIC_RELAXED),
        .format = (snapshot_format) __atomic_load_n(&format,
                                                    __ATOMIC_RELAXED),
    };
}

/* A decimal count from 0 to 'limit'. */
static bool parse_count(const char *text, uint64_t limit, uint64_t *value)
{
    if (!text || !isdigit((unsigned char) *text))
        return false;
    char *end;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    if (*end || errno || number > limit)
        return false;
    *value = number;
    return true;
}

static int set_count(uint64_t *setting, const char *name, const char *value,
                     uint64_t limit, const char *unit, char *why, size_t size)
{
    uint64_t number;
    if (!parse_count(value, limit, &number))
    {
        snprintf(why, size, "%s needs %s from 0 to %llu, not '%.40s'", name,
                 unit, (unsigned long long) limit, value ? value : "");
        return RECORDER_TRACE_INVALID_VALUE;
    }
    __atomic_store_n(setting, number, __ATOMIC_RELAXED);
    return RECORDER_TRACE_OK;
}

static const char *const format_names[] = {
    [SNAPSHOT_TEXT] = "text", [SNAPSHOT_CHROME] = "chrome",
    [SNAPSHOT_CTF] = "ctf",
};

int snapshot_settings_item(const char *name, const char *value, char *why,
                           size_t size)
{
    if (strcmp(name, "snapshot_post") == 0)
        return set_count(&post_ms, name, value, MOST_MS, "milliseconds", why,
                         size);
    if (strcmp(name, "snapshot_holdoff") == 0)
        return set_count(&holdoff_ms, name, value, MOST_MS, "milliseconds",
                         why, size);
    if (strcmp(name, "snapshot_max") == 0)
        return set_count(&most, name, value, MOST_SNAPSHOTS, "a count", why,
                         size);
    if (strcmp(name, "snapshot_format") != 0)
        return -1;
    for (unsigned f = 0; f < sizeof(format_names) / sizeof(*format_names);
         f++)
        if (value && strcmp(value, format_names[f]) == 0)
        {
            __atomic_store_n(&format, f, __ATOMIC_RELAXED);
            return RECORDER_TRACE_OK;
        }
    snprintf(why, size, "snapshot_format is text, chrome or ctf, not '%.40s'",
             value ? value : "");
    return RECORDER_TRACE_INVALID_VALUE;
}
