/* crash_capture.c - fill a crash report from inside a signal handler.
 *
 * Everything here is async-signal-safe: no allocation, no stdio, no lock a
 * crashing thread could hold. Frames come from libunwind's local unwinder
 * (signal-safe by its documentation), opened at run time; without it, from
 * glibc's backtrace(), made ready before any signal. The module map is
 * read from /proc/self/maps with open() and read() into a stack buffer;
 * each module's load bias and GNU build id are read from its ELF headers,
 * which the dynamic loader left mapped at the start of the module.
 */
#define _GNU_SOURCE                     /* program_invocation_short_name,
                                           REG_RIP */
#include "backtrace/crash_report_private.h"
#include "backtrace/elf_note_private.h"
#include "backtrace/hex_private.h"
#include "backtrace/unwind_library_private.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* Modules that hold no frame may not take the last slots of the table. */
#define MODULES_KEPT_FOR_FRAMES 32
#define MAPS_PATH_MAX           1024

static void copy_name(char *to, size_t size, const char *from)
{
    size_t len = from ? strnlen(from, size - 1) : 0;
    memcpy(to, from ? from : "", len);
    to[len] = 0;
}

void crash_report_start(crash_report *report, int sig, const siginfo_t *info)
{
    memset(report, 0, sizeof(*report));
    report->magic = CRASH_MAGIC;
    report->version = CRASH_VERSION;
    report->size = sizeof(*report);
    report->state = CRASH_STATE_WRITING;
    report->signal = sig;
    if (info)
    {
        report->code = info->si_code;
        if (info->si_code > 0 && crash_signal_has_address(sig))
            report->address = (uintptr_t) info->si_addr;
        else if (info->si_code <= 0)
            report->sender = (uint32_t) info->si_pid;
    }
    report->pid = (uint32_t) getpid();
    report->tid = (uint32_t) gettid();

    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) == 0)
        report->wall_us = (int64_t) now.tv_sec * 1000000 + now.tv_nsec / 1000;
    copy_name(report->program, sizeof(report->program),
              program_invocation_short_name);
    struct utsname names;
    if (uname(&names) == 0)
        copy_name(report->host, sizeof(report->host), names.nodename);
    char thread[sizeof(report->thread)] = "";     /* prctl writes 16 */
    if (prctl(PR_GET_NAME, thread, 0, 0, 0) == 0)
        copy_name(report->thread, sizeof(report->thread), thread);
}

/* ---- frames ------------------------------------------------------------- */

/* Counted at once: a fault further up keeps what we have. */
static bool add_frame(crash_report *report, uint64_t pc, bool exact)
{
    unsigned count = report->frame_count;
    if (count == CRASH_FRAMES)
    {
        report->flags |= CRASH_FRAMES_TRUNCATED;
        return false;
    }
    report->frames[count].pc = pc;
    report->frames[count].module = CRASH_NO_MODULE;
    report->frames[count].flags = exact ? CRASH_FRAME_EXACT : 0;
    report->frame_count = count + 1;
    return true;
}

/* With libunwind, from 'context': a signal's (frame 0 is the faulting
 * instruction itself) or one our caller captured. */
static void walk_with_libunwind(const unwind_library *unw,
                                crash_report *report, unw_context_t *context,
                                bool signal_context, unsigned skip)
{
    unw_cursor_t cursor;
    int status;
    if (signal_context && unw->init_local2)
        status = unw->init_local2(&cursor, context, UNW_INIT_SIGNAL_FRAME);
    else
        status = unw->init_local(&cursor, context);
    if (status < 0)
        return;
    bool exact_next = signal_context;
    for (unsigned depth = 0; ; depth++)
    {
        unw_word_t ip = 0;
        if (unw->get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0)
            break;
        bool exact = exact_next;
        /* The frame after a signal trampoline was interrupted, not calling. */
        exact_next = unw->is_signal_frame(&cursor) > 0;
        if (depth >= skip && !add_frame(report, ip, exact))
            break;
        if (unw->step(&cursor) <= 0)
            break;
    }
}

/* The interrupted instruction of a signal context; 0 if unknown here. */
static uint64_t context_pc(const void *context)
{
    const ucontext_t *uc = context;
#if defined(__x86_64__)
    return (uint64_t) uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
    return (uint64_t) uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
    return (uint64_t) uc->uc_mcontext.pc;
#else
    (void) uc;
    return 0;
#endif
}

/* Without libunwind: what glibc's backtrace() (libgcc's unwinder) found
 * from the caller, through the handler and the signal trampoline to the
 * interrupted code, whose pc it gives exactly. Only the frames from that
 * pc on are the crash's. */
static void take_backtrace(crash_report *report, void *const *pcs,
                           unsigned count, bool cut, const void *context,
                           unsigned skip)
{
    unsigned first = skip;
    uint64_t fault = context ? context_pc(context) : 0;
    if (fault)
    {
        for (first = 0; first < count; first++)
            if ((uint64_t) (uintptr_t) pcs[first] == fault)
                break;
        if (first == count)
        {
            add_frame(report, fault, true);     /* the unwinder lost it */
            return;
        }
    }
    for (unsigned f = first; f < count; f++)
        if (!add_frame(report, (uintptr_t) pcs[f], fault && f == first))
            return;
    if (cut)
        report->flags |= CRASH_FRAMES_TRUNCATED;
}

/* Frames the fallback may see above the crash: this function, the
 * handler's, the trampoline. */
#define FALLBACK_EXTRA_FRAMES   32

__attribute__((noinline))
unsigned crash_capture_frames(crash_report *report, void *context,
                              unsigned skip)
{
    const unwind_library *unw = unwind_library_get();
    if (unw)
    {
        /* libunwind's context is glibc's on Linux (its documentation:
         * "unw_getcontext() is identical to getcontext()"). */
        _Static_assert(__builtin_types_compatible_p(unw_context_t, ucontext_t),
                       "unw_context_t is a ucontext_t");
        ucontext_t here;
        if (context)
            walk_with_libunwind(unw, report, context, true, skip);
        else if (getcontext(&here) == 0)
            walk_with_libunwind(unw, report, &here, false, skip + 1);
    }
    else
    {
        /* Called here, so that frame 0 is this function. */
        void *pcs[CRASH_FRAMES + FALLBACK_EXTRA_FRAMES];
        int got = backtrace(pcs, (int) (sizeof(pcs) / sizeof(pcs[0])));
        unsigned count = got > 0 ? (unsigned) got : 0;
        take_backtrace(report, pcs, count,
                       count == sizeof(pcs) / sizeof(pcs[0]), context,
                       skip + 1);
    }
    return report->frame_count;
}

/* ---- modules ------------------------------------------------------------ */

/* The mappings of one file, as /proc/self/maps lists them in a row. */
typedef struct maps_run
{
    char     path[MAPS_PATH_MAX];
    bool     active;
    bool     executable;
    uint64_t start, end;
    uint64_t header, header_end;        /* readable mapping at offset 0 */
} maps_run;

static bool parse_hex(const char **at, const char *end, uint64_t *value)
{
    const char *p = *at;
    uint64_t v = 0;
    int digits = 0;
    for (int d; p < end && (d = hex_digit(*p)) >= 0; p++, digits++)
        v = v << 4 | (uint64_t) d;
    *at = p;
    *value = v;
    return digits > 0 && digits <= 16;
}

static const char *skip_field(const char *p, const char *end)
{
    while (p < end && *p != ' ')
        p++;
    while (p < end && *p == ' ')
        p++;
    return p;
}

typedef struct maps_line
{
    uint64_t    start, end, offset;
    bool        readable, executable;
    const char *path;
    size_t      path_len;
} maps_line;

/* "start-end perms offset dev inode   path" */
static bool parse_maps_line(const char *p, const char *end, maps_line *line)
{
    if (!parse_hex(&p, end, &line->start) || p >= end || *p++ != '-' ||
        !parse_hex(&p, end, &line->end) || p + 6 > end || *p++ != ' ')
        return false;
    line->readable = p[0] == 'r';
    line->executable = p[2] == 'x';
    p = skip_field(p, end);
    if (!parse_hex(&p, end, &line->offset))
        return false;
    p = skip_field(p, end);             /* to the device */
    p = skip_field(p, end);             /* to the inode */
    p = skip_field(p, end);             /* to the path, if any */
    line->path = p;
    line->path_len = (size_t) (end - p);
    return true;
}

/* Load bias and build id from the ELF headers mapped at 'header'. */
static void read_identity(crash_module *module, uint64_t header,
                          uint64_t header_end)
{
    uint64_t room = header_end - header;
    const ElfW(Ehdr) *ehdr = (const ElfW(Ehdr) *) (uintptr_t) header;
    if (room < sizeof(*ehdr) || memcmp(ehdr->e_ident, ELFMAG, SELFMAG) != 0 ||
        ehdr->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64
                                                        : ELFCLASS32) ||
        ehdr->e_phentsize != sizeof(ElfW(Phdr)) || ehdr->e_phoff > room ||
        (uint64_t) ehdr->e_phnum * sizeof(ElfW(Phdr)) > room - ehdr->e_phoff)
        return;
    const ElfW(Phdr) *phdr = (const ElfW(Phdr) *) (uintptr_t)
                             (header + ehdr->e_phoff);
    bool have_bias = false;
    for (unsigned i = 0; i < ehdr->e_phnum && !have_bias; i++)
        if (phdr[i].p_type == PT_LOAD)
        {
            /* The first segment maps file offset 0 at 'header'. */
            module->bias = header - (phdr[i].p_vaddr - phdr[i].p_offset);
            have_bias = true;
        }
    if (!have_bias)
        return;
    for (unsigned i = 0; i < ehdr->e_phnum; i++)
    {
        if (phdr[i].p_type != PT_NOTE)
            continue;
        uint64_t at = module->bias + phdr[i].p_vaddr;
        uint64_t size = phdr[i].p_filesz;
        uint64_t align = phdr[i].p_align == 8 ? 8 : 4;
        if (at < header || at > header_end || size > header_end - at)
            continue;                   /* not where we know we can read */
        size_t found = elf_note_build_id((const uint8_t *) (uintptr_t) at,
                                         size, align, module->build_id,
                                         CRASH_BUILD_ID_MAX);
        if (found)
        {
            module->build_id_size = (uint32_t) found;
            return;
        }
    }
}

static bool holds_frame(const crash_report *report, uint64_t start,
                        uint64_t end)
{
    for (unsigned f = 0; f < report->frame_count; f++)
        if (report->frames[f].pc >= start && report->frames[f].pc < end)
            return true;
    return false;
}

static void commit_run(crash_report *report, const maps_run *run)
{
    if (!run->active || !run->executable)
        return;
    for (unsigned m = 0; m < report->module_count; m++)
    {
        crash_module *known = &report->modules[m];
        if (strcmp(report->strings + known->path, run->path) == 0)
        {
            /* The same file again, further on: widen it. */
            if (run->start < known->start)
                known->start = run->start;
            if (run->end > known->end)
                known->end = run->end;
            return;
        }
    }
    size_t len = strlen(run->path) + 1;
    unsigned count = report->module_count;
    bool needed = holds_frame(report, run->start, run->end);
    if (count == CRASH_MODULES ||
        (count >= CRASH_MODULES - MODULES_KEPT_FOR_FRAMES && !needed) ||
        len > CRASH_STRINGS - report->strings_used)
    {
        report->flags |= CRASH_MODULES_TRUNCATED;
        return;
    }
    crash_module *module = &report->modules[count];
    module->start = run->start;
    module->end = run->end;
    module->bias = run->start;          /* until the headers say better */
    module->path = report->strings_used;
    memcpy(report->strings + report->strings_used, run->path, len);
    report->strings_used += (uint32_t) len;
    /* Only what symbolizing needs: the fewer headers a handler reads in
     * memory, the fewer it can find damaged. */
    if (run->header && needed)
        read_identity(module, run->header, run->header_end);
    report->module_count = count + 1;
}

static void take_line(crash_report *report, maps_run *run, const char *text,
                      const char *end)
{
    maps_line line;
    if (!parse_maps_line(text, end, &line))
        return;
    bool file = line.path_len > 0 && line.path[0] == '/' &&
                line.path_len < sizeof(run->path);
    if (run->active && (!file || line.path_len != strlen(run->path) ||
                        memcmp(line.path, run->path, line.path_len) != 0))
    {
        commit_run(report, run);
        run->active = false;
    }
    if (!file)
        return;
    if (!run->active)
    {
        memcpy(run->path, line.path, line.path_len);
        run->path[line.path_len] = 0;
        run->active = true;
        run->executable = false;
        run->start = line.start;
        run->header = run->header_end = 0;
    }
    run->end = line.end;
    run->executable |= line.executable;
    if (line.offset == 0 && line.readable && !run->header)
    {
        run->header = line.start;
        run->header_end = line.end;
    }
}

static void assign_frames(crash_report *report)
{
    for (unsigned f = 0; f < report->frame_count; f++)
    {
        crash_frame *frame = &report->frames[f];
        /* A return address may be just past the end of its function. */
        uint64_t pc = frame->pc - !(frame->flags & CRASH_FRAME_EXACT);
        for (unsigned m = 0; m < report->module_count; m++)
            if (pc >= report->modules[m].start && pc < report->modules[m].end)
            {
                frame->module = m;
                break;
            }
    }
}

void crash_capture_modules(crash_report *report)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        report->flags |= CRASH_NO_MODULE_MAP;
        return;
    }
    char buffer[4096];
    maps_run run = { .active = false };
    size_t have = 0;
    bool skipping = false;              /* in a line longer than the buffer */
    for (;;)
    {
        ssize_t got = read(fd, buffer + have, sizeof(buffer) - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        have += (size_t) got;
        char *start = buffer, *end = buffer + have, *newline;
        while ((newline = memchr(start, '\n', (size_t) (end - start))))
        {
            if (!skipping)
                take_line(report, &run, start, newline);
            skipping = false;
            start = newline + 1;
        }
        have = (size_t) (end - start);
        if (have == sizeof(buffer))
        {
            skipping = true;            /* drop the rest of this line */
            have = 0;
        }
        else
        {
            memmove(buffer, start, have);
        }
    }
    close(fd);
    commit_run(report, &run);
    assign_frames(report);
}
