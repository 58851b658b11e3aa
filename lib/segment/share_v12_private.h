/* share_v12_private.h - open a recorder 1.2 segment, follow its writer.
 *
 * recorder_share_open() maps the file with the same checks whatever its
 * format (regular file, not a link, owned by the reader unless
 * RECORDER_SHARE_ANY_OWNER), then hands a 1.2 one to this module. The
 * reader's public functions dispatch here when share->v12 is set.
 */
#ifndef RECORDER_SHARE_V12_PRIVATE_H
#define RECORDER_SHARE_V12_PRIVATE_H

#include "recorder_share.h"
#include "segment/share_access_private.h"
#include "base/visibility_private.h"

/* Whether the mapping starts with the magic of a 1.2 segment (of either
 * word size): share_v12_attach() then says what it makes of it. */
bool share_v12_detect(const share_view *view) RECORDER_HIDDEN;

/* Check the 1.2 header and channels of the mapped 'share' and set
 * share->v12; false with the reason in error[size]. */
bool share_v12_attach(recorder_share *share, char *error, size_t size)
    RECORDER_HIDDEN;
void share_v12_free(recorder_share *share) RECORDER_HIDDEN;

recorder_share_status share_v12_state(recorder_share *share) RECORDER_HIDDEN;
void share_v12_process_info(recorder_share *share,
                            recorder_share_process *info) RECORDER_HIDDEN;

/* The pid of the process holding the file that is not a reader, or 0. */
uint32_t share_v12_writer(recorder_share *share) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_V12_PRIVATE_H */
