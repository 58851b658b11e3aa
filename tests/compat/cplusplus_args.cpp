// Arguments only C++ has: std::string (named and temporary), string_view
// (C++17), and objects of classes that convert to a scalar, which must
// not be ambiguous. Traced, they print their text or value; dumped later,
// "%s" prints the address (a temporary is gone by then) and "%+s" reads a
// string that is still alive.
#include <recorder/recorder.h>
#include <cstdio>
#include <cstring>
#include <string>

RECORDER(cxx_args, 64, "C++ arguments");

struct Celsius
{
    double degrees;
    operator double() const { return degrees; }
};
struct Count
{
    unsigned value;
    operator unsigned() const { return value; }
};
struct Flag
{
    bool on;
    operator bool() const { return on; }
};
struct Label
{
    const char *text;
    operator const char *() const { return text; }
};

static std::string temporary_name()
{
    return "temporary name";
}

static std::string captured;
static unsigned capture(const char *text, size_t len, void *)
{
    captured.append(text, len);
    return (unsigned) len;
}

static int expect(const char *what, const char *want)
{
    if (strstr(captured.c_str(), want))
        return 0;
    std::fprintf(stderr, "%s: missing '%s' in:\n%s", what, want,
                 captured.c_str());
    return 1;
}

int main()
{
    recorder_configure_show(capture);
    recorder_trace_set("cxx_args");
    const std::string kept = "kept string";
    record(cxx_args, "kept %s and %+s", kept, kept);
    record(cxx_args, "temporary %s", temporary_name());
    record(cxx_args, "celsius %.1f count %u flag %d label %+s",
           Celsius{21.5}, Count{7}, Flag{true}, Label{"labelled"});
#ifdef RECORDER_STRING_VIEW
    std::string_view view = "viewed text";
    std::string_view part = std::string_view(kept).substr(0, 4);
    record(cxx_args, "view %s, part %.*s", view, (int) part.size(),
           part.data());
#endif

    int failures = 0;
    failures += expect("trace", "cxx_args: kept kept string and kept string");
    failures += expect("trace", "cxx_args: temporary temporary name");
    failures += expect("trace",
                       "cxx_args: celsius 21.5 count 7 flag 1 label labelled");
#ifdef RECORDER_STRING_VIEW
    failures += expect("trace", "cxx_args: view viewed text, part kept");
#endif

    captured.clear();
    recorder_trace_set("cxx_args=0");
    recorder_dump_for("cxx_args");
    failures += expect("dump", "cxx_args: kept 0x");
    failures += expect("dump", " and kept string");
    failures += expect("dump", "cxx_args: temporary 0x");
    failures += expect("dump",
                       "cxx_args: celsius 21.5 count 7 flag 1 label labelled");

    std::printf("cplusplus_args: %d failures\n", failures);
    return failures != 0;
}
