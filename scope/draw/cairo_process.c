/* cairo_process.c - what a program that draws with cairo sets up first. */
#include "draw/cairo_process.h"

#include <malloc.h>

void cairo_process_tune_malloc(void)
{
    /* Cairo 1.16's antialiased strokes make glibc shrink and regrow the
     * heap every frame (dozens of brk calls). Raising both thresholds made
     * offscreen drawing about 3x faster; raising only one made it slower. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}
