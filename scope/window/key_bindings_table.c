/* key_bindings_table.c - the scope window's keys and mouse gestures.
 *
 * Actions are registered by scope_app.c under these exact names. The
 * original keys (t a n m i c space q) keep their 1.x meaning.
 */
#include "window/key_bindings_table.h"

#include <stdio.h>
#include <string.h>

/* Action, group, title, then its keys. */
#define BIND(action_, group_, title_, ...)                              \
    { .action = action_, .group = group_, .title = title_,             \
      .keys = { __VA_ARGS__ } }
/* Channels 2 to 9: the shortcuts window shows channel 1's range. */
#define CHANNEL(n)                                                      \
    { .action = "app.toggle-channel(uint32 " #n ")", .group = "Channels", \
      .title = "Hide / show channel " #n, .keys = { "<Alt>" #n },       \
      .shown = "" }

static const scope_key_binding bindings[] = {
    BIND("app.pause", "Time", "Pause / resume", "p"),
    BIND("app.live", "Time", "Back to live, autoscale, default span", "Home"),
    BIND("app.zoom-in", "Time", "Zoom time in (about the pointer)",
         "plus", "equal", "KP_Add"),
    BIND("app.zoom-out", "Time", "Zoom time out", "minus", "KP_Subtract"),
    BIND("app.pan-left", "Time", "Pan back in time (pauses)", "Left"),
    BIND("app.pan-right", "Time", "Pan forward in time", "Right"),
    BIND("app.zoom-cursors", "Time", "Zoom time to cursors A to B", "z"),

    BIND("app.value-zoom-in", "Values", "Zoom values in",
         "<Control>plus", "<Control>equal", "<Control>KP_Add"),
    BIND("app.value-zoom-out", "Values", "Zoom values out",
         "<Control>minus", "<Control>KP_Subtract"),
    BIND("app.value-pan-up", "Values", "Move values up", "Up"),
    BIND("app.value-pan-down", "Values", "Move values down", "Down"),
    BIND("app.scale-mode", "Values",
         "Value scaling: shared axis, lanes, normalised", "l"),
    BIND("app.log-scale", "Values", "Log value scale", "g"),
    BIND("app.lock-range", "Values", "Lock the value range", "k"),

    BIND("app.cursor-a", "Cursors", "Place cursor A", "1"),
    BIND("app.cursor-b", "Cursors", "Place cursor B", "2"),
    BIND("app.cursors-clear", "Cursors", "Remove the cursors", "0"),

    BIND("app.toggle-normal", "Views", "Values view", "n"),
    BIND("app.toggle-average", "Views", "Running average view", "a"),
    BIND("app.toggle-minmax", "Views", "Min/max band view", "m"),
    BIND("app.toggle-timing", "Views",
         "Timing view (interval between samples)", "t"),

    { .action = "app.toggle-channel(uint32 1)", .group = "Channels",
      .title = "Hide / show channel 1", .keys = { "<Alt>1" },
      .shown = "<Alt>1...<Alt>9", .shown_title = "Hide / show channel 1 to 9" },
    CHANNEL(2), CHANNEL(3), CHANNEL(4), CHANNEL(5),
    CHANNEL(6), CHANNEL(7), CHANNEL(8), CHANNEL(9),

    BIND("app.trigger-level", "Trigger",
         "Trigger level at the pointer (on that graph's channel)", "v"),
    BIND("app.trigger-edge", "Trigger",
         "Trigger edge: rising, falling, either", "e"),
    BIND("app.trigger-mode", "Trigger",
         "Trigger mode: auto, normal, single", "o"),
    BIND("app.trigger-rearm", "Trigger", "Re-arm the trigger", "r"),

    BIND("app.save-image", "Files", "Save the graph as PNG", "i"),
    BIND("app.save-data", "Files", "Save its data as CSV", "c"),
    BIND("app.save-both", "Files", "Save both", "space"),

    BIND("app.pick-channels", "Window",
         "Choose channels and graphs, export channels, open a segment",
         "Insert"),
    BIND("app.target-next", "Window",
         "Commands and sliders to the next process, or to all", "<Control>p"),
    BIND("app.dismiss", "Window", "Dismiss the error / cancel a box zoom",
         "Escape"),
    BIND("app.shortcuts", "Window", "Keyboard shortcuts",
         "<Control>question", "F1"),
    BIND("app.quit", "Window", "Quit", "q", "<Control>q"),
};

static const scope_mouse_gesture gestures[] = {
    { "Zoom time around the pointer", "Wheel" },
    { "Zoom values around the pointer", "Shift+wheel or Ctrl+wheel" },
    { "Pan time and values", "Drag" },
    { "Zoom values", "Drag on the value axis" },
    { "Zoom to a box", "Shift+drag or right-button drag" },
    { "Back to live", "Double-click" },
    { "Crosshair and values at that time", "Hover" },
    { "Place cursor A / cursor B", "Right-click / Shift+right-click" },
    { "Hide / show a channel", "Click its legend entry" },
};

#define COUNT(array) (sizeof(array) / sizeof(*(array)))

const scope_key_binding *scope_key_bindings(size_t *count)
{
    *count = COUNT(bindings);
    return bindings;
}

const scope_mouse_gesture *scope_mouse_gestures(size_t *count)
{
    *count = COUNT(gestures);
    return gestures;
}

const scope_key_binding *scope_key_binding_find(const char *action)
{
    for (size_t b = 0; b < COUNT(bindings); b++)
        if (strcmp(bindings[b].action, action) == 0)
            return &bindings[b];
    return NULL;
}

/* Key names GTK spells otherwise than people do. */
static const struct { const char *name, *text; } key_names[] = {
    { "space", "Space" }, { "plus", "+" }, { "equal", "=" },
    { "minus", "-" }, { "question", "?" }, { "KP_Add", "Keypad +" },
    { "KP_Subtract", "Keypad -" }, { "Escape", "Esc" },
};

static const struct { const char *name, *text; } modifier_names[] = {
    { "<Control>", "Ctrl+" }, { "<Primary>", "Ctrl+" }, { "<Alt>", "Alt+" },
    { "<Shift>", "Shift+" }, { "<Super>", "Super+" },
};

size_t scope_key_text(const char *accelerator, char *buf, size_t size)
{
    char modifiers[64] = "";
    const char *key = accelerator;
    while (*key == '<')
    {
        const char *close = strchr(key, '>');
        if (!close)
            break;
        size_t length = (size_t) (close + 1 - key);
        const char *text = NULL;
        for (size_t m = 0; m < COUNT(modifier_names); m++)
            if (strlen(modifier_names[m].name) == length &&
                strncmp(key, modifier_names[m].name, length) == 0)
                text = modifier_names[m].text;
        if (!text)                      /* unknown: say it as GTK does */
            break;
        strncat(modifiers, text, sizeof(modifiers) - strlen(modifiers) - 1);
        key = close + 1;
    }
    for (size_t k = 0; k < COUNT(key_names); k++)
        if (strcmp(key, key_names[k].name) == 0)
            key = key_names[k].text;
    int length = snprintf(buf, size, "%s%s", modifiers, key);
    return length < 0 ? 0 : (size_t) length;
}

size_t scope_key_tooltip(const char *action, char *buf, size_t size)
{
    const scope_key_binding *binding = scope_key_binding_find(action);
    size_t used = 0;
    char scratch[1];
    if (!buf || !size)                  /* measure only */
        buf = scratch, size = 0;
#define ADD(...)                                                        \
    do {                                                                \
        int n = snprintf(used < size ? buf + used : NULL,              \
                         used < size ? size - used : 0, __VA_ARGS__);  \
        used += n > 0 ? (size_t) n : 0;                                 \
    } while (0)
    if (size)
        buf[0] = 0;
    if (!binding)
        return 0;
    ADD("%s", binding->title);
    for (unsigned k = 0; k < SCOPE_KEYS_MAX && binding->keys[k]; k++)
    {
        char key[64];
        scope_key_text(binding->keys[k], key, sizeof(key));
        ADD("%s%s", k ? ", " : " (", key);
        if (!binding->keys[k + 1] || k + 1 == SCOPE_KEYS_MAX)
            ADD(")");
    }
#undef ADD
    return used;
}
