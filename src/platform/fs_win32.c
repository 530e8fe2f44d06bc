/* fs_win32.c - the file section of platform.h on Windows: the CRT's file
 * descriptors opened through the wide-character calls, so UTF-8 path names
 * with any characters work, and MoveFileExW for the atomic replace (rename()
 * over an existing file fails on Windows). */
#include "platform.h"

#ifdef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <direct.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

const char *hb_fs_strerror(int error)
{
    if (error == HB_FS_ENOTREG) return "not a regular file (a device or a folder)";
    return strerror(error);
}

/* PATH (UTF-8) as a malloc'd wide string, or NULL with errno set. */
static wchar_t *wide(const char *path)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
    return w;
}

/* errno for the last Win32 error. */
static int errno_of_last_error(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION: return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS: return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_WRITE_PROTECT: return EROFS;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    default: return EIO;
    }
}

static int stat_utf8(const char *path, struct _stat64 *st)
{
    wchar_t *w = wide(path);
    if (!w) return -1;
    int rc = _wstat64(w, st);
    free(w);
    return rc;
}

static void fill_info(const struct _stat64 *st, hb_fs_info_t *info)
{
    if (!info) return;
    info->kind = (st->st_mode & _S_IFMT) == _S_IFREG   ? HB_FS_REGULAR
                 : (st->st_mode & _S_IFMT) == _S_IFDIR ? HB_FS_FOLDER
                                                       : HB_FS_SPECIAL;
    info->size = (long long)st->st_size;
    info->mtime_ns = (long long)st->st_mtime * 1000000000LL;
    info->mode = (unsigned)(st->st_mode & 0777);
}

int hb_fs_open_read(const char *path, hb_fs_info_t *info)
{
    /* What it is first: opening a folder fails with EACCES on Windows, and a
     * device (CON, NUL) is no map. */
    struct _stat64 st;
    if (stat_utf8(path, &st) != 0) return -1;
    if ((st.st_mode & _S_IFMT) == _S_IFDIR) {
        errno = EISDIR;
        return -1;
    }
    if ((st.st_mode & _S_IFMT) != _S_IFREG) {
        errno = HB_FS_ENOTREG;
        return -1;
    }
    wchar_t *w = wide(path);
    if (!w) return -1;
    int fd = _wopen(w, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    free(w);
    if (fd < 0) return -1;
    if (_fstat64(fd, &st) != 0) {
        _close(fd);
        return -1;
    }
    fill_info(&st, info);
    return fd;
}

long long hb_fs_read(int fd, void *buf, size_t n)
{
    return _read(fd, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
}

long long hb_fs_write(int fd, const void *buf, size_t n)
{
    return _write(fd, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
}

int hb_fs_sync(int fd)
{
    return _commit(fd);
}

int hb_fs_close(int fd)
{
    return _close(fd);
}

int hb_fs_stat(const char *path, hb_fs_info_t *info)
{
    struct _stat64 st;
    if (stat_utf8(path, &st) != 0) return -1;
    fill_info(&st, info);
    return 0;
}

bool hb_fs_is_link(const char *path)
{
    wchar_t *w = wide(path);
    if (!w) return false;
    DWORD a = GetFileAttributesW(w);
    free(w);
    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT);
}

/* Windows links are rare and need rights to make: a save replaces the path
 * it was given. */
int hb_fs_resolve_target(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path);
    if (n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, path, n + 1);
    return 0;
}

int hb_fs_real_path(const char *path, char *out, size_t cap)
{
    struct _stat64 st;
    if (stat_utf8(path, &st) != 0) return -1;
    wchar_t *w = wide(path);
    if (!w) return -1;
    wchar_t *full = _wfullpath(NULL, w, 0);
    free(w);
    if (!full) return -1;
    int n = WideCharToMultiByte(CP_UTF8, 0, full, -1, out, (int)(cap > INT_MAX ? INT_MAX : cap),
                                NULL, NULL);
    free(full);
    if (n <= 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *c = out; *c; c++)
        if (*c == '\\') *c = '/';
    return 0;
}

int hb_fs_create_temp(const char *base, bool replacing, char *tmp, size_t cap)
{
    (void)replacing; /* a new file is its creator's until the replace */
    for (int attempt = 0; attempt < 100; attempt++) {
        int n = snprintf(tmp, cap, "%s.tmp.%ld.%d", base, (long)_getpid(), attempt);
        if (n < 0 || (size_t)n >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        wchar_t *w = wide(tmp);
        if (!w) return -1;
        int fd = _wopen(w, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT,
                        _S_IREAD | _S_IWRITE);
        free(w);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Windows keeps no Unix permission bits; the replaced file's ACL is the
 * folder's, which the new file inherits too. */
int hb_fs_copy_meta(int fd, const char *from)
{
    (void)fd;
    struct _stat64 st;
    return stat_utf8(from, &st);
}

int hb_fs_replace(const char *from, const char *to)
{
    wchar_t *wf = wide(from), *wt = wide(to);
    int rc = -1;
    /* A read-only file is not replaced: Windows' MoveFileEx refuses
     * (ERROR_ACCESS_DENIED), Wine's goes ahead; asked here, both refuse. */
    DWORD attr = wt ? GetFileAttributesW(wt) : INVALID_FILE_ATTRIBUTES;
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_READONLY) &&
        !(attr & FILE_ATTRIBUTE_DIRECTORY)) {
        errno = EACCES;
    } else if (wf && wt) {
        if (MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            rc = 0;
        else
            errno = errno_of_last_error();
    }
    free(wf);
    free(wt);
    return rc;
}

int hb_fs_remove(const char *path)
{
    wchar_t *w = wide(path);
    if (!w) return -1;
    int rc = _wunlink(w);
    free(w);
    return rc;
}

/* MOVEFILE_WRITE_THROUGH has already flushed the rename. */
void hb_fs_sync_dir(const char *dir)
{
    (void)dir;
}

bool hb_fs_make_dirs(const char *dir, int mode)
{
    (void)mode;
    size_t n = strlen(dir);
    if (n == 0 || n >= 32768) {
        errno = ENAMETOOLONG;
        return false;
    }
    char *buf = malloc(n + 1);
    if (!buf) return false;
    memcpy(buf, dir, n + 1);
    bool ok = true;
    /* Each folder on the way, then DIR itself; "C:" and a leading "/" are no folders to make. */
    for (char *c = buf + 1; ok; c++) {
        bool end = *c == '\0';
        if (!end && *c != '/' && *c != '\\') continue;
        char keep = *c;
        *c = '\0';
        if (!(c - buf == 2 && buf[1] == ':')) {
            wchar_t *w = wide(buf);
            if (!w || (_wmkdir(w) != 0 && errno != EEXIST)) ok = false;
            free(w);
        }
        *c = keep;
        if (end) break;
    }
    struct _stat64 st;
    if (ok && stat_utf8(buf, &st) != 0) {
        ok = false;
    } else if (ok && (st.st_mode & _S_IFMT) != _S_IFDIR) {
        errno = ENOTDIR;
        ok = false;
    }
    free(buf);
    return ok;
}

bool hb_fs_is_terminal(int fd)
{
    return _isatty(fd) != 0;
}

#else
typedef int hb_fs_win32_empty; /* ISO C wants something in every file */
#endif
