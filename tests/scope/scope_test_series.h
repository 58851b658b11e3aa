/* scope_test_series.h - build channel histories for scope unit tests. */
#ifndef SCOPE_TEST_SERIES_H
#define SCOPE_TEST_SERIES_H

#include "source/channel_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A series named 'name' with 'count' samples: time t0 + i * dt, value
 * base + i * slope. */
static inline scope_series *test_series(const char *name, unsigned count,
                                        double t0, double dt, double base,
                                        double slope)
{
    scope_series *series = malloc(sizeof(*series));
    scope_series_init(series, name, 0.99);
    for (unsigned i = 0; i < count; i++)
        scope_series_append(series, t0 + i * dt, base + i * slope);
    return series;
}

static inline void test_series_delete(scope_series *series)
{
    scope_series_free(series);
    free(series);
}

/* Read a whole file into a string (freed by the caller). */
static inline char *test_slurp(const char *file_path)
{
    FILE *file = fopen(file_path, "r");
    if (!file)
        return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = calloc(1, (size_t) size + 1);
    if (text && fread(text, 1, (size_t) size, file) != (size_t) size)
        text[0] = 0;
    fclose(file);
    return text;
}

/* Write to a memory stream; the caller frees the text. */
typedef struct test_memfile
{
    FILE * file;
    char * text;
    size_t size;
} test_memfile;

static inline void test_memfile_open(test_memfile *m)
{
    m->text = NULL;
    m->size = 0;
    m->file = open_memstream(&m->text, &m->size);
}

static inline void test_memfile_close(test_memfile *m)
{
    fclose(m->file);
    m->file = NULL;
}

#endif /* SCOPE_TEST_SERIES_H */
