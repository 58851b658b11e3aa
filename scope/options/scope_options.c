/* scope_options.c - parse recorder_scope's command line. */
#include "options/scope_options.h"
#include "view/graph_model.h"
#include "options/metrics_address.h"
#include "regex_bound_private.h"
#include "common/scope_message.h"

#include <recorder/recorder_share.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "Usage: recorder_scope [OPTIONS] [CHANNEL-REGEX...]\n"
    "Look at a program that records with the recorder library, through the\n"
    "segment it shares (RECORDER_TRACES=recorder=chan1,chan2 or share=PATH).\n"
    "Each CHANNEL-REGEX (POSIX extended, matching whole channel names,\n"
    "ignoring case) gets a graph; with none and no -c, one graph shows\n"
    "every channel.\n"
    "\n"
    "  -S PATH        segment to open (default $RECORDER_SHARE, else\n"
    "                 /tmp/recorder_share); repeatable, and PATH may be a\n"
    "                 pattern ('/tmp/recorder_share.*'): -l lists each\n"
    "                 segment, -D merges their records in one time order\n"
    "                 with lines starting PROGRAM[PID], -c goes to each\n"
    "                 running one; the window or a capture shows them on\n"
    "                 one time axis, channels named PROGRAM[PID]/channel (a\n"
    "                 graph regex matches either name), a pattern watched\n"
    "                 for new segments; Ctrl+P or the header's drop-down\n"
    "                 sends commands to one process or all\n"
    "  -L [PATTERN]   list the segments PATTERN (or the -S given) matches,\n"
    "                 one tab-separated line each: path, program, pid,\n"
    "                 host, start, state (live, exited, died, refused,\n"
    "                 unreadable...), owner, channels; by default those of\n"
    "                 $RECORDER_SHARE, /tmp/recorder_share* and\n"
    "                 $XDG_RUNTIME_DIR/recorder_share*\n"
    "  --any-owner    read a segment that another user owns, as data only:\n"
    "                 no file it names is opened, no process memory read,\n"
    "                 no command sent (not with -c)\n"
    "  -c COMMAND     send a trace specification item to the program, e.g.\n"
    "                 -c dump, -c 'net=1', -c 'transfer_delay=200';\n"
    "                 repeatable; exits once answered when no channel and\n"
    "                 no -e is named; commands naming files (output=,\n"
    "                 share=) are refused unless the program has\n"
    "                 RECORDER_COMMANDS_FILES=1\n"
    "  -e REGEX       mark each record of the recorders whose name matches\n"
    "                 REGEX (ignoring case) on the time axis; hovering a\n"
    "                 marker shows its message; repeatable. Restarts of\n"
    "                 the program and commands sent are marked too\n"
    "  -l             list channels, recorders and tweaks\n"
    "  -D [REGEX]     print the program's flight recorder (recorders whose\n"
    "                 name matches REGEX, ignoring case), live or after it\n"
    "                 died\n"
    "  --format text|chrome-json|ctf\n"
    "                 what -D writes: text lines (the default); chrome-json,\n"
    "                 a Chrome trace-event JSON file on standard output that\n"
    "                 the Perfetto UI and chrome://tracing open (records as\n"
    "                 instant events, channels as counters, the crash\n"
    "                 report, every process given by -S in one file); ctf, a\n"
    "                 CTF trace that babeltrace2 reads, in --output DIR\n"
    "  --output DIR   where --format ctf writes its trace: a new or empty\n"
    "                 directory (metadata, and a stream file per process)\n"
    "  -s NAME[=INIT[:MIN:MAX]]\n"
    "                 a slider that sets tweak NAME as it moves; without\n"
    "                 INIT it starts at the tweak's value, without MIN:MAX\n"
    "                 it spans 0 to a round number twice that value\n"
    "  -d SECONDS     time span shown (default 10; 0: all samples kept)\n"
    "  -w SAMPLES     at most SAMPLES samples per channel shown (0: one per\n"
    "                 pixel of the graph width; default no limit)\n"
    "  -t             toggle the timing graph (interval between samples,\n"
    "                 right axis) for the graphs that follow\n"
    "  -m             toggle the min/max envelope for the graphs that follow\n"
    "  -a             toggle the running average for the graphs that follow\n"
    "  -n             toggle the normal values for the graphs that follow\n"
    "  -r PERCENT     averaging ratio for -a and -m, 0 < PERCENT < 100\n"
    "                 (default 99: each sample weighs 1%)\n"
    "  -b BASENAME    prefix of saved files (default recorder_scope_data-):\n"
    "                 BASENAME1.png, BASENAME2.csv...\n"
    "  -g WxH[@XxY]   window size, and position where the display allows\n"
    "  --png FILE     headless capture: collect for --duration seconds (or\n"
    "                 until the --view span is there), then draw the graphs\n"
    "                 into FILE without any display\n"
    "  --csv FILE     headless capture: the values shown, as CSV\n"
    "  --duration SECONDS  how long a headless capture collects; without\n"
    "                 -d, also the span it shows; with --view, a timeout\n"
    "  --view FROM:TO show that span, paused (seconds since the program\n"
    "                 started; negative values count back from the newest\n"
    "                 sample, e.g. --view -5:-1; an empty end is the oldest\n"
    "                 or newest sample); with --png or --csv, capture\n"
    "                 exactly that span\n"
    "  --trigger 'CHANNEL>LEVEL'\n"
    "                 trigger on CHANNEL (a channel shown) rising through\n"
    "                 LEVEL; 'CHANNEL<LEVEL' falling, 'CHANNEL<>LEVEL' either;\n"
    "                 LEVEL takes SI suffixes n u m k M G (2.5k, 10u)\n"
    "  --trigger-mode auto|normal|single\n"
    "                 auto (default): live until a trigger, then its span;\n"
    "                 normal: the last triggered span; single: the first one,\n"
    "                 frozen until re-armed (r); with --png or --csv, single\n"
    "                 waits for the trigger (--duration is the timeout) and\n"
    "                 captures its span\n"
    "  --pre PERCENT  part of the span before the trigger (default 10)\n"

    "  --pick         open the window with the channel picker shown (Insert\n"
    "                 or the header bar's + button opens it later): add\n"
    "                 graphs, add or remove channels, export a recorder's\n"
    "                 arguments as channels, open another segment\n"
    "  --trace-view   print on standard output what the window shows as it\n"
    "                 changes: view, value ranges, hidden channels, cursors,\n"
    "                 the readout, the trigger, markers, graphs and their\n"
    "                 channels, the status line, the theme, the frames each\n"
    "                 graph drew each second (for scripts and tests)\n"
    "  --fps N        at most N frames a second for each graph as data\n"
    "                 flows (it then scrolls by several pixels at once):\n"
    "                 less CPU; what you do (zoom, pan, hover) still draws\n"
    "                 at once. Default 0: a frame whenever the plot has\n"
    "                 moved by a pixel, up to the display's rate\n"
    "  --theme auto|dark|light  colours of the window and the graphs (and\n"
    "                 of the images it saves); auto (the default) follows\n"
    "                 the desktop's light or dark preference, dark when it\n"
    "                 states none; headless captures are dark unless asked\n"
    "  --metrics [ADDR:]PORT  no window: serve the channels (the regexes\n"
    "                 given, else all) of the -S segments as Prometheus\n"
    "                 metrics at http://ADDR:PORT/metrics until SIGINT or\n"
    "                 SIGTERM; ADDR 127.0.0.1 by default, 0.0.0.0 for every\n"
    "                 interface, [::1] for IPv6\n"
    "  -h, --help     this help\n"
    "      --version  version\n"
    "\n"
    "In the window: the mouse wheel zooms time about the pointer (Shift or\n"
    "Ctrl: values), a drag pans, a right-button or Shift drag zooms to a box,\n"
    "a drag on the value axis zooms values, a double-click or Home returns\n"
    "to live, hovering reads values, a right-click places cursor A (Shift:\n"
    "B), a click on a legend entry hides or shows its channel. Keys: p\n"
    "pause, + - zoom time, Left Right pan, Ctrl+ Ctrl- Up Down values, 1 2 0\n"
    "cursors A, B, none, z zoom to the cursors, l lanes or normalised, g log\n"
    "scale, k lock the value range, Alt+1..9 hide a channel; v puts the\n"
    "trigger level at the pointer (on the first channel there if no --trigger),\n"
    "e cycles its edge, o its mode, r re-arms; t a n m toggle\n"
    "timing, average, normal values and min/max in the focused graph; i\n"
    "saves a PNG of it, c a CSV of its values, space both; Escape dismisses\n"
    "the error banner; Insert opens the channel picker; q or Ctrl+Q quits;\n"
    "Ctrl+? lists every key.\n"
    "\n"
    "Where GL is a software rasterizer (llvmpipe: Xvfb, VNC, remote X) the\n"
    "window draws with GTK's cairo renderer, which takes less CPU there;\n"
    "GSK_RENDERER=gl or GSK_RENDERER=cairo chooses.\n"
    "\n"
    "Exit status: 0 on success, 1 if the segment or the program is not\n"
    "usable, a command was rejected (the program's reason is printed) or\n"
    "the output could not be written, 2 for a bad command line.\n";

/* A bad command line: one line that names the problem, and where to read
 * more (as coreutils do), not the whole usage text. The line quotes what
 * was typed: a newline or a terminal escape in it is shown as \xNN, so it
 * stays one line and drives nothing. */
static scope_parse say_bad_line(const char *line)
{
    scope_message("%s", line);
    fputs("Try 'recorder_scope --help' for more information.\n", stderr);
    return SCOPE_PARSE_EXIT_USAGE;
}

static scope_parse usage_error(const char *fmt, const char *what)
{
    char line[1024];
    snprintf(line, sizeof(line), fmt, what);
    return say_bad_line(line);
}

/* A bad value for a known option: which, the value and why. */
static scope_parse value_error(const char *option, const char *value,
                               const char *why)
{
    char line[1024];
    snprintf(line, sizeof(line), "%s '%s': %s", option, value, why);
    return say_bad_line(line);
}

static bool parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(value))
        return false;
    *out = value;
    return true;
}

/* A decimal integer that ends at 'stop' (or at the end of the text). */
static bool parse_integer(const char *text, const char **rest, char stop,
                          long *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == ' ' || *text == '+')
        return false;
    long value = strtol(text, &end, 10);
    if (end == text || errno || (*end && *end != stop) || (!stop && *end))
        return false;
    if (rest)
        *rest = end;
    *out = value;
    return true;
}

static scope_parse parse_geometry(const char *text, scope_options *options)
{
    static const char why[] =
        "expected WxH or WxH@XxY with sizes from 1 to 32767, e.g. 800x600@0x0";
    long w, h, x = 0, y = 0;
    const char *at;
    if (!parse_integer(text, &at, 'x', &w) || *at != 'x' ||
        !parse_integer(at + 1, &at, '@', &h))
        return value_error("-g", text, why);
    bool position = *at == '@';
    if (position &&
        (!parse_integer(at + 1, &at, 'x', &x) || *at != 'x' ||
         !parse_integer(at + 1, NULL, 0, &y)))
        return value_error("-g", text, why);
    if (w < 1 || w > 32767 || h < 1 || h > 32767 ||
        x < -32768 || x > 32767 || y < -32768 || y > 32767)
        return value_error("-g", text, why);
    options->has_size = true;
    options->has_position = position;
    options->width = (int) w;
    options->height = (int) h;
    options->x = (int) x;
    options->y = (int) y;
    return SCOPE_PARSE_RUN;
}

static scope_parse parse_slider(const char *text, scope_slider_spec *slider)
{
    memset(slider, 0, sizeof(*slider));
    size_t length = strcspn(text, "=");
    if (length == 0 || length >= sizeof(slider->name))
        return value_error("-s", text, "expected NAME, NAME=INIT or "
                           "NAME=INIT:MIN:MAX, with a name of 1 to 63 "
                           "characters");
    if (strcspn(text, " \t:,") < length)
        return value_error("-s", text, "a tweak name has no spaces, ':' "
                           "or ','");
    memcpy(slider->name, text, length);
    if (!text[length])
        return SCOPE_PARSE_RUN;

    const char *value = text + length + 1;
    const char *rest;
    static const char integers[] =
        "expected NAME=INIT or NAME=INIT:MIN:MAX with integers, "
        "e.g. transfer_delay=1000:0:5000";
    if (!parse_integer(value, &rest, ':', &slider->value))
        return value_error("-s", text, integers);
    slider->has_value = true;
    if (!*rest)
        return SCOPE_PARSE_RUN;
    if (!parse_integer(rest + 1, &rest, ':', &slider->min) || *rest != ':' ||
        !parse_integer(rest + 1, NULL, 0, &slider->max))
        return value_error("-s", text, integers);
    if (slider->min >= slider->max)
        return value_error("-s", text, "MIN must be below MAX");
    if (slider->value < slider->min || slider->value > slider->max)
        return value_error("-s", text, "INIT must be between MIN and MAX");
    slider->has_range = true;
    return SCOPE_PARSE_RUN;
}

/* The same screen as the library's, which will compile it again. */
static bool regex_ok(const char *pattern, char *why, size_t size)
{
    regex_t regex;
    if (!recorder_regex_compile(&regex, pattern, NULL, why, size))
        return false;
    regfree(&regex);
    return true;
}

/* --name VALUE or --name=VALUE; NULL if 'arg' is not that option. */
static const char *long_value(int argc, char **argv, int *a, const char *name,
                              bool *missing)
{
    const char *arg = argv[*a];
    size_t length = strlen(name);
    if (strncmp(arg, name, length) != 0)
        return NULL;
    if (arg[length] == '=')
        return arg + length + 1;
    if (arg[length])
        return NULL;
    if (*a + 1 >= argc)
    {
        *missing = true;
        return NULL;
    }
    return argv[++*a];
}

/* --pick=yes and the like: an option known, but one without a value. */
static bool flag_with_value(const char *arg)
{
    static const char *const flags[] = {
        "--any-owner", "--pick", "--trace-view", "--help", "--version"
    };
    size_t length = strcspn(arg, "=");
    if (!arg[length])
        return false;
    for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
        if (strlen(flags[f]) == length && strncmp(arg, flags[f], length) == 0)
            return true;
    return false;
}

static scope_parse add_channel(scope_options *options, const char *regex)
{
    if (options->channel_count == SCOPE_MAX_ITEMS)
        return usage_error("too many channel regexes (at '%s')", regex);
    char why[256];
    if (!regex_ok(regex, why, sizeof(why)))
        return value_error("channel regex", regex, why);
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

scope_parse scope_options_parse(int argc, char **argv, scope_options *options)
{
    set_defaults(options);
    bool only_channels = false, span_given = false;
    unsigned trigger_options = 0;       /* --trigger-mode 2, --pre 4 */
    bool format_given = false, fps_given = false;
    for (int a = 1; a < argc; a++)
    {
        const char *arg = argv[a];
        if (only_channels || arg[0] != '-' || !arg[1])
        {
            if (add_channel(options, arg))
                return SCOPE_PARSE_EXIT_USAGE;
            continue;
        }
        if (strcmp(arg, "--") == 0)
        {
            only_channels = true;
            continue;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        {
            fputs(usage_text, stdout);
            return SCOPE_PARSE_EXIT_OK;
        }
        if (strcmp(arg, "--version") == 0)
        {
            printf("recorder_scope 1.3.0\n");
            return SCOPE_PARSE_EXIT_OK;
        }
        if (strcmp(arg, "--any-owner") == 0)
        {
            options->open_flags |= RECORDER_SHARE_ANY_OWNER;
            continue;
        }
        if (strcmp(arg, "--pick") == 0)
        {
            options->pick = true;
            continue;
        }
        if (arg[0] == '-' && arg[1] == '-')
        {
            bool missing = false;
            const char *value;
            if ((value = long_value(argc, argv, &a, "--png", &missing)))
            {
                if (!*value)
                    return value_error("--png", value, "expected a file name");
                options->png_path = value;
                options->headless = true;
                continue;
            }
            if (!missing && (value = long_value(argc, argv, &a, "--csv", &missing)))
            {
                if (!*value)
                    return value_error("--csv", value, "expected a file name");
                options->csv_path = value;
                options->headless = true;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--view", &missing)))
            {
                if (!scope_view_request_parse(value, &options->view))
                    return value_error("--view", value, "expected FROM:TO in "
                                       "seconds, FROM before TO, e.g. 2:5, "
                                       "-10:-2 or -5:");
                continue;
            }
            if (!missing && strcmp(arg, "--trace-view") == 0)
            {
                options->trace_view = true;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--trigger-mode",
                                    &missing)))
            {
                if (!scope_trigger_mode_parse(value, &options->trigger_mode))
                    return value_error("--trigger-mode", value,
                                       "expected auto, normal or single");
                trigger_options |= 2;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--trigger", &missing)))
            {
                char why[256];
                if (!scope_trigger_spec_parse(value, &options->trigger, why,
                                              sizeof(why)))
                    return value_error("--trigger", value, why);
                options->has_trigger = true;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--pre", &missing)))
            {
                /* "20" or "20%" */
                char number[64];
                size_t length = strlen(value);
                if (length && value[length - 1] == '%')
                    length--;
                snprintf(number, sizeof(number), "%.*s", (int) length, value);
                double percent;
                if (!parse_number(number, &percent) || percent < 0 ||
                    percent > 100)
                    return value_error("--pre", value, "expected a "
                                       "percentage of the span, 0 to 100");
                options->trigger_pre = percent / 100;
                trigger_options |= 4;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--duration", &missing)))
            {
                double seconds;
                if (!parse_number(value, &seconds) || seconds < 0 ||
                    seconds > 1e6)
                    return value_error("--duration", value,
                                       "expected seconds, 0 or more");
                options->capture_seconds = seconds;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--format", &missing)))
            {
                if (strcmp(value, "text") == 0)
                    options->dump_format = SCOPE_DUMP_TEXT;
                else if (strcmp(value, "chrome-json") == 0)
                    options->dump_format = SCOPE_DUMP_CHROME_JSON;
                else if (strcmp(value, "ctf") == 0)
                    options->dump_format = SCOPE_DUMP_CTF;
                else
                    return value_error("--format", value,
                                       "expected text, chrome-json or ctf");
                format_given = true;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--output", &missing)))
            {
                if (!*value)
                    return value_error("--output", value,
                                       "expected a directory");
                options->output_dir = value;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--fps", &missing)))
            {
                double fps;
                if (!parse_number(value, &fps) || fps < 0 || fps > 1000)
                    return value_error("--fps", value, "expected frames a "
                                       "second, 0 (no limit) to 1000");
                options->max_fps = fps;
                fps_given = true;
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--theme", &missing)))
            {
                if (!scope_theme_parse(value, &options->theme))
                    return value_error("--theme", value,
                                       "expected auto, dark or light");
                continue;
            }
            if (!missing &&
                (value = long_value(argc, argv, &a, "--metrics", &missing)))
            {
                metrics_address address;
                char why[256];
                if (!metrics_address_parse(value, &address, why, sizeof(why)))
                    return value_error("--metrics", value, why);
                options->metrics = value;
                continue;
            }
            if (missing)
                return usage_error("option %s needs an argument", arg);
            if (flag_with_value(arg))
            {
                char name[32];
                snprintf(name, sizeof(name), "%.*s", (int) strcspn(arg, "="),
                         arg);
                return usage_error("option '%s' takes no argument", name);
            }
            return usage_error("unknown option '%s'", arg);
        }
        if (arg[2])
            return usage_error("unknown option '%s'", arg);

        switch (arg[1])
        {
        case 'l':
            options->list = true;
            continue;
        case 'L':
            options->list_segments = true;
            if (a + 1 < argc && argv[a + 1][0] != '-')
                options->list_pattern = argv[++a];
            continue;
        case 'D':
            options->dump = true;
            if (a + 1 < argc && argv[a + 1][0] != '-')
                options->dump_regex = argv[++a];
            continue;
        case 't':
            options->views ^= SCOPE_VIEW_TIMING;
            continue;
        case 'm':
            options->views ^= SCOPE_VIEW_MINMAX;
            continue;
        case 'a':
            options->views ^= SCOPE_VIEW_AVERAGE;
            continue;
        case 'n':
            options->views ^= SCOPE_VIEW_NORMAL;
            continue;
        case 'S': case 'c': case 's': case 'd': case 'w': case 'r':
        case 'b': case 'g': case 'e':
            break;
        default:
            return usage_error("unknown option '%s'", arg);
        }

        /* Options with a value. */
        if (a + 1 >= argc)
            return usage_error("option %s needs an argument", arg);
        const char *value = argv[++a];
        double number;
        long count;
        switch (arg[1])
        {
        case 'S':
            if (options->share_path_count == SCOPE_MAX_ITEMS)
                return usage_error("too many %s options", arg);
            if (!*value)
                return value_error("-S", value, "expected a segment path");
            if (!options->share_path)
                options->share_path = value;
            options->share_paths[options->share_path_count++] = value;
            break;
        case 'c':
            if (options->command_count == SCOPE_MAX_ITEMS)
                return usage_error("too many %s options", arg);
            if (!*value)
                return usage_error("%s needs a non-empty command", arg);
            options->commands[options->command_count++] = value;
            break;
        case 'e':
        {
            char why[256];
            if (options->event_count == SCOPE_MAX_ITEMS)
                return usage_error("too many %s options", arg);
            if (!regex_ok(value, why, sizeof(why)))
                return value_error("-e", value, why);
            options->events[options->event_count++] = value;
            break;
        }
        case 's':
            if (options->slider_count == SCOPE_MAX_ITEMS)
                return usage_error("too many %s options", arg);
            if (parse_slider(value, &options->sliders[options->slider_count]))
                return SCOPE_PARSE_EXIT_USAGE;
            options->slider_count++;
            break;
        case 'd':
            if (!parse_number(value, &number) || number < 0 || number > 1e7)
                return value_error("-d", value, "expected a time span in "
                                   "seconds, 0 or more (0: all samples)");
            options->duration = number;
            span_given = true;
            break;
        case 'w':
            if (!parse_integer(value, NULL, 0, &count) || count < 0 ||
                count > (1L << 26))
                return value_error("-w", value, "expected a sample count from "
                                   "0 (the window width) to 67108864");
            options->max_samples = count;
            break;
        case 'r':
            if (!parse_number(value, &number) || !(number > 0 && number < 100))
                return value_error("-r", value, "expected a percentage "
                                   "between 0 and 100, both excluded");
            options->ratio = number / 100.0;
            break;
        case 'b':
            if (!*value)
                return value_error("-b", value, "expected a file name prefix");
            options->basename = value;
            break;
        case 'g':
            if (parse_geometry(value, options))
                return SCOPE_PARSE_EXIT_USAGE;
            break;
        }
    }

    /* A view bounds a capture by itself: --duration is then a timeout. */
    if (options->headless && options->capture_seconds < 0 &&
        !options->view.set)
        return usage_error("%s needs --duration SECONDS or --view FROM:TO",
                           options->png_path ? "--png" : "--csv");
    if (!options->headless && options->capture_seconds >= 0)
        return usage_error("%s needs --png FILE or --csv FILE", "--duration");
    if ((options->open_flags & RECORDER_SHARE_ANY_OWNER) &&
        options->command_count)
        return usage_error("%s reads another user's segment as data only: "
                           "not with -c", "--any-owner");
    if (options->has_trigger && options->view.set)
        return usage_error("%s: the trigger and --view both choose the span; "
                           "give one", "--view");
    if (trigger_options && !options->has_trigger)
        return usage_error("%s needs --trigger CHANNEL>LEVEL",
                           trigger_options & 2 ? "--trigger-mode" : "--pre");
    if (options->pick && (options->headless || options->list ||
                          options->dump))
        return usage_error("--pick opens the window: not with %s",
                           options->headless ? "--png or --csv"
                           : options->list ? "-l" : "-D");
    if (fps_given && (options->headless || options->list || options->dump ||
                      options->list_segments || options->metrics))
        return usage_error("--fps paces the window's frames: not with %s",
                           options->headless ? "--png or --csv"
                           : options->list ? "-l" : options->dump ? "-D"
                           : options->list_segments ? "-L" : "--metrics");
    if (format_given && !options->dump)
        return usage_error("%s chooses what -D writes: give -D", "--format");
    if (options->dump_format == SCOPE_DUMP_CHROME_JSON && options->list)
        return usage_error("%s writes JSON on standard output: not with -l",
                           "--format chrome-json");
    if (options->output_dir && options->dump_format != SCOPE_DUMP_CTF)
        return usage_error("%s is where --format ctf writes its trace: not "
                           "without it", "--output");
    if (options->dump_format == SCOPE_DUMP_CTF && !options->output_dir)
        return usage_error("%s needs --output DIR", "--format ctf");
    if (options->list_segments && options->channel_count)
        return usage_error("-L takes one PATTERN, right after it (or -S "
                           "PATTERN): '%s' is not one", options->channels[0]);
    if (options->list_segments &&
        (options->list || options->dump || options->command_count ||
         options->headless || options->pick))
        return usage_error("-L lists the segments and exits: not with %s",
                           options->list ? "-l" : options->dump ? "-D"
                           : options->command_count ? "-c"
                           : options->pick ? "--pick" : "--png or --csv");
    if (options->metrics &&
        (options->headless || options->list || options->dump ||
         options->list_segments || options->pick || options->trace_view ||
         options->has_trigger || options->view.set || options->event_count ||
         options->slider_count))
        return usage_error("--metrics serves the channels, without a window "
                           "or a capture: not with %s",
                           options->headless ? "--png or --csv"
                           : options->list ? "-l" : options->dump ? "-D"
                           : options->list_segments ? "-L"
                           : options->pick ? "--pick"
                           : options->trace_view ? "--trace-view"
                           : options->has_trigger ? "--trigger"
                           : options->view.set ? "--view"
                           : options->event_count ? "-e" : "-s");
    /* A capture of N seconds shows those N seconds, not the default span
     * half empty. */
    if (options->headless && !span_given && options->capture_seconds > 0)
        options->duration = options->capture_seconds;
    return SCOPE_PARSE_RUN;
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
