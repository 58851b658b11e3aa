/* snapshot_install_private.h - link snapshots in. */
#ifndef RECORDER_SNAPSHOT_INSTALL_PRIVATE_H
#define RECORDER_SNAPSHOT_INSTALL_PRIVATE_H

#include "base/visibility_private.h"

/* Let trace specifications arm snapshot conditions (trace_spec.c sits
 * below and calls up through the table this sets), and fix the snapshot
 * directory from the environment. recorder_trace_set() calls it, which
 * also links lib/snapshot into programs built with librecorder.a. */
void recorder_snapshot_install(void) RECORDER_HIDDEN;

#endif /* RECORDER_SNAPSHOT_INSTALL_PRIVATE_H */
