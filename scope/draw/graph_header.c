/* graph_header.c - the title line, and the message of an empty plot. */
#include "draw/graph_header.h"
#include "draw/graph_style.h"

#include <stdio.h>

/* The views shown and how their values are scaled, in words. */
static const char *views_text(const graph_model *model, char *buf,
                              size_t size)
{
    buf[0] = 0;
    static const struct { unsigned view; const char *name; } names[] = {
        { SCOPE_VIEW_NORMAL, "values" },
        { SCOPE_VIEW_AVERAGE, "average (light dashes)" },
        { SCOPE_VIEW_MINMAX, "min/max (band)" },
        { SCOPE_VIEW_TIMING, "interval (dash-dot)" },
    };
    static const char *const modes[] = {
        [SCOPE_SCALE_SHARED] = "", [SCOPE_SCALE_LANES] = ", lanes",
        [SCOPE_SCALE_NORMALISED] = ", normalised",
    };
    size_t used = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (model->views & names[i].view)
        {
            int n = snprintf(buf + used, size - used, "%s%s",
                             used ? " + " : "", names[i].name);
            if (n < 0 || (size_t) n >= size - used)
                return buf;
            used += (size_t) n;
        }
    snprintf(buf + used, size - used, "%s%s%s",
             model->values.mode < SCOPE_SCALE_MODES
             ? modes[model->values.mode] : "",
             model->values.log ? ", log" : "",
             model->values.manual && !graph_own_scales(model)
             ? ", fixed range" : "");
    return buf;
}

void graph_draw_header(cairo_t *cr, const graph_model *model, double width,
                       double right, const char *message)
{
    graph_use_font(cr, 13, true);
    graph_paint(cr, graph_ink.title, 1);
    const char *title = model->title ? model->title : "all channels";
    graph_show_text(cr, 8, 17, 0, title);
    double after = 8 + graph_text_width(cr, title) + 12;

    double message_width = 0;
    if (message && message[0])
    {
        graph_use_font(cr, 12, false);
        graph_paint(cr, model->alert ? graph_ink.alert : graph_ink.dim, 1);
        message_width = graph_text_width(cr, message) + (width - 8 - right);
        graph_show_text(cr, right, 17, 1, message);
    }
    char views[200];
    views_text(model, views, sizeof(views));
    graph_use_font(cr, 11, false);
    if (after + graph_text_width(cr, views) + message_width + 20 < width)
    {
        graph_paint(cr, graph_ink.dim, 1);
        graph_show_text(cr, after, 17, 0, views);
    }
}

void graph_draw_empty_message(cairo_t *cr, const graph_layout *l,
                              const graph_model *model)
{
    if (!model->message || !model->message[0])
        return;
    graph_use_font(cr, 15, false);
    graph_paint(cr, model->alert ? graph_ink.alert : graph_ink.dim, 1);
    graph_show_text(cr, l->x + l->w / 2, l->y + l->h / 2 + 5, 0.5,
                    model->message);
}
