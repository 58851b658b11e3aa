/* event_markers.c - a bounded store of markers, and finding one by pixel. */
#include "view/event_markers.h"
#include "view/time_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scope_markers
{
    scope_marker *  ring;
    size_t          capacity;
    size_t          added;              /* ever: the newest is added - 1 */
    scope_marker_fn observer;
    void *          observer_arg;
};

scope_markers *scope_markers_new(size_t capacity)
{
    scope_markers *markers = calloc(1, sizeof(*markers));
    if (!markers)
        return NULL;
    markers->capacity = capacity ? capacity : SCOPE_MARKERS_MAX;
    markers->ring = calloc(markers->capacity, sizeof(*markers->ring));
    if (!markers->ring)
    {
        free(markers);
        return NULL;
    }
    return markers;
}

void scope_markers_delete(scope_markers *markers)
{
    if (!markers)
        return;
    free(markers->ring);
    free(markers);
}

void scope_markers_observe(scope_markers *markers, scope_marker_fn fn,
                           void *arg)
{
    markers->observer = fn;
    markers->observer_arg = arg;
}

/* Bytes of 'text' that fit in 'room' - 1 without cutting a UTF-8
 * character. */
static size_t fit(const char *text, size_t room)
{
    size_t length = strlen(text);
    if (length < room)
        return length;
    length = room - 1;
    while (length && ((unsigned char) text[length] & 0xC0) == 0x80)
        length--;
    return length;
}

void scope_markers_add(scope_markers *markers, scope_marker_kind kind,
                       double time, const char *text)
{
    if (!isfinite(time) || kind >= SCOPE_MARKER_KINDS)
        return;
    scope_marker *m = &markers->ring[markers->added % markers->capacity];
    m->time = time;
    m->kind = kind;
    size_t length = fit(text ? text : "", sizeof(m->text));
    memcpy(m->text, text ? text : "", length);
    m->text[length] = 0;
    markers->added++;
    if (markers->observer)
        markers->observer(m, markers->observer_arg);
}

size_t scope_markers_count(const scope_markers *markers)
{
    if (!markers)                       /* a graph with no event store */
        return 0;
    return markers->added < markers->capacity ? markers->added
                                              : markers->capacity;
}

const scope_marker *scope_markers_get(const scope_markers *markers,
                                      size_t index)
{
    size_t count = scope_markers_count(markers);
    if (index >= count)
        return NULL;
    size_t oldest = markers->added - count;
    return &markers->ring[(oldest + index) % markers->capacity];
}

void scope_marker_print(const scope_marker *marker, void *file)
{
    fprintf(file, "marker: %s %.6f %s\n", scope_marker_kind_name(marker->kind),
            marker->time, marker->text);
    fflush(file);
}

const char *scope_marker_kind_name(scope_marker_kind kind)
{
    static const char *const names[SCOPE_MARKER_KINDS] = {
        "restart", "command", "record", "snapshot"
    };
    return kind < SCOPE_MARKER_KINDS ? names[kind] : "?";
}

const scope_marker *scope_markers_near(const scope_markers *markers,
                                       double x, double slop, double t0,
                                       double t1, double x0, double width)
{
    if (!markers || !(t1 > t0) || !(width > 0))
        return NULL;
    const scope_marker *best = NULL;
    double best_distance = INFINITY;
    size_t count = scope_markers_count(markers);
    /* A few thousand at most: a scan per pointer move is cheap. */
    for (size_t i = 0; i < count; i++)
    {
        const scope_marker *m = scope_markers_get(markers, i);
        if (m->time < t0 || m->time > t1)
            continue;
        /* As drawn: on the pixel's centre. */
        double at = round(scope_time_to_x(m->time, t0, t1, x0, width)) + 0.5;
        double distance = fabs(at - x);
        if (distance <= slop && distance <= best_distance)
        {
            best = m;
            best_distance = distance;
        }
    }
    return best;
}
