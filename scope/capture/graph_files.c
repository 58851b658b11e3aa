/* graph_files.c - write graphs as PNG or CSV (see graph_files.h). */
#include "capture/graph_files.h"
#include "capture/csv_export.h"
#include "draw/graph_draw.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool write_png(const char *path, void *arg, char *error, size_t size)
{
    const graph_files *files = arg;
    return graph_draw_png(files->models, files->count, files->width,
                          files->height, path, error, size);
}

static bool write_csv(const char *path, void *arg, char *error, size_t size)
{
    graph_files *files = arg;
    FILE *file = fopen(path, "w");
    if (!file)
    {
        snprintf(error, size, "%s: %s", path, strerror(errno));
        return false;
    }
    files->rows = scope_csv_write_graphs(file, files->models, files->count,
                                         files->width);
    if (fclose(file) != 0 || files->rows < 0)
    {
        snprintf(error, size, "%s: write error", path);
        return false;
    }
    return true;
}

scope_save_item graph_files_item(graph_files *files, graph_file_kind kind)
{
    if (kind == GRAPH_FILE_CSV)
        return (scope_save_item) { ".csv", write_csv, files };
    return (scope_save_item) { ".png", write_png, files };
}
