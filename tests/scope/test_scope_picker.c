/* test_scope_picker.c - what the channel picker changes: graph membership
 * (a regex plus names added and removed in the window), graphs added to a
 * running source, the catalog of channels and recorders it lists, and the
 * export command it sends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "source/channel_catalog.h"
#include "source/channel_data.h"
#include "source/graph_members.h"
#include "scope_test_writer.h"

#include <recorder/recorder.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

RECORDER(picked, 256, "Known values for the picker tests");
RECORDER(unexported, 64, "A recorder with no channel yet");

static void record_values(long base)
{
    recorder_trace_set("picked=speed,load,_,other");
    for (long i = 0; i < 20; i++)
        record(picked, "Speed %ld m/s, load %d %%, skip %d, other %f",
               base + i, (int) (i % 7), 0, i * 0.5);
    record(unexported, "Nothing %d", 1);
}

/* ---- membership ------------------------------------------------------------- */

static const char *describe(const scope_members *m, const char *regex)
{
    static char text[200];
    scope_members_describe(m, regex, text, sizeof(text));
    return text;
}

static void test_members_add_and_remove_against_the_regex(void **state)
{
    (void) state;
    scope_members m = { 0 };
    /* Regex "speed|load" matches speed and load, not other. */
    assert_true(scope_members_has(&m, "speed", true));
    assert_false(scope_members_has(&m, "other", false));
    assert_string_equal(describe(&m, "speed|load"), "speed|load");

    assert_true(scope_members_add(&m, "other", false));
    assert_false(scope_members_add(&m, "other", false));   /* already */
    assert_true(scope_members_has(&m, "other", false));
    assert_false(scope_members_add(&m, "speed", true));    /* matched */
    assert_true(scope_members_remove(&m, "speed", true));
    assert_false(scope_members_remove(&m, "speed", true));
    assert_false(scope_members_has(&m, "speed", true));
    assert_true(scope_members_has(&m, "load", true));
    assert_string_equal(describe(&m, "speed|load"),
                        "speed|load +other -speed");
    assert_string_equal(describe(&m, NULL), ".* +other -speed");

    /* Each undoes the other: back to the regex alone. */
    assert_true(scope_members_add(&m, "speed", true));
    assert_true(scope_members_remove(&m, "other", false));
    assert_false(scope_members_remove(&m, "other", false));
    assert_int_equal(m.added_count, 0);
    assert_int_equal(m.removed_count, 0);
    assert_string_equal(describe(&m, "speed|load"), "speed|load");

    /* Order kept, names freed. */
    scope_members_add(&m, "b", false);
    scope_members_add(&m, "a", false);
    scope_members_add(&m, "c", false);
    scope_members_remove(&m, "a", false);
    assert_string_equal(describe(&m, "x"), "x +b +c");
    scope_members_free(&m);
    assert_int_equal(m.added_count, 0);
    assert_null(m.added);
}

static void test_describe_and_quote_truncate_safely(void **state)
{
    (void) state;
    scope_members m = { 0 };
    scope_members_add(&m, "longer_name", false);
    char small[8];
    size_t need = scope_members_describe(&m, "re", small, sizeof(small));
    assert_int_equal(need, strlen("re +longer_name"));
    assert_string_equal(small, "re +lon");
    scope_members_free(&m);

    char quoted[64];
    assert_int_equal(scope_regex_quote("a.b", quoted, sizeof(quoted)), 4);
    assert_string_equal(quoted, "a\\.b");
    scope_regex_quote("x(1)|[y]*+?{2}^$\\", quoted, sizeof(quoted));
    assert_string_equal(quoted, "x\\(1\\)\\|\\[y\\]\\*\\+\\?\\{2\\}\\^\\$\\\\");
    scope_regex_quote("plain_name-2", quoted, sizeof(quoted));
    assert_string_equal(quoted, "plain_name-2");
    /* Never half an escape. */
    char tiny[4];
    assert_int_equal(scope_regex_quote("ab.c", tiny, sizeof(tiny)), 5);
    assert_string_equal(tiny, "ab");
}

/* ---- export commands ------------------------------------------------------- */

static void test_export_command_as_the_program_checks_it(void **state)
{
    (void) state;
    char command[128], error[200];
    assert_true(scope_export_command("feed", "ramp,wave,level", command,
                                     sizeof(command), error, sizeof(error)));
    assert_string_equal(command, "feed=ramp,wave,level");
    assert_true(scope_export_command("feed", " a , _ ,, b.c-d ", command,
                                     sizeof(command), error, sizeof(error)));
    assert_string_equal(command, "feed=a,_,,b.c-d");
    assert_true(scope_export_command("feed", "only,", command,
                                     sizeof(command), error, sizeof(error)));
    assert_string_equal(command, "feed=only,");

    assert_false(scope_export_command("feed", "ok,2bad", command,
                                      sizeof(command), error, sizeof(error)));
    assert_non_null(strstr(error, "'2bad' is not a channel name"));
    assert_false(scope_export_command("feed", "a b", command,
                                      sizeof(command), error, sizeof(error)));
    assert_non_null(strstr(error, "'a b'"));
    assert_false(scope_export_command("feed", "x:dump", command,
                                      sizeof(command), error, sizeof(error)));
    assert_false(scope_export_command("feed", "_,,", command,
                                      sizeof(command), error, sizeof(error)));
    assert_non_null(strstr(error, "no channel name"));
    assert_false(scope_export_command("feed", "a,b,c,d,e,f,g,h,i,j,k,l,m",
                                      command, sizeof(command), error,
                                      sizeof(error)));
    assert_non_null(strstr(error, "more than 12"));
    assert_false(scope_export_command("fe=ed", "a", command,
                                      sizeof(command), error, sizeof(error)));
    assert_non_null(strstr(error, "not a recorder name"));
    assert_false(scope_export_command("feed", "abcdefgh", command, 8,
                                      error, sizeof(error)));
    assert_non_null(strstr(error, "too long"));
}

/* ---- against a writer ------------------------------------------------------- */

static double now;

static unsigned poll_for(scope_source *source, double seconds)
{
    unsigned found = 0;
    for (double end = now + seconds; now < end; now += 0.02)
        found |= scope_source_poll(source, now);
    return found;
}

/* The names of the channels of 'graph', space-separated. */
static const char *names(scope_source *source, unsigned graph)
{
    static char text[200];
    unsigned n;
    scope_series *const *series = scope_source_graph_series(source, graph, &n);
    text[0] = 0;
    for (unsigned s = 0; s < n; s++)
        snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s",
                 s ? " " : "", series[s]->name);
    return text;
}

/* Poll (real time passing too) until graph's channels are 'expected'. */
static void poll_until_names(scope_source *source, unsigned graph,
                             const char *expected)
{
    for (int tries = 0; tries < 300; tries++)
    {
        poll_for(source, 0.02);
        if (strcmp(names(source, graph), expected) == 0)
            return;
        usleep(2000);
    }
    fail_msg("graph %u has '%s', not '%s'", graph, names(source, graph),
             expected);
}

static void test_graph_channels_change_in_a_running_source(void **state)
{
    (void) state;
    static const step_fn steps[] = { record_values };
    writer w = start_writer(path, steps, 1, 100);
    scope_source_config config = { .duration = 0, .keep = 0, .ratio = 0.9 };
    now = 1000;
    scope_source *source = scope_source_new(path, &config);
    assert_int_equal(scope_source_add_graph(source, "speed"), 0);
    poll_until_names(source, 0, "speed");

    /* Added by name: found at the next poll, with its history. */
    assert_true(scope_source_graph_add_channel(source, 0, "other"));
    assert_false(scope_source_graph_add_channel(source, 0, "other"));
    poll_until_names(source, 0, "speed other");
    char text[200];
    scope_source_graph_describe(source, 0, text, sizeof(text));
    assert_string_equal(text, "speed +other");

    /* Removed: gone now, and stays gone through rescans. */
    int at = -2;
    assert_true(scope_source_graph_remove_channel(source, 0, "speed", &at));
    assert_int_equal(at, 0);
    assert_string_equal(names(source, 0), "other");
    poll_for(source, 2.5);                          /* rescans every second */
    assert_string_equal(names(source, 0), "other");
    scope_source_graph_describe(source, 0, text, sizeof(text));
    assert_string_equal(text, "speed +other -speed");
    assert_false(scope_source_graph_remove_channel(source, 0, "speed", &at));

    /* Adding back what the regex matches undoes the removal. */
    assert_true(scope_source_graph_add_channel(source, 0, "speed"));
    poll_until_names(source, 0, "other speed");
    scope_source_graph_describe(source, 0, text, sizeof(text));
    assert_string_equal(text, "speed +other");

    /* A channel not (yet) in the segment: no index to forget. */
    assert_true(scope_source_graph_add_channel(source, 0, "future"));
    assert_true(scope_source_graph_remove_channel(source, 0, "future", &at));
    assert_int_equal(at, -1);
    assert_false(scope_source_graph_add_channel(source, 7, "speed"));

    /* A graph added to the running source gets its channels. */
    assert_int_equal(scope_source_graph_count(source), 1);
    assert_int_equal(scope_source_add_graph(source, "load"), 1);
    assert_int_equal(scope_source_graph_count(source), 2);
    poll_until_names(source, 1, "load");
    unsigned n;
    scope_series *const *load = scope_source_graph_series(source, 1, &n);
    for (int tries = 0; tries < 300 && load[0]->end - load[0]->first < 20;
         tries++)
        poll_for(source, 0.02);
    assert_int_equal(load[0]->end - load[0]->first, 20);
    assert_string_equal(load[0]->unit, "%");

    writer_finish(&w);
    scope_source_delete(source);
}

static void test_catalog_lists_channels_and_recorders(void **state)
{
    (void) state;
    static const step_fn steps[] = { record_values };
    writer w = start_writer(path, steps, 1, 0);
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    scope_catalog catalog;
    assert_true(scope_catalog_read(&catalog, share));
    assert_int_equal(catalog.channel_count, 3);
    assert_string_equal(catalog.channels[0].name, "speed");
    assert_string_equal(catalog.channels[0].unit, "m/s");
    assert_string_equal(catalog.channels[0].recorder, "picked");
    assert_string_equal(catalog.channels[2].name, "other");
    assert_int_equal(catalog.channels[2].argument, 3);
    assert_string_equal(catalog.no_recorders, "");
    const scope_catalog_recorder *picked = NULL, *unexported = NULL;
    for (unsigned r = 0; r < catalog.recorder_count; r++)
    {
        if (strcmp(catalog.recorders[r].name, "picked") == 0)
            picked = &catalog.recorders[r];
        if (strcmp(catalog.recorders[r].name, "unexported") == 0)
            unexported = &catalog.recorders[r];
    }
    assert_non_null(picked);
    assert_non_null(unexported);
    assert_string_equal(picked->exported, "speed,load,_,other");
    assert_string_equal(picked->description,
                        "Known values for the picker tests");
    assert_string_equal(unexported->exported, "");
    scope_catalog_free(&catalog);
    assert_null(catalog.channels);
    recorder_share_close(share);
    writer_finish(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members_add_and_remove_against_the_regex),
        cmocka_unit_test(test_describe_and_quote_truncate_safely),
        cmocka_unit_test(test_export_command_as_the_program_checks_it),
        cmocka_unit_test(test_graph_channels_change_in_a_running_source),
        cmocka_unit_test(test_catalog_lists_channels_and_recorders),
    };
    return cmocka_run_group_tests_name("scope_picker", tests,
                                       make_directory, remove_directory);
}
