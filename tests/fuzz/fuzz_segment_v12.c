/* fuzz_segment_v12.c - the reader on corrupted recorder 1.2 segments.
 *
 * A 1.2 segment with three channels is made once, laid out as in
 * share_v12_layout_private.h. Each input is a list of patches (region,
 * offset, bytes) written over a copy of it, possibly cut short by a final
 * truncation; the reader then opens it, lists, reads samples and asks for
 * what 1.2 segments lack. The template is restored afterwards.
 */
#include "fuzz_common.h"
#include "recorder_share.h"
#include "segment/share_v12_layout_private.h"

#include <sys/stat.h>

static char path[600];
static uint8_t template_data[8192];
static uint64_t channel_at[3];
static int fd = -1;

static uint64_t add_channel(uint64_t *end, const char *name, uint64_t slots,
                            uint32_t type, uint64_t count)
{
    uint64_t offset = *end;
    v12_channel *channel = (v12_channel *) (template_data + offset);
    v12_header *header = (v12_header *) template_data;
    uint64_t strings = sizeof(*channel) + slots * V12_SAMPLE_BYTES;
    channel->type = type;
    channel->next = header->head;
    channel->name = (int64_t) strings;
    channel->description = (int64_t) (strings + strlen(name) + 1);
    channel->unit = channel->description + 1;
    channel->ring = (v12_ring) { .size = slots,
                                 .item_size = V12_SAMPLE_BYTES,
                                 .writer = count, .commit = count };
    memcpy((char *) channel + strings, name, strlen(name) + 1);
    uint64_t *sample = (uint64_t *) (channel + 1);
    for (uint64_t i = 0; i < count; i++)
    {
        sample[2 * (i % slots)] = i * 1000;
        sample[2 * (i % slots) + 1] = i * 3;
    }
    header->head = (int64_t) offset;
    *end = (offset + strings + strlen(name) + 3 + 15) & ~(uint64_t) 15;
    return offset;
}

static void make_template(void)
{
    v12_header *header = (v12_header *) template_data;
    header->magic = V12_MAGIC;
    header->version = V12_VERSION;
    header->serial = 12;
    header->commands = (v12_ring) { .size = V12_COMMAND_BYTES,
                                    .item_size = 1 };
    uint64_t end = sizeof(*header);
    channel_at[0] = add_channel(&end, "alpha", 8, V12_SIGNED, 5);
    channel_at[1] = add_channel(&end, "beta", 4, V12_REAL, 11);
    channel_at[2] = add_channel(&end, "gamma", 16, V12_UNSIGNED, 16);
    header->end = (int64_t) end;
    snprintf(path, sizeof(path), "%s/segment_v12", fuzz_scratch_directory());
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        abort();
}

/* Where patches land: the header, each channel, each ring's samples. */
static uint64_t region_start(unsigned which)
{
    which %= 7;
    if (which == 0)
        return 0;
    uint64_t channel = channel_at[(which - 1) % 3];
    return which <= 3 ? channel : channel + sizeof(v12_channel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0)
        make_template();
    fuzz_quiet();
    uint8_t segment[sizeof(template_data)];
    memcpy(segment, template_data, sizeof(segment));
    size_t length = sizeof(segment);

    /* Patches: region, offset (2 bytes), length - 1 (low 4 bits; 0xFF
     * cuts the file at the offset instead), then the bytes. */
    size_t i = 0;
    while (i + 4 <= size)
    {
        uint64_t at = region_start(data[i]) + (data[i + 1] | data[i + 2] << 8);
        if (data[i + 3] == 0xFF)
        {
            if (at < length)
                length = at;
            break;
        }
        size_t len = data[i + 3] % 16 + 1;
        i += 4;
        if (i + len > size)
            len = size - i;
        if (at + len > sizeof(segment))
            break;
        memcpy(segment + at, data + i, len);
        i += len;
    }
    if (ftruncate(fd, 0) != 0 ||
        pwrite(fd, segment, length, 0) != (ssize_t) length)
        abort();

    fuzz_cost cost;
    fuzz_cost_start(&cost);
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (share)
    {
        recorder_share_process process;
        recorder_share_process_info(share, &process);
        recorder_share_recorder_count(share);
        recorder_share_tweak_count(share);
        unsigned channels = recorder_share_channel_count(share);
        for (unsigned c = 0; c <= channels && c < 8; c++)
        {
            recorder_share_channel channel;
            recorder_share_channel_info(share, c, &channel);
            recorder_share_stats stats;
            recorder_share_channel_stats(share, c, &stats);
            recorder_sample samples[32];
            recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
            uint64_t lost;
            while (recorder_share_read(share, c, &cursor, samples, 32, &lost))
                continue;
        }
        recorder_share_find_channel(share, "(alpha|gamma)", -1);
        char why[128];
        recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                 sizeof(why));
        recorder_share_available(share, RECORDER_SHARE_RECORDERS, why,
                                 sizeof(why));
        recorder_share_ticket ticket;
        recorder_share_post(share, "dump", &ticket, why, sizeof(why));
        FILE *null = fopen("/dev/null", "w");
        recorder_share_dump(share, NULL, null);
        fclose(null);
        recorder_share_state(share);
        recorder_share_close(share);
    }
    fuzz_cost_check(&cost, "1.2 segment", "", 0);
    return 0;
}
