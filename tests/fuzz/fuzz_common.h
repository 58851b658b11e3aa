/* fuzz_common.h - what every fuzz target shares. Each target defines
 * LLVMFuzzerTestOneInput; with libFuzzer (make fuzz) it is driven by
 * clang's fuzzer, in make check by replay_main.c over the seeds and the
 * regression inputs of earlier crashes. */
#ifndef RECORDER_FUZZ_COMMON_H
#define RECORDER_FUZZ_COMMON_H

#include "recorder.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Recorder output goes nowhere: dumps and help are exercised, not shown. */
static unsigned fuzz_discard(const char *text, size_t len, void *arg)
{
    (void) text;
    (void) arg;
    return (unsigned) len;
}

static inline void fuzz_quiet(void)
{
    recorder_configure_show(fuzz_discard);
}

/* Exports in the inputs create a segment: make it a private one, once. */
static inline void fuzz_private_share(void)
{
    static int done;
    if (done++)
        return;
    static char directory[] = "/tmp/recorder_fuzz_XXXXXX";
    if (!mkdtemp(directory))
        abort();
    char spec[128];
    snprintf(spec, sizeof(spec), "share=%s/segment", directory);
    fuzz_quiet();
    recorder_trace_set(spec);
}

/* Inputs that would make the library create or overwrite files where the
 * fuzzer runs (output=, output_append=, share=) are not run: that is the
 * job of the tests, in temporary directories. */
static inline int fuzz_touches_files(const uint8_t *data, size_t size)
{
    static const char *const words[] = { "output", "share" };
    for (unsigned w = 0; w < 2; w++)
    {
        size_t len = strlen(words[w]);
        for (size_t i = 0; i + len <= size; i++)
            if (memcmp(data + i, words[w], len) == 0)
                return 1;
    }
    return 0;
}

#endif /* RECORDER_FUZZ_COMMON_H */
