/* backtrace.c - chains of symbolized frames across processes and hosts.
 *
 * A chain is a list of processes, the innermost callee first, each with its
 * frames. This file is the data structure and its text codec: chains are
 * built (by symbolize.c from a crash report, backtrace_capture.c for the
 * running thread, the parser here from a blob), written out as plain text
 * to travel in an RPC reply, parsed back on the other side, and printed
 * one numbered, tagged line per frame.
 *
 * Text format, one record a line, fields separated by one space:
 *
 *   recorder-backtrace 1
 *   process PROGRAM HOST PID TID THREAD SIGNAL CODE ADDRESS SENDER FRAMES FLAGS
 *   frame FUNCTION FILE LINE MODULE OFFSET SYMBOL SYMBOL_OFFSET
 *   ...                            (FRAMES frame lines per process)
 *   end PROCESSES FRAMES
 *
 * Strings are escaped: '-' alone is the empty string, and every byte that is
 * not printable ASCII, '%' or a string "-" are written %XX. Numbers are
 * decimal (CODE may be negative); ADDRESS, OFFSET and SYMBOL_OFFSET are
 * 0x-prefixed hex. The parser accepts exactly this and nothing else: a
 * missing, extra or malformed field or line, a count that does not match, or
 * a decoded control character makes the whole blob an error.
 */
#define _GNU_SOURCE                     /* open_memstream */
#include "backtrace/backtrace_private.h"
#include "backtrace/hex_private.h"
#include "text/safe_output_private.h"
#include "backtrace/crash_report_private.h"
#include "recorder_share.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct process
{
    char *   program;
    char *   host;
    char *   thread;
    uint32_t pid, tid, sender, flags;
    int32_t  signal, code;
    uint64_t address;
    unsigned first, count;              /* its frames */
} process;

typedef struct frame
{
    char *   function;
    char *   file;
    char *   module;
    char *   symbol;
    unsigned line;
    uint64_t offset;
    uint64_t symbol_offset;
    unsigned process;
} frame;

struct recorder_backtrace
{
    process *processes;
    unsigned process_count, process_room;
    frame *  frames;
    unsigned frame_count, frame_room;
};

/* ---- building ------------------------------------------------------------- */

recorder_backtrace *backtrace_new(void)
{
    return calloc(1, sizeof(recorder_backtrace));
}

/* A copy of 'text', or NULL for NULL; '*ok' goes false if out of memory. */
static char *copy(const char *text, bool *ok)
{
    if (!text)
        return NULL;
    char *result = strdup(text);
    if (!result)
        *ok = false;
    return result;
}

/* Room for 'needed' items of 'size' bytes in the array at '*array'. */
#define GROW(Array, Room, Needed)                                       \
    grow_array((void *) &(Array), sizeof(*(Array)), &(Room), (Needed))

static bool grow_array(void *array_pointer, size_t item, unsigned *room,
                       unsigned needed)
{
    if (needed <= *room)
        return true;
    unsigned wanted = *room ? *room * 2 : 8;
    while (wanted < needed)
        wanted *= 2;
    void *array;
    memcpy(&array, array_pointer, sizeof(array));
    void *bigger = realloc(array, (size_t) wanted * item);
    if (!bigger)
        return false;
    memcpy(array_pointer, &bigger, sizeof(bigger));
    *room = wanted;
    return true;
}

static void free_process(process *p)
{
    free(p->program);
    free(p->host);
    free(p->thread);
}

static void free_frame(frame *f)
{
    free(f->function);
    free(f->file);
    free(f->module);
    free(f->symbol);
}

bool backtrace_add_process(recorder_backtrace *bt,
                           const backtrace_process_info *info)
{
    if (bt->process_count >= BACKTRACE_MAX_PROCESSES ||
        !GROW(bt->processes, bt->process_room, bt->process_count + 1))
        return false;
    bool ok = true;
    process p = {
        .program = copy(info->program ? info->program : "", &ok),
        .host = copy(info->host ? info->host : "", &ok),
        .thread = copy(info->thread ? info->thread : "", &ok),
        .pid = info->pid, .tid = info->tid, .sender = info->sender,
        .flags = info->flags, .signal = info->signal, .code = info->code,
        .address = info->address, .first = bt->frame_count, .count = 0,
    };
    if (!ok)
    {
        free_process(&p);
        return false;
    }
    bt->processes[bt->process_count++] = p;
    return true;
}

bool backtrace_add_frame(recorder_backtrace *bt,
                         const backtrace_frame_info *info)
{
    if (!bt->process_count || bt->frame_count >= BACKTRACE_MAX_FRAMES ||
        !GROW(bt->frames, bt->frame_room, bt->frame_count + 1))
        return false;
    bool ok = true;
    frame f = {
        .function = copy(info->function, &ok),
        .file = copy(info->file, &ok),
        .module = copy(info->module, &ok),
        .symbol = copy(info->symbol, &ok),
        .line = info->line, .offset = info->offset,
        .symbol_offset = info->symbol_offset,
        .process = bt->process_count - 1,
    };
    if (!ok)
    {
        free_frame(&f);
        return false;
    }
    bt->frames[bt->frame_count++] = f;
    bt->processes[bt->process_count - 1].count++;
    return true;
}

void recorder_backtrace_delete(recorder_backtrace *bt)
{
    if (!bt)
        return;
    for (unsigned p = 0; p < bt->process_count; p++)
        free_process(&bt->processes[p]);
    for (unsigned f = 0; f < bt->frame_count; f++)
        free_frame(&bt->frames[f]);
    free(bt->processes);
    free(bt->frames);
    free(bt);
}

/* ---- accessors ----------------------------------------------------------------- */

unsigned recorder_backtrace_count(const recorder_backtrace *bt)
{
    return bt ? bt->frame_count : 0;
}

bool recorder_backtrace_frame_info(const recorder_backtrace *bt,
                                   unsigned index,
                                   recorder_backtrace_frame *out)
{
    if (!bt || index >= bt->frame_count)
        return false;
    const frame *f = &bt->frames[index];
    const process *p = &bt->processes[f->process];
    *out = (recorder_backtrace_frame) {
        .program = p->program, .host = p->host, .pid = p->pid,
        .function = f->function,
        .file = f->file, .line = f->line, .module = f->module,
        .offset = f->offset, .symbol = f->symbol,
        .symbol_offset = f->symbol_offset, .signal = p->signal,
    };
    return true;
}

/* ---- printing --------------------------------------------------------------------- */

/* Strings may come from another host or a segment anyone can write: keep
 * control characters (terminal escapes, newlines) out of the output, shown
 * as \xNN, one piece at a time so a long one needs no allocation. */
static void put_clean(FILE *out, const char *text)
{
    char shown[4 * 64 + 1];
    size_t length = strlen(text);
    while (length)
    {
        size_t piece = length < 64 ? length : 64;
        /* Never cut a UTF-8 character in two: back up to its lead byte. */
        while (piece < length && piece > 1 &&
               ((unsigned char) text[piece] & 0xC0) == 0x80)
            piece--;
        fwrite(shown, 1, recorder_share_escape(shown, sizeof(shown), text,
                                               piece), out);
        text += piece;
        length -= piece;
    }
}

static void put_tag(FILE *out, const process *p)
{
    put_clean(out, p->program);
    fputs(" @ ", out);
    put_clean(out, p->host);
}

static void print_crash(FILE *out, const process *p)
{
    char buffer[32];
    put_tag(out, p);
    fprintf(out, " Received %s", crash_signal_name(p->signal, buffer,
                                                    sizeof(buffer)));
    const char *text = crash_code_text(p->signal, p->code);
    if (text)
        fprintf(out, " (%s)", text);
    else if (p->code > 0)
        fprintf(out, " (code %d)", p->code);
    if (p->code > 0 && crash_signal_has_address(p->signal))
        fprintf(out, " at address %#llx", (unsigned long long) p->address);
    if (p->code <= 0 && p->sender)
        fprintf(out, " sent by process %u", p->sender);
    fprintf(out, " in thread %u \"", p->tid);
    put_clean(out, p->thread);
    fprintf(out, "\", pid %u\n", p->pid);
}

static void print_frame(FILE *out, const recorder_backtrace *bt,
                        unsigned index)
{
    const frame *f = &bt->frames[index];
    const process *p = &bt->processes[f->process];
    const char *verb = index > 0 ? "Called from"
                     : p->signal ? "Crashed at" : "Failed at";
    fprintf(out, "%u/%u ", index, bt->frame_count);
    put_tag(out, p);
    fprintf(out, " %s ", verb);
    if (f->file && f->line)
    {
        fputs("file \"", out);
        put_clean(out, f->file);
        fprintf(out, "\", line %u, in ", f->line);
        put_clean(out, f->function ? f->function
                     : f->symbol ? f->symbol : "??");
    }
    else if (f->module)
    {
        fputs("module \"", out);
        put_clean(out, safe_base_name(f->module));
        fprintf(out, "\", offset %#llx", (unsigned long long) f->offset);
        if (f->symbol)
        {
            fputs(", near ", out);
            put_clean(out, f->symbol);
            fprintf(out, "+%#llx", (unsigned long long) f->symbol_offset);
        }
    }
    else
    {
        fprintf(out, "address %#llx", (unsigned long long) f->offset);
    }
    fputc('\n', out);
}

unsigned recorder_backtrace_print(const recorder_backtrace *bt, FILE *out)
{
    unsigned lines = 0;
    if (!bt)
        return 0;
    for (unsigned p = 0; p < bt->process_count; p++)
    {
        const process *proc = &bt->processes[p];
        if (proc->signal)
        {
            print_crash(out, proc);
            lines++;
        }
        for (unsigned f = proc->first; f < proc->first + proc->count; f++)
        {
            print_frame(out, bt, f);
            lines++;
        }
        if (proc->flags & BACKTRACE_TRUNCATED)
        {
            put_tag(out, proc);
            fputs(" Deeper frames were not captured\n", out);
            lines++;
        }
    }
    fflush(out);
    return lines;
}

/* ---- text ---------------------------------------------------------------------------- */

static void put_escaped(FILE *out, const char *text)
{
    fputc(' ', out);
    if (!text || !*text)
    {
        fputc('-', out);
        return;
    }
    if (strcmp(text, "-") == 0)
    {
        fputs("%2D", out);
        return;
    }
    for (const unsigned char *c = (const unsigned char *) text; *c; c++)
        if (*c <= 0x20 || *c >= 0x7f || *c == '%')
            fprintf(out, "%%%02X", *c);
        else
            fputc(*c, out);
}

char *recorder_backtrace_text(const recorder_backtrace *bt, size_t *length)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    fprintf(out, "recorder-backtrace 1\n");
    for (unsigned p = 0; bt && p < bt->process_count; p++)
    {
        const process *proc = &bt->processes[p];
        fputs("process", out);
        put_escaped(out, proc->program);
        put_escaped(out, proc->host);
        fprintf(out, " %u %u", proc->pid, proc->tid);
        put_escaped(out, proc->thread);
        fprintf(out, " %d %d %#llx %u %u %u\n", proc->signal, proc->code,
                (unsigned long long) proc->address, proc->sender,
                proc->count, proc->flags);
        for (unsigned f = proc->first; f < proc->first + proc->count; f++)
        {
            const frame *fr = &bt->frames[f];
            fputs("frame", out);
            put_escaped(out, fr->function);
            put_escaped(out, fr->file);
            fprintf(out, " %u", fr->line);
            put_escaped(out, fr->module);
            fprintf(out, " %#llx", (unsigned long long) fr->offset);
            put_escaped(out, fr->symbol);
            fprintf(out, " %#llx\n", (unsigned long long) fr->symbol_offset);
        }
    }
    fprintf(out, "end %u %u\n", bt ? bt->process_count : 0,
            bt ? bt->frame_count : 0);
    bool failed = ferror(out) != 0;
    if (fclose(out) != 0 || failed)
    {
        free(text);
        return NULL;
    }
    if (length)
        *length = size;
    return text;
}

/* ---- parsing ---------------------------------------------------------------------------- */

#define MAX_FIELDS      12

typedef struct parser
{
    const char *at, *end;
    unsigned    line;
    char *      error;
    size_t      error_size;
    bool        failed;
    /* The current line, split. */
    const char *field[MAX_FIELDS];
    size_t      length[MAX_FIELDS];
    unsigned    fields;
} parser;

__attribute__((format(printf, 2, 3)))
static bool fail(parser *ps, const char *format, ...)
{
    if (ps->failed)
        return false;
    ps->failed = true;
    char reason[256];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof(reason), format, args);
    va_end(args);
    if (ps->error && ps->error_size)
        snprintf(ps->error, ps->error_size, "line %u: %s", ps->line, reason);
    return false;
}

/* Split the next line into fields; false at the end of the text or on a
 * line that is not whole or well separated. */
static bool next_line(parser *ps)
{
    ps->line++;
    ps->fields = 0;
    if (ps->at >= ps->end)
        return fail(ps, "truncated: the text ends before its 'end' line");
    const char *newline = memchr(ps->at, '\n', (size_t) (ps->end - ps->at));
    if (!newline)
        return fail(ps, "truncated: the last line is not finished");
    const char *p = ps->at;
    ps->at = newline + 1;
    while (p < newline)
    {
        const char *space = memchr(p, ' ', (size_t) (newline - p));
        const char *stop = space ? space : newline;
        if (stop == p)
            return fail(ps, "empty field");
        if (ps->fields == MAX_FIELDS)
            return fail(ps, "too many fields");
        ps->field[ps->fields] = p;
        ps->length[ps->fields] = (size_t) (stop - p);
        ps->fields++;
        p = stop;
        if (space && ++p == newline)
            return fail(ps, "trailing space");
    }
    return ps->fields > 0 || fail(ps, "empty line");
}

static bool keyword(const parser *ps, const char *word)
{
    return ps->fields > 0 && ps->length[0] == strlen(word) &&
           memcmp(ps->field[0], word, ps->length[0]) == 0;
}

static bool unsigned_field(parser *ps, unsigned index, uint64_t max,
                           uint64_t *value)
{
    const char *p = ps->field[index];
    size_t len = ps->length[index];
    uint64_t v = 0;
    if (len == 0 || len > 20)
        return fail(ps, "field %u: not a number", index);
    for (size_t i = 0; i < len; i++)
    {
        if (p[i] < '0' || p[i] > '9')
            return fail(ps, "field %u: not a number", index);
        unsigned digit = (unsigned) (p[i] - '0');
        if (digit > max || v > (max - digit) / 10)
            return fail(ps, "field %u: number out of range", index);
        v = v * 10 + digit;
    }
    *value = v;
    return true;
}

static bool signed_field(parser *ps, unsigned index, int32_t *value)
{
    bool negative = ps->length[index] > 1 && ps->field[index][0] == '-';
    if (negative)
    {
        ps->field[index]++;
        ps->length[index]--;
    }
    uint64_t magnitude;
    if (!unsigned_field(ps, index, negative ? 0x80000000u : 0x7fffffffu,
                        &magnitude))
        return false;
    *value = negative ? (int32_t) -(int64_t) magnitude : (int32_t) magnitude;
    return true;
}

static bool hex_field(parser *ps, unsigned index, uint64_t *value)
{
    const char *p = ps->field[index];
    size_t len = ps->length[index];
    if (len == 1 && p[0] == '0')
    {
        *value = 0;                     /* "%#llx" writes zero as "0" */
        return true;
    }
    if (len < 3 || len > 18 || p[0] != '0' || p[1] != 'x')
        return fail(ps, "field %u: not a 0x-prefixed hex number", index);
    uint64_t v = 0;
    for (size_t i = 2; i < len; i++)
    {
        int digit = hex_digit(p[i]);
        if (digit < 0)
            return fail(ps, "field %u: not a hex number", index);
        v = v << 4 | (uint64_t) digit;
    }
    *value = v;
    return true;
}

/* Decode string field 'index' into a new string ("" for "-"), or NULL
 * with the parser failed. */
static char *string_field(parser *ps, unsigned index)
{
    const char *p = ps->field[index];
    size_t len = ps->length[index];
    if (len == 1 && p[0] == '-')
    {
        char *empty = strdup("");
        if (!empty)
            fail(ps, "out of memory");
        return empty;
    }
    if (len > 3 * BACKTRACE_MAX_STRING)
    {
        fail(ps, "field %u: string too long", index);
        return NULL;
    }
    char *text = malloc(len + 1);
    if (!text)
    {
        fail(ps, "out of memory");
        return NULL;
    }
    size_t out = 0;
    for (size_t i = 0; i < len; i++)
    {
        int byte = (unsigned char) p[i];
        if (byte == '%')
        {
            int high = i + 2 < len ? hex_digit(p[i + 1]) : -1;
            int low = i + 2 < len ? hex_digit(p[i + 2]) : -1;
            if (high < 0 || low < 0)
            {
                free(text);
                fail(ps, "field %u: bad %% escape", index);
                return NULL;
            }
            byte = high << 4 | low;
            i += 2;
            if (byte < 0x20 || byte == 0x7f)
            {
                free(text);
                fail(ps, "field %u: control character", index);
                return NULL;
            }
        }
        else if (byte <= 0x20 || byte >= 0x7f)
        {
            free(text);
            fail(ps, "field %u: unescaped byte %#x", index, (unsigned) byte);
            return NULL;
        }
        text[out++] = (char) byte;
    }
    text[out] = 0;
    if (out > BACKTRACE_MAX_STRING)
    {
        free(text);
        fail(ps, "field %u: string too long", index);
        return NULL;
    }
    return text;
}

/* A string field, NULL when empty ("unknown"). */
static bool optional_string(parser *ps, unsigned index, char **out)
{
    *out = string_field(ps, index);
    if (!*out)
        return false;
    if (!**out)
    {
        free(*out);
        *out = NULL;
    }
    return true;
}

static bool parse_process(parser *ps, recorder_backtrace *bt, uint64_t *frames)
{
    if (!keyword(ps, "process"))
        return fail(ps, "expected a 'process' line");
    if (ps->fields != 12)
        return fail(ps, "a process line has 12 fields, not %u", ps->fields);
    uint64_t pid, tid, sender, flags;
    int32_t sig, code;
    uint64_t address;
    char *program = string_field(ps, 1);
    char *host = program ? string_field(ps, 2) : NULL;
    char *thread = host ? string_field(ps, 5) : NULL;
    bool ok = thread &&
        unsigned_field(ps, 3, UINT32_MAX, &pid) &&
        unsigned_field(ps, 4, UINT32_MAX, &tid) &&
        signed_field(ps, 6, &sig) && signed_field(ps, 7, &code) &&
        hex_field(ps, 8, &address) &&
        unsigned_field(ps, 9, UINT32_MAX, &sender) &&
        unsigned_field(ps, 10, BACKTRACE_MAX_FRAMES, frames) &&
        unsigned_field(ps, 11, BACKTRACE_TRUNCATED, &flags);
    if (ok && (sig < 0 || sig >= 128))
        ok = fail(ps, "bad signal number %d", sig);
    if (ok)
    {
        backtrace_process_info info = {
            .program = program, .host = host, .thread = thread,
            .pid = (uint32_t) pid, .tid = (uint32_t) tid, .signal = sig,
            .code = code, .address = address, .sender = (uint32_t) sender,
            .flags = (uint32_t) flags,
        };
        if (!backtrace_add_process(bt, &info))
            ok = fail(ps, "more than %d processes, or out of memory",
                      BACKTRACE_MAX_PROCESSES);
    }
    free(program);
    free(host);
    free(thread);
    return ok;
}

static bool parse_frame(parser *ps, recorder_backtrace *bt)
{
    if (!keyword(ps, "frame"))
        return fail(ps, "expected a 'frame' line");
    if (ps->fields != 8)
        return fail(ps, "a frame line has 8 fields, not %u", ps->fields);
    char *function = NULL, *file = NULL, *module = NULL, *symbol = NULL;
    uint64_t line = 0, offset = 0, symbol_offset = 0;
    bool ok = optional_string(ps, 1, &function) &&
              optional_string(ps, 2, &file) &&
              unsigned_field(ps, 3, UINT32_MAX, &line) &&
              optional_string(ps, 4, &module) &&
              hex_field(ps, 5, &offset) &&
              optional_string(ps, 6, &symbol) &&
              hex_field(ps, 7, &symbol_offset);
    if (ok)
    {
        backtrace_frame_info info = {
            .function = function, .file = file, .line = (unsigned) line,
            .module = module, .offset = offset, .symbol = symbol,
            .symbol_offset = symbol_offset,
        };
        if (!backtrace_add_frame(bt, &info))
            ok = fail(ps, "more than %d frames, or out of memory",
                      BACKTRACE_MAX_FRAMES);
    }
    free(function);
    free(file);
    free(module);
    free(symbol);
    return ok;
}

static bool parse_all(parser *ps, recorder_backtrace *bt)
{
    if (!next_line(ps))
        return false;
    if (!keyword(ps, "recorder-backtrace") || ps->fields != 2)
        return fail(ps, "not a recorder backtrace");
    if (ps->length[1] != 1 || ps->field[1][0] != '1')
        return fail(ps, "unsupported version %.*s",
                    (int) (ps->length[1] > 8 ? 8 : ps->length[1]),
                    ps->field[1]);
    for (;;)
    {
        if (!next_line(ps))
            return false;
        if (keyword(ps, "end"))
            break;
        uint64_t frames;
        if (!parse_process(ps, bt, &frames))
            return false;
        for (uint64_t f = 0; f < frames; f++)
            if (!next_line(ps) || !parse_frame(ps, bt))
                return false;
    }
    uint64_t processes, frames;
    if (ps->fields != 3 ||
        !unsigned_field(ps, 1, BACKTRACE_MAX_PROCESSES, &processes) ||
        !unsigned_field(ps, 2, BACKTRACE_MAX_FRAMES, &frames))
        return fail(ps, "malformed 'end' line");
    if (processes != bt->process_count || frames != bt->frame_count)
        return fail(ps, "'end' counts %u processes and %u frames, "
                    "the text has %u and %u", (unsigned) processes,
                    (unsigned) frames, bt->process_count, bt->frame_count);
    /* Nothing after the end, except the NUL of a C string. */
    if (ps->at < ps->end && !(ps->end - ps->at == 1 && *ps->at == 0))
        return fail(ps, "data after the 'end' line");
    return true;
}

recorder_backtrace *recorder_backtrace_parse(const char *blob, size_t length,
                                             char *error, size_t size)
{
    if (error && size)
        error[0] = 0;
    if (!blob)
    {
        if (error && size)
            snprintf(error, size, "no backtrace text");
        return NULL;
    }
    if (length > BACKTRACE_MAX_TEXT)
    {
        if (error && size)
            snprintf(error, size, "backtrace text larger than %u bytes",
                     BACKTRACE_MAX_TEXT);
        return NULL;
    }
    recorder_backtrace *bt = backtrace_new();
    if (!bt)
    {
        if (error && size)
            snprintf(error, size, "out of memory");
        return NULL;
    }
    parser ps = { .at = blob, .end = blob + length, .error = error,
                  .error_size = size };
    if (!parse_all(&ps, bt))
    {
        recorder_backtrace_delete(bt);
        return NULL;
    }
    return bt;
}

bool recorder_backtrace_attach(recorder_backtrace *bt, const char *blob,
                               size_t length, char *error, size_t size)
{
    recorder_backtrace *callee = recorder_backtrace_parse(blob, length,
                                                          error, size);
    if (!callee)
        return false;
    if (callee->process_count + bt->process_count > BACKTRACE_MAX_PROCESSES ||
        callee->frame_count + bt->frame_count > BACKTRACE_MAX_FRAMES ||
        !GROW(callee->processes, callee->process_room,
              callee->process_count + bt->process_count) ||
        !GROW(callee->frames, callee->frame_room,
              callee->frame_count + bt->frame_count))
    {
        if (error && size)
            snprintf(error, size, "chain too long: more than %d processes "
                     "or %d frames", BACKTRACE_MAX_PROCESSES,
                     BACKTRACE_MAX_FRAMES);
        recorder_backtrace_delete(callee);
        return false;
    }
    /* Our processes and frames go after the callee's; theirs move in. */
    for (unsigned p = 0; p < bt->process_count; p++)
    {
        process moved = bt->processes[p];
        moved.first += callee->frame_count;
        callee->processes[callee->process_count + p] = moved;
    }
    for (unsigned f = 0; f < bt->frame_count; f++)
    {
        frame moved = bt->frames[f];
        moved.process += callee->process_count;
        callee->frames[callee->frame_count + f] = moved;
    }
    callee->process_count += bt->process_count;
    callee->frame_count += bt->frame_count;
    free(bt->processes);
    free(bt->frames);
    *bt = *callee;
    free(callee);
    return true;
}
