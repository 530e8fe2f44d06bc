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

#include "../platform/plat_sys.h"

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
    } NAMES[] = {{"ENOSPC", ENOSPC}, {"EIO", EIO},       {"EROFS", EROFS},
                 {"EDQUOT", EDQUOT}, {"EACCES", EACCES}, {"EFBIG", EFBIG}};
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

/* Write all of data to fd, riding out EINTR and short writes. */
static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        if (fault_hits(OP_WRITE)) return false;
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
    if (fault_hits(OP_CREATE)) return -1;
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

/* "TARGET: cannot write: REASON" (with what was being done, when it helps). */
static void write_err(char *err, size_t errcap, const char *target, int error, const char *doing)
{
    if (doing)
        set_err(err, errcap, "%s: cannot write: %s (%s)", target, strerror(error), doing);
    else
        set_err(err, errcap, "%s: cannot write: %s", target, strerror(error));
}

/* Write data to a new temporary file beside target, fsync'd and closed.
 * On failure nothing is left behind and err says why. */
static bool write_temp(const char *target, const void *data, size_t len, char *tmp, size_t tcap,
                       char *err, size_t errcap)
{
    int fd = open_temp(target, tmp, tcap);
    if (fd < 0) {
        write_err(err, errcap, target, errno, "creating a temporary file beside it");
        return false;
    }
    bool ok = write_all(fd, data, len);
    while (ok && (fault_hits(OP_FSYNC) || fsync(fd) != 0)) {
        if (errno != EINTR) ok = false;
    }
    int saved = errno;
    if (fault_hits(OP_CLOSE)) {
        int injected = errno;
        close(fd);
        if (ok) saved = injected;
        ok = false;
    } else if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        write_err(err, errcap, target, saved, NULL);
        unlink(tmp);
    }
    return ok;
}

int hb_rename(const char *from, const char *to)
{
    if (fault_hits(OP_RENAME)) return -1;
    return rename(from, to);
}

/* Copy the current PATH to PATH.bak through a temporary file and a rename,
 * so the old backup is replaced whole or not at all. */
static bool keep_backup(const char *path, char *err, size_t errcap)
{
    char bak[DIR_MAX];
    if ((size_t)snprintf(bak, sizeof bak, "%s.bak", path) >= sizeof bak) {
        write_err(err, errcap, path, ENAMETOOLONG, "naming its backup");
        return false;
    }
    char *old = NULL;
    size_t old_len = 0;
    char rerr[256];
    /* A backup larger than anything we write is not ours to copy. */
    if (hb_read_file(path, (size_t)INT_MAX, &old, &old_len, rerr, sizeof rerr) != HB_OK) {
        set_err(err, errcap, "%s: cannot write: cannot keep a backup: %s", path, rerr);
        return false;
    }
    char tmp[DIR_MAX], berr[DIR_MAX];
    bool ok = write_temp(bak, old, old_len, tmp, sizeof tmp, berr, sizeof berr);
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
        unlink(tmp);
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
    if (!write_temp(path, data, len, pend->tmp, sizeof pend->tmp, err, errcap)) {
        pend->tmp[0] = '\0';
        return HB_ERR_OTHER;
    }
    return HB_OK;
}

void hb_write_abort(hb_pending_t *pend)
{
    if (pend->tmp[0]) unlink(pend->tmp);
    pend->tmp[0] = '\0';
}

int hb_write_commit(hb_pending_t *pend, bool keep_bak, char *err, size_t errcap)
{
    if (!pend->tmp[0]) {
        set_err(err, errcap, "%s: cannot write: nothing was written", pend->path);
        return HB_ERR_OTHER;
    }
    struct stat st;
    if (keep_bak && stat(pend->path, &st) == 0 && !keep_backup(pend->path, err, errcap)) {
        hb_write_abort(pend);
        return HB_ERR_OTHER;
    }
    if (hb_rename(pend->tmp, pend->path) != 0) {
        write_err(err, errcap, pend->path, errno, NULL);
        hb_write_abort(pend);
        return HB_ERR_OTHER;
    }
    pend->tmp[0] = '\0';
    char dir[DIR_MAX];
    dir_of(pend->path, dir, sizeof dir);
    sync_dir(dir);
    return HB_OK;
}

int hb_write_atomic(const char *path, const void *data, size_t len, bool keep_bak, char *err,
                    size_t errcap)
{
    hb_pending_t pend;
    int rc = hb_write_begin(path, data, len, &pend, err, errcap);
    if (rc == HB_OK) rc = hb_write_commit(&pend, keep_bak, err, errcap);
    return rc;
}

bool hb_make_dirs(const char *dir, int mode)
{
    char buf[DIR_MAX];
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
