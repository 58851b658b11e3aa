/* recorder_scope.c - look at a recording program through its segment:
 * text modes (-L, -l, -D, -c), a headless capture, the metrics endpoint,
 * or the graph window (another program, which links GTK: this one does
 * not). */
#include "capture/headless.h"
#include "cli/dump_formats.h"
#include "cli/scope_text.h"
#include "cli/window_launch.h"
#include "common/scope_message.h"
#include "draw/cairo_process.h"
#include "metrics/metrics_run.h"
#include "options/scope_options.h"
#include "source/segment_list.h"

#include <stdio.h>
#include <stdlib.h>

/* Fontconfig (under cairo's text) keeps what it loads until exit, on
 * purpose; under LeakSanitizer (make check-asan) that is not our leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

/* -L: the segments a pattern (or -S, or the default places) finds. */
static int run_list_segments(const scope_options *options)
{
    const char *patterns[SCOPE_MAX_ITEMS + 4];
    unsigned count = 0;
    if (options->list_pattern)
        patterns[count++] = options->list_pattern;
    for (unsigned p = 0; p < options->share_path_count; p++)
        patterns[count++] = options->share_paths[p];
    if (!count)
        count = scope_segment_default_patterns(patterns, 4);
    scope_segment_set set;
    if (!scope_segment_set_expand(&set, patterns, count, false))
        return 1;
    int status = scope_segment_table(&set, options->open_flags, stdout);
    scope_segment_set_free(&set);
    if (scope_finish_output(stdout) && !status)
        status = 1;
    return status;
}

/* Commands go to one segment, or with several to each running one: a
 * dead process takes none, and is only noted. */
static int send_commands(const scope_options *options,
                         recorder_share *const *shares, unsigned count,
                         bool several)
{
    if (!several)
    {
        int status = 0;
        for (unsigned c = 0; c < options->command_count && !status; c++)
            status = scope_send(shares[0], options->commands[c]);
        return status;
    }
    int status = 0;
    unsigned running = 0;
    for (unsigned s = 0; s < count; s++)
    {
        char name[SCOPE_PROCESS_NAME_MAX];
        scope_process_name(shares[s], name, sizeof(name));
        recorder_share_status state = recorder_share_state(shares[s]);
        if (state != RECORDER_SHARE_ALIVE)
        {
            scope_message("%s %s: no command sent", name,
                          recorder_share_state_name(state));
            continue;
        }
        running++;
        for (unsigned c = 0; c < options->command_count; c++)
        {
            char error[512];
            if (!recorder_share_send(shares[s], options->commands[c], 2000,
                                     error, sizeof(error)))
            {
                scope_message("%s: %s", name, error);
                status = 1;
                break;
            }
        }
    }
    if (!running)
    {
        scope_message("no running process to send to");
        status = 1;
    }
    return status;
}

/* Text modes: list, dump, send commands; no graph. Each -S is a path or
 * a pattern; with several segments, -l lists each in turn, -D merges. */
static int run_text(const scope_options *options)
{
    const char *fallback = recorder_share_default_path();
    scope_segment_set set;
    if (!scope_segment_set_expand(&set, options->share_path_count
                                        ? options->share_paths : &fallback,
                                  options->share_path_count
                                  ? options->share_path_count : 1, true))
        return 1;
    int status = set.empty_patterns ? 1 : 0;
    recorder_share **shares = calloc(set.count ? set.count : 1,
                                     sizeof(*shares));
    const char **paths = calloc(set.count ? set.count : 1, sizeof(*paths));
    if (!paths)
    {
        free(shares);
        shares = NULL;
    }
    unsigned open = 0;
    for (unsigned s = 0; shares && s < set.count; s++)
    {
        char error[512];
        shares[open] = recorder_share_open_flags(set.paths[s],
                                                 options->open_flags, error,
                                                 sizeof(error));
        if (shares[open])
        {
            paths[open++] = set.paths[s];
            continue;
        }
        scope_message("%s", error);
        status = 1;
    }
    if (!shares)
        scope_message("out of memory");
    if (!open)
    {
        free(shares);
        free(paths);
        scope_segment_set_free(&set);
        return 1;
    }
    /* One -S naming one file prints what it always printed. */
    bool several = set.several;
    int result = 0;
    if (options->command_count)
        result = send_commands(options, shares, open, several);
    for (unsigned s = 0; !result && options->list && s < open; s++)
    {
        if (s)
            fputc('\n', stdout);
        result = scope_list(shares[s], paths[s], stdout);
    }
    if (!result && options->dump && options->dump_format != SCOPE_DUMP_TEXT)
        result = scope_dump_as(options, shares, open);
    else if (!result && options->dump)
        result = several ? scope_dump_merged(shares, open,
                                             options->dump_regex, stdout)
                         : scope_dump(shares[0], options->dump_regex, stdout);
    for (unsigned s = 0; s < open; s++)
        recorder_share_close(shares[s]);
    free(shares);
    free(paths);
    scope_segment_set_free(&set);
    if (result)
        status = result;
    /* A listing or dump that did not reach its file is a failure. */
    if (scope_finish_output(stdout) && !status)
        status = 1;
    return status;
}

int main(int argc, char **argv)
{
    cairo_process_tune_malloc();
    scope_options options;
    scope_parse parsed = scope_options_parse(argc, argv, &options);
    if (parsed != SCOPE_PARSE_RUN)
        return scope_parse_exit_status(parsed);
    if (options.list_segments)
        return run_list_segments(&options);
    if (options.list || options.dump)
        return run_text(&options);
    if (options.metrics)
        return scope_metrics_run(&options);
    if (options.headless)
        return scope_headless_run(&options);
    if (options.command_count && !options.channel_count && !options.pick &&
        !options.event_count)
        return run_text(&options);
    return scope_window_launch(argv);
}
