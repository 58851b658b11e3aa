/* ctf_stream_private.h - pack flight recorder records into CTF 1.8 packets. */
#ifndef RECORDER_CTF_STREAM_PRIVATE_H
#define RECORDER_CTF_STREAM_PRIVATE_H

#include "base/visibility_private.h"

#include "segment/ctf_metadata_private.h"

#include <stddef.h>

/* Bytes of a packet header (magic, uuid, stream id) and context
 * (timestamps, sizes, sequence number, discarded events). */
#define CTF_PACKET_HEADER_SIZE  24
#define CTF_PACKET_CONTEXT_SIZE 48
/* Longest string field kept (the rest is cut, as for the message). */
#define CTF_STRING_MAX          8192

typedef struct ctf_value
{
    ctf_field_type type;
    union
    {
        int64_t     i;
        uint64_t    u;
        double      r;
        const char *s;                  /* NULL is written as "" */
    } value;
} ctf_value;

/* One record, as an event of class 'id'. Its values must have the
 * types of the class (ctf_stream does not know the classes). */
typedef struct ctf_event
{
    uint32_t         id;
    uint64_t         timestamp;         /* clock cycles (ns) */
    const char *     procname;
    uint32_t         vpid;
    uint32_t         lane;
    const char *     format;
    const char *     message;
    unsigned         nargs;
    const ctf_value *args;
} ctf_event;

typedef struct ctf_stream
{
    FILE *   out;
    uint8_t  uuid[16];
    size_t   packet_max;                /* a packet ends past this size */
    uint8_t *buffer;
    size_t   used, room;
    unsigned events;                    /* in the packet being filled */
    uint64_t begin, end;                /* its first and last timestamps */
    uint64_t sequence;                  /* packets written */
    uint64_t discarded;                 /* records lost, all along */
    uint64_t total;                     /* events written, all along */
    bool     failed;                    /* a write or an allocation */
    int      error;                     /* its errno */
} ctf_stream;

/* A stream writing native-order packets of about 'packet_max' bytes to
 * 'out' (an event larger than that gets a packet of its own). */
extern void ctf_stream_init(ctf_stream *stream, FILE *out,
                            const uint8_t uuid[16], size_t packet_max)
    RECORDER_HIDDEN;
/* Add 'event'. Timestamps never go back: an earlier one (only from a
 * damaged segment) is written as the latest so far. False once a write
 * or an allocation failed ('error' then says why). */
extern bool ctf_stream_event(ctf_stream *stream, const ctf_event *event)
    RECORDER_HIDDEN;
/* Records lost before the next event (the packet's events_discarded
 * counts all of them so far, as CTF 1.8 wants). */
extern void ctf_stream_discard(ctf_stream *stream, uint64_t lost)
    RECORDER_HIDDEN;
/* Write the last packet (an empty one at 'timestamp' if the stream had
 * no event at all: every stream file holds a packet) and free the
 * buffer. False if anything failed. */
extern bool ctf_stream_finish(ctf_stream *stream, uint64_t timestamp)
    RECORDER_HIDDEN;

#endif /* RECORDER_CTF_STREAM_PRIVATE_H */
