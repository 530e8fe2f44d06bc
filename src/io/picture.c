/* picture.c - safe picture files (picture.h). */
#define _XOPEN_SOURCE 700
#include "picture.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/say.h"
#include "../platform/platform.h"
#include "fileio.h"

bool hb_picture_rel(const char *base, const char *rel, char *out, size_t cap)
{
    if (!rel || !*rel || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':') || !cap) return false;
    char joined[2048];
    int k = snprintf(joined, sizeof joined, "%s%s%s", base && *base ? base : "",
                     base && *base ? "/" : "", rel);
    if (k < 0 || (size_t)k >= sizeof joined) return false;
    /* Walk the parts, keeping a stack of where each kept part starts. */
    size_t used = 0, starts[256];
    int depth = 0;
    out[0] = '\0';
    for (char *s = joined; *s;) {
        char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (depth == 0) return false; /* out of the map's folder */
            used = starts[--depth];
            out[used ? used - 1 : 0] = '\0';
            if (used) used--;
        } else if (len > 0 && !(len == 1 && s[0] == '.')) {
            if (depth == (int)(sizeof starts / sizeof starts[0])) return false;
            size_t at = used ? used + 1 : 0;
            if (at + len + 1 > cap) return false;
            if (used) out[used] = '/';
            memcpy(out + at, s, len);
            out[at + len] = '\0';
            starts[depth++] = at;
            used = at + len;
        }
        s += len + (e ? 1 : 0);
    }
    return used > 0;
}

void hb_dir_of(const char *path, char *out, size_t cap)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash)
        snprintf(out, cap, "%s", "");
    else if (slash == path)
        snprintf(out, cap, "%s", "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

/* Is real path P inside real folder D? */
static bool inside(const char *p, const char *d)
{
    size_t n = strlen(d);
    return n > 0 && strncmp(p, d, n) == 0 && (p[n] == '/' || (n == 1 && d[0] == '/'));
}

bool hb_picture_allowed(const char *map_dir, const char *base, const char *rel, char *out,
                        size_t cap)
{
    if (hb_picture_rel(base, rel, out, cap)) return true;
    if (!rel || !*rel || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':')) return false;
    /* Out of the map's folder: only into hexbattle's assets folder. */
    const char *assets = hb_assets_dir();
    char joined[2048], real[PATH_MAX], adir[PATH_MAX];
    bool b = base && *base;
    int k = snprintf(joined, sizeof joined, "%s/%s%s%s", map_dir && *map_dir ? map_dir : ".",
                     b ? base : "", b ? "/" : "", rel);
    if (k < 0 || (size_t)k >= sizeof joined || !assets ||
        hb_fs_real_path(joined, real, sizeof real) != 0 ||
        hb_fs_real_path(assets, adir, sizeof adir) != 0 || !inside(real, adir))
        return false;
    k = snprintf(out, cap, "%s%s%s", b ? base : "", b ? "/" : "", rel);
    return k > 0 && (size_t)k < cap;
}

static int hb_picture_path_unescaped(const char *map_dir, const char *rel, char *out, size_t cap,
                                     char *err, size_t errcap)
{
    char norm[1024];
    bool in_map = hb_picture_rel("", rel, norm, sizeof norm);
    const char *assets = hb_assets_dir();
    /* A path outside the map's folder may still name a file of assets/. */
    int k = in_map ? snprintf(out, cap, "%s%s%s", map_dir && *map_dir ? map_dir : ".", "/", norm)
                   : snprintf(out, cap, "%s/%s", map_dir && *map_dir ? map_dir : ".", rel);
    if (k < 0 || (size_t)k >= cap) {
        snprintf(err, errcap, "%.200s: path too long", rel);
        return HB_ERR_INPUT;
    }
    char real[PATH_MAX], dir[PATH_MAX], adir[PATH_MAX];
    if (hb_fs_real_path(out, real, sizeof real) != 0) {
        snprintf(err, errcap, "%.200s: %s", out, hb_fs_strerror(errno));
        return HB_ERR_INPUT;
    }
    bool ok = (hb_fs_real_path(map_dir && *map_dir ? map_dir : ".", dir, sizeof dir) == 0 &&
               inside(real, dir)) ||
              (assets && hb_fs_real_path(assets, adir, sizeof adir) == 0 && inside(real, adir));
    if (!ok) {
        snprintf(err, errcap,
                 "%.200s: a picture must lie inside the map's folder or hexbattle's assets folder",
                 rel);
        return HB_ERR_INPUT;
    }
    hb_fs_info_t st;
    if (hb_fs_stat(real, &st) != 0 || st.kind != HB_FS_REGULAR) {
        snprintf(err, errcap, "%.200s: not a regular file", out);
        return HB_ERR_INPUT;
    }
    return HB_OK;
}

static unsigned be16(const unsigned char *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* A JPEG's size from its first start-of-frame segment. */
static bool jpeg_size(const unsigned char *b, size_t n, unsigned long *w, unsigned long *h)
{
    size_t i = 2;
    while (i + 4 <= n) {
        if (b[i] != 0xFF) return false;
        unsigned m = b[i + 1];
        if (m == 0xFF) { /* a fill byte */
            i++;
            continue;
        }
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) {
            i += 2;
            continue;
        }
        if (m == 0xD9 || m == 0xDA) return false; /* no frame before the data */
        unsigned len = be16(b + i + 2);
        if (len < 2) return false;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (i + 9 > n) return false;
            *h = be16(b + i + 5);
            *w = be16(b + i + 7);
            return true;
        }
        i += 2 + len;
    }
    return false;
}

static int hb_picture_size_unescaped(const char *name, const unsigned char *b, size_t n, int *w,
                                     int *h, char *err, size_t errcap)
{
    static const unsigned char PNG[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned long pw = 0, ph = 0;
    if (n >= 24 && memcmp(b, PNG, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0) {
        pw = be32(b + 16);
        ph = be32(b + 20);
    } else if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) {
        if (!jpeg_size(b, n, &pw, &ph)) {
            snprintf(err, errcap, "%.300s: a JPEG without a readable size", name);
            return HB_ERR_INPUT;
        }
    } else {
        snprintf(err, errcap, "%.300s: not a PNG or JPEG picture", name);
        return HB_ERR_INPUT;
    }
    if (pw < 1 || ph < 1 || pw > HB_PICTURE_MAX_SIDE || ph > HB_PICTURE_MAX_SIDE) {
        snprintf(err, errcap, "%.300s: a picture of %lu x %lu pixels (at most %d a side)", name,
                 pw, ph, HB_PICTURE_MAX_SIDE);
        return HB_ERR_INPUT;
    }
    if (w) *w = (int)pw;
    if (h) *h = (int)ph;
    return HB_OK;
}

static int hb_picture_read_unescaped(const char *path, unsigned char **out, size_t *len, int *w,
                                     int *h, char *err, size_t errcap)
{
    *out = NULL;
    *len = 0;
    hb_fs_info_t info;
    int fd = hb_fs_open_read(path, &info);
    if (fd < 0) {
        snprintf(err, errcap, "%.300s: %s", path, hb_fs_strerror(errno));
        return HB_ERR_INPUT;
    }
    if (info.size > (long long)HB_PICTURE_MAX_BYTES) {
        hb_fs_close(fd);
        snprintf(err, errcap, "%.300s: over the %u MiB limit for a picture", path,
                 HB_PICTURE_MAX_BYTES / (1024u * 1024u));
        return HB_ERR_INPUT;
    }
    size_t cap = (size_t)info.size + 1;
    unsigned char *b = malloc(cap);
    size_t n = 0;
    long long got = 0;
    while (b && n < cap && (got = hb_fs_read(fd, b + n, cap - n)) > 0)
        n += (size_t)got;
    int e = errno;
    hb_fs_close(fd);
    int rc = HB_OK;
    if (!b) {
        snprintf(err, errcap, "%.300s: out of memory", path);
        rc = HB_ERR_OTHER;
    } else if (got < 0) {
        snprintf(err, errcap, "%.300s: %s", path, hb_fs_strerror(e));
        rc = HB_ERR_INPUT;
    } else if (n > HB_PICTURE_MAX_BYTES) { /* it grew while being read */
        snprintf(err, errcap, "%.300s: over the %u MiB limit for a picture", path,
                 HB_PICTURE_MAX_BYTES / (1024u * 1024u));
        rc = HB_ERR_INPUT;
    } else {
        rc = hb_picture_size(path, b, n, w, h, err, errcap);
    }
    if (rc != HB_OK) {
        free(b);
        return rc;
    }
    *out = b;
    *len = n;
    return HB_OK;
}

int hb_picture_check(const char *path, int *w, int *h, char *err, size_t errcap)
{
    unsigned char *b = NULL;
    size_t n = 0;
    int rc = hb_picture_read(path, &b, &n, w, h, err, errcap);
    free(b);
    return rc;
}

/* The message names what the user gave: its control characters are shown. */
int hb_picture_path(const char *map_dir, const char *rel, char *out, size_t cap, char *err,
                    size_t errcap)
{
    int rc = hb_picture_path_unescaped(map_dir, rel, out, cap, err, errcap);
    if (rc != HB_OK) hb_escape_controls(err, errcap);
    return rc;
}

/* The message names what the user gave: its control characters are shown. */
int hb_picture_size(const char *name, const unsigned char *b, size_t n, int *w, int *h, char *err,
                    size_t errcap)
{
    int rc = hb_picture_size_unescaped(name, b, n, w, h, err, errcap);
    if (rc != HB_OK) hb_escape_controls(err, errcap);
    return rc;
}

/* The message names what the user gave: its control characters are shown. */
int hb_picture_read(const char *path, unsigned char **out, size_t *len, int *w, int *h, char *err,
                    size_t errcap)
{
    int rc = hb_picture_read_unescaped(path, out, len, w, h, err, errcap);
    if (rc != HB_OK) hb_escape_controls(err, errcap);
    return rc;
}
