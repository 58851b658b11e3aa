/* palette.c - dark and light graph colours, and the theme choice. */
#include "view/palette.h"

#include <string.h>
#include <strings.h>

const scope_palette scope_palette_dark = {
    .name = "dark",
    .background = { 0x14, 0x16, 0x1b },
    .plot_fill = { 0x1b, 0x1e, 0x25 },
    .grid = { 0x2b, 0x30, 0x3b },
    .frame = { 0x3a, 0x41, 0x50 },
    .text = { 0xc8, 0xce, 0xd8 },
    .dim = { 0x8a, 0x93, 0xa3 },
    .title = { 0xee, 0xf1, 0xf5 },
    .alert = { 0xff, 0xb4, 0x54 },
    .focus = { 0x4a, 0x78, 0xc2 },
    .channel = {
        { 0xff, 0xcc, 0x33 },           /* amber */
        { 0xff, 0x5c, 0x5c },           /* red */
        { 0x4c, 0xd9, 0x64 },           /* green */
        { 0x5a, 0xc8, 0xfa },           /* sky */
        { 0xc7, 0x7d, 0xff },           /* violet */
        { 0xff, 0x9f, 0x43 },           /* orange */
        { 0xf7, 0x8f, 0xb3 },           /* pink */
        { 0xd1, 0xd1, 0xd1 },           /* grey */
        { 0x2e, 0xd3, 0xb7 },           /* teal */
        { 0x6b, 0x8c, 0xff },           /* blue */
        { 0xb5, 0xe5, 0x50 },           /* lime */
        { 0xff, 0x6a, 0xd5 },           /* magenta */
        { 0xc9, 0x9a, 0x6b },           /* tan */
        { 0xf5, 0xf5, 0x7a },           /* lemon */
        { 0x9b, 0x9b, 0xff },           /* periwinkle */
        { 0x00, 0xe0, 0xff },           /* cyan */
    },
};

/* The same hues, deep enough for lines of 2 pixels on white (a contrast
 * of 3:1 or more against plot_fill). */
const scope_palette scope_palette_light = {
    .name = "light",
    .background = { 0xf6, 0xf5, 0xf4 },   /* GTK's light window colour */
    .plot_fill = { 0xff, 0xff, 0xff },
    .grid = { 0xe1, 0xe4, 0xe9 },
    .frame = { 0xb8, 0xbe, 0xc8 },
    .text = { 0x30, 0x36, 0x40 },
    .dim = { 0x6a, 0x72, 0x80 },
    .title = { 0x12, 0x15, 0x1a },
    .alert = { 0xb3, 0x4a, 0x00 },
    .focus = { 0x35, 0x84, 0xe4 },        /* GTK's light accent */
    .channel = {
        { 0xb3, 0x80, 0x00 },           /* amber */
        { 0xd7, 0x26, 0x26 },           /* red */
        { 0x1e, 0x8c, 0x3a },           /* green */
        { 0x0a, 0x78, 0xb4 },           /* sky */
        { 0x87, 0x3e, 0xd0 },           /* violet */
        { 0xd0, 0x5d, 0x00 },           /* orange */
        { 0xc2, 0x30, 0x6e },           /* pink */
        { 0x5c, 0x5c, 0x5c },           /* grey */
        { 0x0b, 0x85, 0x72 },           /* teal */
        { 0x2c, 0x4f, 0xd0 },           /* blue */
        { 0x5a, 0x85, 0x00 },           /* lime */
        { 0xb0, 0x17, 0x98 },           /* magenta */
        { 0x85, 0x58, 0x2c },           /* tan */
        { 0x85, 0x80, 0x00 },           /* lemon, as olive */
        { 0x55, 0x55, 0xc8 },           /* periwinkle */
        { 0x00, 0x83, 0x9c },           /* cyan */
    },
};

bool scope_theme_parse(const char *text, scope_theme *theme)
{
    static const char *const names[] = {
        [SCOPE_THEME_AUTO] = "auto", [SCOPE_THEME_DARK] = "dark",
        [SCOPE_THEME_LIGHT] = "light",
    };
    for (unsigned t = 0; t < sizeof(names) / sizeof(names[0]); t++)
        if (strcmp(text, names[t]) == 0)
        {
            *theme = (scope_theme) t;
            return true;
        }
    return false;
}

static bool says_dark(const char *name)
{
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, "dark", 4) == 0)
            return true;
    return false;
}

scope_theme scope_theme_resolve(scope_theme asked,
                                const scope_desktop_hints *hints)
{
    if (asked != SCOPE_THEME_AUTO)
        return asked;
    if (!hints)
        return SCOPE_THEME_DARK;
    /* The most explicit first: the portal is the desktop's own switch;
     * GTK_THEME overrides the theme GTK loads (NAME or NAME:VARIANT). */
    if (hints->color_scheme == 1)
        return SCOPE_THEME_DARK;
    if (hints->color_scheme == 2)
        return SCOPE_THEME_LIGHT;
    if (hints->gtk_theme_env && hints->gtk_theme_env[0])
        return says_dark(hints->gtk_theme_env) ? SCOPE_THEME_DARK
                                                : SCOPE_THEME_LIGHT;
    if (hints->prefers_dark)
        return SCOPE_THEME_DARK;
    /* A theme the user picked that is not dark means light; GTK's
     * default (Adwaita) is no choice at all. */
    const char *name = hints->theme_name;
    if (name && name[0])
    {
        if (says_dark(name))
            return SCOPE_THEME_DARK;
        if (strcasecmp(name, "Adwaita") != 0 &&
            strcasecmp(name, "Default") != 0)
            return SCOPE_THEME_LIGHT;
    }
    return SCOPE_THEME_DARK;
}

const scope_palette *scope_palette_of(scope_theme theme)
{
    return theme == SCOPE_THEME_LIGHT ? &scope_palette_light
                                      : &scope_palette_dark;
}
