/* share_snapshots.c - the segment's side of snapshots: where it is
 * (share_snapshots_private.h). */
#include "segment/share_snapshots_private.h"
#include "segment/share_access_private.h"
#include "segment/share_file_private.h"
#include "segment/share_writer_state_private.h"
#include "recorder_share.h"

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

bool recorder_share_writing(char *out, size_t size)
{
    pthread_mutex_lock(&writer->lock);
    bool sharing = writer->header && writer->path[0] &&
                   !__atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE);
    int length = sharing ? snprintf(out, size, "%s", writer->path) : -1;
    pthread_mutex_unlock(&writer->lock);
    return length >= 0 && (size_t) length < size;
}

bool recorder_share_directory(char *out, size_t size)
{
    char path[PATH_MAX];
    if (!recorder_share_writing(path, sizeof(path)))
        snprintf(path, sizeof(path), "%s", recorder_share_default_path());
    char *slash = strrchr(path, '/');
    int length;
    if (!slash)
        length = snprintf(out, size, ".");
    else if (slash == path)
        length = snprintf(out, size, "/");
    else
        length = snprintf(out, size, "%.*s", (int) (slash - path), path);
    return length >= 0 && (size_t) length < size;
}

void recorder_share_snapshots_publish(const share_snapshot_table *table)
{
    pthread_mutex_lock(&writer->lock);
    share_snapshot_table *shared =
        writer->header && !__atomic_load_n(&writer->detached,
                                           __ATOMIC_ACQUIRE)
            ? share_at(&writer->view, writer->layout.snapshots.offset,
                       sizeof(*shared), 8)
            : NULL;
    if (shared && writer->layout.snapshots.size >= sizeof(*shared))
    {
        uint64_t sequence = __atomic_load_n(&shared->sequence,
                                            __ATOMIC_RELAXED) | 1;
        __atomic_store_n(&shared->sequence, sequence, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        /* Word by word, atomically: a reader may be copying meanwhile. */
        const uint64_t *from = (const uint64_t *) &table->events;
        uint64_t *to = &shared->events;
        size_t words = (sizeof(*table) -
                        offsetof(share_snapshot_table, events)) / 8;
        for (size_t w = 0; w < words; w++)
            __atomic_store_n(&to[w], from[w], __ATOMIC_RELAXED);
        __atomic_store_n(&shared->magic, SHARE_SNAPSHOT_MAGIC,
                         __ATOMIC_RELAXED);
        __atomic_store_n(&shared->size, (uint32_t) sizeof(*shared),
                         __ATOMIC_RELAXED);
        __atomic_store_n(&shared->sequence, sequence + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&writer->lock);
}
