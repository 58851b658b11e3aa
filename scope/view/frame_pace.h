/* frame_pace.h - when a graph needs a frame: paced by the data, not by
 * the display's refresh rate.
 *
 * A live graph scrolls, but its picture only changes when its edges have
 * moved by a pixel column (span / plot width seconds): a 60 s span over
 * 900 pixels needs about 15 frames a second, a 1 s span one every display
 * frame. Legend values change at most a few times a second, and only a
 * frame that would show other values or other text is worth drawing;
 * paused or with nothing new, no frame at all. What the user does
 * (zoom, pan, hover...) draws at once, outside this decision. A ceiling
 * on frames a second (--fps) spaces the frames data asks for, a scroll
 * then moving by several columns at once.
 *
 * Plain C, no GTK: the unit tests drive it directly.
 */
#ifndef SCOPE_FRAME_PACE_H
#define SCOPE_FRAME_PACE_H

#include <stdbool.h>

/* Legend values and the readout change at most this often, so they can
 * be read while data flows. */
#define SCOPE_TEXT_REFRESH      0.25    /* seconds */

typedef struct scope_frame_pace
{
    double now;                         /* seconds, the clock of the times */
    double t0, t1;                      /* span a frame would show now */
    double drawn_t0, drawn_t1;          /* span of the last frame; NaN: none */
    double width;                       /* plot width, pixels; <= 0: unknown */
    bool   scrolling;                   /* the live right edge moves with
                                           the clock (data flows) */
    bool   filling;                     /* a live span filling from its
                                           first sample (time_view.h): it
                                           stands, the data's edge moves */
    double lead, drawn_lead;            /* filling, that edge now and as
                                           last drawn (NaN: not drawn so) */
    bool   changed;                     /* text shown must change at once:
                                           a message, channels found */
    bool   stale;                       /* legend values (or samples in a
                                           paused span) differ from those
                                           drawn: refresh at the text pace */
    double text_time;                   /* when they were last refreshed */
    double last_frame;                  /* when the last frame was drawn */
    double min_interval;                /* seconds between frames the data
                                           asks for at least (--fps); 0:
                                           as often as the display */
} scope_frame_pace;

/* True if a frame is due now. Otherwise *next is when the next one will
 * be due if nothing else happens (INFINITY: none), assuming a scrolling
 * edge keeps up with the clock: an earlier check is harmless, it just
 * says so again. When due, *next is 'now'. */
bool scope_frame_pace_due(const scope_frame_pace *pace, double *next);

/* Seconds of one pixel column of [t0, t1] over 'width' pixels; NaN if
 * either is not a positive number. */
double scope_frame_pace_column(double t0, double t1, double width);

#endif /* SCOPE_FRAME_PACE_H */
