/* net_win32.c - IPv4 sockets on Windows, through Winsock 2 (platform.h). */
#ifdef _WIN32
#include "platform.h"

#include <string.h>
/* winsock2.h before windows.h. */
#include <winsock2.h>
#include <ws2tcpip.h>

_Static_assert(sizeof(struct sockaddr_in) <= sizeof(((hb_net_addr_t *)0)->u.bytes),
               "hb_net_addr_t holds a struct sockaddr_in");
_Static_assert(sizeof(SOCKET) <= sizeof(hb_sock_t), "a SOCKET fits in hb_sock_t");

bool hb_net_start(void)
{
    WSADATA w;
    return WSAStartup(MAKEWORD(2, 2), &w) == 0;
}

void hb_net_end(void)
{
    WSACleanup();
}

size_t hb_net_addr_ipv4(hb_net_addr_t *a, bool loopback, int port)
{
    struct sockaddr_in in;
    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = htons((u_short)(port > 0 && port < 65536 ? port : 0));
    in.sin_addr.s_addr = htonl(loopback ? INADDR_LOOPBACK : INADDR_ANY);
    memset(a, 0, sizeof *a);
    memcpy(a->u.bytes, &in, sizeof in);
    return sizeof in;
}

hb_sock_t hb_net_dial_loopback(int port)
{
    SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) return HB_NET_NONE;
    hb_net_addr_t a;
    size_t len = hb_net_addr_ipv4(&a, true, port);
    u_long on = 1;
    if (ioctlsocket(s, (long)FIONBIO, &on) != 0 ||
        (connect(s, (const struct sockaddr *)a.u.bytes, (int)len) != 0 &&
         WSAGetLastError() != WSAEWOULDBLOCK)) {
        closesocket(s);
        return HB_NET_NONE;
    }
    return (hb_sock_t)s;
}

/* Winsock counts in int. */
static int clamp(size_t n)
{
    return n > 1u << 30 ? 1 << 30 : (int)n;
}

long long hb_net_send(hb_sock_t s, const void *buf, size_t n)
{
    int k = send((SOCKET)s, buf, clamp(n), 0);
    if (k != SOCKET_ERROR) return k;
    int e = WSAGetLastError();
    return e == WSAEWOULDBLOCK || e == WSAENOTCONN ? 0 : -1;
}

long long hb_net_recv(hb_sock_t s, void *buf, size_t n)
{
    int k = recv((SOCKET)s, buf, clamp(n), 0);
    if (k != SOCKET_ERROR) return k;
    return WSAGetLastError() == WSAEWOULDBLOCK ? -1 : -2;
}

void hb_net_close(hb_sock_t s)
{
    if (s != HB_NET_NONE) closesocket((SOCKET)s);
}
#else
typedef int hb_net_win32_empty; /* ISO C wants something in every file */
#endif
