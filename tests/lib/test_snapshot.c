/* test_snapshot.c - snapshots on a condition (snapshot= items): a rare
 * event gives one file with what led to it and what followed, a storm is
 * held off and capped with the rest counted, a level crossing fires once
 * through noise, bad conditions are refused by name while the rest of the
 * specification applies, a failing directory is said once per kind, and
 * a kill -9 while a snapshot is written leaves no partial file under a
 * final name.
 *
 * The snapshot directory, hold-off and maximum belong to a run, so each
 * case runs in a child process of its own: it records, then exits (which
 * writes a snapshot still waiting); the parent looks at the files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"
#include "snapshot/snapshot_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

RECORDER(snap_work, 1024, "Ordinary records around the event");
RECORDER(snap_error, 16, "The rare event");
RECORDER(snap_storm, 64, "A storm of events");
RECORDER(snap_level, 256, "A value that crosses a level");
RECORDER(snap_big, 65536, "Enough records to take a while to write");

static char dir[200];

static int make_dir(void **state)
{
    (void) state;
    snprintf(dir, sizeof(dir), "/tmp/test_snapshot.XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int remove_dir(void **state)
{
    (void) state;
    char command[300];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : -1;
}

static void sleep_ms(unsigned ms)
{
    struct timespec pause = { ms / 1000, (long) (ms % 1000) * 1000000 };
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
        ;
}

/* Run 'body' in a child whose snapshots go to 'where' and whose stderr
 * goes to dir/stderr; returns its exit status (-1 if it was killed). */
static int in_child(void (*body)(void), const char *where)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
    {
        char path[300];
        snprintf(path, sizeof(path), "%s/stderr", dir);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        setenv("RECORDER_SNAPSHOT_DIR", where, 1);
        body();
        exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Files of 'dir' whose names end in 'suffix' (hidden ones apart). */
static unsigned count_files(const char *suffix, char *first, size_t size)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned count = 0;
    size_t tail = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));)
    {
        size_t length = strlen(e->d_name);
        if (e->d_name[0] == '.' || length < tail ||
            strcmp(e->d_name + length - tail, suffix) != 0)
            continue;
        if (!count++ && first)
            snprintf(first, size, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return count;
}

/* Files of 'dir', hidden ones too, whose names hold 'part'. */
static unsigned count_named(const char *part)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += strstr(e->d_name, part) != NULL;
    closedir(d);
    return count;
}

static char *read_all(const char *path)
{
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    static char text[8 << 20];
    size_t length = fread(text, 1, sizeof(text) - 1, file);
    text[length] = 0;
    fclose(file);
    return text;
}

static void clear_dir(void)
{
    char command[600];
    snprintf(command, sizeof(command), "rm -rf '%s'/* '%s'/.[!.]*", dir, dir);
    assert_int_equal(system(command), 0);
}

/* ---- a rare event ------------------------------------------------------- */

static void rare_event(void)
{
    recorder_trace_set("snapshot=snap_(error|panic):snapshot_post=100");
    for (int i = 0; i < 100; i++)
        record(snap_work, "before %d", i);
    record(snap_error, "the rare event %d", 42);
    for (int i = 0; i < 100; i++)
        record(snap_work, "after %d", i);
    sleep_ms(400);                      /* past the post-trigger delay */
    record(snap_work, "long after");
}

static void test_rare_event_gives_one_file_before_and_after(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(rare_event, dir), 0);
    char path[600];
    assert_int_equal(count_files(".txt", path, sizeof(path)), 1);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    const char *text = read_all(path);
    const char *before = strstr(text, "snap_work: before 0\n");
    const char *event = strstr(text, "snap_error: the rare event 42\n");
    const char *after = strstr(text, "snap_work: after 99\n");
    assert_non_null(before);
    assert_non_null(event);
    assert_non_null(after);
    assert_true(before < event && event < after);
    assert_null(strstr(text, "long after"));
    assert_non_null(strstr(text, "condition 'snapshot=snap_(error|panic)'"));
    assert_int_equal(count_named(".tmp"), 0);
}

/* ---- a storm ---------------------------------------------------------- */

static void storm(void)
{
    recorder_trace_set("snapshot=snap_storm snapshot_holdoff=30 "
                       "snapshot_max=3 snapshot_post=0");
    for (int i = 0; i < 100000; i++)
    {
        record(snap_storm, "event %d", i);
        if (i % 1000 == 999)
            sleep_ms(1);                /* a storm of about 0.1 s or more */
    }
    sleep_ms(100);                      /* the thread sees the last hits */
    uint64_t taken, suppressed;
    snapshot_thread_counts(0, &taken, &suppressed);
    char path[300];
    snprintf(path, sizeof(path), "%s/counts", dir);
    FILE *out = fopen(path, "w");
    fprintf(out, "%llu %llu\n", (unsigned long long) taken,
            (unsigned long long) suppressed);
    fclose(out);
}

static void test_storm_is_held_off_capped_and_counted(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(storm, dir), 0);
    unsigned files = count_files(".txt", NULL, 0);
    char path[300];
    snprintf(path, sizeof(path), "%s/counts", dir);
    unsigned long long taken = 0, suppressed = 0;
    assert_int_equal(sscanf(read_all(path), "%llu %llu", &taken, &suppressed),
                     2);
    assert_true(files >= 1 && files <= 3);
    assert_int_equal(taken, files);
    assert_int_equal(taken + suppressed, 100000);
}

/* ---- a level crossed through noise --------------------------------------- */

static void level(void)
{
    char share[300];
    snprintf(share, sizeof(share), "share=%s/segment", dir);
    recorder_trace_set(share);
    recorder_trace_set("snap_level=value, snapshot=value>5 "
                       "snapshot_holdoff=0 snapshot_post=0");
    /* Below, then noise at the level: one crossing. */
    for (int i = 0; i < 20; i++)
        record(snap_level, "value %f", 1.0);
    for (int i = 0; i < 200; i++)
    {
        record(snap_level, "value %f", i % 2 ? 5.1 : 4.9);
        sleep_ms(1);
    }
    sleep_ms(100);
    /* Well below, then above again: a second one. */
    record(snap_level, "value %f", 0.0);
    record(snap_level, "value %f", 7.5);
    sleep_ms(100);
}

static void test_level_fires_once_through_noise(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(level, dir), 0);
    assert_int_equal(count_files(".txt", NULL, 0), 2);
}

/* ---- bad conditions ---------------------------------------------------- */

static void bad_items(void)
{
    int result = recorder_trace_set("snapshot=snap_(error snapshot_post=5 "
                                    "snapshot=level>>3 snapshot_format=xml "
                                    "snapshot=snap_error");
    snapshot_settings settings = snapshot_settings_now();
    record(snap_error, "armed anyway");
    sleep_ms(100);
    exit(result == RECORDER_TRACE_OK ? 10 : settings.post_ms == 5 ? 0 : 11);
}

static void test_bad_conditions_are_refused_by_name(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(bad_items, dir), 0);
    char path[300];
    snprintf(path, sizeof(path), "%s/stderr", dir);
    const char *said = read_all(path);
    assert_non_null(strstr(said, "bad snapshot pattern 'snap_(error'"));
    assert_non_null(strstr(said, "bad snapshot level 'level>>3'"));
    assert_non_null(strstr(said, "snapshot_format is text, chrome or ctf, "
                                 "not 'xml'"));
    /* The good condition after them was armed, and fired. */
    assert_int_equal(count_files(".txt", NULL, 0), 1);
}

/* ---- a directory that fails ------------------------------------------- */

static void failing(void)
{
    recorder_trace_set("snapshot=snap_error snapshot_holdoff=0 "
                       "snapshot_post=0");
    for (int i = 0; i < 3; i++)
    {
        record(snap_error, "cannot be written %d", i);
        sleep_ms(50);
    }
    record(snap_work, "still running");
}

static void full(void)
{
    /* A full disk, as far as this process can tell. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = { 100, 100 };
    setrlimit(RLIMIT_FSIZE, &limit);
    char path[300];
    snprintf(path, sizeof(path), "%s/stderr", dir);
    truncate(path, 0);
    failing();
}

static unsigned lines_with(const char *text, const char *what)
{
    unsigned count = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        count++;
    return count;
}

static void test_failing_directory_is_said_once_per_kind(void **state)
{
    (void) state;
    clear_dir();
    char missing[300];
    snprintf(missing, sizeof(missing), "%s/no/such/dir", dir);
    assert_int_equal(in_child(failing, missing), 0);
    char path[300];
    snprintf(path, sizeof(path), "%s/stderr", dir);
    const char *said = read_all(path);
    assert_int_equal(lines_with(said, "recorder: snapshot not written: "
                                      "cannot create a file"), 1);
    assert_non_null(strstr(said, "No such file or directory"));

    assert_int_equal(in_child(full, dir), 0);
    said = read_all(path);
    assert_int_equal(lines_with(said, "recorder: snapshot not written: "
                                      "cannot write a file"), 1);
    assert_int_equal(count_files(".txt", NULL, 0), 0);
    assert_int_equal(count_named(".tmp"), 0);
}

/* ---- several recording threads ------------------------------------------ */

static void *record_level(void *arg)
{
    unsigned id = (unsigned) (uintptr_t) arg;
    for (int i = 0; i < 50000; i++)
    {
        record(snap_level, "value %f", i == 30000 && id == 2 ? 9.0 : 1.0);
        record(snap_work, "thread %u record %d", id, i);
    }
    return NULL;
}

static void threads(void)
{
    char share[300];
    snprintf(share, sizeof(share), "share=%s/segment", dir);
    recorder_trace_set(share);
    recorder_trace_set("snap_level=value, snapshot=value>5 "
                       "snapshot=snap_error snapshot_post=20");
    pthread_t workers[4];
    for (unsigned t = 0; t < 4; t++)
        pthread_create(&workers[t], NULL, record_level,
                       (void *) (uintptr_t) t);
    for (unsigned t = 0; t < 4; t++)
        pthread_join(workers[t], NULL);
    sleep_ms(100);
}

static void test_several_threads_one_crossing(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(threads, dir), 0);
    assert_int_equal(count_files(".txt", NULL, 0), 1);
}

/* ---- a CTF snapshot ---------------------------------------------------- */

static void ctf(void)
{
    char share[300];
    snprintf(share, sizeof(share), "share=%s/segment", dir);
    recorder_trace_set(share);
    recorder_trace_set("snapshot=snap_error snapshot_format=ctf "
                       "snapshot_post=0");
    for (int i = 0; i < 50; i++)
        record(snap_work, "before %d", i);
    record(snap_error, "the rare event %d", 7);
    sleep_ms(100);
}

static void test_ctf_snapshot_is_a_private_directory(void **state)
{
    (void) state;
    clear_dir();
    assert_int_equal(in_child(ctf, dir), 0);
    DIR *d = opendir(dir);
    char trace[600] = "";
    unsigned traces = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, "test_snapshot-", 14) == 0)
        {
            snprintf(trace, sizeof(trace), "%s/%s", dir, e->d_name);
            traces++;
        }
    closedir(d);
    assert_int_equal(traces, 1);
    struct stat st;
    assert_int_equal(stat(trace, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    char metadata[700];
    snprintf(metadata, sizeof(metadata), "%s/metadata", trace);
    assert_non_null(strstr(read_all(metadata), "CTF"));
}

/* ---- kill -9 while writing --------------------------------------------- */

static void big(void)
{
    recorder_trace_set("snapshot=snap_error snapshot_post=0 "
                       "snapshot_format=chrome");
    for (int i = 0; i < 4 * 65536; i++)
        record(snap_big, "filler %d of a long snapshot", i);
    record(snap_error, "now");
    sleep_ms(30000);                    /* the parent kills us first */
}

/* Every final file is whole: Chrome JSON ends with its closing brace. */
static bool finals_whole(unsigned *finals)
{
    DIR *d = opendir(dir);
    bool whole = true;
    *finals = 0;
    for (struct dirent *e; (e = readdir(d));)
    {
        size_t length = strlen(e->d_name);
        if (length < 5 || strcmp(e->d_name + length - 5, ".json") != 0)
            continue;
        char path[600], end[3] = "";
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        FILE *file = fopen(path, "r");
        whole &= file && fseek(file, -2, SEEK_END) == 0 &&
                 fread(end, 1, 2, file) == 2 && strcmp(end, "}\n") == 0;
        if (file)
            fclose(file);
        (*finals)++;
    }
    closedir(d);
    return whole;
}

static void test_kill_during_write_leaves_no_partial_file(void **state)
{
    (void) state;
    unsigned killed_writing = 0;
    for (unsigned round = 0; round < 3; round++)
    {
        clear_dir();
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0)
        {
            setenv("RECORDER_SNAPSHOT_DIR", dir, 1);
            big();
            exit(0);
        }
        /* Kill it as soon as a snapshot is being written. */
        bool writing = false;
        for (unsigned wait = 0; wait < 20000 && !writing; wait++)
        {
            writing = count_named(".tmp") + count_named(".json") > 0;
            if (!writing)
                usleep(500);
        }
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        unsigned finals;
        assert_true(finals_whole(&finals));
        killed_writing += count_named(".tmp");
    }
    /* The kills did land during writes, or the check proved nothing. */
    assert_true(killed_writing > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rare_event_gives_one_file_before_and_after),
        cmocka_unit_test(test_storm_is_held_off_capped_and_counted),
        cmocka_unit_test(test_level_fires_once_through_noise),
        cmocka_unit_test(test_bad_conditions_are_refused_by_name),
        cmocka_unit_test(test_failing_directory_is_said_once_per_kind),
        cmocka_unit_test(test_several_threads_one_crossing),
        cmocka_unit_test(test_ctf_snapshot_is_a_private_directory),
        cmocka_unit_test(test_kill_during_write_leaves_no_partial_file),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
