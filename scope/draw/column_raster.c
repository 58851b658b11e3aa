/* column_raster.c - exact coverage of straight-edged bands, per column. */
#include "draw/column_raster.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct column_raster
{
    unsigned char *data;                /* coverage, 255 full */
    int            w, h, stride, scale;
    double         x, y;                /* user space of pixel (0, 0) */
    int            top, bottom;         /* rows covered: [top, bottom) */
};

column_raster *column_raster_new(cairo_t *cr, double x, double y, double w,
                                 double h)
{
    if (!(w > 0) || !(h > 0))
        return NULL;
    cairo_surface_t *target = cairo_get_group_target(cr);
    double sx = 1, sy = 1, ox = 0, oy = 0;
    cairo_surface_get_device_scale(target, &sx, &sy);
    cairo_surface_get_device_offset(target, &ox, &oy);
    double ux = 1, uy = 0;
    cairo_user_to_device_distance(cr, &ux, &uy);
    long scale = lround(hypot(ux, uy) * sx);
    if (scale < 1)
        scale = 1;
    if (scale > 16)
        scale = 16;

    column_raster *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->scale = (int) scale;
    /* The corner moved back to the pixel it is in, so that a column of
     * the mask is a column of the target. */
    double px = x, py = y;
    cairo_user_to_device(cr, &px, &py);
    px = px * sx + ox;
    py = py * sy + oy;
    m->x = x - (px - floor(px + 1e-6)) / m->scale;
    m->y = y - (py - floor(py + 1e-6)) / m->scale;
    double pw = ceil((x + w - m->x) * m->scale - 1e-6);
    double ph = ceil((y + h - m->y) * m->scale - 1e-6);
    if (!(pw >= 1 && pw <= 1 << 15 && ph >= 1 && ph <= 1 << 15))
    {
        free(m);
        return NULL;
    }
    m->w = (int) pw;
    m->h = (int) ph;
    m->stride = cairo_format_stride_for_width(CAIRO_FORMAT_A8, m->w);
    m->data = calloc((size_t) m->h, (size_t) m->stride);
    if (!m->data)
    {
        free(m);
        return NULL;
    }
    m->top = m->h;
    return m;
}

void column_raster_delete(column_raster *m)
{
    if (!m)
        return;
    free(m->data);
    free(m);
}

/* The integral of min(max(u, 0), 1) from minus infinity to u. */
static double ramp(double u)
{
    return u <= 0 ? 0 : u >= 1 ? u - 0.5 : u * u / 2;
}

/* The share of row r (pixels [r, r + 1], y down) above an edge running
 * straight from ea to eb across a stretch: the mean over the stretch of
 * min(max(e - r, 0), 1). */
static double above(double ea, double eb, double r)
{
    double a = ea - r, b = eb - r;
    if (fabs(b - a) < 1e-6)
    {
        double mid = (a + b) / 2;
        return mid <= 0 ? 0 : mid >= 1 ? 1 : mid;
    }
    return (ramp(b) - ramp(a)) / (b - a);
}

/* A stretch 'width' wide (at most a pixel) of pixel column 'column',
 * between a top edge from ta to tb and a bottom edge from ba to bb. */
static void cover(column_raster *m, int column, double width, double ta,
                  double tb, double ba, double bb)
{
    double first = fmin(fmax(floor(fmin(ta, tb)), 0), m->h);
    double last = fmax(fmin(ceil(fmax(ba, bb)), m->h), 0);
    if (!(first < last))
        return;
    /* Rows wholly between the edges need no arithmetic: a tall column of
     * noisy data costs a store a pixel. */
    double inner_top = fmax(ta, tb), inner_bottom = fmin(ba, bb);
    unsigned full = (unsigned) lround(width * 255);
    int r = (int) first, end = (int) last;
    unsigned char *p = m->data + (size_t) r * m->stride + column;
    for (; r < end; r++, p += m->stride)
    {
        unsigned add = full;
        if (!(r >= inner_top && r + 1 <= inner_bottom))
        {
            double c = width * (above(ba, bb, r) - above(ta, tb, r));
            if (!(c > 0))
                continue;
            add = (unsigned) lround(c * 255);
        }
        unsigned v = *p + add;
        *p = v > 255 ? 255 : (unsigned char) v;
    }
    if ((int) first < m->top)
        m->top = (int) first;
    if (end > m->bottom)
        m->bottom = end;
}

void column_raster_band(column_raster *m, double x0, double x1, double t0,
                        double t1, double b0, double b1)
{
    double s = m->scale;
    double X0 = (x0 - m->x) * s, X1 = (x1 - m->x) * s;
    double T0 = (t0 - m->y) * s, T1 = (t1 - m->y) * s;
    double B0 = (b0 - m->y) * s, B1 = (b1 - m->y) * s;
    if (!(X1 > X0) || !isfinite(X0) || !isfinite(X1) || !isfinite(T0) ||
        !isfinite(T1) || !isfinite(B0) || !isfinite(B1))
        return;
    double top_slope = (T1 - T0) / (X1 - X0);
    double bottom_slope = (B1 - B0) / (X1 - X0);
    /* Clamped before any conversion: far outside is nothing. */
    double from = fmin(fmax(floor(X0), 0), m->w);
    double to = fmax(fmin(ceil(X1), m->w), from);
    for (int i = (int) from; i < (int) to; i++)
    {
        double a = fmax(X0, i), b = fmin(X1, i + 1);
        if (!(b > a))
            continue;
        cover(m, i, b - a, T0 + top_slope * (a - X0),
              T0 + top_slope * (b - X0), B0 + bottom_slope * (a - X0),
              B0 + bottom_slope * (b - X0));
    }
}

/* The top and bottom of edge (xa, ya)-(xb, yb) at x. */
static double edge_at(const double *a, const double *b, double x)
{
    return a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]);
}

void column_raster_polygon(column_raster *m, const double *xy, unsigned n)
{
    if (n < 3 || n > 8)
        return;
    double xs[8];
    for (unsigned i = 0; i < n; i++)
    {
        /* Sorted as they come: a few corners. */
        unsigned j = i;
        for (; j > 0 && xs[j - 1] > xy[2 * i]; j--)
            xs[j] = xs[j - 1];
        xs[j] = xy[2 * i];
    }
    /* Between two corners' x, a convex polygon is a band: the two edges
     * that span it, one above the other. */
    for (unsigned k = 0; k + 1 < n; k++)
    {
        double a = xs[k], b = xs[k + 1];
        if (!(b - a > 1e-9))
            continue;
        double ya[2], yb[2];
        unsigned found = 0;
        for (unsigned i = 0; i < n && found < 2; i++)
        {
            const double *p = &xy[2 * i], *q = &xy[2 * ((i + 1) % n)];
            double lo = fmin(p[0], q[0]), hi = fmax(p[0], q[0]);
            if (!(hi - lo > 1e-9) || lo > a + 1e-9 || hi < b - 1e-9)
                continue;
            ya[found] = edge_at(p, q, a);
            yb[found] = edge_at(p, q, b);
            found++;
        }
        if (found < 2)
            continue;
        unsigned top = ya[0] + yb[0] <= ya[1] + yb[1] ? 0 : 1;
        column_raster_band(m, a, b, ya[top], yb[top], ya[1 - top],
                           yb[1 - top]);
    }
}

bool column_raster_reaches(const column_raster *m, double x0, double x1)
{
    return x1 > m->x && x0 < m->x + (double) m->w / m->scale;
}

void column_raster_segment(column_raster *m, double xa, double ya, double xb,
                           double yb, double half)
{
    double dx = xb - xa, dy = yb - ya, length = sqrt(dx * dx + dy * dy);
    if (!(length > 0) || !isfinite(length) ||
        !column_raster_reaches(m, fmin(xa, xb) - half, fmax(xa, xb) + half))
        return;
    /* Gently sloped (most of a timing trace): a band as thick vertically
     * as the stroke is across, cut vertically. Its ends lean by at most
     * half a pixel, and where two such segments meet, their cuts do too,
     * with no notch between them. */
    if (fabs(dy) <= 0.5 * fabs(dx))
    {
        double h = half * length / fabs(dx);
        column_raster_band(m, fmin(xa, xb), fmax(xa, xb),
                           (xa < xb ? ya : yb) - h, (xa < xb ? yb : ya) - h,
                           (xa < xb ? ya : yb) + h, (xa < xb ? yb : ya) + h);
        return;
    }
    /* Otherwise a rectangle along the segment: exact, steep or level. */
    double nx = -dy / length * half, ny = dx / length * half;
    double corners[8] = { xa + nx, ya + ny, xb + nx, yb + ny,
                          xb - nx, yb - ny, xa - nx, ya - ny };
    column_raster_polygon(m, corners, 4);
}

void column_raster_disc(column_raster *m, double x, double y, double radius)
{
    double s = m->scale;
    double cx = (x - m->x) * s, cy = (y - m->y) * s, rr = radius * s;
    if (!isfinite(cx) || !isfinite(cy) || !(rr > 0) ||
        !column_raster_reaches(m, x - radius, x + radius))
        return;
    double left = fmin(fmax(floor(cx - rr), 0), m->w);
    double right = fmax(fmin(ceil(cx + rr), m->w), left);
    double top = fmin(fmax(floor(cy - rr), 0), m->h);
    double bottom = fmax(fmin(ceil(cy + rr), m->h), top);
    /* Sixteen samples a pixel: a dot is a few pixels. */
    for (int r = (int) top; r < (int) bottom; r++)
    {
        for (int c = (int) left; c < (int) right; c++)
        {
            unsigned inside = 0;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                {
                    double dx = c + (i + 0.5) / 4 - cx;
                    double dy = r + (j + 0.5) / 4 - cy;
                    inside += dx * dx + dy * dy <= rr * rr;
                }
            unsigned char *p = m->data + (size_t) r * m->stride + c;
            unsigned v = *p + (inside * 255 + 8) / 16;
            *p = v > 255 ? 255 : (unsigned char) v;
        }
        if (r < m->top)
            m->top = r;
        if (r + 1 > m->bottom)
            m->bottom = r + 1;
    }
}

void column_raster_paint(column_raster *m, cairo_t *cr)
{
    if (m->top >= m->bottom)
        return;
    int rows = m->bottom - m->top;
    unsigned char *from = m->data + (size_t) m->top * m->stride;
    cairo_surface_t *mask;
    if (cairo_surface_get_type(cairo_get_group_target(cr)) ==
        CAIRO_SURFACE_TYPE_IMAGE)
    {
        /* Composited now: the rows themselves. */
        mask = cairo_image_surface_create_for_data(from, CAIRO_FORMAT_A8,
                                                   m->w, rows, m->stride);
    }
    else
    {
        /* A recording replays the mask later: its own copy. */
        mask = cairo_image_surface_create(CAIRO_FORMAT_A8, m->w, rows);
        if (!cairo_surface_status(mask))
        {
            cairo_surface_flush(mask);
            unsigned char *to = cairo_image_surface_get_data(mask);
            int stride = cairo_image_surface_get_stride(mask);
            for (int r = 0; r < rows; r++)
                memcpy(to + (size_t) r * stride, from + (size_t) r * m->stride,
                       (size_t) m->w);
            cairo_surface_mark_dirty(mask);
        }
    }
    if (!cairo_surface_status(mask))
    {
        cairo_surface_set_device_scale(mask, m->scale, m->scale);
        cairo_mask_surface(cr, mask, m->x, m->y + (double) m->top / m->scale);
    }
    cairo_surface_destroy(mask);
    memset(from, 0, (size_t) rows * m->stride);
    m->top = m->h;
    m->bottom = 0;
}
