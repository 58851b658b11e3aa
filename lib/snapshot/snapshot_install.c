/* snapshot_install.c - recorder_snapshot_install(): the items of trace
 * specifications that snapshots handle. */
#include "snapshot/snapshot_install_private.h"
#include "snapshot/snapshot_private.h"
#include "trace/trace_spec_private.h"

static const recorder_spec_snapshot hooks = {
    .item = snapshot_conditions_item,
    .applied = snapshot_conditions_refresh,
};

void recorder_snapshot_install(void)
{
    snapshot_file_fix_directory();
    recorder_spec_snapshot_hook(&hooks);
}
