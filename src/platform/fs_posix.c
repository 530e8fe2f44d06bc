/* fs_posix.c - the file section of platform.h on POSIX systems. */
/* realpath(), fchown(), lstat() and readlink() are X/Open calls. */
#define _XOPEN_SOURCE 700
#include "platform.h"

#ifndef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif

const char *hb_fs_strerror(int error)
{
    if (error == HB_FS_ENOTREG) return "not a regular file (a pipe, device or socket)";
    return strerror(error);
}

static void fill_info(const struct stat *st, hb_fs_info_t *info)
{
    if (!info) return;
    info->kind = S_ISREG(st->st_mode)   ? HB_FS_REGULAR
                 : S_ISDIR(st->st_mode) ? HB_FS_FOLDER
                                        : HB_FS_SPECIAL;
    info->size = (long long)st->st_size;
    info->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL + (long long)st->st_mtim.tv_nsec;
    info->mode = (unsigned)(st->st_mode & 07777);
}

int hb_fs_open_read(const char *path, hb_fs_info_t *info)
{
    int fd;
    /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of
     * waiting for one; the kind check below then refuses it. */
    do
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : HB_FS_ENOTREG;
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    fill_info(&st, info);
    return fd;
}

long long hb_fs_read(int fd, void *buf, size_t n)
{
    ssize_t got;
    do
        got = read(fd, buf, n);
    while (got < 0 && errno == EINTR);
    return (long long)got;
}

long long hb_fs_write(int fd, const void *buf, size_t n)
{
    ssize_t w;
    do
        w = write(fd, buf, n);
    while (w < 0 && errno == EINTR);
    return (long long)w;
}

int hb_fs_sync(int fd)
{
    int rc;
    do
        rc = fsync(fd);
    while (rc != 0 && errno == EINTR);
    return rc;
}

int hb_fs_close(int fd)
{
    return close(fd);
}

int hb_fs_stat(const char *path, hb_fs_info_t *info)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    fill_info(&st, info);
    return 0;
}

bool hb_fs_is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int hb_fs_resolve_target(const char *path, char *out, size_t cap)
{
    char cur[PATH_MAX], link[PATH_MAX];
    if (strlen(path) >= sizeof cur) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(cur, sizeof cur, "%s", path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break; /* a file, or none yet */
        if (hops == 40) {
            errno = ELOOP;
            return -1;
        }
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) return -1;
        link[n] = '\0';
        if (link[0] == '/') {
            snprintf(cur, sizeof cur, "%s", link);
        } else {
            /* Relative to the folder holding the link. */
            char *slash = strrchr(cur, '/');
            size_t keep = slash ? (size_t)(slash - cur) + 1 : 0;
            if (keep + (size_t)n >= sizeof cur) {
                errno = ENAMETOOLONG;
                return -1;
            }
            memcpy(cur + keep, link, (size_t)n + 1);
        }
    }
    if (strlen(cur) >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, cur, strlen(cur) + 1);
    return 0;
}

int hb_fs_real_path(const char *path, char *out, size_t cap)
{
    char buf[PATH_MAX];
    if (!realpath(path, buf)) return -1;
    if (strlen(buf) >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, buf, strlen(buf) + 1);
    return 0;
}

int hb_fs_create_temp(const char *base, bool replacing, char *tmp, size_t cap)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        int n = snprintf(tmp, cap, "%s.tmp.%ld.%d", base, (long)getpid(), attempt);
        if (n < 0 || (size_t)n >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, replacing ? 0600 : 0666);
        /* EEXIST: a stale temp from a crashed run; try the next name. */
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

int hb_fs_copy_meta(int fd, const char *from)
{
    struct stat st;
    if (stat(from, &st) != 0) return -1;
    /* The owner first: changing it may clear set-id bits that fchmod then
     * puts back. Only root (or the owner keeping a group of theirs) may. */
    if (fchown(fd, st.st_uid, st.st_gid) != 0) (void)fchown(fd, (uid_t)-1, st.st_gid);
    return fchmod(fd, st.st_mode & 07777);
}

int hb_fs_replace(const char *from, const char *to)
{
    return rename(from, to);
}

int hb_fs_remove(const char *path)
{
    return unlink(path);
}

void hb_fs_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    while (fsync(fd) != 0 && errno == EINTR) {
    }
    close(fd);
}

bool hb_fs_make_dirs(const char *dir, int mode)
{
    char buf[PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(buf, dir, n + 1);
    for (char *c = buf + 1; *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return false;
        *c = '/';
    }
    if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return false;
    struct stat st;
    if (stat(buf, &st) != 0) return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

bool hb_fs_is_terminal(int fd)
{
    return isatty(fd) == 1;
}

#else
/* A translation unit must hold something: the Win32 side is fs_win32.c. */
typedef int hb_fs_posix_unused_t;
#endif
