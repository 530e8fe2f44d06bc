/* picture.c - safe picture files (picture.h). */
#define _XOPEN_SOURCE 700
#include "picture.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int hb_picture_path(const char *map_dir, const char *rel, char *out, size_t cap, char *err,
                    size_t errcap)
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
    if (!realpath(out, real)) {
        snprintf(err, errcap, "%.200s: %s", out, strerror(errno));
        return HB_ERR_INPUT;
    }
    bool ok = (realpath(map_dir && *map_dir ? map_dir : ".", dir) && inside(real, dir)) ||
              (assets && realpath(assets, adir) && inside(real, adir));
    if (!ok) {
        snprintf(err, errcap,
                 "%.200s: a picture must lie inside the map's folder or hexbattle's assets folder",
                 rel);
        return HB_ERR_INPUT;
    }
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
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
static bool jpeg_size(FILE *f, unsigned long *w, unsigned long *h)
{
    unsigned char b[8];
    if (fseek(f, 2, SEEK_SET) != 0) return false;
    for (int seg = 0; seg < 4096; seg++) {
        if (fread(b, 1, 2, f) != 2) return false;
        while (b[0] == 0xFF && b[1] == 0xFF) { /* fill bytes */
            b[1] = (unsigned char)fgetc(f);
        }
        if (b[0] != 0xFF) return false;
        unsigned m = b[1];
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) continue;
        if (m == 0xD9 || m == 0xDA) return false; /* no frame before the data */
        if (fread(b, 1, 2, f) != 2) return false;
        unsigned len = be16(b);
        if (len < 2) return false;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (fread(b, 1, 5, f) != 5) return false;
            *h = be16(b + 1);
            *w = be16(b + 3);
            return true;
        }
        if (fseek(f, (long)len - 2, SEEK_CUR) != 0) return false;
    }
    return false;
}

int hb_picture_check(const char *path, int *w, int *h, char *err, size_t errcap)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errcap, "%.300s: %s", path, strerror(errno));
        return HB_ERR_INPUT;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errcap, "%.300s: not a regular file", path);
        return HB_ERR_INPUT;
    }
    if ((unsigned long long)st.st_size > HB_PICTURE_MAX_BYTES) {
        snprintf(err, errcap, "%.300s: over the %u MiB limit for a picture", path,
                 HB_PICTURE_MAX_BYTES / (1024u * 1024u));
        return HB_ERR_INPUT;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "%.300s: %s", path, strerror(errno));
        return HB_ERR_INPUT;
    }
    unsigned char b[24];
    unsigned long pw = 0, ph = 0;
    size_t got = fread(b, 1, sizeof b, f);
    static const unsigned char PNG[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    bool known = false;
    if (got == sizeof b && memcmp(b, PNG, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0) {
        pw = be32(b + 16);
        ph = be32(b + 20);
        known = true;
    } else if (got >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) {
        known = jpeg_size(f, &pw, &ph);
        if (!known) {
            fclose(f);
            snprintf(err, errcap, "%.300s: a JPEG without a readable size", path);
            return HB_ERR_INPUT;
        }
    }
    fclose(f);
    if (!known) {
        snprintf(err, errcap, "%.300s: not a PNG or JPEG picture", path);
        return HB_ERR_INPUT;
    }
    if (pw < 1 || ph < 1 || pw > HB_PICTURE_MAX_SIDE || ph > HB_PICTURE_MAX_SIDE) {
        snprintf(err, errcap, "%.300s: a picture of %lu x %lu pixels (at most %d a side)", path, pw,
                 ph, HB_PICTURE_MAX_SIDE);
        return HB_ERR_INPUT;
    }
    if (w) *w = (int)pw;
    if (h) *h = (int)ph;
    return HB_OK;
}
