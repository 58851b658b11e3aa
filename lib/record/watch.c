/* watch.c - the record path's side of snapshot conditions: check a
 * watched record, flag the condition that holds (watch_private.h). */
#include "record/watch_private.h"
#include "text/format_scan_private.h"

#include <stdint.h>

#include <string.h>

typedef struct watch_flag
{
    uint64_t hits;                      /* times the condition held */
    uint64_t first;                     /* stamp + 1 of the first hit not
                                           taken yet, 0 if none */
} __attribute__((aligned(64))) watch_flag;

static watch_flag flags[RECORDER_WATCH_SLOTS];

void recorder_watch_fire(unsigned slot, uint64_t stamp)
{
    if (slot >= RECORDER_WATCH_SLOTS)
        return;
    watch_flag *flag = &flags[slot];
    __atomic_fetch_add(&flag->hits, 1, __ATOMIC_RELAXED);
    /* Only the first hit since the thread took the last one keeps its time:
     * a storm costs one failed compare-exchange per record, no more. */
    uint64_t none = 0;
    if (__atomic_load_n(&flag->first, __ATOMIC_RELAXED) == 0)
        __atomic_compare_exchange_n(&flag->first, &none, stamp + 1, false,
                                    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

uint64_t recorder_watch_hits(unsigned slot)
{
    return slot < RECORDER_WATCH_SLOTS
               ? __atomic_load_n(&flags[slot].hits, __ATOMIC_ACQUIRE)
               : 0;
}

bool recorder_watch_take(unsigned slot, uint64_t *stamp)
{
    if (slot >= RECORDER_WATCH_SLOTS)
        return false;
    uint64_t first = __atomic_exchange_n(&flags[slot].first, 0,
                                         __ATOMIC_ACQUIRE);
    if (!first)
        return false;
    *stamp = first - 1;
    return true;
}

/* How argument 'argument' of the records of 'site' reads as a number, in
 * the low bits of a word whose high bits are the site (aligned to 16):
 * bits 0-1 the kind, bits 2-3 log2 of the integer's bytes. */
enum { KIND_NONE, KIND_SIGNED, KIND_UNSIGNED, KIND_REAL };

__attribute__((noinline, cold))
static uintptr_t reader_for(const recorder_site *site, unsigned argument)
{
    unsigned bytes;
    char kind = recorder_format_number(site->format, argument, &bytes);
    uintptr_t code = kind == 's' ? KIND_SIGNED : kind == 'u' ? KIND_UNSIGNED
                   : kind == 'r' ? KIND_REAL : KIND_NONE;
    unsigned log2 = bytes >= 8 ? 3 : bytes >= 4 ? 2 : bytes >= 2 ? 1 : 0;
    return (uintptr_t) site | code | log2 << 2;
}

/* The word as printf reads it, as 'reader' says. */
static inline double number_of(uintptr_t reader, uint64_t word)
{
    unsigned shift = 64 - (8u << ((reader >> 2) & 3));
    switch (reader & 3)
    {
    case KIND_SIGNED:
        return (double) ((int64_t) (word << shift) >> shift);
    case KIND_UNSIGNED:
        return (double) ((word << shift) >> shift);
    default:
    {
        double value;
        memcpy(&value, &word, sizeof(value));
        return value;
    }
    }
}

/* The argument as a number, false if it is not one (a string, %p). */
static inline bool value_of(recorder_watch_item *item,
                            const recorder_site *site, unsigned argument,
                            uint64_t word, double *value)
{
    unsigned way = ((uintptr_t) site >> 4) % RECORDER_WATCH_KINDS;
    uintptr_t reader = __atomic_load_n(&item->kinds[way], __ATOMIC_RELAXED);
    if (__builtin_expect((reader & ~(uintptr_t) 15) != (uintptr_t) site, 0))
    {
        /* Records of one site follow each other: scan its format once. */
        reader = reader_for(site, argument);
        __atomic_store_n(&item->kinds[way], reader, __ATOMIC_RELAXED);
    }
    if ((reader & 3) == KIND_NONE)
        return false;
    *value = number_of(reader, word);
    return true;
}

static inline double as_double(const uint64_t *bits)
{
    uint64_t word = __atomic_load_n(bits, __ATOMIC_RELAXED);
    double value;
    memcpy(&value, &word, sizeof(value));
    return value;
}

/* A Schmitt trigger per item: fires when the value reaches the level
 * after it was beyond it by the band (the scope's --trigger meaning).
 * The usual case, ready and on the quiet side, reads the level only. */
static inline bool crossed(recorder_watch_item *item, double value)
{
    uint32_t edge = __atomic_load_n(&item->edge, __ATOMIC_RELAXED);
    uint32_t ready = __atomic_load_n(&item->ready, __ATOMIC_RELAXED);
    double level = as_double(&item->level);
    bool fired = false;
    if (edge & RECORDER_WATCH_READY_RISE)
    {
        if (ready & RECORDER_WATCH_READY_RISE)
        {
            if (__builtin_expect(value >= level, 0))
                fired = __atomic_fetch_and(&item->ready,
                                           ~RECORDER_WATCH_READY_RISE,
                                           __ATOMIC_RELAXED) &
                        RECORDER_WATCH_READY_RISE;
        }
        else if (value < level - as_double(&item->band))
        {
            __atomic_fetch_or(&item->ready, RECORDER_WATCH_READY_RISE,
                              __ATOMIC_RELAXED);
        }
    }
    if (edge & RECORDER_WATCH_READY_FALL)
    {
        if (ready & RECORDER_WATCH_READY_FALL)
        {
            if (__builtin_expect(value <= level, 0))
                fired |= (__atomic_fetch_and(&item->ready,
                                             ~RECORDER_WATCH_READY_FALL,
                                             __ATOMIC_RELAXED) &
                          RECORDER_WATCH_READY_FALL) != 0;
        }
        else if (value > level + as_double(&item->band))
        {
            __atomic_fetch_or(&item->ready, RECORDER_WATCH_READY_FALL,
                              __ATOMIC_RELAXED);
        }
    }
    return fired;
}

/* Argument 'argument' of the record whose first slot is 'head' (and
 * continuation 'tail', for 6 to 12 arguments): just written by this
 * thread, so in its cache. */
static inline uint64_t argument_word(const recorder_slot *head,
                                     const recorder_slot *tail,
                                     unsigned argument)
{
    return argument < 5
               ? __atomic_load_n(&head->word[2 + argument], __ATOMIC_RELAXED)
               : __atomic_load_n(&tail->word[argument - 5], __ATOMIC_RELAXED);
}

/* Every active item of 'watch', whatever it is. */
__attribute__((noinline))
static void check_all(recorder_watch *watch, const recorder_slot *head,
                      const recorder_slot *tail)
{
    uintptr_t word = __atomic_load_n(&head->word[1], __ATOMIC_RELAXED);
    const recorder_site *site = (const recorder_site *) (word & ~(uintptr_t) 15);
    unsigned count = (unsigned) (word & 15);
    uint64_t stamp = __atomic_load_n(&head->word[0], __ATOMIC_RELAXED);
    uint32_t active = __atomic_load_n(&watch->active, __ATOMIC_ACQUIRE);
    while (active)
    {
        unsigned slot = (unsigned) __builtin_ctz(active);
        active &= active - 1;
        recorder_watch_item *item = &watch->items[slot];
        int32_t argument = __atomic_load_n(&item->argument, __ATOMIC_RELAXED);
        if (argument == RECORDER_WATCH_ANY)
        {
            recorder_watch_fire(slot, stamp);
            continue;
        }
        double value;
        if (argument < 0 || (unsigned) argument >= count ||
            (argument >= 5 && !tail) ||
            !value_of(item, site, (unsigned) argument,
                      argument_word(head, tail, (unsigned) argument), &value))
            continue;
        if (crossed(item, value))
            recorder_watch_fire(slot, stamp);
    }
}

/* The usual case first, with few registers so it needs no frame: one
 * level item on one of the first 5 arguments, a site seen before, the
 * value on the quiet side. Anything else is for check_all. */
void recorder_watch_check(recorder_watch *watch, const recorder_slot *head,
                          const recorder_slot *tail)
{
    uint32_t active = __atomic_load_n(&watch->active, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!active || (active & (active - 1)), 0))
        return check_all(watch, head, tail);
    recorder_watch_item *item = &watch->items[__builtin_ctz(active)];
    int32_t argument = __atomic_load_n(&item->argument, __ATOMIC_RELAXED);
    uintptr_t word = __atomic_load_n(&head->word[1], __ATOMIC_RELAXED);
    if (argument < 0 || argument >= 5 || (uintptr_t) argument >= (word & 15))
        return check_all(watch, head, tail);
    uintptr_t site = word & ~(uintptr_t) 15;
    uintptr_t reader = __atomic_load_n(
        &item->kinds[(site >> 4) % RECORDER_WATCH_KINDS], __ATOMIC_RELAXED);
    if ((reader & ~(uintptr_t) 15) != site || (reader & 3) == KIND_NONE)
        return check_all(watch, head, tail);
    double value = number_of(reader, __atomic_load_n(&head->word[2 + argument],
                                                     __ATOMIC_RELAXED));
    uint32_t edge = __atomic_load_n(&item->edge, __ATOMIC_RELAXED);
    uint32_t ready = __atomic_load_n(&item->ready, __ATOMIC_RELAXED) & edge;
    double level = as_double(&item->level);
    if (edge == RECORDER_WATCH_READY_RISE &&
        (ready ? value < level : value >= level - as_double(&item->band)))
        return;
    if (edge == RECORDER_WATCH_READY_FALL &&
        (ready ? value > level : value <= level + as_double(&item->band)))
        return;
    check_all(watch, head, tail);
}
