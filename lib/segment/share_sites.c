/* share_sites.c - the call sites of a segment, by the address records carry.
 *
 * The writer appends sites as its program reaches them; a reader keeps a
 * sorted index of the table and rebuilds it when the writer added some.
 * A site's format tells what each argument of its records is: a signed,
 * unsigned or real number, and the unit written after the conversion.
 */
#include "segment/share_reader_private.h"
#include "text/format_scan_private.h"

#include <stdlib.h>

static int by_address(const void *a, const void *b)
{
    uint64_t x = ((const site_key *) a)->address;
    uint64_t y = ((const site_key *) b)->address;
    return x < y ? -1 : x > y;
}

/* Sorted index of the sites table, rebuilt when the writer added some. */
static void index_sites(recorder_share *share)
{
    unsigned count = share_reader_published(
        &share_reader_live_header(share)->sites, &share->header.sites);
    if (count == share->site_count && share->sites)
        return;
    site_key *keys = malloc((count ? count : 1) * sizeof(*keys));
    if (!keys)
        return;
    const share_site *table =
        share_at(&share->view, share->header.sites.offset,
                 (uint64_t) count * sizeof(share_site), 8);
    for (unsigned i = 0; table && i < count; i++)
        keys[i] = (site_key) { table[i].address, i };
    qsort(keys, count, sizeof(*keys), by_address);
    free(share->sites);
    share->sites = keys;
    share->site_count = count;
}

static const share_site *find_site(recorder_share *share, uint64_t address)
{
    index_sites(share);
    site_key key = { address, 0 };
    site_key *found = bsearch(&key, share->sites, share->site_count,
                              sizeof(key), by_address);
    if (!found)
        return NULL;
    return share_entry(&share->view, share->header.sites.offset,
                       share->site_count, sizeof(share_site), found->index);
}

bool share_reader_site(recorder_share *share, uint64_t address,
                       site_text *out)
{
    const share_site *site = find_site(share, address);
    if (!site || !share_reader_string(share, site->format, out->format,
                                      sizeof(out->format)))
        return false;
    share_reader_string(share, site->file, out->file, sizeof(out->file));
    share_reader_string(share, site->function, out->function,
                        sizeof(out->function));
    out->line = site->line;
    return true;
}

void share_reader_kind(recorder_share *share, uint64_t address,
                       unsigned argument, argument_kind *out)
{
    out->address = address;
    out->kind = 0;
    out->unit[0] = 0;
    site_text site;
    recorder_conversion conversion;
    if (share_reader_site(share, address, &site) &&
        recorder_format_argument(site.format, argument, &conversion))
    {
        out->kind = recorder_conversion_kind(conversion.conversion);
        recorder_conversion_unit(&conversion, out->unit, sizeof(out->unit));
    }
}
