/* key_bindings_table.h - every key and mouse gesture of the scope window,
 * in one table.
 *
 * The accelerators (key_bindings.c), the tooltips of the header bar and
 * the shortcuts window (window_chrome.c) are all made from these tables,
 * so what the window says a key does is what the key does. Plain C: unit
 * tests read the tables without GTK.
 */
#ifndef SCOPE_KEY_BINDINGS_TABLE_H
#define SCOPE_KEY_BINDINGS_TABLE_H

#include <stddef.h>

#define SCOPE_KEYS_MAX  4               /* accelerators per action */

typedef struct scope_key_binding
{
    /* Detailed action name as gtk_application_set_accels_for_action()
     * takes it: "app.pause", "app.toggle-channel(uint32 3)". */
    const char *action;
    /* GTK accelerator strings ("p", "<Control>plus"), NULL-terminated. */
    const char *keys[SCOPE_KEYS_MAX + 1];
    const char *title;                  /* what it does, for people */
    const char *group;                  /* shortcuts window group */
    /* What the shortcuts window shows instead of 'keys' (a range such as
     * "<Alt>1...<Alt>9"), NULL for 'keys'; "" leaves the entry out (an
     * entry before it shows a range that covers it). */
    const char *shown;
    const char *shown_title;            /* its title there; NULL: 'title' */
} scope_key_binding;

typedef struct scope_mouse_gesture
{
    const char *title;                  /* what it does */
    const char *how;                    /* "Wheel", "Shift+drag"... */
} scope_mouse_gesture;

/* Group of the gestures in the shortcuts window. */
#define SCOPE_MOUSE_GROUP       "Mouse"

/* The tables, in the order the shortcuts window lists them. */
const scope_key_binding *scope_key_bindings(size_t *count);
const scope_mouse_gesture *scope_mouse_gestures(size_t *count);

/* The entry of detailed action name 'action', NULL if there is none. */
const scope_key_binding *scope_key_binding_find(const char *action);

/* Accelerator 'accelerator' as people write it: "p", "Ctrl+q", "Space",
 * "Keypad +", "Alt+1". Returns the length it needs (as snprintf). */
size_t scope_key_text(const char *accelerator, char *buf, size_t size);

/* Tooltip of the control for 'action': its title and its keys, as
 * "Pause / resume (p)"; just the title if no key is bound, "" if the
 * action is not in the table. Returns the length it needs. */
size_t scope_key_tooltip(const char *action, char *buf, size_t size);

#endif /* SCOPE_KEY_BINDINGS_TABLE_H */
