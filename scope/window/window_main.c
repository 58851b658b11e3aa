/* window_main.c - recorder_scope_window: the graph window, exec'd by
 * recorder_scope (cli/window_launch.c) with its own arguments. */
#include "draw/cairo_process.h"
#include "options/scope_options.h"
#include "window/scope_app.h"

/* Fontconfig (under GTK's and cairo's text) keeps what it loads until
 * exit, on purpose; under LeakSanitizer that is not our leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

int main(int argc, char **argv)
{
    cairo_process_tune_malloc();
    /* recorder_scope parsed the same line and chose the window. */
    scope_options options;
    scope_parse parsed = scope_options_parse(argc, argv, &options);
    if (parsed != SCOPE_PARSE_RUN)
        return scope_parse_exit_status(parsed);
    return scope_app_run(&options, argv[0]);
}
