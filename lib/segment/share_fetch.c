/* share_fetch.c - the strings a segment's records point to (%+s).
 *
 * Records hold the address of such a string in the writer. A live writer
 * that runs as the reader's user and has the segment open is read with
 * process_vm_readv; a string the writer put in the segment itself is in
 * the reader's mapping too; a constant of a file the writer mapped is
 * read from that file, if it is still the very same file.
 */
#define _GNU_SOURCE                     /* process_vm_readv */
#include "segment/share_reader_private.h"
#include "segment/file_identity_private.h"

#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* A string the writer put in the segment itself is in our mapping too. */
static bool string_from_segment(recorder_share *share, uint64_t address,
                                char *out, size_t size)
{
    uint64_t base = share->header.writer_base;
    if (!base || address < base || address - base >= share->view.size)
        return false;
    uint64_t offset = address - base;
    const char *text = (const char *) share->view.base + offset;
    size_t room = share->view.size - offset;
    size_t len = strnlen(text, room < size - 1 ? room : size - 1);
    memcpy(out, text, len);
    out[len] = 0;
    return true;
}

/* A string in a read-only file mapping of the writer (a literal, say) is
 * still in that file after the writer died: read it there, if the segment
 * is ours and the file is still the one that was mapped. */
static bool string_from_module(recorder_share *share, uint64_t address,
                               char *out, size_t size)
{
    if (!recorder_share_owned(share))
        return false;
    unsigned count = share_reader_published(
        &share_reader_live_header(share)->modules, &share->header.modules);
    for (unsigned m = 0; m < count; m++)
    {
        const share_module *module =
            share_entry(&share->view, share->header.modules.offset, count,
                        sizeof(share_module), m);
        if (!module || address < module->start || address >= module->end)
            continue;
        char path[4096];
        if (!share_reader_string(share, module->path, path, sizeof(path)) ||
            path[0] != '/')
            return false;
        /* The path comes from the segment: never block on a FIFO or a
         * device it may name; read only the very file that was mapped. */
        int fd = file_identity_open(path);
        if (fd < 0)
            return false;
        file_identity expected = {
            .device = module->device, .inode = module->inode,
            .size = module->size, .owner = module->owner,
            .build_id_size = module->build_id_size,
        };
        memcpy(expected.build_id, module->build_id, sizeof(expected.build_id));
        file_identity found;
        ssize_t got = -1;
        if (file_identity_read(fd, &found) &&
            file_identity_matches(&expected, &found))
            got = pread(fd, out, size - 1,
                        (off_t) (module->offset + (address - module->start)));
        close(fd);
        if (got <= 0)
            return false;
        out[got] = 0;
        return true;
    }
    return false;
}

const char *share_reader_fetch(uint64_t address, char *out, size_t size,
                               void *arg)
{
    fetch_context *context = arg;
    if (context->memory && address)
    {
        struct iovec local = { out, size - 1 };
        struct iovec remote = { (void *) (uintptr_t) address, size - 1 };
        ssize_t got = process_vm_readv((pid_t) context->share->header.pid,
                                       &local, 1, &remote, 1, 0);
        if (got > 0)
        {
            out[got] = 0;
            return out;
        }
    }
    if (string_from_segment(context->share, address, out, size) ||
        string_from_module(context->share, address, out, size))
        return out;
    snprintf(out, size, "<%#lx>", (unsigned long) address);
    return out;
}

