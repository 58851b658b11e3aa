/* backtrace_rpc.c - a backtrace chain across a client and its server.
 *
 * The client starts a server process (this program again, as rpc_server)
 * on a socketpair and asks it to divide. A request to divide by zero
 * fails in the server's handler, which sends its backtrace back with the
 * error; the client puts it ahead of its own and prints one chain, the
 * server's frames first, each frame tagged with the process that ran it:
 *
 *   Server failed: division by zero
 *   0/13 rpc_server @ host Failed at file "share/examples/backtrace_rpc.c",
 *        line 67, in check_divisor
 *   1/13 rpc_server @ host Called from file "...", line 82, in handle_request
 *   ...
 *   8/13 backtrace_rpc @ host Called from file "...", line 156, in call_server
 *
 * Usage: backtrace_rpc [DIVIDEND DIVISOR]      (default: 42 0)
 */
#include <recorder/recorder.h>
#include <recorder/recorder_backtrace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

RECORDER(rpc, 64, "Requests and replies between client and server");

/* Replies are "OK RESULT\n", or "ERROR LENGTH MESSAGE\n" and LENGTH bytes
 * of backtrace text. */

static int send_all(int fd, const char *data, size_t length)
{
    while (length > 0)
    {
        ssize_t sent = write(fd, data, length);
        if (sent <= 0)
            return -1;
        data += sent;
        length -= (size_t) sent;
    }
    return 0;
}

/* ---- server ----------------------------------------------------------- */

static void reply_error(int fd, const char *message)
{
    /* Skip reply_error itself: the failure is where we were called. */
    recorder_backtrace *here = recorder_backtrace_capture(1);
    size_t length = 0;
    char *text = here ? recorder_backtrace_text(here, &length) : NULL;
    char header[256];
    snprintf(header, sizeof(header), "ERROR %zu %s\n",
             text ? length : 0, message);
    send_all(fd, header, strlen(header));
    if (text)
        send_all(fd, text, length);
    free(text);
    recorder_backtrace_delete(here);
}

static int check_divisor(int fd, long divisor)
{
    if (divisor == 0)
    {
        record(rpc, "Refusing to divide by zero");
        reply_error(fd, "division by zero");
        return -1;
    }
    return 0;
}

static void handle_request(int fd, const char *request)
{
    long dividend, divisor;
    record(rpc, "Request '%+s'", request);
    if (sscanf(request, "divide %ld %ld", &dividend, &divisor) != 2)
    {
        reply_error(fd, "malformed request");
        return;
    }
    if (check_divisor(fd, divisor) < 0)
        return;
    char reply[64];
    snprintf(reply, sizeof(reply), "OK %ld\n", dividend / divisor);
    send_all(fd, reply, strlen(reply));
}

static int serve(int fd)
{
    char request[256];
    ssize_t got = read(fd, request, sizeof(request) - 1);
    if (got <= 0)
        return 1;
    request[got] = 0;
    request[strcspn(request, "\n")] = 0;
    handle_request(fd, request);
    return 0;
}

/* ---- client ----------------------------------------------------------- */

/* Read the reply; on error, print the chain of both processes. */
static int read_reply(int fd)
{
    static char reply[1 << 20];
    size_t have = 0;
    ssize_t got;
    while (have < sizeof(reply) - 1 &&
           (got = read(fd, reply + have, sizeof(reply) - 1 - have)) > 0)
        have += (size_t) got;
    reply[have] = 0;

    long result;
    if (sscanf(reply, "OK %ld", &result) == 1)
    {
        printf("Result: %ld\n", result);
        return 0;
    }
    size_t length;
    int offset = 0;
    char *newline = strchr(reply, '\n');
    if (!newline || sscanf(reply, "ERROR %zu %n", &length, &offset) != 1)
    {
        fprintf(stderr, "backtrace_rpc: bad reply from the server\n");
        return 1;
    }
    *newline = 0;
    const char *blob = newline + 1;
    size_t received = have - (size_t) (blob - reply);
    record(rpc, "Server error '%+s'", reply + offset);
    printf("Server failed: %s\n", reply + offset);

    recorder_backtrace *chain = recorder_backtrace_capture(0);
    char why[256];
    if (!chain)
        fprintf(stderr, "backtrace_rpc: cannot capture our backtrace\n");
    else if (!recorder_backtrace_attach(chain, blob,
                                        length < received ? length : received,
                                        why, sizeof(why)))
        fprintf(stderr, "backtrace_rpc: server's backtrace rejected: %s\n",
                why);
    recorder_backtrace_print(chain, stdout);
    recorder_backtrace_delete(chain);
    return 1;
}

static int call_server(int fd, long dividend, long divisor)
{
    char request[128];
    snprintf(request, sizeof(request), "divide %ld %ld\n", dividend, divisor);
    record(rpc, "Calling the server: %ld / %ld", dividend, divisor);
    if (send_all(fd, request, strlen(request)) < 0)
        return 1;
    shutdown(fd, SHUT_WR);
    return read_reply(fd);
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    if (argc == 3 && strcmp(argv[1], "--serve") == 0)
        return serve(atoi(argv[2]));

    long dividend = argc == 3 ? atol(argv[1]) : 42;
    long divisor = argc == 3 ? atol(argv[2]) : 0;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
    {
        perror("socketpair");
        return 1;
    }
    fflush(NULL);
    pid_t server = fork();
    if (server == 0)
    {
        /* A separate program, to the backtrace: it has its own name. */
        char fd[16];
        snprintf(fd, sizeof(fd), "%d", pair[1]);
        close(pair[0]);
        execl("/proc/self/exe", "rpc_server", "--serve", fd, (char *) NULL);
        _exit(127);
    }
    close(pair[1]);
    int status = call_server(pair[0], dividend, divisor);
    close(pair[0]);
    waitpid(server, NULL, 0);
    return status;
}
