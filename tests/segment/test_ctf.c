/* test_ctf.c - the CTF export: its parts (TSDL metadata, the packing of
 * events into packets byte by byte, the event classes), and
 * recorder_share_ctf() writing a program's own segment, no scope needed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "segment/ctf_classes_private.h"
#include "segment/ctf_metadata_private.h"
#include "segment/ctf_stream_private.h"
#include "recorder.h"
#include "recorder_share.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t uuid[16] = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
    0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
};

static char *metadata_of(const ctf_trace_info *info,
                         const ctf_event_class *classes, unsigned count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_true(ctf_metadata_write(out, info, classes, count));
    fclose(out);
    return text;
}

static void test_metadata_of_known_sites(void **state)
{
    (void) state;
    ctf_process process = { "feeder", 4242, "box" };
    ctf_trace_info info = { .offset_ns = 12345678901234ull,
                            .processes = &process, .process_count = 1 };
    memcpy(info.uuid, uuid, sizeof(uuid));
    ctf_event_class classes[2] = {
        { .id = 0, .name = "feed:main:12", .nargs = 0 },
        { .id = 1, .name = "feed:tick:40", .nargs = 5,
          .types = { CTF_FIELD_SIGNED, CTF_FIELD_UNSIGNED, CTF_FIELD_HEX,
                     CTF_FIELD_DOUBLE, CTF_FIELD_STRING } },
    };
    char *text = metadata_of(&info, classes, 2);
    assert_memory_equal(text, "/* CTF 1.8 */\n", 14);
    assert_non_null(strstr(text, "    uuid = \"01234567-89ab-cdef-fedc-"
                                 "ba9876543210\";\n    byte_order = le;\n"));
    assert_non_null(strstr(text, "    hostname = \"box\";\n"
                                 "    domain = \"recorder\";\n"
                                 "    tracer_name = \"recorder\";\n"));
    assert_non_null(strstr(text, "    program = \"feeder\";\n"
                                 "    pid = 4242;\n"
                                 "    host = \"box\";\n};\n"));
    assert_null(strstr(text, "processes ="));
    /* 12345.678901234 s of CLOCK_MONOTONIC, split as CTF wants. */
    assert_non_null(strstr(text, "    freq = 1000000000;\n"
                                 "    precision = 1;\n"
                                 "    offset_s = 12345;\n"
                                 "    offset = 678901234;\n"));
    assert_non_null(strstr(text, "map = clock.monotonic.value; } "
                                 ":= uint64_clock_t;\n"));
    assert_non_null(strstr(text, "base = 16; } := hex64_t;\n"));
    assert_non_null(strstr(text, "typealias floating_point { exp_dig = 11; "
                                 "mant_dig = 53; align = 8; } := double_t;\n"));
    const char *events = strstr(text, "event {\n");
    assert_non_null(events);
    assert_string_equal(events,
        "event {\n"
        "    name = \"feed:main:12\";\n"
        "    id = 0;\n"
        "    stream_id = 0;\n"
        "    fields := struct {\n"
        "        string format;\n"
        "        string message;\n"
        "    };\n"
        "};\n\n"
        "event {\n"
        "    name = \"feed:tick:40\";\n"
        "    id = 1;\n"
        "    stream_id = 0;\n"
        "    fields := struct {\n"
        "        string format;\n"
        "        string message;\n"
        "        int64_t arg0;\n"
        "        uint64_t arg1;\n"
        "        hex64_t arg2;\n"
        "        double_t arg3;\n"
        "        string arg4;\n"
        "    };\n"
        "};\n\n");
    free(text);
}

static void test_metadata_names_every_process(void **state)
{
    (void) state;
    ctf_process processes[2] = { { "alpha", 10, "box" },
                                 { "be\"ta\n", 11, "box" } };
    ctf_trace_info info = { .big_endian = true, .offset_ns = 5,
                            .processes = processes, .process_count = 2 };
    ctf_event_class class = { .id = 7, .name = "a\"b\\c:\x1b" };
    char *text = metadata_of(&info, &class, 1);
    assert_non_null(strstr(text, "    byte_order = be;\n"));
    assert_non_null(strstr(text, "    program = \"alpha\";\n    pid = 10;\n"));
    /* Names from the segment lose what would end a TSDL string. */
    assert_non_null(strstr(text, "    program_1 = \"be_ta_\";\n"
                                 "    pid_1 = 11;\n"));
    assert_non_null(strstr(text, "    processes = 2;\n"));
    assert_non_null(strstr(text, "    offset_s = 0;\n    offset = 5;\n"));
    assert_non_null(strstr(text, "    name = \"a_b_c:_\";\n    id = 7;\n"));
    free(text);
}

/* ---- packing ---- */

typedef struct packed
{
    char  *data;
    size_t size;
    FILE  *file;
} packed;

static void packed_open(packed *p)
{
    p->data = NULL;
    p->size = 0;
    p->file = open_memstream(&p->data, &p->size);
    assert_non_null(p->file);
}

static void packed_close(packed *p)
{
    fclose(p->file);
}

static bool little_endian(void)
{
    uint16_t one = 1;
    return *(uint8_t *) &one == 1;
}

static uint64_t u64_at(const packed *p, size_t at)
{
    uint64_t value;
    assert_true(at + 8 <= p->size);
    memcpy(&value, p->data + at, 8);
    return value;
}

static void test_one_event_byte_by_byte(void **state)
{
    (void) state;
    if (!little_endian())
        skip();
    packed p;
    packed_open(&p);
    ctf_stream stream;
    ctf_stream_init(&stream, p.file, uuid, 65536);
    ctf_value args[4] = {
        { CTF_FIELD_SIGNED, { .i = -5 } },
        { CTF_FIELD_HEX, { .u = 0xff } },
        { CTF_FIELD_DOUBLE, { .r = 1.5 } },
        { CTF_FIELD_STRING, { .s = "ab" } },
    };
    ctf_event event = { .id = 3, .timestamp = 0x0102030405060708ull,
                        .procname = "p", .vpid = 42, .lane = 1,
                        .format = "f", .message = "m",
                        .nargs = 4, .args = args };
    assert_true(ctf_stream_event(&stream, &event));
    ctf_stream_discard(&stream, 2);
    assert_true(ctf_stream_finish(&stream, 0));
    packed_close(&p);

    static const uint8_t want[] = {
        /* packet header: magic, uuid, stream_id */
        0xc1, 0x1f, 0xfc, 0xc1,
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
        0, 0, 0, 0,
        /* packet context: timestamp_begin, timestamp_end */
        8, 7, 6, 5, 4, 3, 2, 1,
        8, 7, 6, 5, 4, 3, 2, 1,
        /* content_size, packet_size: 125 bytes, in bits */
        0xe8, 0x03, 0, 0, 0, 0, 0, 0,
        0xe8, 0x03, 0, 0, 0, 0, 0, 0,
        /* packet_seq_num, events_discarded */
        0, 0, 0, 0, 0, 0, 0, 0,
        2, 0, 0, 0, 0, 0, 0, 0,
        /* event header: id, timestamp */
        3, 0, 0, 0,
        8, 7, 6, 5, 4, 3, 2, 1,
        /* event context: _procname, _vpid, _lane */
        'p', 0,
        42, 0, 0, 0,
        1, 0, 0, 0,
        /* fields: format, message, -5, 0xff, 1.5, "ab" */
        'f', 0,
        'm', 0,
        0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0xf8, 0x3f,
        'a', 'b', 0,
    };
    assert_int_equal(sizeof(want), 125);
    assert_int_equal(p.size, sizeof(want));
    assert_memory_equal(p.data, want, sizeof(want));
    free(p.data);
}

/* Walk the packets of a stream: their sizes, sequence numbers, times and
 * the number of events in each (counted by their ids, all 0 here). */
static unsigned walk_packets(const packed *p, size_t packet_max,
                             uint64_t *events)
{
    size_t at = 0;
    unsigned packets = 0;
    uint64_t last_end = 0;
    *events = 0;
    while (at < p->size)
    {
        uint32_t magic;
        memcpy(&magic, p->data + at, 4);
        assert_int_equal(magic, 0xC1FC1FC1u);
        assert_memory_equal(p->data + at + 4, uuid, 16);
        uint64_t begin = u64_at(p, at + 24), end = u64_at(p, at + 32);
        uint64_t content = u64_at(p, at + 40), size = u64_at(p, at + 48);
        assert_int_equal(content, size);
        assert_int_equal(size % 8, 0);
        assert_int_equal(u64_at(p, at + 56), packets);
        assert_true(begin <= end);
        assert_true(last_end <= begin);
        last_end = end;
        size_t bytes = size / 8;
        assert_true(at + bytes <= p->size);
        /* Events here are 4 + 8 + "p" + 4 + 4 + "" + "" + 8 bytes. */
        size_t event = 4 + 8 + 2 + 4 + 4 + 1 + 1 + 8;
        assert_int_equal((bytes - 72) % event, 0);
        assert_true(bytes <= packet_max);
        *events += (bytes - 72) / event;
        at += bytes;
        packets++;
    }
    return packets;
}

static void test_packets_are_bounded(void **state)
{
    (void) state;
    packed p;
    packed_open(&p);
    ctf_stream stream;
    ctf_stream_init(&stream, p.file, uuid, 256);
    ctf_value arg = { CTF_FIELD_UNSIGNED, { .u = 0 } };
    for (unsigned e = 0; e < 100; e++)
    {
        arg.value.u = e;
        ctf_event event = { .id = 0, .timestamp = 1000 + e * 10,
                            .procname = "p", .format = "", .message = "",
                            .nargs = 1, .args = &arg };
        assert_true(ctf_stream_event(&stream, &event));
        if (e == 50)
            ctf_stream_discard(&stream, 7);
    }
    assert_true(ctf_stream_finish(&stream, 0));
    packed_close(&p);
    uint64_t events;
    unsigned packets = walk_packets(&p, 256, &events);
    assert_int_equal(events, 100);
    /* (256 - 72) / 32 = 5 events a packet. */
    assert_int_equal(packets, 20);
    /* The first packet's times, and losses counted all along. */
    assert_int_equal(u64_at(&p, 24), 1000);
    assert_int_equal(u64_at(&p, 32), 1040);
    assert_int_equal(u64_at(&p, 64), 0);
    assert_int_equal(u64_at(&p, 19 * 232 + 64), 7);
    free(p.data);
}

static void test_timestamps_never_go_back(void **state)
{
    (void) state;
    packed p;
    packed_open(&p);
    ctf_stream stream;
    ctf_stream_init(&stream, p.file, uuid, 65536);
    uint64_t times[3] = { 500, 200, 700 };
    for (unsigned e = 0; e < 3; e++)
    {
        ctf_event event = { .timestamp = times[e] };
        assert_true(ctf_stream_event(&stream, &event));
    }
    assert_true(ctf_stream_finish(&stream, 0));
    packed_close(&p);
    /* Each event: id, timestamp, then empty strings and numbers. */
    size_t event = 4 + 8 + 1 + 4 + 4 + 1 + 1;
    assert_int_equal(p.size, 72 + 3 * event);
    assert_int_equal(u64_at(&p, 72 + 4), 500);
    assert_int_equal(u64_at(&p, 72 + event + 4), 500);
    assert_int_equal(u64_at(&p, 72 + 2 * event + 4), 700);
    assert_int_equal(u64_at(&p, 24), 500);
    assert_int_equal(u64_at(&p, 32), 700);
    free(p.data);
}

static void test_an_empty_stream_has_one_packet(void **state)
{
    (void) state;
    packed p;
    packed_open(&p);
    ctf_stream stream;
    ctf_stream_init(&stream, p.file, uuid, 65536);
    assert_true(ctf_stream_finish(&stream, 99));
    packed_close(&p);
    assert_int_equal(p.size, 72);
    assert_int_equal(u64_at(&p, 24), 99);
    assert_int_equal(u64_at(&p, 32), 99);
    assert_int_equal(u64_at(&p, 40), 72 * 8);
    free(p.data);
}

static void test_a_long_string_is_cut(void **state)
{
    (void) state;
    packed p;
    packed_open(&p);
    ctf_stream stream;
    ctf_stream_init(&stream, p.file, uuid, 1024);
    size_t length = CTF_STRING_MAX + 100;
    char *text = malloc(length + 1);
    memset(text, 'x', length);
    text[length] = 0;
    ctf_event event = { .message = text };
    assert_true(ctf_stream_event(&stream, &event));
    assert_true(ctf_stream_finish(&stream, 0));
    packed_close(&p);
    /* One event larger than a packet gets a packet of its own. */
    assert_int_equal(p.size, 72 + 4 + 8 + 1 + 4 + 4 + 1 + CTF_STRING_MAX + 1);
    assert_int_equal(p.data[p.size - 1], 0);
    free(text);
    free(p.data);
}

static void test_a_failed_write_is_reported(void **state)
{
    (void) state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    setvbuf(full, NULL, _IONBF, 0);
    ctf_stream stream;
    ctf_stream_init(&stream, full, uuid, 65536);
    ctf_event event = { .message = "m" };
    assert_true(ctf_stream_event(&stream, &event));
    assert_false(ctf_stream_finish(&stream, 0));
    fclose(full);
}

/* ---- event classes ---- */

static void test_one_class_per_site(void **state)
{
    (void) state;
    ctf_class_table table = { 0 };
    ctf_field_type two[2] = { CTF_FIELD_SIGNED, CTF_FIELD_STRING };
    ctf_site tick = { 0, 0x1000, "feed", "tick", 40 };
    ctf_site main_site = { 0, 0x2000, "feed", "main", 12 };
    ctf_site other = { 1, 0x1000, "feed", "tick", 40 };
    ctf_site lost = { 1, 0x3000, "bad", NULL, 0 };
    assert_int_equal(ctf_class_find(&table, &tick, 2, two), 0);
    assert_int_equal(ctf_class_find(&table, &main_site, 0, NULL), 1);
    assert_int_equal(ctf_class_find(&table, &tick, 2, two), 0);
    /* Another process's site at the same address is another class. */
    assert_int_equal(ctf_class_find(&table, &other, 2, two), 2);
    /* So is a record of another shape from the same site. */
    assert_int_equal(ctf_class_find(&table, &tick, 1, two), 3);
    assert_int_equal(ctf_class_find(&table, &lost, 0, NULL), 4);
    assert_int_equal(table.count, 5);
    assert_string_equal(table.classes[0].name, "feed:tick:40");
    assert_string_equal(table.classes[1].name, "feed:main:12");
    assert_string_equal(table.classes[4].name, "bad:site_4");
    assert_int_equal(table.classes[0].nargs, 2);
    assert_int_equal(table.classes[0].types[1], CTF_FIELD_STRING);
    ctf_class_table_free(&table);
}

static void test_many_sites_are_found_again(void **state)
{
    (void) state;
    ctf_class_table table = { 0 };
    ctf_field_type one = CTF_FIELD_DOUBLE;
    for (unsigned round = 0; round < 2; round++)
        for (unsigned s = 0; s < 5000; s++)
        {
            ctf_site site = { s % 3, 0x400000 + 64 * s, "r", "f", s };
            assert_int_equal(ctf_class_find(&table, &site, 1, &one), s);
        }
    assert_int_equal(table.count, 5000);
    ctf_class_table_free(&table);
}

static void test_hex_arguments(void **state)
{
    (void) state;
    ctf_field_type types[4] = { CTF_FIELD_SIGNED, CTF_FIELD_UNSIGNED,
                                CTF_FIELD_UNSIGNED, CTF_FIELD_STRING };
    ctf_class_hex_arguments("%d %#08lx %p %s", 4, types);
    assert_int_equal(types[0], CTF_FIELD_SIGNED);
    assert_int_equal(types[1], CTF_FIELD_HEX);
    assert_int_equal(types[2], CTF_FIELD_HEX);
    assert_int_equal(types[3], CTF_FIELD_STRING);

    /* A '*' width takes an argument; "%%x" none. */
    ctf_field_type star[3] = { CTF_FIELD_SIGNED, CTF_FIELD_SIGNED,
                               CTF_FIELD_UNSIGNED };
    ctf_class_hex_arguments("100%%x %*d %X", 3, star);
    assert_int_equal(star[0], CTF_FIELD_SIGNED);
    assert_int_equal(star[1], CTF_FIELD_SIGNED);
    assert_int_equal(star[2], CTF_FIELD_HEX);

    /* A format that does not match the record tells nothing. */
    ctf_field_type odd[2] = { CTF_FIELD_UNSIGNED, CTF_FIELD_UNSIGNED };
    ctf_class_hex_arguments("%x", 2, odd);
    ctf_class_hex_arguments(NULL, 2, odd);
    ctf_class_hex_arguments("%x %x %", 2, odd);
    assert_int_equal(odd[0], CTF_FIELD_UNSIGNED);
    assert_int_equal(odd[1], CTF_FIELD_UNSIGNED);
    /* Doubles and strings stay what they are. */
    ctf_field_type real[1] = { CTF_FIELD_DOUBLE };
    ctf_class_hex_arguments("%x", 1, real);
    assert_int_equal(real[0], CTF_FIELD_DOUBLE);
}

/* ---- recorder_share_ctf ------------------------------------------------ */

RECORDER(ctf_whole, 64, "Records that recorder_share_ctf exports");

static char scratch[256];

static unsigned files_in(const char *dir)
{
    DIR *entries = opendir(dir);
    if (!entries)
        return 0;
    unsigned count = 0;
    for (struct dirent *entry; (entry = readdir(entries)); )
        count += entry->d_name[0] != '.';
    closedir(entries);
    return count;
}

static recorder_share *own_segment(void)
{
    char segment[320], error[512];
    snprintf(segment, sizeof(segment), "%s/segment", scratch);
    recorder_share *share = recorder_share_open(segment, error,
                                                sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", segment, error);
    return share;
}

static void test_a_program_writes_its_own_trace(void **state)
{
    (void) state;
    for (int i = 0; i < 10; i++)
        record(ctf_whole, "step %d of %s", i, "ten");
    recorder_share *share = own_segment();
    char dir[320], why[512];
    snprintf(dir, sizeof(dir), "%s/trace", scratch);
    long records = recorder_share_ctf(&share, 1, "ctf_whole", dir, why,
                                      sizeof(why));
    if (records != 10)
        fail_msg("%ld records exported: %s", records, why);
    char metadata[400];
    snprintf(metadata, sizeof(metadata), "%s/metadata", dir);
    struct stat st;
    assert_int_equal(stat(metadata, &st), 0);
    assert_true(st.st_size > 0);
    assert_int_equal(files_in(dir), 2);         /* one stream, metadata */

    /* Again into the same directory: refused, nothing touched. */
    assert_int_equal(recorder_share_ctf(&share, 1, NULL, dir, why,
                                        sizeof(why)), -1);
    assert_int_equal(errno, ENOTEMPTY);
    assert_non_null(strstr(why, "is not empty"));
    assert_int_equal(files_in(dir), 2);

    /* A directory that cannot be made: the reason, nothing left. */
    snprintf(dir, sizeof(dir), "%s/none/trace", scratch);
    assert_int_equal(recorder_share_ctf(&share, 1, NULL, dir, why,
                                        sizeof(why)), -1);
    assert_non_null(strstr(why, "cannot create"));
    recorder_share_close(share);
}

int main(void)
{
    snprintf(scratch, sizeof(scratch), "/tmp/recorder_test_XXXXXX");
    if (!mkdtemp(scratch))
        return 1;
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s/segment", scratch);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metadata_of_known_sites),
        cmocka_unit_test(test_metadata_names_every_process),
        cmocka_unit_test(test_one_event_byte_by_byte),
        cmocka_unit_test(test_packets_are_bounded),
        cmocka_unit_test(test_timestamps_never_go_back),
        cmocka_unit_test(test_an_empty_stream_has_one_packet),
        cmocka_unit_test(test_a_long_string_is_cut),
        cmocka_unit_test(test_a_failed_write_is_reported),
        cmocka_unit_test(test_one_class_per_site),
        cmocka_unit_test(test_many_sites_are_found_again),
        cmocka_unit_test(test_hex_arguments),
        cmocka_unit_test(test_a_program_writes_its_own_trace),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", scratch);
    if (system(command) != 0)
        return 1;
    return failed;
}
