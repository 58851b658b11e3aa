/* command_queue.c - post commands to the program, collect their answers. */
#include "source/command_queue.h"

#include <recorder/recorder_share.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ANSWER_TIMEOUT_MS 1000          /* then the user hears of it */
#define IN_FLIGHT         8             /* posted, not answered yet */
#define OUTCOMES          8

typedef struct queued
{
    char *         command;
    char *         key;
    struct queued *next;
} queued;

typedef struct posted
{
    char *                command;
    recorder_share_ticket ticket;
    uint64_t              posted_ms;
    bool                  late;         /* its timeout was reported */
} posted;

typedef struct outcome
{
    char text[400];
    bool failed;
} outcome;

struct scope_commands
{
    char            path[4096];
    unsigned        open_flags;
    recorder_share *share;              /* the queue's own view */
    queued *        head;
    posted          flight[IN_FLIGHT];
    unsigned        flying;
    outcome         outcomes[OUTCOMES];
    unsigned        written, read;      /* outcome ring indexes */
};

static uint64_t now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t) now.tv_sec * 1000 + (uint64_t) now.tv_nsec / 1000000;
}

static void queued_free(queued *q)
{
    free(q->command);
    free(q->key);
    free(q);
}

static void add_outcome(scope_commands *queue, bool failed,
                        const char *command, const char *what,
                        const char *reason)
{
    outcome *o = &queue->outcomes[queue->written % OUTCOMES];
    snprintf(o->text, sizeof(o->text), "'%.120s' %s%s%.250s", command, what,
             reason[0] ? ": " : "", reason);
    o->failed = failed;
    queue->written++;
    if (queue->written - queue->read > OUTCOMES)
        queue->read = queue->written - OUTCOMES;
}

/* Look at the answers of posted commands; keep those still to come. */
static void collect(scope_commands *queue)
{
    uint64_t now = now_ms();
    unsigned kept = 0;
    for (unsigned f = 0; f < queue->flying; f++)
    {
        posted *p = &queue->flight[f];
        char text[256];
        bool done = true;
        switch (recorder_share_answer(queue->share, p->ticket, 0, text,
                                      sizeof(text)))
        {
        case RECORDER_SHARE_APPLIED:
            add_outcome(queue, false, p->command,
                        p->late ? "applied, late" : "applied", "");
            break;
        case RECORDER_SHARE_REJECTED:
            add_outcome(queue, true, p->command, "refused", text);
            break;
        case RECORDER_SHARE_UNANSWERED:
            add_outcome(queue, true, p->command, "got no answer", text);
            break;
        case RECORDER_SHARE_PENDING:
            /* Said once; it stays posted, and counted, until answered. */
            if (!p->late && now - p->posted_ms > ANSWER_TIMEOUT_MS)
            {
                snprintf(text, sizeof(text),
                         "no answer within %u ms, is the program stuck?",
                         ANSWER_TIMEOUT_MS);
                add_outcome(queue, true, p->command, "not applied yet", text);
                p->late = true;
            }
            done = false;
            break;
        }
        if (done)
            free(p->command);
        else
            queue->flight[kept++] = *p;
    }
    queue->flying = kept;
}

/* The queue's segment, reopened once a new process took the path. The
 * old process's answers are read first: it gave them, or never will (a
 * still window reads them only on its next poll, maybe after the new
 * process came). */
static recorder_share *queue_share(scope_commands *queue, char *error,
                                   size_t size)
{
    if (queue->share &&
        recorder_share_state(queue->share) == RECORDER_SHARE_REPLACED)
    {
        collect(queue);
        /* None can still be pending there; were one, its ticket would
         * outlive the segment it belongs to. */
        for (unsigned f = 0; f < queue->flying; f++)
        {
            add_outcome(queue, true, queue->flight[f].command,
                        "got no answer", "the program was replaced");
            free(queue->flight[f].command);
        }
        queue->flying = 0;
        recorder_share_close(queue->share);
        queue->share = NULL;
    }
    if (!queue->share)
        queue->share = recorder_share_open_flags(queue->path,
                                                 queue->open_flags, error, size);
    return queue->share;
}

/* Post queued commands, oldest first, while there is room in flight. */
static void post(scope_commands *queue)
{
    while (queue->head && queue->flying < IN_FLIGHT)
    {
        queued *job = queue->head;
        queue->head = job->next;
        char error[512];
        recorder_share *share = queue_share(queue, error, sizeof(error));
        posted *p = &queue->flight[queue->flying];
        if (share && recorder_share_post(share, job->command, &p->ticket,
                                         error, sizeof(error)))
        {
            p->command = job->command;
            p->posted_ms = now_ms();
            p->late = false;
            queue->flying++;
            job->command = NULL;
        }
        else
        {
            add_outcome(queue, true, job->command, "not sent", error);
        }
        queued_free(job);
    }
}

void scope_commands_poll(scope_commands *queue)
{
    if (queue->flying)
        collect(queue);
    post(queue);
}

scope_commands *scope_commands_new(const char *path, unsigned open_flags)
{
    scope_commands *queue = calloc(1, sizeof(*queue));
    if (!queue)
        return NULL;
    queue->open_flags = open_flags;
    snprintf(queue->path, sizeof(queue->path), "%s",
             path ? path : recorder_share_default_path());
    return queue;
}

void scope_commands_delete(scope_commands *queue)
{
    if (!queue)
        return;
    while (queue->head)
    {
        queued *next = queue->head->next;
        queued_free(queue->head);
        queue->head = next;
    }
    for (unsigned f = 0; f < queue->flying; f++)
        free(queue->flight[f].command);
    recorder_share_close(queue->share);
    free(queue);
}

bool scope_commands_send(scope_commands *queue, const char *command,
                         const char *key)
{
    queued *job = calloc(1, sizeof(*job));
    if (!job || !(job->command = strdup(command)) ||
        (key && !(job->key = strdup(key))))
    {
        if (job)
            queued_free(job);
        return false;
    }
    queued **link = &queue->head;
    for (; *link; link = &(*link)->next)
    {
        if (key && (*link)->key && strcmp((*link)->key, key) == 0)
        {
            /* Replace it in place: it keeps its turn. */
            job->next = (*link)->next;
            queued_free(*link);
            *link = job;
            break;
        }
    }
    if (!*link)
        *link = job;
    post(queue);
    return true;
}

bool scope_commands_outcome(scope_commands *queue, char *buf, size_t size,
                            bool *failed)
{
    bool any = queue->read != queue->written;
    if (any)
    {
        outcome *o = &queue->outcomes[queue->read++ % OUTCOMES];
        snprintf(buf, size, "%s", o->text);
        if (failed)
            *failed = o->failed;
    }
    return any;
}

bool scope_commands_flush(scope_commands *queue, unsigned timeout_ms)
{
    uint64_t deadline = now_ms() + timeout_ms;
    for (;;)
    {
        scope_commands_poll(queue);
        bool waiting = false;
        for (unsigned f = 0; f < queue->flying; f++)
            waiting |= !queue->flight[f].late;
        if (!queue->head && !waiting)
            return true;
        if (now_ms() >= deadline)
            return false;
        usleep(1000);
    }
}
