/* sample_pace.h - how far apart a channel's samples usually are.
 *
 * Line joining and the "no data since" message ask one question: is this
 * gap a pause, or just how this channel goes? A channel sampled every
 * 1.1 s, or in bursts every 1.5 s, must not look paused between samples,
 * and a fixed second cannot tell. This keeps the last gaps and answers
 * with the third longest of them: the period of a regular channel, the
 * time between bursts of a bursty one (up to about ten samples a burst),
 * and not fooled by one or two real pauses among them.
 */
#ifndef SCOPE_SAMPLE_PACE_H
#define SCOPE_SAMPLE_PACE_H

#define SCOPE_PACE_GAPS         32      /* gaps remembered */
#define SCOPE_PACE_RANK         3       /* the answer: this longest one */

typedef struct scope_pace
{
    double   gap[SCOPE_PACE_GAPS];      /* seconds, a ring */
    unsigned next, count;
} scope_pace;

void scope_pace_init(scope_pace *pace);

/* Account for a gap, in seconds; NaN, infinite or negative ones are
 * ignored (no previous sample, samples lost in between). */
void scope_pace_add(scope_pace *pace, double gap);

/* The usual longest gap of the last ones, in seconds: the third longest
 * (the shortest when fewer are known). NaN before any gap. */
double scope_pace_usual(const scope_pace *pace);

#endif /* SCOPE_SAMPLE_PACE_H */
