/* option_values.h - the values of recorder_scope's options read from
 * text, and a bad command line said in one line.
 *
 * Every reader here either fills its result or says what is wrong (the
 * option, the value as typed, why) and returns SCOPE_PARSE_EXIT_USAGE; the
 * messages are a contract (tests/check-scope-cli-errors.sh).
 */
#ifndef SCOPE_OPTION_VALUES_H
#define SCOPE_OPTION_VALUES_H

#include "options/scope_options.h"

#include <stdbool.h>

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

#endif /* SCOPE_OPTION_VALUES_H */
