/* capture.h - test helpers: collect what the recorder prints, and stderr. */
#ifndef RECORDER_TEST_CAPTURE_H
#define RECORDER_TEST_CAPTURE_H

#include "recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char captured[1 << 20];
static size_t captured_len;

/* A show function as recorder 1.2 defined them: it gets one line without
 * its newline, and adds it. */
static unsigned capture_show(const char *text, size_t len, void *arg)
{
    (void) arg;
    if (captured_len + len + 1 >= sizeof(captured))
        len = sizeof(captured) - 2 - captured_len;
    memcpy(captured + captured_len, text, len);
    captured_len += len;
    captured[captured_len++] = '\n';
    captured[captured_len] = 0;
    return (unsigned) len;
}

/* Send recorder output to 'captured', emptied. */
static inline void capture_start(void)
{
    captured_len = 0;
    captured[0] = 0;
    recorder_configure_show(capture_show);
    recorder_configure_format(NULL);
}

/* Run with stderr going to a temporary file; return what was written there
 * (static storage, valid until the next call). */
static int stderr_saved = -1;
static FILE *stderr_file;
static inline void stderr_capture_start(void)
{
    fflush(stderr);
    stderr_file = tmpfile();
    stderr_saved = dup(2);
    dup2(fileno(stderr_file), 2);
}

static inline const char *stderr_capture_end(void)
{
    static char text[65536];
    fflush(stderr);
    dup2(stderr_saved, 2);
    close(stderr_saved);
    rewind(stderr_file);
    size_t n = fread(text, 1, sizeof(text) - 1, stderr_file);
    text[n] = 0;
    fclose(stderr_file);
    return text;
}

/* Count the non-overlapping occurrences of 'needle' in 'haystack'. */
static inline unsigned count_of(const char *haystack, const char *needle)
{
    unsigned count = 0;
    for (const char *p = strstr(haystack, needle); p;
         p = strstr(p + strlen(needle), needle))
        count++;
    return count;
}

#endif /* RECORDER_TEST_CAPTURE_H */
