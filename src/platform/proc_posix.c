/* proc_posix.c - the process's clocks, memory, id, random bytes and network
 * address on POSIX systems (platform.h). */
#ifndef _WIN32
#define _DEFAULT_SOURCE /* getifaddrs, getrandom */
#include "platform.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double hb_plat_thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double hb_plat_peak_mem_mb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (double)ru.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

long hb_plat_pid(void)
{
    return (long)getpid();
}

bool hb_plat_random(unsigned char *out, size_t n)
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

bool hb_plat_lan_address(char *out, size_t cap)
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
#else
typedef int hb_proc_posix_empty; /* ISO C wants something in every file */
#endif
