/* test_scope_options.c - recorder_scope's command line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/graph_model.h"
#include "options/scope_options.h"
#include "options/scope_options_private.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static scope_options options;
static char said[16384];                /* what parsing printed on stderr */
static char printed[16384];             /* and on stdout (--help) */

/* What 'file' holds from its start, as a string in text[size]. */
static void read_back(FILE *file, char *text, size_t size)
{
    rewind(file);
    size_t n = fread(text, 1, size - 1, file);
    text[n] = 0;
    fclose(file);
}

/* Parse the words of 'line' (split on spaces), capturing stdout and stderr. */
static scope_parse parse(const char *line)
{
    static char copy[1024];
    char *argv[64] = { "recorder_scope" };
    int argc = 1;
    snprintf(copy, sizeof(copy), "%s", line);
    for (char *word = strtok(copy, " "); word && argc < 63;
         word = strtok(NULL, " "))
        argv[argc++] = word;
    argv[argc] = NULL;

    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    FILE *out = tmpfile(), *err = tmpfile();
    dup2(fileno(out), 1);
    dup2(fileno(err), 2);
    scope_parse result = scope_options_parse(argc, argv, &options);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    read_back(out, printed, sizeof(printed));
    read_back(err, said, sizeof(said));
    return result;
}

static void assert_said(const char *text)
{
    if (!strstr(said, text))
        fail_msg("expected '%s' in:\n%s", text, said);
}

static void test_defaults(void **state)
{
    (void) state;
    assert_int_equal(parse(""), SCOPE_PARSE_RUN);
    assert_null(options.share_path);
    assert_int_equal(options.channel_count, 0);
    assert_int_equal(options.views, SCOPE_VIEW_NORMAL);
    assert_true(options.duration == 10.0);
    assert_int_equal(options.max_samples, -1);
    assert_true(options.ratio == 0.99);
    assert_string_equal(options.basename, "recorder_scope_data-");
    assert_false(options.has_size);
    assert_false(options.headless);
}

static void test_text_mode_options_still_work(void **state)
{
    (void) state;
    assert_int_equal(parse("-S /tmp/seg -c dump -c x=1 -l -D net.*"),
                     SCOPE_PARSE_RUN);
    assert_string_equal(options.share_path, "/tmp/seg");
    assert_int_equal(options.command_count, 2);
    assert_string_equal(options.commands[1], "x=1");
    assert_true(options.list);
    assert_true(options.dump);
    assert_string_equal(options.dump_regex, "net.*");
}

/* One line and where to read more, not the manual (check-scope-cli-errors
 * runs the program over a table of bad lines). */
static void test_unknown_option_says_one_line(void **state)
{
    (void) state;
    assert_int_equal(parse("-x"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("recorder_scope: unknown option '-x'\n"
                "Try 'recorder_scope --help' for more information.\n");
    assert_int_equal(parse("--frobnicate"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("unknown option '--frobnicate'");
    assert_int_equal(parse("-tm"), SCOPE_PARSE_EXIT_USAGE);
}

static void test_missing_argument_says_one_line(void **state)
{
    (void) state;
    assert_int_equal(parse("bytes -d"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("option -d needs an argument\nTry 'recorder_scope --help'");
}

static void test_regexes_make_graphs_with_views_toggled_before(void **state)
{
    (void) state;
    assert_int_equal(parse("bytes -t loops -m -n x|y"), SCOPE_PARSE_RUN);
    assert_int_equal(options.channel_count, 3);
    assert_string_equal(options.channels[2], "x|y");
    assert_int_equal(options.channel_views[0], SCOPE_VIEW_NORMAL);
    assert_int_equal(options.channel_views[1],
                     SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING);
    assert_int_equal(options.channel_views[2],
                     SCOPE_VIEW_TIMING | SCOPE_VIEW_MINMAX);
    assert_int_equal(parse("-a"), SCOPE_PARSE_RUN);
    assert_int_equal(options.views, SCOPE_VIEW_NORMAL | SCOPE_VIEW_AVERAGE);
    assert_int_equal(parse("-a -a"), SCOPE_PARSE_RUN);
    assert_int_equal(options.views, SCOPE_VIEW_NORMAL);
}

static void test_bad_regex_is_named(void **state)
{
    (void) state;
    assert_int_equal(parse("ok (unclosed"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("channel regex '(unclosed'");
}

static void test_event_regexes_are_kept_and_checked(void **state)
{
    (void) state;
    assert_int_equal(parse("-e feed_event -e net.* bytes"), SCOPE_PARSE_RUN);
    assert_int_equal(options.event_count, 2);
    assert_string_equal(options.events[0], "feed_event");
    assert_string_equal(options.events[1], "net.*");
    assert_int_equal(options.channel_count, 1);
    assert_int_equal(parse("-e (unclosed"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-e '(unclosed'");
    assert_int_equal(parse("bytes -e"), SCOPE_PARSE_EXIT_USAGE);
}

static void test_double_dash_ends_options(void **state)
{
    (void) state;
    assert_int_equal(parse("-- -odd"), SCOPE_PARSE_RUN);
    assert_int_equal(options.channel_count, 1);
    assert_string_equal(options.channels[0], "-odd");
}

static void test_geometry(void **state)
{
    (void) state;
    assert_int_equal(parse("-g 640x480"), SCOPE_PARSE_RUN);
    assert_true(options.has_size && !options.has_position);
    assert_int_equal(options.width, 640);
    assert_int_equal(options.height, 480);
    assert_int_equal(parse("-g 800x600@-10x20"), SCOPE_PARSE_RUN);
    assert_true(options.has_position);
    assert_int_equal(options.x, -10);
    assert_int_equal(options.y, 20);
}

static void test_bad_geometry_is_named(void **state)
{
    (void) state;
    static const char *bad[] = {
        "640", "640x", "x480", "0x480", "640x-1", "640x480@", "640x480@1",
        "640x480@1x", "64ox480", "640 x480", "99999x1", "640x480@1x2x3",
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    {
        char line[64], expected[64];
        snprintf(line, sizeof(line), "-g %s", bad[i]);
        if (strchr(bad[i], ' '))
        {
            /* "-g 640 x480": '640' is the value; x480 a channel. */
            assert_int_equal(parse(line), SCOPE_PARSE_EXIT_USAGE);
            assert_said("-g '640'");
            continue;
        }
        assert_int_equal(parse(line), SCOPE_PARSE_EXIT_USAGE);
        snprintf(expected, sizeof(expected), "-g '%s': expected WxH", bad[i]);
        assert_said(expected);
        assert_null(strstr(said, "Usage:"));    /* a value error, not usage */
    }
}

static void test_ratio(void **state)
{
    (void) state;
    assert_int_equal(parse("-r 90"), SCOPE_PARSE_RUN);
    assert_true(options.ratio == 0.9);
    assert_int_equal(parse("-r 99.5"), SCOPE_PARSE_RUN);
    assert_true(options.ratio == 0.995);
}

static void test_bad_ratio_is_named(void **state)
{
    (void) state;
    static const char *bad[] = { "0", "100", "-5", "150", "abc", "50%", "nan" };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    {
        char line[64], expected[64];
        snprintf(line, sizeof(line), "-r %s", bad[i]);
        assert_int_equal(parse(line), SCOPE_PARSE_EXIT_USAGE);
        snprintf(expected, sizeof(expected), "-r '%s': expected a percentage",
                 bad[i]);
        assert_said(expected);
    }
}

static void test_sliders(void **state)
{
    (void) state;
    assert_int_equal(parse("-s transfer_delay=1000:0:5000 -s gain -s rate=7"),
                     SCOPE_PARSE_RUN);
    assert_int_equal(options.slider_count, 3);
    const scope_slider_spec *s = &options.sliders[0];
    assert_string_equal(s->name, "transfer_delay");
    assert_true(s->has_value && s->has_range);
    assert_int_equal(s->value, 1000);
    assert_int_equal(s->min, 0);
    assert_int_equal(s->max, 5000);
    s = &options.sliders[1];
    assert_string_equal(s->name, "gain");
    assert_false(s->has_value || s->has_range);
    s = &options.sliders[2];
    assert_true(s->has_value && !s->has_range);
    assert_int_equal(s->value, 7);
    assert_int_equal(parse("-s neg=-5:-10:-1"), SCOPE_PARSE_RUN);
    assert_int_equal(options.sliders[0].min, -10);
}

static void test_bad_sliders_are_named(void **state)
{
    (void) state;
    static const struct { const char *spec, *why; } bad[] = {
        { "=5", "expected NAME" },
        { "x=", "with integers" },
        { "x=abc", "with integers" },
        { "x=1.5:0:3", "with integers" },
        { "x=5:0", "with integers" },
        { "x=5:0:", "with integers" },
        { "x=5:9:1", "MIN must be below MAX" },
        { "x=50:0:10", "INIT must be between MIN and MAX" },
        { "x:y=1", "no spaces, ':' or ','" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    {
        char line[64], expected[64];
        snprintf(line, sizeof(line), "-s %s", bad[i].spec);
        assert_int_equal(parse(line), SCOPE_PARSE_EXIT_USAGE);
        snprintf(expected, sizeof(expected), "-s '%s'", bad[i].spec);
        assert_said(expected);
        assert_said(bad[i].why);
    }
}

static void test_duration_and_samples(void **state)
{
    (void) state;
    assert_int_equal(parse("-d 2.5 -w 0"), SCOPE_PARSE_RUN);
    assert_true(options.duration == 2.5);
    assert_int_equal(options.max_samples, 0);
    assert_int_equal(parse("-d 0 -w 500"), SCOPE_PARSE_RUN);
    assert_true(options.duration == 0);
    assert_int_equal(options.max_samples, 500);
}

static void test_bad_duration_and_samples_are_named(void **state)
{
    (void) state;
    assert_int_equal(parse("-d -1"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-d '-1': expected a time span in seconds");
    assert_int_equal(parse("-d 1s"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-d '1s'");
    assert_int_equal(parse("-w -3"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-w '-3': expected a sample count");
    assert_int_equal(parse("-w 12.5"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-w '12.5'");
}

static void test_headless_needs_a_duration(void **state)
{
    (void) state;
    assert_int_equal(parse("--png out.png --duration 3 bytes"),
                     SCOPE_PARSE_RUN);
    assert_true(options.headless);
    assert_string_equal(options.png_path, "out.png");
    assert_true(options.capture_seconds == 3);
    assert_int_equal(parse("--csv=x.csv --duration=0.5"), SCOPE_PARSE_RUN);
    assert_string_equal(options.csv_path, "x.csv");
    assert_true(options.capture_seconds == 0.5);
    assert_int_equal(parse("--png out.png"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--png needs --duration SECONDS");
    assert_int_equal(parse("--duration 2"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--duration needs --png FILE or --csv FILE");
    assert_int_equal(parse("--png x.png --duration soon"),
                     SCOPE_PARSE_EXIT_USAGE);
    assert_said("--duration 'soon'");
    assert_int_equal(parse("--png"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("option --png needs an argument");
}

/* --view bounds a capture by itself; --duration is then a timeout. */
static void test_a_view_bounds_a_capture(void **state)
{
    (void) state;
    assert_int_equal(parse("--csv out.csv --view 1:2 bytes"), SCOPE_PARSE_RUN);
    assert_true(options.headless);
    assert_true(options.view.set && options.view.from == 1 &&
                options.view.to == 2);
    assert_true(options.capture_seconds < 0);
    assert_int_equal(parse("--png out.png --view 1:2 --duration 5"),
                     SCOPE_PARSE_RUN);
    assert_true(options.capture_seconds == 5);
    assert_int_equal(parse("--csv out.csv --view 2:1"),
                     SCOPE_PARSE_EXIT_USAGE);
    assert_said("--view '2:1'");
}

/* Exactly two lines, whatever was typed: a control character in it is
 * shown, not sent to the terminal. */
static void test_a_bad_line_is_two_lines_escaped(void **state)
{
    (void) state;
    assert_int_equal(parse("-d 1\n2\033[2J"), SCOPE_PARSE_EXIT_USAGE);
    assert_string_equal(said, "recorder_scope: -d '1\\x0a2\\x1b[2J': "
                        "expected a time span in seconds, 0 or more (0: all "
                        "samples)\nTry 'recorder_scope --help' for more "
                        "information.\n");
    assert_int_equal(parse("--pick=yes"), SCOPE_PARSE_EXIT_USAGE);
    assert_string_equal(said, "recorder_scope: option '--pick' takes no "
                        "argument\nTry 'recorder_scope --help' for more "
                        "information.\n");
}

static void test_pick_opens_the_window_only(void **state)
{
    (void) state;
    assert_int_equal(parse("-S /tmp/seg --pick"), SCOPE_PARSE_RUN);
    assert_true(options.pick);
    assert_int_equal(options.channel_count, 0);
    assert_int_equal(parse("ramp"), SCOPE_PARSE_RUN);
    assert_false(options.pick);
    assert_int_equal(parse("--pick --png x.png --duration 1"),
                     SCOPE_PARSE_EXIT_USAGE);
    assert_said("--pick opens the window: not with --png or --csv");
    assert_int_equal(parse("--pick -l"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--pick opens the window: not with -l");
}

/* -L lists segments and exits: a PATTERN right after it, or -S. */
static void test_list_segments(void **state)
{
    (void) state;
    assert_int_equal(parse("-L"), SCOPE_PARSE_RUN);
    assert_true(options.list_segments);
    assert_null(options.list_pattern);
    assert_int_equal(parse("-L /tmp/seg.* --any-owner"), SCOPE_PARSE_RUN);
    assert_string_equal(options.list_pattern, "/tmp/seg.*");
    assert_int_equal(parse("-L -S /tmp/a -S /tmp/b.*"), SCOPE_PARSE_RUN);
    assert_null(options.list_pattern);
    assert_int_equal(options.share_path_count, 2);
    assert_int_equal(parse("-L -D"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-L lists the segments and exits: not with -D");
    assert_int_equal(parse("-L -c dump"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("not with -c");
    assert_int_equal(parse("-L --any-owner /tmp/x"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("-L takes one PATTERN, right after it (or -S PATTERN): "
                "'/tmp/x' is not one");
}

/* A capture of N seconds shows N seconds, unless -d says otherwise. */
static void test_capture_duration_is_the_span(void **state)
{
    (void) state;
    assert_int_equal(parse("--png out.png --duration 5"), SCOPE_PARSE_RUN);
    assert_true(options.duration == 5);
    assert_int_equal(parse("-d 2 --png out.png --duration 5"),
                     SCOPE_PARSE_RUN);
    assert_true(options.duration == 2);
    assert_int_equal(parse("--csv x.csv --duration 5 -d 0"), SCOPE_PARSE_RUN);
    assert_true(options.duration == 0);
    /* A capture of no time shows the default span of what is there. */
    assert_int_equal(parse("--csv x.csv --duration 0"), SCOPE_PARSE_RUN);
    assert_true(options.duration == SCOPE_DEFAULT_DURATION);
}

static void test_theme(void **state)
{
    (void) state;
    assert_int_equal(parse(""), SCOPE_PARSE_RUN);
    assert_int_equal(options.theme, SCOPE_THEME_AUTO);
    assert_int_equal(parse("--theme light"), SCOPE_PARSE_RUN);
    assert_int_equal(options.theme, SCOPE_THEME_LIGHT);
    assert_int_equal(parse("--theme=dark"), SCOPE_PARSE_RUN);
    assert_int_equal(options.theme, SCOPE_THEME_DARK);
    assert_int_equal(parse("--theme blue"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--theme 'blue': expected auto, dark or light");
    assert_int_equal(parse("--theme"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("option --theme needs an argument");
}

static void test_frame_ceiling(void **state)
{
    (void) state;
    assert_int_equal(parse(""), SCOPE_PARSE_RUN);
    assert_true(options.max_fps == 0);
    assert_int_equal(parse("--fps 12.5"), SCOPE_PARSE_RUN);
    assert_true(options.max_fps == 12.5);
    assert_int_equal(parse("--fps=0"), SCOPE_PARSE_RUN);
    assert_true(options.max_fps == 0);
    assert_int_equal(parse("--fps -3"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--fps '-3': expected frames a second, 0 (no limit) to 1000");
    assert_int_equal(parse("--fps fast"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--fps 'fast': expected frames a second");
    assert_int_equal(parse("--fps 10 --png x.png --duration 1"),
                     SCOPE_PARSE_EXIT_USAGE);
    assert_said("--fps paces the window's frames: not with --png or --csv");
    assert_int_equal(parse("--fps 10 -l"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("--fps paces the window's frames: not with -l");
}

static void test_basename(void **state)
{
    (void) state;
    assert_int_equal(parse("-b /tmp/shots/run-"), SCOPE_PARSE_RUN);
    assert_string_equal(options.basename, "/tmp/shots/run-");
}

static void test_slider_ranges_when_none_given(void **state)
{
    (void) state;
    long min, max;
    scope_slider_range(1000, &min, &max);
    assert_int_equal(min, 0);
    assert_int_equal(max, 2000);
    scope_slider_range(7, &min, &max);
    assert_int_equal(max, 20);
    scope_slider_range(0, &min, &max);
    assert_true(min == 0 && max == 100);
    scope_slider_range(-30, &min, &max);
    assert_true(min == -100 && max == 100);
    scope_slider_range(1, &min, &max);
    assert_true(min == 0 && max == 2);
}

/* What the table's rows keep from the hand-written parser before it: a
 * value glued to a short option is no value, --name=VALUE is one, an
 * optional value is the next word unless that starts with '-', and a flag
 * refuses a value. */
static void test_option_forms(void **state)
{
    (void) state;
    assert_int_equal(parse("-d5"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("unknown option '-d5'");
    assert_int_equal(parse("-S=/tmp/seg"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("unknown option '-S=/tmp/seg'");
    assert_int_equal(parse("--bogus=3"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("unknown option '--bogus=3'");
    assert_int_equal(parse("--help=x"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("option '--help' takes no argument");
    assert_int_equal(parse("--any-owner="), SCOPE_PARSE_EXIT_USAGE);
    assert_said("option '--any-owner' takes no argument");
    assert_int_equal(parse("-h=x"), SCOPE_PARSE_EXIT_USAGE);
    assert_said("unknown option '-h=x'");

    /* A long option's value may start with '-', -L's and -D's may not. */
    assert_int_equal(parse("--csv x.csv --view -5:-1"), SCOPE_PARSE_RUN);
    assert_true(options.view.set && options.view.from == -5);
    assert_int_equal(parse("--view=-5:-1 --csv=x.csv"), SCOPE_PARSE_RUN);
    assert_true(options.view.set && options.view.to == -1);
    assert_int_equal(parse("-D -S /tmp/seg"), SCOPE_PARSE_RUN);
    assert_true(options.dump);
    assert_null(options.dump_regex);
    assert_string_equal(options.share_path, "/tmp/seg");
    assert_int_equal(parse("-D net - ramp"), SCOPE_PARSE_RUN);
    assert_string_equal(options.dump_regex, "net");
    assert_int_equal(options.channel_count, 2);
    assert_string_equal(options.channels[0], "-");
    assert_int_equal(parse("-L /tmp/a -L"), SCOPE_PARSE_RUN);
    assert_string_equal(options.list_pattern, "/tmp/a");

    /* --help and -h print the same, on stdout, and stop there. */
    assert_int_equal(parse("-h -x"), SCOPE_PARSE_EXIT_OK);
    static char help[sizeof(printed)];
    snprintf(help, sizeof(help), "%s", printed);
    assert_int_equal(parse("--help"), SCOPE_PARSE_EXIT_OK);
    assert_string_equal(printed, help);
    assert_int_equal(parse("-x --help"), SCOPE_PARSE_EXIT_USAGE);
    assert_string_equal(printed, "");
    assert_int_equal(parse("--version"), SCOPE_PARSE_EXIT_OK);
    assert_string_equal(printed, "recorder_scope 1.3.0\n");
}

/* ---- the option table against --help and the man page ------------------ */

/* An option's names, as the table holds them: at most two. */
static int names_of(const scope_option *option, const char *names[2])
{
    int count = 0;
    if (option->short_name)
        names[count++] = option->short_name;
    if (option->long_name)
        names[count++] = option->long_name;
    return count;
}

static const scope_option *known_option(const char *name)
{
    for (const scope_option *option = scope_option_table; option->handle;
         option++)
    {
        const char *names[2];
        for (int n = names_of(option, names); n-- > 0;)
            if (strcmp(names[n], name) == 0)
                return option;
    }
    return NULL;
}

/* The line of 'text' that starts with 'start' and a space or its end. */
static const char *line_starting(const char *text, const char *start)
{
    size_t length = strlen(start);
    for (const char *line = text; *line; line += strcspn(line, "\n") + 1)
    {
        if (strncmp(line, start, length) == 0 &&
            (line[length] == ' ' || line[length] == '\n'))
            return line;
        if (!line[strcspn(line, "\n")])
            break;
    }
    return NULL;
}

/* Each row has its line in --help: its left column with its names, then
 * the first line of its text there (or on the next line: help_below).
 * The left column names no option the table lacks, and no line is wider
 * than a terminal. */
static void test_every_option_is_in_help(void **state)
{
    (void) state;
    assert_int_equal(parse("--help"), SCOPE_PARSE_EXIT_OK);
    assert_string_equal(said, "");
    int problems = 0, rows = 0;
    for (const scope_option *option = scope_option_table; option->handle;
         option++, rows++)
    {
        char synopsis[64], start[80], first[128];
        const char *names[2];
        scope_option_synopsis(option, synopsis, sizeof(synopsis));
        snprintf(start, sizeof(start), "  %s", synopsis);
        snprintf(first, sizeof(first), "%.*s",
                 option->help ? (int) strcspn(option->help, "\n") : 0,
                 option->help ? option->help : "");
        const char *line = line_starting(printed, start);
        const char *text = line && *first ? strstr(line, first) : NULL;
        const char *end = line ? strchr(line, '\n') : NULL;
        if (end && option->help_below)
            end = strchr(end + 1, '\n');
        if (!text || (end && text > end))
        {
            print_error("--help has no line '%s' with its text '%s'\n", start,
                        first);
            problems++;
        }
        for (int n = names_of(option, names); n-- > 0;)
            if (!strstr(synopsis, names[n]))
            {
                print_error("--help shows %s as '%s'\n", names[n], synopsis);
                problems++;
            }
    }
    for (const char *line = printed; *line;)
    {
        size_t length = strcspn(line, "\n");
        char word[64];
        if (length > 79)
        {
            print_error("--help line wider than 79: %.*s\n", (int) length,
                        line);
            problems++;
        }
        /* The left column: "  -S PATH", "  -h, --help", "      --version" */
        if ((strncmp(line, "  -", 3) == 0 || strncmp(line, "      --", 8) == 0)
            && sscanf(line, " %63[^ ,\n]", word) == 1 && !known_option(word))
        {
            print_error("--help names %s, which the table lacks\n", word);
            problems++;
        }
        line += length + (line[length] != 0);
    }
    assert_true(rows > 30);
    assert_int_equal(problems, 0);
}

/* The man page, found above the test program (BUILD/tests/), so that the
 * test runs from any directory and in any build tree. */
static char *read_man_page(void)
{
    char path[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (length <= 0)
        return NULL;
    path[length] = 0;
    for (char *slash; (slash = strrchr(path, '/')) && slash > path;)
    {
        char page[PATH_MAX + 64];
        *slash = 0;
        snprintf(page, sizeof(page), "%s/share/man/man1/recorder_scope.1",
                 path);
        FILE *file = fopen(page, "r");
        if (!file)
            continue;
        static char text[1 << 20];
        size_t n = fread(text, 1, sizeof(text) - 1, file);
        text[n] = 0;
        fclose(file);
        return text;
    }
    return NULL;
}

/* The options a line of troff names: \- is its minus sign, so "\-x" or
 * "\-\-long\-name" at the start of a word (after a space, a quote, a
 * bracket or a font change such as \fB) is "-x" or "--long-name". Words
 * such as chrome\-json, \-name or \-5 are none. */
static int man_options(const char *line, char names[][32], int most)
{
    int count = 0;
    for (const char *p = line; (p = strstr(p, "\\-")) && count < most; p++)
    {
        bool word_start = p == line || strchr(" \t\"[({|", p[-1]) ||
                          (p - line >= 3 && p[-3] == '\\' && p[-2] == 'f');
        if (!word_start)
            continue;
        char *name = names[count];
        size_t at = 0;
        if (p[2] == '\\' && p[3] == '-' && p[4] >= 'a' && p[4] <= 'z')
        {
            const char *q = p + 4;
            name[at++] = '-';
            name[at++] = '-';
            while (at < 30)
            {
                if ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9'))
                    name[at++] = *q++;
                else if (q[0] == '\\' && q[1] == '-' &&
                         ((q[2] >= 'a' && q[2] <= 'z') ||
                          (q[2] >= '0' && q[2] <= '9')))
                    name[at++] = '-', q += 2;
                else
                    break;
            }
        }
        else if (((p[2] >= 'a' && p[2] <= 'z') ||
                  (p[2] >= 'A' && p[2] <= 'Z')) &&
                 !(p[3] >= 'a' && p[3] <= 'z') &&
                 !(p[3] >= 'A' && p[3] <= 'Z') &&
                 !(p[3] >= '0' && p[3] <= '9') &&
                 !(p[3] == '\\' && p[4] == '-'))
        {
            name[at++] = '-';
            name[at++] = p[2];
        }
        if (at)
        {
            name[at] = 0;
            count++;
        }
    }
    return count;
}

/* Every option of the table has an entry in the man page's OPTIONS (a
 * .TP tag naming it), and its SYNOPSIS and OPTIONS name no option the
 * table lacks. */
static void test_every_option_is_in_the_man_page(void **state)
{
    (void) state;
    char *page = read_man_page();
    if (!page)
        fail_msg("share/man/man1/recorder_scope.1 not found above the test");
    static char entries[4096];              /* " -S -L --any-owner ... " */
    size_t used = snprintf(entries, sizeof(entries), " ");
    int problems = 0, number = 0;
    const char *section = "";
    bool tag = false;                       /* the line after .TP */
    for (char *line = page, *end; *line; line = end)
    {
        end = line + strcspn(line, "\n");
        if (*end)
            *end++ = 0;
        number++;
        if (strncmp(line, ".SH ", 4) == 0)
            section = line + 4;
        if (strcmp(section, "SYNOPSIS") != 0 &&
            strcmp(section, "OPTIONS") != 0)
            continue;
        char names[16][32];
        int count = man_options(line, names, 16);
        for (int n = 0; n < count; n++)
        {
            if (!known_option(names[n]))
            {
                print_error("recorder_scope.1:%d names %s, which the option "
                            "table lacks\n", number, names[n]);
                problems++;
            }
            if (tag && strcmp(section, "OPTIONS") == 0 &&
                used + strlen(names[n]) + 2 < sizeof(entries))
                used += (size_t) snprintf(entries + used,
                                          sizeof(entries) - used, "%s ",
                                          names[n]);
        }
        tag = strcmp(line, ".TP") == 0;
    }
    for (const scope_option *option = scope_option_table; option->handle;
         option++)
    {
        const char *names[2];
        for (int n = names_of(option, names); n-- > 0;)
        {
            char word[40];
            snprintf(word, sizeof(word), " %s ", names[n]);
            if (!strstr(entries, word))
            {
                print_error("recorder_scope.1: OPTIONS has no entry (.TP) "
                            "for %s\n", names[n]);
                problems++;
            }
        }
    }
    assert_int_equal(problems, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_text_mode_options_still_work),
        cmocka_unit_test(test_unknown_option_says_one_line),
        cmocka_unit_test(test_a_bad_line_is_two_lines_escaped),
        cmocka_unit_test(test_a_view_bounds_a_capture),
        cmocka_unit_test(test_missing_argument_says_one_line),
        cmocka_unit_test(test_regexes_make_graphs_with_views_toggled_before),
        cmocka_unit_test(test_bad_regex_is_named),
        cmocka_unit_test(test_event_regexes_are_kept_and_checked),
        cmocka_unit_test(test_double_dash_ends_options),
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_bad_geometry_is_named),
        cmocka_unit_test(test_ratio),
        cmocka_unit_test(test_bad_ratio_is_named),
        cmocka_unit_test(test_sliders),
        cmocka_unit_test(test_bad_sliders_are_named),
        cmocka_unit_test(test_duration_and_samples),
        cmocka_unit_test(test_bad_duration_and_samples_are_named),
        cmocka_unit_test(test_headless_needs_a_duration),
        cmocka_unit_test(test_pick_opens_the_window_only),
        cmocka_unit_test(test_list_segments),
        cmocka_unit_test(test_basename),
        cmocka_unit_test(test_capture_duration_is_the_span),
        cmocka_unit_test(test_theme),
        cmocka_unit_test(test_frame_ceiling),
        cmocka_unit_test(test_slider_ranges_when_none_given),
        cmocka_unit_test(test_option_forms),
        cmocka_unit_test(test_every_option_is_in_help),
        cmocka_unit_test(test_every_option_is_in_the_man_page),
    };
    return cmocka_run_group_tests_name("scope_options", tests, NULL, NULL);
}
