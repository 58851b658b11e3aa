// Call sites in inline functions, compiled in two files with ordinary ones
// (cplusplus_sites.cpp and cplusplus_sites_more.cpp): g++ used to refuse
// the mix ("section type conflict"). Each site must be known, so that its
// records render while the rings are shared and in the segment.
#ifndef CPLUSPLUS_SITES_H
#define CPLUSPLUS_SITES_H

#include <recorder/recorder.h>

RECORDER_DECLARE(cxx_sites);

struct Counter
{
    int count = 0;
    void bump()                 // an in-class member function: inline
    {
        count++;
        record(cxx_sites, "member bump to %d", count);
    }
};

inline void inline_note(const char *from)
{
    record(cxx_sites, "inline note from %+s", from);
}

void more_file_records();

#endif // CPLUSPLUS_SITES_H
