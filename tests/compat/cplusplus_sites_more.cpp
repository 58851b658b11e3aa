// The other file of cplusplus_sites: the same inline functions again, and
// an ordinary function of its own.
#include "cplusplus_sites.h"

void more_file_records()
{
    Counter counter;
    counter.bump();
    counter.bump();
    inline_note("more");
    record(cxx_sites, "plain function in the other file");
}
