/* replay_main.c - run a fuzz target over files and directories of inputs,
 * without libFuzzer: make check replays seeds and past crashes this way. */
#include "fuzz_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static unsigned replayed;

static int replay_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
    {
        perror(path);
        return 1;
    }
    static uint8_t data[1 << 20];
    size_t size = fread(data, 1, sizeof(data), file);
    fclose(file);
    uint8_t *copy = malloc(size ? size : 1);    /* exact size, for ASan */
    memcpy(copy, data, size);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    replayed++;
    return 0;
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;                               /* no such corpus: fine */
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *dir = opendir(path);
    if (!dir)
        return 1;
    int failed = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)))
    {
        if (entry->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
        failed |= replay(child);
    }
    closedir(dir);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int a = 1; a < argc; a++)
        failed |= replay(argv[a]);
    printf("%s: %u inputs replayed\n", argv[0], replayed);
    return failed;
}
