/* scope_options.h - the command line of recorder_scope. */
#ifndef SCOPE_OPTIONS_H
#define SCOPE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define SCOPE_MAX_ITEMS 64

typedef struct scope_options
{
    const char *share_path;             /* -S, NULL for the default */
    const char *commands[SCOPE_MAX_ITEMS];  /* -c, in order */
    unsigned    command_count;
    bool        list;                   /* -l */
    bool        dump;                   /* -D */
    const char *dump_regex;             /* -D REGEX, NULL for all */
    const char *channels[SCOPE_MAX_ITEMS];  /* positional channel regexes */
    unsigned    channel_count;
} scope_options;

typedef enum scope_parse
{
    SCOPE_PARSE_RUN,                    /* options are ready */
    SCOPE_PARSE_EXIT_OK,                /* --help or --version was printed */
    SCOPE_PARSE_EXIT_USAGE              /* an error and usage were printed */
} scope_parse;

/* Parse argv; messages go to stderr, --help and --version to stdout. */
scope_parse scope_options_parse(int argc, char **argv, scope_options *options);

#endif /* SCOPE_OPTIONS_H */
