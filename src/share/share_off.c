/* share_off.c - share.h in a build without the players' server
 * (HB_SHARE=OFF: a build without libmicrohttpd and libqrencode). Starting
 * always fails and says so; the rest is never reached with a server and
 * does nothing. */
#include "share.h"

#include <stdio.h>

#define UNAVAILABLE                                                                                \
    "sharing is unavailable in this build of hexbattle (built without the players' server: "     \
    "HB_SHARE=OFF)"

bool share_available(void)
{
    return false;
}

share_t *share_start(const share_host_t *host, const share_opts_t *o, char *err, size_t errcap)
{
    (void)host;
    (void)o;
    snprintf(err, errcap, "%s", UNAVAILABLE);
    return NULL;
}

void share_stop(share_t *s)
{
    (void)s;
}

int share_port(const share_t *s)
{
    (void)s;
    return 0;
}

const char *share_secret(const share_t *s)
{
    (void)s;
    return "";
}

void share_url(const share_t *s, char *out, size_t cap)
{
    (void)s;
    if (cap) out[0] = '\0';
}

void share_pump(share_t *s, int wait_ms)
{
    (void)s;
    (void)wait_ms;
}

void share_publish(share_t *s)
{
    (void)s;
}

int share_pages(const share_t *s)
{
    (void)s;
    return 0;
}

long share_taken(const share_t *s)
{
    (void)s;
    return 0;
}

long share_refused(const share_t *s)
{
    (void)s;
    return 0;
}

int share_seats(const share_t *s, share_seat_t *out, int cap)
{
    (void)s;
    (void)out;
    (void)cap;
    return 0;
}

bool share_assign(share_t *s, int who, int page)
{
    (void)s;
    (void)who;
    (void)page;
    return false;
}

int share_holder(const share_t *s, int who)
{
    (void)s;
    (void)who;
    return 0;
}
