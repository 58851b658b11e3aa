/* recorder_ring.h - atomic helpers, and a lock-free ring usable on its own.
 *
 * The atomic macros keep the names of the original recorder library so code
 * that used them for its own counters builds unchanged. They take an lvalue,
 * not a pointer, like the original.
 *
 * The ring is the generic one of recorder 1.2: an array of 'size' items of
 * 'item_size' bytes after a header with four indices that only grow (and
 * wrap around, so compare differences, never values):
 *   writer    items reserved by writers so far;
 *   commit    items whose copy is complete: readers read up to it;
 *   reader    items consumed by readers sharing the ring's own index;
 *   overflow  items readers skipped because writers had overwritten them;
 *   released  items shared readers finished copying (a reader takes its
 *             items first, then copies them): writers that wait for room
 *             wait for this one, so no slot is reused while being read.
 * Several threads may write and read at once without a lock. What happens
 * when the ring is full or empty is up to callbacks the caller passes: see
 * recorder_ring_block_fn and recorder_ring(3). The recorder's own flight
 * recorder does not use this ring.
 */
#ifndef RECORDER_RING_H
#define RECORDER_RING_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Index into a ring; wraps around, so compare differences, never values. */
typedef uintptr_t ringidx_t;

#if defined(__GNUC__) || defined(__clang__)

/* Acquire on the read-modify-write keeps the stores that follow (filling the
 * slot just reserved) from being seen before the reservation itself. */
#define recorder_ring_fetch_add(Value, Offset)                          \
    __atomic_fetch_add(&(Value), (Offset), __ATOMIC_ACQUIRE)

#define recorder_ring_add_fetch(Value, Offset)                          \
    __atomic_add_fetch(&(Value), (Offset), __ATOMIC_ACQUIRE)

#define recorder_ring_compare_exchange(Value, Expected, New)            \
    __atomic_compare_exchange_n(&(Value), &(Expected), (New), 0,       \
                                __ATOMIC_RELEASE, __ATOMIC_RELAXED)

/* Read what another thread published with recorder_ring_store (acquire),
 * publish what was written before (release). */
#define recorder_ring_load(Value)                                       \
    __atomic_load_n(&(Value), __ATOMIC_ACQUIRE)

#define recorder_ring_store(Value, New)                                 \
    __atomic_store_n(&(Value), (New), __ATOMIC_RELEASE)

#define RECORDER_RING_MAYBE_UNUSED      __attribute__((unused))

#else
#error "recorder needs a compiler with GCC-style __atomic built-ins"
#endif

/* ------------------------------------------------------------------------ */
/*   The generic ring                                                       */
/* ------------------------------------------------------------------------ */

typedef struct recorder_ring
{
    size_t      size;                   /* items in the array after this */
    size_t      item_size;              /* bytes per item */
    ringidx_t   reader;                 /* next item for shared readers */
    ringidx_t   writer;                 /* next item a writer reserves */
    ringidx_t   commit;                 /* items before it are complete */
    ringidx_t   overflow;               /* items readers lost to writers */
    ringidx_t   released;               /* items shared readers are done
                                           with: writers may reuse their
                                           slots (not in recorder 1.2) */
} recorder_ring_t, *recorder_ring_p;

/* Called when an operation on 'ring' cannot go on at once: a write with
 * too little room (items from..to would overwrite unread ones), a commit
 * that must wait for an earlier writer (from is the commit index now, to
 * where this writer's items start), a read of more than is committed
 * (from..to are the items wanted), a read that finds items overwritten
 * (from is the reader, to the first item still intact). The indices are
 * passed because the ring's may have moved by the time it looks.
 *   Write, commit, read: return true once the situation may have changed
 *   (typically after waiting), and the operation looks again; false to do
 *   what can be done now (write or read fewer items, commit out of order).
 *   Overflow: false to skip to the first intact item, true to read on;
 *   either way items found overwritten are never returned, and are
 *   counted in 'overflow'.
 * NULL means: overwrite for writes, wait for commits, read what is there
 * for reads, skip for overflows. */
typedef bool (*recorder_ring_block_fn)(recorder_ring_p ring,
                                       ringidx_t from, ringidx_t to);

/* Set up a ring in caller memory: sizeof(recorder_ring_t) bytes followed
 * by size * item_size bytes. Returns 'ring'. */
extern recorder_ring_p  recorder_ring_init(recorder_ring_p ring,
                                           size_t size, size_t item_size);
/* Allocate and set up a ring; NULL if out of memory or size is 0. */
extern recorder_ring_p  recorder_ring_new(size_t size, size_t item_size);
extern void             recorder_ring_delete(recorder_ring_p ring);

/* Items committed and not yet read from '*reader' (the ring's own reader
 * index if NULL), at most 'size'. */
extern size_t           recorder_ring_readable(recorder_ring_p ring,
                                               ringidx_t *reader);
/* Items that can be written before unread ones would be overwritten,
 * counted from the ring's reader index as in 1.2. */
extern size_t           recorder_ring_writable(recorder_ring_p ring);

/* Copy up to 'count' items to 'data', from '*reader' (the ring's own
 * reader, shared by every caller passing NULL, if NULL), and advance it.
 * Returns the items read; they are consecutive. */
extern size_t           recorder_ring_read(recorder_ring_p ring,
                                           void *data, size_t count,
                                           ringidx_t *reader,
                                           recorder_ring_block_fn read_block,
                                           recorder_ring_block_fn read_overflow);
/* The next item shared readers would read, without reading it; NULL if
 * there is none. */
extern void *           recorder_ring_peek(recorder_ring_p ring);
/* Copy 'count' items from 'data' into the ring, as one block no other
 * writer's items interleave with. Returns the items written; their first
 * index goes to '*writer' if not NULL. */
extern ringidx_t        recorder_ring_write(recorder_ring_p ring,
                                            const void *data, size_t count,
                                            recorder_ring_block_fn write_block,
                                            recorder_ring_block_fn commit_block,
                                            ringidx_t *writer);

/* The items start right after the header: a type whose alignment would put
 * them elsewhere cannot be held in a typed or static ring. */
#ifdef __cplusplus
#define RECORDER_RING_CHECK_LAYOUT(Struct)                              \
    static_assert(offsetof(Struct, data) == sizeof(recorder_ring_t),    \
                  "ring items must follow the ring header")
#else
#define RECORDER_RING_CHECK_LAYOUT(Struct)                              \
    _Static_assert(offsetof(Struct, data) == sizeof(recorder_ring_t),   \
                   "ring items must follow the ring header")
#endif

/* ------------------------------------------------------------------------ */
/*   Rings of a given type, allocated with Ring_new(size)                   */
/* ------------------------------------------------------------------------ */

#define RECORDER_RING_TYPE_DECLARE(Ring, Type)                          \
    typedef struct Ring                                                 \
    {                                                                   \
        recorder_ring_t ring;                                           \
        Type            data[];                                         \
    } Ring;                                                             \
    RECORDER_RING_CHECK_LAYOUT(Ring);                                   \
                                                                        \
    typedef bool (*Ring##_block_fn)(Ring *, ringidx_t, ringidx_t);      \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    Ring *Ring##_new(size_t size)                                       \
    {                                                                   \
        return (Ring *) recorder_ring_new(size, sizeof(Type));          \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    void Ring##_delete(Ring *rb)                                        \
    {                                                                   \
        recorder_ring_delete(&rb->ring);                                \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    Type *Ring##_peek(Ring *rb)                                         \
    {                                                                   \
        return (Type *) recorder_ring_peek(&rb->ring);                  \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Ring##_read(Ring *rb, Type *ptr, size_t count,               \
                       ringidx_t *reader,                               \
                       Ring##_block_fn block, Ring##_block_fn overflow) \
    {                                                                   \
        return recorder_ring_read(&rb->ring, ptr, count, reader,        \
                                  (recorder_ring_block_fn) block,       \
                                  (recorder_ring_block_fn) overflow);   \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Ring##_write(Ring *rb, const Type *ptr, size_t count,        \
                        Ring##_block_fn write_block,                    \
                        Ring##_block_fn commit_block,                   \
                        ringidx_t *writer)                              \
    {                                                                   \
        return recorder_ring_write(&rb->ring, ptr, count,               \
                                   (recorder_ring_block_fn) write_block, \
                                   (recorder_ring_block_fn) commit_block, \
                                   writer);                             \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Ring##_readable(Ring *rb)                                    \
    {                                                                   \
        return recorder_ring_readable(&rb->ring, NULL);                 \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Ring##_writable(Ring *rb)                                    \
    {                                                                   \
        return recorder_ring_writable(&rb->ring);                       \
    }

/* ------------------------------------------------------------------------ */
/*   A named ring of Size items of Type, in static memory                   */
/* ------------------------------------------------------------------------ */
/* RECORDER_RING_DECLARE in a header, RECORDER_RING_DEFINE in one source. */

#define RECORDER_RING_DECLARE(Name, Type, Size)                         \
    extern struct Name##_ring                                           \
    {                                                                   \
        recorder_ring_t ring;                                           \
        Type            data[Size];                                     \
    } Name;                                                             \
    RECORDER_RING_CHECK_LAYOUT(struct Name##_ring);                     \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_readable(void)                                        \
    {                                                                   \
        return recorder_ring_readable(&Name.ring, NULL);                \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_writable(void)                                        \
    {                                                                   \
        return recorder_ring_writable(&Name.ring);                      \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    Type *Name##_peek(void)                                             \
    {                                                                   \
        return (Type *) recorder_ring_peek(&Name.ring);                 \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_read(Type *ptr, ringidx_t count)                      \
    {                                                                   \
        return recorder_ring_read(&Name.ring, ptr, count,               \
                                  NULL, NULL, NULL);                    \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_write(const Type *ptr, ringidx_t count)               \
    {                                                                   \
        return recorder_ring_write(&Name.ring, ptr, count,              \
                                   NULL, NULL, NULL);                   \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_block_read(Type *ptr, size_t count,                   \
                             ringidx_t *reader,                         \
                             recorder_ring_block_fn block,              \
                             recorder_ring_block_fn overflow)           \
    {                                                                   \
        return recorder_ring_read(&Name.ring, ptr, count,               \
                                  reader, block, overflow);             \
    }                                                                   \
                                                                        \
    static inline RECORDER_RING_MAYBE_UNUSED                            \
    size_t Name##_block_write(const Type *ptr, size_t count,            \
                              recorder_ring_block_fn write_block,       \
                              recorder_ring_block_fn commit_block,      \
                              ringidx_t *writer)                        \
    {                                                                   \
        return recorder_ring_write(&Name.ring, ptr, count,              \
                                   write_block, commit_block, writer);  \
    }

#ifdef __cplusplus
#define RECORDER_RING_DEFINE(Name, Type, Size)                          \
    struct Name##_ring Name = { { (Size), sizeof(Type), 0, 0, 0, 0, 0 }, { } };
#else
#define RECORDER_RING_DEFINE(Name, Type, Size)                          \
    struct Name##_ring Name =                                           \
        { .ring = { (Size), sizeof(Type), 0, 0, 0, 0, 0 } };
#endif

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_RING_H */
