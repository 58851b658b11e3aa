/* mixed_writer.h - a writer whose recorder's records do not all carry
 * every channel it exports, for tests of reading channels together.
 *
 * record_mixed() (a writer_child.h body, sharing at scratch_dir.h's
 * 'path') records MIXED_RECORDS records on 'mixed', exported as channels
 * first, second and third: every seventh record has only the first
 * argument, every third of the others lacks the third. Channel 'other',
 * on a recorder of its own, gets a record every sixth. MIXED_SAMPLES()
 * says how many samples each channel has.
 */
#ifndef RECORDER_TEST_MIXED_WRITER_H
#define RECORDER_TEST_MIXED_WRITER_H

#include "recorder.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MIXED_RECORDS   3000

RECORDER(mixed, 4096, "Records of three, two or one argument");
RECORDER(mixed_other, 1024, "One channel of its own");

static bool mixed_has(const char *channel, int i)
{
    if (!strcmp(channel, "first"))
        return true;
    if (!strcmp(channel, "second"))
        return i % 7 != 0;
    if (!strcmp(channel, "third"))
        return i % 7 != 0 && i % 3 != 0;
    return i % 6 == 0;                  /* other */
}

static size_t mixed_samples(const char *channel)
{
    size_t count = 0;
    for (int i = 0; i < MIXED_RECORDS; i++)
        count += mixed_has(channel, i);
    return count;
}

static void record_mixed(void)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK ||
        recorder_trace_set("mixed=first,second,third") != RECORDER_TRACE_OK ||
        recorder_trace_set("mixed_other=other,") != RECORDER_TRACE_OK)
        _exit(3);
    for (int i = 0; i < MIXED_RECORDS; i++)
    {
        if (!mixed_has("second", i))
            record(mixed, "Only %d", i);
        else if (!mixed_has("third", i))
            record(mixed, "Two %d %d", i, -i);
        else
            record(mixed, "Three %d %d %d", i, -i, 2 * i);
        if (mixed_has("other", i))
            record(mixed_other, "Other %d", i / 6);
    }
}

#endif /* RECORDER_TEST_MIXED_WRITER_H */
