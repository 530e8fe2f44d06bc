/* fileio.c - bounded reads, crash-safe writes and the data/asset folders (see fileio.h).
 *
 * A save must never leave the target half-written or missing: the new bytes go
 * to a temporary file beside it, are flushed to disk, and only then renamed
 * over the target, so a crash leaves either the old or the new file whole.
 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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

#ifndef HB_SOURCE_DIR
#define HB_SOURCE_DIR "."
#endif

#define DIR_MAX 4096

static void set_err(char *err, size_t errcap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_err(char *err, size_t errcap, const char *fmt, ...)
{
    if (!err || errcap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
}

/* A size limit in words: "16 MiB" when it is a whole number of MiB. */
static void limit_text(size_t max, char *out, size_t cap)
{
    const size_t mib = 1024u * 1024u;
    if (max >= mib && max % mib == 0)
        snprintf(out, cap, "%zu MiB", max / mib);
    else
        snprintf(out, cap, "%zu bytes", max);
}

int hb_read_file(const char *path, size_t max_bytes, char **out, size_t *len, char *err,
                 size_t errcap)
{
    *out = NULL;
    *len = 0;
    if (max_bytes > (size_t)-1 / 4) max_bytes = (size_t)-1 / 4;
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        set_err(err, errcap, "%s: %s", path, strerror(errno));
        return HB_ERR_INPUT;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        set_err(err, errcap, "%s: %s", path, strerror(errno));
        close(fd);
        return HB_ERR_INPUT;
    }
    char lim[32];
    limit_text(max_bytes, lim, sizeof lim);
    if (S_ISDIR(st.st_mode)) {
        set_err(err, errcap, "%s: is a folder, not a file", path);
        close(fd);
        return HB_ERR_INPUT;
    }
    /* Refuse by size before reading a byte, so a huge file costs nothing. */
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > (unsigned long long)max_bytes) {
        set_err(err, errcap, "%s: file is %lld bytes, over the %s limit", path,
                (long long)st.st_size, lim);
        close(fd);
        return HB_ERR_INPUT;
    }
    /* The size may change under us (or be unknown for pipes), so read until EOF
     * but never past max_bytes. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 4096;
    if (cap > max_bytes + 1) cap = max_bytes + 1;
    char *buf = malloc(cap + 1);
    size_t n = 0;
    int rc = HB_OK;
    while (buf) {
        if (n == cap) {
            if (n > max_bytes) break;
            size_t ncap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0) {
            if (errno == EINTR) continue;
            set_err(err, errcap, "%s: %s", path, strerror(errno));
            rc = HB_ERR_INPUT;
            break;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (!buf) {
        set_err(err, errcap, "%s: out of memory", path);
        return HB_ERR_OTHER;
    }
    if (rc == HB_OK && n > max_bytes) {
        set_err(err, errcap, "%s: file is over the %s limit", path, lim);
        rc = HB_ERR_INPUT;
    }
    if (rc != HB_OK) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return HB_OK;
}

/* Write all of data to fd, riding out EINTR and short writes. */
static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (w == 0) {
            errno = EIO;
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return true;
}

/* Create a fresh temporary file "BASE.tmp.PID.N" beside BASE; its name goes to tmp. */
static int open_temp(const char *base, char *tmp, size_t cap)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        int n = snprintf(tmp, cap, "%s.tmp.%ld.%d", base, (long)getpid(), attempt);
        if (n < 0 || (size_t)n >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        /* EEXIST: a stale temp from a crashed run; try the next name. */
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

/* The folder part of path ("." when there is none). */
static void dir_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(out, cap, ".");
        return;
    }
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/file" lives in "/" */
    if (n >= cap) n = cap - 1;
    memcpy(out, path, n);
    out[n] = '\0';
}

/* Flush a folder's entries (the rename) to disk; some filesystems cannot, which is fine. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    while (fsync(fd) != 0 && errno == EINTR) {
    }
    close(fd);
}

/* Write data to a new temporary file beside target, fsync'd and closed.
 * On failure nothing is left behind and err says why. */
static bool write_temp(const char *target, const void *data, size_t len, char *tmp, size_t tcap,
                       char *err, size_t errcap)
{
    int fd = open_temp(target, tmp, tcap);
    if (fd < 0) {
        set_err(err, errcap, "%s: cannot create a temporary file beside it: %s", target,
                strerror(errno));
        return false;
    }
    bool ok = write_all(fd, data, len);
    while (ok && fsync(fd) != 0) {
        if (errno != EINTR) ok = false;
    }
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        set_err(err, errcap, "%s: cannot write %s: %s", target, tmp, strerror(saved));
        unlink(tmp);
    }
    return ok;
}

/* Copy the current PATH to PATH.bak through a temporary file and a rename,
 * so the old backup is replaced whole or not at all. */
static bool keep_backup(const char *path, char *err, size_t errcap)
{
    char bak[DIR_MAX];
    if ((size_t)snprintf(bak, sizeof bak, "%s.bak", path) >= sizeof bak) {
        set_err(err, errcap, "%s: path too long for a backup name", path);
        return false;
    }
    char *old = NULL;
    size_t old_len = 0;
    char rerr[256];
    /* A backup larger than anything we write is not ours to copy. */
    if (hb_read_file(path, (size_t)INT_MAX, &old, &old_len, rerr, sizeof rerr) != HB_OK) {
        set_err(err, errcap, "%s: cannot keep a backup: %s", path, rerr);
        return false;
    }
    char tmp[DIR_MAX];
    bool ok = write_temp(bak, old, old_len, tmp, sizeof tmp, err, errcap);
    free(old);
    if (!ok) return false;
    if (rename(tmp, bak) != 0) {
        set_err(err, errcap, "%s: cannot replace %s: %s", path, bak, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}

int hb_write_atomic(const char *path, const void *data, size_t len, bool keep_bak, char *err,
                    size_t errcap)
{
    if (!path || !*path) {
        set_err(err, errcap, "(no file name): cannot save");
        return HB_ERR_OTHER;
    }
    char tmp[DIR_MAX];
    if (!write_temp(path, data, len, tmp, sizeof tmp, err, errcap)) return HB_ERR_OTHER;

    struct stat st;
    if (keep_bak && stat(path, &st) == 0 && !keep_backup(path, err, errcap)) {
        unlink(tmp);
        return HB_ERR_OTHER;
    }
    if (rename(tmp, path) != 0) {
        set_err(err, errcap, "%s: cannot replace it: %s", path, strerror(errno));
        unlink(tmp);
        return HB_ERR_OTHER;
    }
    char dir[DIR_MAX];
    dir_of(path, dir, sizeof dir);
    sync_dir(dir);
    return HB_OK;
}

/* App-level configuration: the one place mutable statics are allowed. */
static char g_argv0[DIR_MAX];
static char g_data_dir[DIR_MAX];
static char g_assets_dir[DIR_MAX];

void hb_set_argv0(const char *argv0)
{
    snprintf(g_argv0, sizeof g_argv0, "%s", argv0 ? argv0 : "");
    g_data_dir[0] = '\0';
    g_assets_dir[0] = '\0';
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* If FOLDER/PROBE exists, store FOLDER in out. */
static bool try_dir(const char *folder, const char *probe, char *out, size_t cap)
{
    char check[DIR_MAX];
    if ((size_t)snprintf(check, sizeof check, "%s/%s", folder, probe) >= sizeof check ||
        !exists(check))
        return false;
    snprintf(out, cap, "%s", folder);
    return true;
}

/* Find NAME (data or assets) holding PROBE next to the executable: first
 * <exe dir>/../NAME (an installed or build-tree layout), then <exe dir>/NAME. */
static bool find_near_exe(const char *exe_dir, const char *name, const char *probe, char *out,
                          size_t cap)
{
    char cand[DIR_MAX];
    if ((size_t)snprintf(cand, sizeof cand, "%s/../%s", exe_dir, name) < sizeof cand &&
        try_dir(cand, probe, out, cap))
        return true;
    return (size_t)snprintf(cand, sizeof cand, "%s/%s", exe_dir, name) < sizeof cand &&
           try_dir(cand, probe, out, cap);
}

static void find_dir(const char *env, const char *name, const char *probe, char *out, size_t cap)
{
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(out, cap, "%s", e);
        return;
    }
    char exe[DIR_MAX], dir[DIR_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        dir_of(exe, dir, sizeof dir);
        if (find_near_exe(dir, name, probe, out, cap)) return;
    }
    if (g_argv0[0] && strchr(g_argv0, '/')) {
        dir_of(g_argv0, dir, sizeof dir);
        if (find_near_exe(dir, name, probe, out, cap)) return;
    }
    snprintf(out, cap, "%s/%s", HB_SOURCE_DIR, name);
}

const char *hb_data_dir(void)
{
    if (!g_data_dir[0])
        find_dir("HEXBATTLE_DATA", "data", "terrain.json", g_data_dir, sizeof g_data_dir);
    return g_data_dir;
}

const char *hb_assets_dir(void)
{
    if (!g_assets_dir[0]) {
        /* With only HEXBATTLE_DATA set (as the tests do), assets sit beside it. */
        const char *data = getenv("HEXBATTLE_DATA");
        char cand[DIR_MAX];
        if (!getenv("HEXBATTLE_ASSETS") && data && *data &&
            (size_t)snprintf(cand, sizeof cand, "%s/../assets", data) < sizeof cand &&
            try_dir(cand, "fonts", g_assets_dir, sizeof g_assets_dir))
            return g_assets_dir;
        find_dir("HEXBATTLE_ASSETS", "assets", "fonts", g_assets_dir, sizeof g_assets_dir);
    }
    return g_assets_dir;
}
