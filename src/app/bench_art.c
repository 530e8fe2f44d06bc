/* bench_art.c - the pictures of frame_art_vs_bare (bench.h): a 64x64 map
 * drawn from a single-picture tileset of hexbattle's tile size with a
 * battle-map picture under it, both written to a folder of their own under
 * the system's temporary folder and removed after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_image.h>

#include "bench.h"
#include "platform/platform.h"

#define TILES 8
#define TW 64
#define TH 74

/* A picture of w x h with a pattern seeded by seed, so it is not one flat colour. */
static bool write_picture(const char *path, int w, int h, uint64_t seed)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    if (!s) return false;
    for (int y = 0; y < h; y += 8)
        for (int x = 0; x < w; x += 8) {
            uint32_t c = bench_rand(&seed);
            SDL_Rect r = {x, y, 8, 8};
            SDL_FillRect(s, &r, SDL_MapRGBA(s->format, c & 255, (c >> 8) & 255, (c >> 16) & 255, 255));
        }
    bool ok = IMG_SavePNG(s, path) == 0;
    SDL_FreeSurface(s);
    return ok;
}

bool bench_art_make(map_t *m, char *dir, size_t cap)
{
    if (hb_fs_make_temp_dir("hb_bench_art_", dir, cap) != 0) return false;
    char p[1200];
    snprintf(p, sizeof p, "%s/tiles.png", dir);
    bool ok = write_picture(p, TILES * TW, TH, 5);
    snprintf(p, sizeof p, "%s/battle.png", dir);
    ok = ok && write_picture(p, 2048, 2048, 9);
    map_art_t *a = ok ? art_create() : NULL;
    size_t n = (size_t)m->cols * (size_t)m->rows;
    if (a) a->gids = malloc(n * sizeof *a->gids);
    if (!a || !a->gids) {
        art_destroy(a);
        return false;
    }
    snprintf(a->dir, sizeof a->dir, "%s", dir);
    a->tw = TW;
    a->th = TH;
    a->side = 37;
    a->cols = m->cols;
    a->rows = m->rows;
    a->layout = m->layout;
    art_set_t *s = &a->sets[a->n_sets++];
    *s = (art_set_t){.firstgid = 1, .tilecount = TILES, .columns = TILES, .tw = TW, .th = TH};
    snprintf(s->image, sizeof s->image, "tiles.png");
    for (size_t i = 0; i < n; i++)
        a->gids[i] = 1 + (uint32_t)((i * 7 + i / (size_t)m->cols) % TILES);
    snprintf(a->bg, sizeof a->bg, "battle.png");
    a->bg_ox = 20;
    a->bg_oy = 24;
    a->bg_sx = a->bg_sy = 30;
    art_destroy(m->art);
    m->art = a;
    return true;
}

void bench_art_remove(const char *dir)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/tiles.png", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/battle.png", dir);
    remove(p);
    hb_fs_remove_dir(dir);
}
