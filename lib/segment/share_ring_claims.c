/* share_ring_claims.c - rings that take segment memory when first used
 * (share_ring_claims_private.h).
 *
 * The ring region fills from both ends: rings of a few pages from the
 * bottom, their blocks reserved in one run a HEADROOM ahead; larger rings
 * (an export's) from the top, each lane's blocks reserved once a thread
 * may write it. Both ends are one word, moved by compare-exchange.
 */
#include "segment/share_ring_claims_private.h"
#include "segment/share_backing_private.h"
#include "segment/share_sizing_private.h"
#include "record/record_private.h"

#include <sched.h>
#include <stdlib.h>

#define NO_ROOM         UINT64_MAX
#define UNIT            64u             /* ends are counted in these */
#define PAGE            4096u
#define LARGE_LANE      (2 * PAGE)      /* a lane of this many bytes or more */
#define TEND_SOON_NS    50000000ull     /* after claims: reserve behind them */
#define TEND_WATCHING_NS 1000000000ull  /* room short: claims may wait */

enum ring_state { RING_UNCLAIMED, RING_CLAIMING, RING_PLACED };

struct ring_claims
{
    uint8_t *        base;              /* the writer's mapping */
    share_header *   header;            /* published: rings_used */
    share_recorder * entries;           /* the recorders table */
    uint64_t         region;            /* offset of the ring region */
    uint64_t         entries_offset;    /* of the recorders table */
    uint64_t         region_units;      /* its size, in units */
    uint32_t         capacity;          /* entries of the recorders table */
    uint64_t         ends;              /* atomic: low half, units claimed
                                           from the bottom; high half, where
                                           the top's claims begin */
    uint64_t         reserved;          /* atomic: bytes of the bottom whose
                                           blocks are reserved */
    bool             ample_room;        /* atomic: see judge_room */
    uint64_t         lanes_unreserved;  /* atomic: bytes of large rings'
                                           lanes not reserved */
    uint64_t         claims;            /* atomic: made by the record path */
    uint64_t         tended;            /* atomic: 'claims' at the last tend */
    uint32_t         waiting;           /* atomic: refused for want of room */
    uint64_t         unclaimed;         /* atomic: bytes of the small rings
                                           of entries with none placed */
    recorder_info ** owners;            /* per entry */
    uint32_t *       state;             /* per entry: enum ring_state */
    uint64_t *       ring_at;           /* per entry: offset in the region */
    uint32_t *       slots;             /* per entry: slots in each lane */
    uint8_t *        lanes_reserved;    /* per entry, large rings: lanes
                                           whose blocks are reserved */
};

/* The claims the record path may use, and how many of its claims are in
 * progress: the writer closes the first, then waits for the second. */
static ring_claims *open_claims;
static unsigned in_progress;

/* ---- the ring itself ------------------------------------------------------ */

static uint64_t lane_bytes(uint32_t slots)
{
    return ((uint64_t) slots + 1) * sizeof(recorder_slot);
}

static bool is_large(uint32_t slots)
{
    return lane_bytes(slots) >= LARGE_LANE;
}

bool ring_claims_recorded(const recorder_info *rec)
{
    /* Set by the record path, before it looks for claims (sequentially
     * consistent: a claim that finds them closed leaves a mark the sweep
     * after the next opening sees). The ring is not read: a never-used
     * ring is untouched memory, kept so. */
    return __atomic_load_n(&RECORDER_RECORDED(rec), __ATOMIC_SEQ_CST) != 0;
}

/* Copy the newest records of each lane of 'rec's ring into 'ring', of
 * 'slots' slots a lane, and switch the recorder's writers to it. */
static void move_into(recorder_info *rec, recorder_buffer *ring,
                      uint32_t slots)
{
    uint32_t old_size = (uint32_t) rec->mask + 1;
    const recorder_buffer *old_ring = rec->buffer;
    for (unsigned lane = 0; lane < RECORDER_LANES; lane++)
    {
        const recorder_buffer *old = RECORDER_LANE(old_ring, old_size, lane);
        recorder_buffer *copy = RECORDER_LANE(ring, slots, lane);
        const recorder_slot *from = RECORDER_BUFFER_SLOTS(old);
        recorder_slot *to = RECORDER_BUFFER_SLOTS(copy);
        uint64_t end = __atomic_load_n(&old->writer, __ATOMIC_ACQUIRE);
        uint64_t start = end > old_size ? end - old_size : 0;
        for (uint64_t i = start; i < end; i++)
        {
            const recorder_slot *src = &from[i & (old_size - 1)];
            recorder_slot *dst = &to[i & (slots - 1)];
            for (unsigned w = 0; w < 7; w++)
                dst->word[w] = __atomic_load_n(&src->word[w], __ATOMIC_RELAXED);
            dst->seq = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
        }
        copy->writer = end;
        copy->reader = old->reader;
        copy->size = slots;
    }
    /* Ring before mask: see recorder_info. */
    __atomic_store_n(&rec->buffer, ring, __ATOMIC_RELEASE);
    __atomic_store_n(&rec->mask, (uintptr_t) slots - 1, __ATOMIC_RELEASE);
}

/* ---- room in the region --------------------------------------------------- */

/* Claim 'bytes' (a multiple of UNIT) at the top for a large ring, else at
 * the bottom: the offset in the region, or NO_ROOM. The record path claims
 * past the reserved blocks only while the room is ample (judge_room). */
static uint64_t claim_room(ring_claims *c, uint64_t bytes, bool large,
                           bool from_writer)
{
    uint64_t units = bytes / UNIT;
    uint64_t ends = __atomic_load_n(&c->ends, __ATOMIC_ACQUIRE);
    for (;;)
    {
        uint64_t bottom = ends & UINT32_MAX, top = ends >> 32;
        if (top - bottom < units)
            return NO_ROOM;
        uint64_t at = large ? top - units : bottom;
        if (!from_writer &&
            (large || (at + units) * UNIT >
                      __atomic_load_n(&c->reserved, __ATOMIC_ACQUIRE)) &&
            !__atomic_load_n(&c->ample_room, __ATOMIC_ACQUIRE))
            return NO_ROOM;
        uint64_t next = large ? (top - units) << 32 | bottom
                              : top << 32 | (bottom + units);
        if (__atomic_compare_exchange_n(&c->ends, &ends, next, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return at * UNIT;
    }
}

/* Writer: is the room ample, that is may the record path write where no
 * block is reserved (a claim past the reserved ones, a large ring's lane
 * no thread wrote yet)? Only while the file system has room for every
 * ring not placed yet, every lane not reserved, and HEADROOM more: then
 * such a write cannot find it full, unless others fill it meanwhile (the
 * SIGBUS handler then takes the segment into private memory, and the
 * program says so). */
static bool judge_room(ring_claims *c)
{
    uint64_t need = __atomic_load_n(&c->unclaimed, __ATOMIC_RELAXED) +
                    __atomic_load_n(&c->lanes_unreserved, __ATOMIC_RELAXED) +
                    RING_CLAIMS_HEADROOM;
    bool ample = share_backing_free() >= need;
    __atomic_store_n(&c->ample_room, ample, __ATOMIC_RELEASE);
    return ample;
}

/* Writer: reserve the bottom's blocks up to what is claimed and HEADROOM
 * more, or an eighth of what the small rings not placed yet may take if
 * less (what is reserved ahead and never used stays small), short of the
 * top's claims; as much of it as the file system has room for. */
static bool reserve_ahead(ring_claims *c)
{
    uint64_t ends = __atomic_load_n(&c->ends, __ATOMIC_ACQUIRE);
    uint64_t ahead = __atomic_load_n(&c->unclaimed, __ATOMIC_RELAXED) / 8;
    if (ahead > RING_CLAIMS_HEADROOM)
        ahead = RING_CLAIMS_HEADROOM;
    uint64_t claimed = (ends & UINT32_MAX) * UNIT;
    uint64_t top = (ends >> 32) * UNIT;
    uint64_t want = align_up(claimed + ahead, PAGE);
    if (want > top)
        want = top;
    uint64_t reserved = __atomic_load_n(&c->reserved, __ATOMIC_ACQUIRE);
    while (want > reserved &&
           !share_back_locked(c->region + reserved, want - reserved))
        want = want - reserved > PAGE
             ? reserved + align_up((want - reserved) / 2, PAGE) : reserved;
    if (want > reserved)
        __atomic_store_n(&c->reserved, want, __ATOMIC_RELEASE);
    return want >= claimed;
}

/* Writer: of the large ring at 'at' (of 'slots' a lane), with 'had' lanes
 * reserved, reserve lanes up to 'lanes', and the first page of every lane
 * (where its head is) the first time. Returns the lanes reserved then. */
static unsigned reserve_lanes(ring_claims *c, uint64_t at, uint32_t slots,
                              unsigned had, unsigned lanes)
{
    uint64_t start = c->region + at, lane = lane_bytes(slots);
    if (!had)
    {
        for (unsigned l = 0; l < RECORDER_LANES; l++)
            if (!share_back_locked(start + l * lane, PAGE))
                return 0;
    }
    if (lanes <= had)
        return had;
    if (!share_back_locked(start + had * lane, (lanes - had) * lane))
        return had;
    __atomic_fetch_sub(&c->lanes_unreserved, (lanes - had) * lane,
                       __ATOMIC_RELAXED);
    return lanes;
}

/* Lanes of a large ring to reserve now: those threads write, all of them
 * unless the room is ample. */
static unsigned lanes_wanted(const ring_claims *c)
{
    unsigned lanes = recorder_lanes_started();
    if (!__atomic_load_n(&c->ample_room, __ATOMIC_ACQUIRE))
        return RECORDER_LANES;
    return lanes ? lanes : 1;
}

/* ---- placing a ring ------------------------------------------------------- */

/* Give entry 'index' (state RING_CLAIMING, ours) a ring of at least
 * 'slots' slots a lane in the segment, and move its recorder there. */
static bool place(ring_claims *c, unsigned index, uint32_t slots,
                  bool from_writer)
{
    recorder_info *rec = c->owners[index];
    uint32_t old_size = (uint32_t) __atomic_load_n(&rec->mask,
                                                   __ATOMIC_ACQUIRE) + 1;
    if (slots < old_size)
        slots = old_size;
    bool large = is_large(slots);
    if (from_writer)
        judge_room(c);
    uint64_t at = claim_room(c, ring_bytes(slots), large, from_writer);
    if (at == NO_ROOM)
        return false;
    unsigned lanes = 0;
    if (large)
        __atomic_fetch_add(&c->lanes_unreserved,
                           RECORDER_LANES * lane_bytes(slots),
                           __ATOMIC_RELAXED);
    if (from_writer &&
        !(large ? (lanes = reserve_lanes(c, at, slots, 0, lanes_wanted(c)))
                : reserve_ahead(c)))
        return false;                   /* the room claimed stays unused */

    recorder_buffer *ring = (recorder_buffer *) (c->base + c->region + at);
    move_into(rec, ring, slots);
    c->ring_at[index] = at;
    c->slots[index] = slots;
    c->lanes_reserved[index] = (uint8_t) lanes;
    /* Readers check the three together, then the ring's bounds: a torn
     * read shows no ring, or one in the region. */
    share_recorder *entry = &c->entries[index];
    entry->ring = c->region + at;
    __atomic_store_n(&entry->lanes, RECORDER_LANES, __ATOMIC_RELEASE);
    __atomic_store_n(&entry->ring_size, slots, __ATOMIC_RELEASE);
    return true;
}

/* A ring of 'slots' that had no place has one: no more room kept for it. */
static void claimed_now(ring_claims *c, uint32_t slots)
{
    if (!is_large(slots))
        __atomic_fetch_sub(&c->unclaimed, ring_bytes(slots), __ATOMIC_RELAXED);
}

bool ring_claims_place(ring_claims *c, unsigned index, uint32_t slots)
{
    if (!c || index >= c->capacity || !c->owners[index])
        return false;
    uint32_t was;
    for (;;)
    {
        was = __atomic_load_n(&c->state[index], __ATOMIC_ACQUIRE);
        if (was == RING_CLAIMING)
        {
            sched_yield();              /* a record path's claim, short */
            continue;
        }
        if (was == RING_PLACED && slots <= c->slots[index])
            return true;
        if (__atomic_compare_exchange_n(&c->state[index], &was, RING_CLAIMING,
                                        false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            break;
    }
    uint32_t old_slots = (uint32_t) c->owners[index]->mask + 1;
    unsigned old_lanes = c->lanes_reserved[index];
    bool placed = place(c, index, slots, true);
    if (placed && was == RING_UNCLAIMED)
        claimed_now(c, old_slots);
    else if (placed && is_large(old_slots))
        __atomic_fetch_sub(&c->lanes_unreserved, (RECORDER_LANES - old_lanes) *
                           lane_bytes(old_slots), __ATOMIC_RELAXED);
    __atomic_store_n(&c->state[index], placed ? RING_PLACED : was,
                     __ATOMIC_RELEASE);
    return placed || was == RING_PLACED;
}

void ring_claims_first_record(recorder_info *rec)
{
    __atomic_fetch_add(&in_progress, 1, __ATOMIC_SEQ_CST);
    ring_claims *c = __atomic_load_n(&open_claims, __ATOMIC_SEQ_CST);
    uintptr_t entry = __atomic_load_n(&RECORDER_SHARED_ENTRY(rec),
                                      __ATOMIC_ACQUIRE);
    uint32_t unclaimed = RING_UNCLAIMED;
    if (c && entry && entry <= c->capacity &&
        __atomic_load_n(&c->owners[entry - 1], __ATOMIC_ACQUIRE) == rec &&
        __atomic_compare_exchange_n(&c->state[entry - 1], &unclaimed,
                                    RING_CLAIMING, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    {
        uint32_t old_slots = (uint32_t) rec->mask + 1;
        bool placed = place(c, (unsigned) entry - 1, 0, false);
        if (placed)
            claimed_now(c, old_slots);
        __atomic_store_n(&c->state[entry - 1],
                         placed ? RING_PLACED : RING_UNCLAIMED,
                         __ATOMIC_RELEASE);
        if (placed)
            __atomic_fetch_add(&c->claims, 1, __ATOMIC_RELEASE);
        else
            __atomic_fetch_add(&c->waiting, 1, __ATOMIC_RELEASE);
    }
    __atomic_fetch_sub(&in_progress, 1, __ATOMIC_RELEASE);
}

/* ---- the claims of a segment ---------------------------------------------- */

ring_claims *ring_claims_make(const share_header *layout)
{
    uint32_t n = layout->recorders.capacity ? layout->recorders.capacity : 1;
    ring_claims *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->owners = calloc(n, sizeof(*c->owners));
    c->state = calloc(n, sizeof(*c->state));
    c->ring_at = calloc(n, sizeof(*c->ring_at));
    c->slots = calloc(n, sizeof(*c->slots));
    c->lanes_reserved = calloc(n, sizeof(*c->lanes_reserved));
    if (!c->owners || !c->state || !c->ring_at || !c->slots ||
        !c->lanes_reserved)
    {
        ring_claims_free(c);
        return NULL;
    }
    c->region = layout->rings.offset;
    c->capacity = layout->recorders.capacity;
    c->region_units = layout->rings.size / UNIT;
    c->ends = c->region_units << 32;
    c->ample_room = false;              /* judged before any claim */
    c->entries_offset = layout->recorders.offset;
    return c;
}

void ring_claims_map(ring_claims *c, share_view view)
{
    c->base = view.base;
    c->header = (share_header *) view.base;
    c->entries = (share_recorder *) (view.base + c->entries_offset);
}

void ring_claims_own(ring_claims *c, unsigned index, recorder_info *rec)
{
    if (!c || index >= c->capacity)
        return;
    uint32_t slots = (uint32_t) rec->mask + 1;
    if (!is_large(slots))
        __atomic_fetch_add(&c->unclaimed, ring_bytes(slots), __ATOMIC_RELAXED);
    __atomic_store_n(&c->owners[index], rec, __ATOMIC_RELEASE);
    /* For the record path to find the entry. */
    __atomic_store_n(&RECORDER_SHARED_ENTRY(rec), (uintptr_t) index + 1,
                     __ATOMIC_RELEASE);
}

void ring_claims_open(ring_claims *c)
{
    __atomic_store_n(&open_claims, c, __ATOMIC_SEQ_CST);
    if (c)
        ring_claims_tend(c);            /* those that recorded meanwhile */
}

void ring_claims_close(ring_claims *c)
{
    if (!c)
        return;
    ring_claims *expected = c;
    __atomic_compare_exchange_n(&open_claims, &expected, NULL, false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    /* A claim that saw 'c' open counted itself first: wait for it. */
    while (__atomic_load_n(&in_progress, __ATOMIC_SEQ_CST))
        sched_yield();
}

bool ring_claims_had_ring(const ring_claims *c, const recorder_info *rec)
{
    uintptr_t entry = RECORDER_SHARED_ENTRY(rec);
    return c && entry && entry <= c->capacity &&
           c->owners[entry - 1] == rec &&
           c->state[entry - 1] == RING_PLACED;
}

void ring_claims_free(ring_claims *c)
{
    if (!c)
        return;
    free(c->owners);
    free(c->state);
    free(c->ring_at);
    free(c->slots);
    free(c->lanes_reserved);
    free(c);
}

void ring_claims_forget(void)
{
    __atomic_store_n(&open_claims, NULL, __ATOMIC_SEQ_CST);
    __atomic_store_n(&in_progress, 0, __ATOMIC_SEQ_CST);
}

void ring_claims_tend(ring_claims *c)
{
    if (!c)
        return;
    uint64_t claims = __atomic_load_n(&c->claims, __ATOMIC_ACQUIRE);
    __atomic_store_n(&c->waiting, 0, __ATOMIC_RELEASE);
    judge_room(c);
    bool room = reserve_ahead(c);
    unsigned lanes = lanes_wanted(c);
    for (unsigned i = 0; i < c->capacity; i++)
    {
        recorder_info *rec = __atomic_load_n(&c->owners[i], __ATOMIC_ACQUIRE);
        if (!rec)
            break;
        uint32_t state = __atomic_load_n(&c->state[i], __ATOMIC_ACQUIRE);
        if (state == RING_PLACED && is_large(c->slots[i]) &&
            c->lanes_reserved[i] < lanes)
            c->lanes_reserved[i] = (uint8_t)
                reserve_lanes(c, c->ring_at[i], c->slots[i],
                              c->lanes_reserved[i], lanes);
        else if (state == RING_UNCLAIMED && room && ring_claims_recorded(rec))
            room = ring_claims_place(c, i, 0);
    }
    uint64_t ends = __atomic_load_n(&c->ends, __ATOMIC_ACQUIRE);
    c->header->rings_used = ((ends & UINT32_MAX) + c->region_units -
                             (ends >> 32)) * UNIT;
    __atomic_store_n(&c->tended, claims, __ATOMIC_RELEASE);
}

uint64_t ring_claims_next_tend_ns(void)
{
    __atomic_fetch_add(&in_progress, 1, __ATOMIC_SEQ_CST);
    ring_claims *c = __atomic_load_n(&open_claims, __ATOMIC_SEQ_CST);
    uint64_t after = 0;
    if (c)
    {
        uint64_t ends = __atomic_load_n(&c->ends, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&c->claims, __ATOMIC_ACQUIRE) !=
                __atomic_load_n(&c->tended, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&c->waiting, __ATOMIC_ACQUIRE) ||
            (ends & UINT32_MAX) * UNIT >
                __atomic_load_n(&c->reserved, __ATOMIC_ACQUIRE))
            after = TEND_SOON_NS;
        else if (!__atomic_load_n(&c->ample_room, __ATOMIC_ACQUIRE) &&
                 __atomic_load_n(&c->unclaimed, __ATOMIC_RELAXED))
            after = TEND_WATCHING_NS;
    }
    __atomic_fetch_sub(&in_progress, 1, __ATOMIC_RELEASE);
    return after;
}
