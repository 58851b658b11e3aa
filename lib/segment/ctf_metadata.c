/* ctf_metadata.c - the TSDL text of a CTF 1.8 trace of flight recorders.
 *
 * Every type is byte-aligned (align = 8), so the stream packer
 * (ctf_stream.c) writes fields one after the other, with no padding.
 * The layout written here and the one packed there must agree: the
 * packet header, packet context, event header and event context below
 * are the ones ctf_stream.c lays out.
 */
#include "segment/ctf_metadata_private.h"

#include <string.h>

/* Copy 'text' into out[size] as TSDL (and babeltrace2) take it in a
 * string literal: printable ASCII without '"' or '\\' (each other byte
 * becomes '_'). Names from a segment are anyone's bytes. */
static void clean(char *out, size_t size, const char *text)
{
    if (!size)
        return;
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *) (text ? text : "");
         *p && at + 1 < size; p++)
        out[at++] = *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\'
                  ? (char) *p : '_';
    out[at] = 0;
}

static void uuid_text(char text[37], const uint8_t uuid[16])
{
    static const char digits[] = "0123456789abcdef";
    unsigned at = 0;
    for (unsigned b = 0; b < 16; b++)
    {
        if (b == 4 || b == 6 || b == 8 || b == 10)
            text[at++] = '-';
        text[at++] = digits[uuid[b] >> 4];
        text[at++] = digits[uuid[b] & 15];
    }
    text[at] = 0;
}

static const char *field_type_name(ctf_field_type type)
{
    switch (type)
    {
    case CTF_FIELD_SIGNED:   return "int64_t";
    case CTF_FIELD_UNSIGNED: return "uint64_t";
    case CTF_FIELD_HEX:      return "hex64_t";
    case CTF_FIELD_DOUBLE:   return "double_t";
    case CTF_FIELD_STRING:   return "string";
    }
    return "uint64_t";
}

static void write_environment(FILE *out, const ctf_trace_info *info)
{
    char text[256];
    const ctf_process *first = info->process_count ? &info->processes[0]
                                                   : NULL;
    fprintf(out, "env {\n");
    clean(text, sizeof(text), first ? first->host : "");
    fprintf(out, "    hostname = \"%s\";\n", text);
    fprintf(out, "    domain = \"recorder\";\n"
                 "    tracer_name = \"recorder\";\n"
                 "    tracer_major = 1;\n"
                 "    tracer_minor = 3;\n");
    /* The first process is the time base; the others follow, numbered
     * as their streams' event contexts cannot name them. */
    for (unsigned p = 0; p < info->process_count; p++)
    {
        const ctf_process *process = &info->processes[p];
        char suffix[16] = "";
        if (p)
            snprintf(suffix, sizeof(suffix), "_%u", p);
        clean(text, sizeof(text), process->program);
        fprintf(out, "    program%s = \"%s\";\n", suffix, text);
        fprintf(out, "    pid%s = %u;\n", suffix, process->pid);
        clean(text, sizeof(text), process->host);
        fprintf(out, "    host%s = \"%s\";\n", suffix, text);
    }
    if (info->process_count > 1)
        fprintf(out, "    processes = %u;\n", info->process_count);
    fprintf(out, "};\n\n");
}

bool ctf_metadata_write(FILE *out, const ctf_trace_info *info,
                        const ctf_event_class *classes, unsigned count)
{
    char uuid[37];
    uuid_text(uuid, info->uuid);
    fprintf(out,
            "/* CTF 1.8 */\n"
            "\n"
            "typealias integer { size = 8; align = 8; signed = false; } "
            ":= uint8_t;\n"
            "typealias integer { size = 32; align = 8; signed = false; } "
            ":= uint32_t;\n"
            "typealias integer { size = 64; align = 8; signed = false; } "
            ":= uint64_t;\n"
            "typealias integer { size = 64; align = 8; signed = true; } "
            ":= int64_t;\n"
            "typealias integer { size = 64; align = 8; signed = false; "
            "base = 16; } := hex64_t;\n"
            "typealias floating_point { exp_dig = 11; mant_dig = 53; "
            "align = 8; } := double_t;\n"
            "\n"
            "trace {\n"
            "    major = 1;\n"
            "    minor = 8;\n"
            "    uuid = \"%s\";\n"
            "    byte_order = %s;\n"
            "    packet.header := struct {\n"
            "        uint32_t magic;\n"
            "        uint8_t  uuid[16];\n"
            "        uint32_t stream_id;\n"
            "    };\n"
            "};\n\n", uuid, info->big_endian ? "be" : "le");
    write_environment(out, info);

    /* CLOCK_MONOTONIC, as LTTng's "monotonic" clock, but counted from the
     * text dump's time base: cycles are the dump's relative times. */
    const ctf_process *first = info->process_count ? &info->processes[0]
                                                   : NULL;
    char program[128], host[128];
    clean(program, sizeof(program), first ? first->program : "");
    clean(host, sizeof(host), first ? first->host : "");
    fprintf(out,
            "clock {\n"
            "    name = \"monotonic\";\n"
            "    uuid = \"%s\";\n"
            "    description = \"CLOCK_MONOTONIC of %s; cycles count from "
            "the start of %s[%u]\";\n"
            "    freq = 1000000000;\n"
            "    precision = 1;\n"
            "    offset_s = %llu;\n"
            "    offset = %llu;\n"
            "    absolute = false;\n"
            "};\n\n"
            "typealias integer { size = 64; align = 8; signed = false; "
            "map = clock.monotonic.value; } := uint64_clock_t;\n\n",
            uuid, host, program, first ? first->pid : 0,
            (unsigned long long) (info->offset_ns / 1000000000u),
            (unsigned long long) (info->offset_ns % 1000000000u));

    fprintf(out,
            "stream {\n"
            "    id = 0;\n"
            "    packet.context := struct {\n"
            "        uint64_clock_t timestamp_begin;\n"
            "        uint64_clock_t timestamp_end;\n"
            "        uint64_t content_size;\n"
            "        uint64_t packet_size;\n"
            "        uint64_t packet_seq_num;\n"
            "        uint64_t events_discarded;\n"
            "    };\n"
            "    event.header := struct {\n"
            "        uint32_t id;\n"
            "        uint64_clock_t timestamp;\n"
            "    };\n"
            "    event.context := struct {\n"
            "        string _procname;\n"
            "        uint32_t _vpid;\n"
            "        uint32_t _lane;\n"
            "    };\n"
            "};\n\n");

    for (unsigned c = 0; c < count; c++)
    {
        const ctf_event_class *class = &classes[c];
        char name[sizeof(class->name)];
        clean(name, sizeof(name), class->name);
        fprintf(out,
                "event {\n"
                "    name = \"%s\";\n"
                "    id = %u;\n"
                "    stream_id = 0;\n"
                "    fields := struct {\n"
                "        string format;\n"
                "        string message;\n", name, class->id);
        unsigned nargs = class->nargs < CTF_ARGS_MAX ? class->nargs
                                                     : CTF_ARGS_MAX;
        for (unsigned a = 0; a < nargs; a++)
            fprintf(out, "        %s arg%u;\n",
                    field_type_name(class->types[a]), a);
        fprintf(out, "    };\n};\n\n");
    }
    return !ferror(out);
}
