/* sample_array.c - sample arrays as mappings grown in place. */
#define _GNU_SOURCE                     /* mremap */
#include "source/sample_array.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Address space is held in steps of 16 times, from 1 MiB: the default
 * history (2 M doubles at most, 16 MiB) ends on a step. */
#define HOLD_FIRST      ((size_t) 1 << 20)
#define HOLD_STEP       16

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

/* The address space held for a mapping of 'bytes': a function of the size
 * alone, so that freeing needs nothing more than the count. */
static size_t held_bytes(size_t bytes)
{
    size_t held = HOLD_FIRST;
    while (held < bytes)
    {
        if (held > SIZE_MAX / HOLD_STEP)
            return bytes;
        held *= HOLD_STEP;
    }
    return held;
}

/* 'held' bytes of address space, the first 'bytes' of them writable. */
static void *hold(size_t held, size_t bytes)
{
    void *start = mmap(NULL, held, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start == MAP_FAILED)
        return NULL;
    if (mprotect(start, bytes, PROT_READ | PROT_WRITE) != 0)
    {
        munmap(start, held);
        return NULL;
    }
    return start;
}

double *scope_sample_array_resize(double *array, size_t count,
                                  size_t wanted)
{
    size_t bytes = mapped_bytes(wanted), had = mapped_bytes(count);
    if (!bytes)
        return NULL;
    if (!array)
        return hold(held_bytes(bytes), bytes);
    if (bytes == had)
        return array;
    char *start = (char *) array;
    size_t held = held_bytes(bytes), held_had = held_bytes(had);
    if (held == held_had)
    {
        /* Within the space held: the pages stay where they are. Moving
         * them (mremap) would flush every CPU's TLB entries for them,
         * an interrupt to each CPU the scope's threads ran on. */
        if (bytes > had)
            return mprotect(start + had, bytes - had,
                            PROT_READ | PROT_WRITE) == 0 ? array : NULL;
        void *given_back = mmap(start + bytes, had - bytes, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                                MAP_FIXED, -1, 0);
        return given_back == MAP_FAILED ? NULL : array;
    }
    /* Another step: the kept pages move to new space, once a step. */
    void *moved = hold(held, bytes);
    if (!moved)
        return NULL;
    size_t kept = had < bytes ? had : bytes;
    if (mremap(start, kept, kept, MREMAP_MAYMOVE | MREMAP_FIXED,
               moved) == MAP_FAILED)
    {
        munmap(moved, held);
        return NULL;
    }
    munmap(start, held_had);
    return moved;
}

void scope_sample_array_prepare(double *array, size_t from, size_t to)
{
#ifdef MADV_POPULATE_WRITE
    /* Whole pages: 'from' and 'to' rounded up. Refused before Linux
     * 5.14: the pages are then faulted in as they are written. */
    size_t start = mapped_bytes(from), end = mapped_bytes(to);
    if (array && end > start)
        madvise((char *) array + start, end - start, MADV_POPULATE_WRITE);
#else
    (void) array, (void) from, (void) to;
#endif
}

void scope_sample_array_free(double *array, size_t count)
{
    if (array)
        munmap(array, held_bytes(mapped_bytes(count)));
}
