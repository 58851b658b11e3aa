/* status_text.h - the window's status line, news first.
 *
 * One line at the bottom of the window, ellipsized at its end when the
 * window is narrow: so what the user just did (a save, an error) comes
 * first, then the paused span, then the readout. Where the program stands
 * is not repeated here: the title names it and each graph says what it
 * lacks (waiting, exited) once.
 */
#ifndef SCOPE_STATUS_TEXT_H
#define SCOPE_STATUS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* "ACTION   |   PAUSED   |   READOUT", leaving out the empty parts. */
void scope_status_compose(char *buf, size_t size, const char *action,
                          const char *paused, const char *readout);

/* What a save says in the status line: the file names first, their
 * directory last, so a long path is what gets cut:
 *   saved shot-3.png and shot-3.csv (300 rows) in /tmp/x
 * 'base' is the -b prefix, 'number' the file number; 'why_empty' says why
 * a CSV has no row (when rows == 0). */
void scope_saved_text(char *buf, size_t size, const char *base,
                      unsigned number, bool image, bool data, long rows,
                      const char *why_empty);

#endif /* SCOPE_STATUS_TEXT_H */
