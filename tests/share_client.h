/* share_client.h - a test's side of the players' server (src/share): plain
 * loopback sockets sending whole requests and reading what comes back,
 * while the server is served from the same thread through serve(ctx)
 * (share_pump, or a play window's frame). Every wait is bounded by
 * SHARE_WAIT_S. For tests only (tests/test_share_*.c, test_ui_share.c). */
#ifndef HB_TEST_SHARE_CLIENT_H
#define HB_TEST_SHARE_CLIENT_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SHARE_WAIT_S 5.0 /* longest wait for one answer */
#define SHARE_ANSWER_MAX (256 * 1024)

typedef struct {
    int port;
    void (*serve)(void *ctx); /* serve a little: called while waiting */
    void *ctx;
} share_client_t;

static inline double sc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A non-blocking connection to the server; -1 on failure. */
static inline int sc_dial(const share_client_t *c)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)c->port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Write all of buf, serving meanwhile (a long body needs the server to read
 * while it is sent); stops early when the server closes on us. */
static inline void sc_put(const share_client_t *c, int fd, const char *buf, size_t len)
{
    size_t off = 0;
    double end = sc_now() + SHARE_WAIT_S;
    while (off < len && sc_now() < end) {
        ssize_t k = send(fd, buf + off, len - off, MSG_NOSIGNAL);
        if (k > 0)
            off += (size_t)k;
        else if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINPROGRESS &&
                 errno != ENOTCONN)
            break;
        c->serve(c->ctx);
    }
}

/* Read until the server closes, `until` shows up (NULL: close) or the wait
 * runs out; returns the bytes read into out (NUL ended). */
static inline size_t sc_take(const share_client_t *c, int fd, char *out, size_t cap,
                             const char *until)
{
    size_t n = 0;
    double end = sc_now() + SHARE_WAIT_S;
    out[0] = '\0';
    while (sc_now() < end) {
        c->serve(c->ctx);
        ssize_t k = recv(fd, out + n, cap - 1 - n, 0);
        if (k > 0) {
            n += (size_t)k;
            out[n] = '\0';
            if ((until && strstr(out, until)) || n + 1 >= cap) break;
        } else if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            break;
        }
    }
    return n;
}

/* One request on a fresh connection: the status, and the answer's body in
 * body (cut to cap). */
static inline int sc_request(const share_client_t *c, const char *method, const char *path,
                             const char *data, size_t len, char *body, size_t cap)
{
    int fd = sc_dial(c);
    if (fd < 0) return -1;
    char head[512];
    int hl = snprintf(head, sizeof head,
                      "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                      method, path, data ? len : 0);
    sc_put(c, fd, head, (size_t)hl);
    if (data) sc_put(c, fd, data, len);
    char *ans = malloc(SHARE_ANSWER_MAX);
    if (!ans) {
        close(fd);
        return -1;
    }
    sc_take(c, fd, ans, SHARE_ANSWER_MAX, NULL);
    close(fd);
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
