/* desktop_theme.c - the desktop's colour preference, applied to GTK. */
#include "window/desktop_theme.h"

#include <gtk/gtk.h>
#include <stdlib.h>

#define PORTAL_TIMEOUT_MS 500

/* org.freedesktop.appearance color-scheme: 0 none, 1 dark, 2 light; -1
 * when nothing answers (no session bus, no portal, an old portal). */
static int portal_color_scheme(void)
{
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!bus)
        return -1;
    GVariant *reply = g_dbus_connection_call_sync(
        bus, "org.freedesktop.portal.Desktop",
        "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
        "Read", g_variant_new("(ss)", "org.freedesktop.appearance",
                              "color-scheme"),
        G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, PORTAL_TIMEOUT_MS,
        NULL, NULL);
    g_object_unref(bus);
    if (!reply)
        return -1;
    GVariant *value = NULL;
    g_variant_get(reply, "(v)", &value);
    g_variant_unref(reply);
    /* Read() wraps the value in one variant more than it says. */
    while (value && g_variant_is_of_type(value, G_VARIANT_TYPE_VARIANT))
    {
        GVariant *inner = g_variant_get_variant(value);
        g_variant_unref(value);
        value = inner;
    }
    int scheme = -1;
    if (value && g_variant_is_of_type(value, G_VARIANT_TYPE_UINT32))
        scheme = (int) g_variant_get_uint32(value);
    if (value)
        g_variant_unref(value);
    return scheme;
}

scope_theme scope_desktop_theme_apply(scope_theme asked)
{
    GtkSettings *settings = gtk_settings_get_default();
    gboolean prefers_dark = FALSE;
    char *theme_name = NULL;
    if (settings)
        g_object_get(settings, "gtk-application-prefer-dark-theme",
                     &prefers_dark, "gtk-theme-name", &theme_name, NULL);
    scope_desktop_hints hints = {
        .color_scheme = asked == SCOPE_THEME_AUTO ? portal_color_scheme() : -1,
        .gtk_theme_env = getenv("GTK_THEME"),
        .prefers_dark = prefers_dark,
        .theme_name = theme_name,
    };
    scope_theme theme = scope_theme_resolve(asked, &hints);
    g_free(theme_name);
    /* GTK's dark variant for the window, matching the graphs. */
    if (settings)
        g_object_set(settings, "gtk-application-prefer-dark-theme",
                     theme == SCOPE_THEME_DARK, NULL);
    return theme;
}
