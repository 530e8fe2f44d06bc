/* net_posix.c - IPv4 sockets on POSIX systems (platform.h). */
#ifndef _WIN32
#include "platform.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

_Static_assert(sizeof(struct sockaddr_in) <= sizeof(((hb_net_addr_t *)0)->u.bytes),
               "hb_net_addr_t holds a struct sockaddr_in");

bool hb_net_start(void)
{
    return true;
}

void hb_net_end(void)
{
}

size_t hb_net_addr_ipv4(hb_net_addr_t *a, bool loopback, int port)
{
    struct sockaddr_in in;
    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = htons((uint16_t)(port > 0 && port < 65536 ? port : 0));
    in.sin_addr.s_addr = htonl(loopback ? INADDR_LOOPBACK : INADDR_ANY);
    memset(a, 0, sizeof *a);
    memcpy(a->u.bytes, &in, sizeof in);
    return sizeof in;
}

hb_sock_t hb_net_dial_loopback(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return HB_NET_NONE;
    hb_net_addr_t a;
    size_t len = hb_net_addr_ipv4(&a, true, port);
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 ||
        (connect(fd, (const struct sockaddr *)a.u.bytes, (socklen_t)len) != 0 &&
         errno != EINPROGRESS)) {
        close(fd);
        return HB_NET_NONE;
    }
    return fd;
}

long long hb_net_send(hb_sock_t s, const void *buf, size_t n)
{
    ssize_t k;
    do
        k = send((int)s, buf, n, MSG_NOSIGNAL);
    while (k < 0 && errno == EINTR);
    if (k >= 0) return k;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN ? 0 : -1;
}

long long hb_net_recv(hb_sock_t s, void *buf, size_t n)
{
    ssize_t k;
    do
        k = recv((int)s, buf, n, 0);
    while (k < 0 && errno == EINTR);
    if (k >= 0) return k;
    return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : -2;
}

void hb_net_close(hb_sock_t s)
{
    if (s != HB_NET_NONE) close((int)s);
}
#else
typedef int hb_net_posix_empty; /* ISO C wants something in every file */
#endif
