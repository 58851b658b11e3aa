/* headless.h - recorder_scope --png FILE [--csv FILE] --duration SECONDS
 *
 * For servers, CI and documentation: collect samples for a while, draw
 * the same graphs as the window into an image (cairo only: no GTK, no
 * display), write the files and exit. Waits for the program if it has not
 * started, follows it if it restarts, like the window.
 */
#ifndef SCOPE_HEADLESS_H
#define SCOPE_HEADLESS_H

#include "options/scope_options.h"

/* Run the capture; returns the exit status: 0 when the files were
 * written, 1 if the segment never became usable (the files are written
 * anyway, saying why) or a file could not be written. */
int scope_headless_run(const scope_options *options);

#endif /* SCOPE_HEADLESS_H */
