/* status_text.c - the status line's text. */
#include "view/status_text.h"

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
