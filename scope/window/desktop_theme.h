/* desktop_theme.h - ask the desktop for its light or dark preference and
 * give the window and its graphs the one chosen (palette.h decides). */
#ifndef SCOPE_DESKTOP_THEME_H
#define SCOPE_DESKTOP_THEME_H

#include "view/palette.h"

/* Resolve 'asked' (--theme) with what the desktop says: the freedesktop
 * portal's color-scheme (if a session bus answers within half a second),
 * $GTK_THEME, the user's GTK settings; then set GTK's dark variant to
 * match. Call once GTK is initialised (the application's startup). */
scope_theme scope_desktop_theme_apply(scope_theme asked);

#endif /* SCOPE_DESKTOP_THEME_H */
