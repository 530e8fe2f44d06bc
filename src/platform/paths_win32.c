/* paths_win32.c - the program's folder on Windows (platform.h). */
#ifdef _WIN32
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

bool hb_plat_exe_dir(char *out, size_t cap)
{
    if (cap == 0) return false;
    out[0] = '\0';
    wchar_t wide[32768];
    DWORD n = GetModuleFileNameW(NULL, wide, (DWORD)(sizeof wide / sizeof wide[0]));
    if (n == 0 || n >= sizeof wide / sizeof wide[0]) return false;
    /* UTF-8, with '/' for '\\' so the rest of hexbattle sees one separator. */
    char utf8[4 * 32768];
    int len = WideCharToMultiByte(CP_UTF8, 0, wide, (int)n, utf8, (int)sizeof utf8 - 1, NULL, NULL);
    if (len <= 0) return false;
    utf8[len] = '\0';
    for (char *c = utf8; *c; c++)
        if (*c == '\\') *c = '/';
    char *slash = strrchr(utf8, '/');
    if (!slash) return false;
    size_t dir = (size_t)(slash - utf8);
    if (dir >= cap) return false;
    memcpy(out, utf8, dir);
    out[dir] = '\0';
    return true;
}

bool hb_plat_user_dir(hb_user_dir_t kind, char *out, size_t cap)
{
    const wchar_t *base = _wgetenv(kind == HB_USER_CONFIG ? L"APPDATA" : L"LOCALAPPDATA");
    if (!base || !base[0] || cap == 0) return false;
    int n = WideCharToMultiByte(CP_UTF8, 0, base, -1, out, (int)(cap > 65536 ? 65536 : cap),
                                NULL, NULL);
    if (n <= 0) return false;
    for (char *c = out; *c; c++)
        if (*c == '\\') *c = '/';
    size_t len = strlen(out);
    if (len + sizeof "/hexbattle" > cap) return false;
    memcpy(out + len, "/hexbattle", sizeof "/hexbattle");
    return true;
}

/* The zip keeps data/, assets/ and maps/ beside hexbattle.exe. */
const char *hb_plat_install_rel(void)
{
    return "";
}
#else
typedef int hb_paths_win32_empty; /* ISO C wants something in every file */
#endif
