/* render_field_private.h - what the renderer's files share.
 *
 * recorder_render() (render.c) parses each conversion into a render_spec
 * and hands it to a formatter, in render.c or render_float.c, which lays
 * its text out as a render_field into the output sink. The sink drops
 * whatever does not fit, so huge widths or precisions cost only the room
 * left in the buffer. Nothing here allocates or touches the locale: it all
 * runs in signal handlers too.
 */
#ifndef RECORDER_RENDER_FIELD_PRIVATE_H
#define RECORDER_RENDER_FIELD_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char render_lower_digits[] = "0123456789abcdef";
static const char render_upper_digits[] = "0123456789ABCDEF";


/* ------------------------------------------------------------------------ */
/*   Output sink: keeps the last byte for the NUL and drops the rest        */
/* ------------------------------------------------------------------------ */

typedef struct render_sink
{
    char *      buffer;
    size_t      size;           /* > 0: buffer[size - 1] is kept for NUL */
    size_t      length;         /* bytes written so far, < size */
} render_sink;

static inline size_t sink_room(const render_sink *sink)
{
    return sink->size - 1 - sink->length;
}

static inline void sink_put(render_sink *sink, const char *text, size_t length)
{
    size_t room = sink_room(sink);
    if (length > room)
        length = room;
    if (length)
        memcpy(sink->buffer + sink->length, text, length);
    sink->length += length;
}

static inline void sink_fill(render_sink *sink, char c, size_t count)
{
    size_t room = sink_room(sink);
    if (count > room)
        count = room;
    if (count)
        memset(sink->buffer + sink->length, c, count);
    sink->length += count;
}

static inline size_t saturating_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}


/* ------------------------------------------------------------------------ */
/*   Conversion specifications                                              */
/* ------------------------------------------------------------------------ */

enum
{
    RENDER_MINUS        = 1 << 0,
    RENDER_PLUS         = 1 << 1,
    RENDER_SPACE        = 1 << 2,
    RENDER_HASH         = 1 << 3,
    RENDER_ZERO         = 1 << 4
};

typedef enum render_length
{
    RENDER_LENGTH_NONE,
    RENDER_LENGTH_HH,
    RENDER_LENGTH_H,
    RENDER_LENGTH_L,
    RENDER_LENGTH_LL,           /* also L and q */
    RENDER_LENGTH_J,
    RENDER_LENGTH_Z,
    RENDER_LENGTH_T
} render_length;

typedef struct render_spec
{
    const char *    text;           /* the '%' starting the conversion */
    size_t          text_length;    /* through the conversion character */
    unsigned        flags;
    size_t          width;          /* 0: none */
    int             precision;      /* -1: none */
    bool            width_star;
    bool            precision_star;
    render_length   length;
    char            conversion;     /* '\0' if the format ended first */
} render_spec;


/* ------------------------------------------------------------------------ */
/*   Fields: sign, prefix, zeros, body, zeros, suffix, padded to a width    */
/* ------------------------------------------------------------------------ */

typedef struct render_field
{
    char            sign;           /* 0, '-', '+' or ' ' */
    const char *    prefix;         /* "0x" and the like */
    size_t          prefix_length;
    size_t          leading_zeros;  /* integer precision */
    const char *    body;
    size_t          body_length;
    size_t          trailing_zeros; /* float digits known to be zero */
    const char *    suffix;         /* float exponent */
    size_t          suffix_length;
    bool            zero_pad;       /* pad with '0' after the prefix */
} render_field;

static inline void emit_field(render_sink *sink, size_t width, bool left,
                       const render_field *field)
{
    size_t length = (field->sign != 0) + field->prefix_length;
    length = saturating_add(length, field->leading_zeros);
    length = saturating_add(length, field->body_length);
    length = saturating_add(length, field->trailing_zeros);
    length = saturating_add(length, field->suffix_length);
    size_t pad = width > length ? width - length : 0;

    if (!left && !field->zero_pad)
        sink_fill(sink, ' ', pad);
    if (field->sign)
        sink_put(sink, &field->sign, 1);
    sink_put(sink, field->prefix, field->prefix_length);
    if (!left && field->zero_pad)
        sink_fill(sink, '0', pad);
    sink_fill(sink, '0', field->leading_zeros);
    sink_put(sink, field->body, field->body_length);
    sink_fill(sink, '0', field->trailing_zeros);
    sink_put(sink, field->suffix, field->suffix_length);
    if (left)
        sink_fill(sink, ' ', pad);
}

static inline void emit_text(render_sink *sink, const render_spec *spec,
                      const char *text, size_t length)
{
    render_field field = { 0 };
    field.body = text;
    field.body_length = length;
    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
}

#endif /* RECORDER_RENDER_FIELD_PRIVATE_H */
