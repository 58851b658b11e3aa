/* scope_options.c - parse recorder_scope's command line. */
#include "scope_options.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "Usage: recorder_scope [OPTIONS] [CHANNEL-REGEX...]\n"
    "Look at a program that records with the recorder library, through the\n"
    "segment it shares (RECORDER_TRACES=recorder=chan1,chan2 or share=PATH).\n"
    "\n"
    "  -S PATH        segment to open (default $RECORDER_SHARE, else\n"
    "                 /tmp/recorder_share)\n"
    "  -c COMMAND     send a trace specification item to the program, e.g.\n"
    "                 -c dump, -c 'net=1', -c 'transfer_delay=200';\n"
    "                 repeatable; exits once sent when no channel is named\n"
    "  -l             list channels, recorders and tweaks\n"
    "  -D [REGEX]     print the program's flight recorder (recorders whose\n"
    "                 name matches REGEX), live or after it died\n"
    "  -h, --help     this help\n"
    "      --version  version\n"
    "\n"
    "Exit status: 0 on success, 1 if the segment or the program is not\n"
    "usable, 2 for a bad command line.\n";

static scope_parse usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "recorder_scope: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n%s", usage_text);
    return SCOPE_PARSE_EXIT_USAGE;
}

scope_parse scope_options_parse(int argc, char **argv, scope_options *options)
{
    memset(options, 0, sizeof(*options));
    for (int a = 1; a < argc; a++)
    {
        const char *arg = argv[a];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        {
            fputs(usage_text, stdout);
            return SCOPE_PARSE_EXIT_OK;
        }
        if (strcmp(arg, "--version") == 0)
        {
            printf("recorder_scope 1.3.0\n");
            return SCOPE_PARSE_EXIT_OK;
        }
        if (strcmp(arg, "-S") == 0 || strcmp(arg, "-c") == 0)
        {
            if (a + 1 >= argc)
                return usage_error("option %s needs an argument", arg);
            const char *value = argv[++a];
            if (arg[1] == 'S')
            {
                options->share_path = value;
            }
            else
            {
                if (options->command_count == SCOPE_MAX_ITEMS)
                    return usage_error("too many %s options", arg);
                if (!*value)
                    return usage_error("%s needs a non-empty command", arg);
                options->commands[options->command_count++] = value;
            }
            continue;
        }
        if (strcmp(arg, "-l") == 0)
        {
            options->list = true;
            continue;
        }
        if (strcmp(arg, "-D") == 0)
        {
            options->dump = true;
            if (a + 1 < argc && argv[a + 1][0] != '-')
                options->dump_regex = argv[++a];
            continue;
        }
        if (arg[0] == '-' && arg[1])
            return usage_error("unknown option '%s'", arg);
        if (options->channel_count == SCOPE_MAX_ITEMS)
            return usage_error("too many channel regexes (at '%s')", arg);
        options->channels[options->channel_count++] = arg;
    }
    return SCOPE_PARSE_RUN;
}
