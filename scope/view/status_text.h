/* status_text.h - the window's status line, news first.
 *
 * One line at the bottom of the window, fitted to its width: what the
 * user just did (a save, an error) comes first, then the paused span,
 * then the readout; when all of it does not fit, shorter words and paths
 * shortened in their middle, and as much of the readout as fits (the box
 * over the graph has all of it, the tooltip too). Where the program stands
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

/* The readout's lines on one line, " | " between them, runs of spaces
 * squeezed: its columns line up in the box, one space is enough here. */
void scope_status_readout_line(const char *lines, char *buf, size_t size);

/* What the status line says. */
typedef struct scope_status_parts
{
    const char *action;                 /* what was just done, the
                                           trigger's state; may name files */
    bool        paused;                 /* the view is paused on */
    double      from, to;               /* this span */
    const char *readout;                /* scope_status_readout_line() */
} scope_status_parts;

/* All of it, for the tooltip and --trace-view:
 *   ACTION   |   PAUSED 3.2 s to 13.2 s (Home: live)   |   READOUT */
void scope_status_full(char *buf, size_t size,
                       const scope_status_parts *parts);

/* Width in pixels of 'text' as the status line shows it. */
typedef double scope_text_measure(const char *text, void *data);

/* The same in at most 'width' pixels, nothing cut in the middle of a word
 * or a number: all of it if it fits; else shorter words for the pause
 * ("paused 3.2–13.2 s"), the paths the action names shortened in their
 * middle (their file name kept), then of the readout the parts that fit
 * (the time and the first channels, dt when it fits), in its order. */
void scope_status_fit(char *buf, size_t size, const scope_status_parts *parts,
                      double width, scope_text_measure *measure, void *data);

/* What a save says in the status line: the file names first, their
 * directory last, so a long path is what gets cut:
 *   saved shot-3.png and shot-3.csv (300 rows) in /tmp/x
 * 'base' is the -b prefix, 'number' the file number; 'why_empty' says why
 * a CSV has no row (when rows == 0). */
void scope_saved_text(char *buf, size_t size, const char *base,
                      unsigned number, bool image, bool data, long rows,
                      const char *why_empty);

#endif /* SCOPE_STATUS_TEXT_H */
