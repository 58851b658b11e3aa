/* scope_options.h - the command line of recorder_scope. */
#ifndef SCOPE_OPTIONS_H
#define SCOPE_OPTIONS_H

#include "view/palette.h"
#include "view/time_view.h"
#include "view/trigger.h"

#include <stdbool.h>
#include <stddef.h>

#define SCOPE_MAX_ITEMS 64

#define SCOPE_DEFAULT_DURATION  10.0            /* -d */
#define SCOPE_DEFAULT_RATIO     99.0            /* -r, percent */
#define SCOPE_DEFAULT_BASENAME  "recorder_scope_data-"
#define SCOPE_DEFAULT_WIDTH     900
#define SCOPE_DEFAULT_GRAPH_HEIGHT 300

/* -s NAME[=INIT[:MIN:MAX]] */
typedef struct scope_slider_spec
{
    char name[64];
    bool has_value;                     /* INIT given: set it on attach */
    bool has_range;                     /* MIN and MAX given */
    long value, min, max;
} scope_slider_spec;

/* --format: what -D writes. */
typedef enum scope_dump_format
{
    SCOPE_DUMP_TEXT,                    /* the default: dump lines */
    SCOPE_DUMP_CHROME_JSON,             /* chrome-json: trace events */
    SCOPE_DUMP_CTF                      /* ctf: a CTF trace in --output DIR */
} scope_dump_format;

typedef struct scope_options
{
    const char *share_path;             /* the first -S, NULL: the default */
    const char *share_paths[SCOPE_MAX_ITEMS];  /* every -S, in order: a path
                                           or a glob pattern */
    unsigned    share_path_count;
    unsigned    open_flags;             /* RECORDER_SHARE_ANY_OWNER */
    const char *commands[SCOPE_MAX_ITEMS];  /* -c, in order */
    unsigned    command_count;
    const char *events[SCOPE_MAX_ITEMS];    /* -e: recorders marked */
    unsigned    event_count;
    bool        list;                   /* -l */
    bool        list_segments;          /* -L: the segments found */
    const char *list_pattern;           /* -L PATTERN, NULL: -S or the
                                           default places */
    bool        dump;                   /* -D */
    const char *dump_regex;             /* -D REGEX, NULL for all */
    scope_dump_format dump_format;      /* --format */
    const char *output_dir;             /* --output DIR, with --format ctf */
    const char *channels[SCOPE_MAX_ITEMS];  /* positional channel regexes */
    unsigned    channel_views[SCOPE_MAX_ITEMS]; /* SCOPE_VIEW_* for each */
    unsigned    channel_count;
    unsigned    views;                  /* -t -m -a -n state at the end */

    scope_slider_spec sliders[SCOPE_MAX_ITEMS];     /* -s */
    unsigned    slider_count;
    double      duration;               /* -d seconds; 0: all kept */
    long        max_samples;            /* -w; -1 unset, 0 window width */
    double      ratio;                  /* -r as a fraction, 0.99 */
    const char *basename;               /* -b */
    bool        has_size, has_position; /* -g WxH[@XxY] */
    int         width, height, x, y;

    const char *png_path;               /* --png: headless capture */
    const char *csv_path;               /* --csv */
    double      capture_seconds;        /* --duration; < 0 unset */
    bool        headless;               /* --png or --csv given */
    scope_view_request view;            /* --view FROM:TO */
    bool        trace_view;             /* --trace-view */
    bool        has_trigger;            /* --trigger CHANNEL>LEVEL... */
    scope_trigger_spec trigger;
    scope_trigger_mode trigger_mode;    /* --trigger-mode, default auto */
    double      trigger_pre;            /* --pre as a fraction, 0.1 */
    bool        pick;                   /* --pick: open the channel picker */
    scope_theme theme;                  /* --theme auto|dark|light */
    const char *metrics;                /* --metrics [ADDR:]PORT, checked */
    double      max_fps;                /* --fps: frames a second the data
                                           may ask of a graph; 0: no limit */
} scope_options;

typedef enum scope_parse
{
    SCOPE_PARSE_RUN,                    /* options are ready */
    SCOPE_PARSE_EXIT_OK,                /* --help or --version was printed */
    SCOPE_PARSE_EXIT_USAGE              /* an error was printed: exit 2 */
} scope_parse;

/* Parse argv; messages go to stderr, --help and --version to stdout. */
scope_parse scope_options_parse(int argc, char **argv, scope_options *options);

/* What main() returns when parsing left nothing to run: 0 after --help or
 * --version, 2 after a bad command line. */
static inline int scope_parse_exit_status(scope_parse result)
{
    return result == SCOPE_PARSE_EXIT_USAGE ? 2 : 0;
}

/* A slider range for a tweak whose value is 'value' when none was given:
 * from 0 (or -limit for a negative value) to a round number at least
 * twice the value; 0 to 100 for 0. */
void scope_slider_range(long value, long *min, long *max);

#endif /* SCOPE_OPTIONS_H */
