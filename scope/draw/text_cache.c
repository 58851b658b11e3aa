/* text_cache.c - labels shaped once and drawn many times. */
#include "draw/text_cache.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Strings longer than this are shaped each time: labels are short. */
#define TEXT_MAX        127
/* Slots, a power of two; emptied whole when half full (a window's labels
 * fill a few hundred, new legend values a few a second). */
#define SLOTS           2048

typedef struct shaped
{
    cairo_scaled_font_t *font;          /* referenced: its address stays
                                           its own while kept */
    uint32_t       hash;
    cairo_glyph_t *glyphs;              /* positions from (0, 0) */
    int            count;
    double         advance;
    char           text[TEXT_MAX + 1];
} shaped;

static shaped slots[SLOTS];
/* Each slot's hash with its low bit set, 0 if empty: probed instead of
 * the slots, a cache line for 16 of them, where a slot is three. */
static uint32_t tags[SLOTS];
static unsigned used;
static unsigned long shaped_count;

/* The glyph and advance of each ASCII character, per font, for strings
 * not kept yet: legend values are new numbers a few times a second, and
 * cairo turns a string into glyphs a character at a time, each placed at
 * the sum of the advances before it, so a string is put together here
 * from its characters with the same glyphs and positions. FONTS fonts,
 * the oldest given up first. */
#define FONTS           8

typedef struct font_chars
{
    cairo_scaled_font_t *font;          /* referenced, as in 'slots' */
    unsigned long        index[128];
    double               advance[128];
    bool                 known[128];
} font_chars;

static font_chars fonts[FONTS];
static unsigned next_font;

static uint32_t hash_of(const cairo_scaled_font_t *font, const char *text,
                        size_t length)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t) (uintptr_t) font;
    for (size_t i = 0; i < length; i++)
        h = (h ^ (unsigned char) text[i]) * 1099511628211ull;
    return (uint32_t) (h ^ h >> 32);
}

static void empty_all(void)
{
    for (unsigned i = 0; i < SLOTS; i++)
        if (slots[i].font)
        {
            cairo_glyph_free(slots[i].glyphs);
            cairo_scaled_font_destroy(slots[i].font);
            slots[i].font = NULL;
            tags[i] = 0;
        }
    used = 0;
}

static font_chars *chars_of(cairo_scaled_font_t *font)
{
    for (unsigned f = 0; f < FONTS; f++)
        if (fonts[f].font == font)
            return &fonts[f];
    font_chars *c = &fonts[next_font];
    next_font = (next_font + 1) % FONTS;
    if (c->font)
        cairo_scaled_font_destroy(c->font);
    memset(c, 0, sizeof(*c));
    c->font = cairo_scaled_font_reference(font);
    return c;
}

/* Character 'ch' (ASCII) in 'c': false if cairo cannot give it as one
 * glyph. */
static bool know_char(font_chars *c, unsigned char ch)
{
    if (c->known[ch])
        return true;
    char text[2] = { (char) ch, 0 };
    cairo_glyph_t *glyph = NULL;
    int count = 0;
    if (cairo_scaled_font_text_to_glyphs(c->font, 0, 0, text, 1, &glyph,
                                         &count, NULL, NULL, NULL) !=
            CAIRO_STATUS_SUCCESS || count != 1)
    {
        cairo_glyph_free(glyph);
        return false;
    }
    cairo_text_extents_t extents;
    cairo_scaled_font_glyph_extents(c->font, glyph, 1, &extents);
    c->index[ch] = glyph->index;
    c->advance[ch] = extents.x_advance;
    c->known[ch] = true;
    cairo_glyph_free(glyph);
    return true;
}

/* The glyphs of ASCII 'text' into 's' from its characters' (see
 * font_chars); false if not all ASCII or a character has no one glyph. */
static bool glyphs_from_chars(cairo_scaled_font_t *font, const char *text,
                              size_t length, shaped *s)
{
    if (!length)
        return false;
    for (size_t i = 0; i < length; i++)
        if ((unsigned char) text[i] >= 128)
            return false;
    font_chars *c = chars_of(font);
    for (size_t i = 0; i < length; i++)
        if (!know_char(c, (unsigned char) text[i]))
            return false;
    s->glyphs = cairo_glyph_allocate((int) length);
    if (!s->glyphs)
        return false;
    double x = 0;
    for (size_t i = 0; i < length; i++)
    {
        unsigned char ch = (unsigned char) text[i];
        s->glyphs[i] = (cairo_glyph_t) { c->index[ch], x, 0 };
        x += c->advance[ch];
    }
    s->count = (int) length;
    s->advance = x;
    return true;
}

/* The kept shape of 'text' in the font of 'cr'; NULL if it cannot be
 * kept (too long, out of memory, a font in error). */
static const shaped *shape(cairo_t *cr, const char *text)
{
    size_t length = strlen(text);
    cairo_scaled_font_t *font = cairo_get_scaled_font(cr);
    if (length > TEXT_MAX || cairo_scaled_font_status(font))
        return NULL;
    uint32_t hash = hash_of(font, text, length), tag = hash | 1;
    unsigned i = hash & (SLOTS - 1);
    for (; tags[i]; i = (i + 1) & (SLOTS - 1))
        if (tags[i] == tag && slots[i].font == font &&
            slots[i].hash == hash && strcmp(slots[i].text, text) == 0)
            return &slots[i];

    if (used >= SLOTS / 2)
    {
        empty_all();
        i = hash & (SLOTS - 1);
    }
    shaped *s = &slots[i];
    s->glyphs = NULL;
    s->count = 0;
    if (!glyphs_from_chars(font, text, length, s))
    {
        if (cairo_scaled_font_text_to_glyphs(font, 0, 0, text, (int) length,
                                             &s->glyphs, &s->count, NULL,
                                             NULL, NULL) !=
                CAIRO_STATUS_SUCCESS)
            return NULL;
        cairo_text_extents_t extents;
        cairo_scaled_font_glyph_extents(font, s->glyphs, s->count, &extents);
        s->advance = extents.x_advance;
    }
    s->hash = hash;
    memcpy(s->text, text, length + 1);
    s->font = cairo_scaled_font_reference(font);
    tags[i] = tag;
    used++;
    shaped_count++;
    return s;
}

double scope_text_advance(cairo_t *cr, const char *text)
{
    const shaped *s = shape(cr, text);
    if (s)
        return s->advance;
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    return extents.x_advance;
}

void scope_text_show(cairo_t *cr, const char *text)
{
    const shaped *s = shape(cr, text);
    double x, y;
    if (!s || !cairo_has_current_point(cr) || s->count > TEXT_MAX * 4)
    {
        cairo_show_text(cr, text);
        return;
    }
    cairo_get_current_point(cr, &x, &y);
    cairo_glyph_t placed[TEXT_MAX * 4];
    for (int g = 0; g < s->count; g++)
        placed[g] = (cairo_glyph_t) { s->glyphs[g].index,
                                      x + s->glyphs[g].x,
                                      y + s->glyphs[g].y };
    cairo_show_glyphs(cr, placed, s->count);
    cairo_move_to(cr, x + s->advance, y);
}

unsigned long scope_text_shaped(void)
{
    return shaped_count;
}
