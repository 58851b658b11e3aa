/* sample_array.c - sample arrays as mappings grown in place. */
#define _GNU_SOURCE                     /* mremap */
#include "source/sample_array.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The bytes of the mapping for 'count' doubles: whole pages. 0 if that
 * does not fit a size_t. */
static size_t mapped_bytes(size_t count)
{
    static size_t page;
    if (!page)
    {
        long size = sysconf(_SC_PAGESIZE);
        page = size > 0 ? (size_t) size : 4096;
    }
    if (!count || count > (SIZE_MAX - page) / sizeof(double))
        return 0;
    size_t bytes = count * sizeof(double);
    return (bytes + page - 1) / page * page;
}

double *scope_sample_array_resize(double *array, size_t count,
                                  size_t wanted)
{
    size_t bytes = mapped_bytes(wanted), had = mapped_bytes(count);
    if (!bytes)
        return NULL;
    void *resized;
    if (!array)
        resized = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    else if (bytes == had)
        return array;
    else
        resized = mremap(array, had, bytes, MREMAP_MAYMOVE);
    return resized == MAP_FAILED ? NULL : resized;
}

void scope_sample_array_free(double *array, size_t count)
{
    if (array)
        munmap(array, mapped_bytes(count));
}
