/* recorder_scope.c - look at a recording program through its segment:
 * text modes (-l, -D, -c), the graph window, or a headless capture. */
#include "headless.h"
#include "scope_app.h"
#include "scope_options.h"
#include "scope_text.h"

#include <malloc.h>
#include <stdio.h>

/* Fontconfig (under cairo's text) keeps what it loads until exit, on
 * purpose; under LeakSanitizer (make check-asan) that is not our leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

/* Text modes: list, dump, send commands; no graph. */
static int run_text(const scope_options *options)
{
    const char *path = options->share_path ? options->share_path
                                           : recorder_share_default_path();
    char error[512];
    recorder_share *share = recorder_share_open_flags(path, options->open_flags,
                                                      error, sizeof(error));
    if (!share)
    {
        fprintf(stderr, "recorder_scope: %s\n", error);
        return 1;
    }
    int status = 0;
    for (unsigned c = 0; c < options->command_count && !status; c++)
        status = scope_send(share, options->commands[c]);
    if (!status && options->list)
        status = scope_list(share, path, stdout);
    if (!status && options->dump)
        status = scope_dump(share, options->dump_regex, stdout);
    recorder_share_close(share);
    /* A listing or dump that did not reach its file is a failure. */
    if (scope_finish_output(stdout) && !status)
        status = 1;
    return status;
}

int main(int argc, char **argv)
{
    /* Cairo 1.16's antialiased strokes make glibc shrink and regrow the
     * heap every frame (dozens of brk calls). Raising both thresholds made
     * offscreen drawing about 3x faster; raising only one made it slower. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);

    scope_options options;
    switch (scope_options_parse(argc, argv, &options))
    {
    case SCOPE_PARSE_EXIT_OK:    return 0;
    case SCOPE_PARSE_EXIT_USAGE: return 2;
    case SCOPE_PARSE_RUN:        break;
    }
    if (options.list || options.dump)
        return run_text(&options);
    if (options.headless)
        return scope_headless_run(&options);
    if (options.command_count && !options.channel_count && !options.pick &&
        !options.event_count)
        return run_text(&options);
    return scope_app_run(&options, argv[0]);
}
