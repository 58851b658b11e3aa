/* visibility_private.h - the mark that keeps a name inside the library.
 *
 * lib/librecorder.map exports every recorder_* and record_* name, the
 * public API. Private functions and variables that share the prefix carry
 * RECORDER_HIDDEN, so they stay out of librecorder.so's dynamic symbols.
 * Headers that need nothing else include this one, not a module's header.
 */
#ifndef RECORDER_VISIBILITY_PRIVATE_H
#define RECORDER_VISIBILITY_PRIVATE_H

#define RECORDER_HIDDEN __attribute__((visibility("hidden")))

#endif /* RECORDER_VISIBILITY_PRIVATE_H */
