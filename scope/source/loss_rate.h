/* loss_rate.h - the share of a channel's records lost lately.
 *
 * A running total of lost records says nothing about now: one burst at
 * start-up stays in the legend forever. This counts records read and lost
 * in tenths of a second and tells the share lost over the last second, so
 * the legend says "lost 3.2% in the last second" while it happens and
 * nothing a second after it stops. Times are the caller's monotonic
 * seconds, so tests control them.
 */
#ifndef SCOPE_LOSS_RATE_H
#define SCOPE_LOSS_RATE_H

#include <stdbool.h>
#include <stdint.h>

#define SCOPE_LOSS_WINDOW       1.0     /* seconds looked back */
#define SCOPE_LOSS_SLOTS        10      /* of SCOPE_LOSS_WINDOW / 10 each */

typedef struct scope_loss_rate
{
    bool     started;
    int64_t  newest;                    /* slot number of the last add */
    uint64_t read[SCOPE_LOSS_SLOTS];
    uint64_t lost[SCOPE_LOSS_SLOTS];
} scope_loss_rate;

void scope_loss_rate_init(scope_loss_rate *rate);

/* Records read and lost at monotonic time 'now' (which must not go
 * backwards). */
void scope_loss_rate_add(scope_loss_rate *rate, double now, uint64_t read,
                         uint64_t lost);

/* Share of the records of the last second that were lost, in [0, 1]: 0
 * when none were. */
double scope_loss_rate_recent(const scope_loss_rate *rate, double now);

/* "lost 3.2% in the last second" for a share > 0, else "". */
void scope_loss_rate_text(double share, char *buf, unsigned size);

#endif /* SCOPE_LOSS_RATE_H */
