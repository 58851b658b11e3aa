/* pause_ms.h - the test writers' pause between records, in milliseconds. */
#ifndef PAUSE_MS_H
#define PAUSE_MS_H

#include <time.h>

static inline void pause_ms(long ms)
{
    struct timespec delay = { ms / 1000, (ms % 1000) * 1000000 };
    nanosleep(&delay, NULL);
}

#endif /* PAUSE_MS_H */
