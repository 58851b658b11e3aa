/* share_path.c - expand the escapes of a segment path (%p %n %u %h %%). */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "segment/share_path_private.h"

#include <errno.h>                      /* program_invocation_short_name */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Put text[0..length) in out at *used; false if it does not fit with its
 * terminating NUL (unlike safe_append, which drops what does not fit: a
 * truncated path could be another process's). */
static bool put(char *out, size_t size, size_t *used, const char *text,
                size_t length)
{
    if (length >= size - *used)
        return false;
    memcpy(out + *used, text, length);
    *used += length;
    out[*used] = 0;
    return true;
}

static bool file_name_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/* Put 'name' made safe as (part of) a file name. */
static bool put_name(char *out, size_t size, size_t *used, const char *name)
{
    if (!name || !*name)
        return put(out, size, used, "_", 1);
    size_t start = *used;
    bool only_dots = true;
    for (const char *p = name; *p; p++)
    {
        char c = file_name_byte((unsigned char) *p) ? *p : '_';
        only_dots &= c == '.';
        if (!put(out, size, used, &c, 1))
            return false;
    }
    /* Alone in a path component, "." or ".." would be a directory. */
    if (only_dots && *used - start <= 2)
        memset(out + start, '_', *used - start);
    return true;
}

static bool put_number(char *out, size_t size, size_t *used,
                       unsigned long value)
{
    char digits[24];
    int length = snprintf(digits, sizeof(digits), "%lu", value);
    return put(out, size, used, digits, (size_t) length);
}

bool share_path_expand(const char *path, const share_path_values *values,
                       char *out, size_t size, char *why, size_t why_size)
{
    size_t used = 0;
    bool fits = size > 0;
    if (fits)
        out[0] = 0;
    for (const char *p = path; fits && *p; p++)
    {
        if (*p != '%')
        {
            fits = put(out, size, &used, p, 1);
            continue;
        }
        switch (*++p)
        {
        case 'p': fits = put_number(out, size, &used, values->pid); break;
        case 'u': fits = put_number(out, size, &used, values->uid); break;
        case 'n': fits = put_name(out, size, &used, values->program); break;
        case 'h': fits = put_name(out, size, &used, values->host); break;
        case '%': fits = put(out, size, &used, "%", 1); break;
        case 0:
            snprintf(why, why_size, "%s: '%%' at the end of the path "
                     "(write %%%% for a '%%'; escapes: %s)", path,
                     SHARE_PATH_ESCAPES);
            return false;
        default:
            /* The byte may be anything: show a control as a number. */
            if ((unsigned char) *p < 0x20 || (unsigned char) *p >= 0x7f)
                snprintf(why, why_size, "%s: unknown escape '%%' followed by "
                         "byte 0x%02x (escapes: %s)", path, (unsigned char) *p,
                         SHARE_PATH_ESCAPES);
            else
                snprintf(why, why_size, "%s: unknown escape '%%%c' "
                         "(escapes: %s)", path, *p, SHARE_PATH_ESCAPES);
            return false;
        }
    }
    if (!fits)
    {
        snprintf(why, why_size, "%s: path too long once expanded "
                 "(more than %lu bytes)", path,
                 size ? (unsigned long) size - 1 : 0ul);
        return false;
    }
    return true;
}

void share_path_values_here(share_path_values *values, char *host,
                            size_t host_size)
{
    values->pid = (unsigned long) getpid();
    values->program = program_invocation_short_name;
    values->uid = (unsigned long) geteuid();
    /* gethostname may leave a truncated name unterminated. */
    if (host_size && gethostname(host, host_size) != 0)
        host[0] = 0;
    if (host_size)
        host[host_size - 1] = 0;
    values->host = host;
}

bool share_path_per_process(const char *path)
{
    for (const char *p = path; *p; p++)
        if (*p == '%')
        {
            p++;
            if (*p == 'p' || *p == 'n')
                return true;
            if (!*p)
                break;
        }
    return false;
}
