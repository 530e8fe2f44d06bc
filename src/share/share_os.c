/* share_os.c - random bytes and the local-network address (see share_os.h). */
#define _DEFAULT_SOURCE /* getifaddrs */
#include "share_os.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

bool share_os_random(unsigned char *out, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(out + got, n - got, 0);
        if (k < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        got += (size_t)k;
    }
    return true;
}

bool share_os_lan_address(char *out, size_t cap)
{
    snprintf(out, cap, "127.0.0.1");
    struct ifaddrs *all = NULL;
    if (getifaddrs(&all) != 0) return false;
    bool found = false;
    for (struct ifaddrs *a = all; a && !found; a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
        if (!(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK)) continue;
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)a->ifa_addr;
        char buf[INET_ADDRSTRLEN];
        if (inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf)) {
            snprintf(out, cap, "%s", buf);
            found = true;
        }
    }
    freeifaddrs(all);
    return found;
}
