/* trace_private.h - printing records as they are made. */
#ifndef RECORDER_TRACE_PRIVATE_H
#define RECORDER_TRACE_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

/* Called by the record path, out of line, when the recorder is traced. */
void recorder_trace_print(recorder_info *rec, const recorder_site *site,
                          uint64_t index, uint64_t stamp,
                          const uint64_t *args, unsigned count)
    __attribute__((noinline)) RECORDER_HIDDEN;

#endif /* RECORDER_TRACE_PRIVATE_H */
