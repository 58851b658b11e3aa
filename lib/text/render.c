/* render.c - turn a record's format and raw argument words into text.
 *
 * Records keep a printf-like format and up to RECORDER_MAX_ARGS 64-bit words;
 * nothing is formatted until a dump renders them here. Integers, characters,
 * strings and pointers are formatted by hand, byte for byte as glibc's printf
 * would, so that the same code can run in a signal handler. Floating point
 * is render_float.c's: through snprintf in ordinary dumps, through an exact
 * formatter of our own when signal_safe is set.
 *
 * Async-signal safety with signal_safe set: no malloc, no stdio, no locale,
 * no mutable static state, and about 1.5 KiB of stack at the deepest point
 * (the float formatter's digit buffer and big integers; a guarded string
 * copy, on another branch, takes 2 KiB).
 *
 * Output goes through a "sink" (render_field_private.h) that drops whatever
 * does not fit, so huge widths or precisions cost only the room left in the
 * buffer.
 */
#define _GNU_SOURCE                     /* process_vm_readv */
#include "text/render_private.h"
#include "text/render_field_private.h"
#include "text/render_float_private.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

/* printf widths and precisions are ints: larger values saturate. */
#define RENDER_WIDTH_MAX                INT_MAX
#define RENDER_PRECISION_MAX            INT_MAX

/* Longest conversion text handed to a custom conversion, NUL included. */
#define RENDER_SPEC_TEXT_MAX            64

static const char render_missing[] = "<missing>";


/* Digits at 'cursor', saturating at 'max' however many there are. */
static size_t parse_number(const char **cursor, size_t max)
{
    const char *p = *cursor;
    size_t value = 0;
    while (*p >= '0' && *p <= '9')
    {
        size_t digit = (size_t) (*p++ - '0');
        value = value > (max - digit) / 10 ? max : value * 10 + digit;
    }
    *cursor = p;
    return value;
}

/* Parse the conversion starting at format[0] == '%'; return what follows. */
static const char *parse_spec(const char *format, render_spec *spec)
{
    const char *p = format + 1;

    spec->text = format;
    spec->flags = 0;
    spec->width = 0;
    spec->precision = -1;
    spec->width_star = false;
    spec->precision_star = false;
    spec->length = RENDER_LENGTH_NONE;

    for (bool more = true; more; )
    {
        switch (*p)
        {
        case '-':       spec->flags |= RENDER_MINUS;    break;
        case '+':       spec->flags |= RENDER_PLUS;     break;
        case ' ':       spec->flags |= RENDER_SPACE;    break;
        case '#':       spec->flags |= RENDER_HASH;     break;
        case '0':       spec->flags |= RENDER_ZERO;     break;
        case '\'':      /* grouping: nothing to group in the C locale */
                        break;
        default:        more = false;                   continue;
        }
        p++;
    }

    if (*p == '*')
    {
        spec->width_star = true;
        p++;
    }
    else
    {
        spec->width = parse_number(&p, RENDER_WIDTH_MAX);
    }

    if (*p == '.')
    {
        p++;
        if (*p == '*')
        {
            spec->precision_star = true;
            p++;
        }
        else
        {
            spec->precision = (int) parse_number(&p, RENDER_PRECISION_MAX);
        }
    }

    switch (*p)
    {
    case 'h':
        p++;
        spec->length = RENDER_LENGTH_H;
        if (*p == 'h')
        {
            spec->length = RENDER_LENGTH_HH;
            p++;
        }
        break;
    case 'l':
        p++;
        spec->length = RENDER_LENGTH_L;
        if (*p == 'l')
        {
            spec->length = RENDER_LENGTH_LL;
            p++;
        }
        break;
    case 'L':
    case 'q':
        spec->length = RENDER_LENGTH_LL;
        p++;
        break;
    case 'j':
        spec->length = RENDER_LENGTH_J;
        p++;
        break;
    case 'z':
    case 'Z':
        spec->length = RENDER_LENGTH_Z;
        p++;
        break;
    case 't':
        spec->length = RENDER_LENGTH_T;
        p++;
        break;
    default:
        break;
    }

    spec->conversion = *p;
    if (*p)
        p++;
    spec->text_length = (size_t) (p - format);
    return p;
}

static bool is_builtin(char conversion)
{
    switch (conversion)
    {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
    case 'b': case 'B': case 'c': case 's': case 'p': case 'n':
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
    case 'a': case 'A':
        return true;
    default:
        return false;
    }
}

/* Size in bytes of the integer printf reads for 'length'. */
static unsigned length_bytes(render_length length)
{
    switch (length)
    {
    case RENDER_LENGTH_HH:      return sizeof(char);
    case RENDER_LENGTH_H:       return sizeof(short);
    case RENDER_LENGTH_L:       return sizeof(long);
    case RENDER_LENGTH_LL:      return sizeof(long long);
    case RENDER_LENGTH_J:       return sizeof(intmax_t);
    case RENDER_LENGTH_Z:       return sizeof(size_t);
    case RENDER_LENGTH_T:       return sizeof(ptrdiff_t);
    case RENDER_LENGTH_NONE:
    default:                    return sizeof(int);
    }
}

/* The word as printf would have read it: narrowed to 'bytes', then sign-
 * or zero-extended back to 64 bits. */
static uint64_t narrow_word(uint64_t word, unsigned bytes, bool is_signed)
{
    switch (bytes)
    {
    case 1:
        return is_signed ? (uint64_t) (int64_t) (int8_t) word
                         : (uint64_t) (uint8_t) word;
    case 2:
        return is_signed ? (uint64_t) (int64_t) (int16_t) word
                         : (uint64_t) (uint16_t) word;
    case 4:
        return is_signed ? (uint64_t) (int64_t) (int32_t) word
                         : (uint64_t) (uint32_t) word;
    default:
        return word;
    }
}


/* ------------------------------------------------------------------------ */
/*   Integers and pointers                                                  */
/* ------------------------------------------------------------------------ */

/* Digits of 'value' with the precision rules of printf, then the field. */
static void emit_unsigned(render_sink *sink, const render_spec *spec,
                          render_field *field, uint64_t value,
                          unsigned base, const char *digit_set)
{
    char digits[64];
    size_t count = 0;

    /* An explicit zero precision prints no digits for zero. */
    if (value != 0 || spec->precision != 0)
    {
        do
        {
            digits[sizeof(digits) - ++count] = digit_set[value % base];
            value /= base;
        } while (value);
    }
    field->body = digits + sizeof(digits) - count;
    field->body_length = count;

    if (spec->precision > 0 && (size_t) spec->precision > count)
        field->leading_zeros = (size_t) spec->precision - count;
    /* '#' with octal: the first digit printed must be a zero. */
    if (base == 8 && (spec->flags & RENDER_HASH) && !field->leading_zeros &&
        (count == 0 || field->body[0] != '0'))
        field->leading_zeros = 1;
    /* A precision turns the '0' flag off for integers. */
    field->zero_pad = (spec->flags & RENDER_ZERO) && spec->precision < 0;

    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, field);
}

static void render_integer(render_sink *sink, const render_spec *spec,
                           uint64_t word)
{
    render_field field = { 0 };
    const char *digit_set = render_lower_digits;
    unsigned base = 10;
    bool is_signed = false;

    switch (spec->conversion)
    {
    case 'd':
    case 'i':
        is_signed = true;
        break;
    case 'o':
        base = 8;
        break;
    case 'x':
        base = 16;
        field.prefix = "0x";
        break;
    case 'X':
        base = 16;
        field.prefix = "0X";
        digit_set = render_upper_digits;
        break;
    case 'b':
        base = 2;
        field.prefix = "0b";
        break;
    case 'B':
        base = 2;
        field.prefix = "0B";
        break;
    default:                    /* 'u' */
        break;
    }

    uint64_t value = narrow_word(word, length_bytes(spec->length), is_signed);
    if (is_signed)
    {
        if ((int64_t) value < 0)
        {
            field.sign = '-';
            value = 0 - value;  /* magnitude, fine for INT64_MIN too */
        }
        else if (spec->flags & RENDER_PLUS)
        {
            field.sign = '+';
        }
        else if (spec->flags & RENDER_SPACE)
        {
            field.sign = ' ';
        }
    }
    /* '#' adds 0x or 0b only to non-zero values. */
    if (field.prefix && (spec->flags & RENDER_HASH) && value != 0)
        field.prefix_length = 2;

    emit_unsigned(sink, spec, &field, value, base, digit_set);
}

/* glibc prints a non-null pointer as %#lx, keeping the '+' and ' ' flags,
 * and a null one as the string "(nil)". */
static void render_pointer(render_sink *sink, const render_spec *spec,
                           uint64_t word)
{
    uintptr_t pointer = (uintptr_t) word;
    if (!pointer)
    {
        emit_text(sink, spec, "(nil)", 5);
        return;
    }

    render_field field = { 0 };
    if (spec->flags & RENDER_PLUS)
        field.sign = '+';
    else if (spec->flags & RENDER_SPACE)
        field.sign = ' ';
    field.prefix = "0x";
    field.prefix_length = 2;
    emit_unsigned(sink, spec, &field, pointer, 16, render_lower_digits);
}


/* ------------------------------------------------------------------------ */
/*   Characters and strings                                                 */
/* ------------------------------------------------------------------------ */

/* UTF-8 for a wide character, '?' for what is no character at all. The C
 * library would consult the locale; a dump must not. */
static size_t encode_utf8(uint32_t code, char out[4])
{
    if (code < 0x80)
    {
        out[0] = (char) code;
        return 1;
    }
    if (code < 0x800)
    {
        out[0] = (char) (0xC0 | (code >> 6));
        out[1] = (char) (0x80 | (code & 0x3F));
        return 2;
    }
    if ((code >= 0xD800 && code < 0xE000) || code > 0x10FFFF)
    {
        out[0] = '?';
        return 1;
    }
    if (code < 0x10000)
    {
        out[0] = (char) (0xE0 | (code >> 12));
        out[1] = (char) (0x80 | ((code >> 6) & 0x3F));
        out[2] = (char) (0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char) (0xF0 | (code >> 18));
    out[1] = (char) (0x80 | ((code >> 12) & 0x3F));
    out[2] = (char) (0x80 | ((code >> 6) & 0x3F));
    out[3] = (char) (0x80 | (code & 0x3F));
    return 4;
}

static void render_char(render_sink *sink, const render_spec *spec,
                        uint64_t word)
{
    char bytes[4];
    size_t length = 1;
    if (spec->length == RENDER_LENGTH_L)
        length = encode_utf8((uint32_t) (wint_t) word, bytes);
    else
        bytes[0] = (char) (unsigned char) word;
    emit_text(sink, spec, bytes, length);
}

/* Strings stream into the sink, so a long one costs only what fits; only
 * right-justification needs to look ahead, and no further than the width. */
static void render_narrow_string(render_sink *sink, const render_spec *spec,
                                 const char *text)
{
    size_t limit = spec->precision >= 0 ? (size_t) spec->precision : SIZE_MAX;
    size_t width = spec->width;
    bool left = spec->flags & RENDER_MINUS;

    if (!text)
        text = limit >= 6 ? "(null)" : "";

    if (!left && width)
    {
        size_t scan = limit < width ? limit : width;
        size_t length = 0;
        while (length < scan && text[length])
            length++;
        if (length < width)
            sink_fill(sink, ' ', width - length);
    }

    size_t length = 0;
    while (length < limit && text[length] && sink_room(sink))
    {
        /* Copy up to the next chunk boundary in one go. */
        size_t chunk = 0;
        while (chunk < 64 && length + chunk < limit && text[length + chunk])
            chunk++;
        sink_put(sink, text + length, chunk);
        length += chunk;
    }

    if (left && length < width)
        sink_fill(sink, ' ', width - length);
}

/* %ls: the precision counts bytes and never splits a character. */
static void render_wide_string(render_sink *sink, const render_spec *spec,
                               const wchar_t *text)
{
    size_t limit = spec->precision >= 0 ? (size_t) spec->precision : SIZE_MAX;
    size_t width = spec->width;
    bool left = spec->flags & RENDER_MINUS;
    char bytes[4];

    if (!text)
    {
        render_narrow_string(sink, spec, NULL);
        return;
    }

    if (!left && width)
    {
        size_t length = 0;
        for (const wchar_t *w = text; *w && length < width; w++)
        {
            size_t n = encode_utf8((uint32_t) *w, bytes);
            if (n > limit - length)
                break;
            length += n;
        }
        if (length < width)
            sink_fill(sink, ' ', width - length);
    }

    size_t length = 0;
    for (const wchar_t *w = text; *w && sink_room(sink); w++)
    {
        size_t n = encode_utf8((uint32_t) *w, bytes);
        if (n > limit - length)
            break;
        sink_put(sink, bytes, n);
        length += n;
    }

    if (left && length < width)
        sink_fill(sink, ' ', width - length);
}

/* Copy size bytes at 'address' of our own memory, as far as it is readable,
 * through the kernel: a bad address is an error (EFAULT), not a fault.
 * Transfers stop at the first remote piece that fails and never split one,
 * so pieces end at 4 KiB boundaries (every page size is a multiple): the
 * readable start of a string that ends a mapping still comes through.
 * Returns the bytes copied, or -1 with errno set. Async-signal-safe. */
#define GUARD_PIECE     4096u
static ssize_t guarded_copy(uintptr_t address, void *out, size_t size)
{
    struct iovec remote[RECORDER_GUARDED_STRING_MAX / GUARD_PIECE + 2];
    unsigned pieces = 0;
    size_t left = size;
    uintptr_t at = address;
    while (left && pieces < sizeof(remote) / sizeof(*remote))
    {
        size_t in_page = GUARD_PIECE - at % GUARD_PIECE;
        size_t piece = left < in_page ? left : in_page;
        remote[pieces++] = (struct iovec) { (void *) at, piece };
        at += piece;
        left -= piece;
    }
    struct iovec local = { out, size - left };
    return process_vm_readv(getpid(), &local, 1, remote, pieces, 0);
}

/* A string whose address may be forged: render a copy, or say it is bad. */
__attribute__((noinline))
static void render_guarded_string(render_sink *sink, const render_spec *spec,
                                  uint64_t word,
                                  const recorder_render_options *options)
{
    bool wide = spec->length == RENDER_LENGTH_L;
    union
    {
        char    narrow[RECORDER_GUARDED_STRING_MAX];
        wchar_t wide[RECORDER_GUARDED_STRING_MAX / sizeof(wchar_t)];
    } copy;
    size_t unit = wide ? sizeof(wchar_t) : 1;
    ssize_t got = guarded_copy((uintptr_t) word, &copy,
                               sizeof(copy) - unit);
    if (got < 0 && errno != EFAULT && options->unguarded_fallback)
    {
        /* The kernel will not copy for us (seccomp): direct read. */
        if (wide)
            render_wide_string(sink, spec, (const wchar_t *) (uintptr_t) word);
        else
            render_narrow_string(sink, spec, (const char *) (uintptr_t) word);
        return;
    }
    if (got < (ssize_t) unit)
    {
        /* A bad address says so; a refused copy shows the pointer, as a
         * plain %s does. */
        bool bad = got >= 0 || errno == EFAULT;
        render_spec pointer_spec = *spec;
        pointer_spec.flags &= RENDER_MINUS;
        pointer_spec.precision = -1;
        pointer_spec.width = 0;
        if (bad)
            sink_put(sink, "<unreadable ", 12);
        render_pointer(sink, &pointer_spec, word);
        if (bad)
            sink_put(sink, ">", 1);
        return;
    }
    /* Whatever was readable, ended where the copy ended. */
    if (wide)
    {
        copy.wide[(size_t) got / sizeof(wchar_t)] = 0;
        render_wide_string(sink, spec, copy.wide);
    }
    else
    {
        copy.narrow[got] = 0;
        render_narrow_string(sink, spec, copy.narrow);
    }
}

/* A string recorded earlier may be gone by now: unless the caller says it
 * is alive, or the format asks for it with %+s, print where it was. */
static void render_string(render_sink *sink, const render_spec *spec,
                          uint64_t word,
                          const recorder_render_options *options)
{
    if (!(spec->flags & RENDER_PLUS) && !options->strings_valid)
    {
        render_spec pointer_spec = *spec;
        pointer_spec.flags &= RENDER_MINUS;
        pointer_spec.precision = -1;
        render_pointer(sink, &pointer_spec, word);
        return;
    }

    if (options->fetch)
    {
        /* The address belongs to another process: ask for a copy. */
        char copy[256];
        if (spec->length == RENDER_LENGTH_L)
        {
            render_spec pointer_spec = *spec;
            pointer_spec.flags &= RENDER_MINUS;
            pointer_spec.precision = -1;
            render_pointer(sink, &pointer_spec, word);
            return;
        }
        render_narrow_string(sink, spec,
                             options->fetch(word, copy, sizeof(copy),
                                            options->fetch_arg));
        return;
    }
    if (options->strings_guarded && word)
    {
        render_guarded_string(sink, spec, word, options);
        return;
    }
    if (spec->length == RENDER_LENGTH_L)
        render_wide_string(sink, spec, (const wchar_t *) (uintptr_t) word);
    else
        render_narrow_string(sink, spec, (const char *) (uintptr_t) word);
}


/* ------------------------------------------------------------------------ */
/*   Custom conversions                                                     */
/* ------------------------------------------------------------------------ */

static void render_custom(render_sink *sink, const render_spec *spec,
                          recorder_type_fn type, uint64_t word,
                          intptr_t trace)
{
    char text[RENDER_SPEC_TEXT_MAX];
    size_t length = spec->text_length;
    if (length >= sizeof(text))
    {
        /* Keep the start and the conversion character. */
        length = sizeof(text) - 1;
        memcpy(text, spec->text, length - 1);
        text[length - 1] = spec->conversion;
    }
    else
    {
        memcpy(text, spec->text, length);
    }
    text[length] = 0;

    /* The room given includes the byte kept for our NUL: a function that
     * ends its output with a NUL, as snprintf does, loses nothing. */
    size_t room = sink->size - sink->length;
    size_t written = type(trace | ((spec->flags & RENDER_PLUS) ? 1 : 0),
                          text, sink->buffer + sink->length, room,
                          (uintptr_t) word);
    if (written > room - 1)
        written = room - 1;
    sink->length += written;
}


/* ------------------------------------------------------------------------ */
/*   Rendering                                                              */
/* ------------------------------------------------------------------------ */

/* Render one conversion; return the index of the next unused argument. */
static unsigned render_conversion(render_sink *sink, const render_spec *spec,
                                  const uint64_t *args, unsigned nargs,
                                  unsigned next,
                                  const recorder_render_options *options)
{
    char conversion = spec->conversion;
    recorder_type_fn type = NULL;

    if (conversion == '%')
    {
        sink_put(sink, "%", 1); /* glibc ignores flags and width here */
        return next;
    }
    if (conversion && options->types)
        type = __atomic_load_n(&options->types[(unsigned char) conversion],
                               __ATOMIC_ACQUIRE);
    if (!type && !is_builtin(conversion))
    {
        /* Unknown, or cut short by the end of the format: as written. */
        sink_put(sink, spec->text, spec->text_length);
        return next;
    }

    unsigned needed = 1u + spec->width_star + spec->precision_star;
    if (nargs - next < needed)
    {
        if (conversion != 'n' || type)
            sink_put(sink, render_missing, sizeof(render_missing) - 1);
        return nargs;
    }

    render_spec resolved = *spec;
    if (spec->width_star)
    {
        int width = (int) args[next++];
        if (width < 0)
        {
            resolved.flags |= RENDER_MINUS;
            resolved.width = (size_t) -(int64_t) width;
        }
        else
        {
            resolved.width = (size_t) width;
        }
    }
    if (spec->precision_star)
    {
        int precision = (int) args[next++];
        resolved.precision = precision < 0 ? -1 : precision;
    }
    uint64_t word = args[next++];

    if (type)
    {
        render_custom(sink, &resolved, type, word, options->trace);
        return next;
    }

    switch (conversion)
    {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
    case 'b': case 'B':
        render_integer(sink, &resolved, word);
        break;
    case 'c':
        render_char(sink, &resolved, word);
        break;
    case 's':
        render_string(sink, &resolved, word, options);
        break;
    case 'p':
        render_pointer(sink, &resolved, word);
        break;
    case 'n':
        /* The argument is consumed and nothing is written anywhere. */
        break;
    default:                    /* f F e E g G a A */
        if (options->signal_safe)
            render_float_safe(sink, &resolved, word);
        else
            render_float_libc(sink, &resolved, word);
        break;
    }
    return next;
}

size_t recorder_render(char *out, size_t size, const char *format,
                       const uint64_t *args, unsigned nargs,
                       const recorder_render_options *opts)
{
    static const recorder_render_options defaults = { 0 };
    render_sink sink = { out, size, 0 };
    unsigned next = 0;

    if (!out || !size)
        return 0;
    if (!opts)
        opts = &defaults;
    if (!args)
        nargs = 0;
    if (!format)
        format = "";

    const char *p = format;
    while (*p && sink_room(&sink))
    {
        if (*p != '%')
        {
            const char *start = p;
            while (*p && *p != '%')
                p++;
            sink_put(&sink, start, (size_t) (p - start));
            continue;
        }
        render_spec spec;
        p = parse_spec(p, &spec);
        next = render_conversion(&sink, &spec, args, nargs, next, opts);
    }

    out[sink.length] = 0;
    return sink.length;
}
