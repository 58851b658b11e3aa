/* recorder.h - an always-on flight recorder for C and C++ programs.
 *
 *   RECORDER(net, 256, "Network events");          // in one .c file
 *   RECORDER_DECLARE(net);                         // in headers
 *   record(net, "Sent %zu bytes to %s", len, host) // anywhere, any thread
 *
 * A record costs less than reading the clock: it stores the call site, a
 * timestamp and the raw arguments in a lock-free ring owned by the recorder.
 * Nothing is formatted until the rings are dumped (recorder_dump(), from gdb
 * with 'p recorder_dump()', on a signal, or by a reader of the shared
 * segment). Traces, enabled by regex with RECORDER_TRACES or
 * recorder_trace_set(), also print each record as it is made.
 *
 * The macros and functions keep the names and meaning of the original
 * recorder library (1.2.x), so instrumented programs build unchanged.
 */
#ifndef RECORDER_H
#define RECORDER_H

#include "recorder_ring.h"
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/*   Version                                                                */
/* ------------------------------------------------------------------------ */

#define RECORDER_VERSION(Major, Minor, Patch)                           \
    (((Major) << 16) | ((Minor) << 8) | (Patch))
#define RECORDER_VERSION_MAJOR(Version)         (((Version) >> 16) & 0xFF)
#define RECORDER_VERSION_MINOR(Version)         (((Version) >> 8) & 0xFF)
#define RECORDER_VERSION_PATCH(Version)         ((Version) & 0xFF)
#define RECORDER_CURRENT_VERSION                RECORDER_VERSION(1, 3, 0)
#define RECORDER_64BIT                          (INTPTR_MAX > 0x7fffffff)

/* Units of recorder_tick(): microseconds. */
#ifndef RECORDER_HZ
#define RECORDER_HZ                             1000000
#endif

/* Most arguments one record() can carry after its format. */
#define RECORDER_MAX_ARGS                       12

/* ------------------------------------------------------------------------ */
/*   Storage layout                                                         */
/* ------------------------------------------------------------------------ */
/* Everything a record writes fits in 64-byte slots, so a ring can be moved
 * into a shared mapping and read by another process: no pointer inside a
 * slot is ever dereferenced by a reader except through the call-site table.
 */

/* Where a record() statement is, and what it prints. One per call site,
 * static, in the "recorder_sites" section of the module that holds it.
 * Aligned to 16 so a slot can carry the argument count in the low bits. */
typedef struct __attribute__((aligned(16))) recorder_site
{
    const char *format;         /* printf-like format, a string literal */
    const char *file;           /* __FILE__ */
    const char *function;       /* __func__ */
    uint32_t    line;           /* __LINE__ */
    uint32_t    id;             /* index in a shared call-site table, or 0 */
} recorder_site;

/* One ring slot. A record with up to 5 arguments takes one slot:
 *   word[0] timestamp (recorder ticks), word[1] site address | arg count,
 *   word[2..6] arguments 0-4.
 * A record with 6 to 12 arguments takes a second, continuation slot holding
 * arguments 5-11 in word[0..6].
 * 'seq' is written last, with release order: (index + 1) << 1, with bit 0 set
 * in continuation slots. A reader trusts a slot only if 'seq' matches the
 * index it expects and the writer has not lapped it since. */
typedef struct __attribute__((aligned(64))) recorder_slot
{
    uint64_t seq;
    uint64_t word[7];
} recorder_slot;

/* Head of a lane; 'size' slots (a power of two) follow it in memory. */
typedef struct __attribute__((aligned(64))) recorder_buffer
{
    uint64_t writer;            /* slots ever reserved in this lane */
    uint64_t spare;             /* zero; keeps the head at 64 bytes */
    uint64_t reader;            /* first slot not yet dumped in-process */
    uint32_t size;              /* slots, a power of two (in a segment; in
                                   the program, see recorder_info.mask) */
    uint32_t flags;
} recorder_buffer;

#define RECORDER_BUFFER_SLOTS(Buffer)  ((recorder_slot *) ((Buffer) + 1))

/* A recorder's ring is RECORDER_LANES lanes laid end to end, each a head and
 * its slots. A thread always writes the same lane (threads take lanes in
 * turn), so threads sharing a recorder do not share the cache lines they
 * write; readers merge the lanes by timestamp. Each lane keeps the last
 * 'size' slots of its threads. */
#define RECORDER_LANES                  4

/* Lane 'lane' of the ring at 'first' whose lanes have 'slots' slots. */
#define RECORDER_LANE(First, Slots, Lane)                               \
    ((recorder_buffer *) ((char *) (First) +                            \
                          (size_t) (Lane) * ((size_t) (Slots) + 1) *    \
                          sizeof(recorder_slot)))

/* The fields the record path reads come first, in one cache line. The ring
 * may move into a shared segment that other processes can write, so its
 * size is trusted from 'mask' here, never from the ring itself. A ring only
 * ever moves to a larger one: 'buffer' is published before 'mask'. */
typedef struct recorder_info
{
    intptr_t                trace;      /* -1 off, 0 record, else also print */
    uintptr_t               mask;       /* slots in each lane, minus one */
    recorder_buffer *       buffer;     /* lane 0; may move into a segment */
    void *                  exports;    /* channels exported from this one */
    void *                  watch;      /* snapshot conditions that look at
                                           its records, or NULL */
    const char *            name;
    const char *            description;
    struct recorder_info *  next;       /* list of activated recorders */
    recorder_ring_t         ring;       /* recorder 1.2's view of the ring:
                                           'size' slots in each lane (as
                                           defined), 'item_size' a slot's;
                                           the indexes are not kept (the
                                           library uses two of those words
                                           for itself) */
} recorder_info;

typedef struct recorder_tweak
{
    intptr_t                trace;      /* the tweak's value */
    const char *            name;
    const char *            description;
    struct recorder_tweak * next;       /* list of activated tweaks */
} recorder_tweak;

/* ------------------------------------------------------------------------ */
/*   Declaring and defining recorders and tweaks                            */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__) || defined(__clang__)
#define RECORDER_CONSTRUCTOR    __attribute__((constructor))
#else
#define RECORDER_CONSTRUCTOR
#endif

/* Slots for 'Entries' records: the next power of two, at least 4. */
#define RECORDER_SMEAR1(x)      ((x) | ((x) >> 1))
#define RECORDER_SMEAR2(x)      (RECORDER_SMEAR1(x) | (RECORDER_SMEAR1(x) >> 2))
#define RECORDER_SMEAR4(x)      (RECORDER_SMEAR2(x) | (RECORDER_SMEAR2(x) >> 4))
#define RECORDER_SMEAR8(x)      (RECORDER_SMEAR4(x) | (RECORDER_SMEAR4(x) >> 8))
#define RECORDER_SMEAR16(x)     (RECORDER_SMEAR8(x) | (RECORDER_SMEAR8(x) >> 16))
#define RECORDER_SLOTS_FOR(Entries)                                     \
    ((Entries) <= 4 ? 4u : (unsigned) RECORDER_SMEAR16((Entries) - 1u) + 1u)

#define RECORDER_INFO(Name)     (&recorder_info_for_##Name)
#define RECORDER_TRACE(Name)    (RECORDER_INFO(Name)->trace)
#define RECORDER_TWEAK(Name)    (RECORDER_INFO(Name)->trace)
#define RECORDER_ENABLED(Name)  (RECORDER_TRACE(Name) != -1)

#define RECORDER_DECLARE(Name)                                          \
    extern recorder_info recorder_info_for_##Name

#define RECORDER_TWEAK_DECLARE(Name)                                    \
    extern recorder_tweak recorder_info_for_##Name

#define RECORDER(Name, Entries, Description)                            \
    RECORDER_DEFINE(Name, Entries, Description)

#define RECORDER_DEFINE(Name, Entries, Description)                     \
    /* All zero, so it costs the program file nothing (.bss), and lanes  \
     * no thread writes cost no memory either; a lane's size is the      \
     * recorder's mask + 1. */                                          \
    static struct                                                       \
    {                                                                   \
        recorder_buffer head;                                           \
        recorder_slot   slots[RECORDER_SLOTS_FOR(Entries)];             \
    } recorder_buffer_for_##Name[RECORDER_LANES];                       \
    recorder_info recorder_info_for_##Name = {                          \
        0, RECORDER_SLOTS_FOR(Entries) - 1,                             \
        &recorder_buffer_for_##Name[0].head, 0, 0, #Name, Description, 0, \
        { RECORDER_SLOTS_FOR(Entries), sizeof(recorder_slot), 0, 0, 0, 0, 0 } \
    };                                                                  \
    RECORDER_DEBUGGER_ENTRIES(Name)                                     \
    RECORDER_CONSTRUCTOR static void recorder_activate_##Name(void)     \
    {                                                                   \
        recorder_activate(&recorder_info_for_##Name);                   \
    }                                                                   \
    /* Wants the user's ';'. A tag, not a function: declaring            \
     * recorder_activate again would warn with -Wredundant-decls. */     \
    struct recorder_info

/* A debugger calls recorder_dump(), recorder_dump_for() or
 * recorder_trace_set() in a stopped program ('p recorder_dump()'). From
 * librecorder.a the linker takes them only if the program names them, so
 * every recorder a program defines names them. The library's own
 * recorders do not: its lower modules must not depend on its upper ones. */
#ifdef RECORDER_INSIDE_LIBRARY
#define RECORDER_DEBUGGER_ENTRIES(Name)
#else
#define RECORDER_DEBUGGER_ENTRIES(Name)                                 \
    __attribute__((used)) static unsigned (*const                       \
        recorder_dump_entry_##Name)(void) = recorder_dump;              \
    __attribute__((used)) static int (*const                            \
        recorder_trace_entry_##Name)(const char *) = recorder_trace_set;
#endif

#define RECORDER_TWEAK_DEFINE(Name, Value, Description)                 \
    recorder_tweak recorder_info_for_##Name = {                         \
        (Value), #Name, Description, 0                                  \
    };                                                                  \
    RECORDER_CONSTRUCTOR static void recorder_tweak_activate_##Name(void)\
    {                                                                   \
        recorder_tweak_activate(&recorder_info_for_##Name);             \
    }                                                                   \
    struct recorder_tweak                       /* wants a ';' */

/* Put a recorder or tweak on the lists that dumps, traces and the shared
 * segment walk. Called by the constructors the macros above generate;
 * calling it again for the same object does nothing. */
extern void recorder_activate(recorder_info *recorder);
extern void recorder_tweak_activate(recorder_tweak *tweak);

/* The activated recorders, newest first. */
extern recorder_info *recorder_list(void);

/* Make the call sites of one module (executable or shared library) known,
 * so a shared segment can describe them to other processes. Every file that
 * includes this header registers its module's "recorder_sites" section from
 * a constructor; registering the same range again does nothing. */
extern void recorder_sites_register(recorder_site *first, recorder_site *last);

/* Make one call site known: for C++ compiled by g++, whose call sites
 * cannot all share a section (see RECORDER_SITE_SECTION). Called before
 * main, or when the library holding the site loads. */
extern void recorder_sites_register_one(recorder_site *site);

#if defined(__GNUC__) || defined(__clang__)
extern recorder_site __start_recorder_sites[]
    __attribute__((weak, visibility("hidden")));
extern recorder_site __stop_recorder_sites[]
    __attribute__((weak, visibility("hidden")));
__attribute__((constructor, used)) static void recorder_sites_of_module(void)
{
    recorder_site *first = __start_recorder_sites;
    recorder_site *last = __stop_recorder_sites;
    if (first != last)
        recorder_sites_register(first, last);
}
#endif

/* ------------------------------------------------------------------------ */
/*   Recording                                                              */
/* ------------------------------------------------------------------------ */

/* Out-of-line writers behind record(). Arguments are raw 64-bit words
 * (see RECORDER_ARG); 'count' is how many are meaningful. */
extern void recorder_write(recorder_info *rec, const recorder_site *site,
                           unsigned count, uint64_t a0, uint64_t a1,
                           uint64_t a2, uint64_t a3, uint64_t a4);
extern void recorder_write_fast(recorder_info *rec, const recorder_site *site,
                                unsigned count, uint64_t a0, uint64_t a1,
                                uint64_t a2, uint64_t a3, uint64_t a4);
extern void recorder_write12(recorder_info *rec, const recorder_site *site,
                             unsigned count,
                             uint64_t a0, uint64_t a1, uint64_t a2,
                             uint64_t a3, uint64_t a4, uint64_t a5,
                             uint64_t a6, uint64_t a7, uint64_t a8,
                             uint64_t a9, uint64_t a10, uint64_t a11);
extern void recorder_write12_fast(recorder_info *rec,
                                  const recorder_site *site, unsigned count,
                                  uint64_t a0, uint64_t a1, uint64_t a2,
                                  uint64_t a3, uint64_t a4, uint64_t a5,
                                  uint64_t a6, uint64_t a7, uint64_t a8,
                                  uint64_t a9, uint64_t a10, uint64_t a11);

#define record(Name, ...)               RECORDER_RECORD(, Name, __VA_ARGS__)
#define RECORD(Name, ...)               RECORDER_RECORD(, Name, __VA_ARGS__)
#define record_fast(Name, ...)          RECORDER_RECORD(_fast, Name, __VA_ARGS__)
#define RECORD_FAST(Name, ...)          RECORDER_RECORD(_fast, Name, __VA_ARGS__)

/* Call sites go in the "recorder_sites" section of their module, which
 * recorder_sites_of_module() registers. Except with g++: it puts the static
 * of an inline function (in-class member functions, 'inline' functions of
 * headers) in a COMDAT group, and then refuses ("section type conflict")
 * to also put an ordinary function's static in the same section of the
 * same file. So with g++, C++ call sites stay where the compiler puts any
 * static, and each registers itself (RECORDER_SITE_REGISTER) before main
 * or when its library loads, never when it records. */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#define RECORDER_LIKELY(x)      __builtin_expect(!!(x), 1)
#define RECORDER_SITE_SECTION   __attribute__((used))
#define RECORDER_SITE_REGISTER(Site)                                    \
    struct recorder_site_of_here                                        \
    {                                                                   \
        static recorder_site *site() { return &Site; }                  \
    };                                                                  \
    (void) &recorder_site_registrar<recorder_site_of_here>::registered
#elif defined(__GNUC__) || defined(__clang__)
#define RECORDER_LIKELY(x)      __builtin_expect(!!(x), 1)
#define RECORDER_SITE_SECTION                                           \
    __attribute__((section("recorder_sites"), used))
#define RECORDER_SITE_REGISTER(Site)    ((void) 0)
#else
#define RECORDER_LIKELY(x)      (x)
#define RECORDER_SITE_SECTION
#define RECORDER_SITE_REGISTER(Site)    ((void) 0)
#endif

#ifdef __cplusplus
#define RECORDER_STATIC_ASSERT(Cond, Message)   static_assert(Cond, Message)
#else
#define RECORDER_STATIC_ASSERT(Cond, Message)   _Static_assert(Cond, Message)
#endif

/* The format must be a string literal: it lives in the static call site. */
#define RECORDER_RECORD(Fast, Name, Format, ...)                        \
    do                                                                  \
    {                                                                   \
        static recorder_site RECORDER_SITE_SECTION recorder_site_here = \
            { Format, __FILE__, __func__, __LINE__, 0 };                \
        RECORDER_SITE_REGISTER(recorder_site_here);                     \
        if (RECORDER_LIKELY(RECORDER_TRACE(Name) != -1))                \
            RECORDER_DISPATCH(RECORDER_NARGS(Format, ##__VA_ARGS__), Fast, \
                              RECORDER_INFO(Name), &recorder_site_here, \
                              ##__VA_ARGS__);                           \
    } while (0)

/* Count the 0 to 12 arguments after the format; more give TOO_MANY.
 * The format is a named parameter: the strict standard modes (-std=c11,
 * -std=c++11) drop the comma of an empty ##__VA_ARGS__ only after one. */
#define RECORDER_NARGS(Format, ...)                                     \
    RECORDER_NARGS_(Format, ##__VA_ARGS__,                              \
                    TOO_MANY, TOO_MANY, TOO_MANY, TOO_MANY, TOO_MANY,   \
                    TOO_MANY, TOO_MANY, TOO_MANY, TOO_MANY, TOO_MANY,   \
                    TOO_MANY, TOO_MANY, 12, 11, 10, 9, 8, 7, 6, 5, 4,   \
                    3, 2, 1, 0)
#define RECORDER_NARGS_(z, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,     \
                        a11, a12, a13, a14, a15, a16, a17, a18, a19,    \
                        a20, a21, a22, a23, a24, N, ...)  N

#define RECORDER_DISPATCH(N, Fast, Rec, Site, ...)                      \
    RECORDER_DISPATCH_(N, Fast, Rec, Site, ##__VA_ARGS__)
#define RECORDER_DISPATCH_(N, Fast, Rec, Site, ...)                     \
    RECORDER_WRITE_##N(Fast, Rec, Site, ##__VA_ARGS__)

#define RECORDER_A(x)           RECORDER_ARG(x)
#define RECORDER_WRITE_0(F, R, S)                                       \
    recorder_write##F(R, S, 0, 0, 0, 0, 0, 0)
#define RECORDER_WRITE_1(F, R, S, a)                                    \
    recorder_write##F(R, S, 1, RECORDER_A(a), 0, 0, 0, 0)
#define RECORDER_WRITE_2(F, R, S, a, b)                                 \
    recorder_write##F(R, S, 2, RECORDER_A(a), RECORDER_A(b), 0, 0, 0)
#define RECORDER_WRITE_3(F, R, S, a, b, c)                              \
    recorder_write##F(R, S, 3, RECORDER_A(a), RECORDER_A(b),            \
                      RECORDER_A(c), 0, 0)
#define RECORDER_WRITE_4(F, R, S, a, b, c, d)                           \
    recorder_write##F(R, S, 4, RECORDER_A(a), RECORDER_A(b),            \
                      RECORDER_A(c), RECORDER_A(d), 0)
#define RECORDER_WRITE_5(F, R, S, a, b, c, d, e)                        \
    recorder_write##F(R, S, 5, RECORDER_A(a), RECORDER_A(b),            \
                      RECORDER_A(c), RECORDER_A(d), RECORDER_A(e))
#define RECORDER_WRITE_LONG(F, R, S, N, a, b, c, d, e, f, g, h, i, j, k, l) \
    recorder_write12##F(R, S, N, RECORDER_A(a), RECORDER_A(b),          \
                        RECORDER_A(c), RECORDER_A(d), RECORDER_A(e),    \
                        RECORDER_A(f), g, h, i, j, k, l)
#define RECORDER_WRITE_6(F, R, S, a, b, c, d, e, f)                     \
    RECORDER_WRITE_LONG(F, R, S, 6, a, b, c, d, e, f, 0, 0, 0, 0, 0, 0)
#define RECORDER_WRITE_7(F, R, S, a, b, c, d, e, f, g)                  \
    RECORDER_WRITE_LONG(F, R, S, 7, a, b, c, d, e, f,                   \
                        RECORDER_A(g), 0, 0, 0, 0, 0)
#define RECORDER_WRITE_8(F, R, S, a, b, c, d, e, f, g, h)               \
    RECORDER_WRITE_LONG(F, R, S, 8, a, b, c, d, e, f,                   \
                        RECORDER_A(g), RECORDER_A(h), 0, 0, 0, 0)
#define RECORDER_WRITE_9(F, R, S, a, b, c, d, e, f, g, h, i)            \
    RECORDER_WRITE_LONG(F, R, S, 9, a, b, c, d, e, f,                   \
                        RECORDER_A(g), RECORDER_A(h), RECORDER_A(i),    \
                        0, 0, 0)
#define RECORDER_WRITE_10(F, R, S, a, b, c, d, e, f, g, h, i, j)        \
    RECORDER_WRITE_LONG(F, R, S, 10, a, b, c, d, e, f,                  \
                        RECORDER_A(g), RECORDER_A(h), RECORDER_A(i),    \
                        RECORDER_A(j), 0, 0)
#define RECORDER_WRITE_11(F, R, S, a, b, c, d, e, f, g, h, i, j, k)     \
    RECORDER_WRITE_LONG(F, R, S, 11, a, b, c, d, e, f,                  \
                        RECORDER_A(g), RECORDER_A(h), RECORDER_A(i),    \
                        RECORDER_A(j), RECORDER_A(k), 0)
#define RECORDER_WRITE_12(F, R, S, a, b, c, d, e, f, g, h, i, j, k, l)  \
    RECORDER_WRITE_LONG(F, R, S, 12, a, b, c, d, e, f,                  \
                        RECORDER_A(g), RECORDER_A(h), RECORDER_A(i),    \
                        RECORDER_A(j), RECORDER_A(k), RECORDER_A(l))
#define RECORDER_WRITE_TOO_MANY(F, R, S, ...)                           \
    {                                                                   \
        RECORDER_STATIC_ASSERT(0, "record() takes at most 12 arguments "\
                                  "after the format");                  \
    }

/* ------------------------------------------------------------------------ */
/*   Names kept from recorder 1.2                                           */
/* ------------------------------------------------------------------------ */
/* For programs written for recorder 1.2. Where this design differs, each
 * does the nearest thing it can; recorder(3), "RECORDER 1.2 NAMES", says
 * how. */

/* The location prefix and function name 1.2 gave recorder_append(). */
#define RECORDER_SOURCE_FUNCTION        __func__
#define RECORDER_SOURCE_LOCATION                                        \
    __FILE__ ":" RECORDER_STRINGIFY(__LINE__) ":"
#define RECORDER_STRINGIFY(Text)        RECORDER_STRINGIFY_(Text)
#define RECORDER_STRINGIFY_(Text)       #Text

/* record() and record_fast() with exactly N arguments after the format. */
#define RECORD_0(N, F)                  RECORDER_RECORD(, N, F)
#define RECORD_1(N, F, a)               RECORDER_RECORD(, N, F, a)
#define RECORD_2(N, F, a, b)            RECORDER_RECORD(, N, F, a, b)
#define RECORD_3(N, F, a, b, c)         RECORDER_RECORD(, N, F, a, b, c)
#define RECORD_4(N, F, a, b, c, d)      RECORDER_RECORD(, N, F, a, b, c, d)
#define RECORD_5(N, F, a, b, c, d, e)                                   \
    RECORDER_RECORD(, N, F, a, b, c, d, e)
#define RECORD_6(N, F, a, b, c, d, e, f)                                \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f)
#define RECORD_7(N, F, a, b, c, d, e, f, g)                             \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g)
#define RECORD_8(N, F, a, b, c, d, e, f, g, h)                          \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g, h)
#define RECORD_9(N, F, a, b, c, d, e, f, g, h, i)                       \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g, h, i)
#define RECORD_10(N, F, a, b, c, d, e, f, g, h, i, j)                   \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g, h, i, j)
#define RECORD_11(N, F, a, b, c, d, e, f, g, h, i, j, k)                \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g, h, i, j, k)
#define RECORD_12(N, F, a, b, c, d, e, f, g, h, i, j, k, l)             \
    RECORDER_RECORD(, N, F, a, b, c, d, e, f, g, h, i, j, k, l)
#define RECORD_FAST_0(N, F)             RECORDER_RECORD(_fast, N, F)
#define RECORD_FAST_1(N, F, a)          RECORDER_RECORD(_fast, N, F, a)
#define RECORD_FAST_2(N, F, a, b)       RECORDER_RECORD(_fast, N, F, a, b)
#define RECORD_FAST_3(N, F, a, b, c)    RECORDER_RECORD(_fast, N, F, a, b, c)
#define RECORD_FAST_4(N, F, a, b, c, d)                                 \
    RECORDER_RECORD(_fast, N, F, a, b, c, d)
#define RECORD_FAST_5(N, F, a, b, c, d, e)                              \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e)
#define RECORD_FAST_6(N, F, a, b, c, d, e, f)                           \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f)
#define RECORD_FAST_7(N, F, a, b, c, d, e, f, g)                        \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g)
#define RECORD_FAST_8(N, F, a, b, c, d, e, f, g, h)                     \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g, h)
#define RECORD_FAST_9(N, F, a, b, c, d, e, f, g, h, i)                  \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g, h, i)
#define RECORD_FAST_10(N, F, a, b, c, d, e, f, g, h, i, j)              \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g, h, i, j)
#define RECORD_FAST_11(N, F, a, b, c, d, e, f, g, h, i, j, k)           \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g, h, i, j, k)
#define RECORD_FAST_12(N, F, a, b, c, d, e, f, g, h, i, j, k, l)        \
    RECORDER_RECORD(_fast, N, F, a, b, c, d, e, f, g, h, i, j, k, l)

/* A record as 1.2 kept it; recorder_trace_entry() prints one. */
typedef struct recorder_entry
{
    const char *format;         /* RECORDER_SOURCE_LOCATION, then format */
    uintptr_t   order;
    uintptr_t   timestamp;      /* recorder_tick() units */
    const char *where;          /* RECORDER_SOURCE_FUNCTION */
    uintptr_t   args[4];
} recorder_entry;

/* Records made by the recorder_append functions below (record() keeps no
 * count shared by all threads: see ORDER in recorder(3)). */
extern uintptr_t recorder_order;

/* Record into 'rec' with a 1.2 location-prefixed format and its function,
 * 4, 8 (append2) or 12 (append3) arguments, as record() or (_fast)
 * record_fast() would; return the record's ORDER, its index in the lane. */
extern ringidx_t recorder_append(recorder_info *rec, const char *where,
                                 const char *format, uintptr_t a0,
                                 uintptr_t a1, uintptr_t a2, uintptr_t a3);
extern ringidx_t recorder_append2(recorder_info *rec, const char *where,
                                  const char *format, uintptr_t a0,
                                  uintptr_t a1, uintptr_t a2, uintptr_t a3,
                                  uintptr_t a4, uintptr_t a5, uintptr_t a6,
                                  uintptr_t a7);
extern ringidx_t recorder_append3(recorder_info *rec, const char *where,
                                  const char *format, uintptr_t a0,
                                  uintptr_t a1, uintptr_t a2, uintptr_t a3,
                                  uintptr_t a4, uintptr_t a5, uintptr_t a6,
                                  uintptr_t a7, uintptr_t a8, uintptr_t a9,
                                  uintptr_t a10, uintptr_t a11);
extern ringidx_t recorder_append_fast(recorder_info *rec, const char *where,
                                      const char *format, uintptr_t a0,
                                      uintptr_t a1, uintptr_t a2,
                                      uintptr_t a3);
extern ringidx_t recorder_append_fast2(recorder_info *rec, const char *where,
                                       const char *format, uintptr_t a0,
                                       uintptr_t a1, uintptr_t a2,
                                       uintptr_t a3, uintptr_t a4,
                                       uintptr_t a5, uintptr_t a6,
                                       uintptr_t a7);
extern ringidx_t recorder_append_fast3(recorder_info *rec, const char *where,
                                       const char *format, uintptr_t a0,
                                       uintptr_t a1, uintptr_t a2,
                                       uintptr_t a3, uintptr_t a4,
                                       uintptr_t a5, uintptr_t a6,
                                       uintptr_t a7, uintptr_t a8,
                                       uintptr_t a9, uintptr_t a10,
                                       uintptr_t a11);

/* Print 'entry' as a trace line of 'info' (its time is entry->timestamp). */
extern void recorder_trace_entry(recorder_info *info, recorder_entry *entry);

/* The shared segment readers open when given no path: $RECORDER_SHARE,
 * else /tmp/recorder_share (see recorder_share_default_path). */
extern const char *recorder_export_file(void);

/* ------------------------------------------------------------------------ */
/*   Timing helpers                                                         */
/* ------------------------------------------------------------------------ */

/* Microseconds (RECORDER_HZ) since the library started. */
extern uintptr_t recorder_tick(void);

/* Measure a block of code; once a second, record into 'Recorder' the rate
 * of 'Value' per second, the total, the loops per second and the average
 * duration of the block in microseconds. */
#define RECORD_TIMING_BEGIN(Recorder)                                   \
    do                                                                  \
    {                                                                   \
        static uintptr_t recorder_timing_since = 0;                     \
        static uintptr_t recorder_timing_total = 0;                     \
        static uintptr_t recorder_timing_value = 0;                     \
        static uintptr_t recorder_timing_duration = 0;                  \
        static uintptr_t recorder_timing_loops = 0;                     \
        uintptr_t recorder_timing_start = recorder_tick()

#define RECORD_TIMING_END(Recorder, Operation, Name, Value)             \
        uintptr_t recorder_timing_end = recorder_tick();                \
        uintptr_t recorder_timing_v = (uintptr_t) (Value);              \
        recorder_ring_fetch_add(recorder_timing_total, recorder_timing_v); \
        recorder_ring_fetch_add(recorder_timing_value, recorder_timing_v); \
        recorder_ring_fetch_add(recorder_timing_duration,               \
                                recorder_timing_end - recorder_timing_start); \
        recorder_ring_fetch_add(recorder_timing_loops, 1);              \
        uintptr_t recorder_timing_known = recorder_timing_since;        \
        uintptr_t recorder_timing_span =                                \
            recorder_timing_end - recorder_timing_known;                \
        if (recorder_timing_span >= RECORDER_HZ &&                      \
            recorder_ring_compare_exchange(recorder_timing_since,       \
                                           recorder_timing_known,       \
                                           recorder_timing_end))        \
        {                                                               \
            double recorder_timing_scale =                              \
                (double) RECORDER_HZ / recorder_timing_span;            \
            uintptr_t recorder_timing_n = recorder_timing_loops;        \
            record(Recorder,                                            \
                   Operation " %.2f " Name "/s, total %lu, "            \
                   "%.2f loops/s, avg duration %.2f us",                \
                   recorder_timing_value * recorder_timing_scale,       \
                   (unsigned long) recorder_timing_total,               \
                   recorder_timing_n * recorder_timing_scale,           \
                   recorder_timing_n                                    \
                   ? (double) recorder_timing_duration / recorder_timing_n \
                   : 0.0);                                              \
            recorder_timing_value = 0;                                  \
            recorder_timing_duration = 0;                               \
            recorder_timing_loops = 0;                                  \
        }                                                               \
    } while (0)

/* ------------------------------------------------------------------------ */
/*   Dumping                                                                */
/* ------------------------------------------------------------------------ */
/* Dumps print the records not yet dumped, merged across recorders in time
 * order, and return how many they printed. From gdb: 'p recorder_dump()'. */

extern unsigned recorder_dump(void);
extern unsigned recorder_dump_for(const char *regex);

/* Write every record the rings keep (dumped or not: this moves nothing),
 * and the arguments exported as channels, to the file 'path' as Chrome
 * trace-event JSON, the format recorder_scope -D --format chrome-json
 * writes for a segment (the Perfetto UI and chrome://tracing open it).
 * Returns the records written, or -1 with errno set. The trace
 * specification item chrome=FILE writes it at exit. */
extern int recorder_dump_chrome_json(const char *path);

/* Write 'len' bytes of 'text' to 'output', one line without its newline
 * (as in recorder 1.2: the default adds it). Return what was written. */
typedef unsigned (*recorder_show_fn)(const char *text, size_t len,
                                     void *output);

/* Lay out one line and show it without its newline, as recorder 1.2 did.
 * 'location' is the function that recorded, 'message' the rendered record
 * after its "FILE:LINE:" ("" and no prefix for an unknown site). 'order' is
 * the record's index in its recorder; 'timestamp' is in RECORDER_HZ units
 * since the library started. */
typedef void (*recorder_format_fn)(recorder_show_fn show, void *output,
                                   const char *label, const char *location,
                                   uintptr_t order, uintptr_t timestamp,
                                   const char *message);

/* Render a custom conversion, e.g. %X for recorder_configure_type('X', fn).
 * 'trace' is the recorder's trace value, with bit 0 set for "%+X";
 * 'format' is the whole conversion text ("%+08X"). Write at most 'length'
 * bytes to 'buffer' and return how many were written. */
typedef size_t (*recorder_type_fn)(intptr_t trace, const char *format,
                                   char *buffer, size_t length,
                                   uintptr_t data);

/* Each returns the previous setting (the default function, which may be
 * called, when none was set). The default output is stderr (a FILE *); the
 * default show function writes to it. */
extern void *             recorder_configure_output(void *output);
extern recorder_show_fn   recorder_configure_show(recorder_show_fn show);
extern recorder_format_fn recorder_configure_format(recorder_format_fn fmt);
extern recorder_type_fn   recorder_configure_type(uint8_t id,
                                                  recorder_type_fn type);

/* Dump the recorders matching 'regex' with the given functions. */
extern unsigned recorder_sort(const char *regex, recorder_format_fn format,
                              recorder_show_fn show, void *show_arg);

/* Dump the recorders matching 'regex' every recorder_dump_sleep ms from a
 * background thread, until recorder_background_dump_stop(). */
extern void recorder_background_dump(const char *regex);
extern void recorder_background_dump_stop(void);

/* Current indentation level of rendered records (formats starting with
 * '>' indent the records that follow, '<' unindent, '=' reset). */
extern unsigned recorder_indent(void);

/* ------------------------------------------------------------------------ */
/*   Traces, tweaks and signals                                             */
/* ------------------------------------------------------------------------ */

/* Apply a trace specification, e.g. "foo:bar=2:-baz:/noisy:.*error.*".
 * See recorder_trace_set(3). Every item is applied even when one fails;
 * the first failure is returned. */
extern int recorder_trace_set(const char *spec);
enum
{
    RECORDER_TRACE_OK,
    RECORDER_TRACE_INVALID_NAME,
    RECORDER_TRACE_INVALID_VALUE
};

/* Dump the flight recorder when 'sig' arrives. */
extern void recorder_dump_on_signal(int sig);

/* Dump on SIGQUIT, SIGILL, SIGABRT, SIGBUS, SIGSEGV, SIGFPE, SIGSYS, SIGXCPU,
 * SIGXFSZ, SIGUSR1, SIGUSR2, SIGSTKFLT, SIGPWR (and SIGINFO where it
 * exists), plus the (1U << signal) bits of 'add', minus those of 'remove'.
 * Also applies RECORDER_SHARE (share there), RECORDER_TRACES,
 * RECORDER_TWEAKS and RECORDER_DUMP. */
extern void recorder_dump_on_common_signals(unsigned add, unsigned remove);

/* ------------------------------------------------------------------------ */
/*   Built-in recorders and tweaks                                          */
/* ------------------------------------------------------------------------ */

RECORDER_DECLARE(recorder);
RECORDER_DECLARE(recorder_warning);
RECORDER_DECLARE(recorder_error);
RECORDER_DECLARE(recorder_signals);
RECORDER_DECLARE(recorder_traces);

RECORDER_TWEAK_DECLARE(recorder_dump_sleep);
RECORDER_TWEAK_DECLARE(recorder_location);
RECORDER_TWEAK_DECLARE(recorder_function);
RECORDER_TWEAK_DECLARE(recorder_order);
RECORDER_TWEAK_DECLARE(recorder_abstime);
RECORDER_TWEAK_DECLARE(recorder_reltime);
RECORDER_TWEAK_DECLARE(recorder_time_precision);
RECORDER_TWEAK_DECLARE(recorder_indent);
RECORDER_TWEAK_DECLARE(recorder_export_size);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------ */
/*   Argument conversion: every scalar becomes one 64-bit word              */
/* ------------------------------------------------------------------------ */
/* Integers are sign- or zero-extended, pointers converted, and floating
 * point values stored as the bits of a double, which the renderer decodes
 * for %f, %e, %g and %a conversions. */

static inline uint64_t recorder_arg_signed(int64_t v)   { return (uint64_t) v; }
static inline uint64_t recorder_arg_unsigned(uint64_t v) { return v; }
static inline uint64_t recorder_arg_double(double d)
{
    union { double d; uint64_t u; } bits;
    bits.d = d;
    return bits.u;
}

#ifdef __cplusplus
#include <type_traits>
#include <cstddef>
#include <string>
#include <utility>
#if __cplusplus >= 201703L && defined(__has_include)
#if __has_include(<string_view>)
#include <string_view>
#define RECORDER_STRING_VIEW    1
#endif
#endif

/* RECORDER_SITE_REGISTER (g++): the initializer of a static member of a
 * class template runs with the other initializers of its file, before
 * main or when its library loads, and once per site even when the site's
 * inline function is compiled in several files. */
template <typename Here> struct recorder_site_registrar
{
    static const bool registered;
};
template <typename Here>
const bool recorder_site_registrar<Here>::registered =
    (recorder_sites_register_one(Here::site()), true);

template <typename T>
static inline typename std::enable_if<std::is_integral<T>::value ||
                                      std::is_enum<T>::value, uint64_t>::type
recorder_arg(T v)
{
    return (uint64_t) (int64_t) v;
}
template <typename T>
static inline uint64_t recorder_arg(T *p)       { return (uint64_t) (uintptr_t) p; }
static inline uint64_t recorder_arg(std::nullptr_t) { return 0; }
static inline uint64_t recorder_arg(float f)    { return recorder_arg_double(f); }
static inline uint64_t recorder_arg(double d)   { return recorder_arg_double(d); }
static inline uint64_t recorder_arg(long double d)
{
    return recorder_arg_double((double) d);
}

/* A string records its characters' address, as 's.c_str()' would, so it
 * has the lifetime of any 'const char *' argument: "%s" prints the text in
 * live traces (the string is alive while record() runs, even a temporary)
 * and the address in dumps; "%+s" makes dumps read the text, so use it
 * only for a string that outlives the dump, never a temporary. A
 * string_view records data(): it prints up to the first NUL, right for a
 * view that ends where its string does; for a part of a string, record
 * "%.*s" with (int) v.size(), v.data(). */
static inline uint64_t recorder_arg(const std::string &s)
{
    return (uint64_t) (uintptr_t) s.c_str();
}
#ifdef RECORDER_STRING_VIEW
static inline uint64_t recorder_arg(std::string_view s)
{
    return (uint64_t) (uintptr_t) s.data();
}
#endif

/* An object of a class that converts to a scalar records that scalar, the
 * one unary '+' converts it to (operator int() gives an int, operator
 * double() a double, operator const char *() a pointer). */
template <typename T>
static inline typename std::enable_if<
    std::is_class<T>::value,
    decltype(recorder_arg(+std::declval<const T &>()))>::type
recorder_arg(const T &v)
{
    return recorder_arg(+v);
}
#define RECORDER_ARG(x)         recorder_arg(x)

#else /* C */

static inline uint64_t recorder_arg_float(float f)
{
    return recorder_arg_double((double) f);
}
static inline uint64_t recorder_arg_long_double(long double d)
{
    return recorder_arg_double((double) d);
}
static inline uint64_t recorder_arg_pointer(const volatile void *p)
{
    return (uint64_t) (uintptr_t) p;
}

#define RECORDER_ARG(x)                                                 \
    _Generic((x),                                                       \
             _Bool:              recorder_arg_unsigned,                 \
             char:               recorder_arg_signed,                   \
             signed char:        recorder_arg_signed,                   \
             unsigned char:      recorder_arg_unsigned,                 \
             short:              recorder_arg_signed,                   \
             unsigned short:     recorder_arg_unsigned,                 \
             int:                recorder_arg_signed,                   \
             unsigned:           recorder_arg_unsigned,                 \
             long:               recorder_arg_signed,                   \
             unsigned long:      recorder_arg_unsigned,                 \
             long long:          recorder_arg_signed,                   \
             unsigned long long: recorder_arg_unsigned,                 \
             float:              recorder_arg_float,                    \
             double:             recorder_arg_double,                   \
             long double:        recorder_arg_long_double,              \
             default:            recorder_arg_pointer)(x)
#endif /* __cplusplus */

/* ======================================================================== */
/*   The reader API of recorder 1.2: channels of another process            */
/* ======================================================================== */
/* Kept so that 1.2 readers build unchanged; they read the segment this
 * library writes, through <recorder/recorder_share.h>, which new code
 * should use directly. recorder(3), "Reading channels the 1.2 way", says
 * where these differ from 1.2. */

#ifdef __cplusplus
extern "C" {
#endif

/* What a channel's values are. */
typedef enum recorder_type
{
    RECORDER_NONE,                      /* not known yet: no sample */
    RECORDER_INVALID,                   /* not a number */
    RECORDER_SIGNED,
    RECORDER_UNSIGNED,
    RECORDER_REAL
} recorder_type;

/* One value: the member that recorder_chan_type() names. */
typedef union recorder_data
{
    intptr_t    signed_value;
    uintptr_t   unsigned_value;
#if RECORDER_64BIT
    double      real_value;
#else
    float       real_value;
#endif
} recorder_data;

typedef struct recorder_chans *recorder_chans_p;
typedef struct recorder_chan  *recorder_chan_p;

/* Identify 1.2's own segment format (read by recorder_scope). */
#define RECORDER_CHAN_MAGIC             (0xC0DABABE ^ RECORDER_64BIT)
#define RECORDER_CHAN_VERSION           RECORDER_VERSION(1, 0, 5)
/* Samples a 1.2 channel held; the most recorder_chan_readable() gives. */
#define RECORDER_EXPORT_SIZE            2048

/* Open the segment at 'file' (NULL: recorder_share_default_path()); NULL,
 * with the reason on stderr, if it cannot be read. */
extern recorder_chans_p recorder_chans_open(const char *file);
extern void             recorder_chans_close(recorder_chans_p chans);
/* Queue a command ("name=value", "dump"...) for the writer, without
 * waiting for it to be applied; false if it cannot be queued. */
extern bool             recorder_chans_configure(recorder_chans_p chans,
                                                 const char *message);
/* False once the segment no longer belongs to the process it was opened
 * for (replaced by a newer one, moved, corrupt). */
extern bool             recorder_chans_valid(recorder_chans_p chans);

/* The next channel after 'after' (NULL: the first) whose whole name
 * matches the extended regular expression 'pattern'; NULL if none. The
 * handle lives until recorder_chans_close(). */
extern recorder_chan_p  recorder_chan_find(recorder_chans_p chans,
                                           const char *pattern,
                                           recorder_chan_p after);
extern const char *     recorder_chan_name(recorder_chan_p chan);
extern const char *     recorder_chan_description(recorder_chan_p chan);
extern const char *     recorder_chan_unit(recorder_chan_p chan);
/* Smallest and largest value the channel holds now (0 if none). */
extern recorder_data    recorder_chan_min(recorder_chan_p chan);
extern recorder_data    recorder_chan_max(recorder_chan_p chan);
extern recorder_type    recorder_chan_type(recorder_chan_p chan);
/* Records the channel's ring holds (per writing thread). */
extern size_t           recorder_chan_size(recorder_chan_p chan);
/* Samples not read yet from '*readerID' (a counter of samples read, 0 at
 * first; NULL for the handle's own), at most RECORDER_EXPORT_SIZE. */
extern size_t           recorder_chan_readable(recorder_chan_p chan,
                                               ringidx_t *readerID);
/* Read up to 'count' samples into ptr[2 * count]: for each, the time in
 * RECORDER_HZ units since the writer started (unsigned_value), then the
 * value. Returns the samples read and advances '*readerID' by as many. */
extern size_t           recorder_chan_read(recorder_chan_p chan,
                                           recorder_data *ptr, size_t count,
                                           ringidx_t *readerID);

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_H */
