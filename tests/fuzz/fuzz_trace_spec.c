/* fuzz_trace_spec.c - recorder_trace_set() on arbitrary text.
 *
 * Items are applied one at a time, as recorder_trace_set() would cut
 * them, so that each is held to the cost bound of fuzz_common.h. */
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
    for (char *item = spec; *item;)
    {
        size_t length = strcspn(item, ": \t\n");
        char *next = item + length;
        if (*next)
            *next++ = 0;
        fuzz_cost cost;
        fuzz_cost_start(&cost);
        recorder_trace_set(item);
        fuzz_cost_check(&cost, "specification item", item, length);
        item = next;
    }
    free(spec);
    record(fuzz_target, "after %zu bytes", size);
    return 0;
}
