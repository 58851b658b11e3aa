/* loss_rate.c - records lost over the last second. */
#include "source/loss_rate.h"

#include <math.h>
#include <stdio.h>

/* Slots per second: multiplied, so that whole tenths fall in their own
 * slot (50.0 / 0.1 is 499.999...). */
#define SLOTS_PER_SECOND        (SCOPE_LOSS_SLOTS / SCOPE_LOSS_WINDOW)

static int64_t slot_of(double now)
{
    return (int64_t) floor(now * SLOTS_PER_SECOND);
}

static unsigned ring_index(int64_t slot)
{
    int64_t i = slot % SCOPE_LOSS_SLOTS;
    return (unsigned) (i < 0 ? i + SCOPE_LOSS_SLOTS : i);
}

void scope_loss_rate_init(scope_loss_rate *rate)
{
    *rate = (scope_loss_rate) { .started = false };
}

void scope_loss_rate_add(scope_loss_rate *rate, double now, uint64_t read,
                         uint64_t lost)
{
    if (!isfinite(now))
        return;
    int64_t slot = slot_of(now);
    if (!rate->started || slot - rate->newest >= SCOPE_LOSS_SLOTS)
    {
        for (unsigned i = 0; i < SCOPE_LOSS_SLOTS; i++)
            rate->read[i] = rate->lost[i] = 0;
        rate->started = true;
        rate->newest = slot;
    }
    /* Slots passed since the last add start empty. */
    while (rate->newest < slot)
    {
        rate->newest++;
        unsigned i = ring_index(rate->newest);
        rate->read[i] = rate->lost[i] = 0;
    }
    /* A time that went back counts in the newest slot. */
    unsigned i = ring_index(rate->newest);
    rate->read[i] += read;
    rate->lost[i] += lost;
}

double scope_loss_rate_recent(const scope_loss_rate *rate, double now)
{
    if (!rate->started || !isfinite(now))
        return 0;
    int64_t slot = slot_of(now);
    uint64_t read = 0, lost = 0;
    /* Slots newer than one window before 'now', of those still kept. */
    for (int64_t s = rate->newest; s > rate->newest - SCOPE_LOSS_SLOTS &&
                                   s > slot - SCOPE_LOSS_SLOTS; s--)
    {
        read += rate->read[ring_index(s)];
        lost += rate->lost[ring_index(s)];
    }
    return lost ? (double) lost / ((double) read + (double) lost) : 0;
}

void scope_loss_rate_text(double share, char *buf, unsigned size)
{
    if (!size)
        return;
    double percent = share * 100;
    if (!(percent > 0))
        buf[0] = 0;
    else if (percent < 0.1)
        snprintf(buf, size, "lost <0.1%% in the last second");
    else
        snprintf(buf, size, "lost %.*f%% in the last second",
                 percent < 10 ? 1 : 0, percent);
}
