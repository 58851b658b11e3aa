/* scope_text.c - list, dump and send commands, for terminals and scripts. */
#include "cli/scope_text.h"
#include "common/scope_message.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Names and descriptions come from the segment, paths from a directory
 * anyone writes to: escape their control characters before they reach a
 * terminal. Sized for the longest field the share API returns (128
 * bytes) or for a path, each byte possibly 4 shown. */
typedef struct clean_text
{
    char text[4 * 128 + 1];
} clean_text;

typedef struct clean_path
{
    char text[4 * PATH_MAX + 1];
} clean_path;

#define clean(buffer, from) \
    clean_into((buffer)->text, sizeof((buffer)->text), (from))

static const char *clean_into(char *out, size_t size, const char *text)
{
    recorder_share_escape(out, size, text, strlen(text));
    return out;
}

/* Why writing the output failed, noted right after the writes, while
 * errno still tells: a later fflush may have nothing left to fail on. */
static int output_error;

static void note_output_error(FILE *out)
{
    if (ferror(out) && !output_error)
        output_error = errno ? errno : EIO;
}

static const char *type_name(recorder_share_type type)
{
    switch (type)
    {
    case RECORDER_SHARE_SIGNED:   return "signed";
    case RECORDER_SHARE_UNSIGNED: return "unsigned";
    case RECORDER_SHARE_REAL:     return "real";
    default:                      return "unknown";
    }
}

/* The program's snapshot conditions (snapshot= items), if it armed any. */
static void list_snapshots(recorder_share *share, FILE *out)
{
    recorder_share_snapshot conditions[16];
    unsigned armed = recorder_share_snapshots(share, conditions, 16);
    if (!armed)
        return;
    fprintf(out, "Snapshot conditions (condition, snapshots taken, "
            "triggers suppressed):\n");
    for (unsigned c = 0; c < armed && c < 16; c++)
    {
        /* Escaped by the library already. */
        fprintf(out, "  snapshot=%-30s %6lu %10lu\n", conditions[c].condition,
                (unsigned long) conditions[c].taken,
                (unsigned long) conditions[c].suppressed);
    }
}

int scope_list(recorder_share *share, const char *path, FILE *out)
{
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    time_t started = (time_t) process.start_time;
    struct tm local;
    char when[64] = "?";
    if (localtime_r(&started, &local))
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &local);
    recorder_share_status status = recorder_share_state(share);
    /* The header's pid is a claim: say when no process of ours backs it. */
    const char *unverified = status == RECORDER_SHARE_ALIVE &&
                             !process.pid_verified
                           ? " (unverified: not a process of yours holding "
                             "this file)" : "";
    clean_text program, host;
    clean_path file;
    fprintf(out, "%s: %s, pid %u%s on %s, started %s, %s\n",
            clean(&file, path),
            clean(&program, process.program), process.pid, unverified,
            clean(&host, process.host), when, recorder_share_state_name(status));
    if (!process.owned)
        fprintf(out, "Owned by uid %u, not by you: read as data only\n",
                process.owner);
    /* What a running writer could not set up, in its own words. */
    char why[256];
    clean_path said;
    if (!recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                  sizeof(why)))
        fprintf(out, "Commands unavailable: %s\n", clean(&said, why));
    if (!recorder_share_available(share, RECORDER_SHARE_MODULES, why,
                                  sizeof(why)))
        fprintf(out, "Module table unavailable: %s\n", clean(&said, why));
    if (!recorder_share_available(share, RECORDER_SHARE_TABLES, why,
                                  sizeof(why)))
        fprintf(out, "Not shared (the segment is full): %s\n",
                clean(&said, why));

    unsigned channels = recorder_share_channel_count(share);
    fprintf(out, "Channels:\n");
    unsigned shown = 0;
    for (unsigned c = 0; c < channels; c++)
    {
        recorder_share_channel channel;
        if (!recorder_share_channel_info(share, c, &channel) || !channel.active)
            continue;
        recorder_share_recorder rec;
        bool has_recorder = recorder_share_recorder_info(share,
                                                         channel.recorder,
                                                         &rec);
        /* The listing shows what the rings hold: walk them. */
        recorder_share_stats stats;
        if (!recorder_share_channel_stats(share, c, &stats))
            stats = (recorder_share_stats) { 0 };
        clean_text name, unit, recorder;
        fprintf(out, "  %-20s %-8s %-12s %8lu samples",
                clean(&name, channel.name), type_name(channel.type),
                channel.unit[0] ? clean(&unit, channel.unit) : "-",
                (unsigned long) stats.samples);
        if (stats.samples)
            fprintf(out, "  min %g max %g", stats.min, stats.max);
        if (has_recorder)
            fprintf(out, "  (%s argument %u)", clean(&recorder, rec.name),
                    channel.argument);
        fprintf(out, "\n");
        shown++;
    }
    if (!shown)
        fprintf(out, "  none exported\n");

    /* A recorder 1.2 program shares its channels only. */
    if (!recorder_share_available(share, RECORDER_SHARE_RECORDERS, why,
                                  sizeof(why)))
    {
        fprintf(out, "Recorders and tweaks unavailable: %s\n", why);
        note_output_error(out);
        return 0;
    }
    unsigned recorders = recorder_share_recorder_count(share);
    fprintf(out, "Recorders (name, trace, slots per lane, slots written):\n");
    for (unsigned r = 0; r < recorders; r++)
    {
        recorder_share_recorder rec;
        clean_text name, description;
        if (recorder_share_recorder_info(share, r, &rec))
            fprintf(out, "  %-24s %4ld %7u %10lu  %s\n", clean(&name, rec.name),
                    (long) rec.trace, rec.size, (unsigned long) rec.records,
                    clean(&description, rec.description));
    }
    unsigned tweaks = recorder_share_tweak_count(share);
    fprintf(out, "Tweaks (name, value):\n");
    for (unsigned t = 0; t < tweaks; t++)
    {
        recorder_share_tweak tweak;
        clean_text name, description;
        if (recorder_share_tweak_info(share, t, &tweak))
            fprintf(out, "  %-24s %8ld  %s\n", clean(&name, tweak.name),
                    (long) tweak.value, clean(&description, tweak.description));
    }
    list_snapshots(share, out);
    note_output_error(out);
    return 0;
}

int scope_dump(recorder_share *share, const char *regex, FILE *out)
{
    char why[256];
    if (!recorder_share_available(share, RECORDER_SHARE_RECORDERS, why,
                                  sizeof(why)))
    {
        scope_message("no flight recorder to dump: %s "
                      "(-c dump makes the program print its own)", why);
        return 1;
    }
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    recorder_share_status status = recorder_share_state(share);
    clean_text program;
    if (status != RECORDER_SHARE_ALIVE)
        scope_message("%s (pid %u) %s; showing what it left",
                      clean(&program, process.program), process.pid,
                      recorder_share_state_name(status));
    errno = 0;
    unsigned lines = recorder_share_dump(share, regex, out);
    note_output_error(out);
    if (lines == 0)
        scope_say_no_records(regex);
    /* A process that died of a signal left where it crashed. */
    char error[512];
    if (status != RECORDER_SHARE_ALIVE &&
        recorder_share_crash_print(share, out, error, sizeof(error)) < 0)
        scope_message("%s", error);
    return 0;
}

void scope_process_name(recorder_share *share, char *name, size_t size)
{
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    clean_text program;
    snprintf(name, size, "%s[%u]", clean(&program, process.program),
             process.pid);
}

/* The crash report a dead process left, each line after its name. */
static void print_crash(recorder_share *share, const char *name, FILE *out)
{
    char *report = NULL, error[512];
    size_t size = 0;
    FILE *memory = open_memstream(&report, &size);
    if (!memory)
        return;
    int lines = recorder_share_crash_print(share, memory, error,
                                           sizeof(error));
    fclose(memory);
    if (lines < 0)
        scope_message("%s: %s", name, error);
    for (char *line = report, *end; line && *line; line = end)
    {
        end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        fprintf(out, "%s %.*s%s", name, (int) (end - line), line,
                end[-1] == '\n' ? "" : "\n");
    }
    free(report);
}

void scope_say_no_records(const char *regex)
{
    scope_message("no records%s%s", regex ? " matching " : "",
                  regex ? regex : "");
}

recorder_share **scope_dump_gather(recorder_share *const *shares,
                                   unsigned count, scope_gather purpose,
                                   unsigned *gathered)
{
    *gathered = 0;
    recorder_share **dumped = calloc(count ? count : 1, sizeof(*dumped));
    if (!dumped)
    {
        scope_message("out of memory");
        return NULL;
    }
    bool recorders_only = purpose != SCOPE_GATHER_CHANNELS_TOO;
    bool exporting = purpose == SCOPE_GATHER_EXPORT;
    unsigned used = 0;
    char first_host[sizeof(((recorder_share_process *) 0)->host)] = "";
    bool hosts_differ = false;
    for (unsigned s = 0; s < count; s++)
    {
        char name[SCOPE_PROCESS_NAME_MAX], why[256];
        scope_process_name(shares[s], name, sizeof(name));
        if (!recorder_share_available(shares[s], RECORDER_SHARE_RECORDERS,
                                      why, sizeof(why)))
        {
            scope_message("%s: no flight recorder%s: %s", name,
                          exporting ? " to export"
                          : recorders_only ? " to dump" : "", why);
            if (recorders_only)
                continue;
        }
        recorder_share_process process;
        recorder_share_process_info(shares[s], &process);
        recorder_share_status status = recorder_share_state(shares[s]);
        if (status != RECORDER_SHARE_ALIVE)
            scope_message("%s %s; %s what it left", name,
                          recorder_share_state_name(status),
                          exporting ? "exporting" : "showing");
        if (!used)
            snprintf(first_host, sizeof(first_host), "%s", process.host);
        else if (strcmp(first_host, process.host) != 0)
            hosts_differ = true;
        dumped[used++] = shares[s];
    }
    /* CLOCK_MONOTONIC is one host's: another's counts from its own boot. */
    if (hosts_differ)
        scope_message("these processes ran on different "
                      "hosts: their times do not compare");
    *gathered = used;
    return dumped;
}

int scope_dump_merged(recorder_share *const *shares, unsigned count,
                      const char *regex, FILE *out)
{
    unsigned used;
    recorder_share **dumped = scope_dump_gather(shares, count,
                                                SCOPE_GATHER_DUMP, &used);
    if (!dumped)
        return 1;
    if (!used)
    {
        free(dumped);
        return 1;
    }
    errno = 0;
    unsigned lines = recorder_share_dump_merged(dumped, used, regex, out);
    note_output_error(out);
    if (lines == 0)
        scope_say_no_records(regex);
    for (unsigned s = 0; s < used; s++)
    {
        if (recorder_share_state(dumped[s]) == RECORDER_SHARE_ALIVE)
            continue;
        char name[SCOPE_PROCESS_NAME_MAX];
        scope_process_name(dumped[s], name, sizeof(name));
        print_crash(dumped[s], name, out);
    }
    note_output_error(out);
    free(dumped);
    return 0;
}

int scope_send(recorder_share *share, const char *command)
{
    char error[512];
    if (!recorder_share_send(share, command, 2000, error, sizeof(error)))
    {
        scope_message("%s", error);
        return 1;
    }
    return 0;
}

int scope_finish_output(FILE *out)
{
    errno = 0;
    int error = fflush(out) != 0 ? errno : 0;
    if (!error && !ferror(out))
        return 0;
    if (!error)
        error = output_error ? output_error : EIO;
    scope_message("cannot write the output: %s",
                  strerror(error));
    return 1;
}
