/* metrics_server.c - serve the reader's latest metrics text over HTTP
 * (libmicrohttpd), without ever making the reader wait. */
#include "metrics/metrics_server.h"
#include "metrics/metrics_text.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A published text, freed by whoever drops the last reference: the
 * server when it publishes the next, or a response sent after that. */
typedef struct metrics_blob
{
    atomic_uint references;
    size_t      length;
    char *      text;
} metrics_blob;

struct metrics_server
{
    struct MHD_Daemon *daemon;
    unsigned           port;
    pthread_mutex_t    lock;            /* held only to swap or take texts */
    metrics_blob *     plain, *openmetrics;
    uint64_t           version;         /* of the texts published */
    uint64_t           served_version;  /* newest of those served */
    uint64_t           scrapes;
    uint64_t           scrapes_seen;    /* by metrics_server_served() */
};

static metrics_blob *blob_new(char *text, size_t length)
{
    metrics_blob *blob = malloc(sizeof(*blob));
    if (!blob)
    {
        free(text);
        return NULL;
    }
    atomic_init(&blob->references, 1);
    blob->length = length;
    blob->text = text;
    return blob;
}

static void blob_release(void *arg)
{
    metrics_blob *blob = arg;
    if (blob && atomic_fetch_sub(&blob->references, 1) == 1)
    {
        free(blob->text);
        free(blob);
    }
}

static const char index_text[] =
    "recorder_scope: the channels of recorder segments as Prometheus "
    "metrics at /metrics\n";
static const char not_found_text[] = "not found: the metrics are at /metrics\n";
static const char not_allowed_text[] = "method not allowed: GET or HEAD\n";
static const char no_text[] = "no metrics yet\n";

static enum MHD_Result send_static(struct MHD_Connection *connection,
                                   unsigned status, const char *text)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(
        strlen(text), (void *) text, MHD_RESPMEM_PERSISTENT);
    if (!response)
        return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            "text/plain; charset=utf-8");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result send_metrics(metrics_server *server,
                                    struct MHD_Connection *connection,
                                    bool get)
{
    const char *accept = MHD_lookup_connection_value(
        connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    bool openmetrics = metrics_accepts_openmetrics(accept);
    pthread_mutex_lock(&server->lock);
    metrics_blob *blob = openmetrics ? server->openmetrics : server->plain;
    if (blob)
    {
        atomic_fetch_add(&blob->references, 1);
        if (get)
        {
            server->scrapes++;
            server->served_version = server->version;
        }
    }
    pthread_mutex_unlock(&server->lock);
    if (!blob)
        return send_static(connection, MHD_HTTP_SERVICE_UNAVAILABLE, no_text);
    struct MHD_Response *response =
        MHD_create_response_from_buffer_with_free_callback_cls(
            blob->length, blob->text, blob_release, blob);
    if (!response)
    {
        blob_release(blob);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            openmetrics ? METRICS_OPENMETRICS_TYPE
                                        : METRICS_CONTENT_TYPE);
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK,
                                                response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result answer(void *arg, struct MHD_Connection *connection,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **request)
{
    (void) version;
    (void) upload;
    (void) upload_size;
    (void) request;
    bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0;
    if (!get && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_static(connection, MHD_HTTP_METHOD_NOT_ALLOWED,
                           not_allowed_text);
    if (strcmp(url, "/metrics") == 0)
        return send_metrics(arg, connection, get);
    if (strcmp(url, "/") == 0)
        return send_static(connection, MHD_HTTP_OK, index_text);
    return send_static(connection, MHD_HTTP_NOT_FOUND, not_found_text);
}

/* Bound here rather than by libmicrohttpd, so that a port in use or an
 * address not on this host is said as such. */
static int listen_at(const metrics_address *address, unsigned *port,
                     char *error, size_t size)
{
    int family = address->socket.ss_family;
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
        (family == AF_INET6 &&
         setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) != 0) ||
        bind(fd, (const struct sockaddr *) &address->socket,
             address->length) != 0 ||
        listen(fd, 64) != 0)
    {
        int why = errno;
        snprintf(error, size, "cannot listen on %s: %s%s", address->text,
                 strerror(why), why == EADDRINUSE
                 ? " (another program has that port)" : "");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct sockaddr_storage bound;
    socklen_t length = sizeof(bound);
    getsockname(fd, (struct sockaddr *) &bound, &length);
    *port = ntohs(family == AF_INET6
                  ? ((struct sockaddr_in6 *) &bound)->sin6_port
                  : ((struct sockaddr_in *) &bound)->sin_port);
    return fd;
}

metrics_server *metrics_server_start(const metrics_address *address,
                                     char *error, size_t size)
{
    metrics_server *server = calloc(1, sizeof(*server));
    if (!server)
    {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    int fd = listen_at(address, &server->port, error, size);
    if (fd < 0)
    {
        free(server);
        return NULL;
    }
    pthread_mutex_init(&server->lock, NULL);
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD;
    if (address->socket.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    server->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, answer, server,
        MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_THREAD_POOL_SIZE, 2u,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned) METRICS_CONNECTIONS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned) METRICS_IDLE_SECONDS,
        MHD_OPTION_END);
    if (!server->daemon)
    {
        snprintf(error, size, "cannot serve on %s: libmicrohttpd did not "
                 "start", address->text);
        close(fd);
        pthread_mutex_destroy(&server->lock);
        free(server);
        return NULL;
    }
    return server;
}

unsigned metrics_server_port(const metrics_server *server)
{
    return server->port;
}

void metrics_server_publish(metrics_server *server, char *text, size_t length,
                            char *openmetrics, size_t openmetrics_length)
{
    metrics_blob *plain = text ? blob_new(text, length) : NULL;
    metrics_blob *other = openmetrics
                        ? blob_new(openmetrics, openmetrics_length) : NULL;
    if (!plain || !other)
    {
        /* Out of memory: keep serving the last ones. */
        blob_release(plain);
        blob_release(other);
        return;
    }
    pthread_mutex_lock(&server->lock);
    metrics_blob *old_plain = server->plain, *old_other = server->openmetrics;
    server->plain = plain;
    server->openmetrics = other;
    server->version++;
    pthread_mutex_unlock(&server->lock);
    blob_release(old_plain);
    blob_release(old_other);
}

metrics_served metrics_server_served(metrics_server *server)
{
    pthread_mutex_lock(&server->lock);
    metrics_served served = {
        .scrapes = server->scrapes,
        .any = server->scrapes != server->scrapes_seen,
        .latest = server->served_version == server->version,
    };
    server->scrapes_seen = server->scrapes;
    pthread_mutex_unlock(&server->lock);
    return served;
}

void metrics_server_stop(metrics_server *server)
{
    if (!server)
        return;
    /* Closes the listening socket too, and waits for its threads. */
    MHD_stop_daemon(server->daemon);
    blob_release(server->plain);
    blob_release(server->openmetrics);
    pthread_mutex_destroy(&server->lock);
    free(server);
}
