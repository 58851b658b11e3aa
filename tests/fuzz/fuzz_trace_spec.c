/* fuzz_trace_spec.c - recorder_trace_set() on arbitrary text. */
#include "fuzz_common.h"

#include <stdlib.h>

RECORDER(fuzz_target, 16, "A recorder for specifications to hit");
RECORDER_TWEAK_DEFINE(fuzz_tweak, 1, "A tweak for specifications to hit");

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096 || fuzz_touches_files(data, size))
        return 0;
    fuzz_private_share();
    fuzz_quiet();
    char *spec = malloc(size + 1);
    memcpy(spec, data, size);
    spec[size] = 0;
    recorder_trace_set(spec);
    free(spec);
    record(fuzz_target, "after %zu bytes", size);
    return 0;
}
