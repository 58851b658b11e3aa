/* elf_note_private.h - find the GNU build id among ELF notes.
 *
 * Pure parsing of a buffer the caller already holds (mapped memory of a
 * loaded module in the crash handler, or bytes read from a file), so it is
 * async-signal-safe and trusts nothing in the notes.
 */
#ifndef RECORDER_ELF_NOTE_PRIVATE_H
#define RECORDER_ELF_NOTE_PRIVATE_H

#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Copy the build id found in the notes 'notes[size]' (aligned to 'align',
 * 4 or 8) into out[max]; return its size, or 0 if there is none that fits. */
static inline size_t elf_note_build_id(const uint8_t *notes, uint64_t size,
                                       uint64_t align, uint8_t *out,
                                       size_t max)
{
    const uint8_t *note = notes, *end = notes + size;
    while ((uint64_t) (end - note) >= sizeof(ElfW(Nhdr)))
    {
        ElfW(Nhdr) nhdr;
        memcpy(&nhdr, note, sizeof(nhdr));
        uint64_t name_size = ((uint64_t) nhdr.n_namesz + align - 1) & ~(align - 1);
        uint64_t desc_size = ((uint64_t) nhdr.n_descsz + align - 1) & ~(align - 1);
        const uint8_t *name = note + sizeof(nhdr);
        if (name_size > (uint64_t) (end - name) ||
            desc_size > (uint64_t) (end - name) - name_size)
            return 0;
        if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
            memcmp(name, "GNU", 4) == 0 && nhdr.n_descsz > 0 &&
            nhdr.n_descsz <= max)
        {
            memcpy(out, name + name_size, nhdr.n_descsz);
            return nhdr.n_descsz;
        }
        note = name + name_size + desc_size;
    }
    return 0;
}

#endif /* RECORDER_ELF_NOTE_PRIVATE_H */
