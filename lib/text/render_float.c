/* render_float.c - floating-point conversions for recorder_render().
 *
 * Ordinary dumps go through snprintf. Signal handlers get an exact
 * formatter of our own (big-integer digit generation, no allocation), which
 * matches glibc for precisions up to 40 but for two cases: "%#g" when
 * rounding bumps the exponent up to the precision (glibc 2.36 prints
 * "1.e+03" for "%#.3g" of 999.9995, C11 and we "1.00e+03"), and "%La", laid
 * out as a double ("0x1.8p+0") rather than as an x87 long double. Its
 * digit buffer and big integers are most of the renderer's 1.5 KiB of
 * stack at the deepest point.
 */
#include "text/render_float_private.h"

#include <stdio.h>
#include <string.h>

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

/* %f %F: every integer digit, then 'precision' after the point, exact up
 * to RENDER_SAFE_PRECISION_MAX of them. */
static void safe_fixed(render_sink *sink, const render_spec *spec,
                       render_field *field, uint64_t mantissa, int exponent,
                       unsigned precision, char *text)
{
    unsigned kept = precision < RENDER_SAFE_PRECISION_MAX
        ? precision : RENDER_SAFE_PRECISION_MAX;
    int point;
    bool exact;
    size_t length = decimal_digits(mantissa, exponent, true, kept, text,
                                   &point, &exact);
    if (kept || (spec->flags & RENDER_HASH))
        insert_char(text, length++, (size_t) point, '.');
    if (exact)
        field->trailing_zeros = precision - kept;
    field->body = text;
    field->body_length = length;
    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, field);
}

/* %e %E: 'precision' digits after the first significant one, and the
 * exponent; %g %G: 'precision' significant digits, as %f when the exponent
 * is from -4 to below the precision, trailing zeros dropped unless '#'. */
static void safe_scientific(render_sink *sink, const render_spec *spec,
                            render_field *field, uint64_t mantissa,
                            int exponent, unsigned precision, char *text,
                            char *suffix)
{
    char conversion = spec->conversion;
    bool upper = conversion >= 'A' && conversion <= 'Z';
    bool hash = spec->flags & RENDER_HASH;
    unsigned kept = precision < RENDER_SAFE_PRECISION_MAX
        ? precision : RENDER_SAFE_PRECISION_MAX;
    size_t length;
    int point;
    bool exact;

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
        field->trailing_zeros = precision - kept;

    if (general && !hash)
    {
        /* %g drops trailing zeros, and the point if nothing follows it. */
        field->trailing_zeros = 0;
        if (length > fraction_start)
        {
            while (text[length - 1] == '0')
                length--;
            if (text[length - 1] == '.')
                length--;
        }
    }

    field->body = text;
    field->body_length = length;
    if (!fixed_style)
    {
        field->suffix = suffix;
        field->suffix_length = format_exponent(suffix, upper ? 'E' : 'e',
                                               point, 2);
    }
    emit_field(sink, spec->width, spec->flags & RENDER_MINUS, field);
}

/* %f %e %g %a without stdio, malloc or locale. Exact up to a precision of
 * RENDER_SAFE_PRECISION_MAX; beyond it, zeros are added only where the
 * value is known to have no more digits. */
void render_float_safe(render_sink *sink, const render_spec *spec,
                       uint64_t bits)
{
    char text[RENDER_DIGITS_MAX];
    char suffix[16];
    render_field field = { 0 };
    char conversion = spec->conversion;
    bool upper = conversion >= 'A' && conversion <= 'Z';
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
    if (conversion == 'f' || conversion == 'F')
        safe_fixed(sink, spec, &field, mantissa, exponent, precision, text);
    else
        safe_scientific(sink, spec, &field, mantissa, exponent, precision,
                        text, suffix);
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
