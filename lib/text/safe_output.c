/* safe_output.c - async-signal-safe text: render into a buffer, write it. */
#include "text/safe_output_private.h"
#include "text/render_private.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

size_t safe_write_all(int fd, const char *text, size_t length)
{
    size_t done = 0;
    while (done < length)
    {
        ssize_t n = write(fd, text + done, length - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t) n;
    }
    return done;
}

size_t safe_append(char *line, size_t size, size_t at, const char *format,
                   const uint64_t *args, unsigned count)
{
    static const recorder_render_options plain = {
        .strings_valid = true, .signal_safe = true
    };
    if (at >= size)
        return size ? size - 1 : 0;
    return at + recorder_render(line + at, size - at, format, args, count,
                                &plain);
}

const char *safe_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}
