/* symbolize.c - turn the raw frames of a crash report into source lines.
 *
 * Each module that holds a frame is reported to libdwfl at the load bias
 * the crashing process had, from the file named in the report, and only if
 * that file still has the build id the process had mapped: a rebuilt
 * binary would give plausible but wrong lines. Separate debug files are
 * found the standard way (build id under /usr/lib/debug, .gnu_debuglink).
 * A frame is then named by DWARF (function, file, line, and the chain of
 * inlined calls at that address), else by the nearest ELF symbol, else by
 * its module and offset. libdw is opened at run time (dw_library.c);
 * without it, every frame is named by its module and offset.
 */
#include "backtrace/symbolize_private.h"
#include "backtrace/dw_library_private.h"
#include "text/safe_output_private.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *debuginfo_path;

/* Report module 'index' to 'dwfl' if its file is what the process had. */
static Dwfl_Module *report_module(const dw_library *dw, Dwfl *dwfl,
                                  const crash_report *report, unsigned index)
{
    const crash_module *module = &report->modules[index];
    const char *path = crash_module_path(report, index);
    /* The path comes from the report: never block on a FIFO or a device. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    {
        close(fd);
        return NULL;
    }
    Dwfl_Module *mod = dw->dwfl_report_elf(dwfl, safe_base_name(path), path,
                                           fd, module->bias, true);
    if (!mod)
    {
        close(fd);
        return NULL;
    }
    if (module->build_id_size)
    {
        const unsigned char *bits;
        GElf_Addr where;
        int size = dw->dwfl_module_build_id(mod, &bits, &where);
        if (size != (int) module->build_id_size ||
            memcmp(bits, module->build_id, module->build_id_size) != 0)
            return NULL;                /* rebuilt since: its lines lie */
    }
    return mod;
}

/* File names relative to the compilation directory, as they were given to
 * the compiler. */
static const char *relative(const char *file, const char *directory)
{
    size_t len = directory ? strlen(directory) : 0;
    if (file && len && strncmp(file, directory, len) == 0 &&
        file[len] == '/' && file[len + 1])
        return file + len + 1;
    return file;
}

static const char *die_name(const dw_library *dw, Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name =
        dw->dwarf_formstring(dw->dwarf_attr_integrate(die, DW_AT_name, &attr));
    if (!name)
        name = dw->dwarf_formstring(
            dw->dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    return name;
}

typedef struct lookup
{
    const dw_library   *dw;
    recorder_backtrace *bt;
    backtrace_frame_info base;          /* module, offset, symbol */
    bool                ok;
} lookup;

static void emit(lookup *l, const char *function, const char *file,
                 unsigned line)
{
    backtrace_frame_info info = l->base;
    info.function = function;
    info.file = file;
    info.line = file ? line : 0;
    if (!backtrace_add_frame(l->bt, &info))
        l->ok = false;
}

/* Frames for the functions at 'pc' (the one containing it, and those it
 * was inlined into), innermost first. False if DWARF knows nothing. */
static bool emit_scopes(lookup *l, Dwfl_Module *mod, Dwarf_Addr pc,
                        const char *file, unsigned line)
{
    const dw_library *dw = l->dw;
    Dwarf_Addr bias;
    Dwarf_Die *cu = dw->dwfl_module_addrdie(mod, pc, &bias);
    if (!cu)
        return false;
    Dwarf_Attribute attr;
    const char *directory =
        dw->dwarf_formstring(dw->dwarf_attr(cu, DW_AT_comp_dir, &attr));
    Dwarf_Files *files = NULL;
    size_t file_count = 0;
    if (dw->dwarf_getsrcfiles(cu, &files, &file_count) != 0)
        files = NULL;

    /* The innermost scope at pc, then everything it is nested in: for an
     * inlined call, dwarf_getscopes() goes on with the abstract definition,
     * dwarf_getscopes_die() with the functions it was inlined into. */
    Dwarf_Die *innermost = NULL, *scopes = NULL;
    int count = dw->dwarf_getscopes(cu, pc - bias, &innermost);
    if (count > 0)
        count = dw->dwarf_getscopes_die(&innermost[0], &scopes);
    free(innermost);
    bool emitted = false;
    for (int s = 0; s < count; s++)
    {
        int tag = dw->dwarf_tag(&scopes[s]);
        if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
            continue;
        emit(l, die_name(dw, &scopes[s]), relative(file, directory), line);
        emitted = true;
        if (tag == DW_TAG_subprogram)
            break;
        /* Inlined: the next function out called it from here. */
        Dwarf_Word value;
        file = NULL;
        line = 0;
        if (files &&
            dw->dwarf_formudata(dw->dwarf_attr(&scopes[s], DW_AT_call_file,
                                               &attr), &value) == 0 &&
            value < file_count)
            file = dw->dwarf_filesrc(files, value, NULL, NULL);
        if (dw->dwarf_formudata(dw->dwarf_attr(&scopes[s], DW_AT_call_line,
                                               &attr), &value) == 0)
            line = (unsigned) value;
    }
    free(scopes);
    return emitted;
}

static void symbolize_frame(lookup *l, Dwfl_Module *mod,
                            const crash_frame *frame)
{
    const dw_library *dw = l->dw;
    bool exact = frame->flags & CRASH_FRAME_EXACT;
    /* A return address may be the first byte of the next line, or of the
     * next function: look up the call instruction before it. */
    Dwarf_Addr pc = frame->pc - !exact;

    GElf_Off offset = 0;
    GElf_Sym sym;
    const char *symbol = dw->dwfl_module_addrinfo(mod, pc, &offset, &sym,
                                                  NULL, NULL, NULL);
    if (symbol)
    {
        l->base.symbol = symbol;
        l->base.symbol_offset = offset + !exact;
    }
    const char *file = NULL;
    int line = 0;
    Dwfl_Line *where = dw->dwfl_module_getsrc(mod, pc);
    if (where)
        file = dw->dwfl_lineinfo(where, NULL, &line, NULL, NULL, NULL);
    if (line < 0)
        line = 0;
    if (emit_scopes(l, mod, pc, file, (unsigned) line))
        return;
    /* No DWARF: the symbol names the function if the address is in it. */
    bool inside = symbol && (offset < sym.st_size || sym.st_size == 0);
    emit(l, inside ? symbol : NULL, file, (unsigned) line);
}

bool symbolize_report(const crash_report *report, recorder_backtrace *bt,
                      bool open_files)
{
    backtrace_process_info process = {
        .program = report->program, .host = report->host,
        .thread = report->thread, .pid = report->pid, .tid = report->tid,
        .signal = report->signal, .code = report->code,
        .address = report->address, .sender = report->sender,
        .flags = report->flags & CRASH_FRAMES_TRUNCATED ? BACKTRACE_TRUNCATED
                                                        : 0,
    };
    if (!backtrace_add_process(bt, &process))
        return false;

    /* Only the modules that hold frames are worth opening. */
    Dwfl_Module *modules[CRASH_MODULES] = { NULL };
    bool wanted[CRASH_MODULES] = { false };
    for (unsigned f = 0; f < report->frame_count; f++)
        if (report->frames[f].module != CRASH_NO_MODULE)
            wanted[report->frames[f].module] = true;
    /* Without libdw, every frame keeps its module and offset. dwfl keeps a
     * pointer to the callbacks until dwfl_end(). */
    const dw_library *dw = open_files ? dw_library_get() : NULL;
    Dwfl_Callbacks callbacks = { .debuginfo_path = &debuginfo_path };
    if (dw)
    {
        callbacks.find_elf = dw->dwfl_build_id_find_elf;
        callbacks.find_debuginfo = dw->dwfl_standard_find_debuginfo;
        callbacks.section_address = dw->dwfl_offline_section_address;
    }
    Dwfl *dwfl = dw ? dw->dwfl_begin(&callbacks) : NULL;
    if (dwfl)
    {
        dw->dwfl_report_begin(dwfl);
        for (unsigned m = 0; m < report->module_count; m++)
            if (wanted[m])
                modules[m] = report_module(dw, dwfl, report, m);
        dw->dwfl_report_end(dwfl, NULL, NULL);
    }

    bool ok = true;
    for (unsigned f = 0; f < report->frame_count && ok; f++)
    {
        const crash_frame *frame = &report->frames[f];
        lookup l = { .dw = dw, .bt = bt, .ok = true };
        if (frame->module == CRASH_NO_MODULE)
        {
            l.base.offset = frame->pc;
            emit(&l, NULL, NULL, 0);
        }
        else
        {
            const crash_module *module = &report->modules[frame->module];
            l.base.module = crash_module_path(report, frame->module);
            l.base.offset = frame->pc - module->bias;
            if (modules[frame->module])
                symbolize_frame(&l, modules[frame->module], frame);
            else
                emit(&l, NULL, NULL, 0);
        }
        ok = l.ok;
    }
    if (dwfl)
        dw->dwfl_end(dwfl);
    return ok;
}
