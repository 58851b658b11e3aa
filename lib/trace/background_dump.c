/* background_dump.c - a thread that dumps new records every few ms. */
#include "recorder.h"
#include "record/clock_private.h"
#include "recorder_regex.h"

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t control = PTHREAD_MUTEX_INITIALIZER; /* start, stop */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  wake = PTHREAD_COND_INITIALIZER;
static pthread_t       thread;
static bool            running;
static bool            stopping;
static char *          pattern;

static void *background(void *arg)
{
    (void) arg;
    pthread_mutex_lock(&lock);
    while (!stopping)
    {
        pthread_mutex_unlock(&lock);
        recorder_dump_for(pattern);

        intptr_t ms = RECORDER_TWEAK(recorder_dump_sleep);
        if (ms < 1)
            ms = 1;
        struct timespec until = recorder_monotonic_after_ms((uint64_t) ms);
        pthread_mutex_lock(&lock);
        if (!stopping)
            pthread_cond_timedwait(&wake, &lock, &until);
    }
    pthread_mutex_unlock(&lock);
    recorder_dump_for(pattern);         /* what came in since the last one */
    return NULL;
}

static void stop_locked(void);

void recorder_background_dump(const char *what)
{
    what = what ? what : ".*";
    regex_t check;
    char why[160];
    if (!recorder_regex_compile(&check, what, NULL, why, sizeof(why)))
    {
        fprintf(stderr, "recorder: invalid regular expression '%.300s' for "
                        "background dumps: %s\n", what, why);
        return;
    }
    regfree(&check);

    pthread_mutex_lock(&control);
    stop_locked();
    char *copy = strdup(what);
    if (copy)
    {
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_destroy(&wake);
        pthread_cond_init(&wake, &attr);
        pthread_condattr_destroy(&attr);
        pthread_mutex_lock(&lock);
        pattern = copy;
        stopping = false;
        running = pthread_create(&thread, NULL, background, NULL) == 0;
        pthread_mutex_unlock(&lock);
        if (!running)
            record(recorder_error, "Cannot start the background dump thread");
    }
    pthread_mutex_unlock(&control);
}

void recorder_background_dump_stop(void)
{
    pthread_mutex_lock(&control);
    stop_locked();
    pthread_mutex_unlock(&control);
}

static void stop_locked(void)
{
    pthread_mutex_lock(&lock);
    bool was_running = running;
    stopping = true;
    running = false;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    if (was_running)
        pthread_join(thread, NULL);
    free(pattern);
    pattern = NULL;
}
