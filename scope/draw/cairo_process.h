/* cairo_process.h - what a program that draws with cairo sets up first. */
#ifndef CAIRO_PROCESS_H
#define CAIRO_PROCESS_H

/* Call at the start of main(), before any drawing. */
void cairo_process_tune_malloc(void);

#endif /* CAIRO_PROCESS_H */
