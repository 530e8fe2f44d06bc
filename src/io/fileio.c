/* fileio.c - bounded reads, crash-safe writes and the data/asset folders (see fileio.h).
 *
 * A save must never leave the target half-written or missing: the new bytes go
 * to a temporary file beside it, are flushed to disk, and only then renamed
 * over the target, so a crash leaves either the old or the new file whole.
 */
#include "fileio.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/printf_attr.h"
#include "../core/say.h"
#include "../platform/platform.h"

#ifndef HB_SOURCE_DIR
#define HB_SOURCE_DIR "."
#endif

#define DIR_MAX 4096

static void set_err(char *err, size_t errcap, const char *fmt, ...)
    HB_PRINTF(3, 4)
    ;

static void set_err(char *err, size_t errcap, const char *fmt, ...)
{
    if (!err || errcap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    /* The message names a file the user gave: its control characters (an
     * ESC, a newline) are shown, not sent to the terminal. */
    hb_escape_controls(err, errcap);
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
    /* Only a regular file is read: a FIFO or a device would block, or never end. */
    hb_fs_info_t st;
    int fd = hb_fs_open_read(path, &st);
    if (fd < 0) {
        if (errno == EISDIR)
            set_err(err, errcap, "%s: is a folder, not a file", path);
        else
            set_err(err, errcap, "%s: %s", path, hb_fs_strerror(errno));
        return HB_ERR_INPUT;
    }
    char lim[32];
    limit_text(max_bytes, lim, sizeof lim);
    /* Refuse by size before reading a byte, so a huge file costs nothing. */
    if ((unsigned long long)st.size > (unsigned long long)max_bytes) {
        set_err(err, errcap, "%s: file is %lld bytes, over the %s limit", path, st.size, lim);
        hb_fs_close(fd);
        return HB_ERR_INPUT;
    }
    /* The size may change under us, so read until EOF but never past max_bytes. */
    size_t cap = st.size > 0 ? (size_t)st.size + 1 : 4096;
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
        long long got = hb_fs_read(fd, buf + n, cap - n);
        if (got < 0) {
            set_err(err, errcap, "%s: %s", path, strerror(errno));
            rc = HB_ERR_INPUT;
            break;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    hb_fs_close(fd);
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

/* ---- fault injection (HEXBATTLE_FAULT, hb_fault_set) ---- */

/* The operations a fault can hit, in the order a write makes them. */
typedef enum { OP_CREATE = 0, OP_WRITE, OP_FSYNC, OP_CLOSE, OP_RENAME, OP_COUNT } op_t;

static const char *const OP_NAMES[OP_COUNT] = {"create", "write", "fsync", "close", "rename"};

#define FAULT_MAX 8

typedef struct {
    op_t op;
    long nth;  /* the nth call of op fails ... */
    bool on;   /* ... and, with "+", every later one too */
    int error; /* errno it fails with */
} fault_t;

/* App-level test state, like the folders below: set once, from the
 * environment or a test, never by a battle or the editor. */
static fault_t g_faults[FAULT_MAX];
static int g_n_faults = -1; /* -1: HEXBATTLE_FAULT not read yet */
static long g_calls[OP_COUNT];

static int errno_named(const char *s, size_t n)
{
    static const struct {
        const char *name;
        int value;
    } NAMES[] = {{"ENOSPC", ENOSPC}, {"EIO", EIO},     {"EROFS", EROFS},
                 {"EACCES", EACCES}, {"EFBIG", EFBIG},
#ifdef EDQUOT /* POSIX; Windows has no disk quotas in errno */
                 {"EDQUOT", EDQUOT}
#endif
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strlen(NAMES[i].name) == n && strncmp(NAMES[i].name, s, n) == 0) return NAMES[i].value;
    return 0;
}

/* One "OP:N[+][:ERRNO]" item of length n into f; false when malformed. */
static bool parse_fault(const char *s, size_t n, fault_t *f)
{
    const char *colon = memchr(s, ':', n);
    if (!colon) return false;
    size_t oplen = (size_t)(colon - s);
    int op = -1;
    for (int k = 0; k < OP_COUNT; k++)
        if (strlen(OP_NAMES[k]) == oplen && strncmp(OP_NAMES[k], s, oplen) == 0) op = k;
    if (op < 0) return false;
    const char *p = colon + 1, *end = s + n;
    long nth = 0;
    while (p < end && *p >= '0' && *p <= '9' && nth < 1000000)
        nth = nth * 10 + (*p++ - '0');
    if (nth < 1) return false;
    bool on = p < end && *p == '+';
    if (on) p++;
    int error = ENOSPC;
    if (p < end) {
        if (*p != ':' || !(error = errno_named(p + 1, (size_t)(end - p - 1)))) return false;
    }
    *f = (fault_t){(op_t)op, nth, on, error};
    return true;
}

bool hb_fault_set(const char *spec)
{
    memset(g_calls, 0, sizeof g_calls);
    g_n_faults = 0;
    if (!spec) return true;
    const char *s = spec;
    while (*s) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (g_n_faults == FAULT_MAX || !parse_fault(s, n, &g_faults[g_n_faults])) {
            g_n_faults = 0;
            return false;
        }
        g_n_faults++;
        if (comma && !comma[1]) { /* a trailing comma names nothing */
            g_n_faults = 0;
            return false;
        }
        s += n + (comma ? 1 : 0);
    }
    return true;
}

/* Count one call of op; true (errno set) when an injected fault makes it fail. */
static bool fault_hits(op_t op)
{
    if (g_n_faults < 0) {
        const char *env = getenv("HEXBATTLE_FAULT");
        if (!hb_fault_set(env && *env ? env : NULL))
            fprintf(stderr, "hexbattle: HEXBATTLE_FAULT='%s' is not OP:N[+][:ERRNO]; ignored\n",
                    env);
    }
    long call = ++g_calls[op];
    for (int k = 0; k < g_n_faults; k++) {
        const fault_t *f = &g_faults[k];
        if (f->op == op && (call == f->nth || (f->on && call > f->nth))) {
            errno = f->error;
            return true;
        }
    }
    return false;
}

/* ---- atomic writes ---- */

/* Write all of data to fd, riding out short writes. */
static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        if (fault_hits(OP_WRITE)) return false;
        long long w = hb_fs_write(fd, p, len);
        if (w < 0) return false;
        if (w == 0) {
            errno = EIO;
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return true;
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

/* "TARGET: cannot write: REASON" (with what was being done, when it helps). */
static void write_err(char *err, size_t errcap, const char *target, int error, const char *doing)
{
    if (doing)
        set_err(err, errcap, "%s: cannot write: %s (%s)", target, hb_fs_strerror(error), doing);
    else
        set_err(err, errcap, "%s: cannot write: %s", target, hb_fs_strerror(error));
}

/* Write data to a new temporary file beside real (the file it will replace,
 * links followed), with real's permissions and owner when it exists, fsync'd
 * and closed. On failure nothing is left behind and err says why, about shown. */
static bool write_temp(const char *shown, const char *real, const void *data, size_t len, char *tmp,
                       size_t tcap, char *err, size_t errcap)
{
    hb_fs_info_t st;
    bool replacing = hb_fs_stat(real, &st) == 0;
    if (replacing && st.kind != HB_FS_REGULAR) {
        /* A FIFO or a device is not replaced by a file, nor read for a .bak. */
        write_err(err, errcap, shown, st.kind == HB_FS_FOLDER ? EISDIR : HB_FS_ENOTREG, NULL);
        return false;
    }
    int fd = fault_hits(OP_CREATE) ? -1 : hb_fs_create_temp(real, replacing, tmp, tcap);
    if (fd < 0) {
        write_err(err, errcap, shown, errno, "creating a temporary file beside it");
        return false;
    }
    bool ok = write_all(fd, data, len);
    /* The mode and owner of the file replaced (a private save stays private).
     * A file system without modes (FAT) refuses; the file then stays 0600,
     * the safe side, and the save goes on. */
    if (ok && replacing) (void)hb_fs_copy_meta(fd, real);
    while (ok && (fault_hits(OP_FSYNC) || hb_fs_sync(fd) != 0)) {
        if (errno != EINTR) ok = false;
    }
    int saved = errno;
    if (fault_hits(OP_CLOSE)) {
        int injected = errno;
        hb_fs_close(fd);
        if (ok) saved = injected;
        ok = false;
    } else if (hb_fs_close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        write_err(err, errcap, shown, saved, NULL);
        hb_fs_remove(tmp);
    }
    return ok;
}

int hb_rename(const char *from, const char *to)
{
    if (fault_hits(OP_RENAME)) return -1;
    return hb_fs_replace(from, to);
}

/* Copy the current file REAL (what PATH names, links followed) to REAL.bak
 * through a temporary file and a rename, so the old backup is replaced whole
 * or not at all; it keeps REAL's permissions. */
static bool keep_backup(const char *path, const char *real, char *err, size_t errcap)
{
    char bak[DIR_MAX];
    if ((size_t)snprintf(bak, sizeof bak, "%s.bak", real) >= sizeof bak) {
        write_err(err, errcap, path, ENAMETOOLONG, "naming its backup");
        return false;
    }
    char *old = NULL;
    size_t old_len = 0;
    char rerr[256];
    /* A backup larger than anything we write is not ours to copy. */
    if (hb_read_file(real, (size_t)INT_MAX, &old, &old_len, rerr, sizeof rerr) != HB_OK) {
        set_err(err, errcap, "%s: cannot write: cannot keep a backup: %s", path, rerr);
        return false;
    }
    /* The .bak gets the file's mode, not that of an older .bak. */
    char tmp[DIR_MAX], berr[DIR_MAX];
    hb_fs_info_t st;
    if (hb_fs_stat(bak, &st) == 0 && st.kind != HB_FS_REGULAR) {
        free(old);
        write_err(err, errcap, path, HB_FS_ENOTREG, "keeping the old file as .bak");
        return false;
    }
    bool ok = write_temp(bak, real, old, old_len, tmp, sizeof tmp, berr, sizeof berr);
    free(old);
    if (!ok) {
        /* berr is "PATH.bak: cannot write: REASON"; say it about PATH. */
        const char *why = strstr(berr, ": cannot write: ");
        set_err(err, errcap, "%s: cannot write: %s (keeping the old file as %s)", path,
                why ? why + 16 : berr, bak);
        return false;
    }
    if (hb_rename(tmp, bak) != 0) {
        write_err(err, errcap, path, errno, "keeping the old file as .bak");
        hb_fs_remove(tmp);
        return false;
    }
    return true;
}

int hb_write_begin(const char *path, const void *data, size_t len, hb_pending_t *pend, char *err,
                   size_t errcap)
{
    memset(pend, 0, sizeof *pend);
    if (!path || !*path) {
        set_err(err, errcap, "(no file name): cannot write: no file name given");
        return HB_ERR_OTHER;
    }
    if (strlen(path) >= sizeof pend->path) {
        write_err(err, errcap, path, ENAMETOOLONG, NULL);
        return HB_ERR_OTHER;
    }
    memcpy(pend->path, path, strlen(path) + 1);
    /* What PATH names, links followed, must be a regular file or nothing yet
     * (a link to /dev/stdout, a pipe, is refused here). */
    hb_fs_info_t st;
    if (hb_fs_stat(path, &st) == 0 && st.kind != HB_FS_REGULAR) {
        write_err(err, errcap, path, st.kind == HB_FS_FOLDER ? EISDIR : HB_FS_ENOTREG, NULL);
        return HB_ERR_OTHER;
    }
    /* Saving over a link replaces the file it points to and keeps the link. */
    if (hb_fs_resolve_target(path, pend->real, sizeof pend->real) != 0) {
        write_err(err, errcap, path, errno, "following its link");
        return HB_ERR_OTHER;
    }
    /* The temporary file goes beside the file it replaces: the same disk,
     * so the rename is one step. */
    if (!write_temp(path, pend->real, data, len, pend->tmp, sizeof pend->tmp, err, errcap)) {
        pend->tmp[0] = '\0';
        return HB_ERR_OTHER;
    }
    return HB_OK;
}

void hb_write_abort(hb_pending_t *pend)
{
    if (pend->tmp[0]) hb_fs_remove(pend->tmp);
    pend->tmp[0] = '\0';
}

int hb_write_commit(hb_pending_t *pend, bool keep_bak, char *err, size_t errcap)
{
    if (!pend->tmp[0]) {
        set_err(err, errcap, "%s: cannot write: nothing was written", pend->path);
        return HB_ERR_OTHER;
    }
    hb_fs_info_t st;
    if (keep_bak && hb_fs_stat(pend->real, &st) == 0 &&
        !keep_backup(pend->path, pend->real, err, errcap)) {
        hb_write_abort(pend);
        return HB_ERR_OTHER;
    }
    if (hb_rename(pend->tmp, pend->real) != 0) {
        write_err(err, errcap, pend->path, errno, NULL);
        hb_write_abort(pend);
        return HB_ERR_OTHER;
    }
    pend->tmp[0] = '\0';
    char dir[DIR_MAX];
    dir_of(pend->real, dir, sizeof dir);
    hb_fs_sync_dir(dir);
    return HB_OK;
}

/* "-": the bytes go to standard output, as they are (no file to replace). */
static int write_stdout(const void *data, size_t len, char *err, size_t errcap)
{
    bool ok = write_all(1, data, len);
    if (!ok) write_err(err, errcap, "(standard output)", errno, NULL);
    return ok ? HB_OK : HB_ERR_OTHER;
}

int hb_write_atomic(const char *path, const void *data, size_t len, bool keep_bak, char *err,
                    size_t errcap)
{
    if (path && strcmp(path, "-") == 0) return write_stdout(data, len, err, errcap);
    hb_pending_t pend;
    int rc = hb_write_begin(path, data, len, &pend, err, errcap);
    if (rc == HB_OK) rc = hb_write_commit(&pend, keep_bak, err, errcap);
    return rc;
}

bool hb_make_dirs(const char *dir, int mode)
{
    return hb_fs_make_dirs(dir, mode);
}

void hb_file_stamp(const char *path, hb_stamp_t *st)
{
    memset(st, 0, sizeof *st);
    hb_fs_info_t info;
    if (!path || !*path || hb_fs_stat(path, &info) != 0 || info.kind != HB_FS_REGULAR) return;
    st->exists = true;
    st->size = info.size;
    st->mtime_ns = info.mtime_ns;
    char *text = NULL, err[64];
    size_t len = 0;
    if (hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err) != HB_OK) return;
    unsigned long long h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
    st->hash = h;
    free(text);
}

bool hb_stamp_same(const hb_stamp_t *a, const hb_stamp_t *b)
{
    if (a->exists != b->exists) return false;
    return !a->exists || (a->size == b->size && a->mtime_ns == b->mtime_ns && a->hash == b->hash);
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
    hb_fs_info_t st;
    return hb_fs_stat(path, &st) == 0;
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
 * <exe dir>/../NAME (a build-tree layout), then <exe dir>/NAME. */
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

/* Where an installed copy keeps NAME, relative to the executable's folder:
 * <exe dir>/../share/hexbattle/NAME (beside the .exe on Windows); false when
 * it does not fit in out. find_installed: whether it is there, holding PROBE. */
static bool installed_path(const char *exe_dir, const char *name, char *out, size_t cap)
{
    const char *rel = hb_plat_install_rel();
    int n = snprintf(out, cap, "%s/%s%s%s", exe_dir, rel, *rel ? "/" : "", name);
    return n >= 0 && (size_t)n < cap;
}

static bool find_installed(const char *exe_dir, const char *name, const char *probe, char *out,
                           size_t cap)
{
    char cand[DIR_MAX];
    return installed_path(exe_dir, name, cand, sizeof cand) && try_dir(cand, probe, out, cap);
}

/* The folder of argv[0] when it names one (a program started by a path). */
static bool argv0_dir(char *dir, size_t cap)
{
    if (!g_argv0[0] || !strchr(g_argv0, '/')) return false;
    dir_of(g_argv0, dir, cap);
    return true;
}

/* Where NAME (holding PROBE) is: an installed copy's own, relative to the
 * executable; else $ENV (for assets, also beside $HEXBATTLE_DATA, as the
 * tests set only that); else a build tree's, next to the executable or
 * argv[0]; else the source tree the program was built from. */
static void find_dir(const char *env, const char *name, const char *probe, char *out, size_t cap)
{
    char exe_dir[DIR_MAX], arg_dir[DIR_MAX];
    bool have_exe = hb_plat_exe_dir(exe_dir, sizeof exe_dir);
    bool have_arg = argv0_dir(arg_dir, sizeof arg_dir);
    if ((have_exe && find_installed(exe_dir, name, probe, out, cap)) ||
        (have_arg && find_installed(arg_dir, name, probe, out, cap)))
        return;
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(out, cap, "%s", e);
        return;
    }
    const char *data = getenv("HEXBATTLE_DATA");
    char cand[DIR_MAX];
    if (strcmp(name, "assets") == 0 && data && *data &&
        (size_t)snprintf(cand, sizeof cand, "%s/../assets", data) < sizeof cand &&
        try_dir(cand, probe, out, cap))
        return;
    if ((have_exe && find_near_exe(exe_dir, name, probe, out, cap)) ||
        (have_arg && find_near_exe(arg_dir, name, probe, out, cap)))
        return;
#ifdef HB_NO_SOURCE_FALLBACK
    /* Found nowhere: name where an installed copy's would be, so the error
     * about a missing file says where it was looked for. */
    if (!have_exe || !installed_path(exe_dir, name, out, cap)) snprintf(out, cap, "%s", name);
#else
    snprintf(out, cap, "%s/%s", HB_SOURCE_DIR, name);
#endif
}

const char *hb_data_dir(void)
{
    if (!g_data_dir[0])
        find_dir("HEXBATTLE_DATA", "data", "terrain.json", g_data_dir, sizeof g_data_dir);
    return g_data_dir;
}

const char *hb_assets_dir(void)
{
    if (!g_assets_dir[0])
        find_dir("HEXBATTLE_ASSETS", "assets", "fonts", g_assets_dir, sizeof g_assets_dir);
    return g_assets_dir;
}
