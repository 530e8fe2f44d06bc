/* bench_scale.c - the big-map figures of `hexbattle bench` (issue 19; see
 * bench.h): the player view on a 512x512 map with 400 combatants, after one
 * step and from nothing, against a plain render of the same map; a frame of
 * that map zoomed out whole against a 64x64 frame; one AI turn there; and
 * the peak memory. The maps are generated here from fixed seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "bench.h"
#include "core/board.h"
#include "core/say.h"
#include "core/vision.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "rules/ruleset.h"
#include "ui/draw.h"
#include "ui/fog.h"
#include "ui/ui.h"

#define BIG 512
#define BIG_UNITS 400
#define W 1920
#define H 1080

/* A free neighbour of combatant i that sight and feet can use, or i's own hex. */
static hex_t free_step(const board_t *b, int i, int turn)
{
    for (int k = 0; k < 6; k++) {
        hex_t h = hex_neighbor(b->pos[i], (turn + k) % 6);
        int c = board_cell_index(b, h);
        if (c < 0 || board_occupant(b, h) >= 0) continue;
        const terrain_t *t = &b->map->types[b->map->cells[c]];
        if (t->move > 0 && !t->blocks_sight) return h;
    }
    return b->pos[i];
}

/* view_update_ms and view_full_ms: the player view of the players' side
 * (200 viewers) kept by the projector's per-viewer fog. */
static bool bench_view(int reps, const map_t *m, double *update_ms, double *full_ms)
{
    board_t *b = board_create(m);
    vision_t *v = b ? vision_create(m) : NULL;
    ui_fog_cache_t c;
    memset(&c, 0, sizeof c);
    unsigned sides = b ? vision_player_sides(b) : 0;
    double *tu = calloc((size_t)reps, sizeof *tu), *tf = calloc((size_t)reps, sizeof *tf);
    bool ok = v && tu && tf && ui_fog_cache_init(&c, b, sides);
    int viewers[BIG_UNITS], nv = 0;
    for (int i = 0; ok && i < b->n && nv < BIG_UNITS; i++)
        if ((sides >> b->side[i]) & 1u) viewers[nv++] = i;
    ok = ok && nv > 0;
    for (int k = -1; ok && k < reps; k++) {
        c.synced = NULL; /* everyone from nothing */
        double t0 = bench_now_ms();
        ui_fog_update(&c, v, b);
        double t1 = bench_now_ms();
        if (k >= 0) tf[k] = t1 - t0;
    }
    for (int k = -1; ok && k < reps; k++) {
        int i = viewers[(k + 1) * 37 % nv];
        board_place(b, i, free_step(b, i, k + 1));
        double t0 = bench_now_ms();
        ui_fog_update(&c, v, b);
        double t1 = bench_now_ms();
        if (k >= 0) tu[k] = t1 - t0;
    }
    if (ok) {
        *update_ms = bench_median(tu, reps);
        *full_ms = bench_median(tf, reps);
    }
    free(tu);
    free(tf);
    ui_fog_cache_free(&c);
    vision_destroy(v);
    board_destroy(b);
    return ok;
}

/* render_512_ms: what `hexbattle render MAP --out F.png --size 1920x1080`
 * does once the map is loaded: the whole map drawn and written as a PNG. */
static bool bench_render(int reps, const map_t *m, const tmpl_db_t *db, double *out)
{
    char path[1024], tmp[900];
    if (!hb_plat_temp_dir(tmp, sizeof tmp)) return false;
    snprintf(path, sizeof path, "%s/hexbattle-bench-%ld.png", tmp, hb_plat_pid());
    double *t = calloc((size_t)reps, sizeof *t);
    bool ok = t != NULL;
    ui_render_opts_t opts = {.w = W, .h = H};
    for (int k = -1; ok && k < reps; k++) {
        char err[512];
        double t0 = bench_now_ms();
        ok = ui_render_png_opts(m, db, &opts, path, err, sizeof err) == 0;
        double t1 = bench_now_ms();
        if (!ok) hb_eprintf("hexbattle: bench: %s\n", err);
        if (k >= 0) t[k] = t1 - t0;
    }
    hb_fs_remove(path);
    if (ok) *out = bench_median(t, reps);
    free(t);
    return ok;
}

/* The median plain frame of map m zoomed out whole, 1920x1080, on the
 * software renderer. The drawer's static-layer cache is off, so every frame
 * draws the terrain: the figure is the drawing, as after a pan or zoom. */
static bool plain_frame(int reps, const map_t *m, double *out)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    char err[512];
    ui_draw_t *d = r ? ui_draw_create(r, m, err, sizeof err) : NULL;
    double *t = calloc((size_t)reps, sizeof *t);
    bool ok = d && t;
    if (d) ui_draw_cache_static(d, false);
    ui_camera_t cam = ui_cam_for_image(m, W, H);
    for (int k = -3; ok && k < reps; k++) { /* warm-up frames fill the caches */
        double t0 = bench_now_ms();
        ui_draw_map(d, m, &cam, W, H, NULL);
        SDL_RenderPresent(r);
        double t1 = bench_now_ms();
        if (k >= 0) t[k] = t1 - t0;
    }
    if (ok) *out = bench_median(t, reps);
    free(t);
    ui_draw_destroy(d);
    if (r) SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    return ok;
}

/* CPU time of this thread in milliseconds: what a turn costs, without the
 * time another process on a shared machine held the core. */
static double cpu_ms(void)
{
    return hb_plat_thread_cpu_ms();
}

/* ai_turn_512_ms: the built-in AI choosing and carrying out every command
 * of one combatant's turn, on the big map, turn after turn: the slowest of
 * `turns` turns (the target bounds every turn, so a median would not do),
 * and their median. A maximum of wall times measures the machine's load, so
 * this one counts the CPU time the turn took. */
static bool bench_ai(int turns, const map_t *m, const tmpl_db_t *db, double *worst, double *med)
{
    int reps = turns;
    const ruleset_t *rs = ruleset_find(m->ruleset);
    play_t p;
    memset(&p, 0, sizeof p);
    battle_opts_t o = {.seed = 19, .max_rounds = 0};
    double *t = calloc((size_t)reps, sizeof *t);
    bool ok = rs && t && play_start(&p, m, db, rs, &o) == BATTLE_OK;
    int actors[MAP_MAX_COMBATANTS];
    for (int k = -1; ok && k < reps; k++) {
        if (play_actors(&p, actors, MAP_MAX_COMBATANTS) <= 0) {
            ok = false;
            break;
        }
        int who = actors[0];
        double t0 = cpu_ms();
        for (int guard = 0; guard < 64; guard++) {
            cmd_t c;
            p.b->frozen++;
            rs->ai(p.b, who, &c);
            p.b->frozen--;
            battle_status_t st = play_apply(&p, &c);
            if (st == BATTLE_ILLEGAL) {
                cmd_t end = cmd_make(CMD_END, who);
                st = play_apply(&p, &end);
            }
            if (st != BATTLE_OK) {
                ok = false;
                break;
            }
            if (p.b->over || play_actors(&p, actors, MAP_MAX_COMBATANTS) <= 0 || actors[0] != who)
                break;
        }
        double t1 = cpu_ms();
        if (k >= 0) t[k] = t1 - t0;
    }
    if (ok) {
        *med = bench_median(t, reps); /* sorts t */
        *worst = t[reps - 1];
    }
    if (p.b) play_end(&p);
    free(t);
    return ok;
}

bool bench_scale(int reps, const tmpl_db_t *db, bench_scale_t *out)
{
    memset(out, 0, sizeof *out);
    map_t *big = bench_map(BIG, BIG, BIG_UNITS, 512);
    map_t *small = bench_map(64, 64, 100, 7);
    bool ok = big && small && bench_view(reps, big, &out->view_update_ms, &out->view_full_ms) &&
              bench_render(reps < 5 ? reps : 5, big, db, &out->render_512_ms) &&
              plain_frame(reps, big, &out->frame_512_ms) &&
              plain_frame(reps, small, &out->frame_64_ms) &&
              bench_ai(reps * 4, big, db, &out->ai_turn_512_ms, &out->ai_turn_512_median_ms);
    if (ok) {
        out->view_full_vs_render = out->view_full_ms / out->render_512_ms;
        out->frame_512_vs_64 = out->frame_512_ms / out->frame_64_ms;
        out->max_rss_mb = hb_plat_peak_mem_mb();
    }
    map_destroy(small);
    map_destroy(big);
    return ok;
}
