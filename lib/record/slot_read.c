/* slot_read.c - validated, lock-free reads of records from a ring. */
#include "record/slot_read_private.h"

/* Copy one slot if its sequence word says it holds 'index' as expected. */
static recorder_read_status copy_slot(const recorder_slot *slot,
                                      uint64_t index, bool continuation,
                                      uint64_t words[7])
{
    /* Acquire: pairs with the writer's release store of 'seq', so the words
     * copied below are at least as new as that commit. */
    uint64_t seq = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
    uint64_t expected = recorder_slot_seq(index, continuation);
    if (seq != expected)
    {
        if (!continuation && seq == recorder_slot_seq(index, true))
            return RECORDER_READ_CONTINUATION;
        return (int64_t) (seq - expected) < 0 ? RECORDER_READ_PENDING
                                              : RECORDER_READ_LOST;
    }
    for (unsigned w = 0; w < 7; w++)
        words[w] = __atomic_load_n(&slot->word[w], __ATOMIC_RELAXED);
    return RECORDER_READ_OK;
}

recorder_read_status recorder_slot_read(const recorder_slot *slots,
                                        uint32_t size, const uint64_t *writer,
                                        uint64_t index, recorder_record *out)
{
    uint64_t mask = size - 1;
    uint64_t head[7], tail[7];

    recorder_read_status status = copy_slot(&slots[index & mask], index,
                                            false, head);
    if (status != RECORDER_READ_OK)
        return status;

    unsigned nargs = head[1] & 0xF;
    if (nargs > RECORDER_MAX_ARGS)
        return RECORDER_READ_CORRUPT;
    unsigned nslots = nargs > 5 ? 2 : 1;
    if (nslots > size)
        return RECORDER_READ_CORRUPT;
    if (nslots == 2)
    {
        status = copy_slot(&slots[(index + 1) & mask], index + 1, true, tail);
        if (status == RECORDER_READ_CONTINUATION)
            status = RECORDER_READ_CORRUPT;
        if (status != RECORDER_READ_OK)
            return status == RECORDER_READ_PENDING ? RECORDER_READ_PENDING
                                                   : RECORDER_READ_LOST;
    }

    /* A writer that lapped us reserved the head slot again before writing
     * into it: if the writer index has not passed index + size, nothing we
     * copied can come from a later record. The fence keeps the copies above
     * from being satisfied after this load (seqlock reader side). */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint64_t written = __atomic_load_n(writer, __ATOMIC_RELAXED);
    if (written - index > size)
        return RECORDER_READ_LOST;

    out->index = index;
    out->timestamp = head[0];
    out->site = (uintptr_t) (head[1] & ~(uint64_t) 0xF);
    out->nargs = nargs;
    out->slots = nslots;
    for (unsigned a = 0; a < 5; a++)
        out->args[a] = head[2 + a];
    for (unsigned a = 0; a < 7; a++)
        out->args[5 + a] = nslots == 2 ? tail[a] : 0;
    return RECORDER_READ_OK;
}
