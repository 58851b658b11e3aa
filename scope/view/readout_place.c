/* readout_place.c - a spot for a readout box that hides nothing it
 * describes. */
#include "view/readout_place.h"

#include <math.h>

#define EDGE            2.0             /* from a region's edge */
#define CORNER          6.0             /* from the plot's corner */
#define SLACK           0.5             /* rounding of pixel positions */

bool scope_box_overlap(const scope_box *a, const scope_box *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w &&
           a->y < b->y + b->h && b->y < a->y + a->h;
}

static double overlap_area(const scope_box *a, const scope_box *b)
{
    double w = fmin(a->x + a->w, b->x + b->w) - fmax(a->x, b->x);
    double h = fmin(a->y + a->h, b->y + b->h) - fmax(a->y, b->y);
    return w > 0 && h > 0 ? w * h : 0;
}

static bool inside(const scope_box *box, const scope_box *region)
{
    return box->x >= region->x - SLACK && box->y >= region->y - SLACK &&
           box->x + box->w <= region->x + region->w + SLACK &&
           box->y + box->h <= region->y + region->h + SLACK;
}

/* 'at' moved along one axis into [lo, lo + room - size], if it fits. */
static double clamp(double at, double size, double lo, double room)
{
    if (at + size > lo + room - EDGE)
        at = lo + room - EDGE - size;
    if (at < lo + EDGE)
        at = lo + EDGE;
    return at;
}

/* The candidate tops, in the order they are tried: beside the pointer
 * (below it, then above) or the corners' rows; the region's top and
 * bottom; then just below and just above each thing to keep visible. */
static unsigned y_options(const scope_readout_room *room)
{
    return 4 + 2 * (room->keep_count + room->spare_count);
}

static double y_option(const scope_readout_room *room,
                       const scope_box *region, unsigned j, double h)
{
    double y;
    switch (j)
    {
    case 0:
        y = room->pointer ? room->y + SCOPE_READOUT_GAP : region->y + CORNER;
        break;
    case 1:
        y = room->pointer ? room->y - SCOPE_READOUT_GAP - h
                          : region->y + region->h - CORNER - h;
        break;
    case 2:  y = region->y + EDGE; break;
    case 3:  y = region->y + region->h - EDGE - h; break;
    default:
    {
        unsigned n = (j - 4) / 2;
        const scope_box *k = n < room->keep_count ? &room->keep[n]
                           : &room->spare[n - room->keep_count];
        y = (j - 4) % 2 ? k->y - EDGE - h : k->y + k->h + EDGE;
    }
    }
    return clamp(y, h, region->y, region->h);
}

/* The candidate lefts: beside the pointer (right of it, then left), or
 * the plot's right and left corners; then along the region's edges and
 * centred on the pointer, which may cover the crosshair but not the
 * samples on it (the tops between them see to that). */
#define X_BESIDE        2
#define X_OPTIONS       5

static double x_option(const scope_readout_room *room,
                       const scope_box *region, unsigned i, double w)
{
    switch (i)
    {
    case 0:
        return room->pointer ? room->x + SCOPE_READOUT_GAP
                             : region->x + region->w - CORNER - w;
    case 1:
        return room->pointer ? room->x - SCOPE_READOUT_GAP - w
                             : region->x + CORNER;
    case 2:  return region->x + region->w - EDGE - w;
    case 3:  return region->x + EDGE;
    default:
        return clamp((room->pointer ? room->x : region->x + region->w / 2) -
                     w / 2, w, region->x, region->w);
    }
}

/* Area of 'box' over the things to keep, those to spare counting for
 * little. */
static double covered(const scope_readout_room *room, const scope_box *box)
{
    double area = 0;
    for (unsigned k = 0; k < room->keep_count; k++)
        area += overlap_area(box, &room->keep[k]);
    area *= 1e3;
    for (unsigned k = 0; k < room->spare_count; k++)
        area += overlap_area(box, &room->spare[k]);
    return area;
}

static bool clear_of(const scope_box *box, const scope_box *keep,
                     unsigned count)
{
    for (unsigned k = 0; k < count; k++)
        if (scope_box_overlap(box, &keep[k]))
            return false;
    return true;
}

/* Clear of what it must keep, and of what it spares if 'sparing'. */
static bool free_spot(const scope_readout_room *room, const scope_box *box,
                      bool sparing)
{
    return clear_of(box, room->keep, room->keep_count) &&
           (!sparing || clear_of(box, room->spare, room->spare_count));
}

/* The n-th candidate in 'region': first the four beside the pointer (or
 * in the corners), then the other tops beside it, then the other lefts
 * with every top. */
static bool candidate(const scope_readout_room *room, const scope_box *region,
                      unsigned n, double w, double h, scope_box *box)
{
    unsigned ys = y_options(room);
    unsigned i, j;
    if (n < 4)
        i = n % 2, j = n / 2;
    else if (n < X_BESIDE * ys)
        i = (n - 4) / (ys - 2), j = 2 + (n - 4) % (ys - 2);
    else if (n < X_OPTIONS * ys)
        i = n / ys, j = n % ys;
    else
        return false;
    *box = (scope_box) {
        x_option(room, region, i, w), y_option(room, region, j, h), w, h
    };
    return true;
}

scope_box scope_readout_place(const scope_readout_room *room, double w,
                              double h)
{
    /* In the plot, else in the graph; sparing all, else what it must. */
    const scope_box *regions[] = { &room->plot, &room->bounds };
    scope_box box;
    for (unsigned pass = 0; pass < 4; pass++)
    {
        const scope_box *region = regions[pass % 2];
        for (unsigned n = 0; candidate(room, region, n, w, h, &box); n++)
            if (inside(&box, region) && free_spot(room, &box, pass < 2))
                return box;
    }
    /* No spot free of what it must keep: the one covering least of it,
     * in the graph. */
    scope_box best = {
        clamp(room->plot.x, w, room->bounds.x, room->bounds.w),
        clamp(room->plot.y, h, room->bounds.y, room->bounds.h), w, h
    };
    double least = INFINITY;
    for (unsigned n = 0; candidate(room, &room->bounds, n, w, h, &box); n++)
    {
        box.x = clamp(box.x, w, room->bounds.x, room->bounds.w);
        double area = covered(room, &box);
        if (area < least)
            least = area, best = box;
    }
    return best;
}
