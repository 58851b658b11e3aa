/* ctf_stream.c - pack flight recorder records into CTF 1.8 packets.
 *
 * The layout is the one ctf_metadata.c declares, every field byte-aligned
 * and in the host's byte order (the metadata says which):
 *   packet header   magic u32, uuid[16], stream_id u32
 *   packet context  timestamp_begin, timestamp_end, content_size,
 *                   packet_size, packet_seq_num, events_discarded (u64)
 *   event header    id u32, timestamp u64
 *   event context   _procname string, _vpid u32, _lane u32
 *   event fields    format string, message string, then the arguments:
 *                   8 bytes each (integer or double), or a string.
 * A packet is filled in memory, then its header and context are set and
 * it is written whole; sizes are in bits, as CTF counts them.
 */
#include "segment/ctf_stream_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CTF_MAGIC               0xC1FC1FC1u

void ctf_stream_init(ctf_stream *stream, FILE *out, const uint8_t uuid[16],
                     size_t packet_max)
{
    memset(stream, 0, sizeof(*stream));
    stream->out = out;
    memcpy(stream->uuid, uuid, sizeof(stream->uuid));
    stream->packet_max = packet_max;
}

static bool reserve(ctf_stream *stream, size_t more)
{
    if (stream->failed)
        return false;
    if (stream->used + more <= stream->room)
        return true;
    size_t room = stream->room ? stream->room : 4096;
    while (room < stream->used + more)
        room *= 2;
    uint8_t *grown = realloc(stream->buffer, room);
    if (!grown)
    {
        stream->failed = true;
        stream->error = ENOMEM;
        return false;
    }
    stream->buffer = grown;
    stream->room = room;
    return true;
}

/* Callers reserved the room. */
static void put(ctf_stream *stream, const void *data, size_t size)
{
    memcpy(stream->buffer + stream->used, data, size);
    stream->used += size;
}

static void put_u32(ctf_stream *stream, uint32_t value)
{
    put(stream, &value, sizeof(value));
}

static void put_u64(ctf_stream *stream, uint64_t value)
{
    put(stream, &value, sizeof(value));
}

static size_t string_size(const char *text)
{
    return (text ? strnlen(text, CTF_STRING_MAX) : 0) + 1;
}

static void put_string(ctf_stream *stream, const char *text)
{
    size_t size = string_size(text);
    if (size > 1)
        put(stream, text, size - 1);
    stream->buffer[stream->used++] = 0;
}

static void set_u64(ctf_stream *stream, size_t at, uint64_t value)
{
    memcpy(stream->buffer + at, &value, sizeof(value));
}

/* Start a packet: its header now, its context once it is full. */
static bool open_packet(ctf_stream *stream)
{
    if (!reserve(stream, CTF_PACKET_HEADER_SIZE + CTF_PACKET_CONTEXT_SIZE))
        return false;
    put_u32(stream, CTF_MAGIC);
    put(stream, stream->uuid, sizeof(stream->uuid));
    put_u32(stream, 0);                         /* stream class 0 */
    memset(stream->buffer + stream->used, 0, CTF_PACKET_CONTEXT_SIZE);
    stream->used += CTF_PACKET_CONTEXT_SIZE;
    stream->events = 0;
    return true;
}

static bool close_packet(ctf_stream *stream)
{
    if (stream->failed || !stream->used)
        return !stream->failed;
    size_t context = CTF_PACKET_HEADER_SIZE;
    uint64_t bits = (uint64_t) stream->used * 8;
    set_u64(stream, context, stream->begin);
    set_u64(stream, context + 8, stream->end);
    set_u64(stream, context + 16, bits);        /* content_size */
    set_u64(stream, context + 24, bits);        /* packet_size */
    set_u64(stream, context + 32, stream->sequence);
    set_u64(stream, context + 40, stream->discarded);
    errno = 0;
    if (fwrite(stream->buffer, 1, stream->used, stream->out) != stream->used)
    {
        stream->failed = true;
        stream->error = errno ? errno : EIO;
        return false;
    }
    stream->sequence++;
    stream->used = 0;
    stream->events = 0;
    return true;
}

static size_t event_size(const ctf_event *event)
{
    size_t size = 4 + 8 + string_size(event->procname) + 4 + 4 +
                  string_size(event->format) + string_size(event->message);
    for (unsigned a = 0; a < event->nargs; a++)
        size += event->args[a].type == CTF_FIELD_STRING
              ? string_size(event->args[a].value.s) : 8;
    return size;
}

bool ctf_stream_event(ctf_stream *stream, const ctf_event *event)
{
    if (stream->failed)
        return false;
    size_t size = event_size(event);
    if (stream->events && stream->used + size > stream->packet_max &&
        !close_packet(stream))
        return false;
    if (!stream->used && !open_packet(stream))
        return false;
    if (!reserve(stream, size))
        return false;
    uint64_t timestamp = event->timestamp;
    if (stream->total && timestamp < stream->end)
        timestamp = stream->end;
    if (!stream->events)
        stream->begin = timestamp;
    stream->end = timestamp;

    put_u32(stream, event->id);
    put_u64(stream, timestamp);
    put_string(stream, event->procname);
    put_u32(stream, event->vpid);
    put_u32(stream, event->lane);
    put_string(stream, event->format);
    put_string(stream, event->message);
    for (unsigned a = 0; a < event->nargs; a++)
    {
        const ctf_value *arg = &event->args[a];
        switch (arg->type)
        {
        case CTF_FIELD_SIGNED:   put_u64(stream, (uint64_t) arg->value.i); break;
        case CTF_FIELD_UNSIGNED:
        case CTF_FIELD_HEX:      put_u64(stream, arg->value.u); break;
        case CTF_FIELD_DOUBLE:   put(stream, &arg->value.r, 8); break;
        case CTF_FIELD_STRING:   put_string(stream, arg->value.s); break;
        }
    }
    stream->events++;
    stream->total++;
    return true;
}

void ctf_stream_discard(ctf_stream *stream, uint64_t lost)
{
    stream->discarded += lost;
}

bool ctf_stream_finish(ctf_stream *stream, uint64_t timestamp)
{
    if (!stream->failed && !stream->sequence && !stream->used)
    {
        if (open_packet(stream))
            stream->begin = stream->end = timestamp;
    }
    bool written = close_packet(stream);
    free(stream->buffer);
    stream->buffer = NULL;
    stream->used = stream->room = 0;
    return written && !stream->failed;
}
