/* paths_posix.c - the program's folder on POSIX systems (platform.h). */
#ifndef _WIN32
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool hb_plat_exe_dir(char *out, size_t cap)
{
    if (cap == 0) return false;
    out[0] = '\0';
    char exe[4096];
    /* Linux (and the BSDs with procfs); macOS wants _NSGetExecutablePath
     * (docs/porting.md). Elsewhere the caller falls back on argv[0]. */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    size_t len = slash == exe ? 1 : (size_t)(slash - exe);
    if (len >= cap) return false;
    memcpy(out, exe, len);
    out[len] = '\0';
    return true;
}

const char *hb_plat_install_rel(void)
{
    return "../share/hexbattle";
}

bool hb_plat_user_dir(hb_user_dir_t kind, char *out, size_t cap)
{
    const char *xdg = getenv(kind == HB_USER_CONFIG ? "XDG_CONFIG_HOME" : "XDG_DATA_HOME");
    int n;
    if (xdg && xdg[0] == '/') {
        n = snprintf(out, cap, "%s/hexbattle", xdg);
    } else {
        const char *home = getenv("HOME");
        if (!home || !home[0]) return false;
        n = snprintf(out, cap, "%s/%s/hexbattle", home,
                     kind == HB_USER_CONFIG ? ".config" : ".local/share");
    }
    return n > 0 && (size_t)n < cap;
}
#else
typedef int hb_paths_posix_empty; /* ISO C wants something in every file */
#endif
