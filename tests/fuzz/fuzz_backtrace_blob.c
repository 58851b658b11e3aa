/* fuzz_backtrace_blob.c - the parser of backtrace blobs received from
 * other processes, and everything done with what it accepts. */
#include "fuzz_common.h"
#include "recorder_backtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char error[256];
    recorder_backtrace *parsed = recorder_backtrace_parse((const char *) data,
                                                          size, error,
                                                          sizeof(error));
    if (parsed)
    {
        /* What is accepted must print, re-serialise and parse again. */
        FILE *null = fopen("/dev/null", "w");
        recorder_backtrace_print(parsed, null);
        fclose(null);
        size_t length;
        char *text = recorder_backtrace_text(parsed, &length);
        if (text)
        {
            recorder_backtrace *again = recorder_backtrace_parse(text, length,
                                                                 error,
                                                                 sizeof(error));
            if (!again)
                abort();                /* our own output must be accepted */
            recorder_backtrace_delete(again);
            free(text);
        }
        for (unsigned f = 0; f < recorder_backtrace_count(parsed); f++)
        {
            recorder_backtrace_frame frame;
            recorder_backtrace_frame_info(parsed, f, &frame);
        }
        recorder_backtrace_delete(parsed);
    }
    /* Attach to a chain of our own: parsed from a capture made once, since
     * capturing (and symbolizing) on every input would be slow. */
    static char *local_text;
    static size_t local_length;
    if (!local_text)
    {
        recorder_backtrace *local = recorder_backtrace_capture(0);
        local_text = recorder_backtrace_text(local, &local_length);
        recorder_backtrace_delete(local);
    }
    recorder_backtrace *chain = recorder_backtrace_parse(local_text,
                                                         local_length, error,
                                                         sizeof(error));
    if (chain)
    {
        recorder_backtrace_attach(chain, (const char *) data, size, error,
                                  sizeof(error));
        recorder_backtrace_delete(chain);
    }
    return 0;
}
