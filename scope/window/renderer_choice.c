/* renderer_choice.c - draw with cairo where GL would be software.
 *
 * With a software GL (Mesa's llvmpipe under Xvfb, VNC, a container or a
 * remote X session), GTK's GL renderer uploads each frame the graph drew
 * with cairo as a texture, shades every pixel of it again on the CPU and
 * reads the result back for X: the scope window took about three times the
 * CPU of the cairo renderer, which hands the same pixels to X directly.
 * GSK_RENDERER is read once, when the first window is realized, so setting
 * it before then decides for the whole run.
 */
#include "window/renderer_choice.h"

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

static bool is_software(const char *renderer)
{
    static const char *const software[] = { "llvmpipe", "softpipe", "swrast",
                                            "Software Rasterizer" };
    for (size_t i = 0; i < G_N_ELEMENTS(software); i++)
        if (strstr(renderer, software[i]))
            return true;
    return false;
}

bool scope_renderer_avoid_software_gl(char *gl_name, size_t size)
{
    const char *chosen = g_getenv("GSK_RENDERER");
    GdkDisplay *display = gdk_display_get_default();
    if ((chosen && *chosen) || !display)
        return false;

    GError *error = NULL;
    GdkGLContext *context = gdk_display_create_gl_context(display, &error);
    if (!context)
    {
        g_clear_error(&error);          /* no GL: GTK uses cairo anyway */
        return false;
    }
    bool software = false;
    if (gdk_gl_context_realize(context, &error))
    {
        gdk_gl_context_make_current(context);
        const char *renderer = (const char *) glGetString(GL_RENDERER);
        if (renderer && is_software(renderer))
        {
            software = true;
            snprintf(gl_name, size, "%s", renderer);
        }
        gdk_gl_context_clear_current();
    }
    g_clear_error(&error);
    g_object_unref(context);
    if (software)
        g_setenv("GSK_RENDERER", "cairo", TRUE);
    return software;
}
