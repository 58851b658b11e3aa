/* save_file.h - write files that never overwrite and never appear half
 * written: BASENAME + NUMBER + EXTENSION, with the first number for which
 * none of the extensions exists yet. Each file is written under a temporary
 * name in the same directory, then renamed into place without replacing
 * anything (renameat2 RENAME_NOREPLACE, or link and unlink).
 */
#ifndef SCOPE_SAVE_FILE_H
#define SCOPE_SAVE_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Write the file at 'path' (a temporary name). False with a reason. */
typedef bool (*scope_save_writer)(const char *path, void *arg, char *error,
                                  size_t size);

typedef struct scope_save_item
{
    const char *      extension;        /* ".png", ".csv" */
    scope_save_writer write;
    void *            arg;
} scope_save_item;

/* Save 'count' items under one number, the first free one from '*next'
 * on; '*next' then names the following one. Returns the number, 0 on error
 * (with a reason in error[size]; nothing is left behind). */
unsigned scope_save_numbered(const char *basename, unsigned *next,
                             const scope_save_item *items, unsigned count,
                             char *error, size_t size);

/* Write one file at 'path' through a temporary name, replacing 'path' if
 * it exists (for files the user named, like --png FILE). */
bool scope_save_replace(const char *path, scope_save_writer write, void *arg,
                        char *error, size_t size);

#endif /* SCOPE_SAVE_FILE_H */
