/* render.c - turn a record's format and raw argument words into text.
 *
 * Records keep a printf-like format and up to RECORDER_MAX_ARGS 64-bit words;
 * nothing is formatted until a dump renders them here. Integers, characters,
 * strings and pointers are formatted by hand, byte for byte as glibc's printf
 * would, so that the same code can run in a signal handler. Floating point
 * goes through snprintf in ordinary dumps, and through an exact formatter of
 * our own (big-integer digit generation, no allocation) when signal_safe is
 * set.
 *
 * Async-signal safety with signal_safe set: no malloc, no stdio, no locale,
 * no mutable static state, and about 1.5 KiB of stack at the deepest point
 * (the float formatter's digit buffer and big integers; a guarded string
 * copy, on another branch, takes 2 KiB). The safe float
 * formatter matches glibc for precisions up to 40 but for two cases: "%#g"
 * when rounding bumps the exponent up to the precision (glibc 2.36 prints
 * "1.e+03" for "%#.3g" of 999.9995, C11 and we "1.00e+03"), and "%La", laid
 * out as a double ("0x1.8p+0") rather than as an x87 long double.
 *
 * Output goes through a "sink" that drops whatever does not fit, so huge
 * widths or precisions cost only the room left in the buffer.
 */
#define _GNU_SOURCE                     /* process_vm_readv */
#include "text/render_private.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

/* printf widths and precisions are ints: larger values saturate. */
#define RENDER_WIDTH_MAX                INT_MAX
#define RENDER_PRECISION_MAX            INT_MAX

/* Longest conversion text handed to a custom conversion, NUL included. */
#define RENDER_SPEC_TEXT_MAX            64

/* Safe-mode floats: digits past this precision are not computed. */
#define RENDER_SAFE_PRECISION_MAX       40

/* Integer digits of DBL_MAX (309), a point, the precision, a rounding digit
 * and a little slack. */
#define RENDER_DIGITS_MAX               400

/* 32-bit limbs for the exact value of a double: 2^1024 needs 33, and a
 * 1074-bit fraction times ten needs 35. */
#define RENDER_LIMBS                    36

/* Ordinary floats go straight to snprintf up to these widths and
 * precisions. Past them the number is rendered at RENDER_LIBC_PRECISION_MAX
 * (more than the 1074 fraction digits of the smallest double, so the digits
 * beyond are all zeros) and padded by hand. */
#define RENDER_LIBC_WIDTH_MAX           4096
#define RENDER_LIBC_PRECISION_MAX       1100
#define RENDER_LIBC_TEXT_MAX            1536

static const char render_missing[] = "<missing>";
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

static void sink_put(render_sink *sink, const char *text, size_t length)
{
    size_t room = sink_room(sink);
    if (length > room)
        length = room;
    if (length)
        memcpy(sink->buffer + sink->length, text, length);
    sink->length += length;
}

static void sink_fill(render_sink *sink, char c, size_t count)
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

static void emit_field(render_sink *sink, size_t width, bool left,
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

static void emit_text(render_sink *sink, const render_spec *spec,
                      const char *text, size_t length)
{
    render_field field = { 0 };
    field.body = text;
    field.body_length = length;
    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
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
/*   Exact decimal digits of a double, without allocation                   */
/* ------------------------------------------------------------------------ */

typedef struct render_bignum
{
    uint32_t    limb[RENDER_LIMBS];     /* least significant first */
    size_t      count;                  /* limbs in use, top one non-zero */
} render_bignum;

static void bignum_trim(render_bignum *n)
{
    while (n->count && !n->limb[n->count - 1])
        n->count--;
}

/* n = value << shift */
static void bignum_set(render_bignum *n, uint64_t value, unsigned shift)
{
    size_t index = shift / 32;
    unsigned bits = shift % 32;
    for (size_t i = 0; i < index; i++)
        n->limb[i] = 0;
    uint64_t low = value << bits;
    uint64_t high = bits ? value >> (64 - bits) : 0;
    n->limb[index] = (uint32_t) low;
    n->limb[index + 1] = (uint32_t) (low >> 32);
    n->limb[index + 2] = (uint32_t) high;
    n->count = index + 3;
    bignum_trim(n);
}

/* n /= 10^9; return the remainder. */
static uint32_t bignum_divide_billion(render_bignum *n)
{
    uint64_t remainder = 0;
    for (size_t i = n->count; i-- > 0; )
    {
        uint64_t current = (remainder << 32) | n->limb[i];
        n->limb[i] = (uint32_t) (current / 1000000000u);
        remainder = current % 1000000000u;
    }
    bignum_trim(n);
    return (uint32_t) remainder;
}

/* Decimal digits of n, most significant first, none for zero. Destroys n. */
static size_t bignum_to_decimal(render_bignum *n, char *out)
{
    size_t count = 0;
    while (n->count)
    {
        uint32_t chunk = bignum_divide_billion(n);
        /* Inner chunks have 9 digits; the top one has no leading zeros. */
        for (unsigned i = 0; i < 9 && (n->count || chunk); i++)
        {
            out[count++] = (char) ('0' + chunk % 10);
            chunk /= 10;
        }
    }
    for (size_t i = 0; i < count / 2; i++)
    {
        char c = out[i];
        out[i] = out[count - 1 - i];
        out[count - 1 - i] = c;
    }
    return count;
}

/* n is a fraction of 'bits' bits (n < 2^bits): multiply it by ten, return
 * the digit that rises above the point and keep the rest. */
static unsigned bignum_next_digit(render_bignum *n, unsigned bits)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < n->count; i++)
    {
        uint64_t current = (uint64_t) n->limb[i] * 10 + carry;
        n->limb[i] = (uint32_t) current;
        carry = current >> 32;
    }
    if (carry)
        n->limb[n->count++] = (uint32_t) carry;

    /* n < 10 * 2^bits: the digit lies in limbs 'top' and 'top + 1'. */
    size_t top = bits / 32;
    unsigned shift = bits % 32;
    uint64_t high = 0;
    if (top < n->count)
        high = n->limb[top];
    if (top + 1 < n->count)
        high |= (uint64_t) n->limb[top + 1] << 32;
    unsigned digit = (unsigned) (high >> shift);

    if (top < n->count)
    {
        n->limb[top] &= shift ? ((uint32_t) 1 << shift) - 1 : 0;
        n->count = top + 1;
        bignum_trim(n);
    }
    return digit;
}

/* Decimal digits of mantissa * 2^exponent, rounded to nearest with ties to
 * even (glibc in the default rounding mode).
 *   fixed:   every integer digit (at least "0") and 'precision' fraction
 *            digits; *point is the number of integer digits.
 *   !fixed:  'precision' + 1 significant digits; *point is the decimal
 *            exponent of the first one. The mantissa must not be zero.
 * *exact tells whether the digits dropped were all zeros, so that more
 * precision would only add zeros. 'digits' holds RENDER_DIGITS_MAX bytes;
 * 'precision' is at most RENDER_SAFE_PRECISION_MAX. */
static size_t decimal_digits(uint64_t mantissa, int exponent, bool fixed,
                             unsigned precision, char *digits, int *point,
                             bool *exact)
{
    render_bignum integer;
    render_bignum fraction;
    unsigned bits = 0;              /* binary digits of the fraction */

    fraction.count = 0;
    if (exponent >= 0)
    {
        bignum_set(&integer, mantissa, (unsigned) exponent);
    }
    else
    {
        bits = (unsigned) -exponent;
        if (bits < 64)
        {
            bignum_set(&integer, mantissa >> bits, 0);
            bignum_set(&fraction, mantissa & (((uint64_t) 1 << bits) - 1), 0);
        }
        else
        {
            bignum_set(&integer, 0, 0);
            bignum_set(&fraction, mantissa, 0);
        }
    }

    size_t count = bignum_to_decimal(&integer, digits);
    size_t want;
    if (fixed)
    {
        if (!count)
            digits[count++] = '0';
        *point = (int) count;
        want = count + precision;
    }
    else
    {
        if (count)
        {
            *point = (int) count - 1;
        }
        else
        {
            /* Below one: skip the zeros after the point. */
            int zeros = 0;
            unsigned digit;
            while ((digit = bignum_next_digit(&fraction, bits)) == 0)
                zeros++;
            digits[count++] = (char) ('0' + digit);
            *point = -zeros - 1;
        }
        want = precision + 1;
    }

    /* One digit more than kept, to round with. */
    while (count <= want)
    {
        unsigned digit = fraction.count ? bignum_next_digit(&fraction, bits)
                                        : 0;
        digits[count++] = (char) ('0' + digit);
    }

    char next = digits[want];
    bool sticky = fraction.count != 0;
    for (size_t i = want + 1; i < count && !sticky; i++)
        sticky = digits[i] != '0';
    *exact = next == '0' && !sticky;

    bool odd = (digits[want - 1] - '0') & 1;
    bool up = next > '5' || (next == '5' && (sticky || odd));
    count = want;
    if (up)
    {
        size_t i = want;
        while (i > 0 && digits[i - 1] == '9')
            digits[--i] = '0';
        if (i > 0)
        {
            digits[i - 1]++;
        }
        else
        {
            /* 99.9 became 00.0: one more integer digit, or a higher
             * exponent for the same number of significant digits. */
            digits[0] = '1';
            if (fixed)
                digits[count++] = '0';
            (*point)++;
        }
    }
    return count;
}

/* "e+05", "p-1022": the exponent with at least 'min_digits' digits. */
static size_t format_exponent(char *out, char letter, int value,
                              unsigned min_digits)
{
    char reversed[12];
    size_t count = 0;
    unsigned magnitude = value < 0 ? 0u - (unsigned) value : (unsigned) value;
    do
    {
        reversed[count++] = (char) ('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    while (count < min_digits)
        reversed[count++] = '0';

    size_t length = 0;
    out[length++] = letter;
    out[length++] = value < 0 ? '-' : '+';
    while (count)
        out[length++] = reversed[--count];
    return length;
}

/* Insert one character at 'at' in text[0..length). */
static void insert_char(char *text, size_t length, size_t at, char c)
{
    memmove(text + at + 1, text + at, length - at);
    text[at] = c;
}


/* ------------------------------------------------------------------------ */
/*   Signal-safe floating point                                             */
/* ------------------------------------------------------------------------ */

/* %a: exact hexadecimal, as glibc lays it out (leading 1, or 0 for
 * subnormals with exponent -1022; ties to even when rounding). */
static void format_hex_float(render_field *field, char *text, char *suffix,
                             const render_spec *spec, unsigned biased,
                             uint64_t fraction, bool upper)
{
    const char *set = upper ? render_upper_digits : render_lower_digits;
    unsigned lead = biased ? 1 : 0;
    int exponent = biased ? (int) biased - 1023 : fraction ? -1022 : 0;
    char hex[13];
    size_t count = 13;

    for (unsigned i = 0; i < 13; i++)
        hex[i] = (char) ((fraction >> (48 - 4 * i)) & 0xF);

    if (spec->precision < 0)
    {
        while (count && !hex[count - 1])
            count--;
    }
    else if (spec->precision < 13)
    {
        size_t keep = (size_t) spec->precision;
        unsigned next = (unsigned) hex[keep];
        bool sticky = false;
        for (size_t i = keep + 1; i < 13; i++)
            sticky = sticky || hex[i];
        unsigned last = keep ? (unsigned) hex[keep - 1] : lead;
        if (next > 8 || (next == 8 && (sticky || (last & 1))))
        {
            size_t i = keep;
            while (i > 0 && hex[i - 1] == 15)
                hex[--i] = 0;
            if (i > 0)
                hex[i - 1]++;
            else
                lead++;             /* 0x1.f -> 0x2, as glibc does */
        }
        count = keep;
    }

    size_t length = 0;
    text[length++] = set[lead];
    if (count || (spec->flags & RENDER_HASH) ||
        spec->precision > (int) count)
        text[length++] = '.';
    for (size_t i = 0; i < count; i++)
        text[length++] = set[(unsigned char) hex[i]];

    field->prefix = upper ? "0X" : "0x";
    field->prefix_length = 2;
    field->body = text;
    field->body_length = length;
    if (spec->precision > (int) count)
        field->trailing_zeros = (size_t) spec->precision - count;
    field->suffix = suffix;
    field->suffix_length = format_exponent(suffix, upper ? 'P' : 'p',
                                           exponent, 1);
}

/* %f %e %g %a without stdio, malloc or locale. Exact up to a precision of
 * RENDER_SAFE_PRECISION_MAX; beyond it, zeros are added only where the
 * value is known to have no more digits. */
static __attribute__((noinline))
void render_float_safe(render_sink *sink, const render_spec *spec,
                       uint64_t bits)
{
    char text[RENDER_DIGITS_MAX];
    char suffix[16];
    render_field field = { 0 };
    char conversion = spec->conversion;
    bool upper = conversion >= 'A' && conversion <= 'Z';
    bool hash = spec->flags & RENDER_HASH;
    unsigned biased = (unsigned) (bits >> 52) & 0x7FF;
    uint64_t fraction = bits & (((uint64_t) 1 << 52) - 1);

    if (bits >> 63)
        field.sign = '-';
    else if (spec->flags & RENDER_PLUS)
        field.sign = '+';
    else if (spec->flags & RENDER_SPACE)
        field.sign = ' ';

    if (biased == 0x7FF)
    {
        /* Infinities and NaNs: never zero-padded. */
        field.body = fraction ? (upper ? "NAN" : "nan")
                              : (upper ? "INF" : "inf");
        field.body_length = 3;
        emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
        return;
    }
    field.zero_pad = spec->flags & RENDER_ZERO;

    if (conversion == 'a' || conversion == 'A')
    {
        format_hex_float(&field, text, suffix, spec, biased, fraction, upper);
        emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
        return;
    }

    uint64_t mantissa = biased ? fraction | ((uint64_t) 1 << 52) : fraction;
    int exponent = biased ? (int) biased - 1075 : -1074;
    unsigned precision = spec->precision < 0 ? 6 : (unsigned) spec->precision;
    unsigned kept = precision < RENDER_SAFE_PRECISION_MAX
        ? precision : RENDER_SAFE_PRECISION_MAX;
    size_t length;
    int point;
    bool exact;

    if (conversion == 'f' || conversion == 'F')
    {
        length = decimal_digits(mantissa, exponent, true, kept, text, &point,
                                &exact);
        if (kept || hash)
            insert_char(text, length++, (size_t) point, '.');
        if (exact)
            field.trailing_zeros = precision - kept;
        field.body = text;
        field.body_length = length;
        emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
        return;
    }

    bool general = conversion == 'g' || conversion == 'G';
    if (general)
    {
        if (precision == 0)
            precision = 1;
        kept = precision < RENDER_SAFE_PRECISION_MAX
            ? precision : RENDER_SAFE_PRECISION_MAX;
        kept--;                 /* digits after the first significant one */
        precision--;
    }

    if (mantissa)
    {
        length = decimal_digits(mantissa, exponent, false, kept, text, &point,
                                &exact);
    }
    else
    {
        memset(text, '0', kept + 1);
        length = kept + 1;
        point = 0;
        exact = true;
    }

    bool fixed_style = false;
    size_t fraction_start;      /* where the digits after the point begin */
    if (general && point < (int) kept + 1 && point >= -4)
    {
        /* %g as %f with kept - point fraction digits. */
        fixed_style = true;
        if (point >= 0)
        {
            fraction_start = (size_t) point + 1;
        }
        else
        {
            /* "0" and -point - 1 zeros before the digits. */
            size_t zeros = (size_t) (-point - 1);
            memmove(text + 1 + zeros, text, length);
            memset(text, '0', 1 + zeros);
            length += 1 + zeros;
            fraction_start = 1;
        }
    }
    else
    {
        fraction_start = 1;
    }

    if (length > fraction_start || hash)
        insert_char(text, length++, fraction_start, '.');
    if (exact && precision > kept)
        field.trailing_zeros = precision - kept;

    if (general && !hash)
    {
        /* %g drops trailing zeros, and the point if nothing follows it. */
        field.trailing_zeros = 0;
        if (length > fraction_start)
        {
            while (text[length - 1] == '0')
                length--;
            if (text[length - 1] == '.')
                length--;
        }
    }

    field.body = text;
    field.body_length = length;
    if (!fixed_style)
    {
        field.suffix = suffix;
        field.suffix_length = format_exponent(suffix, upper ? 'E' : 'e',
                                              point, 2);
    }
    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, &field);
}


/* ------------------------------------------------------------------------ */
/*   Floating point through the C library                                   */
/* ------------------------------------------------------------------------ */

static int libc_float(char *out, size_t size, const char *format,
                      bool long_double, double value)
{
    if (long_double)
        return snprintf(out, size, format, (long double) value);
    return snprintf(out, size, format, value);
}

/* Rebuild the conversion and let snprintf do it. Past RENDER_LIBC_WIDTH_MAX
 * or RENDER_LIBC_PRECISION_MAX, render without width at the capped precision
 * and pad by hand, so that a silly width costs no more than the room left. */
static __attribute__((noinline))
void render_float_libc(render_sink *sink, const render_spec *spec,
                       uint64_t bits)
{
    char format[48];
    size_t at = 0;
    double value;
    unsigned flags = spec->flags;
    char conversion = spec->conversion;
    bool direct = spec->width <= RENDER_LIBC_WIDTH_MAX &&
                  spec->precision <= RENDER_LIBC_PRECISION_MAX;
    /* glibc reads a long double for L, ll and q: so do we, converted back
     * from the double the record kept. */
    bool long_double = spec->length == RENDER_LENGTH_LL;

    memcpy(&value, &bits, sizeof(value));

    format[at++] = '%';
    if (flags & RENDER_PLUS)
        format[at++] = '+';
    if (flags & RENDER_SPACE)
        format[at++] = ' ';
    if (flags & RENDER_HASH)
        format[at++] = '#';
    if (direct)
    {
        if (flags & RENDER_MINUS)
            format[at++] = '-';
        if (flags & RENDER_ZERO)
            format[at++] = '0';
        if (spec->width)
            at += (size_t) snprintf(format + at, sizeof(format) - at, "%zu",
                                    spec->width);
    }
    int precision = spec->precision;
    if (precision > RENDER_LIBC_PRECISION_MAX)
        precision = RENDER_LIBC_PRECISION_MAX;
    if (precision >= 0)
        at += (size_t) snprintf(format + at, sizeof(format) - at, ".%d",
                                precision);
    if (long_double)
        format[at++] = 'L';
    format[at++] = conversion;
    format[at] = 0;

    if (direct)
    {
        size_t room = sink->size - sink->length;
        int n = libc_float(sink->buffer + sink->length, room, format,
                           long_double, value);
        if (n > 0)
            sink->length += (size_t) n < room ? (size_t) n : room - 1;
        return;
    }

    char text[RENDER_LIBC_TEXT_MAX];
    int n = libc_float(text, sizeof(text), format, long_double, value);
    if (n < 0)
        return;
    size_t length = (size_t) n < sizeof(text) ? (size_t) n : sizeof(text) - 1;
    bool finite = ((bits >> 52) & 0x7FF) != 0x7FF;
    bool hex = conversion == 'a' || conversion == 'A';
    bool general = conversion == 'g' || conversion == 'G';
    render_field field = { 0 };
    size_t start = 0;

    if (length && (text[0] == '-' || text[0] == '+' || text[0] == ' '))
    {
        field.sign = text[0];
        start = 1;
    }
    if (finite && hex && length >= start + 2)
    {
        field.prefix = text + start;
        field.prefix_length = 2;
        start += 2;
    }

    /* The exponent, if any, stays after the zeros the precision adds. */
    size_t end = length;
    if (finite && conversion != 'f' && conversion != 'F')
    {
        for (size_t i = start; i < length; i++)
        {
            char c = text[i];
            if (hex ? (c == 'p' || c == 'P') : (c == 'e' || c == 'E'))
            {
                end = i;
                break;
            }
        }
    }
    field.body = text + start;
    field.body_length = end - start;
    field.suffix = text + end;
    field.suffix_length = length - end;
    if (finite && spec->precision > precision &&
        (!general || (flags & RENDER_HASH)))
        field.trailing_zeros = (size_t) (spec->precision - precision);
    field.zero_pad = finite && (flags & RENDER_ZERO);
    emit_field(sink, spec->width, flags & RENDER_MINUS, &field);
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
