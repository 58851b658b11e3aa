/* option_table.c - recorder_scope's options: how each is read, and its
 * --help text. */
#include "options/scope_options_private.h"
#include "options/metrics_address.h"
#include "view/graph_model.h"

#include <recorder/recorder_share.h>

#include <stdio.h>
#include <string.h>

/* The name an option's messages give it. */
static const char *name_of(const scope_option *option)
{
    return option->long_name ? option->long_name : option->short_name;
}

/* ---- segments and the program ---------------------------------------- */

static scope_parse take_segment(option_state *state,
                                const scope_option *option, const char *value)
{
    scope_options *options = state->options;
    if (options->share_path_count == SCOPE_MAX_ITEMS)
        return option_usage_error("too many %s options", name_of(option));
    if (!*value)
        return option_value_error(name_of(option), value,
                                  "expected a segment path");
    if (!options->share_path)
        options->share_path = value;
    options->share_paths[options->share_path_count++] = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse list_segments(option_state *state,
                                 const scope_option *option, const char *value)
{
    (void) option;
    state->options->list_segments = true;
    if (value)
        state->options->list_pattern = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse any_owner(option_state *state, const scope_option *option,
                             const char *value)
{
    (void) option, (void) value;
    state->options->open_flags |= RECORDER_SHARE_ANY_OWNER;
    return SCOPE_PARSE_RUN;
}

static scope_parse add_command(option_state *state,
                               const scope_option *option, const char *value)
{
    scope_options *options = state->options;
    if (options->command_count == SCOPE_MAX_ITEMS)
        return option_usage_error("too many %s options", name_of(option));
    if (!*value)
        return option_usage_error("%s needs a non-empty command",
                                  name_of(option));
    options->commands[options->command_count++] = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse add_event(option_state *state, const scope_option *option,
                             const char *value)
{
    scope_options *options = state->options;
    char why[256];
    if (options->event_count == SCOPE_MAX_ITEMS)
        return option_usage_error("too many %s options", name_of(option));
    if (!option_regex_ok(value, why, sizeof(why)))
        return option_value_error(name_of(option), value, why);
    options->events[options->event_count++] = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse list_contents(option_state *state,
                                 const scope_option *option, const char *value)
{
    (void) option, (void) value;
    state->options->list = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse dump_records(option_state *state,
                                const scope_option *option, const char *value)
{
    (void) option;
    state->options->dump = true;
    if (value)
        state->options->dump_regex = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse dump_format(option_state *state,
                               const scope_option *option, const char *value)
{
    scope_options *options = state->options;
    if (strcmp(value, "text") == 0)
        options->dump_format = SCOPE_DUMP_TEXT;
    else if (strcmp(value, "chrome-json") == 0)
        options->dump_format = SCOPE_DUMP_CHROME_JSON;
    else if (strcmp(value, "ctf") == 0)
        options->dump_format = SCOPE_DUMP_CTF;
    else
        return option_value_error(name_of(option), value,
                                  "expected text, chrome-json or ctf");
    state->format_given = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse output_dir(option_state *state,
                              const scope_option *option, const char *value)
{
    if (!*value)
        return option_value_error(name_of(option), value,
                                  "expected a directory");
    state->options->output_dir = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse add_slider(option_state *state,
                              const scope_option *option, const char *value)
{
    scope_options *options = state->options;
    if (options->slider_count == SCOPE_MAX_ITEMS)
        return option_usage_error("too many %s options", name_of(option));
    if (option_read_slider(value, &options->sliders[options->slider_count]))
        return SCOPE_PARSE_EXIT_USAGE;
    options->slider_count++;
    return SCOPE_PARSE_RUN;
}

/* ---- what the graphs show --------------------------------------------- */

static scope_parse time_span(option_state *state, const scope_option *option,
                             const char *value)
{
    double seconds;
    if (!option_read_number(value, &seconds) || seconds < 0 || seconds > 1e7)
        return option_value_error(name_of(option), value, "expected a time "
                                  "span in seconds, 0 or more (0: all "
                                  "samples)");
    state->options->duration = seconds;
    state->span_given = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse max_samples(option_state *state,
                               const scope_option *option, const char *value)
{
    long count;
    if (!option_read_integer(value, NULL, 0, &count) || count < 0 ||
        count > (1L << 26))
        return option_value_error(name_of(option), value, "expected a sample "
                                  "count from 0 (the window width) to "
                                  "67108864");
    state->options->max_samples = count;
    return SCOPE_PARSE_RUN;
}

/* -t -m -a -n: the graphs named after it get the views as they are then. */
static scope_parse toggle_view(option_state *state,
                               const scope_option *option, const char *value)
{
    (void) value;
    state->options->views ^= option->view;
    return SCOPE_PARSE_RUN;
}

static scope_parse average_ratio(option_state *state,
                                 const scope_option *option, const char *value)
{
    double percent;
    if (!option_read_number(value, &percent) ||
        !(percent > 0 && percent < 100))
        return option_value_error(name_of(option), value, "expected a "
                                  "percentage between 0 and 100, both "
                                  "excluded");
    state->options->ratio = percent / 100.0;
    return SCOPE_PARSE_RUN;
}

static scope_parse file_basename(option_state *state,
                                 const scope_option *option, const char *value)
{
    if (!*value)
        return option_value_error(name_of(option), value,
                                  "expected a file name prefix");
    state->options->basename = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse geometry(option_state *state, const scope_option *option,
                            const char *value)
{
    (void) option;
    return option_read_geometry(value, state->options);
}

/* ---- headless captures, the span, the trigger ------------------------- */

static scope_parse png_file(option_state *state, const scope_option *option,
                            const char *value)
{
    if (!*value)
        return option_value_error(name_of(option), value,
                                  "expected a file name");
    state->options->png_path = value;
    state->options->headless = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse csv_file(option_state *state, const scope_option *option,
                            const char *value)
{
    if (!*value)
        return option_value_error(name_of(option), value,
                                  "expected a file name");
    state->options->csv_path = value;
    state->options->headless = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse capture_seconds(option_state *state,
                                   const scope_option *option,
                                   const char *value)
{
    double seconds;
    if (!option_read_number(value, &seconds) || seconds < 0 || seconds > 1e6)
        return option_value_error(name_of(option), value,
                                  "expected seconds, 0 or more");
    state->options->capture_seconds = seconds;
    return SCOPE_PARSE_RUN;
}

static scope_parse view_span(option_state *state, const scope_option *option,
                             const char *value)
{
    if (!scope_view_request_parse(value, &state->options->view))
        return option_value_error(name_of(option), value, "expected FROM:TO "
                                  "in seconds, FROM before TO, e.g. 2:5, "
                                  "-10:-2 or -5:");
    return SCOPE_PARSE_RUN;
}

static scope_parse trigger(option_state *state, const scope_option *option,
                           const char *value)
{
    char why[256];
    if (!scope_trigger_spec_parse(value, &state->options->trigger, why,
                                  sizeof(why)))
        return option_value_error(name_of(option), value, why);
    state->options->has_trigger = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse trigger_mode(option_state *state,
                                const scope_option *option, const char *value)
{
    if (!scope_trigger_mode_parse(value, &state->options->trigger_mode))
        return option_value_error(name_of(option), value,
                                  "expected auto, normal or single");
    state->trigger_mode_given = true;
    return SCOPE_PARSE_RUN;
}

/* "20" or "20%" */
static scope_parse trigger_pre(option_state *state,
                               const scope_option *option, const char *value)
{
    char number[64];
    size_t length = strlen(value);
    if (length && value[length - 1] == '%')
        length--;
    snprintf(number, sizeof(number), "%.*s", (int) length, value);
    double percent;
    if (!option_read_number(number, &percent) || percent < 0 ||
        percent > 100)
        return option_value_error(name_of(option), value, "expected a "
                                  "percentage of the span, 0 to 100");
    state->options->trigger_pre = percent / 100;
    state->pre_given = true;
    return SCOPE_PARSE_RUN;
}

/* ---- the window, metrics, and the program itself ---------------------- */

static scope_parse pick(option_state *state, const scope_option *option,
                        const char *value)
{
    (void) option, (void) value;
    state->options->pick = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse trace_view(option_state *state, const scope_option *option,
                              const char *value)
{
    (void) option, (void) value;
    state->options->trace_view = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse max_fps(option_state *state, const scope_option *option,
                           const char *value)
{
    double fps;
    if (!option_read_number(value, &fps) || fps < 0 || fps > 1000)
        return option_value_error(name_of(option), value, "expected frames a "
                                  "second, 0 (no limit) to 1000");
    state->options->max_fps = fps;
    state->fps_given = true;
    return SCOPE_PARSE_RUN;
}

static scope_parse theme(option_state *state, const scope_option *option,
                         const char *value)
{
    if (!scope_theme_parse(value, &state->options->theme))
        return option_value_error(name_of(option), value,
                                  "expected auto, dark or light");
    return SCOPE_PARSE_RUN;
}

static scope_parse metrics(option_state *state, const scope_option *option,
                           const char *value)
{
    metrics_address address;
    char why[256];
    if (!metrics_address_parse(value, &address, why, sizeof(why)))
        return option_value_error(name_of(option), value, why);
    state->options->metrics = value;
    return SCOPE_PARSE_RUN;
}

static scope_parse help(option_state *state, const scope_option *option,
                        const char *value)
{
    (void) state, (void) option, (void) value;
    scope_options_help(stdout);
    return SCOPE_PARSE_EXIT_OK;
}

static scope_parse version(option_state *state, const scope_option *option,
                           const char *value)
{
    (void) state, (void) option, (void) value;
    printf("recorder_scope 1.3.0\n");
    return SCOPE_PARSE_EXIT_OK;
}

/* ---- the table ---------------------------------------------------------- */

const scope_option scope_option_table[] = {
    {
        .short_name = "-S", .value = OPTION_VALUE, .placeholder = "PATH",
        .handle = take_segment,
        .help = "segment to open (default $RECORDER_SHARE, else\n"
                "/tmp/recorder_share); repeatable, and PATH may be a\n"
                "pattern ('/tmp/recorder_share.*'): -l lists each\n"
                "segment, -D merges their records in one time order\n"
                "with lines starting PROGRAM[PID], -c goes to each\n"
                "running one; the window or a capture shows them on\n"
                "one time axis, channels named PROGRAM[PID]/channel (a\n"
                "graph regex matches either name), a pattern watched\n"
                "for new segments; Ctrl+P or the header's drop-down\n"
                "sends commands to one process or all",
    },
    {
        .short_name = "-L", .value = OPTION_OPTIONAL_VALUE,
        .placeholder = "PATTERN", .handle = list_segments,
        .help = "list the segments PATTERN (or the -S given) matches,\n"
                "one tab-separated line each: path, program, pid,\n"
                "host, start, state (live, exited, died, refused,\n"
                "unreadable...), owner, channels; by default those of\n"
                "$RECORDER_SHARE, /tmp/recorder_share* and\n"
                "$XDG_RUNTIME_DIR/recorder_share*",
    },
    {
        .long_name = "--any-owner", .handle = any_owner,
        .help = "read a segment that another user owns, as data only:\n"
                "no file it names is opened, no process memory read,\n"
                "no command sent (not with -c)",
    },
    {
        .short_name = "-c", .value = OPTION_VALUE, .placeholder = "COMMAND",
        .handle = add_command,
        .help = "send a trace specification item to the program, e.g.\n"
                "-c dump, -c 'net=1', -c 'transfer_delay=200';\n"
                "repeatable; exits once answered when no channel and\n"
                "no -e is named; commands naming files (output=,\n"
                "share=) are refused unless the program has\n"
                "RECORDER_COMMANDS_FILES=1",
    },
    {
        .short_name = "-e", .value = OPTION_VALUE, .placeholder = "REGEX",
        .handle = add_event,
        .help = "mark each record of the recorders whose name matches\n"
                "REGEX (ignoring case) on the time axis; hovering a\n"
                "marker shows its message; repeatable. Restarts of\n"
                "the program and commands sent are marked too",
    },
    {
        .short_name = "-l", .handle = list_contents,
        .help = "list channels, recorders, tweaks and snapshot conditions",
    },
    {
        .short_name = "-D", .value = OPTION_OPTIONAL_VALUE,
        .placeholder = "REGEX", .handle = dump_records,
        .help = "print the program's flight recorder (recorders whose\n"
                "name matches REGEX, ignoring case), live or after it\n"
                "died",
    },
    {
        .long_name = "--format", .value = OPTION_VALUE,
        .placeholder = "text|chrome-json|ctf", .handle = dump_format,
        .help_below = true,
        .help = "what -D writes: text lines (the default); chrome-json,\n"
                "a Chrome trace-event JSON file on standard output that\n"
                "the Perfetto UI and chrome://tracing open (records as\n"
                "instant events, channels as counters, the crash\n"
                "report, every process given by -S in one file); ctf, a\n"
                "CTF trace that babeltrace2 reads, in --output DIR",
    },
    {
        .long_name = "--output", .value = OPTION_VALUE, .placeholder = "DIR",
        .handle = output_dir,
        .help = "where --format ctf writes its trace: a new or empty\n"
                "directory (metadata, and a stream file per process)",
    },
    {
        .short_name = "-s", .value = OPTION_VALUE,
        .placeholder = "NAME[=INIT[:MIN:MAX]]", .handle = add_slider,
        .help_below = true,
        .help = "a slider that sets tweak NAME as it moves; without\n"
                "INIT it starts at the tweak's value, without MIN:MAX\n"
                "it spans 0 to a round number twice that value",
    },
    {
        .short_name = "-d", .value = OPTION_VALUE, .placeholder = "SECONDS",
        .handle = time_span,
        .help = "time span shown (default 10; 0: all samples kept)",
    },
    {
        .short_name = "-w", .value = OPTION_VALUE, .placeholder = "SAMPLES",
        .handle = max_samples,
        .help = "at most SAMPLES samples per channel shown (0: one per\n"
                "pixel of the graph width; default no limit)",
    },
    {
        .short_name = "-t", .handle = toggle_view, .view = SCOPE_VIEW_TIMING,
        .help = "toggle the timing graph (interval between samples,\n"
                "right axis) for the graphs that follow",
    },
    {
        .short_name = "-m", .handle = toggle_view, .view = SCOPE_VIEW_MINMAX,
        .help = "toggle the min/max envelope for the graphs that follow",
    },
    {
        .short_name = "-a", .handle = toggle_view,
        .view = SCOPE_VIEW_AVERAGE,
        .help = "toggle the running average for the graphs that follow",
    },
    {
        .short_name = "-n", .handle = toggle_view, .view = SCOPE_VIEW_NORMAL,
        .help = "toggle the normal values for the graphs that follow",
    },
    {
        .short_name = "-r", .value = OPTION_VALUE, .placeholder = "PERCENT",
        .handle = average_ratio,
        .help = "averaging ratio for -a and -m, 0 < PERCENT < 100\n"
                "(default 99: each sample weighs 1%)",
    },
    {
        .short_name = "-b", .value = OPTION_VALUE, .placeholder = "BASENAME",
        .handle = file_basename,
        .help = "prefix of saved files (default recorder_scope_data-):\n"
                "BASENAME1.png, BASENAME2.csv...",
    },
    {
        .short_name = "-g", .value = OPTION_VALUE,
        .placeholder = "WxH[@XxY]", .handle = geometry,
        .help = "window size, and position where the display allows",
    },
    {
        .long_name = "--png", .value = OPTION_VALUE, .placeholder = "FILE",
        .handle = png_file,
        .help = "headless capture: collect for --duration seconds (or\n"
                "until the --view span is there), then draw the graphs\n"
                "into FILE without any display",
    },
    {
        .long_name = "--csv", .value = OPTION_VALUE, .placeholder = "FILE",
        .handle = csv_file,
        .help = "headless capture: the values shown, as CSV",
    },
    {
        .long_name = "--duration", .value = OPTION_VALUE,
        .placeholder = "SECONDS", .handle = capture_seconds,
        .help = "how long a headless capture collects; without\n"
                "-d, also the span it shows; with --view, a timeout",
    },
    {
        .long_name = "--view", .value = OPTION_VALUE,
        .placeholder = "FROM:TO", .handle = view_span,
        .help = "show that span, paused (seconds since the program\n"
                "started; negative values count back from the newest\n"
                "sample, e.g. --view -5:-1; an empty end is the oldest\n"
                "or newest sample); with --png or --csv, capture\n"
                "exactly that span",
    },
    {
        .long_name = "--trigger", .value = OPTION_VALUE,
        .placeholder = "'CHANNEL>LEVEL'", .handle = trigger,
        .help_below = true,
        .help = "trigger on CHANNEL (a channel shown) rising through\n"
                "LEVEL; 'CHANNEL<LEVEL' falling, 'CHANNEL<>LEVEL' either;\n"
                "LEVEL takes SI suffixes n u m k M G (2.5k, 10u)",
    },
    {
        .long_name = "--trigger-mode", .value = OPTION_VALUE,
        .placeholder = "auto|normal|single", .handle = trigger_mode,
        .help_below = true,
        .help = "auto (default): live until a trigger, then its span;\n"
                "normal: the last triggered span; single: the first one,\n"
                "frozen until re-armed (r); with --png or --csv, single\n"
                "waits for the trigger (--duration is the timeout) and\n"
                "captures its span",
    },
    {
        .long_name = "--pre", .value = OPTION_VALUE, .placeholder = "PERCENT",
        .handle = trigger_pre,
        .help = "part of the span before the trigger (default 10)",
    },
    {
        .long_name = "--pick", .handle = pick,
        .help = "open the window with the channel picker shown (Insert\n"
                "or the header bar's + button opens it later): add\n"
                "graphs, add or remove channels, export a recorder's\n"
                "arguments as channels, open another segment",
    },
    {
        .long_name = "--trace-view", .handle = trace_view,
        .help = "print on standard output what the window shows as it\n"
                "changes: view, value ranges, hidden channels, cursors,\n"
                "the readout, the trigger, markers, graphs and their\n"
                "channels, the status line, the theme, the frames each\n"
                "graph drew and the reads of the segments each second\n"
                "(for scripts and tests)",
    },
    {
        .long_name = "--fps", .value = OPTION_VALUE, .placeholder = "N",
        .handle = max_fps,
        .help = "at most N frames a second for each graph as data\n"
                "flows (it then scrolls by several pixels at once):\n"
                "less CPU; what you do (zoom, pan, hover) still draws\n"
                "at once. Default 0: a frame whenever the plot has\n"
                "moved by a pixel, up to the display's rate",
    },
    {
        .long_name = "--theme", .value = OPTION_VALUE,
        .placeholder = "auto|dark|light", .handle = theme,
        .help = "colours of the window and the graphs (and\n"
                "of the images it saves); auto (the default) follows\n"
                "the desktop's light or dark preference, dark when it\n"
                "states none; headless captures are dark unless asked",
    },
    {
        .long_name = "--metrics", .value = OPTION_VALUE,
        .placeholder = "[ADDR:]PORT", .handle = metrics,
        .help = "no window: serve the channels (the regexes\n"
                "given, else all) of the -S segments as Prometheus\n"
                "metrics at http://ADDR:PORT/metrics until SIGINT or\n"
                "SIGTERM; ADDR 127.0.0.1 by default, 0.0.0.0 for every\n"
                "interface, [::1] for IPv6",
    },
    {
        .short_name = "-h", .long_name = "--help", .handle = help,
        .help = "this help",
    },
    {
        /* Under --help's long name, as GNU tools show it. */
        .long_name = "--version", .handle = version,
        .synopsis = "    --version",
        .help = "version",
    },
    { .handle = NULL }
};

const scope_option *scope_option_short(const char *name)
{
    for (const scope_option *option = scope_option_table; option->handle;
         option++)
        if (option->short_name && strcmp(option->short_name, name) == 0)
            return option;
    return NULL;
}

const scope_option *scope_option_long(const char *name, size_t length)
{
    for (const scope_option *option = scope_option_table; option->handle;
         option++)
        if (option->long_name && strlen(option->long_name) == length &&
            strncmp(option->long_name, name, length) == 0)
            return option;
    return NULL;
}

/* ---- --help ------------------------------------------------------------- */

static const char help_head[] =
    "Usage: recorder_scope [OPTIONS] [CHANNEL-REGEX...]\n"
    "Look at a program that records with the recorder library, through the\n"
    "segment it shares (RECORDER_TRACES=recorder=chan1,chan2 or share=PATH).\n"
    "Each CHANNEL-REGEX (POSIX extended, matching whole channel names,\n"
    "ignoring case) gets a graph; with none and no -c, one graph shows\n"
    "every channel.\n"
    "\n";

static const char help_tail[] =
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

/* The help of each option starts at this column, after two spaces and its
 * synopsis, which is padded to the column (one space at least) or, when
 * longer, followed by two spaces or by a line break (help_below). */
#define HELP_COLUMN 17

void scope_option_synopsis(const scope_option *option, char *text,
                           size_t size)
{
    if (option->synopsis)
    {
        snprintf(text, size, "%s", option->synopsis);
        return;
    }
    bool both = option->short_name && option->long_name;
    bool optional = option->value == OPTION_OPTIONAL_VALUE;
    snprintf(text, size, "%s%s%s%s%s%s%s",
             option->short_name ? option->short_name : "",
             both ? ", " : "",
             option->long_name ? option->long_name : "",
             option->placeholder ? " " : "",
             optional ? "[" : "",
             option->placeholder ? option->placeholder : "",
             optional ? "]" : "");
}

static void print_option_help(FILE *out, const scope_option *option)
{
    char synopsis[64];
    scope_option_synopsis(option, synopsis, sizeof(synopsis));
    int width = (int) strlen(synopsis);
    if (option->help_below)
        fprintf(out, "  %s\n%*s", synopsis, HELP_COLUMN, "");
    else if (width < HELP_COLUMN - 2)
        fprintf(out, "  %-*s", HELP_COLUMN - 2, synopsis);
    else
        fprintf(out, "  %s  ", synopsis);
    const char *line = option->help;
    for (;;)
    {
        size_t length = strcspn(line, "\n");
        fprintf(out, "%.*s\n", (int) length, line);
        if (!line[length])
            break;
        line += length + 1;
        fprintf(out, "%*s", HELP_COLUMN, "");
    }
}

void scope_options_help(FILE *out)
{
    fputs(help_head, out);
    for (const scope_option *option = scope_option_table; option->handle;
         option++)
        print_option_help(out, option);
    fputs(help_tail, out);
}
