/* renderer_choice.h - draw with cairo where GL would be software. */
#ifndef SCOPE_RENDERER_CHOICE_H
#define SCOPE_RENDERER_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

/* Unless GSK_RENDERER says otherwise, make GTK draw windows with its cairo
 * renderer when the GL implementation is a software rasterizer (llvmpipe,
 * softpipe, swrast): there GL costs several times the CPU for the same
 * frames. Call after GTK is initialised and before the first window is
 * realized. Returns true if it chose cairo, with the GL renderer's name in
 * gl_name[size]. */
bool scope_renderer_avoid_software_gl(char *gl_name, size_t size);

#endif /* SCOPE_RENDERER_CHOICE_H */
