/* window_launch.c - hand a window request to recorder_scope_window. */
#include "cli/window_launch.h"
#include "common/scope_message.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WINDOW_NAME     "recorder_scope_window"

#ifndef SCOPE_LIBEXECDIR
#define SCOPE_LIBEXECDIR        "/usr/local/libexec/recorder"
#endif
/* GTK 4's soname: what the window program needs that a server may lack. */
#ifndef SCOPE_GTK_SONAME
#define SCOPE_GTK_SONAME        "libgtk-4.so.1"
#endif

static bool try_path(char *found, size_t size, const char *dir,
                     const char *name)
{
    int n = snprintf(found, size, "%s/%s", dir, name);
    return n > 0 && (size_t) n < size && access(found, X_OK) == 0;
}

static bool find_window(char *found, size_t size)
{
    const char *forced = getenv("RECORDER_SCOPE_WINDOW");
    if (forced)
    {
        snprintf(found, size, "%s", forced);
        if (*forced && access(forced, X_OK) == 0)
            return true;
        scope_message("the window program RECORDER_SCOPE_WINDOW names, "
                      "'%s', cannot be run: %s", forced,
                      *forced ? strerror(errno) : "it is empty");
        return false;
    }
    char here[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", here, sizeof(here) - 1);
    char *slash = length > 0 ? (here[length] = 0, strrchr(here, '/')) : NULL;
    if (slash)
    {
        *slash = 0;
        if (try_path(found, size, here, WINDOW_NAME) ||
            try_path(found, size, here, "../libexec/recorder/" WINDOW_NAME))
            return true;
    }
    if (try_path(found, size, SCOPE_LIBEXECDIR, WINDOW_NAME))
        return true;
    scope_message("the window is not installed: no %s beside this program "
                  "nor in %s; -L, -l, -D, -c and the captures work without "
                  "it", WINDOW_NAME, SCOPE_LIBEXECDIR);
    return false;
}

int scope_window_launch(char **argv)
{
    char window[PATH_MAX];
    if (!find_window(window, sizeof(window)))
        return 1;
    /* The loader's own failure would come after exec, in its words and
     * under another name: check the part a server most likely lacks. */
    void *gtk = dlopen(SCOPE_GTK_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!gtk)
    {
        scope_message("the window needs GTK 4, which is missing here (%s); "
                      "-L, -l, -D, -c and the captures work without it",
                      dlerror());
        return 1;
    }
    dlclose(gtk);
    execv(window, argv);
    scope_message("cannot run the window, %s: %s", window, strerror(errno));
    return 1;
}
