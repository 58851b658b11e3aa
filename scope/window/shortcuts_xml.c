/* shortcuts_xml.c - the shortcuts window's builder XML, from the tables. */
#include "window/shortcuts_xml.h"
#include "window/key_bindings_table.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 'text' escaped for XML: names of keys hold < and >. */
static void put_escaped(FILE *xml, const char *text)
{
    for (const char *c = text; *c; c++)
        switch (*c)
        {
        case '&':  fputs("&amp;", xml);  break;
        case '<':  fputs("&lt;", xml);   break;
        case '>':  fputs("&gt;", xml);   break;
        case '"':  fputs("&quot;", xml); break;
        case '\'': fputs("&apos;", xml); break;
        default:   fputc(*c, xml);       break;
        }
}

static void property(FILE *xml, int indent, const char *name,
                     const char *value)
{
    fprintf(xml, "%*s<property name=\"%s\">", indent, "", name);
    put_escaped(xml, value);
    fputs("</property>\n", xml);
}

static void key_shortcut(FILE *xml, const scope_key_binding *binding)
{
    char keys[256] = "";
    if (binding->shown)
        snprintf(keys, sizeof(keys), "%s", binding->shown);
    else
        for (unsigned k = 0; k < SCOPE_KEYS_MAX && binding->keys[k]; k++)
        {
            if (k)
                strncat(keys, " ", sizeof(keys) - strlen(keys) - 1);
            strncat(keys, binding->keys[k], sizeof(keys) - strlen(keys) - 1);
        }
    fprintf(xml, "        <child>\n"
                 "          <object class=\"GtkShortcutsShortcut\">\n");
    property(xml, 12, "accelerator", keys);
    property(xml, 12, "title",
             binding->shown_title ? binding->shown_title : binding->title);
    fprintf(xml, "          </object>\n"
                 "        </child>\n");
}

static void section_start(FILE *xml, const char *name, const char *title,
                          unsigned max_height)
{
    fprintf(xml, "  <child>\n"
                 "  <object class=\"GtkShortcutsSection\">\n");
    property(xml, 4, "section-name", name);
    property(xml, 4, "title", title);
    fprintf(xml, "    <property name=\"max-height\">%u</property>\n",
            max_height);
}

static void section_end(FILE *xml)
{
    fprintf(xml, "  </object>\n"
                 "  </child>\n");
}

static void group_start(FILE *xml, const char *title)
{
    fprintf(xml, "    <child>\n"
                 "      <object class=\"GtkShortcutsGroup\">\n");
    property(xml, 8, "title", title);
}

static void group_end(FILE *xml)
{
    fprintf(xml, "      </object>\n"
                 "    </child>\n");
}

/* True if an entry before 'index' has the group of 'index'. */
static bool group_seen(const scope_key_binding *bindings, size_t index)
{
    for (size_t b = 0; b < index; b++)
        if (strcmp(bindings[b].group, bindings[index].group) == 0)
            return true;
    return false;
}

char *scope_shortcuts_xml(void)
{
    char *text = NULL;
    size_t length = 0;
    FILE *xml = open_memstream(&text, &length);
    if (!xml)
        return NULL;
    fprintf(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<interface>\n"
                 /* A GIcon property names an object of the builder. */
                 "<object class=\"GThemedIcon\" id=\"mouse-icon\">\n"
                 "  <property name=\"name\">input-mouse-symbolic</property>\n"
                 "</object>\n"
                 "<object class=\"GtkShortcutsWindow\" id=\""
                 SCOPE_SHORTCUTS_WINDOW_ID "\">\n"
                 "  <property name=\"modal\">1</property>\n");
    /* Keys and mouse each get a section of one page: GTK 4.8 mixes up the
     * order of groups when a section needs several pages. */
    section_start(xml, "keys", "Keys", 20);
    size_t count;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    for (size_t first = 0; first < count; first++)
    {
        if (group_seen(bindings, first))
            continue;
        group_start(xml, bindings[first].group);
        for (size_t b = first; b < count; b++)
            if (strcmp(bindings[b].group, bindings[first].group) == 0 &&
                !(bindings[b].shown && !bindings[b].shown[0]))
                key_shortcut(xml, &bindings[b]);
        group_end(xml);
    }
    section_end(xml);

    const scope_mouse_gesture *gestures = scope_mouse_gestures(&count);
    section_start(xml, "mouse", SCOPE_MOUSE_GROUP, 12);
    group_start(xml, SCOPE_MOUSE_GROUP);
    for (size_t g = 0; g < count; g++)
    {
        fprintf(xml, "        <child>\n"
                     "          <object class=\"GtkShortcutsShortcut\">\n");
        property(xml, 12, "shortcut-type", "gesture");
        property(xml, 12, "icon", "mouse-icon");
        property(xml, 12, "title", gestures[g].title);
        property(xml, 12, "subtitle", gestures[g].how);
        fprintf(xml, "          </object>\n"
                     "        </child>\n");
    }
    group_end(xml);
    section_end(xml);
    fprintf(xml, "</object>\n"
                 "</interface>\n");
    bool failed = ferror(xml);
    if (fclose(xml) != 0 || failed)
    {
        free(text);
        return NULL;
    }
    return text;
}
