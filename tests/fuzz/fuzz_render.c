/* fuzz_render.c - the dump renderer on arbitrary formats and arguments.
 * Input: 12 argument words, then the format. */
#include "fuzz_common.h"
#include "text/render_private.h"

#include <stdlib.h>
#include <wchar.h>

static size_t custom(intptr_t trace, const char *format, char *buffer,
                     size_t length, uintptr_t data)
{
    (void) trace;
    (void) data;
    size_t len = strlen(format);
    if (len > length)
        len = length;
    memcpy(buffer, format, len);
    return len + 7;                             /* claims too much on purpose */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t args[RECORDER_MAX_ARGS] = { 0 };
    size_t arg_bytes = sizeof(args) < size ? sizeof(args) : size;
    memcpy(args, data, arg_bytes);
    char *format = malloc(size - arg_bytes + 1);
    memcpy(format, data + arg_bytes, size - arg_bytes);
    format[size - arg_bytes] = 0;

    /* %+s and %ls dereference their argument by contract: give them one
     * that is valid, as a program using them must. */
    /* Valid both as a wide string (%ls) and as a narrow one ("w"). */
    static const wchar_t text[] = L"wide text";
    if (strchr(format, 's') && (strchr(format, '+') || strchr(format, 'l')))
        for (unsigned a = 0; a < RECORDER_MAX_ARGS; a++)
            args[a] = (uintptr_t) text;

    static recorder_type_fn types[256];
    types['V'] = custom;
    char out[512];
    for (int safe = 0; safe < 2; safe++)
    {
        recorder_render_options options = {
            .trace = 3, .signal_safe = safe, .types = types
        };
        size_t len = recorder_render(out, sizeof(out), format, args,
                                     size ? data[0] % (RECORDER_MAX_ARGS + 1) : 0,
                                     &options);
        if (len >= sizeof(out) || out[len] != 0)
            abort();                            /* contract broken */
    }
    recorder_render(out, 1, format, args, RECORDER_MAX_ARGS, NULL);
    free(format);
    return 0;
}
