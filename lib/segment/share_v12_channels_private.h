/* share_v12_channels_private.h - the channels of a recorder 1.2 segment,
 * behind the same functions as ours (recorder_share.h). */
#ifndef RECORDER_SHARE_V12_CHANNELS_PRIVATE_H
#define RECORDER_SHARE_V12_CHANNELS_PRIVATE_H

#include "recorder_share.h"
#include "base/visibility_private.h"

/* Walk the writer's list of channels again: new ones get the next
 * indexes, those it dropped become inactive. False if it could not keep
 * them (out of memory). */
bool share_v12_refresh(recorder_share *share) RECORDER_HIDDEN;

/* The newest sample time of any channel, in seconds since the writer's
 * first tick (0 if none). */
double share_v12_newest(recorder_share *share) RECORDER_HIDDEN;

unsigned share_v12_channel_count(recorder_share *share) RECORDER_HIDDEN;
bool share_v12_channel_info(recorder_share *share, unsigned index,
                            recorder_share_channel *out) RECORDER_HIDDEN;
bool share_v12_channel_stats(recorder_share *share, unsigned index,
                             recorder_share_stats *out) RECORDER_HIDDEN;
int share_v12_find_channel(recorder_share *share, const char *pattern,
                           int after) RECORDER_HIDDEN;
size_t share_v12_read(recorder_share *share, unsigned channel,
                      recorder_share_cursor *cursor, recorder_sample *samples,
                      size_t max, uint64_t *lost) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_V12_CHANNELS_PRIVATE_H */
