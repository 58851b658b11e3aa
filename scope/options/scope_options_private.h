/* scope_options_private.h - what the parts of the option parser share:
 * the table of options and the readers of their values.
 */
#ifndef SCOPE_OPTIONS_PRIVATE_H
#define SCOPE_OPTIONS_PRIVATE_H

#include "options/scope_options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The table (option_table.c): recorder_scope's options, one row each.
 *
 * A row holds an option's names, whether it takes a value and what --help
 * calls it, the handler that reads it, and its --help text. The parser
 * finds the row of each word of the command line, --help prints the rows
 * in order, and tests/scope/test_scope_options.c checks the rows against --help
 * and the man page: an option added here is parsed, shown and checked.
 */

/* What the handlers have seen besides 'options': the checks made once the
 * whole line is read need to know what was given, not only its value. */
typedef struct option_state
{
    scope_options *options;
    bool        span_given;             /* -d */
    bool        trigger_mode_given;     /* --trigger-mode */
    bool        pre_given;              /* --pre */
    bool        format_given;           /* --format */
    bool        fps_given;              /* --fps */
} option_state;

typedef enum option_value
{
    OPTION_NO_VALUE,                    /* a flag; --name=VALUE is refused */
    OPTION_VALUE,                       /* the next word, or --name=VALUE */
    OPTION_OPTIONAL_VALUE               /* the next word, unless it starts
                                           with '-' (or there is none) */
} option_value;

typedef struct scope_option scope_option;

/* Reads 'value' (NULL for a flag, or an optional value not given) into
 * 'state'; a bad one is said in one line and SCOPE_PARSE_EXIT_USAGE
 * returned. SCOPE_PARSE_EXIT_OK ends parsing there (--help, --version). */
typedef scope_parse (*option_handler)(option_state *state,
                                      const scope_option *option,
                                      const char *value);

struct scope_option
{
    const char     *short_name;         /* "-S", or NULL */
    const char     *long_name;          /* "--png", or NULL */
    option_value    value;
    const char     *placeholder;        /* --help's name for the value:
                                           "PATH" (shown "[PATH]" when it
                                           is optional) */
    option_handler  handle;
    unsigned        view;               /* the SCOPE_VIEW_* -t -m -a -n
                                           toggle */
    const char     *synopsis;           /* --help's left column when not
                                           the names and placeholder */
    bool            help_below;         /* the help starts on the line
                                           after a long synopsis */
    const char     *help;               /* --help's text, its lines apart
                                           by '\n', without the indent */
};

/* Every option, in --help's order; a row with no handler ends it. */
extern const scope_option scope_option_table[];

/* The row of "-X", or of "--name" from the first 'length' characters of
 * 'name' (which may go on with "=VALUE"); NULL for none. */
const scope_option *scope_option_short(const char *name);
const scope_option *scope_option_long(const char *name, size_t length);

/* --help's left column for 'option': "-S PATH", "-h, --help"... */
void scope_option_synopsis(const scope_option *option, char *text,
                           size_t size);

/* The whole --help text. */
void scope_options_help(FILE *out);

/* Whether 'pattern' compiles as the library will compile it, why not in
 * why[size]. In scope_options.c: only that file is built with the
 * library's private headers (the Makefile's SCOPE_REGEX_USERS). */
bool option_regex_ok(const char *pattern, char *why, size_t size);

/* The values (option_values.c): the values of recorder_scope's options read from
 * text, and a bad command line said in one line.
 *
 * Every reader here either fills its result or says what is wrong (the
 * option, the value as typed, why) and returns SCOPE_PARSE_EXIT_USAGE; the
 * messages are a contract (tests/scope/check-scope-cli-errors.sh).
 */

/* On stderr: 'format' with 'what' in it, escaped on one line, then where
 * to read more (as coreutils do), not the whole usage text. */
scope_parse option_usage_error(const char *format, const char *what);

/* A bad value for a known option: "OPTION 'VALUE': WHY". */
scope_parse option_value_error(const char *option, const char *value,
                               const char *why);

/* A finite number, the whole text (strtod's syntax); false otherwise. */
bool option_read_number(const char *text, double *out);

/* A decimal integer with no sign '+' or leading space that ends at 'stop'
 * (0: at the end of the text); *rest, if given, is where it ended. */
bool option_read_integer(const char *text, const char **rest, char stop,
                         long *out);

/* -g WxH[@XxY] into the size and position of 'options'. */
scope_parse option_read_geometry(const char *text, scope_options *options);

/* -s NAME[=INIT[:MIN:MAX]] */
scope_parse option_read_slider(const char *text, scope_slider_spec *slider);

#endif /* SCOPE_OPTIONS_PRIVATE_H */
