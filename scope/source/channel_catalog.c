/* channel_catalog.c - channels and recorders for the picker; exports. */
#include "source/channel_catalog.h"

#include <recorder/recorder.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scope_catalog_free(scope_catalog *catalog)
{
    free(catalog->channels);
    free(catalog->recorders);
    memset(catalog, 0, sizeof(*catalog));
}

/* Put channel 'name' at argument 'argument' of the recorder's export
 * list, "_" for the arguments before it that have none. */
static void note_export(scope_catalog_recorder *rec, unsigned argument,
                        const char *name)
{
    if (argument >= RECORDER_MAX_ARGS)
        return;
    char names[RECORDER_MAX_ARGS][64] = { { 0 } };
    unsigned count = 0;
    char list[sizeof(rec->exported)];
    snprintf(list, sizeof(list), "%s", rec->exported);
    for (char *p = list, *comma; *p && count < RECORDER_MAX_ARGS; p = comma + 1)
    {
        comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        snprintf(names[count++], sizeof(names[0]), "%.63s", p);
        if (!comma)
            break;
    }
    snprintf(names[argument], sizeof(names[0]), "%s", name);
    if (count <= argument)
        count = argument + 1;
    size_t used = 0;
    rec->exported[0] = 0;
    for (unsigned a = 0; a < count; a++)
    {
        int n = snprintf(rec->exported + used, sizeof(rec->exported) - used,
                         "%s%s", a ? "," : "", names[a][0] ? names[a] : "_");
        if (n < 0 || (size_t) n >= sizeof(rec->exported) - used)
            break;
        used += (size_t) n;
    }
}

bool scope_catalog_read(scope_catalog *catalog, recorder_share *share)
{
    memset(catalog, 0, sizeof(*catalog));
    bool complete = true;
    if (recorder_share_available(share, RECORDER_SHARE_RECORDERS,
                                 catalog->no_recorders,
                                 sizeof(catalog->no_recorders)))
    {
        catalog->no_recorders[0] = 0;
        unsigned count = recorder_share_recorder_count(share);
        catalog->recorders = count ? calloc(count, sizeof(*catalog->recorders))
                                   : NULL;
        if (count && !catalog->recorders)
            complete = false;
        for (unsigned r = 0; catalog->recorders && r < count; r++)
        {
            recorder_share_recorder info;
            scope_catalog_recorder *rec =
                &catalog->recorders[catalog->recorder_count];
            if (!recorder_share_recorder_info(share, r, &info))
                continue;
            snprintf(rec->name, sizeof(rec->name), "%s", info.name);
            snprintf(rec->description, sizeof(rec->description), "%s",
                     info.description);
            catalog->recorder_count++;
        }
    }

    unsigned count = recorder_share_channel_count(share);
    catalog->channels = count ? calloc(count, sizeof(*catalog->channels))
                              : NULL;
    if (count && !catalog->channels)
        return false;
    for (unsigned c = 0; c < count; c++)
    {
        recorder_share_channel info;
        if (!recorder_share_channel_info(share, c, &info) || !info.active)
            continue;
        scope_catalog_channel *channel =
            &catalog->channels[catalog->channel_count++];
        snprintf(channel->name, sizeof(channel->name), "%s", info.name);
        snprintf(channel->unit, sizeof(channel->unit), "%s", info.unit);
        channel->argument = info.argument;
        recorder_share_recorder rec;
        if (catalog->recorders &&
            recorder_share_recorder_info(share, info.recorder, &rec))
        {
            snprintf(channel->recorder, sizeof(channel->recorder), "%s",
                     rec.name);
            for (unsigned r = 0; r < catalog->recorder_count; r++)
                if (strcmp(catalog->recorders[r].name, rec.name) == 0)
                    note_export(&catalog->recorders[r], info.argument,
                                info.name);
        }
    }
    return complete;
}

static bool valid_name(const char *name, size_t length)
{
    if (length == 0 || (length == 1 && name[0] == '_'))
        return true;                    /* skips an argument */
    if (isdigit((unsigned char) name[0]))
        return false;
    for (size_t i = 0; i < length; i++)
        if (!isalnum((unsigned char) name[i]) && name[i] != '_' &&
            name[i] != '.' && name[i] != '-')
            return false;
    return true;
}

bool scope_export_command(const char *recorder, const char *names,
                          char *buf, size_t size, char *error,
                          size_t error_size)
{
    if (!valid_name(recorder, strlen(recorder)) || !recorder[0] ||
        strcmp(recorder, "_") == 0)
    {
        snprintf(error, error_size, "'%s' is not a recorder name", recorder);
        return false;
    }
    int n = snprintf(buf, size, "%s=", recorder);
    size_t used = n > 0 ? (size_t) n : 0;
    unsigned count = 0;
    bool any = false;
    for (const char *p = names; ; )
    {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t length = strcspn(p, ",");
        size_t trimmed = length;
        while (trimmed && (p[trimmed - 1] == ' ' || p[trimmed - 1] == '\t'))
            trimmed--;
        if (!valid_name(p, trimmed))
        {
            snprintf(error, error_size, "'%.*s' is not a channel name "
                     "(letters, digits, '_', '.', '-', not starting with a "
                     "digit)", (int) trimmed, p);
            return false;
        }
        if (++count > RECORDER_MAX_ARGS)
        {
            snprintf(error, error_size, "more than %d names: a record has at "
                     "most %d arguments", RECORDER_MAX_ARGS, RECORDER_MAX_ARGS);
            return false;
        }
        any |= trimmed && !(trimmed == 1 && p[0] == '_');
        n = snprintf(used < size ? buf + used : NULL,
                     used < size ? size - used : 0, "%s%.*s",
                     count > 1 ? "," : "", (int) trimmed, p);
        used += n > 0 ? (size_t) n : 0;
        p += length;
        if (!*p)
            break;
        p++;
    }
    if (!any)
    {
        snprintf(error, error_size, "no channel name given for %s", recorder);
        return false;
    }
    if (used >= size)
    {
        snprintf(error, error_size, "the command is too long");
        return false;
    }
    return true;
}
