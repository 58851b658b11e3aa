// Usage: cplusplus_sites SEGMENT
// Records from in-class member functions, inline functions of a header,
// a template and ordinary functions, in two files, while sharing in
// SEGMENT: every line must render, in this process and in the segment.
#include "cplusplus_sites.h"
#include <recorder/recorder_share.h>
#include <cstdio>
#include <cstring>
#include <string>

RECORDER(cxx_sites, 64, "Records from every kind of C++ function");

static void plain_function(int n)
{
    record(cxx_sites, "plain function %d", n);
}

template <typename T> static void template_function(T value)
{
    record(cxx_sites, "template function %d", (int) value);
}

static std::string captured;
static unsigned capture(const char *text, size_t len, void *)
{
    captured.append(text, len);
    return (unsigned) len;
}

static const char *const expected[] = {
    "cxx_sites: member bump to 1", "cxx_sites: inline note from main",
    "cxx_sites: plain function 1", "cxx_sites: template function 2",
    "cxx_sites: member bump to 2", "cxx_sites: inline note from more",
    "cxx_sites: plain function in the other file",
};

static int check(const char *what, const std::string &text)
{
    int failures = 0;
    for (const char *want : expected)
        if (!strstr(text.c_str(), want))
        {
            std::fprintf(stderr, "%s: missing '%s'\n", what, want);
            failures++;
        }
    if (strstr(text.c_str(), "unknown site"))
    {
        std::fprintf(stderr, "%s: a site is not known\n", what);
        failures++;
    }
    if (failures)
        std::fprintf(stderr, "%s was:\n%s", what, text.c_str());
    return failures;
}

int main(int argc, char **argv)
{
    if (argc != 2)
    {
        std::fprintf(stderr, "usage: %s SEGMENT\n", argv[0]);
        return 2;
    }
    std::string share = std::string("share=") + argv[1];
    if (recorder_trace_set(share.c_str()) != RECORDER_TRACE_OK)
        return 1;

    Counter counter;
    counter.bump();
    inline_note("main");
    plain_function(1);
    template_function<short>(2);
    more_file_records();

    // While the rings are shared, a dump follows only known sites.
    recorder_configure_show(capture);
    unsigned count = recorder_dump_for("cxx_sites");
    int failures = check("dump", captured);
    if (count != 8)
    {
        std::fprintf(stderr, "dump: %u records, expected 8\n", count);
        failures++;
    }

    // A reader of the segment knows them from its site table.
    char error[256];
    recorder_share *segment = recorder_share_open(argv[1], error,
                                                  sizeof(error));
    if (!segment)
    {
        std::fprintf(stderr, "cannot open %s: %s\n", argv[1], error);
        return 1;
    }
    std::FILE *out = std::tmpfile();
    recorder_share_dump(segment, "cxx_sites", out);
    recorder_share_close(segment);
    std::rewind(out);
    std::string text;
    char buffer[4096];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof(buffer), out)) > 0)
        text.append(buffer, got);
    std::fclose(out);
    failures += check("segment", text);

    std::printf("cplusplus_sites: %u records, %d failures\n", count, failures);
    return failures != 0;
}
