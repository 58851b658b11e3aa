/* segment_list.c - find segments by pattern, and list them for -L.
 *
 * Listing must not trust what it finds: the files come from a directory
 * anyone can write to. Another user's file is described from lstat alone
 * unless --any-owner asks to read it (as data only); a symbolic link, a
 * directory or a file that does not open as a segment is listed with the
 * reason, and text from a segment is escaped before it is printed.
 */
#include "source/segment_list.h"
#include "common/scope_message.h"

#include <recorder/recorder_share.h>

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool scope_segment_is_pattern(const char *text)
{
    return strpbrk(text, "*?[") != NULL;
}

/* PATH.grow.XXXXXX: a segment a writer is growing, renamed over PATH
 * when ready: a passing file, not a segment to show. */
static bool temporary_name(const char *path)
{
    const char *grow = strstr(path, ".grow.");
    return grow && strlen(grow + 6) == 6 && !strchr(grow + 6, '/');
}

static bool add_path(scope_segment_set *set, const char *path)
{
    struct stat st;
    bool known = lstat(path, &st) == 0;
    for (unsigned p = 0; p < set->count; p++)
    {
        struct stat other;
        if (strcmp(set->paths[p], path) == 0 ||
            (known && lstat(set->paths[p], &other) == 0 &&
             other.st_dev == st.st_dev && other.st_ino == st.st_ino))
            return true;                /* the same file again */
    }
    char **grown = realloc(set->paths, (set->count + 1) * sizeof(*grown));
    if (!grown)
        return false;
    set->paths = grown;
    if (!(set->paths[set->count] = strdup(path)))
        return false;
    set->count++;
    return true;
}

bool scope_segment_set_expand(scope_segment_set *set,
                              const char *const *patterns, unsigned count,
                              bool complain)
{
    *set = (scope_segment_set) { .several = count > 1 };
    for (unsigned p = 0; p < count; p++)
    {
        const char *pattern = patterns[p];
        if (!scope_segment_is_pattern(pattern))
        {
            if (!add_path(set, pattern))
                goto no_memory;
            continue;
        }
        set->several = true;
        glob_t found;
        int result = glob(pattern, 0, NULL, &found);
        unsigned added = 0;
        if (result == 0)
        {
            for (size_t m = 0; m < found.gl_pathc; m++)
            {
                if (temporary_name(found.gl_pathv[m]))
                    continue;
                if (!add_path(set, found.gl_pathv[m]))
                {
                    globfree(&found);
                    goto no_memory;
                }
                added++;
            }
            globfree(&found);
        }
        else if (result == GLOB_NOSPACE)
        {
            goto no_memory;
        }
        if (!added)
        {
            set->empty_patterns++;
            if (complain)
                scope_message("no segment matches %s",
                              pattern);
        }
    }
    return true;

no_memory:
    scope_message("out of memory");
    scope_segment_set_free(set);
    return false;
}

void scope_segment_set_free(scope_segment_set *set)
{
    for (unsigned p = 0; p < set->count; p++)
        free(set->paths[p]);
    free(set->paths);
    set->paths = NULL;
    set->count = 0;
}

/* A RECORDER_SHARE naming one file per process (%p %n %u %h) as the
 * pattern of all of them: each conversion becomes '*', "%%" a '%'. */
static void share_pattern(const char *value, char *out, size_t size)
{
    size_t at = 0;
    for (const char *c = value; *c && at + 1 < size; c++)
    {
        if (c[0] == '%' && c[1] && strchr("pnuh", c[1]))
        {
            if (at == 0 || out[at - 1] != '*')
                out[at++] = '*';
            c++;
            continue;
        }
        if (c[0] == '%' && c[1] == '%')
            c++;
        out[at++] = *c;
    }
    out[at] = 0;
}

unsigned scope_segment_default_patterns(const char **out, unsigned max)
{
    static char from_env[PATH_MAX], runtime[PATH_MAX];
    unsigned count = 0;
    const char *share = getenv("RECORDER_SHARE");
    if (share && *share && count < max)
    {
        share_pattern(share, from_env, sizeof(from_env));
        out[count++] = from_env;
    }
    if (count < max)
        out[count++] = "/tmp/recorder_share*";
    /* Where a writer goes when another user holds /tmp/recorder_share
     * (/tmp/recorder_share.UID is matched above). */
    const char *dir = getenv("XDG_RUNTIME_DIR");
    if (dir && dir[0] == '/' && count < max &&
        snprintf(runtime, sizeof(runtime), "%s/recorder_share*", dir) <
        (int) sizeof(runtime))
        out[count++] = runtime;
    return count;
}

/* ---- the table ---------------------------------------------------------- */

/* A field of the table: no tab, newline or terminal escape in it, and
 * never empty ("-"). Sized for a path, each byte possibly 4 shown. */
typedef struct field
{
    char text[4 * PATH_MAX + 1];
} field;

static const char *clean(field *f, const char *text)
{
    if (!text || !*text)
        return "-";
    recorder_share_escape(f->text, sizeof(f->text), text, strlen(text));
    return f->text;
}

static void user_name(uid_t uid, char *out, size_t size)
{
    struct passwd entry, *found = NULL;
    char buffer[1024];
    if (getpwuid_r(uid, &entry, buffer, sizeof(buffer), &found) == 0 && found)
        snprintf(out, size, "%s", found->pw_name);
    else
        snprintf(out, size, "%u", (unsigned) uid);
}

/* One word each: the STATE column. */
static const char *state_word(recorder_share_status status)
{
    switch (status)
    {
    case RECORDER_SHARE_ALIVE:    return "live";
    case RECORDER_SHARE_EXITED:   return "exited";
    case RECORDER_SHARE_DIED:     return "died";
    case RECORDER_SHARE_REPLACED: return "replaced";
    case RECORDER_SHARE_MOVED:    return "moved";
    case RECORDER_SHARE_CORRUPT:  return "corrupt";
    }
    return "unknown";
}

/* A file that is not listed from its contents: only its state, owner
 * and why. */
static void print_unopened(FILE *out, const char *path, const char *state,
                           const char *owner, const char *why)
{
    field p, o, w;
    fprintf(out, "%s\t-\t-\t-\t-\t%s\t%s\t-\t%s\n", clean(&p, path), state,
            clean(&o, owner), clean(&w, why));
}

/* The names of the active channels, comma-separated; returns the count. */
static unsigned channel_names(recorder_share *share, char *names, size_t size)
{
    unsigned count = recorder_share_channel_count(share), active = 0;
    size_t at = 0;
    names[0] = 0;
    for (unsigned c = 0; c < count; c++)
    {
        recorder_share_channel channel;
        if (!recorder_share_channel_info(share, c, &channel) || !channel.active)
            continue;
        active++;
        int wrote = snprintf(names + at, size - at, "%s%s", at ? "," : "",
                             channel.name);
        if (wrote < 0 || (size_t) wrote >= size - at)
        {
            /* Too many to name: end with what fits, and say so. */
            if (size > 4)
                strcpy(names + size - 4, "...");
            at = size - 1;
        }
        else
        {
            at += (size_t) wrote;
        }
    }
    return active;
}

static void print_segment(FILE *out, const char *path, unsigned open_flags)
{
    struct stat st;
    char owner[64];
    if (lstat(path, &st) != 0)
    {
        print_unopened(out, path, "unreadable", "", strerror(errno));
        return;
    }
    user_name(st.st_uid, owner, sizeof(owner));
    if (S_ISLNK(st.st_mode))
    {
        print_unopened(out, path, "unreadable", owner,
                       "a symbolic link; not following it");
        return;
    }
    if (!S_ISREG(st.st_mode))
    {
        print_unopened(out, path, "unreadable", owner, "not a regular file");
        return;
    }
    if (st.st_uid != geteuid() && !(open_flags & RECORDER_SHARE_ANY_OWNER))
    {
        char why[256];
        snprintf(why, sizeof(why), "belongs to %s (uid %u), not to you; "
                 "--any-owner reads it as data only", owner,
                 (unsigned) st.st_uid);
        print_unopened(out, path, "refused", owner, why);
        return;
    }
    char error[512];
    recorder_share *share = recorder_share_open_flags(path, open_flags, error,
                                                      sizeof(error));
    if (!share)
    {
        /* The reason without the path it starts with. */
        const char *why = error;
        size_t length = strlen(path);
        if (strncmp(why, path, length) == 0 && strncmp(why + length, ": ", 2)
            == 0)
            why += length + 2;
        print_unopened(out, path, "unreadable", owner, why);
        return;
    }
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    char started[64] = "-";
    time_t when = (time_t) process.start_time;
    struct tm local;
    if (localtime_r(&when, &local))
        strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%S%z", &local);
    char names[1024];
    unsigned channels = channel_names(share, names, sizeof(names));
    field p, program, host, o, n;
    fprintf(out, "%s\t%s\t%u\t%s\t%s\t%s\t%s\t%u\t%s\n", clean(&p, path),
            clean(&program, process.program), process.pid,
            clean(&host, process.host), started,
            state_word(recorder_share_state(share)), clean(&o, owner),
            channels, clean(&n, names));
    recorder_share_close(share);
}

int scope_segment_table(const scope_segment_set *set, unsigned open_flags,
                        FILE *out)
{
    fprintf(out, "PATH\tPROGRAM\tPID\tHOST\tSTARTED\tSTATE\tOWNER\tCHANNELS"
            "\tDETAIL\n");
    for (unsigned s = 0; s < set->count; s++)
        print_segment(out, set->paths[s], open_flags);
    return 0;
}
