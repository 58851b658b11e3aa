/* axis_ticks.c - 1-2-5 tick steps and their labels. */
#include "view/axis_ticks.h"

#include <math.h>
#include <stdio.h>

double scope_tick_step(double lo, double hi, unsigned target)
{
    double span = fabs(hi - lo);
    if (target < 1)
        target = 1;
    if (!(span > 0) || !isfinite(span))
        span = fabs(lo) > 0 && isfinite(lo) ? fabs(lo) : 1.0;
    double raw = span / target;
    double magnitude = pow(10.0, floor(log10(raw)));
    double norm = raw / magnitude;
    double nice = norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10;
    return nice * magnitude;
}

static void choose_scale(scope_ticks *ticks, double lo, double hi, bool si)
{
    static const struct { double scale; const char *prefix; } prefixes[] = {
        { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
    };
    static const struct { double scale; const char *prefix; } small[] = {
        { 1e-3, "m" }, { 1e-6, "u" }, { 1e-9, "n" },
    };
    double magnitude = fmax(fabs(lo), fabs(hi));
    ticks->scale = 1.0;
    ticks->prefix = "";
    if (si && magnitude >= 1e4)
    {
        for (unsigned p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++)
            if (magnitude >= prefixes[p].scale)
            {
                ticks->scale = prefixes[p].scale;
                ticks->prefix = prefixes[p].prefix;
                break;
            }
    }
    else if (si && magnitude > 0 && magnitude < 1e-2)
    {
        for (unsigned p = 0; p < sizeof(small) / sizeof(small[0]); p++)
        {
            ticks->scale = small[p].scale;
            ticks->prefix = small[p].prefix;
            if (magnitude >= small[p].scale)
                break;
        }
    }
    double step = ticks->step / ticks->scale;
    int decimals = (int) -floor(log10(step) + 1e-9);
    ticks->decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
}

bool scope_ticks_make(double lo, double hi, unsigned target, bool si,
                      scope_ticks *ticks)
{
    if (!isfinite(lo) || !isfinite(hi))
        return false;
    if (hi < lo)
    {
        double swap = lo;
        lo = hi;
        hi = swap;
    }
    if (hi == lo)
    {
        double pad = lo ? fabs(lo) * 0.1 : 1.0;
        lo -= pad;
        hi += pad;
    }
    ticks->step = scope_tick_step(lo, hi, target);
    ticks->first = ceil(lo / ticks->step - 1e-9) * ticks->step;
    double count = floor((hi - ticks->first) / ticks->step + 1e-9) + 1;
    ticks->count = count < 0 ? 0 : count > 1000 ? 1000 : (unsigned) count;
    choose_scale(ticks, lo, hi, si);
    return true;
}

void scope_range_nice(double *lo, double *hi, unsigned target)
{
    double a = *lo, b = *hi;
    if (!isfinite(a) || !isfinite(b))
    {
        *lo = 0;
        *hi = 1;
        return;
    }
    if (b < a)
    {
        double swap = a;
        a = b;
        b = swap;
    }
    if (a == b)
    {
        double pad = a ? fabs(a) * 0.1 : 1.0;
        a -= pad;
        b += pad;
    }
    double step = scope_tick_step(a, b, target);
    *lo = floor(a / step + 1e-9) * step;
    *hi = ceil(b / step - 1e-9) * step;
    if (*hi <= *lo)
        *hi = *lo + step;
}

double scope_tick_value(const scope_ticks *ticks, unsigned index)
{
    double value = ticks->first + index * ticks->step;
    /* first + n * step leaves crumbs like 1e-17 where 0 should be. */
    if (fabs(value) < ticks->step * 1e-6)
        value = 0;
    return value;
}

size_t scope_tick_label(const scope_ticks *ticks, double value, char *buf,
                        size_t size)
{
    double shown = value / ticks->scale;
    if (fabs(shown) < 1e-12 * (ticks->step / ticks->scale))
    {
        /* Zero needs neither decimals nor a prefix. */
        int n = snprintf(buf, size, "0");
        return n < 0 ? 0 : (size_t) n;
    }
    int n = snprintf(buf, size, "%.*f%s", ticks->decimals, shown,
                     ticks->prefix);
    if (n > 0 && buf[0] == '-')
    {
        /* "-0" or "-0.0" after rounding: say 0. */
        bool zero = true;
        for (const char *p = buf + 1; *p && *p != ticks->prefix[0]; p++)
            if (*p != '0' && *p != '.')
                zero = false;
        if (zero)
            n = snprintf(buf, size, "%.*f%s", ticks->decimals, 0.0,
                         ticks->prefix);
    }
    return n < 0 ? 0 : (size_t) n;
}

size_t scope_value_label(double value, char *buf, size_t size)
{
    int n;
    if (isnan(value))
        n = snprintf(buf, size, "-");
    else if (value == floor(value) && fabs(value) < 1e15)
        n = snprintf(buf, size, "%.0f", value);
    else
        n = snprintf(buf, size, "%.6g", value);
    return n < 0 ? 0 : (size_t) n;
}
