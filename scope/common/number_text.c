/* number_text.c - the shortest exact text of a double. */
#include "common/number_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scope_shortest_double(double value, char *buf, size_t size)
{
    if (isnan(value))
        return snprintf(buf, size, "nan");
    if (isinf(value))
        return snprintf(buf, size, value < 0 ? "-inf" : "inf");
    /* 17 significant digits always round-trip a binary64; most values
     * need far fewer. Compare bits, so -0 stays -0. */
    char text[40];
    for (int digits = 1; digits < 17; digits++)
    {
        snprintf(text, sizeof(text), "%.*g", digits, value);
        double back = strtod(text, NULL);
        if (memcmp(&back, &value, sizeof(back)) != 0)
            continue;
        /* %g writes 100 as 1e+02 with one digit: a number below 1e17
         * keeps its integer digits (the same double, easier to read). */
        const char *e = strchr(text, 'e');
        int exponent = e ? atoi(e + 1) : 0;
        if (exponent > 0 && exponent < 17)
            snprintf(text, sizeof(text), "%.*g", exponent + 1, value);
        return snprintf(buf, size, "%s", text);
    }
    return snprintf(buf, size, "%.17g", value);
}
