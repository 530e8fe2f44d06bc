/* tiled_read.c - a Tiled hex map (.tmj, or .tmx through tiled_xml.c) read
 * into a hexbattle map (tiled.h, docs/tiled.md).
 *
 * The Tiled document is turned into a format-1 hexbattle document, which the
 * map loader then checks like any map file; its messages are put back in
 * terms of the Tiled file (an object's path rather than "combatants[2]"). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>
#include <zstd.h>

#include "../core/say.h"
#include "../platform/platform.h"
#include "map_io.h"
#include "picture.h"
#include "tiled_internal.h"

#define GID_MASK 0x0fffffffu /* the top bits flip and turn the tile */
#define MAX_TILESETS 64
#define MAX_TERRAIN_TILES 1024

/* ---- geometry (Tiled's staggered hexagonal layout) ---- */

static bool staggered(bool even, int i)
{
    return ((i & 1) != 0) != even;
}

void tiled_cell_center(const tiled_geo_t *g, int col, int row, double *x, double *y)
{
    if (g->stagger_x) {
        double col_w = (g->tw - g->side) / 2.0 + g->side;
        *x = col * col_w + g->tw / 2.0;
        *y = row * g->th + (staggered(g->stagger_even, col) ? g->th / 2.0 : 0.0) + g->th / 2.0;
    } else {
        double row_h = (g->th - g->side) / 2.0 + g->side;
        *x = col * g->tw + (staggered(g->stagger_even, row) ? g->tw / 2.0 : 0.0) + g->tw / 2.0;
        *y = row * row_h + g->th / 2.0;
    }
}

bool tiled_pixel_cell(const tiled_geo_t *g, int cols, int rows, double x, double y, int *col,
                      int *row)
{
    double col_w = g->stagger_x ? (g->tw - g->side) / 2.0 + g->side : g->tw;
    double row_h = g->stagger_x ? g->th : (g->th - g->side) / 2.0 + g->side;
    if (!(col_w > 0) || !(row_h > 0) || !isfinite(x) || !isfinite(y)) return false;
    double fc = floor(x / col_w), fr = floor(y / row_h);
    if (fc < -2 || fr < -2 || fc > cols + 2 || fr > rows + 2) return false;
    int c0 = (int)fc, r0 = (int)fr;
    double best = INFINITY;
    for (int r = r0 - 2; r <= r0 + 2; r++)
        for (int c = c0 - 2; c <= c0 + 2; c++) {
            double cx, cy;
            tiled_cell_center(g, c, r, &cx, &cy);
            double d = (cx - x) * (cx - x) + (cy - y) * (cy - y);
            if (d < best) {
                best = d;
                *col = c;
                *row = r;
            }
        }
    return *col >= 0 && *row >= 0 && *col < cols && *row < rows;
}

/* ---- small readers over the JSON shape ---- */

/* Tiled keeps custom properties as a list of {name, type, value}: a name
 * given twice there is a key given twice, refused as in any JSON object.
 * Looks through every object and array under v. */
static int props_once(io_ctx_t *cx, const cJSON *v, const char *path)
{
    char p[IO_PATH_MAX];
    if (cJSON_IsObject(v)) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(v, "properties");
        if (!cJSON_IsArray(list)) list = NULL;
        int i = 0;
        const cJSON *a;
        cJSON_ArrayForEach(a, list)
        {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(a, "name");
            int j = 0;
            const cJSON *b;
            cJSON_ArrayForEach(b, list)
            {
                if (j++ >= i) break;
                const cJSON *m = cJSON_GetObjectItemCaseSensitive(b, "name");
                if (cJSON_IsString(n) && cJSON_IsString(m) &&
                    strcmp(n->valuestring, m->valuestring) == 0) {
                    io_path_key(p, sizeof p, path, "properties");
                    char q[IO_PATH_MAX];
                    io_path_index(q, sizeof q, p, i);
                    return io_fail(cx, q, "property '%.80s' given twice", n->valuestring);
                }
            }
            i++;
        }
    }
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, v)
    {
        if (cJSON_IsArray(v))
            io_path_index(p, sizeof p, path, i++);
        else
            io_path_key(p, sizeof p, path, c->string ? c->string : "");
        int rc = props_once(cx, c, p);
        if (rc) return rc;
    }
    return HB_OK;
}

/* A property whose text is a JSON object of hexbattle's own (a map's
 * options, its factions with scores): read as strictly as a file. */
static int embedded_json(io_ctx_t *cx, const char *text, const char *path, cJSON **out)
{
    char e[HB_ERR_MAX];
    io_ctx_t sub = {.file = "", .err = e, .errcap = sizeof e};
    *out = NULL;
    if (io_parse(&sub, text, strlen(text), out) == HB_OK) return HB_OK;
    return io_fail(cx, path, "its JSON: %s", e + 2); /* past the empty file name's ": " */
}

static const cJSON *prop(const cJSON *o, const char *name)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(o, "properties"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return cJSON_GetObjectItemCaseSensitive(p, "value");
    }
    return NULL;
}

static const char *prop_str(const cJSON *o, const char *name)
{
    const cJSON *v = prop(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int num(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, double lo,
               double hi, double *out)
{
    const cJSON *v;
    int rc = io_require(cx, o, path, key, &v);
    if (rc) return rc;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, key);
    if (!cJSON_IsNumber(v)) return io_fail(cx, p, "expected a number, found %s", io_type_name(v));
    if (!(v->valuedouble >= lo && v->valuedouble <= hi))
        return io_fail(cx, p, "%g is out of range (%g..%g)", v->valuedouble, lo, hi);
    *out = v->valuedouble;
    return HB_OK;
}

/* A property value copied into the hexbattle document under KEY: numbers
 * stay numbers, and a string of digits becomes one (Tiled's string
 * properties are the easy ones to type). */
static bool copy_value(cJSON *dst, const char *key, const cJSON *v, bool want_number)
{
    cJSON *c;
    if (want_number && cJSON_IsString(v)) {
        char *end;
        long n = strtol(v->valuestring, &end, 10);
        c = *v->valuestring && !*end ? cJSON_CreateNumber((double)n) : cJSON_Duplicate(v, true);
    } else {
        c = cJSON_Duplicate(v, true);
    }
    return c && cJSON_AddItemToObject(dst, key, c);
}

/* ---- data decoding ---- */

static int b64(int ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Base64 (whitespace skipped) into a new buffer. */
static unsigned char *base64_decode(const char *s, size_t *len)
{
    size_t n = strlen(s);
    unsigned char *out = malloc(n / 4 * 3 + 3);
    if (!out) return NULL;
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0, pad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
        if (ch == '=') {
            pad++;
            continue;
        }
        int v = b64(ch);
        if (v < 0 || pad) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1u;
        }
    }
    *len = o;
    return out;
}

/* The layer's cells as gids into gids[0..n). */
static int layer_gids(io_ctx_t *cx, const cJSON *layer, const char *path, uint32_t *gids,
                      size_t n)
{
    const cJSON *data;
    int rc = io_require(cx, layer, path, "data", &data);
    if (rc) return rc;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, "data");
    const cJSON *enc = cJSON_GetObjectItemCaseSensitive(layer, "encoding");
    const cJSON *comp = cJSON_GetObjectItemCaseSensitive(layer, "compression");
    const char *e = cJSON_IsString(enc) ? enc->valuestring : "";
    const char *z = cJSON_IsString(comp) ? comp->valuestring : "";
    if (cJSON_IsArray(data)) {
        size_t i = 0;
        const cJSON *v;
        cJSON_ArrayForEach(v, data)
        {
            if (i >= n) break;
            if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
                v->valuedouble != floor(v->valuedouble)) {
                char q[IO_PATH_MAX];
                io_path_index(q, sizeof q, p, (int)i);
                return io_fail(cx, q, "expected a tile gid (a whole number), found %s",
                               io_type_name(v));
            }
            gids[i++] = (uint32_t)v->valuedouble;
        }
        if (i != n || (size_t)cJSON_GetArraySize(data) != n)
            return io_fail(cx, p, "expected %zu cells (width x height), found %d", n,
                           cJSON_GetArraySize(data));
        return HB_OK;
    }
    if (!cJSON_IsString(data)) return io_fail(cx, p, "expected cells, found %s", io_type_name(data));
    if (strcmp(e, "csv") == 0) {
        const char *s = data->valuestring;
        size_t i = 0;
        while (*s) {
            while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
                s++;
            if (!*s) break;
            char *end;
            unsigned long long g = strtoull(s, &end, 10);
            if (end == s || g > 0xffffffffull || i >= n)
                return io_fail(cx, p, i >= n ? "more than %zu cells" : "cell %zu is not a gid",
                               i >= n ? n : i);
            gids[i++] = (uint32_t)g;
            s = end;
            while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
                s++;
            if (*s == ',') s++;
        }
        if (i != n) return io_fail(cx, p, "expected %zu cells (width x height), found %zu", n, i);
        return HB_OK;
    }
    if (strcmp(e, "base64") != 0)
        return io_fail(cx, p, "unknown encoding '%.20s' (csv or base64)", e);
    size_t raw_len = 0;
    unsigned char *raw = base64_decode(data->valuestring, &raw_len);
    if (!raw) return io_fail(cx, p, "not valid base64");
    size_t want = n * 4;
    unsigned char *bytes = raw;
    unsigned char *plain = NULL;
    rc = HB_OK;
    if (strcmp(z, "zlib") == 0 || strcmp(z, "gzip") == 0) {
        plain = malloc(want + 1);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        /* 15 + 32: a zlib or a gzip header, whichever is there. */
        if (!plain || inflateInit2(&zs, 15 + 32) != Z_OK) {
            rc = io_fail_other(cx, "out of memory");
        } else {
            zs.next_in = raw;
            zs.avail_in = (uInt)raw_len;
            zs.next_out = plain;
            zs.avail_out = (uInt)(want + 1); /* one byte more tells "too long" */
            int zr = inflate(&zs, Z_FINISH);
            if (zr != Z_STREAM_END || zs.total_out != want)
                rc = io_fail(cx, p, "%s data that does not inflate to %zu cells", z, n);
            inflateEnd(&zs);
        }
        bytes = plain;
    } else if (strcmp(z, "zstd") == 0) {
        unsigned long long size = ZSTD_getFrameContentSize(raw, raw_len);
        plain = malloc(want + 1);
        if (!plain)
            rc = io_fail_other(cx, "out of memory");
        else if ((size != ZSTD_CONTENTSIZE_UNKNOWN && size != want) ||
                 ZSTD_decompress(plain, want + 1, raw, raw_len) != want)
            rc = io_fail(cx, p, "zstd data that does not decompress to %zu cells", n);
        bytes = plain;
    } else if (*z) {
        rc = io_fail(cx, p, "unknown compression '%.20s' (zlib, gzip or zstd)", z);
    } else if (raw_len != want) {
        rc = io_fail(cx, p, "expected %zu bytes of cells, found %zu", want, raw_len);
    }
    for (size_t i = 0; rc == HB_OK && i < n; i++)
        gids[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
                  (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24;
    free(plain);
    free(raw);
    return rc;
}

/* ---- tilesets ---- */

typedef struct {
    uint32_t gid;
    const char *terrain; /* borrowed from the documents */
    char legend;         /* 0: none given */
    const cJSON *tile;   /* for its definition properties */
    char path[IO_PATH_MAX];
} tile_ref_t;

typedef struct {
    cJSON *ext[MAX_TILESETS]; /* external tilesets read, freed at the end */
    char ext_src[MAX_TILESETS][256]; /* their "source", so one named twice is read once */
    int n_ext;
    size_t ext_bytes; /* bytes of external tilesets read for this map */
    tile_ref_t *tiles;
    int n_tiles;
    map_art_t *art; /* the tilesets' pictures (n_sets 0: none) */
} tilesets_t;

/* Add a warning for the user to art's one line. */
static void art_warn(map_art_t *a, const char *fmt, const char *arg)
{
    size_t used = strlen(a->warn);
    if (used + 8 >= sizeof a->warn) return;
    if (used) {
        memcpy(a->warn + used, "; ", 3);
        used += 2;
    }
    snprintf(a->warn + used, sizeof a->warn - used, fmt, arg);
    hb_escape_controls(a->warn + used, sizeof a->warn - used); /* arg comes from the file */
}

/* A whole number member KEY of o within lo..hi, else def. */
static int int_or(const cJSON *o, const char *key, int lo, int hi, int def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi)) return def;
    return (int)v->valuedouble;
}

/* A picture path of the tileset (relative to BASE, the tileset file's
 * folder) as a path relative to the map's folder; false, with a warning,
 * when it leaves the map's folder. */
static bool art_path(map_art_t *a, const char *base, const char *image, char *out, size_t cap)
{
    if (hb_picture_allowed(a->dir, base, image, out, cap)) return true;
    art_warn(a, "picture '%.60s' lies outside the map's folder: not drawn", image);
    return false;
}

/* The pictures of tileset SET (first gid FIRST), when it has any. The
 * tileset hexbattle writes shows hexbattle's own colours: not art. */
static void art_add_set(map_art_t *a, const cJSON *set, uint32_t first, const char *base)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(set, "name");
    if (cJSON_IsString(name) && strcmp(name->valuestring, "hexbattle terrain") == 0) return;
    if (a->n_sets >= ART_MAX_SETS) return;
    art_set_t *s = &a->sets[a->n_sets];
    memset(s, 0, sizeof *s);
    s->firstgid = first;
    s->tw = int_or(set, "tilewidth", 1, 65536, 0);
    s->th = int_or(set, "tileheight", 1, 65536, 0);
    s->margin = int_or(set, "margin", 0, 65536, 0);
    s->spacing = int_or(set, "spacing", 0, 65536, 0);
    s->columns = int_or(set, "columns", 0, 65536, 0);
    s->tilecount = int_or(set, "tilecount", 0, (int)GID_MASK, 0);
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(set, "tileoffset");
    s->offx = int_or(off, "x", -65536, 65536, 0);
    s->offy = int_or(off, "y", -65536, 65536, 0);
    s->first_img = a->n_imgs;
    const cJSON *image = cJSON_GetObjectItemCaseSensitive(set, "image");
    if (cJSON_IsString(image) && *image->valuestring) {
        /* Older files give neither columns nor tilecount: the picture's size does. */
        int iw = int_or(set, "imagewidth", 1, 1 << 20, 0), ih = int_or(set, "imageheight", 1, 1 << 20, 0);
        if (s->columns < 1 && iw && s->tw)
            s->columns = (iw - 2 * s->margin + s->spacing) / (s->tw + s->spacing);
        if (s->tilecount < 1 && s->columns > 0)
            s->tilecount = ih && s->th ? s->columns * ((ih - 2 * s->margin + s->spacing) /
                                                       (s->th + s->spacing))
                                       : (int)GID_MASK;
        if (s->columns < 1 || !s->tw || !s->th ||
            !art_path(a, base, image->valuestring, s->image, sizeof s->image))
            return;
        a->n_sets++;
        return;
    }
    s->columns = 0; /* a collection: a picture per tile */
    const cJSON *tile;
    cJSON_ArrayForEach(tile, cJSON_GetObjectItemCaseSensitive(set, "tiles"))
    {
        const cJSON *img = cJSON_GetObjectItemCaseSensitive(tile, "image");
        int id = int_or(tile, "id", 0, (int)GID_MASK, -1);
        if (!cJSON_IsString(img) || !*img->valuestring || id < 0) continue;
        if (!a->imgs && !(a->imgs = calloc(ART_MAX_IMAGES, sizeof *a->imgs))) return;
        if (a->n_imgs >= ART_MAX_IMAGES) break;
        art_img_t *t = &a->imgs[a->n_imgs];
        if (!art_path(a, base, img->valuestring, t->image, sizeof t->image)) continue;
        t->id = id;
        a->n_imgs++;
    }
    s->n_img = a->n_imgs - s->first_img;
    if (s->n_img > 0) a->n_sets++;
}

/* Read the external tileset SOURCE (relative to the map's folder). */
static int load_external(io_ctx_t *cx, const char *map_name, const char *source, const char *path,
                         size_t *bytes, cJSON **out)
{
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, "source");
    if (!io_safe_relative(source))
        return io_fail(cx, p, "'%.80s': a tileset must be a relative path inside the map's "
                              "folder (no '..', no absolute path)", source);
    char file[1024];
    const char *slash = strrchr(map_name, '/');
    int k = slash ? snprintf(file, sizeof file, "%.*s/%s", (int)(slash - map_name), map_name, source)
                  : snprintf(file, sizeof file, "%s", source);
    if (k < 0 || (size_t)k >= sizeof file) return io_fail(cx, p, "path too long");
    /* A name inside the folder may still be a link (or pass through one)
     * that leads out of it. */
    char dir[1024], real_dir[PATH_MAX], real_file[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - map_name) : 1, slash ? map_name : ".");
    if (slash == map_name) snprintf(dir, sizeof dir, "/");
    if (hb_fs_real_path(dir, real_dir, sizeof real_dir) == 0 &&
        hb_fs_real_path(file, real_file, sizeof real_file) == 0) {
        size_t n = strlen(real_dir);
        bool inside = strncmp(real_file, real_dir, n) == 0 &&
                      (real_file[n] == '/' || (n == 1 && real_dir[0] == '/'));
        if (!inside)
            return io_fail(cx, p, "'%.80s' leads out of the map's folder (through a link)", source);
    }
    tiled_format_t f = TILED_NONE;
    size_t n = strlen(source);
    if (n > 4 && strcmp(source + n - 4, ".tsx") == 0) f = TILED_TMX;
    if (n > 4 && (strcmp(source + n - 4, ".tsj") == 0 || strcmp(source + n - 5, ".json") == 0))
        f = TILED_TMJ;
    if (f == TILED_NONE) return io_fail(cx, p, "'%.80s' is not a .tsx or .tsj tileset", source);
    char *text = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    /* All the tilesets of one map together are held to the one file limit:
     * a small map naming a large tileset many times must not multiply it. */
    size_t room = TILED_FILE_MAX - (*bytes < TILED_FILE_MAX ? *bytes : TILED_FILE_MAX);
    int got = hb_read_file(file, room, &text, &len, err, sizeof err);
    if (got == HB_ERR_OTHER) return io_fail_other(cx, "out of memory");
    if (got != HB_OK)
        return io_fail(cx, p, "cannot read the tileset: %s%s", err,
                       *bytes ? " (the map's tilesets together may not pass 16 MiB)" : "");
    *bytes += len;
    io_ctx_t sub = {.file = file, .err = cx->err, .errcap = cx->errcap};
    int rc = f == TILED_TMX ? tiled_xml_parse(&sub, text, len, out) : io_parse(&sub, text, len, out);
    free(text);
    if (rc == HB_OK && (rc = props_once(&sub, *out, ""))) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    if (rc == HB_OK && !cJSON_IsObject(*out)) {
        cJSON_Delete(*out);
        *out = NULL;
        rc = io_fail(&sub, "", "expected a tileset object");
    }
    return rc;
}

/* Every tile that names a terrain, from every tileset, with its gid. */
static int read_tilesets(io_ctx_t *cx, const cJSON *root, tilesets_t *ts)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "tilesets");
    if (list && !cJSON_IsArray(list)) return io_fail(cx, "tilesets", "expected an array");
    ts->tiles = calloc(MAX_TERRAIN_TILES, sizeof *ts->tiles);
    if (!ts->tiles) return io_fail_other(cx, "out of memory");
    int i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, list)
    {
        char p[IO_PATH_MAX];
        io_path_index(p, sizeof p, "tilesets", i++);
        if (i > MAX_TILESETS) return io_fail(cx, p, "more than %d tilesets", MAX_TILESETS);
        double first;
        int rc = num(cx, t, p, "firstgid", 1, GID_MASK, &first);
        if (rc) return rc;
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(t, "source");
        const cJSON *set = t;
        char base[ART_PATH_MAX] = "";
        if (cJSON_IsString(src)) {
            cJSON *ext = NULL;
            for (int e = 0; e < ts->n_ext && !ext; e++)
                if (strcmp(ts->ext_src[e], src->valuestring) == 0) ext = ts->ext[e];
            if (!ext) { /* a tileset named again is parsed once */
                if ((rc = load_external(cx, cx->file, src->valuestring, p, &ts->ext_bytes, &ext)))
                    return rc;
                snprintf(ts->ext_src[ts->n_ext], sizeof ts->ext_src[0], "%s", src->valuestring);
                ts->ext[ts->n_ext++] = ext;
            }
            set = ext;
            hb_dir_of(src->valuestring, base, sizeof base);
        }
        if (ts->art) {
            int before = ts->art->n_sets;
            art_add_set(ts->art, set, (uint32_t)first, base);
            if (ts->art->n_sets > before && cJSON_IsString(src))
                hb_strlcpy(ts->art->sets[before].source, src->valuestring, ART_PATH_MAX);
        }
        const cJSON *tile;
        int k = 0;
        cJSON_ArrayForEach(tile, cJSON_GetObjectItemCaseSensitive(set, "tiles"))
        {
            char q[IO_PATH_MAX], r[IO_PATH_MAX];
            io_path_key(q, sizeof q, p, "tiles");
            io_path_index(r, sizeof r, q, k++);
            const char *terrain = prop_str(tile, "terrain");
            const cJSON *cls = cJSON_GetObjectItemCaseSensitive(tile, "class");
            if (!cJSON_IsString(cls)) cls = cJSON_GetObjectItemCaseSensitive(tile, "type");
            if (!terrain && cJSON_IsString(cls) && *cls->valuestring) terrain = cls->valuestring;
            if (!terrain) continue;
            double id;
            if ((rc = num(cx, tile, r, "id", 0, GID_MASK, &id))) return rc;
            if (ts->n_tiles >= MAX_TERRAIN_TILES)
                return io_fail(cx, r, "more than %d terrain tiles", MAX_TERRAIN_TILES);
            tile_ref_t *ref = &ts->tiles[ts->n_tiles++];
            ref->gid = (uint32_t)(first + id);
            ref->terrain = terrain;
            ref->tile = tile;
            hb_strlcpy(ref->path, r, sizeof ref->path);
            const char *lg = prop_str(tile, "legend");
            if (lg && strlen(lg) == 1) ref->legend = lg[0];
        }
    }
    return HB_OK;
}

static const tile_ref_t *find_gid(const tilesets_t *ts, uint32_t gid)
{
    for (int i = 0; i < ts->n_tiles; i++)
        if (ts->tiles[i].gid == gid) return &ts->tiles[i];
    return NULL;
}

/* ---- building the hexbattle document ---- */

/* Where a combatant or a terrain type came from, to word messages. */
typedef struct {
    char hb[48];
    char tiled[IO_PATH_MAX];
} origin_t;

typedef struct {
    io_ctx_t *cx;
    cJSON *doc; /* the hexbattle document */
    tilesets_t ts;
    origin_t origin[MAP_MAX_COMBATANTS + MAP_MAX_TERRAIN];
    int n_origin;
    char note[TILED_NOTE_MAX];
} build_t;

static void add_origin(build_t *b, const char *hb, const char *tiled)
{
    if (b->n_origin >= (int)(sizeof b->origin / sizeof b->origin[0])) return;
    hb_strlcpy(b->origin[b->n_origin].hb, hb, sizeof b->origin[0].hb);
    hb_strlcpy(b->origin[b->n_origin].tiled, tiled, sizeof b->origin[0].tiled);
    b->n_origin++;
}

static int oom(build_t *b)
{
    return io_fail_other(b->cx, "out of memory");
}

/* Map property KEY holds a JSON object of hexbattle's own map file (its
 * options, its factions with scores): read as strictly as a file and put
 * into doc under KEY. */
static int embed_object(build_t *b, cJSON *doc, const char *key, const char *text)
{
    char path[IO_PATH_MAX];
    io_path_key(path, sizeof path, "properties", key);
    cJSON *o = NULL;
    int rc = embedded_json(b->cx, text, path, &o);
    if (rc) return rc;
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return io_fail(b->cx, path, "not a JSON object");
    }
    if (!cJSON_AddItemToObject(doc, key, o)) {
        cJSON_Delete(o);
        return oom(b);
    }
    add_origin(b, key, path);
    return HB_OK;
}

/* A terrain type's definition from its tile's properties, if it has one. */
static int put_definition(build_t *b, cJSON *types, const tile_ref_t *t)
{
    const cJSON *move = prop(t->tile, "move");
    if (!move || cJSON_GetObjectItemCaseSensitive(types, t->terrain)) return HB_OK;
    cJSON *o = cJSON_AddObjectToObject(types, t->terrain);
    if (!o || !copy_value(o, "move", move, true)) return oom(b);
    static const char *const KEYS[] = {"cover", "blocks_sight", "color", "texture", "opens_to"};
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++) {
        const cJSON *v = prop(t->tile, KEYS[k]);
        if (!v) continue;
        if (k == 2 && cJSON_IsString(v) && strlen(v->valuestring) == 9 && v->valuestring[0] == '#') {
            /* Tiled writes colours as #AARRGGBB. */
            char rgb[8] = "#";
            memcpy(rgb + 1, v->valuestring + 3, 6);
            rgb[7] = '\0';
            if (!cJSON_AddStringToObject(o, "color", rgb)) return oom(b);
        } else if (!copy_value(o, KEYS[k], v, false)) {
            return oom(b);
        }
    }
    char hb[48];
    snprintf(hb, sizeof hb, "terrain_types.%.30s", t->terrain);
    add_origin(b, hb, t->path);
    return HB_OK;
}

static const char SPARE[] = ".#,^~abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "!$%&*+-/:;<=>?@_|";

/* Terrain and legend from the tile layer. */
static int put_terrain(build_t *b, const cJSON *root, const cJSON *layer, const char *path, int cols,
                       int rows)
{
    io_ctx_t *cx = b->cx;
    size_t n = (size_t)cols * (size_t)rows;
    double w, h;
    int rc;
    if ((rc = num(cx, layer, path, "width", 1, MAP_MAX_DIM, &w)) ||
        (rc = num(cx, layer, path, "height", 1, MAP_MAX_DIM, &h)))
        return rc;
    if ((int)w != cols || (int)h != rows)
        return io_fail(cx, path, "the layer is %dx%d, the map %dx%d", (int)w, (int)h, cols, rows);
    uint32_t *gids = malloc(n * sizeof *gids);
    char *chars = calloc(n + (size_t)rows + 1, 1);
    if (!gids || !chars) {
        free(gids);
        free(chars);
        return oom(b);
    }
    rc = layer_gids(cx, layer, path, gids, n);
    /* Each terrain gets one legend character: the one a tile gives, else a free one. */
    char ch_of[MAX_TERRAIN_TILES] = {0}; /* per tile ref */
    const char *name_of[256] = {NULL};
    for (int i = 0; rc == HB_OK && i < b->ts.n_tiles; i++) {
        tile_ref_t *t = &b->ts.tiles[i];
        unsigned char c = (unsigned char)t->legend;
        if (!c) continue;
        if (c < 0x20 || c >= 0x7f) {
            rc = io_fail(cx, t->path, "legend '%c' is not a printable character", '?');
        } else if (name_of[c] && strcmp(name_of[c], t->terrain) != 0) {
            rc = io_fail(cx, t->path, "legend '%c' is given to '%s' and '%s'", c, name_of[c],
                         t->terrain);
        } else {
            name_of[c] = t->terrain;
            ch_of[i] = (char)c;
        }
    }
    cJSON *types = cJSON_CreateObject();
    if (!types) rc = oom(b);
    for (int i = 0; rc == HB_OK && i < b->ts.n_tiles; i++)
        rc = put_definition(b, types, &b->ts.tiles[i]);
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, "data");
    size_t spare = 0, bare = 0;
    uint32_t first_bare = 0;
    for (size_t i = 0; rc == HB_OK && i < n; i++) {
        uint32_t gid = gids[i] & GID_MASK;
        const char *terrain = "open";
        int ti = -1;
        if (gid) {
            const tile_ref_t *t = find_gid(&b->ts, gid);
            if (t) {
                ti = (int)(t - b->ts.tiles);
                terrain = t->terrain;
            } else if (bare++ == 0) {
                /* Read as open, said once for the whole layer (below). */
                first_bare = gid;
            }
        }
        /* The character of this terrain: a tile's own, else one already
         * handed to the same terrain, else a free one. */
        char c = ti >= 0 ? ch_of[ti] : 0;
        for (int k = 0; !c && k < 256; k++)
            if (name_of[k] && strcmp(name_of[k], terrain) == 0) c = (char)k;
        while (!c && spare < sizeof SPARE - 1) {
            unsigned char s = (unsigned char)SPARE[spare++];
            if (!name_of[s]) {
                name_of[s] = terrain;
                c = (char)s;
            }
        }
        if (!c) {
            rc = io_fail(cx, path, "more terrains than legend characters");
            break;
        }
        chars[i / (size_t)cols * (size_t)(cols + 1) + i % (size_t)cols] = c;
    }
    /* The legend: the order the map property gives (hexbattle writes it),
     * then the rest by character. */
    cJSON *terrain = NULL, *legend = NULL, *rowarr = NULL;
    if (rc == HB_OK) {
        if (types->child) {
            cJSON_AddItemToObject(b->doc, "terrain_types", types);
            types = NULL;
        }
        terrain = cJSON_AddObjectToObject(b->doc, "terrain");
        legend = terrain ? cJSON_AddObjectToObject(terrain, "legend") : NULL;
        rowarr = terrain ? cJSON_AddArrayToObject(terrain, "rows") : NULL;
        if (!legend || !rowarr) rc = oom(b);
    }
    const char *order = prop_str(root, "legend");
    bool listed[256] = {false};
    for (int pass = 0; rc == HB_OK && pass < 2; pass++) {
        const char *seq = pass == 0 ? (order ? order : "") : NULL;
        for (int k = 0; rc == HB_OK && (pass == 0 ? seq[k] != '\0' : k < 256); k++) {
            unsigned char c = pass == 0 ? (unsigned char)seq[k] : (unsigned char)k;
            if (!name_of[c] || listed[c]) continue;
            listed[c] = true;
            char key[2] = {(char)c, '\0'};
            if (!cJSON_AddStringToObject(legend, key, name_of[c])) rc = oom(b);
        }
    }
    for (int r = 0; rc == HB_OK && r < rows; r++)
        if (!cJSON_AddItemToArray(rowarr,
                                  cJSON_CreateString(chars + (size_t)r * (size_t)(cols + 1))))
            rc = oom(b);
    if (rc == HB_OK && bare && b->ts.art) {
        char what[160];
        snprintf(what, sizeof what,
                 "%zu %s naming no terrain (the first: gid %u), read as open: give the "
                 "tiles a 'terrain' property",
                 bare, bare == 1 ? "hex has a tile" : "hexes have tiles", (unsigned)first_bare);
        art_warn(b->ts.art, "%s", what);
    }
    if (rc == HB_OK && b->ts.art && b->ts.art->n_sets > 0) {
        b->ts.art->gids = gids; /* the pictures, cell by cell */
        gids = NULL;
    }
    cJSON_Delete(types);
    free(gids);
    free(chars);
    return rc;
}

/* One combatant from object o of the combatants layer. */
static int put_combatant(build_t *b, cJSON *list, const cJSON *o, const char *path,
                         const tiled_geo_t *g, int cols, int rows)
{
    io_ctx_t *cx = b->cx;
    double x, y;
    int rc;
    if ((rc = num(cx, o, path, "x", -1e9, 1e9, &x)) || (rc = num(cx, o, path, "y", -1e9, 1e9, &y)))
        return rc;
    const cJSON *wv = cJSON_GetObjectItemCaseSensitive(o, "width");
    const cJSON *hv = cJSON_GetObjectItemCaseSensitive(o, "height");
    double w = cJSON_IsNumber(wv) ? wv->valuedouble : 0, h = cJSON_IsNumber(hv) ? hv->valuedouble : 0;
    /* A tile object hangs from its bottom-left corner; a shape from its top-left. */
    if (cJSON_GetObjectItemCaseSensitive(o, "gid"))
        y -= h / 2.0;
    else
        y += h / 2.0;
    x += w / 2.0;
    int col = 0, row = 0;
    if (!tiled_pixel_cell(g, cols, rows, x, y, &col, &row))
        return io_fail(cx, path, "at pixel (%g, %g), off the %dx%d map", x, y, cols, rows);
    cJSON *c = cJSON_CreateObject();
    if (!c || !cJSON_AddItemToArray(list, c)) {
        cJSON_Delete(c);
        return oom(b);
    }
    const cJSON *id = prop(o, "id");
    const cJSON *oname = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (!id && cJSON_IsString(oname) && *oname->valuestring) id = oname;
    if (id && !copy_value(c, "id", id, false)) return oom(b);
    static const char *const STR[] = {"name", "faction", "template", "kind", "size", "token"};
    static const char *const NUM[] = {"speed", "fly", "reach", "hp"};
    for (size_t k = 0; k < sizeof STR / sizeof STR[0]; k++) {
        const cJSON *v = prop(o, STR[k]);
        if (v && !copy_value(c, STR[k], v, false)) return oom(b);
    }
    for (size_t k = 0; k < sizeof NUM / sizeof NUM[0]; k++) {
        const cJSON *v = prop(o, NUM[k]);
        if (v && !copy_value(c, NUM[k], v, true)) return oom(b);
    }
    cJSON *at = cJSON_AddArrayToObject(c, "at");
    if (!at || !cJSON_AddItemToArray(at, cJSON_CreateNumber(col)) ||
        !cJSON_AddItemToArray(at, cJSON_CreateNumber(row)))
        return oom(b);
    const char *weapons = prop_str(o, "weapons");
    if (weapons) {
        cJSON *wl = cJSON_AddArrayToObject(c, "weapons");
        if (!wl) return oom(b);
        for (const char *s = weapons; *s;) {
            while (*s == ' ' || *s == ',')
                s++;
            size_t len = strcspn(s, ",");
            while (len > 0 && s[len - 1] == ' ')
                len--;
            if (!len) break;
            char wname[MAP_ID_MAX * 2];
            snprintf(wname, sizeof wname, "%.*s", (int)(len < sizeof wname ? len : sizeof wname - 1), s);
            if (!cJSON_AddItemToArray(wl, cJSON_CreateString(wname))) return oom(b);
            s += strcspn(s, ",");
        }
    }
    /* Stat overrides: properties named stat.KEY, in the order stat_order
     * gives (Tiled sorts properties by name), then the rest as they come. */
    cJSON *stats = cJSON_CreateObject();
    if (!stats) return oom(b);
    const char *order = prop_str(o, "stat_order");
    for (const char *s = order ? order : ""; *s;) {
        size_t kl = strcspn(s, ",");
        char name[MAP_ID_MAX + 8];
        snprintf(name, sizeof name, "stat.%.*s", (int)(kl < MAP_ID_MAX ? kl : MAP_ID_MAX - 1), s);
        const cJSON *v = prop(o, name);
        if (v && !cJSON_GetObjectItemCaseSensitive(stats, name + 5) &&
            !copy_value(stats, name + 5, v, true)) {
            cJSON_Delete(stats);
            return oom(b);
        }
        s += kl + (s[kl] ? 1 : 0);
    }
    const cJSON *pr;
    cJSON_ArrayForEach(pr, cJSON_GetObjectItemCaseSensitive(o, "properties"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(pr, "name");
        if (!cJSON_IsString(n) || strncmp(n->valuestring, "stat.", 5) != 0 ||
            cJSON_GetObjectItemCaseSensitive(stats, n->valuestring + 5))
            continue;
        if (!copy_value(stats, n->valuestring + 5, cJSON_GetObjectItemCaseSensitive(pr, "value"),
                        true)) {
            cJSON_Delete(stats);
            return oom(b);
        }
    }
    if (!stats->child)
        cJSON_Delete(stats);
    else if (!cJSON_AddItemToObject(c, "stats", stats)) {
        cJSON_Delete(stats);
        return oom(b);
    }
    char hb[48];
    snprintf(hb, sizeof hb, "combatants[%d]", cJSON_GetArraySize(list) - 1);
    add_origin(b, hb, path);
    return HB_OK;
}

static bool is_named(const cJSON *layer, const char *want)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(layer, "name");
    return cJSON_IsString(n) && strcasecmp(n->valuestring, want) == 0;
}

/* The layers hexbattle reads: the terrain (the tile layer named "terrain",
 * else the first) and the combatants (the object layer so named, else the
 * first); each -1 / NULL when there is none. */
static void pick_layers(const cJSON *layers, const cJSON **terrain, int *ti, const cJSON **units,
                        int *ui)
{
    const cJSON *l;
    int i = 0;
    *terrain = *units = NULL;
    *ti = *ui = -1;
    cJSON_ArrayForEach(l, layers)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(l, "type");
        bool tile = cJSON_IsString(type) && strcmp(type->valuestring, "tilelayer") == 0;
        bool obj = cJSON_IsString(type) && strcmp(type->valuestring, "objectgroup") == 0;
        if (tile && (!*terrain || (is_named(l, "terrain") && !is_named(*terrain, "terrain")))) {
            *terrain = l;
            *ti = i;
        }
        if (obj && (!*units || (is_named(l, "combatants") && !is_named(*units, "combatants")))) {
            *units = l;
            *ui = i;
        }
        i++;
    }
}

/* Name the layers not read, in one line, into note (image: the image layer
 * read as the background, or NULL). */
static void note_dropped(char *note, size_t cap, const cJSON *layers, const cJSON *terrain,
                         const cJSON *units, const cJSON *image)
{
    size_t used = 0;
    int n = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, layers)
    {
        if (l == terrain || l == units || l == image) continue;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(l, "name");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(l, "type");
        int k = snprintf(note + used, cap - used, "%s'%.40s' (%.12s)",
                         n++ ? ", " : "dropped Tiled layers hexbattle does not read: ",
                         cJSON_IsString(name) ? name->valuestring : "?",
                         cJSON_IsString(type) ? type->valuestring : "?");
        if (k < 0 || (size_t)k >= cap - used) break;
        used += (size_t)k;
    }
    hb_escape_controls(note, cap); /* the layers' names come from the file */
}

/* The battle-map picture: the lowest visible image layer of the map (not
 * in a group), placed by its offset in Tiled's pixels. Returns the layer
 * read, or NULL. */
static const cJSON *image_layer(map_art_t *a, const cJSON *layers, const tiled_geo_t *g)
{
    const cJSON *l;
    cJSON_ArrayForEach(l, layers)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(l, "type");
        const cJSON *img = cJSON_GetObjectItemCaseSensitive(l, "image");
        const cJSON *vis = cJSON_GetObjectItemCaseSensitive(l, "visible");
        if (!cJSON_IsString(type) || strcmp(type->valuestring, "imagelayer") != 0 ||
            !cJSON_IsString(img) || !*img->valuestring || cJSON_IsFalse(vis))
            continue;
        if (!art_path(a, "", img->valuestring, a->bg, sizeof a->bg)) return NULL;
        double x = int_or(l, "offsetx", -1000000, 1000000, 0) + int_or(l, "x", -1000000, 1000000, 0);
        double y = int_or(l, "offsety", -1000000, 1000000, 0) + int_or(l, "y", -1000000, 1000000, 0);
        hex_layout_t lay = {g->stagger_x ? HEX_FLAT : HEX_POINTY,
                            g->stagger_even ? HEX_EVEN : HEX_ODD};
        art_xform_t f = art_xform(a, lay);
        vec2_t c00 = hex_to_pixel(lay.orient, 1.0, hex_from_cell(lay, (cell_t){0, 0}));
        a->bg_sx = sqrt(3.0) / f.kx;
        a->bg_sy = sqrt(3.0) / f.ky;
        a->bg_ox = (c00.x - f.ox) / f.kx - x;
        a->bg_oy = (c00.y - f.oy) / f.ky - y;
        a->bg_tiled = true;
        return l;
    }
    return NULL;
}

static int build(build_t *b, const cJSON *root)
{
    io_ctx_t *cx = b->cx;
    if (!cJSON_IsObject(root)) return io_fail(cx, "", "expected a Tiled map object");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "orientation");
    if (!cJSON_IsString(v))
        return io_fail(cx, "orientation", "missing: not a Tiled map");
    if (strcmp(v->valuestring, "hexagonal") != 0)
        return io_fail(cx, "orientation", "'%.20s' is not a hex map: hexbattle reads only "
                                          "'hexagonal' maps",
                       v->valuestring);
    v = cJSON_GetObjectItemCaseSensitive(root, "infinite");
    if (cJSON_IsTrue(v) || (cJSON_IsNumber(v) && v->valuedouble != 0))
        return io_fail(cx, "infinite", "an infinite map has no edges: save it as a fixed-size map");
    tiled_geo_t g;
    memset(&g, 0, sizeof g);
    const cJSON *axis = cJSON_GetObjectItemCaseSensitive(root, "staggeraxis");
    const cJSON *index = cJSON_GetObjectItemCaseSensitive(root, "staggerindex");
    if (!cJSON_IsString(axis) || (strcmp(axis->valuestring, "x") && strcmp(axis->valuestring, "y")))
        return io_fail(cx, "staggeraxis", "expected \"x\" or \"y\"");
    if (!cJSON_IsString(index) ||
        (strcmp(index->valuestring, "odd") && strcmp(index->valuestring, "even")))
        return io_fail(cx, "staggerindex", "expected \"odd\" or \"even\"");
    g.stagger_x = axis->valuestring[0] == 'x';
    g.stagger_even = index->valuestring[0] == 'e';
    double cols, rows;
    int rc;
    if ((rc = num(cx, root, "", "width", 1, MAP_MAX_DIM, &cols)) ||
        (rc = num(cx, root, "", "height", 1, MAP_MAX_DIM, &rows)) ||
        (rc = num(cx, root, "", "tilewidth", 1, 65536, &g.tw)) ||
        (rc = num(cx, root, "", "tileheight", 1, 65536, &g.th)))
        return rc;
    v = cJSON_GetObjectItemCaseSensitive(root, "hexsidelength");
    g.side = cJSON_IsNumber(v) ? v->valuedouble : 0;
    if (!(g.side >= 0) || g.side >= (g.stagger_x ? g.tw : g.th))
        return io_fail(cx, "hexsidelength", "must be under the tile's %s",
                       g.stagger_x ? "width" : "height");

    cJSON *doc = b->doc;
    if (!cJSON_AddStringToObject(doc, "format", "hexbattle-map") ||
        !cJSON_AddNumberToObject(doc, "version", 1))
        return oom(b);
    const cJSON *name = prop(root, "name"), *ruleset = prop(root, "ruleset");
    if (name && !copy_value(doc, "name", name, false)) return oom(b);
    if (ruleset && !copy_value(doc, "ruleset", ruleset, false)) return oom(b);
    cJSON *grid = cJSON_AddObjectToObject(doc, "grid");
    if (!grid || !cJSON_AddStringToObject(grid, "orientation", g.stagger_x ? "flat" : "pointy") ||
        !cJSON_AddStringToObject(grid, "stagger", g.stagger_even ? "even" : "odd") ||
        !cJSON_AddNumberToObject(grid, "cols", cols) || !cJSON_AddNumberToObject(grid, "rows", rows))
        return oom(b);
    const cJSON *feet = prop(root, "feet_per_hex");
    if (feet && !copy_value(grid, "feet_per_hex", feet, true)) return oom(b);
    if (b->ts.art) {
        b->ts.art->tw = g.tw;
        b->ts.art->th = g.th;
        b->ts.art->side = g.side;
    }
    if ((rc = read_tilesets(cx, root, &b->ts))) return rc;

    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    if (!cJSON_IsArray(layers)) return io_fail(cx, "layers", "missing: the map has no layers");
    const cJSON *terrain = NULL, *units = NULL;
    int ti = -1, ui = -1;
    pick_layers(layers, &terrain, &ti, &units, &ui);
    if (!terrain)
        return io_fail(cx, "layers", "no tile layer: the terrain comes from a tile layer (best "
                                     "named 'terrain')");
    char p[IO_PATH_MAX];
    io_path_index(p, sizeof p, "layers", ti);
    if ((rc = put_terrain(b, root, terrain, p, (int)cols, (int)rows))) return rc;

    const char *options = prop_str(root, "options");
    if (options && *options) {
        /* Rule options, the map file's own JSON object; the map loader checks it. */
        if ((rc = embed_object(b, doc, "options", options))) return rc;
    }

    const char *factions = prop_str(root, "factions");
    if (factions && factions[0] == '{') {
        /* The map file's own factions object, as hexbattle writes it for
         * factions with scores; the map loader checks it. */
        if ((rc = embed_object(b, doc, "factions", factions))) return rc;
    } else if (factions && *factions) {
        cJSON *f = cJSON_AddObjectToObject(doc, "factions");
        if (!f) return oom(b);
        for (const char *s = factions; *s;) {
            while (*s == ' ' || *s == ',')
                s++;
            size_t len = strcspn(s, ",");
            if (!len) break;
            char item[96];
            snprintf(item, sizeof item, "%.*s", (int)(len < 95 ? len : 95), s);
            char *eq = strchr(item, '=');
            if (!eq)
                return io_fail(cx, "properties.factions",
                               "'%s': expected NAME=player or NAME=architect", item);
            *eq = '\0';
            char *key = item, *val = eq + 1;
            while (*key == ' ') key++;
            for (char *e = eq - 1; e >= key && *e == ' '; e--) *e = '\0';
            while (*val == ' ') val++;
            for (char *e = val + strlen(val) - 1; e >= val && *e == ' '; e--) *e = '\0';
            if (cJSON_GetObjectItemCaseSensitive(f, key))
                return io_fail(cx, "properties.factions", "'%s' given twice", key);
            if (!cJSON_AddStringToObject(f, key, val)) return oom(b);
            s += strcspn(s, ",");
        }
    }
    cJSON *list = cJSON_AddArrayToObject(doc, "combatants");
    if (!list) return oom(b);
    if (units) {
        io_path_index(p, sizeof p, "layers", ui);
        char q[IO_PATH_MAX];
        io_path_key(q, sizeof q, p, "objects");
        const cJSON *o;
        int k = 0;
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(units, "objects"))
        {
            char r[IO_PATH_MAX];
            io_path_index(r, sizeof r, q, k++);
            if (k > MAP_MAX_COMBATANTS)
                return io_fail(cx, q, "more than %d combatants", MAP_MAX_COMBATANTS);
            if ((rc = put_combatant(b, list, o, r, &g, (int)cols, (int)rows))) return rc;
        }
    }
    const cJSON *image = b->ts.art ? image_layer(b->ts.art, layers, &g) : NULL;
    note_dropped(b->note, sizeof b->note, layers, terrain, units, image);
    return HB_OK;
}

/* Put a map-loader message back in the Tiled file's terms. */
static void retell(const build_t *b, const char *name, char *err, size_t errcap)
{
    size_t nl = strlen(name);
    if (strncmp(err, name, nl) != 0 || strncmp(err + nl, ": ", 2) != 0) return;
    const char *rest = err + nl + 2;
    for (int i = 0; i < b->n_origin; i++) {
        size_t hl = strlen(b->origin[i].hb);
        if (strncmp(rest, b->origin[i].hb, hl) != 0 || (rest[hl] != '.' && rest[hl] != ':'))
            continue;
        char buf[HB_ERR_MAX];
        snprintf(buf, sizeof buf, "%s: %s (%s)%s", name, b->origin[i].tiled, b->origin[i].hb,
                 rest + hl);
        hb_strlcpy(err, buf, (unsigned)errcap);
        hb_escape_controls(err, errcap);
        return;
    }
}

tiled_format_t tiled_format_of(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (n > 4 && strcmp(path + n - 4, ".tmj") == 0) return TILED_TMJ;
    if (n > 4 && strcmp(path + n - 4, ".tmx") == 0) return TILED_TMX;
    return TILED_NONE;
}

int tiled_load_mem(const char *text, size_t len, const char *name, const char *data_dir,
                   map_t **out, tmpl_db_t **db_out, char *note, size_t notecap, char *err,
                   size_t errcap)
{
    *out = NULL;
    if (db_out) *db_out = NULL;
    if (note && notecap) note[0] = '\0';
    io_ctx_t cx = {.file = name ? name : "(map)", .err = err, .errcap = errcap};
    if (len > TILED_FILE_MAX)
        return io_fail(&cx, "", "over the %u MiB limit", TILED_FILE_MAX / (1024u * 1024u));
    cJSON *root = NULL;
    int rc = tiled_format_of(name) == TILED_TMX ? tiled_xml_parse(&cx, text, len, &root)
                                                : io_parse(&cx, text, len, &root);
    if (rc == HB_OK && (rc = props_once(&cx, root, ""))) cJSON_Delete(root);
    if (rc) return rc;
    build_t *b = calloc(1, sizeof *b);
    if (!b) {
        cJSON_Delete(root);
        return io_fail_other(&cx, "out of memory");
    }
    b->cx = &cx;
    b->doc = cJSON_CreateObject();
    b->ts.art = art_create();
    if (b->ts.art) hb_dir_of(cx.file, b->ts.art->dir, sizeof b->ts.art->dir);
    rc = b->doc && b->ts.art ? build(b, root) : io_fail_other(&cx, "out of memory");
    if (rc == HB_OK) {
        rc = map_from_json(b->doc, cx.file, data_dir, out, db_out, err, errcap);
        if (rc != HB_OK) retell(b, cx.file, err, errcap);
    }
    map_art_t *art = b->ts.art;
    if (rc == HB_OK && (art_any(art) || art->warn[0])) {
        /* The pictures go with the map, found from its folder. */
        hb_dir_of(cx.file, art->dir, sizeof art->dir);
        art->cols = (*out)->cols;
        art->rows = (*out)->rows;
        art->layout = (*out)->layout;
        (*out)->art = art;
        b->ts.art = NULL;
    }
    art_destroy(b->ts.art);
    if (rc == HB_OK && note && notecap) hb_strlcpy(note, b->note, (unsigned)notecap);
    for (int i = 0; i < b->ts.n_ext; i++)
        cJSON_Delete(b->ts.ext[i]);
    free(b->ts.tiles);
    cJSON_Delete(b->doc);
    cJSON_Delete(root);
    free(b);
    return rc;
}

int tiled_load(const char *path, const char *data_dir, map_t **out, tmpl_db_t **db_out,
               char *note, size_t notecap, char *err, size_t errcap)
{
    *out = NULL;
    if (db_out) *db_out = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = hb_read_file(path, TILED_FILE_MAX, &text, &len, err, errcap);
    if (rc) return rc;
    rc = tiled_load_mem(text, len, path, data_dir, out, db_out, note, notecap, err, errcap);
    free(text);
    return rc;
}

bool tiled_foreign_layers(const char *path, char *note, size_t notecap)
{
    if (notecap) note[0] = '\0';
    char *text = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    if (hb_read_file(path, TILED_FILE_MAX, &text, &len, err, sizeof err) != HB_OK) return false;
    io_ctx_t cx = {.file = path, .err = err, .errcap = sizeof err};
    cJSON *root = NULL;
    int rc = tiled_format_of(path) == TILED_TMX ? tiled_xml_parse(&cx, text, len, &root)
                                                : io_parse(&cx, text, len, &root);
    free(text);
    if (rc != HB_OK) return false;
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    const cJSON *terrain, *units;
    int ti, ui;
    pick_layers(layers, &terrain, &ti, &units, &ui);
    /* A save writes no image layer back (docs/tiled.md): it counts as one
     * the save would drop. */
    note_dropped(note, notecap, layers, terrain, units, NULL);
    cJSON_Delete(root);
    return notecap && note[0];
}
