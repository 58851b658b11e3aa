/* column_raster.c - exact coverage of straight-edged bands, per column. */
#include "draw/column_raster.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct column_raster
{
    unsigned char *data;                /* coverage, 255 full */
    int            w, h, stride, scale;
    double         x, y;                /* user space of pixel (0, 0) */
    int            top, bottom;         /* rows covered: [top, bottom) */
    int *          first, *last;        /* and per column (first > last:
                                           none) */
    int            px, py;              /* pixel (0, 0) in the target's */
    int            straight;            /* whether it can be blended straight
                                           into the target (blendable()):
                                           -1 until its first paint */
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
    if (!(fabs(px) < 1 << 30 && fabs(py) < 1 << 30))
    {
        free(m);
        return NULL;
    }
    m->px = (int) floor(px + 1e-6);
    m->py = (int) floor(py + 1e-6);
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
    m->first = malloc((size_t) m->w * sizeof(*m->first));
    m->last = malloc((size_t) m->w * sizeof(*m->last));
    if (!m->data || !m->first || !m->last)
    {
        column_raster_delete(m);
        return NULL;
    }
    for (int c = 0; c < m->w; c++)
    {
        m->first[c] = m->h;
        m->last[c] = -1;
    }
    m->top = m->h;
    m->straight = -1;
    return m;
}

void column_raster_delete(column_raster *m)
{
    if (!m)
        return;
    free(m->data);
    free(m->first);
    free(m->last);
    free(m);
}

/* Rows [from, to) of pixel column c are covered. */
static void touched(column_raster *m, int c, int from, int to)
{
    if (from < m->first[c])
        m->first[c] = from;
    if (to - 1 > m->last[c])
        m->last[c] = to - 1;
    if (from < m->top)
        m->top = from;
    if (to > m->bottom)
        m->bottom = to;
}

/* fmin and fmax of finite values, inlined: the libm calls were a tenth
 * of the coverage loops below, which run for every row a trace covers. */
static inline double lesser(double a, double b)
{
    return b < a ? b : a;
}

static inline double greater(double a, double b)
{
    return b > a ? b : a;
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
    double lo = lesser(ea, eb), hi = greater(ea, eb);
    if (r + 1 <= lo)
        return 1;
    if (r >= hi)
        return 0;
    if (hi - lo < 1e-6)
    {
        double mid = (ea + eb) / 2 - r;
        return mid <= 0 ? 0 : mid >= 1 ? 1 : mid;
    }
    /* Crossing the whole row (a steep edge: noisy data's, mostly), the
     * share falls linearly row by row. */
    if (r >= lo && r + 1 <= hi)
        return (hi - r - 0.5) / (hi - lo);
    return (ramp(eb - r) - ramp(ea - r)) / (eb - ea);
}

/* A stretch of a pixel column (at most a pixel wide in all) between a
 * top edge from ta to tb and a bottom edge from ba to bb. */
typedef struct piece
{
    double width, ta, tb, ba, bb;
} piece;

#define PIECES  8                       /* gathered per column at most */

/* The pieces of pixel column 'column', in one pass down its rows. */
static void cover(column_raster *m, int column, const piece *pieces,
                  unsigned count)
{
    double top = INFINITY, bottom = -INFINITY, width = 0;
    double inner_top = -INFINITY, inner_bottom = INFINITY;
    for (unsigned k = 0; k < count; k++)
    {
        const piece *q = &pieces[k];
        top = lesser(top, lesser(q->ta, q->tb));
        bottom = greater(bottom, greater(q->ba, q->bb));
        inner_top = greater(inner_top, greater(q->ta, q->tb));
        inner_bottom = lesser(inner_bottom, lesser(q->ba, q->bb));
        width += q->width;
    }
    double first = lesser(greater(floor(top), 0), m->h);
    double last = greater(lesser(ceil(bottom), m->h), 0);
    if (!(first < last))
        return;
    /* Rows between the edges of every piece need no arithmetic: a tall
     * column of noisy data costs a store a pixel. */
    unsigned full = (unsigned) (width * 255 + 0.5);
    int r = (int) first, end = (int) last;
    unsigned char *p = m->data + (size_t) r * m->stride + column;
    for (; r < end; r++, p += m->stride)
    {
        unsigned add = full;
        if (!(r >= inner_top && r + 1 <= inner_bottom))
        {
            double c = 0;
            for (unsigned k = 0; k < count; k++)
            {
                const piece *q = &pieces[k];
                c += q->width * (above(q->ba, q->bb, r) -
                                 above(q->ta, q->tb, r));
            }
            if (!(c > 0))
                continue;
            add = (unsigned) (c * 255 + 0.5);
        }
        unsigned v = *p + add;
        *p = v > 255 ? 255 : (unsigned char) v;
    }
    touched(m, column, (int) first, end);
}

/* The band between two edges, each through the same 'n' x (increasing,
 * in pixels of the mask): tops 't', bottoms 'b'. */
static void polyband(column_raster *m, const double *x, const double *t,
                     const double *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(t[i]) || !isfinite(b[i]))
            return;
    if (n < 2 || !(x[n - 1] > x[0]))
        return;
    /* Clamped before any conversion: far outside is nothing. */
    double from = lesser(greater(floor(x[0]), 0), m->w);
    double to = greater(lesser(ceil(x[n - 1]), m->w), from);
    unsigned k = 0;                     /* the stretch [x[k], x[k + 1]] */
    while (k + 1 < n && x[k + 1] <= from)
        k++;
    for (int i = (int) from; i < (int) to; i++)
    {
        piece pieces[PIECES];
        unsigned count = 0;
        for (unsigned j = k; j + 1 < n && x[j] < i + 1; j++)
        {
            double a = greater(x[j], i), e = lesser(x[j + 1], i + 1);
            if (!(e > a))
                continue;
            double dx = x[j + 1] - x[j];
            double st = (t[j + 1] - t[j]) / dx, sb = (b[j + 1] - b[j]) / dx;
            pieces[count++] = (piece) {
                e - a, t[j] + st * (a - x[j]), t[j] + st * (e - x[j]),
                b[j] + sb * (a - x[j]), b[j] + sb * (e - x[j]) };
            if (count == PIECES)
            {
                cover(m, i, pieces, count);
                count = 0;
            }
        }
        if (count)
            cover(m, i, pieces, count);
        while (k + 1 < n && x[k + 1] <= i + 1)
            k++;
    }
}

void column_raster_band(column_raster *m, double x0, double x1, double t0,
                        double t1, double b0, double b1)
{
    double s = m->scale;
    double x[2] = { (x0 - m->x) * s, (x1 - m->x) * s };
    double t[2] = { (t0 - m->y) * s, (t1 - m->y) * s };
    double b[2] = { (b0 - m->y) * s, (b1 - m->y) * s };
    polyband(m, x, t, b, 2);
}

void column_raster_polyband(column_raster *m, double *x, double *t,
                            double *b, unsigned n)
{
    double s = m->scale;
    for (unsigned i = 0; i < n; i++)
    {
        x[i] = (x[i] - m->x) * s;
        t[i] = (t[i] - m->y) * s;
        b[i] = (b[i] - m->y) * s;
    }
    polyband(m, x, t, b, n);
}

/* The top and bottom of edge (xa, ya)-(xb, yb) at x. */
static double edge_at(const double *a, const double *b, double x)
{
    return a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]);
}

/* A convex polygon of n corners (3 to 8), xy holding x then y of each,
 * in order around it. */
static void polygon(column_raster *m, const double *xy, unsigned n)
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
    if (xb < xa)
    {
        double x = xa, y = ya;
        xa = xb;
        ya = yb;
        xb = x;
        yb = y;
    }
    double dx = xb - xa, dy = yb - ya, length = sqrt(dx * dx + dy * dy);
    if (!(length > 0) || !isfinite(length) ||
        !column_raster_reaches(m, xa - half, xb + half))
        return;
    /* Gently sloped (most of a timing trace): a band as thick vertically
     * as the stroke is across, cut vertically. Its ends lean by at most
     * half a pixel, and where two such segments meet, their cuts do too,
     * with no notch between them. */
    if (fabs(dy) <= 0.5 * dx)
    {
        double h = half * length / dx;
        column_raster_band(m, xa, xb, ya - h, yb - h, ya + h, yb + h);
        return;
    }
    /* Otherwise a rectangle along the segment: exact, steep or level. */
    double nx = -dy / length * half, ny = dx / length * half;
    double corners[8] = { xa + nx, ya + ny, xb + nx, yb + ny,
                          xb - nx, yb - ny, xa - nx, ya - ny };
    polygon(m, corners, 4);
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
    if (!(left < right && top < bottom))
        return;
    /* Sixteen samples a pixel, four rows of four: a dot is a few pixels.
     * Along a row of samples, those inside are a run between the ends of
     * the disc's chord there: counted from those ends, not tested one by
     * one (the gap dots of sixteen timing traces were a tenth of the
     * instructions a window's graph took to draw a frame). */
    for (int r = (int) top; r < (int) bottom; r++)
    {
        /* Per row of samples, the first and past the last inside, in
         * samples k at x = (k + 0.5) / 4 (|x - cx| <= the chord's half). */
        double lo[4], hi[4];
        for (int j = 0; j < 4; j++)
        {
            double dy = r + (j + 0.5) / 4 - cy, chord = rr * rr - dy * dy;
            double half = chord >= 0 ? sqrt(chord) : -1;
            lo[j] = ceil(4 * (cx - half) - 0.5);
            hi[j] = floor(4 * (cx + half) - 0.5) + 1;
        }
        unsigned char *p = m->data + (size_t) r * m->stride;
        for (int c = (int) left; c < (int) right; c++)
        {
            double inside = 0, k0 = 4.0 * c, k1 = k0 + 4;
            for (int j = 0; j < 4; j++)
            {
                double a = lesser(greater(lo[j], k0), k1);
                double b = lesser(greater(hi[j], k0), k1);
                if (b > a)
                    inside += b - a;
            }
            unsigned v = p[c] + ((unsigned) inside * 255 + 8) / 16;
            p[c] = v > 255 ? 255 : (unsigned char) v;
        }
    }
    for (int c = (int) left; c < (int) right; c++)
        touched(m, c, (int) top, (int) bottom);
}

/* A colour's component as cairo hands it to pixman: 16 bits, truncated,
 * then their high 8. */
static unsigned to_un8(double v)
{
    if (!(v > 0))
        return 0;
    if (v >= 1)
        return 255;
    return (unsigned) (v * (65536.0 - 1e-5)) >> 8;
}

/* x * y / 255, rounded as pixman does. */
static unsigned mul_un8(unsigned x, unsigned y)
{
    unsigned t = x * y + 0x80;
    return ((t >> 8) + t) >> 8;
}

/* cr's target if it is an image of 32 bits a pixel, else NULL. */
static cairo_surface_t *image32_target(cairo_t *cr)
{
    cairo_surface_t *target = cairo_get_group_target(cr);
    if (cairo_surface_get_type(target) != CAIRO_SURFACE_TYPE_IMAGE ||
        (cairo_image_surface_get_format(target) != CAIRO_FORMAT_RGB24 &&
         cairo_image_surface_get_format(target) != CAIRO_FORMAT_ARGB32))
        return NULL;
    return target;
}

/* Whether the mask lands on cr's target as it is: an image in a format
 * of 32 bits a pixel, the same pixels as the mask, and no clip inside the
 * mask. The window's ring of tiles and a capture's image are; a
 * recording (a frame GTK keeps) is not. Asked once a mask: reading the
 * clip back from cairo copies it. */
static bool straight_target(const column_raster *m, cairo_t *cr)
{
    cairo_surface_t *target = image32_target(cr);
    if (!target)
        return false;
    if (m->px < 0 || m->py < 0 ||
        m->px + m->w > cairo_image_surface_get_width(target) ||
        m->py + m->h > cairo_image_surface_get_height(target))
        return false;
    double ux = 1, uy = 0, vx = 0, vy = 1, sx = 1, sy = 1;
    cairo_user_to_device_distance(cr, &ux, &uy);
    cairo_user_to_device_distance(cr, &vx, &vy);
    cairo_surface_get_device_scale(target, &sx, &sy);
    if (uy != 0 || vx != 0 || ux * sx != m->scale || vy * sy != m->scale)
        return false;
    cairo_rectangle_list_t *clip = cairo_copy_clip_rectangle_list(cr);
    bool inside = clip->status == CAIRO_STATUS_SUCCESS;
    if (inside)
    {
        double x1 = m->x + (double) m->w / m->scale;
        double y1 = m->y + (double) m->h / m->scale;
        inside = false;
        for (int i = 0; i < clip->num_rectangles && !inside; i++)
        {
            const cairo_rectangle_t *r = &clip->rectangles[i];
            inside = r->x <= m->x + 1e-6 && r->y <= m->y + 1e-6 &&
                     r->x + r->width >= x1 - 1e-6 &&
                     r->y + r->height >= y1 - 1e-6;
        }
    }
    cairo_rectangle_list_destroy(clip);
    return inside;
}

/* Whether the mask can be blended straight into cr's target: such a
 * target, and a solid colour painted over. Straight, only the pixels
 * covered are visited, not every pixel of the rows a trace spans, and no
 * pixman image is made for each paint. */
static bool blendable(column_raster *m, cairo_t *cr, double rgba[4])
{
    if (cairo_get_operator(cr) != CAIRO_OPERATOR_OVER ||
        cairo_pattern_get_rgba(cairo_get_source(cr), &rgba[0], &rgba[1],
                               &rgba[2], &rgba[3]) != CAIRO_STATUS_SUCCESS)
        return false;
    if (m->straight < 0)
        m->straight = straight_target(m, cr);
    return m->straight;
}

/* The covered pixels of each column, over the target's, as cairo's OVER
 * of a solid colour through an A8 mask blends them. */
static void blend(column_raster *m, cairo_t *cr, const double rgba[4])
{
    cairo_surface_t *target = cairo_get_group_target(cr);
    cairo_surface_flush(target);
    unsigned char *data = cairo_image_surface_get_data(target);
    int stride = cairo_image_surface_get_stride(target);
    unsigned colour[4] = {                 /* premultiplied: B, G, R, A */
        to_un8(rgba[2] * rgba[3]), to_un8(rgba[1] * rgba[3]),
        to_un8(rgba[0] * rgba[3]), to_un8(rgba[3]) };
    uint32_t opaque = colour[0] | colour[1] << 8 | colour[2] << 16 |
                      (uint32_t) 0xff << 24;
    for (int c = 0; c < m->w; c++)
    {
        for (int r = m->first[c]; r <= m->last[c]; r++)
        {
            unsigned char *cover = m->data + (size_t) r * m->stride + c;
            if (!*cover)
                continue;
            unsigned char *pixel = data + (size_t) (m->py + r) * stride +
                                   (size_t) (m->px + c) * 4;
            if (*cover == 255 && colour[3] == 255)
            {
                /* Inside an opaque trace: most of a noisy one. */
                memcpy(pixel, &opaque, 4);
                *cover = 0;
                continue;
            }
            uint32_t d;
            memcpy(&d, pixel, 4);
            unsigned alpha = mul_un8(colour[3], *cover);
            uint32_t out = 0;
            for (unsigned k = 0; k < 4; k++)
            {
                unsigned v = mul_un8(colour[k], *cover) +
                             mul_un8((d >> (8 * k)) & 0xff, 255 - alpha);
                out |= (uint32_t) (v > 255 ? 255 : v) << (8 * k);
            }
            memcpy(pixel, &out, 4);
            *cover = 0;
        }
    }
    cairo_surface_mark_dirty(target);
}

/* Through cairo: the rows covered as a mask. */
static void mask(column_raster *m, cairo_t *cr)
{
    int rows = m->bottom - m->top;
    unsigned char *from = m->data + (size_t) m->top * m->stride;
    cairo_surface_t *surface;
    if (cairo_surface_get_type(cairo_get_group_target(cr)) ==
        CAIRO_SURFACE_TYPE_IMAGE)
    {
        /* Composited now: the rows themselves. */
        surface = cairo_image_surface_create_for_data(from, CAIRO_FORMAT_A8,
                                                      m->w, rows, m->stride);
    }
    else
    {
        /* A recording replays the mask later: its own copy. */
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, m->w, rows);
        if (!cairo_surface_status(surface))
        {
            cairo_surface_flush(surface);
            unsigned char *to = cairo_image_surface_get_data(surface);
            int stride = cairo_image_surface_get_stride(surface);
            for (int r = 0; r < rows; r++)
                memcpy(to + (size_t) r * stride, from + (size_t) r * m->stride,
                       (size_t) m->w);
            cairo_surface_mark_dirty(surface);
        }
    }
    if (!cairo_surface_status(surface))
    {
        cairo_surface_set_device_scale(surface, m->scale, m->scale);
        cairo_mask_surface(cr, surface, m->x,
                           m->y + (double) m->top / m->scale);
    }
    cairo_surface_destroy(surface);
    memset(from, 0, (size_t) rows * m->stride);
}

/* ---- opaque boxes written straight ---------------------------------------- */

/* Where cr draws on its target, when that is an image one unit a pixel
 * with an opaque solid colour painted over, clipped to one rectangle. */
typedef struct straight_box
{
    unsigned char *data;
    int            stride;
    int            dx, dy;              /* user (0, 0) in the target's pixels */
    int            x0, y0, x1, y1;      /* the clip, in user space */
    uint32_t       pixel;
} straight_box;

static bool straight_box_of(cairo_t *cr, straight_box *b)
{
    cairo_surface_t *target = image32_target(cr);
    double rgba[4], sx = 1, sy = 1, ox = 0, oy = 0;
    cairo_operator_t op = cairo_get_operator(cr);
    if (!target || (op != CAIRO_OPERATOR_OVER && op != CAIRO_OPERATOR_SOURCE) ||
        cairo_pattern_get_rgba(cairo_get_source(cr), &rgba[0], &rgba[1],
                               &rgba[2], &rgba[3]) != CAIRO_STATUS_SUCCESS ||
        rgba[3] != 1)
        return false;
    cairo_surface_get_device_scale(target, &sx, &sy);
    cairo_surface_get_device_offset(target, &ox, &oy);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    if (sx != 1 || sy != 1 || m.xx != 1 || m.yy != 1 || m.xy != 0 ||
        m.yx != 0 || m.x0 + ox != round(m.x0 + ox) ||
        m.y0 + oy != round(m.y0 + oy) || !(fabs(m.x0 + ox) < 1 << 30) ||
        !(fabs(m.y0 + oy) < 1 << 30))
        return false;
    b->dx = (int) (m.x0 + ox);
    b->dy = (int) (m.y0 + oy);
    /* One clip rectangle, of whole pixels, within the target. */
    cairo_rectangle_list_t *clip = cairo_copy_clip_rectangle_list(cr);
    bool one = clip->status == CAIRO_STATUS_SUCCESS &&
               clip->num_rectangles == 1;
    double cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;
    if (one)
    {
        const cairo_rectangle_t *r = &clip->rectangles[0];
        cx0 = fmax(r->x, -b->dx);
        cy0 = fmax(r->y, -b->dy);
        cx1 = fmin(r->x + r->width,
                   cairo_image_surface_get_width(target) - b->dx);
        cy1 = fmin(r->y + r->height,
                   cairo_image_surface_get_height(target) - b->dy);
        one = cx0 == floor(cx0) && cy0 == floor(cy0) &&
              cx1 == floor(cx1) && cy1 == floor(cy1);
    }
    cairo_rectangle_list_destroy(clip);
    if (!one)
        return false;
    b->x0 = (int) cx0;
    b->y0 = (int) cy0;
    b->x1 = (int) cx1;
    b->y1 = (int) cy1;
    cairo_surface_flush(target);
    b->data = cairo_image_surface_get_data(target);
    b->stride = cairo_image_surface_get_stride(target);
    b->pixel = (uint32_t) 0xff << 24 | to_un8(rgba[0]) << 16 |
               to_un8(rgba[1]) << 8 | to_un8(rgba[2]);
    return b->data != NULL;
}

/* User-space pixels [x0, x1) x [y0, y1), clipped, set to the colour. */
static void straight_rect(const straight_box *b, double x0, double y0,
                          double x1, double y1)
{
    int c0 = (int) fmax(x0, b->x0), c1 = (int) fmin(x1, b->x1);
    int r0 = (int) fmax(y0, b->y0), r1 = (int) fmin(y1, b->y1);
    if (c0 >= c1 || r0 >= r1)
        return;
    /* Locals, and rows of uint32_t (cairo aligns an image's rows to 4
     * bytes): written through unsigned char, every store could change
     * *b, which the loop then read again for each pixel. */
    const uint32_t pixel = b->pixel;
    const size_t count = (size_t) (c1 - c0);
    unsigned char *row = b->data + (size_t) (r0 + b->dy) * b->stride +
                         (size_t) (c0 + b->dx) * 4;
    const size_t stride = (size_t) b->stride;
    for (int r = r0; r < r1; r++, row += stride)
    {
        uint32_t *p = (uint32_t *) (void *) row;
        for (size_t c = 0; c < count; c++)
            p[c] = pixel;
    }
}

bool column_raster_fill_straight(cairo_t *cr, double x, double y, double w,
                                 double h)
{
    straight_box b;
    if (x != floor(x) || y != floor(y) || w != floor(w) || h != floor(h) ||
        !straight_box_of(cr, &b))
        return false;
    straight_rect(&b, x, y, x + w, y + h);
    cairo_surface_mark_dirty(cairo_get_group_target(cr));
    return true;
}

/* The pixels [x0, x1) x [y0, y1) a 1-wide butt-capped stroke of segment
 * (a, b) covers, if it runs across or down through pixel middles between
 * whole coordinates; false if not. */
static bool grid_segment(const cairo_path_data_t *a,
                         const cairo_path_data_t *b, double box[4])
{
    double ax = a->point.x, ay = a->point.y, bx = b->point.x, by = b->point.y;
    if (ay == by && ay - 0.5 == floor(ay - 0.5) && ax == floor(ax) &&
        bx == floor(bx))
    {
        box[0] = fmin(ax, bx), box[2] = fmax(ax, bx);
        box[1] = ay - 0.5, box[3] = ay + 0.5;
        return fabs(box[0]) < 1 << 30 && fabs(box[2]) < 1 << 30;
    }
    if (ax == bx && ax - 0.5 == floor(ax - 0.5) && ay == floor(ay) &&
        by == floor(by))
    {
        box[1] = fmin(ay, by), box[3] = fmax(ay, by);
        box[0] = ax - 0.5, box[2] = ax + 0.5;
        return fabs(box[1]) < 1 << 30 && fabs(box[3]) < 1 << 30;
    }
    return false;
}

/* Whether 'path' is all pixel lines (a move and a line each, as
 * grid_segment() takes them); with 'b', each is written too. */
static bool pixel_lines(const cairo_path_t *path, const straight_box *b)
{
    for (int i = 0; i < path->num_data;)
    {
        const cairo_path_data_t *move = &path->data[i];
        if (move->header.type != CAIRO_PATH_MOVE_TO ||
            i + move->header.length >= path->num_data)
            return false;
        const cairo_path_data_t *line = move + move->header.length;
        double box[4];
        if (line->header.type != CAIRO_PATH_LINE_TO ||
            !grid_segment(&move[1], &line[1], box))
            return false;
        if (b)
            straight_rect(b, box[0], box[1], box[2], box[3]);
        i += move->header.length + line->header.length;
    }
    return true;
}

bool column_raster_stroke_straight(cairo_t *cr)
{
    /* The cheap refusals first: most strokes go to recordings. */
    straight_box b;
    if (cairo_get_line_width(cr) != 1 ||
        cairo_get_line_cap(cr) != CAIRO_LINE_CAP_BUTT ||
        !straight_box_of(cr, &b))
        return false;
    cairo_path_t *path = cairo_copy_path(cr);
    bool lines = path->status == CAIRO_STATUS_SUCCESS &&
                 pixel_lines(path, NULL);
    if (lines)
    {
        pixel_lines(path, &b);
        cairo_surface_mark_dirty(cairo_get_group_target(cr));
        cairo_new_path(cr);
    }
    cairo_path_destroy(path);
    return lines;
}

void column_raster_paint(column_raster *m, cairo_t *cr)
{
    if (m->top >= m->bottom)
        return;
    double rgba[4];
    if (blendable(m, cr, rgba))
        blend(m, cr, rgba);
    else
        mask(m, cr);
    for (int c = 0; c < m->w; c++)
    {
        m->first[c] = m->h;
        m->last[c] = -1;
    }
    m->top = m->h;
    m->bottom = 0;
}
