/* option_values.c - read the values of recorder_scope's options. */
#include "options/scope_options_private.h"
#include "common/scope_message.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line quotes what was typed: scope_message shows a newline or a
 * terminal escape in it as \xNN, so it stays one line and drives nothing. */
static scope_parse say_bad_line(const char *line)
{
    scope_message("%s", line);
    fputs("Try 'recorder_scope --help' for more information.\n", stderr);
    return SCOPE_PARSE_EXIT_USAGE;
}

scope_parse option_usage_error(const char *format, const char *what)
{
    char line[1024];
    snprintf(line, sizeof(line), format, what);
    return say_bad_line(line);
}

scope_parse option_value_error(const char *option, const char *value,
                               const char *why)
{
    char line[1024];
    snprintf(line, sizeof(line), "%s '%s': %s", option, value, why);
    return say_bad_line(line);
}

bool option_read_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(value))
        return false;
    *out = value;
    return true;
}

bool option_read_integer(const char *text, const char **rest, char stop,
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

scope_parse option_read_geometry(const char *text, scope_options *options)
{
    static const char why[] =
        "expected WxH or WxH@XxY with sizes from 1 to 32767, e.g. 800x600@0x0";
    long w, h, x = 0, y = 0;
    const char *at;
    if (!option_read_integer(text, &at, 'x', &w) || *at != 'x' ||
        !option_read_integer(at + 1, &at, '@', &h))
        return option_value_error("-g", text, why);
    bool position = *at == '@';
    if (position &&
        (!option_read_integer(at + 1, &at, 'x', &x) || *at != 'x' ||
         !option_read_integer(at + 1, NULL, 0, &y)))
        return option_value_error("-g", text, why);
    if (w < 1 || w > 32767 || h < 1 || h > 32767 ||
        x < -32768 || x > 32767 || y < -32768 || y > 32767)
        return option_value_error("-g", text, why);
    options->has_size = true;
    options->has_position = position;
    options->width = (int) w;
    options->height = (int) h;
    options->x = (int) x;
    options->y = (int) y;
    return SCOPE_PARSE_RUN;
}

scope_parse option_read_slider(const char *text, scope_slider_spec *slider)
{
    memset(slider, 0, sizeof(*slider));
    size_t length = strcspn(text, "=");
    if (length == 0 || length >= sizeof(slider->name))
        return option_value_error("-s", text, "expected NAME, NAME=INIT or "
                                  "NAME=INIT:MIN:MAX, with a name of 1 to 63 "
                                  "characters");
    if (strcspn(text, " \t:,") < length)
        return option_value_error("-s", text, "a tweak name has no spaces, "
                                  "':' or ','");
    memcpy(slider->name, text, length);
    if (!text[length])
        return SCOPE_PARSE_RUN;

    const char *value = text + length + 1;
    const char *rest;
    static const char integers[] =
        "expected NAME=INIT or NAME=INIT:MIN:MAX with integers, "
        "e.g. transfer_delay=1000:0:5000";
    if (!option_read_integer(value, &rest, ':', &slider->value))
        return option_value_error("-s", text, integers);
    slider->has_value = true;
    if (!*rest)
        return SCOPE_PARSE_RUN;
    if (!option_read_integer(rest + 1, &rest, ':', &slider->min) ||
        *rest != ':' || !option_read_integer(rest + 1, NULL, 0, &slider->max))
        return option_value_error("-s", text, integers);
    if (slider->min >= slider->max)
        return option_value_error("-s", text, "MIN must be below MAX");
    if (slider->value < slider->min || slider->value > slider->max)
        return option_value_error("-s", text,
                                  "INIT must be between MIN and MAX");
    slider->has_range = true;
    return SCOPE_PARSE_RUN;
}
