/* recorder_backtrace.h - symbolized backtraces that cross processes and hosts.
 *
 *   // In a server, when a request fails:
 *   recorder_backtrace *bt = recorder_backtrace_capture(0);
 *   size_t length;
 *   char *blob = recorder_backtrace_text(bt, &length);
 *   send_error_reply(client, "bad request", blob, length);
 *
 *   // In the client that receives the error:
 *   recorder_backtrace *chain = recorder_backtrace_capture(0);
 *   char why[256];
 *   if (!recorder_backtrace_attach(chain, blob, length, why, sizeof(why)))
 *       fprintf(stderr, "bad backtrace from server: %s\n", why);
 *   recorder_backtrace_print(chain, stderr);
 *
 * prints one chain, the callee's frames first, numbered across processes,
 * each frame tagged with the program and host that ran it:
 *
 *   0/5 rpc_server @ db-01 Failed at file "server.c", line 40, in parse
 *   1/5 rpc_server @ db-01 Called from file "server.c", line 61, in handle
 *   2/5 rpc_client @ web-07 Called from file "client.c", line 18, in call
 *   ...
 *
 * Frames are symbolized (function, file, line, with inlined calls shown as
 * frames of their own) in the process that captures them, with elfutils'
 * libdw, so the text needs nothing from the host that receives it. A blob
 * is plain text (see recorder_backtrace(3) for its grammar); one received
 * from elsewhere is never trusted: a malformed or truncated blob is
 * rejected with a reason, and strings from it are printed with control
 * characters replaced.
 *
 * The same format is used for crash reports: recorder_dump_on_common_signals()
 * prints one when the program dies of SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT or SIGSYS, and recorder_share_crash_backtrace() reads it back
 * from the shared segment after the process died.
 */
#ifndef RECORDER_BACKTRACE_H
#define RECORDER_BACKTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct recorder_backtrace recorder_backtrace;

/* The backtrace of the calling thread, symbolized, tagged with this
 * program and host. Frame 0 is the caller of this function, unless 'skip'
 * asks to leave out that many more (e.g. 1 from inside an error helper).
 * NULL if out of memory or the stack cannot be unwound. Not for signal
 * handlers: it allocates and reads debug information. */
extern recorder_backtrace *recorder_backtrace_capture(unsigned skip);

/* Parse a blob made by recorder_backtrace_text(), possibly in another
 * process or on another host. 'length' bytes of 'blob' are read (one
 * trailing NUL is allowed). NULL with a reason in error[size] if it is not
 * a whole, well-formed backtrace. */
extern recorder_backtrace *recorder_backtrace_parse(const char *blob,
                                                    size_t length,
                                                    char *error, size_t size);

/* Put the chain in 'blob' (from a callee: a server that failed while
 * handling our request) ahead of the frames of 'backtrace'. On error,
 * 'backtrace' is unchanged and the reason is in error[size]. */
extern bool recorder_backtrace_attach(recorder_backtrace *backtrace,
                                      const char *blob, size_t length,
                                      char *error, size_t size);

/* The whole chain as portable text, NUL-terminated, its length (without
 * the NUL) in '*length' if not NULL. Free it with free(). NULL if out of
 * memory. */
extern char *recorder_backtrace_text(const recorder_backtrace *backtrace,
                                     size_t *length);

/* Print the chain, one frame a line, numbered across processes:
 *   INDEX/COUNT PROGRAM @ HOST Called from file "F", line L, in FUNCTION
 * A frame without debug information shows its module, the offset in it
 * (an ELF address, for addr2line -e MODULE) and the nearest symbol:
 *   INDEX/COUNT PROGRAM @ HOST Called from module "libc.so.6", offset
 *   0x2724a, near __libc_start_main+0x85
 * The first frame says "Crashed at" for a crash report, "Failed at" for a
 * captured backtrace; a crash also gets a line naming the signal, the
 * faulting address and the thread before its frames. Returns the number
 * of lines printed. */
extern unsigned recorder_backtrace_print(const recorder_backtrace *backtrace,
                                         FILE *out);

/* One frame of a chain. Strings belong to the backtrace; NULL (or 0) when
 * not known. */
typedef struct recorder_backtrace_frame
{
    const char *program;                /* the process that ran the frame */
    const char *host;
    unsigned    pid;
    const char *function;               /* from DWARF, else the symbol */
    const char *file;                   /* source file, relative to the
                                           compilation directory */
    unsigned    line;
    const char *module;                 /* path of the executable or library */
    uint64_t    offset;                 /* ELF address in the module, or the
                                           absolute address if no module */
    const char *symbol;                 /* nearest symbol in the module */
    uint64_t    symbol_offset;          /* 'offset' from that symbol */
    int         signal;                 /* this frame's process died of it */
} recorder_backtrace_frame;

extern unsigned recorder_backtrace_count(const recorder_backtrace *backtrace);
extern bool recorder_backtrace_frame_info(const recorder_backtrace *backtrace,
                                          unsigned index,
                                          recorder_backtrace_frame *frame);

extern void recorder_backtrace_delete(recorder_backtrace *backtrace);

/* Give the calling thread its own alternate signal stack (freed when the
 * thread exits), so that a stack overflow in it still gets a crash report.
 * Threads do not inherit one: without it, a crash in the thread is still
 * reported, but a stack overflow kills the process silently. The thread
 * that calls recorder_dump_on_common_signals() gets one. */
extern void recorder_backtrace_thread_init(void);

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_BACKTRACE_H */
