/* graph_layout.h - where the parts of a frame go (the title line, the
 * legend's rows, the plot area) and which channels show, for the files
 * that draw those parts.
 */
#ifndef SCOPE_GRAPH_LAYOUT_H
#define SCOPE_GRAPH_LAYOUT_H

#include "view/graph_model.h"

#include <stdbool.h>

#define GRAPH_TITLE_HEIGHT      24.0    /* the title line, at the top */
#define GRAPH_LEGEND_ROW        18.0    /* each row of the legend below it */

typedef struct graph_layout
{
    double x, y, w, h;                  /* the plot area */
    unsigned legend_rows;
} graph_layout;

static inline bool graph_hidden(const graph_model *model, unsigned s)
{
    return model->hidden && model->hidden[s];
}

/* Each channel on a scale of its own (lanes, normalised). */
static inline bool graph_own_scales(const graph_model *model)
{
    return model->values.mode != SCOPE_SCALE_SHARED;
}

#endif /* SCOPE_GRAPH_LAYOUT_H */
