/* scratch_dir.h - a fresh temporary directory per test, with the path of
 * a segment in it, removed afterwards: tests never share /tmp paths. Use
 * make_directory and remove_directory as cmocka setup and teardown. */
#ifndef RECORDER_TEST_SCRATCH_DIR_H
#define RECORDER_TEST_SCRATCH_DIR_H

#include <stdio.h>
#include <stdlib.h>

static char directory[256];
static char path[320];

static int make_directory(void **state)
{
    (void) state;
    snprintf(directory, sizeof(directory), "/tmp/recorder_test_XXXXXX");
    assert_non_null(mkdtemp(directory));
    snprintf(path, sizeof(path), "%s/segment", directory);
    return 0;
}

static int remove_directory(void **state)
{
    (void) state;
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", directory);
    return system(command);
}

#endif /* RECORDER_TEST_SCRATCH_DIR_H */
