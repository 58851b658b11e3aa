/* render_float_private.h - %f %F %e %E %g %G %a %A for recorder_render().
 *
 * 'bits' is the double a record kept (RECORDER_ARG), 'spec' the parsed
 * conversion with its '*' width and precision resolved.
 */
#ifndef RECORDER_RENDER_FLOAT_PRIVATE_H
#define RECORDER_RENDER_FLOAT_PRIVATE_H

#include "text/render_field_private.h"
#include "base/visibility_private.h"

/* Without stdio, malloc or locale, for signal handlers: exact up to a
 * precision of 40, then zeros only where the value has no more digits. */
void render_float_safe(render_sink *sink, const render_spec *spec,
                       uint64_t bits) __attribute__((noinline)) RECORDER_HIDDEN;

/* Through snprintf (L, ll and q pass a long double). */
void render_float_libc(render_sink *sink, const render_spec *spec,
                       uint64_t bits) __attribute__((noinline)) RECORDER_HIDDEN;

#endif /* RECORDER_RENDER_FLOAT_PRIVATE_H */
