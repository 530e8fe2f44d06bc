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
