/* tiled_tiles.c - the picture of the tileset hexbattle writes into a Tiled map
 * (tiled_internal.h).
 *
 * Tiled 1.8 draws a tile's image at the image's own size, so hexbattle's
 * 256-pixel terrain textures would cover several hexes each, grey (hexbattle
 * tints them with the terrain's colour as it draws). Instead each terrain
 * type gets a hex of exactly the map's tile size, painted the way
 * src/ui/draw.c paints it: the texture multiplied by the type's colour (the
 * plain colour for an untextured type), the same scale of texture to hex, the
 * grid line along its edges, transparent outside. The tiles sit side by side
 * in one PNG. PNG is read and written here with zlib alone (the io layer has
 * no SDL); only the 8-bit, non-interlaced images hexbattle ships are read. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tiled_internal.h"

#define TEX_MAX 4096          /* largest texture side read */
#define SUB 4                 /* SUB x SUB samples per pixel */
#define TEX_PERIOD_HEXES 4.0  /* as draw.c: one texture spans 4 hex sizes */
#define LINE_HALF 0.65        /* half of draw.c's grid line at this hex size */
#define LINE_ALPHA (70.0 / 255.0)

typedef struct {
    int w, h;
    unsigned char *rgba;
} image_t;

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* The PNG at path as RGBA, or false (a missing or unusual file: the caller
 * paints the plain colour). */
static bool png_read(const char *path, image_t *img)
{
    char *data = NULL, err[256];
    size_t len = 0;
    if (hb_read_file(path, HB_FILE_MAX, &data, &len, err, sizeof err) != HB_OK) return false;
    const unsigned char *s = (const unsigned char *)data;
    bool ok = len > 33 && memcmp(s, "\x89PNG\r\n\x1a\n", 8) == 0;
    int channels = 0;
    unsigned char *z = NULL, *raw = NULL;
    size_t nz = 0;
    for (size_t at = 8; ok && at + 12 <= len;) {
        uint32_t n = be32(s + at);
        if (n > len - at - 12) {
            ok = false;
            break;
        }
        const unsigned char *type = s + at + 4, *body = s + at + 8;
        if (memcmp(type, "IHDR", 4) == 0 && n >= 13) {
            img->w = (int)be32(body);
            img->h = (int)be32(body + 4);
            static const int CH[7] = {1, 0, 3, 0, 2, 0, 4};
            channels = body[9] <= 6 ? CH[body[9]] : 0;
            ok = img->w > 0 && img->h > 0 && img->w <= TEX_MAX && img->h <= TEX_MAX &&
                 body[8] == 8 && channels && body[12] == 0;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            unsigned char *more = realloc(z, nz + n + 1);
            if (!more) ok = false;
            else {
                z = more;
                memcpy(z + nz, body, n);
                nz += n;
            }
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        }
        at += 12 + (size_t)n;
    }
    ok = ok && channels; /* an IHDR was there */
    size_t stride = ok ? (size_t)img->w * (size_t)channels : 0;
    uLongf nraw = (uLongf)((stride + 1) * (size_t)(ok ? img->h : 0));
    if (ok && nz) raw = malloc(nraw);
    ok = ok && raw && uncompress(raw, &nraw, z, (uLong)nz) == Z_OK &&
         nraw == (stride + 1) * (size_t)img->h;
    img->rgba = ok ? malloc((size_t)img->w * (size_t)img->h * 4) : NULL;
    ok = ok && img->rgba;
    for (int y = 0; ok && y < img->h; y++) {
        unsigned char *row = raw + (size_t)y * (stride + 1), *cur = row + 1;
        const unsigned char *prev = y ? raw + (size_t)(y - 1) * (stride + 1) + 1 : NULL;
        for (size_t i = 0; i < stride; i++) {
            int a = i >= (size_t)channels ? cur[i - (size_t)channels] : 0;
            int b = prev ? prev[i] : 0;
            int c = prev && i >= (size_t)channels ? prev[i - (size_t)channels] : 0;
            int v = cur[i];
            switch (row[0]) {
            case 0: break;
            case 1: v += a; break;
            case 2: v += b; break;
            case 3: v += (a + b) / 2; break;
            case 4: v += paeth(a, b, c); break;
            default: ok = false; break;
            }
            cur[i] = (unsigned char)v;
        }
        for (int x = 0; ok && x < img->w; x++) {
            const unsigned char *p = cur + (size_t)x * (size_t)channels;
            unsigned char *q = img->rgba + ((size_t)y * (size_t)img->w + (size_t)x) * 4;
            bool grey = channels <= 2;
            q[0] = p[0];
            q[1] = grey ? p[0] : p[1];
            q[2] = grey ? p[0] : p[2];
            q[3] = channels == 4 ? p[3] : channels == 2 ? p[1] : 255;
        }
    }
    free(z);
    free(raw);
    free(data);
    if (!ok) {
        free(img->rgba);
        img->rgba = NULL;
    }
    return ok;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Append a chunk (length, type, body, CRC) at out + *n; the body may already
 * be in its place. */
static void chunk(unsigned char *out, size_t *n, const char *type, const unsigned char *body,
                  size_t len)
{
    put32(out + *n, (uint32_t)len);
    memcpy(out + *n + 4, type, 4);
    if (len && body != out + *n + 8) memcpy(out + *n + 8, body, len);
    uLong crc = crc32(0L, out + *n + 4, (uInt)(len + 4));
    put32(out + *n + 8 + len, (uint32_t)crc);
    *n += 12 + len;
}

/* RGBA pixels as a PNG in memory (malloc'd), or NULL on OOM. */
static unsigned char *png_write(const unsigned char *rgba, int w, int h, size_t *len)
{
    size_t stride = (size_t)w * 4, nraw = (stride + 1) * (size_t)h;
    unsigned char *raw = malloc(nraw);
    uLongf nz = compressBound((uLong)nraw);
    unsigned char *out = raw ? malloc(8 + 25 + 12 + nz + 12) : NULL;
    if (!out) {
        free(raw);
        return NULL;
    }
    for (int y = 0; y < h; y++) {
        raw[(size_t)y * (stride + 1)] = 0; /* no filter */
        memcpy(raw + (size_t)y * (stride + 1) + 1, rgba + (size_t)y * stride, stride);
    }
    size_t n = 8;
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    unsigned char ihdr[13] = {0};
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; /* bits per channel */
    ihdr[9] = 6; /* RGBA */
    chunk(out, &n, "IHDR", ihdr, sizeof ihdr);
    /* The deflated rows go straight into the IDAT chunk's body. */
    if (compress2(out + n + 8, &nz, raw, (uLong)nraw, 9) != Z_OK) {
        free(raw);
        free(out);
        return NULL;
    }
    free(raw);
    chunk(out, &n, "IDAT", out + n + 8, nz);
    chunk(out, &n, "IEND", NULL, 0);
    *len = n;
    return out;
}

/* Paint the tile of type t at column k of the atlas. */
static void paint_tile(unsigned char *atlas, int atlas_w, int k, const tiled_tiles_t *ts,
                       const terrain_t *t, const image_t *tex)
{
    double rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (double)((t->color >> (16 - 8 * c)) & 0xffu) / 255.0;
    /* Edge normals: pointy hexes have upright sides (normals at 0, 60, ...
     * degrees), flat ones at 30, 90, ... */
    double nx[6], ny[6], apothem = ts->side * sqrt(3.0) / 2.0;
    for (int e = 0; e < 6; e++) {
        double a = (60.0 * e + (ts->flat ? 30.0 : 0.0)) * acos(-1.0) / 180.0;
        nx[e] = cos(a);
        ny[e] = sin(a);
    }
    double period = TEX_PERIOD_HEXES * ts->side; /* pixels one texture spans */
    for (int y = 0; y < ts->th; y++)
        for (int x = 0; x < ts->tw; x++) {
            double sum[3] = {0, 0, 0};
            int inside = 0;
            for (int sy = 0; sy < SUB; sy++)
                for (int sx = 0; sx < SUB; sx++) {
                    double px = x + (sx + 0.5) / SUB, py = y + (sy + 0.5) / SUB;
                    double dx = px - ts->tw / 2.0, dy = py - ts->th / 2.0, far = -1e9;
                    for (int e = 0; e < 6; e++)
                        far = fmax(far, dx * nx[e] + dy * ny[e]);
                    double in = apothem - far; /* distance inside the nearest edge */
                    if (in < 0) continue;
                    inside++;
                    double c[3] = {rgb[0], rgb[1], rgb[2]};
                    if (tex->rgba) {
                        int u = (int)(fmod(px, period) / period * tex->w);
                        int v = (int)(fmod(py, period) / period * tex->h);
                        const unsigned char *p =
                            tex->rgba + ((size_t)v * (size_t)tex->w + (size_t)u) * 4;
                        for (int i = 0; i < 3; i++)
                            c[i] *= p[i] / 255.0;
                    }
                    double line = in < LINE_HALF ? LINE_ALPHA : 0.0;
                    for (int i = 0; i < 3; i++)
                        sum[i] += c[i] * (1.0 - line);
                }
            unsigned char *q = atlas + ((size_t)y * (size_t)atlas_w + (size_t)(k * ts->tw + x)) * 4;
            for (int i = 0; i < 3; i++)
                q[i] = inside ? (unsigned char)lround(sum[i] / inside * 255.0) : 0;
            q[3] = (unsigned char)lround(255.0 * inside / (SUB * SUB));
        }
}

unsigned char *tiled_tiles_png(const tiled_tiles_t *ts, size_t *len)
{
    int w = ts->n * ts->tw;
    if (ts->n <= 0 || ts->tw <= 0 || ts->th <= 0) return NULL;
    unsigned char *atlas = calloc((size_t)w * (size_t)ts->th, 4);
    if (!atlas) return NULL;
    for (int k = 0; k < ts->n; k++) {
        const terrain_t *t = ts->types[k];
        image_t tex = {0};
        /* A texture shared by the previous tile is read again: a handful of
         * small files, once per save. */
        if (t->texture[0]) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", hb_assets_dir(), t->texture);
            if (!png_read(path, &tex)) tex.rgba = NULL;
        }
        paint_tile(atlas, w, k, ts, t, &tex);
        free(tex.rgba);
    }
    unsigned char *png = png_write(atlas, w, ts->th, len);
    free(atlas);
    return png;
}
