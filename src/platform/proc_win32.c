/* proc_win32.c - the process's clocks, memory, id, random bytes and network
 * address on Windows (platform.h). */
#ifdef _WIN32
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
/* winsock2.h before windows.h, windows.h before the rest. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include <bcrypt.h>
#include <iphlpapi.h>
#include <psapi.h>

double hb_plat_thread_cpu_ms(void)
{
    FILETIME created, ended, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &ended, &kernel, &user)) return 0;
    ULARGE_INTEGER k = {.u = {kernel.dwLowDateTime, kernel.dwHighDateTime}};
    ULARGE_INTEGER u = {.u = {user.dwLowDateTime, user.dwHighDateTime}};
    return (double)(k.QuadPart + u.QuadPart) / 1e4; /* 100 ns units */
}

double hb_plat_peak_mem_mb(void)
{
    PROCESS_MEMORY_COUNTERS pmc;
    if (!GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc)) return 0;
    return (double)pmc.PeakWorkingSetSize / (1024.0 * 1024.0);
}

long hb_plat_pid(void)
{
    return (long)GetCurrentProcessId();
}

bool hb_plat_random(unsigned char *out, size_t n)
{
    while (n > 0) {
        ULONG k = n > 0x10000000u ? 0x10000000u : (ULONG)n;
        if (BCryptGenRandom(NULL, out, k, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) return false;
        out += k;
        n -= k;
    }
    return true;
}

bool hb_plat_lan_address(char *out, size_t cap)
{
    snprintf(out, cap, "127.0.0.1");
    ULONG size = 16 * 1024;
    IP_ADAPTER_ADDRESSES *all = NULL;
    ULONG rc = ERROR_BUFFER_OVERFLOW;
    for (int tries = 0; tries < 3 && rc == ERROR_BUFFER_OVERFLOW; tries++) {
        free(all);
        all = malloc(size);
        if (!all) return false;
        rc = GetAdaptersAddresses(AF_INET, GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST, NULL,
                                  all, &size);
    }
    bool found = false;
    for (IP_ADAPTER_ADDRESSES *a = rc == NO_ERROR ? all : NULL; a && !found; a = a->Next) {
        if (a->OperStatus != IfOperStatusUp || a->IfType == IF_TYPE_SOFTWARE_LOOPBACK) continue;
        for (IP_ADAPTER_UNICAST_ADDRESS *u = a->FirstUnicastAddress; u && !found; u = u->Next) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)u->Address.lpSockaddr;
            if (in->sin_family != AF_INET) continue;
            const unsigned char *b = (const unsigned char *)&in->sin_addr;
            snprintf(out, cap, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
            found = true;
        }
    }
    free(all);
    return found;
}
#else
typedef int hb_proc_win32_empty; /* ISO C wants something in every file */
#endif
