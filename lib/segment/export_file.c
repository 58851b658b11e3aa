/* export_file.c - recorder 1.2's name for the default segment path.
 *
 * 1.2 programs and readers found the shared file with
 * recorder_export_file(); ours is where a reader looks by default.
 */
#include "recorder.h"
#include "recorder_share.h"

const char *recorder_export_file(void)
{
    return recorder_share_default_path();
}
