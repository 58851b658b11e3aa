/* test_scope_metrics.c - recorder_scope --metrics: the exposition text,
 * the per-scrape interval statistics, [ADDR:]PORT, the HTTP answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "options/metrics_address.h"
#include "metrics/metrics_server.h"
#include "metrics/metrics_text.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char *escaped(const char *text, size_t length)
{
    metrics_buffer buffer = { 0 };
    metrics_escape_label(&buffer, text, length);
    size_t n;
    char *out = metrics_buffer_take(&buffer, &n);
    assert_non_null(out);
    return out;
}

static void test_label_values_are_escaped(void **state)
{
    (void) state;
    struct { const char *in; const char *out; } cases[] = {
        { "plain", "plain" },
        { "back\\slash", "back\\\\slash" },
        { "a \"quote\"", "a \\\"quote\\\"" },
        { "two\nlines\n", "two\\nlines\\n" },
        { "tab\there", "tab\\\\x09here" },          /* the text \x09 */
        { "bad \xff byte", "bad \\\\xff byte" },
        { "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },  /* UTF-8 */
        { "", "" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        char *out = escaped(cases[i].in, strlen(cases[i].in));
        assert_string_equal(out, cases[i].out);
        free(out);
    }
    /* A NUL inside the bytes given is a control character too. */
    char *out = escaped("a\0b", 3);
    assert_string_equal(out, "a\\\\x00b");
    free(out);
}

static metrics_channel channel_of(const char *program, unsigned pid,
                                  const char *name, const char *unit,
                                  double value, uint64_t samples)
{
    return (metrics_channel) {
        .program = program, .program_size = 64, .host = "box",
        .host_size = 64, .pid = pid, .channel = name, .unit = unit,
        .has_value = samples > 0, .value = value, .samples = samples,
    };
}

static char *text_of(const metrics_snapshot *snapshot, bool openmetrics)
{
    metrics_buffer buffer = { 0 };
    metrics_text_write(&buffer, snapshot, openmetrics);
    size_t length;
    char *text = metrics_buffer_take(&buffer, &length);
    assert_non_null(text);
    assert_int_equal(strlen(text), length);
    return text;
}

static void assert_line(const char *text, const char *line)
{
    char wanted[512];
    snprintf(wanted, sizeof(wanted), "\n%s\n", line);
    if (!strstr(text, wanted) && strncmp(text, line, strlen(line)) != 0)
        fail_msg("no line '%s' in:\n%s", line, text);
}

static void assert_no(const char *text, const char *part)
{
    if (strstr(text, part))
        fail_msg("'%s' should not be in:\n%s", part, text);
}

static void test_channels_segments_and_health(void **state)
{
    (void) state;
    metrics_channel channels[2] = {
        channel_of("feeder", 42, "ramp", "steps", 1499, 500),
        channel_of("fe\"ed", 43, "level", "", 0.1, 0),
    };
    channels[0].lost = 7;
    metrics_stats_add(&channels[0].interval, 3);
    metrics_stats_add(&channels[0].interval, -1.5);
    metrics_stats_add(&channels[0].interval, 10);
    metrics_segment segments[2] = {
        { .path = "/tmp/seg", .has_process = true, .program = "feeder",
          .program_size = 64, .host = "box", .host_size = 64, .pid = 42,
          .state = METRICS_LIVE, .restarts = 2, .read_errors = 1 },
        { .path = "/tmp/other", .state = METRICS_WAITING },
    };
    metrics_snapshot snapshot = {
        .channels = channels, .channel_count = 2,
        .segments = segments, .segment_count = 2,
        .health = { .scrapes = 5, .polls = 900 },
    };
    char *text = text_of(&snapshot, false);
    const char *labels = "{program=\"feeder\",pid=\"42\",host=\"box\","
                         "channel=\"ramp\",unit=\"steps\"}";
    char line[512];
    assert_line(text, "# HELP recorder_channel_value The newest sample of "
                      "the channel.");
    assert_line(text, "# TYPE recorder_channel_value gauge");
    snprintf(line, sizeof(line), "recorder_channel_value%s 1499", labels);
    assert_line(text, line);
    assert_line(text, "# TYPE recorder_channel_samples_total counter");
    snprintf(line, sizeof(line), "recorder_channel_samples_total%s 500", labels);
    assert_line(text, line);
    snprintf(line, sizeof(line), "recorder_channel_lost_samples_total%s 7",
             labels);
    assert_line(text, line);
    snprintf(line, sizeof(line), "recorder_channel_min%s -1.5", labels);
    assert_line(text, line);
    snprintf(line, sizeof(line), "recorder_channel_max%s 10", labels);
    assert_line(text, line);
    snprintf(line, sizeof(line), "recorder_channel_mean%s 3.8333333333333335",
             labels);
    assert_line(text, line);

    /* No sample yet: counters at 0, no value; none since the last scrape:
     * no min, max, mean. The quote in the program name escaped. */
    const char *other = "{program=\"fe\\\"ed\",pid=\"43\",host=\"box\","
                        "channel=\"level\",unit=\"\"}";
    snprintf(line, sizeof(line), "recorder_channel_samples_total%s 0", other);
    assert_line(text, line);
    snprintf(line, sizeof(line), "recorder_channel_value%s", other);
    assert_no(text, line);
    snprintf(line, sizeof(line), "recorder_channel_min%s", other);
    assert_no(text, line);
    snprintf(line, sizeof(line), "recorder_channel_mean%s", other);
    assert_no(text, line);

    assert_line(text, "recorder_segment_state{path=\"/tmp/seg\","
                      "program=\"feeder\",pid=\"42\",host=\"box\","
                      "state=\"live\"} 1");
    assert_line(text, "recorder_segment_state{path=\"/tmp/seg\","
                      "program=\"feeder\",pid=\"42\",host=\"box\","
                      "state=\"exited\"} 0");
    assert_line(text, "recorder_segment_state{path=\"/tmp/other\","
                      "program=\"\",pid=\"\",host=\"\",state=\"waiting\"} 1");
    assert_line(text, "recorder_segment_restarts_total{path=\"/tmp/seg\"} 2");
    assert_line(text, "recorder_segment_read_errors_total{path=\"/tmp/seg\"} 1");
    assert_line(text, "recorder_scope_scrapes_total 5");
    assert_line(text, "recorder_scope_polls_total 900");
    assert_no(text, "# EOF");

    /* Every counter's samples end in _total; every family has HELP and
     * TYPE before its samples; names are recorder_*. */
    char *copy = strdup(text);
    char type[128] = "";
    for (char *save, *l = strtok_r(copy, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save))
    {
        if (strncmp(l, "# TYPE ", 7) == 0)
        {
            snprintf(type, sizeof(type), "%s", l + 7);
            continue;
        }
        if (l[0] == '#')
            continue;
        assert_int_equal(strncmp(l, "recorder_", 9), 0);
        size_t name = strcspn(l, "{ ");
        size_t family = strcspn(type, " ");
        assert_int_equal(name, family);
        assert_int_equal(strncmp(l, type, name), 0);
        if (strcmp(type + family, " counter") == 0)
            assert_int_equal(strncmp(l + name - 6, "_total", 6), 0);
    }
    free(copy);
    free(text);

    /* OpenMetrics: counters' families without _total, # EOF last. */
    text = text_of(&snapshot, true);
    assert_line(text, "# TYPE recorder_channel_samples counter");
    assert_line(text, "# TYPE recorder_channel_lost_samples counter");
    assert_line(text, "# TYPE recorder_scope_scrapes counter");
    assert_line(text, "# TYPE recorder_channel_value gauge");
    assert_line(text, "recorder_scope_scrapes_total 5");
    assert_no(text, "_total counter");
    size_t length = strlen(text);
    assert_true(length > 6);
    assert_string_equal(text + length - 6, "# EOF\n");
    free(text);
}

static void test_numbers_read_back_exactly(void **state)
{
    (void) state;
    double values[] = { 0.1, 1e300, -2.5e-7, 1.0 / 3, 12345678901234567.0 };
    const char *names[] = { "a", "b", "c", "d", "e" };
    metrics_channel channels[5];
    for (int i = 0; i < 5; i++)
        channels[i] = channel_of("p", 1, names[i], "", values[i], 1);
    metrics_snapshot snapshot = { .channels = channels, .channel_count = 5 };
    char *text = text_of(&snapshot, false);
    for (int i = 0; i < 5; i++)
    {
        char prefix[200];
        snprintf(prefix, sizeof(prefix), "recorder_channel_value{program=\"p\","
                 "pid=\"1\",host=\"box\",channel=\"%s\",unit=\"\"} ", names[i]);
        const char *at = strstr(text, prefix);
        assert_non_null(at);
        assert_true(strtod(at + strlen(prefix), NULL) == values[i]);
    }
    assert_non_null(strstr(text, "channel=\"a\",unit=\"\"} 0.1\n"));
    free(text);
}

static void test_interval_restarts_at_each_scrape(void **state)
{
    (void) state;
    metrics_span span = { 0 };
    metrics_span_add(&span, 5);
    metrics_span_add(&span, 1);
    metrics_span_publish(&span);                /* text 1: 1..5 */
    assert_int_equal(span.shown.count, 2);
    assert_true(span.shown.min == 1 && span.shown.max == 5 &&
                span.shown.sum == 6);
    metrics_span_add(&span, 9);
    metrics_span_publish(&span);                /* text 2: no scrape yet */
    assert_int_equal(span.shown.count, 3);
    assert_true(span.shown.max == 9);

    metrics_span_served(&span, true);           /* text 2 scraped */
    assert_int_equal(span.shown.count, 0);
    metrics_span_publish(&span);                /* nothing since */
    assert_int_equal(span.shown.count, 0);

    metrics_span_add(&span, 2);
    metrics_span_publish(&span);                /* text 4: 2 */
    metrics_span_add(&span, 7);
    metrics_span_add(&span, 3);
    metrics_span_publish(&span);                /* text 5: 2, 7, 3 */
    /* A scrape took text 4 while text 5 was being built: the next shows
     * what text 4 lacked, no more. */
    metrics_span_served(&span, false);
    assert_int_equal(span.shown.count, 2);
    assert_true(span.shown.min == 3 && span.shown.max == 7 &&
                span.shown.sum == 10);
    /* NaN samples are left out of min, max and mean. */
    metrics_span_add(&span, NAN);
    metrics_span_publish(&span);
    assert_int_equal(span.shown.count, 2);
}

static void test_address_and_port(void **state)
{
    (void) state;
    metrics_address address;
    char why[256];
    assert_true(metrics_address_parse("9464", &address, why, sizeof(why)));
    assert_string_equal(address.text, "127.0.0.1:9464");
    assert_int_equal(address.socket.ss_family, AF_INET);
    assert_true(metrics_address_parse("0.0.0.0:80", &address, why,
                                      sizeof(why)));
    assert_string_equal(address.text, "0.0.0.0:80");
    assert_true(metrics_address_parse("localhost:65535", &address, why,
                                      sizeof(why)));
    assert_string_equal(address.text, "127.0.0.1:65535");
    assert_true(metrics_address_parse("[::1]:9464", &address, why,
                                      sizeof(why)));
    assert_int_equal(address.socket.ss_family, AF_INET6);
    assert_string_equal(address.text, "[::1]:9464");

    struct { const char *text, *why; } bad[] = {
        { "0", "1 to 65535" }, { "65536", "1 to 65535" },
        { "-5", "1 to 65535" }, { "", "1 to 65535" }, { "12ab", "1 to 65535" },
        { "127.0.0.1:", "1 to 65535" }, { "999999999999", "1 to 65535" },
        { "1.2.3:9464", "not an IPv4 address" },
        { "example.com:80", "not an IPv4 address" },
        { "::1:9464", "in brackets" }, { "[::1]9464", "[IPV6]:PORT" },
        { "[zz]:9464", "not an IPv6 address" }, { ":9464", "[ADDR:]PORT" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    {
        why[0] = 0;
        assert_false(metrics_address_parse(bad[i].text, &address, why,
                                           sizeof(why)));
        if (!strstr(why, bad[i].why))
            fail_msg("'%s': '%s' does not say '%s'", bad[i].text, why,
                     bad[i].why);
    }
}

static void test_accept_header(void **state)
{
    (void) state;
    /* What Prometheus 2.x sends. */
    assert_true(metrics_accepts_openmetrics(
        "application/openmetrics-text;version=1.0.0,application/"
        "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
        "q=0.5,*/*;q=0.1"));
    assert_false(metrics_accepts_openmetrics(NULL));
    assert_false(metrics_accepts_openmetrics("*/*"));
    assert_false(metrics_accepts_openmetrics("text/plain"));
    assert_false(metrics_accepts_openmetrics(
        "text/plain;version=0.0.4, application/openmetrics-text; q=0.3"));
    assert_false(metrics_accepts_openmetrics("application/openmetrics-text;q=0"));
}

/* ---- HTTP ---------------------------------------------------------------- */

static metrics_server *start_any_port(void)
{
    metrics_address address;
    char error[256];
    assert_true(metrics_address_parse("127.0.0.1:1", &address, error,
                                      sizeof(error)));
    ((struct sockaddr_in *) &address.socket)->sin_port = 0;
    metrics_server *server = metrics_server_start(&address, error,
                                                  sizeof(error));
    if (!server)
        fail_msg("%s", error);
    return server;
}

/* One request as sent; the whole answer (the server closes or we read
 * until Content-Length is there: it answers HTTP/1.0 and closes). */
static char *request(unsigned port, const char *text)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *) &to, sizeof(to)), 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t) strlen(text));
    size_t used = 0, size = 1 << 16;
    char *answer = calloc(1, size);
    ssize_t got;
    while (used < size - 1 &&
           (got = read(fd, answer + used, size - 1 - used)) > 0)
        used += (size_t) got;
    close(fd);
    return answer;
}

static void test_http_answers(void **state)
{
    (void) state;
    metrics_server *server = start_any_port();
    unsigned port = metrics_server_port(server);
    assert_true(port > 0);

    char *answer = request(port, "GET /metrics HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(answer, " 503 "));   /* nothing published yet */
    free(answer);

    metrics_server_publish(server, strdup("plain 1\n"), 8,
                           strdup("open 1\n# EOF\n"), 13);
    metrics_served served = metrics_server_served(server);
    assert_false(served.any);

    answer = request(port, "GET /metrics HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(answer, " 200 OK\r\n"));
    assert_non_null(strstr(answer, "Content-Type: text/plain; "
                                   "version=0.0.4; charset=utf-8\r\n"));
    assert_non_null(strstr(answer, "\r\n\r\nplain 1\n"));
    free(answer);
    served = metrics_server_served(server);
    assert_true(served.any && served.latest);
    assert_int_equal(served.scrapes, 1);

    answer = request(port, "GET /metrics HTTP/1.0\r\nAccept: application/"
                           "openmetrics-text;version=1.0.0,text/plain;q=0.5"
                           "\r\n\r\n");
    assert_non_null(strstr(answer, "Content-Type: application/"
                                   "openmetrics-text; version=1.0.0; "
                                   "charset=utf-8\r\n"));
    assert_non_null(strstr(answer, "\r\n\r\nopen 1\n# EOF\n"));
    free(answer);
    /* Published after that scrape: the latest was not served. */
    metrics_server_publish(server, strdup("plain 2\n"), 8,
                           strdup("open 2\n# EOF\n"), 13);
    served = metrics_server_served(server);
    assert_true(served.any && !served.latest);
    assert_int_equal(served.scrapes, 2);

    /* HEAD: the headers, no body, no scrape. */
    answer = request(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(answer, "200 OK"));
    assert_null(strstr(answer, "plain 2"));
    free(answer);
    assert_false(metrics_server_served(server).any);

    answer = request(port, "GET /nothing HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(answer, " 404 "));
    assert_non_null(strstr(answer, "/metrics"));
    free(answer);
    answer = request(port, "POST /metrics HTTP/1.0\r\nContent-Length: 0"
                           "\r\n\r\n");
    assert_non_null(strstr(answer, " 405 "));
    assert_non_null(strstr(answer, "Allow: GET, HEAD"));
    free(answer);
    answer = request(port, "GET / HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(answer, " 200 "));
    assert_non_null(strstr(answer, "/metrics"));
    free(answer);
    assert_false(metrics_server_served(server).any);

    /* The port is taken while it serves, and free once stopped. */
    metrics_address address;
    char error[256], text[32];
    snprintf(text, sizeof(text), "%u", port);
    assert_true(metrics_address_parse(text, &address, error, sizeof(error)));
    assert_null(metrics_server_start(&address, error, sizeof(error)));
    assert_non_null(strstr(error, "Address already in use"));
    assert_non_null(strstr(error, text));
    metrics_server_stop(server);
    server = metrics_server_start(&address, error, sizeof(error));
    if (!server)
        fail_msg("after stop: %s", error);
    metrics_server_stop(server);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_label_values_are_escaped),
        cmocka_unit_test(test_channels_segments_and_health),
        cmocka_unit_test(test_numbers_read_back_exactly),
        cmocka_unit_test(test_interval_restarts_at_each_scrape),
        cmocka_unit_test(test_address_and_port),
        cmocka_unit_test(test_accept_header),
        cmocka_unit_test(test_http_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
