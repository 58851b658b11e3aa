/* scope_options.c - parse recorder_scope's command line: each word is a
 * channel regex or an option of the table (option_table.c), whose row
 * reads it; the options that go together or not are checked at the end. */
#include "options/scope_options.h"
#include "options/scope_options_private.h"
#include "view/graph_model.h"

#include <recorder/recorder_regex.h>
#include <recorder/recorder_share.h>

#include <limits.h>
#include <regex.h>
#include <string.h>

/* The same screen as the library's, which will compile it again. */
bool option_regex_ok(const char *pattern, char *why, size_t size)
{
    regex_t regex;
    if (!recorder_regex_compile(&regex, pattern, NULL, why, size))
        return false;
    regfree(&regex);
    return true;
}

static scope_parse add_channel(scope_options *options, const char *regex)
{
    if (options->channel_count == SCOPE_MAX_ITEMS)
        return option_usage_error("too many channel regexes (at '%s')", regex);
    char why[256];
    if (!option_regex_ok(regex, why, sizeof(why)))
        return option_value_error("channel regex", regex, why);
    options->channel_views[options->channel_count] = options->views;
    options->channels[options->channel_count++] = regex;
    return SCOPE_PARSE_RUN;
}

static void set_defaults(scope_options *options)
{
    memset(options, 0, sizeof(*options));
    options->views = SCOPE_VIEW_NORMAL;
    options->duration = SCOPE_DEFAULT_DURATION;
    options->max_samples = -1;
    options->ratio = SCOPE_DEFAULT_RATIO / 100.0;
    options->basename = SCOPE_DEFAULT_BASENAME;
    options->capture_seconds = -1;
    options->trigger_mode = SCOPE_TRIGGER_AUTO;
    options->trigger_pre = SCOPE_TRIGGER_DEFAULT_PRE / 100;
}

/* The option at argv[*a], and its value: the next word (*a moves on to
 * it) or what follows '=' in --name=VALUE. Short options are one letter
 * each: -tm is no -t -m, and -d5 no -d 5. */
static scope_parse take_option(option_state *state, int argc, char **argv,
                               int *a)
{
    const char *arg = argv[*a];
    const char *value = NULL;
    const scope_option *option;
    if (arg[1] == '-')
    {
        size_t length = strcspn(arg, "=");
        option = scope_option_long(arg, length);
        if (option && arg[length])
            value = arg + length + 1;
    }
    else
    {
        option = scope_option_short(arg);
    }
    if (!option)
        return option_usage_error("unknown option '%s'", arg);

    if (option->value == OPTION_NO_VALUE && value)
        return option_usage_error("option '%s' takes no argument",
                                  option->long_name);
    if (option->value == OPTION_VALUE && !value)
    {
        if (*a + 1 >= argc)
            return option_usage_error("option %s needs an argument", arg);
        value = argv[++*a];
    }
    /* An optional value (-L, -D) is the next word unless that is an option. */
    if (option->value == OPTION_OPTIONAL_VALUE && !value &&
        *a + 1 < argc && argv[*a + 1][0] != '-')
        value = argv[++*a];
    return option->handle(state, option, value);
}

/* Options that need another, or exclude one: said once the whole line is
 * read, in this order. */
static scope_parse check_together(option_state *state)
{
    scope_options *options = state->options;
    /* A view bounds a capture by itself: --duration is then a timeout. */
    if (options->headless && options->capture_seconds < 0 &&
        !options->view.set)
        return option_usage_error("%s needs --duration SECONDS or --view "
                                  "FROM:TO",
                                  options->png_path ? "--png" : "--csv");
    if (!options->headless && options->capture_seconds >= 0)
        return option_usage_error("%s needs --png FILE or --csv FILE",
                                  "--duration");
    if ((options->open_flags & RECORDER_SHARE_ANY_OWNER) &&
        options->command_count)
        return option_usage_error("%s reads another user's segment as data "
                                  "only: not with -c", "--any-owner");
    if (options->has_trigger && options->view.set)
        return option_usage_error("%s: the trigger and --view both choose "
                                  "the span; give one", "--view");
    if ((state->trigger_mode_given || state->pre_given) &&
        !options->has_trigger)
        return option_usage_error("%s needs --trigger CHANNEL>LEVEL",
                                  state->trigger_mode_given
                                  ? "--trigger-mode" : "--pre");
    if (options->pick && (options->headless || options->list ||
                          options->dump))
        return option_usage_error("--pick opens the window: not with %s",
                                  options->headless ? "--png or --csv"
                                  : options->list ? "-l" : "-D");
    if (state->fps_given &&
        (options->headless || options->list || options->dump ||
         options->list_segments || options->metrics))
        return option_usage_error("--fps paces the window's frames: not "
                                  "with %s",
                                  options->headless ? "--png or --csv"
                                  : options->list ? "-l"
                                  : options->dump ? "-D"
                                  : options->list_segments ? "-L"
                                  : "--metrics");
    if (state->format_given && !options->dump)
        return option_usage_error("%s chooses what -D writes: give -D",
                                  "--format");
    if (options->dump_format == SCOPE_DUMP_CHROME_JSON && options->list)
        return option_usage_error("%s writes JSON on standard output: not "
                                  "with -l", "--format chrome-json");
    if (options->output_dir && options->dump_format != SCOPE_DUMP_CTF)
        return option_usage_error("%s is where --format ctf writes its "
                                  "trace: not without it", "--output");
    if (options->dump_format == SCOPE_DUMP_CTF && !options->output_dir)
        return option_usage_error("%s needs --output DIR", "--format ctf");
    if (options->list_segments && options->channel_count)
        return option_usage_error("-L takes one PATTERN, right after it (or "
                                  "-S PATTERN): '%s' is not one",
                                  options->channels[0]);
    if (options->list_segments &&
        (options->list || options->dump || options->command_count ||
         options->headless || options->pick))
        return option_usage_error("-L lists the segments and exits: not "
                                  "with %s",
                                  options->list ? "-l"
                                  : options->dump ? "-D"
                                  : options->command_count ? "-c"
                                  : options->pick ? "--pick"
                                  : "--png or --csv");
    if (options->metrics &&
        (options->headless || options->list || options->dump ||
         options->list_segments || options->pick || options->trace_view ||
         options->has_trigger || options->view.set || options->event_count ||
         options->slider_count))
        return option_usage_error("--metrics serves the channels, without a "
                                  "window or a capture: not with %s",
                                  options->headless ? "--png or --csv"
                                  : options->list ? "-l"
                                  : options->dump ? "-D"
                                  : options->list_segments ? "-L"
                                  : options->pick ? "--pick"
                                  : options->trace_view ? "--trace-view"
                                  : options->has_trigger ? "--trigger"
                                  : options->view.set ? "--view"
                                  : options->event_count ? "-e" : "-s");
    /* A capture of N seconds shows those N seconds, not the default span
     * half empty. */
    if (options->headless && !state->span_given &&
        options->capture_seconds > 0)
        options->duration = options->capture_seconds;
    return SCOPE_PARSE_RUN;
}

scope_parse scope_options_parse(int argc, char **argv, scope_options *options)
{
    option_state state = { .options = options };
    bool only_channels = false;
    set_defaults(options);
    for (int a = 1; a < argc; a++)
    {
        const char *arg = argv[a];
        scope_parse result;
        if (only_channels || arg[0] != '-' || !arg[1])
        {
            result = add_channel(options, arg);
        }
        else if (strcmp(arg, "--") == 0)
        {
            only_channels = true;
            continue;
        }
        else
        {
            result = take_option(&state, argc, argv, &a);
        }
        if (result != SCOPE_PARSE_RUN)
            return result;
    }
    return check_together(&state);
}

static long round_up(long value)
{
    long step = 1;
    while (step <= LONG_MAX / 10)
    {
        if (value <= step)
            return step;
        if (value <= 2 * step)
            return 2 * step;
        if (value <= 5 * step)
            return 5 * step;
        step *= 10;
    }
    return LONG_MAX;
}

void scope_slider_range(long value, long *min, long *max)
{
    if (value == 0)
    {
        *min = 0;
        *max = 100;
        return;
    }
    long magnitude = value < 0 ? (value == LONG_MIN ? LONG_MAX : -value) : value;
    long limit = round_up(magnitude > LONG_MAX / 2 ? LONG_MAX : 2 * magnitude);
    *min = value < 0 ? -limit : 0;
    *max = limit;
}
