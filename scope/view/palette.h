/* palette.h - the colours of the graphs, dark or light, and which to use.
 *
 * The window's theme (GTK's light or dark variant) and the graphs drawn
 * with cairo take one choice: --theme dark|light, or with auto the
 * desktop's preference. Plain C: the desktop's hints are gathered by the
 * window and handed in, so tests drive the choice directly.
 */
#ifndef SCOPE_PALETTE_H
#define SCOPE_PALETTE_H

#include <stdbool.h>

typedef struct scope_rgb
{
    unsigned char r, g, b;
} scope_rgb;

#define SCOPE_PALETTE_CHANNELS 16

typedef struct scope_palette
{
    const char *name;                   /* "dark" or "light" */
    scope_rgb   background, plot_fill, grid, frame, text, dim, title;
    scope_rgb   alert;                  /* bad news, missing tweaks */
    scope_rgb   focus;                  /* the graph keys act on */
    /* Distinct, readable on plot_fill, and none of them used for the
     * frame or text, so a test can count a channel's pixels by colour. */
    scope_rgb   channel[SCOPE_PALETTE_CHANNELS];
} scope_palette;

extern const scope_palette scope_palette_dark;
extern const scope_palette scope_palette_light;

typedef enum scope_theme
{
    SCOPE_THEME_AUTO,                   /* the desktop's, else dark */
    SCOPE_THEME_DARK,
    SCOPE_THEME_LIGHT
} scope_theme;

/* "auto", "dark" or "light". */
bool scope_theme_parse(const char *text, scope_theme *theme);

/* What the desktop says, each item optional. */
typedef struct scope_desktop_hints
{
    int         color_scheme;           /* the freedesktop portal's
                                           org.freedesktop.appearance
                                           color-scheme: 1 dark, 2 light,
                                           0 no preference, -1 unknown */
    const char *gtk_theme_env;          /* $GTK_THEME, e.g. "Adwaita:dark" */
    bool        prefers_dark;           /* gtk-application-prefer-dark-theme
                                           as the user's settings left it */
    const char *theme_name;             /* gtk-theme-name, e.g. "Yaru-dark" */
} scope_desktop_hints;

/* DARK or LIGHT for 'asked' (--theme): what it names, or with AUTO what
 * 'hints' prefer (NULL: none, as headless). Without any preference the
 * scope stays dark, as it always was. */
scope_theme scope_theme_resolve(scope_theme asked,
                                const scope_desktop_hints *hints);

/* The palette of a resolved theme. */
const scope_palette *scope_palette_of(scope_theme theme);

#endif /* SCOPE_PALETTE_H */
