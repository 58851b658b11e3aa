/* default_signals.h - a forked test child starts as a program would.
 *
 * cmocka catches the faults of a test with handlers of its own, which a
 * child of the runner inherits. The library's handler calls the handler
 * it finds installed (recorder_dump_on_signal(3)), so a child that tests
 * what the library does with a crash first puts back the default actions.
 */
#ifndef RECORDER_TEST_DEFAULT_SIGNALS_H
#define RECORDER_TEST_DEFAULT_SIGNALS_H

#include <signal.h>

static inline void default_signals(void)
{
    static const int caught[] = {
        SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGABRT
    };
    for (unsigned i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
        signal(caught[i], SIG_DFL);
}

#endif /* RECORDER_TEST_DEFAULT_SIGNALS_H */
