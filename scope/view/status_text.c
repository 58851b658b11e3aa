/* status_text.c - the status line's text. */
#include "view/status_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void scope_status_compose(char *buf, size_t size, const char *action,
                          const char *paused, const char *readout)
{
    const char *parts[] = { action, paused, readout };
    size_t used = 0;
    if (size)
        buf[0] = 0;
    for (unsigned p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
    {
        if (!parts[p] || !parts[p][0] || used >= size)
            continue;
        int n = snprintf(buf + used, size - used, "%s%s",
                         used ? "   |   " : "", parts[p]);
        if (n < 0)
            return;
        used += (size_t) n;
    }
}

void scope_saved_text(char *buf, size_t size, const char *base,
                      unsigned number, bool image, bool data, long rows,
                      const char *why_empty)
{
    const char *slash = strrchr(base, '/');
    const char *name = slash ? slash + 1 : base;
    int dir = slash ? (int) (slash - base) : 0;
    if (slash == base)
        dir = 1;                        /* "/" itself */
    char files[600], count[200] = "";
    if (image && data)
        snprintf(files, sizeof(files), "%s%u.png and %s%u.csv", name, number,
                 name, number);
    else
        snprintf(files, sizeof(files), "%s%u.%s", name, number,
                 image ? "png" : "csv");
    if (data && rows == 0)
        snprintf(count, sizeof(count), " (no rows: %s)",
                 why_empty ? why_empty : "nothing to export");
    else if (data)
        snprintf(count, sizeof(count), " (%ld rows)", rows);
    if (slash)
        snprintf(buf, size, "saved %s%s in %.*s", files, count, dir, base);
    else
        snprintf(buf, size, "saved %s%s", files, count);
}

void scope_status_readout_line(const char *lines, char *buf, size_t size)
{
    if (!size)
        return;
    size_t used = 0;
    buf[0] = 0;
    for (const char *p = lines ? lines : ""; *p && used + 1 < size; )
    {
        size_t n = strcspn(p, "\n");
        int wrote = snprintf(buf + used, size - used, "%s%.*s",
                             used ? " | " : "", (int) n, p);
        if (wrote < 0)
            break;
        used += (size_t) wrote;
        p += n + (p[n] == '\n');
    }
    /* Squeeze the padding runs of fixed-width numbers. */
    char *out = buf;
    for (const char *in = buf; *in; in++)
        if (!(*in == ' ' && (in[1] == ' ' || out == buf || out[-1] == ' ')))
            *out++ = *in;
    *out = 0;
}

/* "PAUSED 3.2 s to 13.2 s (Home: live)", or its short form. */
static void paused_text(char *buf, size_t size,
                        const scope_status_parts *parts, bool brief)
{
    if (!parts->paused)
        snprintf(buf, size, "%s", "");
    else if (brief)
        snprintf(buf, size, "paused %.6g–%.6g s", parts->from, parts->to);
    else
        snprintf(buf, size, "PAUSED %.6g s to %.6g s (Home: live)",
                 parts->from, parts->to);
}

void scope_status_full(char *buf, size_t size,
                       const scope_status_parts *parts)
{
    char paused[128];
    paused_text(paused, sizeof(paused), parts, false);
    scope_status_compose(buf, size, parts->action, paused, parts->readout);
}

/* ---- fitting ------------------------------------------------------------ */

#define SEPARATOR       "  |  "
#define ELLIPSIS        "…"

typedef struct fitting
{
    double width;
    scope_text_measure *measure;
    void *data;
} fitting;

static bool fits(const fitting *f, const char *text)
{
    return f->measure(text, f->data) <= f->width;
}

/* Back to the start of the UTF-8 character at s[at]. */
static size_t char_start(const char *s, size_t at)
{
    while (at > 0 && ((unsigned char) s[at] & 0xc0) == 0x80)
        at--;
    return at;
}

/* s[0, len) with its middle replaced by an ellipsis, 'keep' bytes kept:
 * a third at the start, the rest at the end, where a path's file name
 * is. */
static void middle_cut(char *out, size_t size, const char *s, size_t len,
                       size_t keep)
{
    size_t head = char_start(s, keep / 3);
    size_t tail = len - char_start(s, len - (keep - keep / 3));
    snprintf(out, size, "%.*s" ELLIPSIS "%.*s", (int) head, s, (int) tail,
             s + len - tail);
}

/* 'before' + the middle-cut word s[0, len) + 'after', as long as fits
 * (the ellipsis alone if nothing else does). */
static void cut_to_fit(const fitting *f, char *out, size_t size,
                       const char *before, const char *s, size_t len,
                       const char *after)
{
    char word[1024];
    size_t lo = 0, hi = len;            /* lo fits (or is 0), hi does not */
    while (hi - lo > 1)
    {
        size_t mid = (lo + hi) / 2;
        middle_cut(word, sizeof(word), s, len, mid);
        snprintf(out, size, "%s%s%s", before, word, after);
        if (fits(f, out))
            lo = mid;
        else
            hi = mid;
    }
    middle_cut(word, sizeof(word), s, len, lo);
    snprintf(out, size, "%s%s%s", before, word, after);
}

/* The action in 'width': its longest path (a word with a '/') cut in
 * its middle, else the whole of it. */
static void fit_action(const fitting *f, char *out, size_t size,
                       const char *action)
{
    snprintf(out, size, "%s", action);
    if (fits(f, out))
        return;
    const char *path = NULL;
    size_t path_len = 0;
    for (const char *p = action; *p; )
    {
        size_t n = strcspn(p, " ");
        if (memchr(p, '/', n) && n > path_len)
            path = p, path_len = n;
        p += n + (p[n] == ' ');
    }
    char before[1024];
    if (path)
    {
        snprintf(before, sizeof(before), "%.*s", (int) (path - action),
                 action);
        cut_to_fit(f, out, size, before, path, path_len, path + path_len);
        if (fits(f, out))
            return;
    }
    cut_to_fit(f, out, size, "", action, strlen(action), "");
}

/* 'out' + SEPARATOR + 'part' if that fits (or 'out' is empty). */
static bool append_if_fits(const fitting *f, char *out, size_t size,
                           const char *part, size_t len)
{
    size_t used = strlen(out);
    if (!len || used + 1 >= size)
        return false;
    snprintf(out + used, size - used, "%s%.*s", used ? SEPARATOR : "",
             (int) len, part);
    if (fits(f, out))
        return true;
    out[used] = 0;
    return false;
}

void scope_status_fit(char *buf, size_t size, const scope_status_parts *parts,
                      double width, scope_text_measure *measure, void *data)
{
    fitting f = { width, measure, data };
    if (!size)
        return;
    scope_status_full(buf, size, parts);
    if (fits(&f, buf))
        return;
    const char *action = parts->action ? parts->action : "";
    char paused[128];
    paused_text(paused, sizeof(paused), parts, true);
    /* The news, shortened to leave room for the pause and the readout's
     * first part (the pointer's time) if need be. */
    const char *readout = parts->readout ? parts->readout : "";
    const char *next = strstr(readout, " | ");
    char room[1024];
    snprintf(room, sizeof(room), "%s%s%s%.*s", paused[0] ? SEPARATOR : "",
             paused, readout[0] ? SEPARATOR : "",
             (int) (next ? (size_t) (next - readout) : strlen(readout)),
             readout);
    fitting head = f;
    if (action[0] && room[0])
        head.width = width - measure(room, data);
    fit_action(&head, buf, size, action);
    if (!action[0] || !fits(&head, buf))
        fit_action(&f, buf, size, action);
    append_if_fits(&f, buf, size, paused, strlen(paused));
    /* The readout's parts that fit, in order. */
    for (const char *p = readout; *p; )
    {
        const char *end = strstr(p, " | ");
        size_t n = end ? (size_t) (end - p) : strlen(p);
        append_if_fits(&f, buf, size, p, n);
        p += n + (end ? 3 : 0);
    }
}
