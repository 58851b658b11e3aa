/* test_scope_window_key_bindings.c - the scope's one table of keys and gestures:
 * no key bound twice, the original keys keep their actions, every key and
 * action name parses as GTK will parse it, and the shortcuts window's XML
 * lists every binding. With SCOPE_TEST_DISPLAY=1 (check-scope-chrome.sh,
 * under Xvfb) it also builds the shortcuts window and the header bar. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "window/key_bindings.h"
#include "window/key_bindings_table.h"
#include "window/shortcuts_xml.h"
#include "window/window_chrome.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

/* The actions scope_app.c registers, by the names it registers them. */
static const char *const lead_actions[] = {
    "app.quit", "app.toggle-timing", "app.toggle-average",
    "app.toggle-normal", "app.toggle-minmax", "app.save-image",
    "app.save-data", "app.save-both", "app.dismiss", "app.pause", "app.live",
    "app.zoom-in", "app.zoom-out", "app.pan-left", "app.pan-right",
    "app.value-zoom-in", "app.value-zoom-out", "app.value-pan-up",
    "app.value-pan-down", "app.cursor-a", "app.cursor-b", "app.cursors-clear",
    "app.zoom-cursors", "app.scale-mode", "app.log-scale", "app.lock-range",
    "app.toggle-channel", "app.shortcuts", "app.pick-channels",
};

/* The action a key runs: the one entry whose keys hold 'key'. */
static const char *action_of(const char *key)
{
    size_t count;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    const char *found = NULL;
    for (size_t b = 0; b < count; b++)
        for (unsigned k = 0; k < SCOPE_KEYS_MAX && bindings[b].keys[k]; k++)
            if (strcmp(bindings[b].keys[k], key) == 0)
            {
                assert_null(found);
                found = bindings[b].action;
            }
    return found;
}

static void test_original_keys_keep_their_actions(void **state)
{
    (void) state;
    static const char *const original[][2] = {
        { "t", "app.toggle-timing" }, { "a", "app.toggle-average" },
        { "n", "app.toggle-normal" }, { "m", "app.toggle-minmax" },
        { "i", "app.save-image" },    { "c", "app.save-data" },
        { "space", "app.save-both" }, { "q", "app.quit" },
    };
    for (size_t o = 0; o < G_N_ELEMENTS(original); o++)
    {
        const char *action = action_of(original[o][0]);
        assert_non_null(action);
        assert_string_equal(action, original[o][1]);
    }
}

static void test_every_accelerator_parses_and_none_is_bound_twice(void **s)
{
    (void) s;
    size_t count;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    guint keys[200];
    GdkModifierType mods[200];
    size_t seen = 0;
    for (size_t b = 0; b < count; b++)
    {
        assert_non_null(bindings[b].keys[0]);
        for (unsigned k = 0; k < SCOPE_KEYS_MAX && bindings[b].keys[k]; k++)
        {
            guint key = 0;
            GdkModifierType mod = 0;
            if (!gtk_accelerator_parse(bindings[b].keys[k], &key, &mod) ||
                !key)
                fail_msg("'%s' of %s does not parse", bindings[b].keys[k],
                         bindings[b].action);
            /* Compared as GTK matches them, not as spelt. */
            for (size_t o = 0; o < seen; o++)
                if (keys[o] == key && mods[o] == mod)
                    fail_msg("'%s' of %s is bound twice",
                             bindings[b].keys[k], bindings[b].action);
            assert_true(seen < G_N_ELEMENTS(keys));
            keys[seen] = key;
            mods[seen++] = mod;
        }
    }
    assert_true(seen >= 40);
}

static void test_every_action_is_named_titled_and_grouped(void **state)
{
    (void) state;
    size_t count;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    for (size_t b = 0; b < count; b++)
    {
        char *name = NULL;
        GVariant *target = NULL;
        GError *error = NULL;
        if (!g_action_parse_detailed_name(bindings[b].action, &name, &target,
                                          &error))
            fail_msg("%s: %s", bindings[b].action, error->message);
        assert_true(g_str_has_prefix(name, "app."));
        if (strcmp(name, "app.toggle-channel") == 0)
        {
            /* The action's parameter is "u": an int32 target would not
             * activate it. */
            assert_non_null(target);
            assert_true(g_variant_is_of_type(target, G_VARIANT_TYPE_UINT32));
            guint32 channel = g_variant_get_uint32(target);
            assert_true(channel >= 1 && channel <= 9);
            char key[16];
            snprintf(key, sizeof(key), "<Alt>%u", channel);
            assert_string_equal(bindings[b].keys[0], key);
        }
        else
            assert_null(target);
        if (target)
            g_variant_unref(target);
        g_free(name);
        assert_true(bindings[b].title && bindings[b].title[0]);
        assert_true(bindings[b].group && bindings[b].group[0]);
        assert_ptr_equal(scope_key_binding_find(bindings[b].action),
                         &bindings[b]);
        for (size_t o = 0; o < b; o++)
            assert_string_not_equal(bindings[o].action, bindings[b].action);
    }
    for (size_t a = 0; a < G_N_ELEMENTS(lead_actions); a++)
    {
        bool found = false;
        for (size_t b = 0; b < count; b++)
            found |= strncmp(bindings[b].action, lead_actions[a],
                             strlen(lead_actions[a])) == 0;
        if (!found)
            fail_msg("no key for %s", lead_actions[a]);
    }
    const scope_mouse_gesture *gestures = scope_mouse_gestures(&count);
    assert_true(count >= 9);
    for (size_t g = 0; g < count; g++)
        assert_true(gestures[g].title[0] && gestures[g].how[0]);
}

static void test_keys_read_as_people_write_them(void **state)
{
    (void) state;
    char text[64];
    scope_key_text("<Control>q", text, sizeof(text));
    assert_string_equal(text, "Ctrl+q");
    scope_key_text("KP_Add", text, sizeof(text));
    assert_string_equal(text, "Keypad +");
    scope_key_text("<Control><Shift>plus", text, sizeof(text));
    assert_string_equal(text, "Ctrl+Shift++");
    assert_int_equal(scope_key_text("space", text, sizeof(text)), 5);

    assert_int_equal(scope_key_tooltip("app.pause", text, sizeof(text)),
                     strlen("Pause / resume (p)"));
    assert_string_equal(text, "Pause / resume (p)");
    scope_key_tooltip("app.quit", text, sizeof(text));
    assert_string_equal(text, "Quit (q, Ctrl+q)");
    scope_key_tooltip("app.zoom-in", text, sizeof(text));
    assert_non_null(strstr(text, "(+, =, Keypad +)"));
    assert_int_equal(scope_key_tooltip("app.no-such", text, sizeof(text)), 0);
    assert_string_equal(text, "");
    /* Cut short, but says what it needs, like snprintf. */
    size_t needed = scope_key_tooltip("app.save-both", text, 6);
    assert_int_equal(needed, strlen("Save both (Space)"));
    assert_string_equal(text, "Save ");
}

/* ---- the shortcuts window's XML, read as GtkBuilder will ------------------- */

typedef struct xml_reading
{
    int      depth, shortcut_depth;
    char     property[32];
    unsigned shortcuts, groups, sections;
    GString *accelerators, *titles, *group_titles;
} xml_reading;

static void on_start(GMarkupParseContext *context, const char *element,
                     const char **names, const char **values, gpointer data,
                     GError **error)
{
    (void) context, (void) error;
    xml_reading *reading = data;
    reading->depth++;
    reading->property[0] = 0;
    for (unsigned a = 0; names[a]; a++)
    {
        if (strcmp(element, "object") == 0 && strcmp(names[a], "class") == 0)
        {
            if (strcmp(values[a], "GtkShortcutsShortcut") == 0)
                reading->shortcuts++, reading->shortcut_depth = reading->depth;
            if (strcmp(values[a], "GtkShortcutsGroup") == 0)
                reading->groups++, reading->shortcut_depth = 0;
            if (strcmp(values[a], "GtkShortcutsSection") == 0)
                reading->sections++, reading->shortcut_depth = 0;
        }
        if (strcmp(element, "property") == 0 && strcmp(names[a], "name") == 0)
            snprintf(reading->property, sizeof(reading->property), "%s",
                     values[a]);
    }
}

static void on_end(GMarkupParseContext *context, const char *element,
                   gpointer data, GError **error)
{
    (void) context, (void) element, (void) error;
    xml_reading *reading = data;
    reading->depth--;
    reading->property[0] = 0;
}

static void on_text(GMarkupParseContext *context, const char *text,
                    gsize length, gpointer data, GError **error)
{
    (void) context, (void) error;
    xml_reading *reading = data;
    GString *into = NULL;
    if (strcmp(reading->property, "accelerator") == 0)
        into = reading->accelerators;
    else if (strcmp(reading->property, "title") == 0)
        into = reading->shortcut_depth ? reading->titles
                                       : reading->group_titles;
    if (into)
    {
        g_string_append_c(into, '|');
        g_string_append_len(into, text, (gssize) length);
        g_string_append_c(into, '|');
    }
}

static bool listed(GString *list, const char *text)
{
    char *item = g_strdup_printf("|%s|", text);
    bool found = strstr(list->str, item) != NULL;
    g_free(item);
    return found;
}

static void test_shortcuts_xml_lists_every_binding(void **state)
{
    (void) state;
    char *xml = scope_shortcuts_xml();
    assert_non_null(xml);
    xml_reading reading = {
        .accelerators = g_string_new(""), .titles = g_string_new(""),
        .group_titles = g_string_new(""),
    };
    GMarkupParser parser = { .start_element = on_start,
                             .end_element = on_end, .text = on_text };
    GMarkupParseContext *context = g_markup_parse_context_new(&parser, 0,
                                                              &reading, NULL);
    GError *error = NULL;
    if (!g_markup_parse_context_parse(context, xml, -1, &error) ||
        !g_markup_parse_context_end_parse(context, &error))
        fail_msg("shortcuts XML: %s", error->message);
    g_markup_parse_context_free(context);

    size_t count, listed_keys = 0;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    for (size_t b = 0; b < count; b++)
    {
        if (bindings[b].shown && !bindings[b].shown[0])
            continue;                   /* inside the range before it */
        listed_keys++;
        assert_true(listed(reading.titles, bindings[b].shown_title
                                           ? bindings[b].shown_title
                                           : bindings[b].title));
        assert_true(listed(reading.group_titles, bindings[b].group));
        if (!bindings[b].shown)
        {
            /* Escaped in the file, the same text once read. */
            GString *keys = g_string_new(bindings[b].keys[0]);
            for (unsigned k = 1; k < SCOPE_KEYS_MAX && bindings[b].keys[k];
                 k++)
                g_string_append_printf(keys, " %s", bindings[b].keys[k]);
            if (!listed(reading.accelerators, keys->str))
                fail_msg("%s: '%s' not listed", bindings[b].action, keys->str);
            g_string_free(keys, TRUE);
        }
    }
    assert_true(listed(reading.accelerators, "<Alt>1...<Alt>9"));
    size_t gesture_count;
    const scope_mouse_gesture *gestures = scope_mouse_gestures(&gesture_count);
    for (size_t g = 0; g < gesture_count; g++)
        assert_true(listed(reading.titles, gestures[g].title));
    assert_true(listed(reading.group_titles, SCOPE_MOUSE_GROUP));
    assert_int_equal(reading.shortcuts, listed_keys + gesture_count);
    assert_int_equal(reading.groups, 9);  /* 8 of keys, 1 of the mouse */
    assert_int_equal(reading.sections, 2);
    g_string_free(reading.accelerators, TRUE);
    g_string_free(reading.titles, TRUE);
    g_string_free(reading.group_titles, TRUE);
    free(xml);
}

/* ---- with a display ------------------------------------------------------------ */

/* Shortcuts of the sections under 'widget' (the window also keeps copies
 * for its search page). */
static unsigned count_shortcuts(GtkWidget *widget, bool in_section,
                                unsigned *gestures)
{
    unsigned count = 0;
    in_section |= GTK_IS_SHORTCUTS_SECTION(widget);
    if (GTK_IS_SHORTCUTS_SHORTCUT(widget) && in_section)
    {
        GtkShortcutType type;
        GIcon *icon = NULL;
        g_object_get(widget, "shortcut-type", &type, "icon", &icon, NULL);
        if (type == GTK_SHORTCUT_GESTURE)
        {
            assert_non_null(icon);
            ++*gestures;
        }
        g_clear_object(&icon);
        count++;
    }
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child;
         child = gtk_widget_get_next_sibling(child))
        count += count_shortcuts(child, in_section, gestures);
    return count;
}

/* Every button tells what it does and, if a key does it too, the key. */
static unsigned check_tooltips(GtkWidget *widget)
{
    unsigned buttons = 0;
    if (GTK_IS_BUTTON(widget) || GTK_IS_MENU_BUTTON(widget))
    {
        const char *tip = gtk_widget_get_tooltip_text(widget);
        assert_true(tip && tip[0]);
        const char *action = GTK_IS_ACTIONABLE(widget)
            ? gtk_actionable_get_action_name(GTK_ACTIONABLE(widget)) : NULL;
        if (action)
        {
            const scope_key_binding *binding = scope_key_binding_find(action);
            assert_non_null(binding);
            char key[64];
            scope_key_text(binding->keys[0], key, sizeof(key));
            if (!strstr(tip, key))
                fail_msg("tooltip '%s' of %s does not name %s", tip, action,
                         key);
        }
        buttons++;
        if (GTK_IS_MENU_BUTTON(widget))
            return buttons;             /* its inner button is its own */
    }
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child;
         child = gtk_widget_get_next_sibling(child))
        buttons += check_tooltips(child);
    return buttons;
}

static void test_window_chrome_builds(void **state)
{
    (void) state;
    if (!getenv("SCOPE_TEST_DISPLAY"))
        skip();
    assert_true(gtk_init_check());

    GtkWindow *window = scope_shortcuts_window_new();
    assert_non_null(window);
    assert_true(GTK_IS_SHORTCUTS_WINDOW(window));
    size_t keys, gestures;
    const scope_key_binding *bindings = scope_key_bindings(&keys);
    scope_mouse_gestures(&gestures);
    size_t listed_keys = 0;
    for (size_t b = 0; b < keys; b++)
        listed_keys += !(bindings[b].shown && !bindings[b].shown[0]);
    unsigned gesture_shortcuts = 0;
    assert_int_equal(count_shortcuts(GTK_WIDGET(window), false,
                                     &gesture_shortcuts),
                     listed_keys + gestures);
    assert_int_equal(gesture_shortcuts, gestures);
    gtk_window_destroy(window);

    GtkWidget *bar = g_object_ref_sink(scope_header_bar_new());
    assert_true(GTK_IS_HEADER_BAR(bar));
    /* pause, live, 4 views, picker, save, menu */
    assert_int_equal(check_tooltips(bar), 9);
    /* The picker's button (a menu button: no action) names its key. */
    GtkWidget *picker = g_object_get_data(G_OBJECT(bar), SCOPE_PICKER_BUTTON);
    assert_non_null(picker);
    assert_non_null(strstr(gtk_widget_get_tooltip_text(picker), "(Insert)"));
    g_object_unref(bar);

    /* The table's detailed names, as GTK files them. */
    GtkApplication *app = gtk_application_new("org.recorder.test_keys",
                                              G_APPLICATION_NON_UNIQUE);
    scope_key_bindings_install(app);
    char **actions = gtk_application_get_actions_for_accel(app, "<Alt>3");
    assert_non_null(actions[0]);
    assert_string_equal(actions[0], "app.toggle-channel(uint32 3)");
    assert_null(actions[1]);
    g_strfreev(actions);
    actions = gtk_application_get_actions_for_accel(app, "t");
    assert_string_equal(actions[0], "app.toggle-timing");
    g_strfreev(actions);
    char **accels = gtk_application_get_accels_for_action(app,
                                                          "app.zoom-in");
    assert_int_equal(g_strv_length(accels), 3);
    g_strfreev(accels);
    g_object_unref(app);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_original_keys_keep_their_actions),
        cmocka_unit_test(test_every_accelerator_parses_and_none_is_bound_twice),
        cmocka_unit_test(test_every_action_is_named_titled_and_grouped),
        cmocka_unit_test(test_keys_read_as_people_write_them),
        cmocka_unit_test(test_shortcuts_xml_lists_every_binding),
        cmocka_unit_test(test_window_chrome_builds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
