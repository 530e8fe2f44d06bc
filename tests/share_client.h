/* share_client.h - a test's side of the players' server (src/share): plain
 * loopback sockets sending whole requests and reading what comes back,
 * while the server is served from the same thread through serve(ctx)
 * (share_pump, or a play window's frame). Every wait is bounded by
 * SHARE_WAIT_S. For tests only (tests/test_share_*.c, test_ui_share.c). */
#ifndef HB_TEST_SHARE_CLIENT_H
#define HB_TEST_SHARE_CLIENT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h" /* sockets: POSIX or Winsock */

#define SHARE_WAIT_S 5.0 /* longest wait for one answer */
#define SHARE_ANSWER_MAX (256 * 1024)

typedef struct {
    int port;
    void (*serve)(void *ctx); /* serve a little: called while waiting */
    void *ctx;
} share_client_t;

static inline double sc_now(void)
{
    return hb_plat_now_ms() / 1e3;
}

/* A non-blocking connection to the server; HB_NET_NONE on failure. The
 * client's own hb_net_start (once, never ended), so its sockets outlive a
 * stopped server's. */
static inline hb_sock_t sc_dial(const share_client_t *c)
{
    static bool started;
    if (!started) started = hb_net_start();
    return started ? hb_net_dial_loopback(c->port) : HB_NET_NONE;
}

/* Write all of buf, serving meanwhile (a long body needs the server to read
 * while it is sent); stops early when the server closes on us. */
static inline void sc_put(const share_client_t *c, hb_sock_t fd, const char *buf, size_t len)
{
    size_t off = 0;
    double end = sc_now() + SHARE_WAIT_S;
    while (off < len && sc_now() < end) {
        long long k = hb_net_send(fd, buf + off, len - off);
        if (k > 0)
            off += (size_t)k;
        else if (k < 0)
            break;
        c->serve(c->ctx);
    }
}

/* Read until the server closes, `until` shows up (NULL: close) or the wait
 * runs out; returns the bytes read into out (NUL ended). */
static inline size_t sc_take(const share_client_t *c, hb_sock_t fd, char *out, size_t cap,
                             const char *until)
{
    size_t n = 0;
    double end = sc_now() + SHARE_WAIT_S;
    out[0] = '\0';
    while (sc_now() < end) {
        c->serve(c->ctx);
        long long k = hb_net_recv(fd, out + n, cap - 1 - n);
        if (k > 0) {
            n += (size_t)k;
            out[n] = '\0';
            if ((until && strstr(out, until)) || n + 1 >= cap) break;
        } else if (k == 0 || k < -1) {
            break; /* closed, or reset */
        }
    }
    return n;
}

/* One request on a fresh connection: the status, and the answer's body in
 * body (cut to cap). */
static inline int sc_request(const share_client_t *c, const char *method, const char *path,
                             const char *data, size_t len, char *body, size_t cap)
{
    hb_sock_t fd = sc_dial(c);
    if (fd == HB_NET_NONE) return -1;
    char head[512];
    int hl = snprintf(head, sizeof head,
                      "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                      method, path, data ? len : 0);
    sc_put(c, fd, head, (size_t)hl);
    if (data) sc_put(c, fd, data, len);
    char *ans = malloc(SHARE_ANSWER_MAX);
    if (!ans) {
        hb_net_close(fd);
        return -1;
    }
    sc_take(c, fd, ans, SHARE_ANSWER_MAX, NULL);
    hb_net_close(fd);
    int status = 0;
    sscanf(ans, "HTTP/1.%*d %d", &status);
    const char *b = strstr(ans, "\r\n\r\n");
    snprintf(body, cap, "%s", b ? b + 4 : "");
    free(ans);
    return status;
}

static inline int sc_post(const share_client_t *c, const char *path, const char *json, char *body,
                          size_t cap)
{
    return sc_request(c, "POST", path, json, strlen(json), body, cap);
}

/* Join combatant id with the secret; its token into tok (33 bytes). True when joined. */
static inline bool sc_join(const share_client_t *c, const char *secret, const char *id, char *tok)
{
    char msg[200], body[1024];
    snprintf(msg, sizeof msg, "{\"k\":\"%s\",\"id\":\"%s\"}", secret, id);
    if (sc_post(c, "/api/join", msg, body, sizeof body) != 200) return false;
    const char *t = strstr(body, "\"token\":\"");
    if (!t) return false;
    snprintf(tok, 33, "%s", t + 9);
    return true;
}

#endif
