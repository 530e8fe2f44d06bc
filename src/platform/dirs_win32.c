/* dirs_win32.c - folder listing, absolute paths and temporary folders on
 * Windows (platform.h): the wide-character calls, names turned into UTF-8
 * and '\' into '/'. */
#ifdef _WIN32
#include "platform.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

/* UTF-8 of the wide string w into out, '\' turned into '/'. */
static bool narrow(const wchar_t *w, char *out, size_t cap)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, out, cap > INT_MAX ? INT_MAX : (int)cap, NULL,
                                NULL);
    if (n <= 0) return false;
    for (char *c = out; *c; c++)
        if (*c == '\\') *c = '/';
    return true;
}

/* PATH (UTF-8) as a malloc'd wide string with room for extra more
 * characters, or NULL with errno set. */
static wchar_t *wide_extra(const char *path, size_t extra)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = malloc(((size_t)n + extra) * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
    return w;
}

struct hb_dir {
    HANDLE h;
    WIN32_FIND_DATAW fd;
    bool first; /* fd holds an entry not given yet */
    char name[MAX_PATH * 3 + 1];
};

hb_dir_t *hb_dir_open(const char *dir)
{
    wchar_t *w = wide_extra(dir, 3);
    if (!w) return NULL;
    wcscat(w, L"\\*");
    hb_dir_t *d = calloc(1, sizeof *d);
    if (!d) {
        free(w);
        errno = ENOMEM;
        return NULL;
    }
    d->h = FindFirstFileW(w, &d->fd);
    free(w);
    if (d->h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        free(d);
        errno = e == ERROR_DIRECTORY ? ENOTDIR : e == ERROR_ACCESS_DENIED ? EACCES : ENOENT;
        return NULL;
    }
    d->first = true;
    return d;
}

const char *hb_dir_next(hb_dir_t *d)
{
    for (;;) {
        if (!d->first && !FindNextFileW(d->h, &d->fd)) return NULL;
        d->first = false;
        if (wcscmp(d->fd.cFileName, L".") == 0 || wcscmp(d->fd.cFileName, L"..") == 0) continue;
        if (narrow(d->fd.cFileName, d->name, sizeof d->name)) return d->name;
    }
}

void hb_dir_close(hb_dir_t *d)
{
    if (!d) return;
    FindClose(d->h);
    free(d);
}

int hb_fs_remove_dir(const char *dir)
{
    wchar_t *w = wide_extra(dir, 0);
    if (!w) return -1;
    int rc = _wrmdir(w);
    free(w);
    return rc;
}

bool hb_fs_is_absolute(const char *path)
{
    bool sep0 = path[0] == '/' || path[0] == '\\';
    if (sep0 && (path[1] == '/' || path[1] == '\\')) return true; /* //server/share */
    return ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) &&
           path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

int hb_fs_absolute(const char *path, char *out, size_t cap)
{
    if (hb_fs_real_path(path, out, cap) == 0) return 0;
    if (errno == ENAMETOOLONG) return -1;
    wchar_t *w = wide_extra(path, 0);
    if (!w) return -1;
    wchar_t *full = _wfullpath(NULL, w, 0);
    free(w);
    if (!full) return -1;
    bool ok = narrow(full, out, cap);
    free(full);
    if (!ok) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

bool hb_plat_temp_dir(char *out, size_t cap)
{
    wchar_t w[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, w);
    if (n == 0 || n > MAX_PATH) return false;
    while (n > 3 && (w[n - 1] == L'\\' || w[n - 1] == L'/')) w[--n] = 0;
    return narrow(w, out, cap);
}

int hb_fs_make_temp_dir(const char *prefix, char *out, size_t cap)
{
    char tmp[MAX_PATH * 3 + 1];
    if (!hb_plat_temp_dir(tmp, sizeof tmp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int tries = 0; tries < 100; tries++) {
        unsigned char r[4];
        if (!hb_plat_random(r, sizeof r)) {
            errno = EIO;
            return -1;
        }
        int n = snprintf(out, cap, "%s/%s%02x%02x%02x", tmp, prefix, r[0], r[1], r[2] ^ r[3]);
        if (n < 0 || (size_t)n >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        wchar_t *w = wide_extra(out, 0);
        if (!w) return -1;
        BOOL made = CreateDirectoryW(w, NULL);
        free(w);
        if (made) return 0;
        if (GetLastError() != ERROR_ALREADY_EXISTS) {
            errno = EACCES;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}
#else
typedef int hb_dirs_win32_empty; /* ISO C wants something in every file */
#endif
