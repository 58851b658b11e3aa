/* window_title.h - the window's title: which program, which segment.
 *
 *   recorder_scope: perfdata[1234] /tmp/recorder_share
 *   recorder_scope: /tmp/recorder_share        (no program yet)
 *
 * The "recorder_scope: " prefix stays: scripts and tests find the window
 * by it. The program's name comes from the segment: anything but printable
 * ASCII in it shows as '?'.
 */
#ifndef SCOPE_WINDOW_TITLE_H
#define SCOPE_WINDOW_TITLE_H

#include <stddef.h>

/* 'program' NULL or empty when no program is attached. */
void scope_window_title(char *buf, size_t size, const char *path,
                        const char *program, unsigned pid);

/* What the header bar shows in bold above the path: "perfdata[1234]",
 * or "recorder_scope" when no program is attached. The path goes under
 * it, shortened in its middle when the bar is short of room, and the
 * whole title in its tooltip: at 900 pixels nothing of it is lost. */
void scope_window_heading(char *buf, size_t size, const char *program,
                          unsigned pid);

#endif /* SCOPE_WINDOW_TITLE_H */
