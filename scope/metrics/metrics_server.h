/* metrics_server.h - the HTTP side of recorder_scope --metrics.
 *
 * libmicrohttpd answers on its own threads: GET or HEAD /metrics gets the
 * latest text the reader published (the 0.0.4 text, or OpenMetrics if the
 * Accept header prefers it), / a line pointing there, other paths 404,
 * other methods 405. The reader never waits for them: publishing swaps a
 * pointer under a mutex, and a response holds a reference to the text it
 * sends, however slow its client. Connections are limited in number and
 * closed after METRICS_IDLE_SECONDS without progress.
 */
#ifndef SCOPE_METRICS_SERVER_H
#define SCOPE_METRICS_SERVER_H

#include "options/metrics_address.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_CONNECTIONS     64
#define METRICS_IDLE_SECONDS    10

typedef struct metrics_server metrics_server;

/* Listen at 'address' (port 0: any free port, for tests) and serve. NULL
 * with the reason in error[size] (port in use, address not here...). */
metrics_server *metrics_server_start(const metrics_address *address,
                                     char *error, size_t size);
/* The port it listens on. */
unsigned metrics_server_port(const metrics_server *server);
/* Serve these texts from now on; the server owns and frees them. */
void metrics_server_publish(metrics_server *server, char *text, size_t length,
                            char *openmetrics, size_t openmetrics_length);

/* What scrapes (GET /metrics) there were since the last call. */
typedef struct metrics_served
{
    uint64_t scrapes;                   /* in all */
    bool     any;                       /* since the last call */
    bool     latest;                    /* one got the last text published */
} metrics_served;

metrics_served metrics_server_served(metrics_server *server);
/* Stop serving and close the port. */
void metrics_server_stop(metrics_server *server);

#endif /* SCOPE_METRICS_SERVER_H */
