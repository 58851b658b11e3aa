/* Programs that say #include "recorder.h" with -Iinclude/recorder build. */
#include "recorder.h"
#include <stdio.h>

RECORDER(quoted, 8, "Recorder from a program using quoted includes");

int main(void)
{
    record(quoted, "quoted include works: %d", 1);
    unsigned count = recorder_dump_for("quoted");
    printf("quoted_include: %u record dumped\n", count);
    return count == 1 ? 0 : 1;
}
