/* scope_message.h - recorder_scope's text for a terminal, always escaped.
 *
 * A line may carry text nobody on our command line typed: a file name a
 * pattern found in a world-writable directory, a program or channel name
 * or an error read from a segment. What recorder_scope prints of it goes
 * through here, so none reaches the terminal as control characters (each
 * is shown as \xNN by recorder_share_escape).
 */
#ifndef SCOPE_MESSAGE_H
#define SCOPE_MESSAGE_H

#include <stdio.h>

/* On stderr: "recorder_scope: ", the formatted text escaped, a newline.
 * The format ends without a newline. */
void scope_message(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/* The formatted text escaped, on 'out'; a newline that ends it is kept
 * as a newline, any other is escaped. */
void scope_print(FILE *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* SCOPE_MESSAGE_H */
