/* readout.c - values under the pointer and between the cursors. */
#include "view/readout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const prefixes[] = {
    "f", "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
};
#define UNPREFIXED 5

/* The group of three decades of 'v' and its mantissa there, rounded to
 * 'decimals' without reaching 1000. */
static int engineering(double v, int decimals, double *mantissa)
{
    int group = v == 0 ? 0 : (int) floor(log10(fabs(v)) / 3);
    if (group < -UNPREFIXED)
        group = -UNPREFIXED;
    if (group > 6)
        group = 6;
    *mantissa = v / pow(10, 3 * group);
    /* Rounding may reach the next group: 999.9996 k. */
    if (fabs(*mantissa) >= 1000 - 0.5 * pow(10, -decimals) && group < 6)
    {
        group++;
        *mantissa /= 1000;
    }
    return group;
}

size_t scope_readout_short(double v, const char *unit, char *buf,
                           size_t size)
{
    int n;
    if (!isfinite(v))
        n = snprintf(buf, size, "%s", isnan(v) ? "-" : v > 0 ? "inf" : "-inf");
    else
    {
        double mantissa;
        int group = engineering(v, 1, &mantissa);
        n = snprintf(buf, size, "%.4g%s%s%s", mantissa,
                     prefixes[group + UNPREFIXED] [0] || unit[0] ? " " : "",
                     prefixes[group + UNPREFIXED], unit);
    }
    return n < 0 ? 0 : (size_t) n >= size ? size ? size - 1 : 0 : (size_t) n;
}

size_t scope_readout_number(double v, const char *unit, char *buf,
                            size_t size)
{
    int n;
    if (!isfinite(v))
        n = snprintf(buf, size, "%8s %s", isnan(v) ? "-" : v > 0 ? "inf"
                                                         : "-inf", unit);
    else if (v == floor(v) && fabs(v) < 1000)
        n = snprintf(buf, size, "%8.0f %s", v, unit);
    else
    {
        double mantissa;
        int group = engineering(v, 3, &mantissa);
        n = snprintf(buf, size, "%8.3f %s%s", mantissa,
                     prefixes[group + UNPREFIXED], unit);
    }
    return n < 0 ? 0 : (size_t) n >= size ? size ? size - 1 : 0 : (size_t) n;
}

size_t scope_readout_time(double t, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%.6f s", t);
    return n < 0 ? 0 : (size_t) n >= size ? size ? size - 1 : 0 : (size_t) n;
}

typedef struct text
{
    char * buf;
    size_t size, used;
} text;

static void say(text *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void say(text *out, const char *format, ...)
{
    if (out->used + 1 >= out->size)
        return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(out->buf + out->used, out->size - out->used, format,
                      args);
    va_end(args);
    if (n < 0)
        return;
    out->used += (size_t) n < out->size - out->used
               ? (size_t) n : out->size - out->used - 1;
}

/* Widest shown name, so the numbers line up in columns. */
static int name_width(scope_series *const *series, unsigned count,
                      const bool *hidden)
{
    size_t widest = 1;
    for (unsigned s = 0; s < count; s++)
        if (!(hidden && hidden[s]) && strlen(series[s]->name) > widest)
            widest = strlen(series[s]->name);
    return widest > 24 ? 24 : (int) widest;
}

size_t scope_readout_text(scope_series *const *series, unsigned count,
                          const bool *hidden, double hover, double a,
                          double b, char *buf, size_t size)
{
    text out = { buf, size, 0 };
    if (size)
        buf[0] = 0;
    int width = name_width(series, count, hidden);
    char number[64], other[64], delta[64];

    if (!isnan(hover))
    {
        scope_readout_time(hover, number, sizeof(number));
        say(&out, "t %s\n", number);
        for (unsigned s = 0; s < count; s++)
        {
            double when, value;
            if (hidden && hidden[s])
                continue;
            if (!scope_series_value_at(series[s], hover, &when, &value))
                value = NAN;
            scope_readout_number(value, series[s]->unit, number,
                                 sizeof(number));
            /* The legend says what is lost now; the total is here. */
            if (series[s]->lost)
                say(&out, "%-*.*s %s  (%llu lost in all)\n", width, width,
                    series[s]->name, number,
                    (unsigned long long) series[s]->lost);
            else
                say(&out, "%-*.*s %s\n", width, width, series[s]->name,
                    number);
        }
    }
    if (isnan(a) || isnan(b))
    {
        double one = isnan(a) ? b : a;
        if (!isnan(one))
        {
            scope_readout_time(one, number, sizeof(number));
            say(&out, "%s %s\n", isnan(a) ? "B" : "A", number);
        }
        return out.used;
    }
    double dt = b - a;
    scope_readout_number(dt, "s", number, sizeof(number));
    scope_readout_number(dt != 0 ? 1 / fabs(dt) : NAN, "Hz", other,
                         sizeof(other));
    say(&out, "dt %s  1/dt %s\n", number, other);
    for (unsigned s = 0; s < count; s++)
    {
        double when, at_a, at_b;
        if (hidden && hidden[s])
            continue;
        if (!scope_series_value_at(series[s], a, &when, &at_a))
            at_a = NAN;
        if (!scope_series_value_at(series[s], b, &when, &at_b))
            at_b = NAN;
        const char *unit = series[s]->unit;
        scope_readout_number(at_a, unit, number, sizeof(number));
        scope_readout_number(at_b, unit, other, sizeof(other));
        scope_readout_number(at_b - at_a, unit, delta, sizeof(delta));
        say(&out, "%-*.*s A %s  B %s  delta %s\n", width, width,
            series[s]->name, number, other, delta);
    }
    return out.used;
}
