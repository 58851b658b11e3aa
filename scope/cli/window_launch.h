/* window_launch.h - hand a window request to recorder_scope_window.
 *
 * recorder_scope itself links no GTK, so the text modes and captures run
 * on a server without it; the window is a second program, installed in
 * LIBEXECDIR/recorder, that this one execs with the same arguments.
 */
#ifndef WINDOW_LAUNCH_H
#define WINDOW_LAUNCH_H

/* Exec the window program with argv (argv[0] kept, so its messages still
 * say recorder_scope). Returns only on failure, with an exit status, after
 * one line saying what is missing: the program, or GTK 4 itself. Looks at
 * $RECORDER_SCOPE_WINDOW, then next to this program (build tree), then in
 * ../libexec/recorder beside it, then where 'make install' put it. */
int scope_window_launch(char **argv);

#endif /* WINDOW_LAUNCH_H */
