/* command_queue.c - a worker thread that sends commands to the program. */
#include "command_queue.h"

#include <recorder/recorder_share.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEND_TIMEOUT_MS 1000
#define OUTCOMES        8

typedef struct pending
{
    char *          command;
    char *          key;
    struct pending *next;
} pending;

typedef struct outcome
{
    char text[320];
    bool failed;
} outcome;

struct scope_commands
{
    char            path[4096];
    unsigned        open_flags;
    pthread_t       thread;
    pthread_mutex_t lock;
    pthread_cond_t  wake;               /* work queued, or quitting */
    pthread_cond_t  idle;               /* the queue emptied */
    pending *       head;
    bool            busy;               /* a command is being sent */
    bool            quit;
    outcome         outcomes[OUTCOMES];
    unsigned        written, read;      /* outcome ring indexes */
    recorder_share *share;              /* the worker's own view */
};

static void pending_free(pending *p)
{
    free(p->command);
    free(p->key);
    free(p);
}

/* The worker's segment, reopened if a new process took the path. */
static recorder_share *worker_share(scope_commands *queue, char *error,
                                    size_t size)
{
    if (queue->share &&
        recorder_share_state(queue->share) == RECORDER_SHARE_REPLACED)
    {
        recorder_share_close(queue->share);
        queue->share = NULL;
    }
    if (!queue->share)
        queue->share = recorder_share_open_flags(queue->path,
                                                 queue->open_flags, error, size);
    return queue->share;
}

static void add_outcome(scope_commands *queue, const char *text, bool failed)
{
    outcome *o = &queue->outcomes[queue->written % OUTCOMES];
    snprintf(o->text, sizeof(o->text), "%s", text);
    o->failed = failed;
    queue->written++;
    if (queue->written - queue->read > OUTCOMES)
        queue->read = queue->written - OUTCOMES;
}

static void *worker(void *arg)
{
    scope_commands *queue = arg;
    pthread_mutex_lock(&queue->lock);
    for (;;)
    {
        while (!queue->head && !queue->quit)
            pthread_cond_wait(&queue->wake, &queue->lock);
        if (queue->quit)
            break;
        pending *job = queue->head;
        queue->head = job->next;
        queue->busy = true;
        pthread_mutex_unlock(&queue->lock);

        char error[512], text[320];
        bool sent = false;
        recorder_share *share = worker_share(queue, error, sizeof(error));
        if (share)
            sent = recorder_share_send(share, job->command, SEND_TIMEOUT_MS,
                                       error, sizeof(error));
        if (sent)
            snprintf(text, sizeof(text), "sent '%.200s'", job->command);
        else
            snprintf(text, sizeof(text), "'%.80s' not sent: %.200s",
                     job->command, error);
        pending_free(job);

        pthread_mutex_lock(&queue->lock);
        add_outcome(queue, text, !sent);
        queue->busy = false;
        if (!queue->head)
            pthread_cond_broadcast(&queue->idle);
    }
    pthread_mutex_unlock(&queue->lock);
    return NULL;
}

scope_commands *scope_commands_new(const char *path, unsigned open_flags)
{
    scope_commands *queue = calloc(1, sizeof(*queue));
    if (!queue)
        return NULL;
    queue->open_flags = open_flags;
    snprintf(queue->path, sizeof(queue->path), "%s",
             path ? path : recorder_share_default_path());
    pthread_mutex_init(&queue->lock, NULL);
    pthread_cond_init(&queue->wake, NULL);
    pthread_cond_init(&queue->idle, NULL);
    if (pthread_create(&queue->thread, NULL, worker, queue) != 0)
        goto fail_thread;
    return queue;

fail_thread:
    pthread_cond_destroy(&queue->idle);
    pthread_cond_destroy(&queue->wake);
    pthread_mutex_destroy(&queue->lock);
    free(queue);
    return NULL;
}

void scope_commands_delete(scope_commands *queue)
{
    if (!queue)
        return;
    pthread_mutex_lock(&queue->lock);
    queue->quit = true;
    pthread_cond_broadcast(&queue->wake);
    pthread_mutex_unlock(&queue->lock);
    pthread_join(queue->thread, NULL);
    while (queue->head)
    {
        pending *next = queue->head->next;
        pending_free(queue->head);
        queue->head = next;
    }
    recorder_share_close(queue->share);
    pthread_cond_destroy(&queue->idle);
    pthread_cond_destroy(&queue->wake);
    pthread_mutex_destroy(&queue->lock);
    free(queue);
}

bool scope_commands_send(scope_commands *queue, const char *command,
                         const char *key)
{
    pending *job = calloc(1, sizeof(*job));
    if (!job || !(job->command = strdup(command)) ||
        (key && !(job->key = strdup(key))))
    {
        if (job)
            pending_free(job);
        return false;
    }
    pthread_mutex_lock(&queue->lock);
    pending **link = &queue->head;
    for (; *link; link = &(*link)->next)
    {
        if (key && (*link)->key && strcmp((*link)->key, key) == 0)
        {
            /* Replace it in place: it keeps its turn. */
            job->next = (*link)->next;
            pending_free(*link);
            *link = job;
            break;
        }
    }
    if (!*link)
        *link = job;
    pthread_cond_signal(&queue->wake);
    pthread_mutex_unlock(&queue->lock);
    return true;
}

bool scope_commands_outcome(scope_commands *queue, char *buf, size_t size,
                            bool *failed)
{
    pthread_mutex_lock(&queue->lock);
    bool any = queue->read != queue->written;
    if (any)
    {
        outcome *o = &queue->outcomes[queue->read++ % OUTCOMES];
        snprintf(buf, size, "%s", o->text);
        if (failed)
            *failed = o->failed;
    }
    pthread_mutex_unlock(&queue->lock);
    return any;
}

bool scope_commands_flush(scope_commands *queue, unsigned timeout_ms)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long) (timeout_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000)
    {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&queue->lock);
    int err = 0;
    while ((queue->head || queue->busy) && err != ETIMEDOUT)
        err = pthread_cond_timedwait(&queue->idle, &queue->lock, &deadline);
    bool done = !queue->head && !queue->busy;
    pthread_mutex_unlock(&queue->lock);
    return done;
}
