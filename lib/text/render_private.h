/* render_private.h - format a record's raw argument words at dump time.
 *
 * A record keeps its printf-like format and up to RECORDER_MAX_ARGS 64-bit
 * words (see RECORDER_ARG). recorder_render() turns them into text the way
 * glibc's snprintf would have when the record was made, with three twists:
 * plain %s prints the pointer unless the string is known to be alive, %n
 * writes nothing, and custom conversions (recorder_configure_type) come first.
 */
#ifndef RECORDER_RENDER_PRIVATE_H
#define RECORDER_RENDER_PRIVATE_H

#include "recorder.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* For records of another process: copy the string at 'address' there into
 * buffer[size], NUL-terminated, and return it (or a description of why it
 * cannot be had). */
typedef const char *(*recorder_render_fetch_fn)(uint64_t address,
                                                char *buffer, size_t size,
                                                void *arg);

/* Longest string a guarded read copies, in bytes (a message is shorter). */
#define RECORDER_GUARDED_STRING_MAX     2048

typedef struct recorder_render_options
{
    intptr_t trace;                 /* trace value of the recorder, passed
                                       to custom conversions */
    bool strings_valid;             /* plain %s may be dereferenced (record
                                       being traced live) */
    bool signal_safe;               /* called from a signal handler: no
                                       malloc, no stdio, no locale */
    recorder_type_fn const *types;  /* 256 custom conversions indexed by the
                                       conversion character; entries or the
                                       whole pointer may be NULL */
    recorder_render_fetch_fn fetch; /* if set, strings are never
                                       dereferenced here: %+s asks 'fetch'
                                       and %ls prints the pointer */
    void *fetch_arg;
    bool strings_guarded;           /* strings may point anywhere (a slot
                                       forged in a shared segment): copy
                                       them with process_vm_readv, so a bad
                                       address prints "<unreadable ADDR>"
                                       instead of faulting */
    bool unguarded_fallback;        /* with strings_guarded, where the
                                       kernel refuses process_vm_readv:
                                       read directly (true) or print the
                                       address (false) */
} recorder_render_options;

/* Render 'format' with 'args' (nargs words) into out[size]. Always
 * NUL-terminates when size > 0 and never writes past out[size - 1]; returns
 * the number of bytes written, not counting the NUL, so output longer than
 * the buffer is silently truncated. 'opts' may be NULL (all defaults).
 *
 *  - Conversions: flags "-+ #0" (and "'", ignored), width and precision as
 *    digits or '*' (each '*' takes one argument, read as an int), length
 *    modifiers hh h l ll L q j z Z t, conversions d i u o x X b B c s p n
 *    f F e E g G a A and %%. Integers are narrowed as printf reads them.
 *  - %s dereferences its argument only with the '+' flag or when
 *    strings_valid is set; otherwise it prints the pointer like %p.
 *    With strings_guarded, what it reads is a copy of at most
 *    RECORDER_GUARDED_STRING_MAX bytes (wide strings: as many bytes of
 *    wchar_t) taken without risk of a fault.
 *  - %n takes its argument and prints nothing; nothing is ever written
 *    through an argument.
 *  - A custom conversion is called as
 *      fn(trace | plus, "%+08X", out + written, size - written, word)
 *    where the length it is given includes the byte kept for the final NUL
 *    (so a snprintf-style fn loses nothing); what it returns is trusted only
 *    up to that length minus one.
 *  - Unknown conversions are copied verbatim; a conversion whose arguments
 *    are missing prints "<missing>"; extra arguments are ignored.
 *  - With signal_safe, floating point uses an exact formatter of its own
 *    (round-to-nearest-even, '.' as decimal point) with precision capped at
 *    40 digits, beyond which only zeros known to be exact are added;
 *    otherwise it goes through snprintf (L, ll and q pass a long double).
 *    Everything else never uses stdio, malloc or the locale.
 */
size_t recorder_render(char *out, size_t size, const char *format,
                       const uint64_t *args, unsigned nargs,
                       const recorder_render_options *opts)
    __attribute__((visibility("hidden")));

#endif /* RECORDER_RENDER_PRIVATE_H */
