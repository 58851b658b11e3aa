/* sample_array.h - the arrays a series keeps its samples in.
 *
 * A series grows for as long as the scope runs: 16 channels at 1 kHz add
 * 0.8 MB a second over their six arrays each. Grown with realloc, every
 * doubling copied an array into fresh heap pages, and faulting those in
 * was a tenth of a 16-channel window's CPU. These arrays are mappings of
 * their own, each holding more address space than it uses (steps of 16
 * times from 1 MiB), and grow within it by making more of it writable:
 * no byte copied, no page moved. Only on passing a step do the pages
 * move (mremap) to new space.
 */
#ifndef SCOPE_SAMPLE_ARRAY_H
#define SCOPE_SAMPLE_ARRAY_H

#include <stddef.h>

/* 'array' (NULL: none yet) of room for 'count' doubles, given room for
 * 'wanted' (more or fewer), the values that fit kept. NULL without
 * memory: 'array' stays as it was. */
double *scope_sample_array_resize(double *array, size_t count,
                                  size_t wanted);

/* Make the pages for doubles [from, to) of 'array' now, in one call, not
 * a fault each as they are first written; 'from' rounded up to a page.
 * 'to' at most the array's count. */
void scope_sample_array_prepare(double *array, size_t from, size_t to);

/* Release 'array', of room for 'count' doubles (NULL: nothing). */
void scope_sample_array_free(double *array, size_t count);

#endif /* SCOPE_SAMPLE_ARRAY_H */
