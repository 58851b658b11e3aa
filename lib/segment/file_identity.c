/* file_identity.c - device, inode, size, owner and build id of a file. */
#include "segment/file_identity_private.h"
#include "backtrace/elf_note_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds on what a hostile or odd file can make us read. */
#define MAX_PROGRAM_HEADERS     128
#define MAX_NOTES_BYTES         4096

static bool read_at(int fd, void *buffer, uint64_t size, uint64_t offset)
{
    return pread(fd, buffer, size, (off_t) offset) == (ssize_t) size;
}

static uint32_t build_id_of(int fd, uint64_t file_size, uint8_t *out)
{
    ElfW(Ehdr) ehdr;
    if (!read_at(fd, &ehdr, sizeof(ehdr), 0) ||
        memcmp(ehdr.e_ident, ELFMAG, SELFMAG) != 0 ||
        ehdr.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64
                                                       : ELFCLASS32) ||
        ehdr.e_phentsize != sizeof(ElfW(Phdr)) ||
        ehdr.e_phnum > MAX_PROGRAM_HEADERS || ehdr.e_phoff > file_size)
        return 0;
    ElfW(Phdr) phdr[MAX_PROGRAM_HEADERS];
    uint64_t bytes = (uint64_t) ehdr.e_phnum * sizeof(ElfW(Phdr));
    if (!read_at(fd, phdr, bytes, ehdr.e_phoff))
        return 0;
    for (unsigned i = 0; i < ehdr.e_phnum; i++)
    {
        if (phdr[i].p_type != PT_NOTE || phdr[i].p_filesz > MAX_NOTES_BYTES)
            continue;
        uint8_t notes[MAX_NOTES_BYTES];
        if (!read_at(fd, notes, phdr[i].p_filesz, phdr[i].p_offset))
            continue;
        size_t found = elf_note_build_id(notes, phdr[i].p_filesz,
                                         phdr[i].p_align == 8 ? 8 : 4,
                                         out, FILE_BUILD_ID_MAX);
        if (found)
            return (uint32_t) found;
    }
    return 0;
}

bool file_identity_read(int fd, file_identity *out)
{
    struct stat st;
    memset(out, 0, sizeof(*out));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    out->device = st.st_dev;
    out->inode = st.st_ino;
    out->size = (uint64_t) st.st_size;
    out->owner = st.st_uid;
    out->build_id_size = build_id_of(fd, out->size, out->build_id);
    return true;
}

int file_identity_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)))
    {
        close(fd);
        fd = -1;
    }
    return fd;
}

bool file_identity_matches(const file_identity *a, const file_identity *b)
{
    return a->build_id_size > 0 && a->build_id_size <= FILE_BUILD_ID_MAX &&
           a->device == b->device && a->inode == b->inode &&
           a->size == b->size && a->owner == b->owner &&
           a->build_id_size == b->build_id_size &&
           memcmp(a->build_id, b->build_id, a->build_id_size) == 0;
}

bool file_identity_mapped(const char *path, uint64_t device, uint64_t inode,
                          file_identity *out, int *no_descriptor)
{
    static char last_path[4096];
    static file_identity last;
    static bool last_ok;
    if (strcmp(path, last_path) != 0 || last.device != device ||
        last.inode != inode)
    {
        snprintf(last_path, sizeof(last_path), "%s", path);
        int fd = file_identity_open(path);
        if (fd < 0 && (errno == EMFILE || errno == ENFILE))
            *no_descriptor = errno;
        last_ok = fd >= 0 && file_identity_read(fd, &last) &&
                  last.device == device && last.inode == inode &&
                  last.build_id_size > 0;
        if (fd >= 0)
            close(fd);
    }
    *out = last;
    return last_ok;
}
