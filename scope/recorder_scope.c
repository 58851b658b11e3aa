/* recorder_scope.c - look at a recording program through its segment. */
#include "scope_options.h"
#include "scope_text.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    scope_options options;
    switch (scope_options_parse(argc, argv, &options))
    {
    case SCOPE_PARSE_EXIT_OK:    return 0;
    case SCOPE_PARSE_EXIT_USAGE: return 2;
    case SCOPE_PARSE_RUN:        break;
    }
    if (options.channel_count)
    {
        fprintf(stderr, "recorder_scope: this build has no graph window; "
                        "use -l, -D or -c\n");
        return 2;
    }
    if (!options.list && !options.dump && !options.command_count)
        options.list = true;

    const char *path = options.share_path ? options.share_path
                                          : recorder_share_default_path();
    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
    {
        fprintf(stderr, "recorder_scope: %s\n", error);
        return 1;
    }
    int status = 0;
    for (unsigned c = 0; c < options.command_count && !status; c++)
        status = scope_send(share, options.commands[c]);
    if (!status && options.list)
        status = scope_list(share, path, stdout);
    if (!status && options.dump)
        status = scope_dump(share, options.dump_regex, stdout);
    recorder_share_close(share);
    return status;
}
