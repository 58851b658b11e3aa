/* test_sites.c - slots forged in a shared segment do not make the program
 * follow their pointers.
 *
 * The program shares its rings; the test, as an attacker with write access
 * to the file would, maps the file on its own and rewrites records: a wild
 * call-site pointer, a site inside the call-site section but not at the
 * start of one, a fake site built in the segment (its format pointing at a
 * secret in the program's memory), and a real site whose %+s argument
 * points to unmapped memory. Dumps and traces must survive all of them and
 * say what they saw.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "recorder.h"
#include "segment/share_layout_private.h"
#include "base/sites_private.h"
#include "record/trace_private.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

RECORDER(forged, 16, "Records an attacker rewrites in the segment");

static const char secret[] = "SECRET-OF-THE-PROGRAM";

static char captured[65536];
static size_t captured_length;

static unsigned capture(const char *text, size_t length, void *arg)
{
    (void) arg;
    if (length > sizeof(captured) - 1 - captured_length)
        length = sizeof(captured) - 1 - captured_length;
    memcpy(captured + captured_length, text, length);
    captured_length += length;
    captured[captured_length] = 0;
    return (unsigned) length;
}

static unsigned count_of(const char *text, const char *word)
{
    unsigned count = 0;
    for (const char *at = strstr(text, word); at; at = strstr(at + 1, word))
        count++;
    return count;
}

/* An address where nothing is mapped. */
/* An address nothing can read: a page kept mapped without access, so that
 * no later mapping (ASan's allocator maps pages freely) lands there. */
static uintptr_t unmapped_address(void)
{
    long page = sysconf(_SC_PAGESIZE);
    void *hole = mmap(NULL, (size_t) page, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(hole != MAP_FAILED);
    return (uintptr_t) hole + 16;
}

/* The lanes of 'forged' as the file holds them, in a mapping of our own. */
typedef struct attack
{
    uint8_t *        file;
    size_t           size;
    recorder_buffer *lane;              /* in our mapping of the file */
    recorder_buffer *writer_lane;       /* the same, in the program's view */
} attack;

static attack map_segment(void)
{
    attack a;
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    a.size = (size_t) st.st_size;
    a.file = mmap(NULL, a.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    assert_true(a.file != MAP_FAILED);

    const share_header *h = (const share_header *) a.file;
    recorder_info *rec = RECORDER_INFO(forged);
    uintptr_t first = (uintptr_t) rec->buffer;
    assert_true(first > h->writer_base && first - h->writer_base < a.size);
    uint64_t offset = first - h->writer_base;
    uint32_t slots = (uint32_t) rec->mask + 1;
    a.lane = NULL;
    for (unsigned l = 0; l < RECORDER_LANES && !a.lane; l++)
    {
        recorder_buffer *lane = RECORDER_LANE(a.file + offset, slots, l);
        if (lane->writer >= 4)
        {
            a.lane = lane;
            a.writer_lane = RECORDER_LANE(rec->buffer, slots, l);
        }
    }
    assert_non_null(a.lane);
    return a;
}

static recorder_slot *slot_at(recorder_buffer *lane, uint64_t back)
{
    uint64_t index = lane->writer - back;
    return &RECORDER_BUFFER_SLOTS(lane)[index & (lane->size - 1)];
}

static void forge_site(recorder_slot *slot, uintptr_t site)
{
    slot->word[1] = site | (slot->word[1] & 0xF);
}

static void test_forged_slots_are_shown_not_followed(void **state)
{
    (void) state;
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    assert_int_equal(recorder_trace_set(spec), RECORDER_TRACE_OK);

    record(forged, "Wild site %d", 1);
    record(forged, "Misaligned site %d", 2);
    record(forged, "Fake site %d", 3);
    record(forged, "Name %+s, then %d", "hello", 4);
    record(forged, "Untouched %d", 5);

    attack a = map_segment();
    recorder_slot *wild = slot_at(a.lane, 5);
    recorder_slot *misaligned = slot_at(a.lane, 4);
    recorder_slot *fake = slot_at(a.lane, 3);
    recorder_slot *name = slot_at(a.lane, 2);

    forge_site(wild, 0xdead0000);
    /* A real site is 16-aligned and a multiple of 16 long: the middle of
     * one passes the slot's alignment, not the site check. */
    forge_site(misaligned, (misaligned->word[1] & ~(uint64_t) 0xF) + 16);
    /* A recorder_site laid out in the segment, in the last words of the
     * first slot (16-aligned), at the address where the program maps it,
     * with a format that would leak the program's memory. */
    recorder_slot *program_view = &RECORDER_BUFFER_SLOTS(a.writer_lane)
        [(a.lane->writer - 5) & (a.lane->size - 1)];
    recorder_site fake_site = { secret, secret, secret, 1, 0 };
    assert_true(sizeof(fake_site) <= 4 * sizeof(uint64_t));
    memcpy(&wild->word[3], &fake_site, sizeof(fake_site));
    forge_site(fake, (uintptr_t) &program_view->word[3]);
    /* A real %+s site, with its string somewhere unmapped. */
    uintptr_t hole = unmapped_address();
    name->word[2] = hole;

    captured_length = 0;
    unsigned printed = recorder_sort("forged", NULL, capture, NULL);
    print_message("%s", captured);
    assert_int_equal(printed, 5);

    char line[128];
    snprintf(line, sizeof(line), "forged: <record from unknown site %#lx>",
             (unsigned long) 0xdead0000);
    assert_non_null(strstr(captured, line));
    assert_int_equal(count_of(captured, "<record from unknown site 0x"), 3);
    assert_null(strstr(captured, secret));
    snprintf(line, sizeof(line), "forged: Name <unreadable %#lx>, then 4",
             (unsigned long) hole);
    assert_non_null(strstr(captured, line));
    assert_non_null(strstr(captured, "forged: Untouched 5"));
    munmap(a.file, a.size);
}

/* Traces render the record they just wrote, read back from the ring: they
 * must check the site and strings in the same way. Runs after the test
 * above, so the process shares (strings are copied only while it does). */
static void test_traces_check_sites_and_strings(void **state)
{
    (void) state;
    recorder_show_fn old = recorder_configure_show(capture);
    captured_length = 0;
    uint64_t args[2] = { unmapped_address(), 7 };
    recorder_trace_print(RECORDER_INFO(forged),
                         (const recorder_site *) (uintptr_t) 0xbad0,
                         1, 0, args, 2);
    record(forged, "Traced %+s", "for the site below");
    /* The site of that real %+s record, now with a bad string. */
    recorder_info *rec = RECORDER_INFO(forged);
    const recorder_site *site = NULL;
    for (unsigned l = 0; l < RECORDER_LANES && !site; l++)
    {
        recorder_buffer *lane = RECORDER_LANE(rec->buffer, rec->mask + 1, l);
        if (lane->writer)
            site = (const recorder_site *) (uintptr_t)
                (RECORDER_BUFFER_SLOTS(lane)[(lane->writer - 1) & rec->mask]
                 .word[1] & ~(uint64_t) 0xF);
    }
    assert_non_null(site);
    recorder_trace_print(rec, site, 2, 0, args, 1);
    recorder_configure_show(old);
    print_message("%s", captured);

    assert_non_null(strstr(captured,
                           "forged: <record from unknown site 0xbad0>"));
    char line[128];
    snprintf(line, sizeof(line), "forged: Traced <unreadable %#lx>",
             (unsigned long) args[0]);
    assert_non_null(strstr(captured, line));
}

/* Sites registered one by one (C++ built with g++): known exactly, through
 * the set's growth, walked once each; their neighbours are not known. */
static unsigned walked;
static recorder_site singles[1000];

static void count_singles(recorder_site *first, recorder_site *last,
                          void *arg)
{
    (void) arg;
    if (first >= singles && first < singles + 1000)
    {
        assert_ptr_equal(last, first + 1);
        walked++;
    }
}

static void test_sites_registered_one_by_one(void **state)
{
    (void) state;
    for (unsigned s = 0; s < 1000; s += 2)
    {
        singles[s] = (recorder_site) { "single %u", __FILE__, "test", s, 0 };
        recorder_sites_register_one(&singles[s]);
        recorder_sites_register_one(&singles[s]);       /* once only */
    }
    for (unsigned s = 0; s < 1000; s++)
        assert_int_equal(recorder_site_known(&singles[s]), s % 2 == 0);
    assert_false(recorder_site_known((const recorder_site *)
                                     ((char *) &singles[0] + 16)));
    walked = 0;
    recorder_sites_each(count_singles, NULL);
    assert_int_equal(walked, 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forged_slots_are_shown_not_followed),
        cmocka_unit_test(test_traces_check_sites_and_strings),
        cmocka_unit_test(test_sites_registered_one_by_one),
    };
    return cmocka_run_group_tests_name("sites", tests, make_directory,
                                       remove_directory);
}
