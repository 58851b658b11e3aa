/* scope_message.c - recorder_scope's text for a terminal, always escaped. */
#include "common/scope_message.h"

#include <recorder/recorder_share.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>

static void print_escaped(FILE *out, const char *prefix, bool end_line,
                          const char *format, va_list args)
{
    char small[512], small_shown[4 * sizeof(small)];
    char *text = small, *shown = small_shown;
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(small, sizeof(small), format, args);
    /* Most lines fit; a long path or error gets buffers of its own. */
    if (length >= 0 && (size_t) length >= sizeof(small))
    {
        text = malloc((size_t) length + 1);
        shown = malloc(4 * (size_t) length + 1);
        if (text && shown)
            vsnprintf(text, (size_t) length + 1, format, again);
        else
            length = -1;
    }
    va_end(again);
    if (length < 0)
    {
        fprintf(out, "%s(a message too long to show)\n", prefix);
    }
    else
    {
        size_t kept = (size_t) length;
        bool newline = !end_line && kept && text[kept - 1] == '\n';
        recorder_share_escape(shown, 4 * kept + 1, text, kept - newline);
        fprintf(out, "%s%s%s", prefix, shown,
                end_line || newline ? "\n" : "");
    }
    if (text != small)
    {
        free(text);
        free(shown);
    }
}

void scope_message(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print_escaped(stderr, "recorder_scope: ", true, format, args);
    va_end(args);
}

void scope_print(FILE *out, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print_escaped(out, "", false, format, args);
    va_end(args);
}
