/* recorder_level.h - a level crossed on a channel: 'CHANNEL>LEVEL'.
 *
 * The one spelling of a level condition, shared by recorder_scope's
 * --trigger and the snapshot=CHANNEL>LEVEL item of trace specifications:
 *   CHANNEL>LEVEL    rising through LEVEL
 *   CHANNEL<LEVEL    falling through LEVEL
 *   CHANNEL<>LEVEL   either
 * LEVEL is a number with an optional SI suffix (p n u µ m k M G T), e.g.
 * 2.5m, 10u, 4k.
 */
#ifndef RECORDER_LEVEL_H
#define RECORDER_LEVEL_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum recorder_level_edge
{
    RECORDER_LEVEL_RISING  = 1,         /* CHANNEL>LEVEL */
    RECORDER_LEVEL_FALLING = 2,         /* CHANNEL<LEVEL */
    RECORDER_LEVEL_EITHER  = 3          /* CHANNEL<>LEVEL */
} recorder_level_edge;

/* Longest channel name a crossing holds, plus one. */
#define RECORDER_LEVEL_CHANNEL_MAX      64

typedef struct recorder_level_crossing
{
    char                channel[RECORDER_LEVEL_CHANNEL_MAX];
    recorder_level_edge edge;
    double              level;
} recorder_level_crossing;

/* A number with an optional SI suffix ("2.5m" is 0.0025), spaces around
 * it allowed, finite. False if 'text' is not one. */
extern bool recorder_level_parse(const char *text, double *level);

/* 'CHANNEL>LEVEL', 'CHANNEL<LEVEL' or 'CHANNEL<>LEVEL'. False, with why
 * it is not one in why[why_size], if 'text' is not one. */
extern bool recorder_level_crossing_parse(const char *text,
                                          recorder_level_crossing *crossing,
                                          char *why, size_t why_size);

/* The crossing as it is spelled, in buf[size]; the length it needs. */
extern size_t recorder_level_crossing_text(
    const recorder_level_crossing *crossing, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_LEVEL_H */
