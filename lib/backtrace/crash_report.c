/* crash_report.c - check a crash report before believing it, and name
 * signals for it.
 *
 * A report reaches its readers through a pipe or a shared file that the
 * crashing process (whose memory may be corrupt) or anyone else with write
 * access may have filled: every count, index, offset and string is checked
 * here, on the reader's private copy, before any other code looks at it.
 */
#include "backtrace/crash_report_private.h"
#include "text/safe_output_private.h"

#include <stdio.h>
#include <string.h>

static bool terminated(const char *text, size_t size)
{
    return memchr(text, 0, size) != NULL;
}

bool crash_report_check(const crash_report *report, char *why, size_t size)
{
    const char *problem = NULL;
    unsigned index = 0;
    if (report->magic != CRASH_MAGIC)
        problem = "not a crash report (bad magic)";
    else if (report->version != CRASH_VERSION ||
             report->size != sizeof(crash_report))
        problem = "written by another version of the library";
    else if (report->state != CRASH_STATE_COMPLETE)
        problem = "incomplete: the process died while writing it";
    else if (report->frame_count > CRASH_FRAMES ||
             report->module_count > CRASH_MODULES ||
             report->strings_used > CRASH_STRINGS)
        problem = "counts out of range";
    else if (!terminated(report->program, sizeof(report->program)) ||
             !terminated(report->host, sizeof(report->host)) ||
             !terminated(report->thread, sizeof(report->thread)))
        problem = "unterminated name";
    else if (report->signal < 0 || report->signal >= 128)
        problem = "bad signal number";
    if (problem)
        goto bad;

    for (index = 0; index < report->module_count; index++)
    {
        const crash_module *module = &report->modules[index];
        if (module->path >= report->strings_used ||
            !terminated(report->strings + module->path,
                        report->strings_used - module->path))
            problem = "module path outside the strings";
        else if (module->build_id_size > CRASH_BUILD_ID_MAX)
            problem = "build id too long";
        else if (module->start > module->end)
            problem = "module ends before it starts";
        if (problem)
        {
            snprintf(why, size, "module %u: %s", index, problem);
            return false;
        }
    }
    for (index = 0; index < report->frame_count; index++)
    {
        uint32_t module = report->frames[index].module;
        if (module != CRASH_NO_MODULE && module >= report->module_count)
        {
            snprintf(why, size, "frame %u: module %u does not exist",
                     index, module);
            return false;
        }
    }
    return true;

bad:
    snprintf(why, size, "%s", problem);
    return false;
}

const char *crash_module_path(const crash_report *report, unsigned index)
{
    return report->strings + report->modules[index].path;
}

const char *crash_signal_name(int sig, char *buffer, size_t size)
{
    switch (sig)
    {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS:  return "SIGBUS";
    case SIGILL:  return "SIGILL";
    case SIGFPE:  return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGSYS:  return "SIGSYS";
    case SIGTRAP: return "SIGTRAP";
    case SIGQUIT: return "SIGQUIT";
    case SIGTERM: return "SIGTERM";
    case SIGKILL: return "SIGKILL";
    case SIGINT:  return "SIGINT";
    case SIGHUP:  return "SIGHUP";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
#ifdef SIGSTKFLT
    case SIGSTKFLT: return "SIGSTKFLT";
#endif
#ifdef SIGPWR
    case SIGPWR:  return "SIGPWR";
#endif
#ifdef SIGINFO
    case SIGINFO: return "SIGINFO";
#endif
    default:      break;
    }
    /* "signal NN" without snprintf, which is not async-signal-safe. */
    if (size < sizeof("signal 999"))
        return "signal";
    safe_append(buffer, size, 0, "signal %u",
                SAFE_ARGS(sig < 0 ? 0 : (unsigned) sig % 1000));
    return buffer;
}

bool crash_signal_has_address(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
           sig == SIGFPE || sig == SIGTRAP;
}

const char *crash_code_text(int sig, int code)
{
    switch (sig)
    {
    case SIGSEGV:
        switch (code)
        {
        case SEGV_MAPERR: return "address not mapped";
        case SEGV_ACCERR: return "no permission for the access";
        default:          return NULL;
        }
    case SIGBUS:
        switch (code)
        {
        case BUS_ADRALN: return "misaligned address";
        case BUS_ADRERR: return "address beyond the object";
        case BUS_OBJERR: return "hardware error";
        default:         return NULL;
        }
    case SIGFPE:
        switch (code)
        {
        case FPE_INTDIV: return "integer divide by zero";
        case FPE_INTOVF: return "integer overflow";
        case FPE_FLTDIV: return "floating-point divide by zero";
        case FPE_FLTOVF: return "floating-point overflow";
        case FPE_FLTUND: return "floating-point underflow";
        case FPE_FLTRES: return "inexact floating-point result";
        case FPE_FLTINV: return "invalid floating-point operation";
        default:         return NULL;
        }
    case SIGILL:
        switch (code)
        {
        case ILL_ILLOPC: return "illegal opcode";
        case ILL_ILLOPN: return "illegal operand";
        case ILL_PRVOPC: return "privileged opcode";
        case ILL_BADSTK: return "internal stack error";
        default:         return NULL;
        }
    default:
        return NULL;
    }
}
