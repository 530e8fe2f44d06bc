/* sys/resource.h for the Windows build of the cmocka suites: getrusage's
 * peak memory (ru_maxrss, in KiB as on Linux), which test_map_io checks,
 * through the platform layer (GetProcessMemoryInfo). */
#ifndef HB_COMPAT_SYS_RESOURCE_H
#define HB_COMPAT_SYS_RESOURCE_H
#include "platform/platform.h"

#define RUSAGE_SELF 0
struct rusage {
    long ru_maxrss;
};
static inline int getrusage(int who, struct rusage *r)
{
    (void)who;
    r->ru_maxrss = (long)(hb_plat_peak_mem_mb() * 1024.0);
    return 0;
}
#endif
