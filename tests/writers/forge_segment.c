/* forge_segment.c - rewrite parts of a segment, as an attacker would.
 *
 *   forge_segment SEGMENT format FORMAT      every call site prints FORMAT
 *   forge_segment SEGMENT module FILE START  one module: FILE mapped at START
 *   forge_segment SEGMENT pid PID            the header names PID as writer
 *   forge_segment SEGMENT command TEXT       send TEXT through the command
 *                                            ring, past any check a reader
 *                                            makes; print the answer
 *
 * For the security tests (check-share-trust.sh): the segment may belong to
 * the user running this, live or dead; whatever it then names is a claim
 * the reader must not take for a fact.
 */
#include "segment/share_layout_private.h"
#include "segment/share_commands_private.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static share_header *header;

static uint64_t add_string(const char *text)
{
    size_t len = strlen(text) + 1;
    if (header->strings_used + len > header->strings.size)
    {
        fprintf(stderr, "forge_segment: no room for a string\n");
        exit(1);
    }
    uint64_t offset = header->strings.offset + header->strings_used;
    memcpy((char *) header + offset, text, len);
    header->strings_used += len;
    return offset;
}

int main(int argc, char **argv)
{
    if (argc < 4)
    {
        fprintf(stderr, "usage: forge_segment SEGMENT format FORMAT | "
                        "module FILE START | pid PID | command TEXT\n");
        return 2;
    }
    int fd = open(argv[1], O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 ||
        (size_t) st.st_size < sizeof(share_header))
    {
        perror(argv[1]);
        return 1;
    }
    header = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE,
                  MAP_SHARED, fd, 0);
    if (header == MAP_FAILED || header->magic != SHARE_MAGIC)
    {
        fprintf(stderr, "forge_segment: %s: not a segment\n", argv[1]);
        return 1;
    }

    if (strcmp(argv[2], "format") == 0)
    {
        uint64_t format = add_string(argv[3]);
        share_site *sites = (share_site *) ((char *) header
                                            + header->sites.offset);
        for (unsigned s = 0; s < header->sites.count; s++)
            sites[s].format = format;
    }
    else if (strcmp(argv[2], "module") == 0 && argc == 5)
    {
        struct stat file;
        if (stat(argv[3], &file) != 0)
        {
            perror(argv[3]);
            return 1;
        }
        share_module *module = (share_module *) ((char *) header
                                                 + header->modules.offset);
        memset(module, 0, sizeof(*module));
        module->start = strtoull(argv[4], NULL, 0);
        module->end = module->start + 4096;
        module->device = file.st_dev;
        module->inode = file.st_ino;
        module->size = (uint64_t) file.st_size;
        module->owner = file.st_uid;
        module->path = add_string(argv[3]);
        header->modules.count = 1;
    }
    else if (strcmp(argv[2], "pid") == 0)
    {
        header->pid = (uint32_t) strtoul(argv[3], NULL, 0);
    }
    else if (strcmp(argv[2], "command") == 0)
    {
        share_command_ring *ring = (share_command_ring *)
            ((char *) header + header->commands.offset);
        char why[256];
        int64_t index = share_command_send(ring, argv[3], why, sizeof(why));
        if (index < 0)
        {
            fprintf(stderr, "forge_segment: %s\n", why);
            return 1;
        }
        for (int waited = 0; waited < 2000; waited++)
        {
            uint32_t status;
            if (share_command_answer(ring, (uint64_t) index, &status, why,
                                     sizeof(why)) == SHARE_ANSWER_GIVEN)
            {
                printf("%s: %s\n", status == SHARE_TICKET_OK ? "applied"
                                                             : "refused", why);
                return status == SHARE_TICKET_OK ? 0 : 1;
            }
            usleep(1000);
        }
        printf("no answer\n");
        return 1;
    }
    else
    {
        fprintf(stderr, "forge_segment: unknown forgery '%s'\n", argv[2]);
        return 2;
    }
    return 0;
}
