/* readout_place.h - where a readout box goes so that it hides nothing it
 * describes.
 *
 * The box of the pointer's readout, or of the cursors' differences, is
 * drawn over the graph. It must not cover the samples it gives values of
 * (along the crosshair, at cursor A and B), nor the axis labels and the
 * cursors' names that say what those samples are. Given the plot, the
 * graph around it, the rectangles to keep visible and the box's size,
 * scope_readout_place() picks the first free spot in an order a reader
 * expects: beside the pointer (right, else left; below, else above), then
 * slid along the crosshair between the samples, then anywhere along the
 * plot's edges; out of the plot (over the title and legend) only when the
 * plot has no free spot. Things to keep come in two kinds: those it must
 * leave (the samples it points at, the axis labels) and those it spares
 * when it can (the cursors' names, their samples under a pointer's
 * readout); when no spot leaves all of the first kind, it covers as
 * little of them as it can.
 *
 * Plain C, no cairo: the unit tests drive it directly.
 */
#ifndef SCOPE_READOUT_PLACE_H
#define SCOPE_READOUT_PLACE_H

#include <stdbool.h>

typedef struct scope_box
{
    double x, y, w, h;
} scope_box;

/* Pixels between the pointer and the box beside it. */
#define SCOPE_READOUT_GAP       14.0

typedef struct scope_readout_room
{
    scope_box        plot;              /* the plot area */
    scope_box        bounds;            /* the whole graph: nothing goes
                                           outside it */
    const scope_box *keep;              /* what the box must not cover */
    unsigned         keep_count;
    const scope_box *spare;             /* what it covers only when the
                                           plot and graph have no spot
                                           free of it */
    unsigned         spare_count;
    bool             pointer;           /* at (x, y); else a corner */
    double           x, y;
} scope_readout_room;

/* True if a and b share some area (touching edges do not). */
bool scope_box_overlap(const scope_box *a, const scope_box *b);

/* The box of w x h pixels for 'room'. */
scope_box scope_readout_place(const scope_readout_room *room, double w,
                              double h);

#endif /* SCOPE_READOUT_PLACE_H */
