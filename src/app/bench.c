/* bench.c - hexbattle bench [--quick]: the performance figures of DESIGN.md
 * "Performance targets" as one JSON object.
 *
 * Every figure is the median of repeated runs, so one slow run (a page
 * fault, another process) does not move it. The frame's "bare" baseline - a
 * single batched fill of the same hexes on the same renderer - is measured in
 * the same run, so frame_vs_bare holds on a loaded machine. Maps are built
 * in code from a fixed seed, so every run measures the same work.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "app.h"
#include "bench.h"
#include "core/board.h"
#include "core/geom.h"
#include "core/path.h"
#include "core/say.h"
#include "core/sight.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/odds_pool.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "share/share.h"
#include "ui/draw.h"
#include "ui/odds_panel.h"
#include "ui/overlay.h"

#define EXIT_BAD 2
#define EXIT_FAIL 1
#define DEFAULT_MAP "ridge_ambush.json"

typedef struct {
    int frames, reach, los, startup;
    double battle_s; /* wall time to spend on battles */
    int odds_runs;   /* odds runs per measurement */
} reps_t;

double bench_now_ms(void)
{
    return hb_plat_now_ms();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n samples (sorts them). */
double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* A fixed-seed generator, so every run builds the same maps. */
uint32_t bench_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* Index of built-in terrain NAME in m, or 0. */
static int type_of(const map_t *m, const char *name)
{
    int t = map_find_type(m, name);
    return t < 0 ? 0 : t;
}

/* A cols x rows xhalem map of the built-in terrain: mostly open, with
 * patches of difficult ground and cover and a few walls, and n combatants
 * (half players, half raiders) on open hexes. NULL on failure. */
map_t *bench_map(int cols, int rows, int n, uint64_t seed)
{
    map_t *m = map_create(cols, rows);
    if (!m) return NULL;
    char err[HB_ERR_MAX];
    if (terrain_load_builtin(hb_data_dir(), m->types, MAP_MAX_TERRAIN, &m->n_types, err,
                             sizeof err) != HB_OK) {
        map_destroy(m);
        return NULL;
    }
    hb_strlcpy(m->name, "bench", sizeof m->name);
    hb_strlcpy(m->ruleset, "xhalem", sizeof m->ruleset);
    m->layout = (hex_layout_t){HEX_POINTY, HEX_ODD};
    m->feet_per_hex = 5;
    int open = type_of(m, "open"), wall = type_of(m, "wall");
    int rough[3] = {type_of(m, "brush"), type_of(m, "rubble"), type_of(m, "water")};
    uint64_t s = seed;
    for (int k = 0; k < cols * rows; k++) {
        uint32_t r = bench_rand(&s) % 100;
        m->cells[k] = (uint8_t)(r < 5 ? wall : r < 25 ? rough[r % 3] : open);
    }
    m->combatants = calloc((size_t)n + 1, sizeof *m->combatants);
    if (!m->combatants) {
        map_destroy(m);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        map_combatant_t *c = &m->combatants[i];
        snprintf(c->id, sizeof c->id, "u%d", i);
        snprintf(c->name, sizeof c->name, "Unit %d", i);
        hb_strlcpy(c->faction, i % 2 ? "raiders" : "players", sizeof c->faction);
        c->kind = KIND_CREATURE;
        c->size = SIZE_MEDIUM;
        c->speed_ft = 30;
        c->hp = c->hp_max = 10;
        hb_strlcpy(c->weapons[0], "pulse_carbine", sizeof c->weapons[0]);
        hb_strlcpy(c->weapons[1], "hook_knife", sizeof c->weapons[1]);
        c->n_weapons = 2;
        for (;;) { /* a free open hex */
            cell_t at = {(int)(bench_rand(&s) % (uint32_t)cols),
                         (int)(bench_rand(&s) % (uint32_t)rows)};
            int idx = map_index(m, at);
            bool taken = m->cells[idx] != open;
            for (int j = 0; j < i && !taken; j++)
                taken = m->combatants[j].at.col == at.col && m->combatants[j].at.row == at.row;
            if (taken) continue;
            c->at = at;
            break;
        }
    }
    m->n_combatants = n;
    return m;
}

/* The bare baseline: clear, then every visible hex of m as one batched
 * geometry call in its terrain colour - no grid, tokens or overlays. A hex is
 * a fan of four triangles, the fewest it can be; a rectangle and two
 * triangles in the same single call is slower on the software renderer,
 * which turns the rectangle into a blended fill. */
static void bare_fill(SDL_Renderer *r, const map_t *m, const ui_camera_t *cam, SDL_Vertex *v,
                      const int *idx)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 28, 31, 36, 255);
    SDL_RenderClear(r);
    vec2_t corner[6];
    for (int k = 0; k < 6; k++)
        corner[k] = hex_corner(m->layout.orient, cam->zoom, k);
    int n = 0;
    for (int row = 0; row < m->rows; row++)
        for (int col = 0; col < m->cols; col++) {
            cell_t c = {col, row};
            vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, c));
            uint32_t rgb = map_terrain_at(m, c)->color;
            SDL_Color k = {(Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, 255};
            for (int j = 0; j < 6; j++)
                v[n++] = (SDL_Vertex){
                    {(float)(sc.x + corner[j].x), (float)(sc.y + corner[j].y)}, k, {0, 0}};
        }
    SDL_RenderGeometry(r, NULL, v, n, idx, n / 6 * 12);
}

/* frame_ms, frame_pan_ms, frame_zoom_ms and frame_vs_bare on a 64x64 map
 * with 100 combatants and every overlay kind, 1920x1080, software renderer on
 * a surface. The drawer keeps the static layer (background, terrain, grid) in
 * a texture while the map and camera stay put, as a referee's window does
 * most frames, and shifts it when the camera pans by whole pixels, drawing
 * only the strips that came into view. So that the figures say what such
 * frames cost and nothing more:
 *   frame_ms       the camera stays put while every token moves a little and
 *                  the hovered hex changes, each frame: tokens, hover and
 *                  overlays are drawn afresh, only the static layer is copied;
 *   frame_pan_ms   the same, but the camera pans by one pixel each frame (the
 *                  frame right after a drag or an arrow key moved the view):
 *                  the layer is shifted, or, should the pan not be one it can
 *                  shift, drawn again;
 *   frame_zoom_ms  the same, but the zoom changes each frame (the frame right
 *                  after a zoom, a resize or an edit of the terrain), so every
 *                  frame draws the static layer again in full. A figure to
 *                  look at, not a target.
 * The drawer's counts are checked: frame_ms frames neither redraw nor shift
 * the layer, each frame_pan_ms frame shifts it or redraws it (one of the two),
 * and each frame_zoom_ms frame redraws it, or the measurement fails. */
typedef struct {
    ui_draw_t *d;
    ui_overlay_t *ov;
    SDL_Renderer *r;
    const map_t *m;
    ui_token_pose_t *poses;
} frame_rig_t;

/* One frame k: tokens shifted by a step that cycles over 8 frames, the
 * hover on the k-th hex, then every overlay over the map. */
static void rig_frame(const frame_rig_t *g, const ui_camera_t *cam, int W, int H, int k)
{
    const map_t *m = g->m;
    double dx = 0.04 * (k % 8);
    for (int i = 0; i < m->n_combatants; i++) {
        vec2_t c = ui_cell_center(m, m->combatants[i].at);
        g->poses[i] = (ui_token_pose_t){{c.x + dx, c.y - dx}, (float)m->combatants[i].hp, 1.0f, 0};
    }
    int n = m->cols * m->rows;
    int h = (k * 97 % n + n) % n;
    ui_frame_opts_t fo = {.hover = true,
                          .hover_cell = {h % m->cols, h / m->cols},
                          .poses = g->poses,
                          .tokens_later = true};
    ui_draw_map(g->d, m, cam, W, H, &fo);
    ui_overlay_draw(g->ov, g->r, ui_draw_text(g->d), cam, W, H, true, true);
    ui_draw_tokens(g->d, m, cam, W, H, &fo);
    SDL_RenderPresent(g->r);
}

typedef struct {
    double frame_ms, pan_ms, zoom_ms, bare_ms;
} frame_fig_t;

static bool bench_frame(const reps_t *rp, const tmpl_db_t *db, bool art, frame_fig_t *out)
{
    const int W = 1920, H = 1080;
    map_t *m = bench_map(64, 64, 100, 7);
    if (!m) return false;
    bool ok = false;
    /* frame_art_vs_bare: the same frames of the map drawn from its pictures. */
    char art_dir[1024] = "";
    if (art && !bench_art_make(m, art_dir, sizeof art_dir)) {
        map_destroy(m);
        return false;
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    char err[HB_ERR_MAX];
    ui_draw_t *d = r ? ui_draw_create(r, m, err, sizeof err) : NULL;
    ui_overlay_t *ov = d ? ui_overlay_create(m) : NULL;
    int ncells = m->cols * m->rows;
    SDL_Vertex *v = malloc(sizeof *v * (size_t)ncells * 6);
    int *idx = malloc(sizeof *idx * (size_t)ncells * 12);
    ui_token_pose_t *poses = calloc((size_t)m->n_combatants, sizeof *poses);
    double *ft = calloc((size_t)rp->frames, sizeof *ft),
           *pt = calloc((size_t)rp->frames, sizeof *pt),
           *zt = calloc((size_t)rp->frames, sizeof *zt),
           *bt = calloc((size_t)rp->frames, sizeof *bt);
    if (!ov || !v || !idx || !poses || !ft || !pt || !zt || !bt) goto done;
    if (art && (!ui_draw_has_art(d) || ui_draw_art_warning(d))) goto done; /* pictures loaded */
    static const int FAN[12] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};
    for (int h = 0; h < ncells; h++)
        for (int j = 0; j < 12; j++)
            idx[h * 12 + j] = h * 6 + FAN[j];
    /* One of each kind, around a combatant near the middle. */
    const char *specs[] = {"reach:u0", "threat:u1", "flanking:u0,u1",
                           "range:u0", "los:u2",    "los:u0,60,60"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        overlay_spec_t sp;
        if (!args_parse_overlay(specs[k], &sp, err, sizeof err) ||
            ui_overlay_add(ov, db, &sp, err, sizeof err) != 0)
            goto done;
    }
    frame_rig_t g = {d, ov, r, m, poses};
    ui_camera_t cam = ui_cam_for_image(m, W, H);
    /* What the drawer did with the layer in the still, panned and zoomed
     * frames: drawn in full, shifted; a frame that did neither or both. */
    int still_redraws = 0, still_shifts = 0, pan_redraws = 0, pan_shifts = 0, pan_odd = 0;
    int zoom_redraws = 0, zoom_shifts = 0;
    for (int k = -3; k < rp->frames; k++) { /* three warm-up frames fill the caches */
        /* The camera back where it was: one redraw, not timed. */
        rig_frame(&g, &cam, W, H, k);
        int r0 = ui_draw_static_redraws(d), s0 = ui_draw_static_shifts(d);
        double t0 = bench_now_ms();
        rig_frame(&g, &cam, W, H, k + 1);
        double t1 = bench_now_ms();
        int r1 = ui_draw_static_redraws(d), s1 = ui_draw_static_shifts(d);
        ui_camera_t panned = cam;
        panned.x += (k % 2 ? 1.0 : -1.0) / cam.zoom;
        rig_frame(&g, &panned, W, H, k + 2);
        double t2 = bench_now_ms();
        int r2 = ui_draw_static_redraws(d), s2 = ui_draw_static_shifts(d);
        /* A zoom by 2% about the middle of the view, in and out in turn. */
        ui_camera_t zoomed = panned;
        ui_cam_zoom_at(&zoomed, (vec2_t){W / 2.0, H / 2.0}, k % 2 ? 1.02 : 1.0 / 1.02);
        rig_frame(&g, &zoomed, W, H, k + 3);
        double t3 = bench_now_ms();
        int r3 = ui_draw_static_redraws(d), s3 = ui_draw_static_shifts(d);
        bare_fill(r, m, &cam, v, idx);
        SDL_RenderPresent(r);
        double t4 = bench_now_ms();
        if (k >= 0) {
            ft[k] = t1 - t0;
            pt[k] = t2 - t1;
            zt[k] = t3 - t2;
            bt[k] = t4 - t3;
            still_redraws += r1 - r0;
            still_shifts += s1 - s0;
            pan_redraws += r2 - r1;
            pan_shifts += s2 - s1;
            pan_odd += (r2 - r1) + (s2 - s1) != 1;
            zoom_redraws += r3 - r2;
            zoom_shifts += s3 - s2;
        }
    }
    if (still_redraws != 0 || still_shifts != 0 || pan_odd != 0 || zoom_redraws != rp->frames ||
        zoom_shifts != 0) {
        fprintf(stderr,
                "hexbattle: bench: the static layer was drawn %d times and shifted %d times in "
                "%d still frames, drawn %d and shifted %d times in %d panned ones (%d of them "
                "neither or both), drawn %d and shifted %d times in %d zoomed ones\n",
                still_redraws, still_shifts, rp->frames, pan_redraws, pan_shifts, rp->frames,
                pan_odd, zoom_redraws, zoom_shifts, rp->frames);
        goto done;
    }
    out->frame_ms = bench_median(ft, rp->frames);
    out->pan_ms = bench_median(pt, rp->frames);
    out->zoom_ms = bench_median(zt, rp->frames);
    out->bare_ms = bench_median(bt, rp->frames);
    ok = true;
done:
    free(ft);
    free(pt);
    free(zt);
    free(bt);
    free(poses);
    free(v);
    free(idx);
    ui_overlay_destroy(ov);
    ui_draw_destroy(d);
    if (r) SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    if (art_dir[0]) bench_art_remove(art_dir);
    map_destroy(m);
    return ok;
}

/* reach_ms: the reachable set with a 375 ft budget on a 256x256 mixed map. */
static bool bench_reach(const reps_t *rp, double *out)
{
    map_t *m = bench_map(256, 256, 1, 11);
    if (!m) return false;
    m->combatants[0].at = (cell_t){128, 128};
    m->cells[map_index(m, m->combatants[0].at)] = (uint8_t)type_of(m, "open");
    board_t *b = board_create(m);
    path_search_t *ps = path_search_create(m->cols * m->rows);
    geom_reach_t *res = malloc(sizeof *res * (size_t)(m->cols * m->rows));
    double *t = calloc((size_t)rp->reach, sizeof *t);
    bool ok = b && ps && res && t;
    for (int k = -2; ok && k < rp->reach; k++) {
        double t0 = bench_now_ms();
        int n = geom_reach(b, 0, 375, 5, ps, res, m->cols * m->rows);
        double t1 = bench_now_ms();
        if (n <= 0) ok = false;
        if (k >= 0) t[k] = t1 - t0;
    }
    if (ok) *out = bench_median(t, rp->reach);
    free(t);
    free(res);
    path_search_destroy(ps);
    board_destroy(b);
    map_destroy(m);
    return ok;
}

/* los_pairs_ms: sight and cover between every pair of 100 combatants on a
 * 64x64 map with cover and walls. */
static bool bench_los(const reps_t *rp, double *out)
{
    map_t *m = bench_map(64, 64, 100, 23);
    if (!m) return false;
    board_t *b = board_create(m);
    double *t = calloc((size_t)rp->los, sizeof *t);
    bool ok = b && t;
    volatile int seen = 0; /* keeps the traces from being optimised away */
    for (int k = -2; ok && k < rp->los; k++) {
        double t0 = bench_now_ms();
        for (int i = 0; i < b->n; i++)
            for (int j = i + 1; j < b->n; j++)
                seen += sight_trace(b, b->pos[i], b->pos[j]).visible;
        double t1 = bench_now_ms();
        if (k >= 0) t[k] = t1 - t0;
    }
    (void)seen; /* read once: clang -O3 warns of a variable only ever set */
    if (ok) *out = bench_median(t, rp->los);
    free(t);
    board_destroy(b);
    map_destroy(m);
    return ok;
}

/* The bundled sample battle, next to the data folder. */
static void default_map_path(char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/../maps/" DEFAULT_MAP, hb_data_dir());
}

/* battles_per_s: the sample battle played by the AI to its end, in process,
 * a new seed each time, for about rp->battle_s seconds. One play_t is reused
 * so the figure measures the rules, not the allocator. */
static bool bench_battles(const reps_t *rp, const map_t *m, const tmpl_db_t *db, double *out)
{
    const ruleset_t *rs = ruleset_find(m->ruleset);
    if (!rs) return false;
    play_t p;
    memset(&p, 0, sizeof p);
    int done = 0;
    bool ok = true;
    double t0 = bench_now_ms(), t1 = t0;
    while (ok && (t1 - t0 < rp->battle_s * 1e3 || done < 3)) {
        ok = play_headless(&p, m, db, rs, (uint64_t)done + 1, 100, NULL) == BATTLE_OK;
        done++;
        t1 = bench_now_ms();
    }
    play_end(&p);
    *out = done / ((t1 - t0) / 1e3);
    return ok;
}

/* The bundled maps the odds figures cover, in the data folder's ../maps. */
static const char *const ODDS_MAPS[] = {"ridge_ambush",  "foundry_breach", "salt_flats",
                                        "river_crossing", "relay_outpost", "shattered_lane"};
#define N_ODDS_MAPS (int)(sizeof ODDS_MAPS / sizeof ODDS_MAPS[0])

/* Wall ms of `runs` odds runs of map m from its start on `threads` threads. */
static bool odds_ms(const map_t *m, const tmpl_db_t *db, int runs, int threads, double *ms)
{
    odds_base_t base = {.map = m, .db = db, .from_start = true};
    odds_progress_t pr;
    if (!odds_run_all(&base, NULL, 1, runs, threads, &pr) || pr.first_failure >= 0) return false;
    *ms = pr.ms;
    return true;
}

/* odds_runs_per_s: odds runs of the sample battle per second on two threads;
 * odds_speedup_2t: that over the rate on one thread (2.0 is perfect; on a
 * loaded machine less); odds_ms_1000: for each bundled map, the wall ms of
 * 1,000 runs on two threads (measured on rp->odds_runs and scaled). */
static bool bench_odds(const reps_t *rp, const map_t *m, const tmpl_db_t *db, double *per_s,
                       double *speedup, double *map_ms)
{
    double one, two;
    if (!odds_ms(m, db, rp->odds_runs, 1, &one) || !odds_ms(m, db, rp->odds_runs, 2, &two))
        return false;
    *per_s = two > 0 ? rp->odds_runs / (two / 1e3) : 0.0;
    *speedup = two > 0 ? one / two : 0.0;
    for (int k = 0; k < N_ODDS_MAPS; k++) {
        char path[4096], err[HB_ERR_MAX];
        snprintf(path, sizeof path, "%s/../maps/%s.json", hb_data_dir(), ODDS_MAPS[k]);
        map_t *om = NULL;
        tmpl_db_t *odb = NULL;
        double ms = 0;
        bool ok = map_load(path, hb_data_dir(), &om, &odb, err, sizeof err) == HB_OK &&
                  odds_ms(om, odb, rp->odds_runs, 2, &ms);
        tmpl_db_destroy(odb);
        map_destroy(om);
        if (!ok) return false;
        map_ms[k] = ms * 1000.0 / rp->odds_runs;
    }
    return true;
}

/* odds_panel_frame_ms: the longest a play-window frame spends on the odds
 * panel (reading the workers' count and drawing it, 1280x720, software
 * renderer) while the panel's 1,000 runs of the sample battle are counted:
 * what the panel adds to a frame, however busy the workers are. */
static bool bench_odds_frame(const map_t *m, const tmpl_db_t *db, double *out)
{
    const int W = 1280, H = 720;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    char err[HB_ERR_MAX];
    ui_draw_t *d = r ? ui_draw_create(r, m, err, sizeof err) : NULL;
    pui_t *p = d ? malloc(sizeof *p) : NULL;
    bool ok = p && pui_start(p, m, db, 1) == BATTLE_OK;
    ui_odds_t o;
    ui_odds_init(&o);
    if (ok) ok = ui_odds_key(&o, p, SDLK_o, 0) && o.pool;
    double worst = 0.0;
    int frames = 0;
    SDL_Rect area = {0, 0, W, H};
    while (ok && (frames == 0 || ui_odds_busy(&o))) {
        double t0 = bench_now_ms();
        ui_odds_frame(&o, p);
        ui_odds_draw(&o, p, d, area, 14, 20, NULL, 0);
        SDL_RenderPresent(r);
        double t = bench_now_ms() - t0;
        worst = t > worst ? t : worst;
        frames++;
        SDL_Delay(5);
    }
    ok = ok && o.base.done && o.base.first_failure < 0;
    ui_odds_free(&o);
    if (p && p->started) pui_free(p);
    free(p);
    ui_draw_destroy(d);
    if (r) SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    *out = worst;
    return ok;
}

/* startup_ms: from nothing to the first frame of the sample battle - load the
 * map and its data, start the font library, make a 1280x720 software
 * renderer and drawer, draw once. Process start-up itself is not included. */
static bool bench_startup(const reps_t *rp, const char *path, double *out)
{
    double *t = calloc((size_t)rp->startup, sizeof *t);
    bool ok = t != NULL;
    for (int k = -1; ok && k < rp->startup; k++) {
        double t0 = bench_now_ms();
        char err[HB_ERR_MAX];
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        ok = map_load(path, hb_data_dir(), &m, &db, err, sizeof err) == HB_OK && TTF_Init() == 0;
        SDL_Surface *surf =
            ok ? SDL_CreateRGBSurfaceWithFormat(0, 1280, 720, 32, SDL_PIXELFORMAT_ARGB8888) : NULL;
        SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
        ui_draw_t *d = r ? ui_draw_create(r, m, err, sizeof err) : NULL;
        if (d) {
            ui_camera_t cam = ui_cam_for_image(m, 1280, 720);
            ui_draw_map(d, m, &cam, 1280, 720, NULL);
            SDL_RenderPresent(r);
        }
        double t1 = bench_now_ms();
        ok = ok && d;
        ui_draw_destroy(d);
        if (r) SDL_DestroyRenderer(r);
        SDL_FreeSurface(surf);
        TTF_Quit();
        tmpl_db_destroy(db);
        map_destroy(m);
        if (k >= 0) t[k] = t1 - t0;
    }
    if (ok) *out = bench_median(t, rp->startup);
    free(t);
    return ok;
}

int app_bench(int argc, char **argv)
{
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else {
            hb_eprintf("hexbattle: bench: unknown argument '%s'\n", argv[i]);
            fputs("usage: hexbattle bench [--quick]\n", stderr);
            return EXIT_BAD;
        }
    }
    reps_t rp = quick ? (reps_t){9, 15, 7, 3, 0.4, 40} : (reps_t){41, 101, 31, 9, 2.0, 1000};

    char path[4096], err[HB_ERR_MAX];
    default_map_path(path, sizeof path);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    if (map_load(path, hb_data_dir(), &m, &db, err, sizeof err) != HB_OK) {
        hb_eprintf("hexbattle: bench: %s\n", err);
        return EXIT_FAIL;
    }
    if (TTF_Init() != 0) {
        hb_eprintf("hexbattle: bench: cannot start SDL_ttf: %s\n", TTF_GetError());
        tmpl_db_destroy(db);
        map_destroy(m);
        return EXIT_FAIL;
    }
    frame_fig_t fr = {0}, fa = {0};
    double reach = 0, los = 0, bps = 0, start = 0;
    double odds_per_s = 0, odds_speedup = 0, odds_map_ms[N_ODDS_MAPS] = {0}, odds_frame = 0;
    const char *failed = NULL;
    if (!bench_frame(&rp, db, false, &fr))
        failed = "frame";
    else if (!bench_frame(&rp, db, true, &fa))
        failed = "frame with pictures";
    else if (!bench_reach(&rp, &reach))
        failed = "reach";
    else if (!bench_los(&rp, &los))
        failed = "los_pairs";
    else if (!bench_battles(&rp, m, db, &bps))
        failed = "battles";
    else if (!bench_odds(&rp, m, db, &odds_per_s, &odds_speedup, odds_map_ms))
        failed = "odds";
    else if (!bench_odds_frame(m, db, &odds_frame))
        failed = "odds panel";
    bench_share_t sh = {0}; /* zeros in a build without sharing */
    if (!failed && share_available() && !bench_share(quick ? 20 : 100, m, db, &sh))
        failed = "share";
    bench_scale_t sc;
    if (!failed && !quick && !bench_scale(rp.los, db, &sc)) failed = "big-map";
    double scars_round = 0;
    if (!failed && !quick && !bench_scars(&scars_round)) failed = "scars round";
    TTF_Quit();
    if (!failed && !bench_startup(&rp, path, &start)) failed = "startup";
    tmpl_db_destroy(db);
    map_destroy(m);
    if (failed) {
        hb_eprintf("hexbattle: bench: the %s measurement could not run\n", failed);
        return EXIT_FAIL;
    }
    double bare = fr.bare_ms > 0 ? fr.bare_ms : 1e-9;
    printf("{\"frame_ms\":%.3f,\"frame_vs_bare\":%.3f,\"reach_ms\":%.3f,\"los_pairs_ms\":%.3f,"
           "\"battles_per_s\":%.1f,\"startup_ms\":%.3f,\"bare_ms\":%.3f,\"frame_pan_ms\":%.3f,"
           "\"frame_pan_vs_bare\":%.3f,\"frame_zoom_ms\":%.3f,\"frame_zoom_vs_bare\":%.3f,"
           "\"odds_runs_per_s\":%.1f,\"odds_speedup_2t\":%.2f,\"odds_panel_frame_ms\":%.3f,"
           "\"frame_art_ms\":%.3f,\"frame_art_vs_bare\":%.3f,\"odds_ms_1000\":{",
           fr.frame_ms, fr.frame_ms / bare, reach, los, bps, start, fr.bare_ms, fr.pan_ms,
           fr.pan_ms / bare, fr.zoom_ms, fr.zoom_ms / bare, odds_per_s, odds_speedup, odds_frame,
           fa.frame_ms, fa.frame_ms / (fa.bare_ms > 0 ? fa.bare_ms : 1e-9));
    for (int k = 0; k < N_ODDS_MAPS; k++)
        printf("%s\"%s\":%.0f", k ? "," : "", ODDS_MAPS[k], odds_map_ms[k]);
    printf("},\"share_latency_ms\":{\"median\":%.3f,\"p99\":%.3f},\"share_frame_cost_ms\":%.4f,",
           sh.latency_median_ms, sh.latency_p99_ms, sh.frame_cost_ms);
    if (!quick)
        printf("\"view_update_ms\":%.3f,\"view_full_ms\":%.3f,\"render_512_ms\":%.3f,"
               "\"view_full_vs_render\":%.3f,\"frame_512_ms\":%.3f,\"frame_64_ms\":%.3f,"
               "\"frame_512_vs_64\":%.3f,\"ai_turn_512_ms\":%.3f,\"ai_turn_512_median_ms\":%.3f,"
               "\"scars_round_512_ms\":%.3f,\"max_rss_mb\":%.1f,",
               sc.view_update_ms, sc.view_full_ms, sc.render_512_ms, sc.view_full_vs_render,
               sc.frame_512_ms, sc.frame_64_ms, sc.frame_512_vs_64, sc.ai_turn_512_ms,
               sc.ai_turn_512_median_ms, scars_round, sc.max_rss_mb);
    printf("\"quick\":%s}\n", quick ? "true" : "false");
    return 0;
}
