/* regex_bound.c - screen a regular expression's cost, then compile it.
 *
 * The screen parses the pattern as glibc would (POSIX extended) and
 * estimates what regcomp builds:
 *  - nodes: glibc expands "e{n,m}" into m copies of e, "e+" into "ee*",
 *    "e{n,}" into n copies and a star, so sizes multiply through nesting;
 *  - closure: each node gets the set of nodes reachable without consuming
 *    a character. A run of k skippable nodes ("(x?){k}", "(x*){k}", an
 *    alternative that may be empty) gives each of them up to k entries,
 *    and regexec's states hold that many nodes each. The estimate is the
 *    count of skippable nodes times the longest run of them, an upper
 *    bound of the sum of squared runs.
 *  - loops: a '*', '+' or '{n,}' around what may match empty makes glibc
 *    go round the closures again, per level of nesting or stacking.
 * Back-references are refused: no recorder or channel name needs one, and
 * they make matching exponential. So is a stray ')', which would close the
 * group that anchors the pattern to whole names.
 *
 * Limits measured with glibc 2.36 on x86-64 (2 cores shared), C.UTF-8,
 * regcomp then regexec of two names; CPU time and peak RSS growth, plain
 * build / AddressSanitizer build (what the fuzz targets run):
 *   x{8192}                  at the node limit    4 ms 2.0 MiB / 19 ms  8 MiB
 *   ([[:alpha:]]|_){1000}ish near the node limit  3 ms 1.9 MiB / 21 ms  8 MiB
 *   (x?){128}                at the closure limit 3 ms 1.2 MiB / 10 ms  4 MiB
 *   (x?){128}x{7000}         near both limits     6 ms 2.0 MiB / 24 ms  9 MiB
 *   (.{1,64}){64}            refused (closure)   56 ms 8.6 MiB / 89 ms 23 MiB
 *   (x?){1024}               refused (closure)  190 ms  17 MiB
 *   (){64}{1,}               refused (closure in a loop)
 *                                                28 ms 1.2 MiB / 107 ms 65 MiB
 *   ((((((x?)?)+)?)+)+)      refused (loops)     10 ms 0.5 MiB / 108 ms 27 MiB
 *   ((((x{64}){64}){64}){64}) refused (nodes)   7.3 s  3.4 GiB (38 s when
 *                                                reported, on a busier host)
 * so whatever passes costs under 10 ms and 4 MiB, and under 100 ms and
 * 16 MiB even with AddressSanitizer, which the fuzz targets check.
 */
#include "text/regex_bound_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a piece of pattern costs once glibc has expanded it. Doubles, so
 * that nested repetitions saturate instead of overflowing. */
typedef struct cost
{
    double nodes;       /* nodes after expansion */
    double skippable;   /* of which may be skipped (epsilon-reachable) */
    double run;         /* longest run of consecutive skippable nodes */
    double head, tail;  /* skippable run at its start and at its end */
    bool   nullable;    /* can match the empty string */
    unsigned loops;     /* unbounded repetitions of skippable ones, nested */
} cost;

typedef struct parser
{
    const char *at;
    const char *why;
    unsigned    depth;
} parser;

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* Skippable through and through: what follows sees one run. */
static cost all_skippable(double nodes)
{
    return (cost) { nodes, nodes, nodes, nodes, nodes, true, 0 };
}

static cost atom(double nodes)
{
    return (cost) { nodes, 0, 0, 0, 0, false, 0 };
}

static cost concatenate(cost a, cost b)
{
    cost c;
    c.nodes = a.nodes + b.nodes;
    c.skippable = a.skippable + b.skippable;
    c.run = max2(max2(a.run, b.run), a.tail + b.head);
    c.head = a.nullable ? a.nodes + b.head : a.head;
    c.tail = b.nullable ? a.tail + b.nodes : b.tail;
    c.nullable = a.nullable && b.nullable;
    c.loops = a.loops > b.loops ? a.loops : b.loops;
    return c;
}

/* e{low,high}, high < 0 for no upper bound. */
static cost repeat(cost e, long low, long high)
{
    double copies = high < 0 ? (double) low + 1 : (double) high;
    if (copies < 1)
        copies = 1;                     /* "e{0}" is still parsed */
    double nodes = copies * (e.nodes + 1);
    /* A loop around what may match empty: glibc's closures go round it
     * again for each level ("1?****...": 32 stars take 43 ms). */
    unsigned loops = e.loops;
    if (high < 0 && (e.nullable || e.loops))
        loops++;
    if (low == 0 || e.nullable)
    {
        cost c = all_skippable(nodes);
        c.loops = loops;
        return c;
    }
    double optional = (copies - (double) low) * (e.nodes + 1);
    cost c;
    c.nodes = nodes;
    c.skippable = e.skippable * (double) low + optional;
    c.head = e.head;
    c.tail = optional > 0 ? optional + e.tail : e.tail;
    c.run = max2(max2(e.run, c.tail), low > 1 ? e.tail + e.head : 0);
    c.nullable = false;
    c.loops = loops;
    return c;
}

/* After '[': skip to the closing ']', as glibc reads a bracket. */
static void skip_bracket(parser *p)
{
    if (*p->at == '^')
        p->at++;
    if (*p->at == ']')
        p->at++;
    while (*p->at && *p->at != ']')
    {
        if (p->at[0] == '[' && strchr(":=.", p->at[1]) && p->at[1])
        {
            char close = p->at[1];
            const char *end = p->at + 2;
            while (*end && !(end[0] == close && end[1] == ']'))
                end++;
            p->at = *end ? end + 2 : end;
            continue;
        }
        p->at++;
    }
    if (*p->at)
        p->at++;
}

/* "{n}", "{n,}", "{,m}", "{n,m}" at p->at (just after '{'). */
static bool interval(parser *p, long *low, long *high)
{
    const char *q = p->at;
    long n = 0, m = -1;
    bool digits = false;
    for (; *q >= '0' && *q <= '9'; q++)
    {
        n = n < 1000000 ? n * 10 + (*q - '0') : n;     /* saturates */
        digits = true;
    }
    if (*q == ',')
    {
        q++;
        if (*q >= '0' && *q <= '9')
        {
            m = 0;
            for (; *q >= '0' && *q <= '9'; q++)
                m = m < 1000000 ? m * 10 + (*q - '0') : m;
        }
        else if (!digits)
            return false;
    }
    else
    {
        if (!digits)
            return false;
        m = n;
    }
    if (*q != '}')
        return false;
    p->at = q + 1;
    *low = n;
    *high = m < 0 ? -1 : m > n ? m : n;
    return true;
}

static cost alternatives(parser *p);

/* One atom with its repetitions; false at '|', ')' or the end. */
static bool piece(parser *p, cost *out)
{
    char c = *p->at;
    if (!c || c == '|' || (c == ')' && p->depth))
        return false;
    if (c == ')')
        /* It would close the group that anchors the pattern, "^(a)|(b)$",
         * and escape both whole-name matching and this estimate. */
        p->why = "unbalanced parenthesis";
    p->at++;
    cost e;
    switch (c)
    {
    case '(':
        p->depth++;
        e = alternatives(p);
        p->depth--;
        if (*p->at == ')')
            p->at++;
        e.nodes += 1;
        break;
    case '[':
        skip_bracket(p);
        e = atom(4);
        break;
    case '\\':
        c = *p->at;
        if (c)
            p->at++;
        if (c >= '1' && c <= '9')
            p->why = "back-references are not supported";
        e = atom(c && strchr("wWsS", c) ? 4 : 1);
        break;
    default:
        e = atom(1);                    /* literal, '.', '^', '$' */
        break;
    }
    for (;;)
    {
        long low, high;
        c = *p->at;
        if (c == '*')
            low = 0, high = -1;
        else if (c == '+')
            low = 1, high = -1;
        else if (c == '?')
            low = 0, high = 1;
        else if (c == '{')
        {
            p->at++;
            if (!interval(p, &low, &high))
                break;                  /* regcomp will say what is wrong */
            e = repeat(e, low, high);
            continue;
        }
        else
            break;
        p->at++;
        e = repeat(e, low, high);
    }
    *out = e;
    return true;
}

static cost sequence(parser *p)
{
    cost all = { 0, 0, 0, 0, 0, true, 0 }, e;
    while (piece(p, &e))
        all = concatenate(all, e);
    return all;
}

static cost alternatives(parser *p)
{
    cost first = sequence(p);
    if (*p->at != '|')
        return first;
    cost all = first;
    bool nullable = first.nullable;
    while (*p->at == '|')
    {
        p->at++;
        cost next = sequence(p);
        nullable |= next.nullable;
        all.nodes += next.nodes + 1;
        all.skippable += next.skippable;
        all.run = max2(all.run, next.run);
        all.head = max2(all.head, next.head);
        all.tail = max2(all.tail, next.tail);
        all.loops = all.loops > next.loops ? all.loops : next.loops;
    }
    /* An empty alternative makes the whole choice skippable. */
    if (nullable)
    {
        unsigned loops = all.loops;
        all = all_skippable(all.nodes);
        all.loops = loops;
    }
    return all;
}

/* NULL if 'pattern' is cheap enough; '*estimate' gets its cost in nodes'
 * worth (a closure entry takes about 1/32 of a node's memory). */
static const char *too_costly(const char *pattern, double *estimate,
                              char *why, size_t size)
{
    size_t length = strlen(pattern);
    if (length > RECORDER_REGEX_MAX_LENGTH)
    {
        snprintf(why, size, "longer than %u characters",
                 RECORDER_REGEX_MAX_LENGTH);
        return why;
    }
    parser p = { pattern, NULL, 0 };
    cost all = alternatives(&p);
    double closure = all.skippable * all.run;
    /* Within loops, glibc revisits closures that are still incomplete:
     * "(){64}{1,}" costs 28 ms where "(){128}" costs 1 ms. */
    if (all.loops)
        closure *= max2(1, all.run / 4);
    *estimate = all.nodes + closure / 32;
    if (p.why)
    {
        snprintf(why, size, "%s", p.why);
        return why;
    }
    if (all.nodes > RECORDER_REGEX_MAX_NODES)
    {
        snprintf(why, size, "too costly: repetitions expand to about %.3g "
                 "nodes, limit %u", all.nodes, RECORDER_REGEX_MAX_NODES);
        return why;
    }
    if (all.loops > RECORDER_REGEX_MAX_LOOPS)
    {
        snprintf(why, size, "too costly: %u nested repetitions of what may "
                 "be empty, limit %u", all.loops, RECORDER_REGEX_MAX_LOOPS);
        return why;
    }
    if (closure > RECORDER_REGEX_MAX_CLOSURE)
    {
        snprintf(why, size, "too costly: optional repetitions make about "
                 "%.3g empty-match links, limit %u", closure,
                 RECORDER_REGEX_MAX_CLOSURE);
        return why;
    }
    return NULL;
}

bool recorder_regex_compile(regex_t *regex, const char *pattern,
                            size_t *nodes, char *why, size_t why_size)
{
    char scratch[160];
    if (!why || !why_size)
    {
        why = scratch;
        why_size = sizeof(scratch);
    }
    double estimate = 0;
    if (too_costly(pattern, &estimate, why, why_size))
        return false;
    char anchored[RECORDER_REGEX_MAX_LENGTH + 8];
    snprintf(anchored, sizeof(anchored), "^(%s)$", pattern);
    /* Case-insensitive, as recorder 1.2 matched: "move" names MOVE. */
    int err = regcomp(regex, anchored, REG_EXTENDED | REG_NOSUB | REG_ICASE);
    if (err)
    {
        regerror(err, regex, why, why_size);
        return false;
    }
    if (nodes)
        *nodes = (size_t) estimate + 1;
    return true;
}
