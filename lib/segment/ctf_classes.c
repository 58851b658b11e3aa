/* ctf_classes.c - the event classes of a CTF export: one per call site.
 *
 * An export meets each site again and again (every record of a ring):
 * a hash of (process, site, types) finds its class in O(1).
 */
#include "segment/ctf_classes_private.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(unsigned process, uint64_t site, unsigned nargs,
                         const ctf_field_type *types)
{
    uint64_t hash = (site ^ ((uint64_t) process << 48)) * 0x9E3779B97F4A7C15ull;
    for (unsigned a = 0; a < nargs; a++)
        hash = (hash ^ (uint64_t) types[a]) * 0x100000001B3ull;
    return hash ^ (hash >> 29) ^ nargs;
}

static bool same_key(const ctf_class_table *table, uint32_t id,
                     unsigned process, uint64_t site, unsigned nargs,
                     const ctf_field_type *types)
{
    const ctf_event_class *class = &table->classes[id];
    return table->process[id] == process && table->site[id] == site &&
           class->nargs == nargs &&
           (!nargs || memcmp(class->types, types, nargs * sizeof(*types)) == 0);
}

static void place(ctf_class_table *table, uint32_t id)
{
    const ctf_event_class *class = &table->classes[id];
    unsigned mask = table->slot_count - 1;
    unsigned at = (unsigned) key_hash(table->process[id], table->site[id],
                                      class->nargs, class->types) & mask;
    while (table->slots[at])
        at = (at + 1) & mask;
    table->slots[at] = id + 1;
}

/* Room for one more class, the hash kept under half full. */
static bool grow(ctf_class_table *table)
{
    if (table->count == table->room)
    {
        unsigned room = table->room ? 2 * table->room : 64;
        ctf_event_class *classes = realloc(table->classes,
                                           room * sizeof(*classes));
        if (classes)
            table->classes = classes;
        unsigned *process = realloc(table->process, room * sizeof(*process));
        if (process)
            table->process = process;
        uint64_t *site = realloc(table->site, room * sizeof(*site));
        if (site)
            table->site = site;
        if (!classes || !process || !site)
            return false;
        table->room = room;
    }
    if (2 * (table->count + 1) <= table->slot_count)
        return true;
    unsigned slot_count = table->slot_count ? 2 * table->slot_count : 128;
    unsigned *slots = calloc(slot_count, sizeof(*slots));
    if (!slots)
        return false;
    free(table->slots);
    table->slots = slots;
    table->slot_count = slot_count;
    for (uint32_t id = 0; id < table->count; id++)
        place(table, id);
    return true;
}

uint32_t ctf_class_find(ctf_class_table *table, const ctf_site *site,
                        unsigned nargs, const ctf_field_type *types)
{
    if (nargs > CTF_ARGS_MAX)
        nargs = CTF_ARGS_MAX;
    if (table->slot_count)
    {
        unsigned mask = table->slot_count - 1;
        unsigned at = (unsigned) key_hash(site->process, site->site, nargs,
                                          types) & mask;
        for (; table->slots[at]; at = (at + 1) & mask)
        {
            uint32_t id = table->slots[at] - 1;
            if (same_key(table, id, site->process, site->site, nargs, types))
                return id;
        }
    }
    if (!grow(table))
        return UINT32_MAX;
    uint32_t id = table->count++;
    ctf_event_class *class = &table->classes[id];
    memset(class, 0, sizeof(*class));
    class->id = id;
    class->nargs = nargs;
    if (nargs)
        memcpy(class->types, types, nargs * sizeof(*types));
    table->process[id] = site->process;
    table->site[id] = site->site;
    const char *recorder = site->recorder && *site->recorder ? site->recorder
                                                             : "unknown";
    if (site->function && *site->function)
        snprintf(class->name, sizeof(class->name), "%.63s:%.95s:%u",
                 recorder, site->function, site->line);
    else
        snprintf(class->name, sizeof(class->name), "%.63s:site_%u",
                 recorder, id);
    place(table, id);
    return id;
}

void ctf_class_table_free(ctf_class_table *table)
{
    free(table->classes);
    free(table->slots);
    free(table->process);
    free(table->site);
    memset(table, 0, sizeof(*table));
}

void ctf_class_hex_arguments(const char *format, unsigned nargs,
                             ctf_field_type *types)
{
    if (!format)
        return;
    char conversions[CTF_ARGS_MAX];
    unsigned count = 0;
    for (const char *p = format; *p; p++)
    {
        if (*p != '%')
            continue;
        if (p[1] == '%')
        {
            p++;
            continue;
        }
        /* Flags, width, precision, length: up to the conversion. */
        for (p++; *p && strchr("-+ #0123456789.*'hlLqjztI", *p); p++)
        {
            if (*p != '*')
                continue;
            if (count == CTF_ARGS_MAX)
                return;
            conversions[count++] = '*';
        }
        if (!*p)
            return;                     /* a '%' cut short: malformed */
        if (count == CTF_ARGS_MAX)
            return;
        conversions[count++] = *p;
    }
    if (count != nargs)
        return;
    for (unsigned a = 0; a < nargs; a++)
        if ((conversions[a] == 'x' || conversions[a] == 'X' ||
             conversions[a] == 'p') &&
            (types[a] == CTF_FIELD_SIGNED || types[a] == CTF_FIELD_UNSIGNED))
            types[a] = CTF_FIELD_HEX;
}
