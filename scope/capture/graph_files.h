/* graph_files.h - graphs as files: the PNG graph_draw() makes of them and
 * the CSV of the samples they show. The window's save (numbered files) and
 * the headless capture (--png, --csv) both write through these, so a saved
 * file is the same whichever way it was asked for.
 */
#ifndef SCOPE_GRAPH_FILES_H
#define SCOPE_GRAPH_FILES_H

#include "view/graph_model.h"
#include "common/save_file.h"

typedef enum graph_file_kind
{
    GRAPH_FILE_PNG,
    GRAPH_FILE_CSV,
} graph_file_kind;

/* 'count' graphs stacked in a 'width' x 'height' picture. */
typedef struct graph_files
{
    const graph_model *const *models;
    unsigned count;
    int      width, height;
    long     rows;                      /* set when the CSV is written */
} graph_files;

/* How to save 'files' as 'kind': an item for scope_save_numbered(), or
 * whose writer and argument go to scope_save_replace(). 'files' must live
 * until the save is done. */
scope_save_item graph_files_item(graph_files *files, graph_file_kind kind);

#endif /* SCOPE_GRAPH_FILES_H */
