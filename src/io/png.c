/* png.c - the pHYs chunk of an encoded PNG (see png.h). A PNG is an 8-byte
 * signature and then chunks: 4-byte big-endian length, 4-byte type, data,
 * and a CRC-32 of type and data. */
#include "png.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
#define PHYS_DATA 9 /* x ppu, y ppu, unit */
#define CHUNK_OVERHEAD 12

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* CRC-32 (ISO 3309, the one PNG uses), bit by bit: a few bytes per image. */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

unsigned png_dpi_to_ppm(int dpi)
{
    if (dpi <= 0) return 0;
    return (unsigned)((double)dpi / 0.0254 + 0.5);
}

/* Offset of the chunk after the one at off, or 0 when it runs past len. */
static size_t next_chunk(const unsigned char *buf, size_t len, size_t off)
{
    if (len - off < CHUNK_OVERHEAD) return 0;
    uint32_t n = get32(buf + off);
    if (n > len - off - CHUNK_OVERHEAD) return 0;
    return off + CHUNK_OVERHEAD + n;
}

/* Walk the chunks: true when they tile the file exactly, start with IHDR and
 * end with IEND. *ihdr_end gets the offset just past IHDR, *phys the offset
 * of a pHYs chunk (0 when none). */
static bool scan(const unsigned char *buf, size_t len, size_t *ihdr_end, size_t *phys)
{
    *phys = 0;
    if (len < sizeof SIGNATURE || memcmp(buf, SIGNATURE, sizeof SIGNATURE) != 0) return false;
    size_t off = sizeof SIGNATURE;
    bool first = true, ended = false;
    while (off < len && !ended) {
        size_t next = next_chunk(buf, len, off);
        if (!next) return false;
        const unsigned char *type = buf + off + 4;
        if (first) {
            if (memcmp(type, "IHDR", 4) != 0) return false;
            *ihdr_end = next;
            first = false;
        } else if (memcmp(type, "pHYs", 4) == 0) {
            if (get32(buf + off) != PHYS_DATA) return false;
            *phys = off;
        }
        ended = memcmp(type, "IEND", 4) == 0;
        off = next;
    }
    return ended && off == len && !first;
}

bool png_set_phys(unsigned char **buf, size_t *len, unsigned ppm)
{
    size_t ihdr_end = 0, phys = 0;
    if (!scan(*buf, *len, &ihdr_end, &phys)) return false;
    unsigned char chunk[CHUNK_OVERHEAD + PHYS_DATA];
    put32(chunk, PHYS_DATA);
    memcpy(chunk + 4, "pHYs", 4);
    put32(chunk + 8, ppm);
    put32(chunk + 12, ppm);
    chunk[16] = 1; /* the unit is the metre */
    put32(chunk + 17, crc32_of(chunk + 4, 4 + PHYS_DATA));
    if (phys) { /* same size: overwrite in place */
        memcpy(*buf + phys, chunk, sizeof chunk);
        return true;
    }
    unsigned char *grown = realloc(*buf, *len + sizeof chunk);
    if (!grown) return false;
    memmove(grown + ihdr_end + sizeof chunk, grown + ihdr_end, *len - ihdr_end);
    memcpy(grown + ihdr_end, chunk, sizeof chunk);
    *buf = grown;
    *len += sizeof chunk;
    return true;
}

bool png_get_phys(const unsigned char *buf, size_t len, unsigned *x, unsigned *y, int *unit)
{
    size_t ihdr_end = 0, phys = 0;
    if (!scan(buf, len, &ihdr_end, &phys) || !phys) return false;
    const unsigned char *d = buf + phys + 8;
    if (crc32_of(buf + phys + 4, 4 + PHYS_DATA) != get32(d + PHYS_DATA)) return false;
    *x = get32(d);
    *y = get32(d + 4);
    *unit = d[8];
    return true;
}

/* Offset of the first tEXt chunk KEY\0VALUE..., or 0. */
static size_t find_text(const unsigned char *buf, size_t len, const char *key, const char *value)
{
    size_t ihdr_end = 0, phys = 0;
    if (!scan(buf, len, &ihdr_end, &phys)) return 0;
    size_t klen = strlen(key), vlen = strlen(value);
    for (size_t off = sizeof SIGNATURE; off < len;) {
        size_t next = next_chunk(buf, len, off);
        if (!next) return 0;
        uint32_t n = get32(buf + off);
        if (memcmp(buf + off + 4, "tEXt", 4) == 0 && n == klen + 1 + vlen &&
            memcmp(buf + off + 8, key, klen + 1) == 0 &&
            memcmp(buf + off + 9 + klen, value, vlen) == 0)
            return off;
        off = next;
    }
    return 0;
}

bool png_add_text(unsigned char **buf, size_t *len, const char *key, const char *value)
{
    size_t ihdr_end = 0, phys = 0;
    if (!scan(*buf, *len, &ihdr_end, &phys)) return false;
    size_t klen = strlen(key), vlen = strlen(value), n = klen + 1 + vlen;
    if (klen == 0 || klen > 79 || n > 4096) return false;
    unsigned char *grown = realloc(*buf, *len + CHUNK_OVERHEAD + n);
    if (!grown) return false;
    unsigned char *c = grown + ihdr_end;
    memmove(c + CHUNK_OVERHEAD + n, c, *len - ihdr_end);
    put32(c, (uint32_t)n);
    memcpy(c + 4, "tEXt", 4);
    memcpy(c + 8, key, klen + 1);
    memcpy(c + 9 + klen, value, vlen);
    put32(c + 8 + n, crc32_of(c + 4, 4 + n));
    *buf = grown;
    *len += CHUNK_OVERHEAD + n;
    return true;
}

bool png_has_text(const unsigned char *buf, size_t len, const char *key, const char *value)
{
    return find_text(buf, len, key, value) != 0;
}

static uint32_t get16(const unsigned char *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

bool image_header_size(const unsigned char *b, size_t len, unsigned *w, unsigned *h)
{
    /* PNG: IHDR is the first chunk; width and height follow its type. */
    if (len >= 24 && memcmp(b, SIGNATURE, sizeof SIGNATURE) == 0 &&
        memcmp(b + 12, "IHDR", 4) == 0) {
        *w = get32(b + 16);
        *h = get32(b + 20);
        return true;
    }
    /* GIF: logical screen size, little-endian. */
    if (len >= 10 && (memcmp(b, "GIF87a", 6) == 0 || memcmp(b, "GIF89a", 6) == 0)) {
        *w = (unsigned)b[6] | (unsigned)b[7] << 8;
        *h = (unsigned)b[8] | (unsigned)b[9] << 8;
        return true;
    }
    /* BMP: a signed 32-bit width and height (negative height: top-down). */
    if (len >= 26 && b[0] == 'B' && b[1] == 'M') {
        uint32_t uw =
            (uint32_t)b[18] | (uint32_t)b[19] << 8 | (uint32_t)b[20] << 16 | (uint32_t)b[21] << 24;
        uint32_t uh =
            (uint32_t)b[22] | (uint32_t)b[23] << 8 | (uint32_t)b[24] << 16 | (uint32_t)b[25] << 24;
        *w = uw > 0x7fffffffu ? 0u - uw : uw;
        *h = uh > 0x7fffffffu ? 0u - uh : uh;
        return true;
    }
    /* JPEG: walk the markers to the first start-of-frame (SOF0..SOF15 but
     * DHT C4, JPG C8 and DAC CC), which holds the height, then the width. */
    if (len >= 4 && b[0] == 0xff && b[1] == 0xd8) {
        size_t off = 2;
        while (off + 4 <= len) {
            if (b[off] != 0xff) return false;
            unsigned m = b[off + 1];
            if (m == 0xff) { /* fill byte */
                off++;
                continue;
            }
            if (m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7)) { /* no length */
                off += 2;
                continue;
            }
            if (m == 0xd9 || m == 0xda) return false; /* image data before any frame */
            uint32_t seg = get16(b + off + 2);
            if (seg < 2) return false;
            if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc) {
                if (off + 9 > len) return false;
                *h = get16(b + off + 5);
                *w = get16(b + off + 7);
                return true;
            }
            off += 2 + seg;
        }
        return false;
    }
    return false;
}
