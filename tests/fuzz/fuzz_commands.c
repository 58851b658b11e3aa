/* fuzz_commands.c - the writer's consumer of the command ring, on a ring
 * whose every byte comes from the input, as a hostile reader could write. */
#include "fuzz_common.h"
#include "segment/share_commands_private.h"

#include <stdlib.h>

RECORDER(fuzz_commanded, 16, "A recorder commands can change");

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_touches_files(data, size))
        return 0;
    fuzz_private_share();
    fuzz_quiet();
    share_command_ring *ring = calloc(1, sizeof(*ring));
    memcpy(ring, data, size < sizeof(*ring) ? size : sizeof(*ring));
    /* Where the writer thinks it is: its own counter, not the ring's. */
    uint64_t reader = 0;
    if (size >= sizeof(*ring) + sizeof(reader))
        memcpy(&reader, data + sizeof(*ring), sizeof(reader));
    for (int pass = 0; pass < 3; pass++)
        share_commands_drain(ring, &reader, NULL);
    free(ring);
    return 0;
}
