/* share_writer.c - put the flight recorder and its channels in the segment.
 *
 * On the first export, share= command, or $RECORDER_SHARE, the process
 * creates the segment, copies the tables of recorders, tweaks and call
 * sites into it, and moves each recorder's ring there, so that readers can
 * list, plot and dump it, live or after this process died. Nothing changes
 * on the record path: it keeps writing to whatever ring its recorder
 * points to. Channels are views on those rings (an argument position of a
 * recorder's records), so exporting adds no work to a record.
 *
 * Tables and regions are sized to the program when the segment is made,
 * with room to spare. When a library loaded later, or a new export, needs
 * more, the writer makes a larger segment beside the file, fills it the
 * same way and renames it over the old one: readers see the old one
 * replaced and open the new one. What still cannot fit (a table at its
 * _MAX, a segment that cannot grow) is counted in the header and said on
 * stderr, once per table, and in recorder_traces.
 *
 * Here: making, filling and growing the segment, the writer's entry points
 * and hooks. Its state is share_writer_state_private.h; how large a
 * segment is and where its tables go, share_sizing.c; what did not fit,
 * share_limits.c; the segments left behind, share_leave.c.
 */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "segment/share_writer_private.h"
#include "segment/share_writer_state_private.h"
#include "segment/share_leave_private.h"
#include "segment/share_limits_private.h"
#include "segment/share_sizing_private.h"
#include "segment/share_backing_private.h"
#include "segment/share_ring_claims_private.h"
#include "record/clock_private.h"
#include "segment/share_commands_private.h"
#include "segment/share_file_private.h"
#include "record/share_hooks_private.h"
#include "segment/share_layout_private.h"
#include "segment/share_path_private.h"
#include "backtrace/crash_report_private.h"
#include "segment/file_identity_private.h"
#include "record/output_private.h"
#include "record/registry_private.h"
#include "record/record_private.h"
#include "text/safe_output_private.h"
#include "segment/segment_guard_private.h"
#include "base/sites_private.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static_assert(sizeof(((share_module *) 0)->build_id) == FILE_BUILD_ID_MAX,
              "a module's build id holds a file_identity's");

static void share_add_recorder(recorder_info *rec);
static void share_add_tweak(recorder_tweak *tweak);
static void share_add_sites(recorder_site *first, recorder_site *last);

/* Told by the registry and sites.c of what appears once we share. */
static const recorder_registry_listener registry_listener = {
    .recorder = share_add_recorder, .tweak = share_add_tweak,
};

static bool share_active(void)
{
    return __atomic_load_n(&writer->header, __ATOMIC_ACQUIRE) != NULL;
}

/* Where the crash handler writes its report: from our own copy of the
 * layout, checked against our mapping. Async-signal-safe, lock-free. A
 * file truncated under us is found here, whatever else noticed it by
 * then (a record or the command thread faulting on it first, or nobody):
 * the report then says where the segment went and stays out of it. */
crash_report *recorder_share_crash_area(void)
{
    if (!__atomic_load_n(&writer->header, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE))
        return NULL;
    struct stat st;
    int fd = __atomic_load_n(&writer->fd, __ATOMIC_ACQUIRE);
    if (fd >= 0 && fstat(fd, &st) == 0 &&
        (uint64_t) st.st_size < writer->view.size)
    {
        /* Private memory in its place before the dump reads the rings:
         * inside a crash handler a SIGBUS may be blocked. */
        if (!segment_guard_detach(__atomic_load_n(&writer->guard,
                                                  __ATOMIC_ACQUIRE)))
            share_segment_truncated(
                (void *) __atomic_load_n(&writer->serial, __ATOMIC_ACQUIRE));
        return NULL;
    }
    uint64_t offset = writer->layout.crash;
    if (!offset || offset % 8 || offset > writer->view.size ||
        writer->view.size - offset < CRASH_REGION_SIZE)
        return NULL;
    return (crash_report *) (writer->view.base + offset);
}

/* ---- growth -------------------------------------------------------------- */

static bool grow_locked(enum share_limit limit);

/* 'kind' 'name' needs more of 'limit' than the segment has. True if the
 * segment grew: the new one was filled from the registry, with this entry
 * in it, so the caller has nothing left to do (and its indexes and
 * pointers into the segment are stale). False if it could not: the entry
 * is counted as not shared. */
static bool grow_or_drop_locked(enum share_limit limit, const char *kind,
                                const char *name)
{
    if (grow_locked(limit))
        return true;
    share_not_shared_locked(limit, kind, name);
    return false;
}

/* ---- tables --------------------------------------------------------------- */

/* Count one more entry in our table and publish the count to readers. */
static void publish(share_table *ours, share_table *theirs)
{
    ours->count++;
    __atomic_store_n(&theirs->count, ours->count, __ATOMIC_RELEASE);
}

static share_recorder *shared_recorder(unsigned index)
{
    return (share_recorder *) (writer->view.base +
                               writer->layout.recorders.offset) + index;
}

static void add_recorder_locked(recorder_info *rec)
{
    share_header *L = &writer->layout;
    unsigned count = L->recorders.count;
    uintptr_t known = RECORDER_SHARED_ENTRY(rec);  /* ours, if in this one */
    if (known && known <= count && writer->recorders[known - 1] == rec)
        return;
    enum share_limit full =
        count >= L->recorders.capacity ? SHARE_LIMIT_RECORDERS
      : !share_strings_fit(text_bytes(rec->name) + text_bytes(rec->description))
        ? SHARE_LIMIT_STRINGS
      : !share_ring_fits((uint32_t) rec->mask + 1) ? SHARE_LIMIT_RINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
    {
        grow_or_drop_locked(full, "recorder", rec->name);
        return;
    }
    if (!share_back_entry_locked(SHARE_LIMIT_RECORDERS, count))
    {
        share_left_out_locked(SHARE_LIMIT_RECORDERS);
        return;
    }
    /* Its ring takes its place in the segment when it first records
     * (share_ring_claims.c); now, if it did already. */
    writer->recorders[count] = rec;
    share_count_ring((uint32_t) rec->mask + 1);
    share_recorder *entry = shared_recorder(count);
    entry->name = share_put_string(rec->name);
    entry->description = share_put_string(rec->description);
    entry->trace = rec->trace;
    entry->ring_size = (uint32_t) rec->mask + 1; /* as defined; no lanes yet */
    bool had_ring = ring_claims_had_ring(writer->claims_left, rec);
    ring_claims_own(writer->claims, count, rec);
    publish(&L->recorders, &writer->header->recorders);
    if (had_ring || ring_claims_recorded(rec))
        ring_claims_place(writer->claims, count, 0);
}

static void add_tweak_locked(recorder_tweak *tweak)
{
    share_header *L = &writer->layout;
    unsigned count = L->tweaks.count;
    for (unsigned i = 0; i < count; i++)
        if (writer->tweaks[i] == tweak)
            return;
    enum share_limit full =
        count >= L->tweaks.capacity ? SHARE_LIMIT_TWEAKS
      : !share_strings_fit(text_bytes(tweak->name) + text_bytes(tweak->description))
        ? SHARE_LIMIT_STRINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
    {
        grow_or_drop_locked(full, "tweak", tweak->name);
        return;
    }
    if (!share_back_entry_locked(SHARE_LIMIT_TWEAKS, count))
    {
        share_left_out_locked(SHARE_LIMIT_TWEAKS);
        return;
    }
    writer->tweaks[count] = tweak;
    share_tweak *entry = (share_tweak *) (writer->view.base + L->tweaks.offset)
                       + count;
    entry->name = share_put_string(tweak->name);
    entry->description = share_put_string(tweak->description);
    entry->value = tweak->trace;
    publish(&L->tweaks, &writer->header->tweaks);
}

static void add_sites_locked(recorder_site *first, recorder_site *last)
{
    share_header *L = &writer->layout;
    share_site *table = (share_site *) (writer->view.base + L->sites.offset);
    for (recorder_site *site = first; site < last; site++)
    {
        unsigned count = L->sites.count;
        enum share_limit full =
            count >= L->sites.capacity ? SHARE_LIMIT_SITES
          : !share_strings_fit(text_bytes(site->format) + text_bytes(site->file) +
                         text_bytes(site->function)) ? SHARE_LIMIT_STRINGS
          : SHARE_LIMITS;
        if (full != SHARE_LIMITS)
        {
            if (grow_or_drop_locked(full, "call site", site->format))
                return;                 /* the new segment has them all */
            continue;
        }
        if (!share_back_entry_locked(SHARE_LIMIT_SITES, count))
        {
            share_left_out_locked(SHARE_LIMIT_SITES);
            continue;
        }
        share_site *entry = &table[count];
        entry->address = (uintptr_t) site;
        entry->format = share_put_string(site->format);
        if (site->file != writer->last_file)
        {
            writer->last_file = site->file;
            writer->last_file_offset = share_put_string(site->file);
        }
        entry->file = writer->last_file_offset;
        if (site->function != writer->last_function)
        {
            writer->last_function = site->function;
            writer->last_function_offset = share_put_string(site->function);
        }
        entry->function = writer->last_function_offset;
        entry->line = site->line;
        site->id = count;
        publish(&L->sites, &writer->header->sites);
    }
}

/* Without a module table, a dead writer's %+s literals show as addresses:
 * say so in the header (readers' -l shows it), once on stderr, and in
 * recorder_error; 0 clears it after a complete pass. */
static void modules_unavailable(const char *what, int error)
{
    share_header *h = writer->header;
    if (error)
        snprintf(h->modules_why, sizeof(h->modules_why), "%s", what);
    __atomic_store_n(&h->modules_error, (uint32_t) error, __ATOMIC_RELEASE);
    static bool told;
    if (!error || told)
        return;
    told = true;
    fprintf(stderr, "recorder: module table unavailable: %s: %s\n", what,
            strerror(error));
    record(recorder_error, "Module table unavailable: %+s, errno %d", what,
           error);
}

/* Note the read-only mappings of ELF files not noted yet, from
 * /proc/self/maps: where a dead process's string literals can still be
 * read. */
static void add_modules_locked(void)
{
    share_header *L = &writer->layout;
    share_module *table = (share_module *) (writer->view.base
                                            + L->modules.offset);
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps)
    {
        modules_unavailable("/proc/self/maps", errno);
        return;
    }
    char line[4096 + 128];
    int no_descriptor = 0;
    bool grown = false;
    while (!grown && fgets(line, sizeof(line), maps))
    {
        unsigned long start, end, offset, inode;
        unsigned major, minor;
        char perms[5];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %n", &start, &end, perms,
                   &offset, &major, &minor, &inode, &path_at) < 7 ||
            !path_at || line[path_at] != '/' || perms[1] == 'w' ||
            perms[0] != 'r')
            continue;
        line[strcspn(line, "\n")] = 0;
        bool known = false;
        for (unsigned m = 0; m < L->modules.count && !known; m++)
            known = table[m].start == start && table[m].end == end;
        file_identity id;
        if (known ||
            !file_identity_mapped(line + path_at, makedev(major, minor),
                                  inode, &id, &no_descriptor))
            continue;
        enum share_limit full =
            L->modules.count >= L->modules.capacity ? SHARE_LIMIT_MODULES
          : !share_strings_fit(text_bytes(line + path_at)) ? SHARE_LIMIT_STRINGS
          : SHARE_LIMITS;
        if (full != SHARE_LIMITS)
        {
            /* Grown: the new segment read the whole file again. */
            grown = grow_or_drop_locked(full, "module", line + path_at);
            continue;
        }
        if (!share_back_entry_locked(SHARE_LIMIT_MODULES, L->modules.count))
        {
            share_left_out_locked(SHARE_LIMIT_MODULES);
            continue;
        }
        share_module *entry = &table[L->modules.count];
        entry->start = start;
        entry->end = end;
        entry->offset = offset;
        entry->device = id.device;
        entry->inode = id.inode;
        entry->size = id.size;
        entry->owner = id.owner;
        entry->build_id_size = id.build_id_size;
        memcpy(entry->build_id, id.build_id, sizeof(entry->build_id));
        entry->path = share_put_string(line + path_at);
        publish(&L->modules, &writer->header->modules);
    }
    int error = ferror(maps) ? (errno ? errno : EIO) : 0;
    fclose(maps);
    if (grown)
        return;
    if (error)
        modules_unavailable("reading /proc/self/maps", error);
    else
        modules_unavailable("opening module files", no_descriptor);
}

static void add_sites_callback(recorder_site *first, recorder_site *last,
                               void *arg)
{
    (void) arg;
    add_sites_locked(first, last);
}

/* ---- exports -------------------------------------------------------------- */

/* Add channel 'name' (argument 'argument' of recorder 'recorder'). False
 * if the segment grew instead: it has the channel, and the caller's
 * indexes are stale. */
static bool add_channel(unsigned recorder, unsigned argument, const char *name)
{
    share_header *L = &writer->layout;
    unsigned count = L->channels.count;
    share_channel *table = (share_channel *) (writer->view.base
                                              + L->channels.offset);

    /* The same channel exported again: bring its entry back, so repeated
     * requests do not fill the table. Our copy of the names is compared,
     * not the segment's, which readers may have written. */
    for (unsigned c = 0; c < count; c++)
        if (table[c].recorder == recorder && table[c].argument == argument &&
            writer->channel_names[c] &&
            strcmp(writer->channel_names[c], name) == 0)
        {
            __atomic_store_n(&table[c].active, 1, __ATOMIC_RELEASE);
            return true;
        }
    enum share_limit full =
        count >= L->channels.capacity ? SHARE_LIMIT_CHANNELS
      : !share_strings_fit(text_bytes(name)) ? SHARE_LIMIT_STRINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
        return !grow_or_drop_locked(full, "channel", name);
    if (!share_back_entry_locked(SHARE_LIMIT_CHANNELS, count))
    {
        share_left_out_locked(SHARE_LIMIT_CHANNELS);
        return true;
    }
    char *copy = strdup(name);
    if (!copy)
    {
        record(recorder_error, "No memory for a shared channel name");
        return true;
    }
    share_channel *entry = &table[count];
    free(writer->channel_names[count]);
    writer->channel_names[count] = copy;
    entry->name = share_put_string(name);
    entry->recorder = recorder;
    entry->argument = argument;
    entry->active = 1;
    publish(&L->channels, &writer->header->channels);
    return true;
}

/* Replace the channels of recorder 'index' with those of 'request'. False
 * if the segment grew meanwhile: everything was applied to the new one. */
static bool export_locked(unsigned index, const recorder_export_request *req,
                          bool qualify)
{
    share_header *L = &writer->layout;
    share_channel *table = (share_channel *) (writer->view.base
                                              + L->channels.offset);
    for (unsigned c = 0; c < L->channels.count; c++)
        if (table[c].recorder == index)
            __atomic_store_n(&table[c].active, 0, __ATOMIC_RELEASE);

    recorder_info *rec = writer->recorders[index];
    unsigned added = 0;
    for (unsigned a = 0; a < req->count; a++)
    {
        if (!req->names[a])
            continue;
        char name[256];
        if (qualify)
            snprintf(name, sizeof(name), "%s/%s", rec->name, req->names[a]);
        else
            snprintf(name, sizeof(name), "%s", req->names[a]);
        if (!add_channel(index, a, name))
            return false;
        added++;
    }
    rec->exports = added ? (void *) req : NULL;
    if (!added)
        return true;

    /* Readers read channels from the ring: it takes its place now. */
    uint32_t slots = export_slots(req);
    if (slots <= rec->mask + 1)
        slots = 0;
    else if (ring_too_large(slots))
    {
        share_not_shared_locked(SHARE_LIMIT_RINGS, "exported ring", rec->name);
        slots = 0;
    }
    else if (!share_ring_fits(slots))
        return !grow_or_drop_locked(SHARE_LIMIT_RINGS, "exported ring",
                                    rec->name);
    else
        share_count_ring(slots);
    ring_claims_place(writer->claims, index, slots);
    return true;
}

/* req->regex was compiled (and its cost bounded) when the request was
 * parsed: compiling here would hold the lock that fork() waits for. With
 * 'only', a recorder just added: matched first, so that a new recorder
 * costs one match per request, not one per request and recorder. False if
 * the segment grew meanwhile. */
static bool apply_request_locked(const recorder_export_request *req,
                                 recorder_info *only)
{
    const regex_t *regex = &req->regex;
    if (only && regexec(regex, only->name, 0, NULL, 0) != 0)
        return true;
    unsigned count = writer->layout.recorders.count, matches = 0;
    uint32_t *matched = malloc((count ? count : 1) * sizeof(*matched));
    if (!matched)
    {
        record(recorder_error, "No memory to apply an export request");
        return true;
    }
    for (unsigned i = 0; i < count; i++)
        if (regexec(regex, writer->recorders[i]->name, 0, NULL, 0) == 0)
            matched[matches++] = i;
    bool same_layout = true;
    for (unsigned m = 0; m < matches && same_layout; m++)
        if (!only || writer->recorders[matched[m]] == only)
            same_layout = export_locked(matched[m], req, matches > 1);
    free(matched);
    return same_layout;
}

static void apply_all_requests_locked(recorder_info *only)
{
    for (const recorder_export_request *req = recorder_spec_exports(); req;
         req = __atomic_load_n(&req->next, __ATOMIC_ACQUIRE))
        if (!apply_request_locked(req, only))
            return;                     /* grown: all applied there */
}

/* ---- creating the segment ------------------------------------------------ */

/* Say once why no segment (or no larger segment) could be made. */
static void say_not_sharing(const char *what, const char *why)
{
    static char said[2 * PATH_MAX + 320];
    char text[sizeof(said)];
    snprintf(text, sizeof(text), "%s: %s", what, why);
    if (strcmp(said, text) != 0)
        fprintf(stderr, "recorder: %s\n", text);
    snprintf(said, sizeof(said), "%s", text);
}

/* Create the file of a segment laid out as 'plan', mapped as 'view': at
 * '*path', or beside it for a growth (named in temporary[PATH_MAX]). When
 * another user holds the default path, '*path' becomes fallback[PATH_MAX].
 * The descriptor, or a negative value once said why (also in why[]). */
static int create_file_locked(const char **path, const share_header *plan,
                              bool growing, share_view *view, char *temporary,
                              char *fallback, char *why, size_t why_size)
{
    int fd;
    if (growing)
        fd = share_file_create_beside(*path, plan, view, temporary, PATH_MAX,
                                      why, why_size);
    else
        fd = share_file_create(*path, plan, view, why, why_size);
    if (fd == SHARE_FILE_FOREIGN &&
        strcmp(*path, RECORDER_SHARE_DEFAULT_PATH) == 0)
    {
        /* Another user's file holds the default path: take a path of our
         * own, where recorder_scope looks too. */
        share_file_fallback_path(fallback, PATH_MAX);
        fprintf(stderr, "recorder: %s; sharing in %s instead\n", why, fallback);
        *path = fallback;
        fd = share_file_create(*path, plan, view, why, why_size);
    }
    if (fd == SHARE_FILE_HELD && !share_path_per_process(writer->asked))
    {
        /* Two processes of a system on one path: say how each gets its
         * own, from the path as given (its escapes still escapes). */
        size_t used = strlen(why);
        snprintf(why + used, why_size - used, "; give each process its "
                 "own segment, e.g. RECORDER_SHARE=%s.%%p",
                 writer->asked[0] ? writer->asked : *path);
    }
    if (fd < 0)
    {
        /* $RECORDER_SHARE, then each export, may ask again: say it once.
         * A growth is not tried again: each try would make a file. */
        say_not_sharing(growing ? "the shared segment cannot grow"
                                : "not sharing", why);
        writer->cannot_grow |= growing;
        if (growing)
            record(recorder_error, "Could not grow the shared segment");
        else
            record(recorder_error, "Could not create the shared segment");
    }
    return fd;
}

/* Make the new segment ours, guarded before we touch it (the file may be
 * truncated any time), with its header laid out for 'room'. */
static share_header *switch_locked(const char *path, int fd, share_view view,
                                   uint64_t size, const share_needs *room,
                                   bool growing)
{
    uintptr_t serial = writer->serial + 1;
    snprintf(writer->guarded_path[serial & 1], sizeof(writer->guarded_path[0]),
             "%s", path);
    __atomic_store_n(&writer->serial, serial, __ATOMIC_RELEASE);
    __atomic_store_n(&writer->detached, false, __ATOMIC_RELEASE);
    snprintf(writer->path, sizeof(writer->path), "%s", path);
    writer->guard = segment_guard_add(view.base, view.size,
                                      PROT_READ | PROT_WRITE, fd, true,
                                      share_segment_truncated,
                                      (void *) serial);

    share_header *h = (share_header *) view.base;
    share_fill_header(h, size, room);
    h->writer_base = (uintptr_t) view.base;
    writer->layout = *h;
    share_backing_reset_locked();
    writer->fd = fd;
    writer->view = view;
    writer->last_file = NULL;
    writer->last_function = NULL;
    memset(writer->not_shared, 0, sizeof(writer->not_shared));
    if (!growing)
        writer->cannot_grow = false;
    __atomic_store_n(&writer->header, h, __ATOMIC_RELEASE);
    return h;
}

/* Listen first, then walk: whatever the walk misses is told. What is told
 * blocks on writer->lock until this segment is complete. The fill does not
 * grow: what does not fit here is counted as not shared. */
static void fill_locked(void)
{
    writer->laying_out = true;
    recorder_registry_listen(RECORDER_LISTENER_SHARE, &registry_listener);
    recorder_sites_listen(share_add_sites);
    recorder_sites_each(add_sites_callback, NULL);
    add_modules_locked();
    for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
        add_tweak_locked(t);
    for (recorder_info *r = recorder_list(); r; r = r->next)
        add_recorder_locked(r);
    apply_all_requests_locked(NULL);
    writer->laying_out = false;
}

/* Make a segment at 'path' with room for the program (as 'measured', or
 * measured now if NULL) and for 'at_least' (NULL: no minimum), fill it,
 * and switch to it. At the path we share in
 * already, this is a growth: the new file is made beside the old one and
 * renamed over it once complete. */
static bool create_locked(const char *path, const share_needs *at_least,
                          const share_needs *measured)
{
    bool growing = writer->header &&
                   !__atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE) &&
                   writer->fd >= 0 && strcmp(writer->path, path) == 0;
    share_needs wanted, room;
    if (measured)
        wanted = *measured;
    else
        share_measure_needs(&wanted);
    share_size_segment(&wanted, at_least, &room);
    uint64_t size = share_segment_size(&room);
    share_header plan = { 0 };
    share_place_regions(&plan, size, &room);
    ring_claims *claims = ring_claims_make(&plan);
    if (!claims || !share_make_arrays(&room))
    {
        ring_claims_free(claims);
        say_not_sharing(growing ? "the shared segment cannot grow"
                                : "not sharing", "out of memory");
        writer->cannot_grow |= growing;
        return false;
    }

    share_view view;
    char why[2 * PATH_MAX + 256];       /* room for the path twice */
    char temporary[PATH_MAX];
    char fallback[PATH_MAX];
    int fd = create_file_locked(&path, &plan, growing, &view, temporary,
                                fallback, why, sizeof(why));
    if (fd < 0)
    {
        ring_claims_free(claims);
        return false;
    }

    if (!growing)
    {
        char message[PATH_MAX + 32];
        snprintf(message, sizeof(message), "Creating new %s\n", path);
        recorder_output_text(message);
    }

    /* The segment we leave, if this is a move or a growth. */
    share_header *previous = writer->header;
    int previous_fd = writer->fd, previous_guard = writer->guard;
    share_view previous_view = writer->view;
    char previous_path[PATH_MAX];
    snprintf(previous_path, sizeof(previous_path), "%s", writer->path);

    /* No ring may take its place in the segment we leave from now on. */
    ring_claims_close(writer->claims);
    writer->claims_left = writer->claims;
    ring_claims_map(claims, view);
    writer->claims = claims;
    share_header *h = switch_locked(path, fd, view, size, &room, growing);
    fill_locked();
    ring_claims_free(writer->claims_left);
    writer->claims_left = NULL;
    ring_claims_open(claims);
    /* From now on, calibration points go to this segment as well. */
    recorder_clock_share((recorder_time_base *)
                         (view.base + writer->layout.clock.offset));

    /* Magic last: a reader that sees it sees a complete header. */
    __atomic_store_n(&h->state, SHARE_STATE_RUNNING, __ATOMIC_RELEASE);
    __atomic_store_n(&h->magic, SHARE_MAGIC, __ATOMIC_RELEASE);
    /* Complete, it takes the old one's place at the path. */
    if (growing &&
        !share_file_replace(temporary, path, previous_fd, why, sizeof(why)))
    {
        fprintf(stderr, "recorder: %s; sharing in %s instead\n", why,
                temporary);
        snprintf(writer->path, sizeof(writer->path), "%s", temporary);
    }
    if (previous)
    {
        __atomic_store_n(&previous->state, SHARE_STATE_MOVED, __ATOMIC_RELEASE);
        share_retire_locked(previous_fd, previous_guard, previous_view,
                            previous_path);
    }
    share_leave_at_exit_and_fork();
    share_commands_start(h, (share_command_ring *)
                            (view.base + writer->layout.commands.offset),
                         ring_claims_next_tend_ns);
    if (growing)
    {
        record(recorder, "Shared segment grown to %lu KiB for %u recorders, "
               "%u channels", (unsigned long) (size >> 10),
               writer->layout.recorders.count, writer->layout.channels.count);
        return true;
    }
    /* A copy in the segment, so the message survives this process. */
    uint64_t copy = share_put_string(writer->path);
    record(recorder, "Sharing in %+s",
           copy ? (const char *) writer->view.base + copy : "a new segment");
    return true;
}

/* Make the segment larger, for more of 'limit' than it holds: twice the
 * room it has, or more if the program needs it. False if that cannot be:
 * 'limit' at its _MAX or needed beyond it (an export of 2^40 records: no
 * point making a file of the largest size it would still not fit in), a
 * growth failed before, or not sharing. */
static bool grow_locked(enum share_limit limit)
{
    if (writer->laying_out || writer->cannot_grow || writer->fd < 0 ||
        __atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE))
        return false;
    share_needs at_least;
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
        at_least.of[k] = share_capacity(&writer->layout, k);
    if (at_least.of[limit] >= share_most[limit])
        return false;
    share_needs wanted;
    share_measure_needs(&wanted);
    if (wanted.of[limit] > share_most[limit])
        return false;
    at_least.of[limit] *= 2;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s", writer->path);
    return create_locked(path, &at_least, &wanted);
}

static const char *default_path(void)
{
    const char *path = recorder_spec_share_path();
    if (!path || !*path)
        path = getenv("RECORDER_SHARE");
    if (!path || !*path)
        path = RECORDER_SHARE_DEFAULT_PATH;
    return path;
}

bool recorder_share_open_path(const char *path)
{
    recorder_share_install();
    if (!path)
        path = default_path();
    /* Expanded here, in the process that shares: a child after fork()
     * gets a path with its own %p. */
    share_path_values values;
    char host[256], expanded[PATH_MAX], why[2 * PATH_MAX];
    share_path_values_here(&values, host, sizeof(host));
    if (!share_path_expand(path, &values, expanded, sizeof(expanded), why,
                           sizeof(why)))
    {
        pthread_mutex_lock(&writer->lock);
        say_not_sharing("not sharing", why);
        pthread_mutex_unlock(&writer->lock);
        record(recorder_error, "Bad shared segment path");
        return false;
    }
    pthread_mutex_lock(&writer->lock);
    snprintf(writer->asked, sizeof(writer->asked), "%s", path);
    path = expanded;
    share_let_go_if_detached_locked();
    share_release_retired_locked(false);
    bool ok = writer->header &&
              !__atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE) &&
              strcmp(writer->path, path) == 0;
    if (!ok)
        ok = create_locked(path, NULL, NULL);
    pthread_mutex_unlock(&writer->lock);
    return ok;
}

void recorder_share_init(void)
{
    const char *path = getenv("RECORDER_SHARE");
    if (path && *path)
        recorder_share_open_path(path);
}

static void share_add_recorder(recorder_info *rec)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer->lock);
    add_recorder_locked(rec);
    apply_all_requests_locked(rec);
    pthread_mutex_unlock(&writer->lock);
}

static void share_add_tweak(recorder_tweak *tweak)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer->lock);
    add_tweak_locked(tweak);
    pthread_mutex_unlock(&writer->lock);
}

static void share_add_sites(recorder_site *first, recorder_site *last)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer->lock);
    add_sites_locked(first, last);
    add_modules_locked();               /* a module just loaded: note it */
    pthread_mutex_unlock(&writer->lock);
}

static void share_export(const struct recorder_export_request *request)
{
    if (!share_active())
    {
        recorder_share_open_path(NULL); /* applies every request, this too */
        return;
    }
    pthread_mutex_lock(&writer->lock);
    share_let_go_if_detached_locked();
    apply_request_locked(request, NULL);
    pthread_mutex_unlock(&writer->lock);
}

static void share_refresh(void)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer->lock);
    share_let_go_if_detached_locked();
    share_release_retired_locked(false);
    share_header *L = &writer->layout;
    /* Traces and tweaks are plain words the program may write at any time;
     * read them whole, atomically. */
    for (unsigned i = 0; i < L->recorders.count; i++)
        __atomic_store_n(&shared_recorder(i)->trace,
                         __atomic_load_n(&writer->recorders[i]->trace,
                                         __ATOMIC_RELAXED),
                         __ATOMIC_RELAXED);
    share_tweak *tweaks = (share_tweak *) (writer->view.base +
                                           L->tweaks.offset);
    for (unsigned i = 0; i < L->tweaks.count; i++)
        __atomic_store_n(&tweaks[i].value,
                         __atomic_load_n(&writer->tweaks[i]->trace,
                                         __ATOMIC_RELAXED),
                         __ATOMIC_RELAXED);
    if (writer->fd >= 0)
        ring_claims_tend(writer->claims);
    pthread_mutex_unlock(&writer->lock);
}

static unsigned share_file_mode(void)
{
    struct stat st;
    pthread_mutex_lock(&writer->lock);
    bool known = writer->header && writer->fd >= 0 &&
                 fstat(writer->fd, &st) == 0;
    pthread_mutex_unlock(&writer->lock);
    return known ? (unsigned) (st.st_mode & 07777) : 0;
}

void recorder_share_install(void)
{
    static const recorder_share_hooks hooks = {
        .open_path = recorder_share_open_path,
        .export = share_export,
        .refresh = share_refresh,
        .active = share_active,
        .limits = share_limits,
        .file_mode = share_file_mode,
        .first_record = ring_claims_first_record,
    };
    recorder_share_hooks_set(&hooks);
}
