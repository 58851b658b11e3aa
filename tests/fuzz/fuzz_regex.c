/* fuzz_regex.c - the regex screen: whatever it accepts must compile and
 * match names within the cost bound of fuzz_common.h (100 ms, 16 MiB). */
#include "fuzz_common.h"
#include "text/regex_bound_private.h"

static const char *const names[] = {
    "fuzz", "recorder_traces", "net_error", "x", "",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_name",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * RECORDER_REGEX_MAX_LENGTH)
        return 0;
    char *pattern = malloc(size + 1);
    memcpy(pattern, data, size);
    pattern[size] = 0;

    fuzz_cost cost;
    fuzz_cost_start(&cost);
    regex_t regex;
    char why[160];
    if (recorder_regex_compile(&regex, pattern, NULL, why, sizeof(why)))
    {
        for (unsigned n = 0; n < sizeof(names) / sizeof(*names); n++)
            regexec(&regex, names[n], 0, NULL, 0);
        regfree(&regex);
    }
    fuzz_cost_check(&cost, "regular expression", pattern, size);
    free(pattern);
    return 0;
}
