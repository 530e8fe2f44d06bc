/* dirs_posix.c - folder listing, absolute paths and temporary folders on
 * POSIX systems (platform.h). */
#ifndef _WIN32
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hb_dir {
    DIR *d;
};

hb_dir_t *hb_dir_open(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    hb_dir_t *h = malloc(sizeof *h);
    if (!h) {
        closedir(d);
        errno = ENOMEM;
        return NULL;
    }
    h->d = d;
    return h;
}

const char *hb_dir_next(hb_dir_t *h)
{
    struct dirent *e;
    while ((e = readdir(h->d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) return e->d_name;
    return NULL;
}

void hb_dir_close(hb_dir_t *h)
{
    if (!h) return;
    closedir(h->d);
    free(h);
}

int hb_fs_remove_dir(const char *dir)
{
    return rmdir(dir);
}

bool hb_fs_is_absolute(const char *path)
{
    return path[0] == '/';
}

int hb_fs_absolute(const char *path, char *out, size_t cap)
{
    if (hb_fs_real_path(path, out, cap) == 0) return 0;
    if (errno == ENAMETOOLONG) return -1;
    int n;
    if (path[0] == '/') {
        n = snprintf(out, cap, "%s", path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) return -1;
        n = snprintf(out, cap, "%s/%s", cwd, path);
    }
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

bool hb_plat_temp_dir(char *out, size_t cap)
{
    const char *t = getenv("TMPDIR");
    int n = snprintf(out, cap, "%s", t && *t ? t : "/tmp");
    return n > 0 && (size_t)n < cap;
}

int hb_fs_make_temp_dir(const char *prefix, char *out, size_t cap)
{
    char tmp[PATH_MAX];
    if (!hb_plat_temp_dir(tmp, sizeof tmp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int n = snprintf(out, cap, "%s/%sXXXXXX", tmp, prefix);
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(out) ? 0 : -1;
}
#else
typedef int hb_dirs_posix_empty; /* ISO C wants something in every file */
#endif
