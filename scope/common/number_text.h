/* number_text.h - numbers as the shortest text that reads back exactly.
 *
 * "%.17g" always reads back as the same double, but writes 0.1 as
 * 0.10000000000000001; the shortest "%.Ng" that strtod() turns back into
 * the very same bits is what a person (and a diff) wants in a CSV.
 */
#ifndef SCOPE_NUMBER_TEXT_H
#define SCOPE_NUMBER_TEXT_H

#include <stddef.h>

/* Write 'value' into buf[size] with the fewest significant digits that
 * read back exactly (NaN as "nan", infinities as "inf" and "-inf").
 * Returns the length, as snprintf() does. */
int scope_shortest_double(double value, char *buf, size_t size);

#endif /* SCOPE_NUMBER_TEXT_H */
