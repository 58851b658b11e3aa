// Every public header, compiled as C++ with g++ -Werror: C++ users are safe.
#include <recorder/recorder.h>
#include <recorder/recorder_backtrace.h>
#include <recorder/recorder_level.h>
#include <recorder/recorder_regex.h>
#include <recorder/recorder_ring.h>
#include <recorder/recorder_share.h>
#include <cstdio>
#include <cstring>
#include <string>

RECORDER(cxx, 32, "Records made from C++");
RECORDER_TWEAK_DEFINE(cxx_tweak, 3, "A tweak defined in C++");

enum class colour : short { red = -2, green = 7 };

template <typename T> static void record_in_template(T value)
{
    record(cxx, "template value %d", value);
}

static std::string captured;
static unsigned capture(const char *text, size_t len, void *)
{
    captured.append(text, len);
    return (unsigned) len;
}

int main()
{
    std::string name = "text";
    record(cxx, "int %d unsigned %u char %c bool %d", -1, 2u, 'x', true);
    record(cxx, "double %.2f float %.1f pointer %p", 2.5, 1.5f, (void *) 0);
    record(cxx, "enum %d string %+s", colour::red, name.c_str());
    record(cxx, "nullptr %p", nullptr);
    record_fast(cxx, "fast %lld", 1LL << 40);
    record_in_template(42);
    record_in_template<short>(-3);
    RECORDER_TWEAK(cxx_tweak) = 4;

    recorder_configure_show(capture);
    recorder_configure_format(nullptr);
    unsigned count = recorder_dump_for("cxx");
    const char *expected[] = {
        "int -1 unsigned 2 char x bool 1", "double 2.50 float 1.5 pointer (nil)",
        "enum -2 string text", "nullptr (nil)", "fast 1099511627776",
        "template value 42", "template value -3"
    };
    int failures = count == 7 ? 0 : 1;
    for (const char *want : expected)
        if (!strstr(captured.c_str(), want))
        {
            std::fprintf(stderr, "missing '%s' in:\n%s", want, captured.c_str());
            failures++;
        }
    if (RECORDER_TWEAK(cxx_tweak) != 4)
        failures++;

    // C linkage: the bounded compiler, whole names regardless of case.
    regex_t regex;
    char why[160];
    if (!recorder_regex_compile(&regex, "cxx|net_.*", nullptr, why, sizeof(why)))
    {
        std::fprintf(stderr, "recorder_regex_compile: %s\n", why);
        failures++;
    }
    else
    {
        if (regexec(&regex, "NET_rx", 0, nullptr, 0) != 0 ||
            regexec(&regex, "cxx2", 0, nullptr, 0) == 0)
            failures++;
        regfree(&regex);
    }
    if (recorder_regex_compile(&regex, "((((x{64}){64}){64}){64})", nullptr,
                               why, sizeof(why)))
    {
        regfree(&regex);
        failures++;
    }
    std::printf("cplusplus_headers: %u records, %d failures\n", count, failures);
    return failures != 0;
}
