/* still.c - the drawer's static layer (background, terrain, grid) kept in
 * target textures: copied on the frames that change none of it, shifted on
 * whole-pixel pans (see draw.h and "The static layer" below), and its grid
 * lines drawn so that no clip changes them. draw.c draws the layer itself;
 * draw_internal.h is what the two files share.
 */
#include "draw_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the static layer --------------------------------------------------
 *
 * Background, terrain and grid depend only on the map's grid, cells and
 * terrain types, the camera and the view's size. Most frames change none of
 * them (tokens move, overlays follow the selection), so the layer is drawn
 * once into a target texture and copied, unblended, on the frames after:
 * the copy moves the pixels at memory speed, where the fill rasterises every
 * hex. Every frame compares all of what the layer was drawn from with the
 * map and camera as they are now - the cells byte for byte, the terrain
 * types whole - so any change, from the editor, a ruleset or a pan, shows on
 * that same frame, and nothing stale is ever shown.
 *
 * A pan that changed nothing else reuses the picture: on the layer's pixel
 * grid (draw.c) a camera with the same zoom and the same fraction f draws
 * the same picture moved by a whole number of pixels. The cached picture is
 * copied, moved so, into the spare texture (SDL cannot copy a texture onto
 * itself), and only the strips the pan brought into view are drawn, under a
 * clip rectangle; then the two textures swap roles. Every pixel that comes
 * out is the one a full draw sets: the fills and triangles land on whole
 * pixels (SDL's software rasteriser keeps vertices as whole pixels and
 * decides each pixel by integer edge tests, so moving every vertex by whole
 * pixels moves its pixels with them), the culled hexes lie wholly outside
 * what is drawn, and the grid's lines are drawn so that no clip changes them
 * (grid_poly). tests/test_ui_still.c compares shifted frames with fresh ones
 * pixel for pixel. Only SDL's software renderer is trusted so; any other
 * renderer, the whole-map image of tiny hexes (lod.c, drawn from the camera
 * as it is) and a move of more than the view draw the layer again. */

/* A renderer that drops its target textures (Direct3D on a device reset)
 * has lost the cached layer with them: the next frame draws it again. */
int SDLCALL still_watch(void *user, SDL_Event *e)
{
    if (e->type == SDL_RENDER_TARGETS_RESET || e->type == SDL_RENDER_DEVICE_RESET)
        SDL_AtomicSet(&((ui_draw_t *)user)->still.lost, 1);
    return 0;
}

/* Everything the layer was drawn from but the camera is as it is now. */
static bool still_same_map(const still_t *c, const map_t *m, int w, int h)
{
    size_t n = (size_t)m->cols * (size_t)m->rows;
    return c->valid && c->w == w && c->h == h && c->layout.orient == m->layout.orient &&
           c->layout.stagger == m->layout.stagger && c->cols == m->cols && c->rows == m->rows &&
           c->n_types == m->n_types && c->n_cells == n &&
           memcmp(c->types, m->types, sizeof *m->types * (size_t)m->n_types) == 0 &&
           memcmp(c->cells, m->cells, n) == 0;
}

static bool still_same(const still_t *c, const map_t *m, const ui_camera_t *cam, int w, int h,
                       uint64_t art)
{
    return c->cam.x == cam->x && c->cam.y == cam->y && c->cam.zoom == cam->zoom &&
           c->art_sig == art && still_same_map(c, m, w, h);
}

/* Whether the cached picture, moved by (*dx, *dy) whole pixels, is the
 * layer camera cam draws: the same map and view, the same zoom, the same
 * fraction of the origin, and a move smaller than the view. */
static bool still_shift(const still_t *c, bool soft, const map_t *m, const ui_camera_t *cam, int w,
                        int h, const org_t *o, int *dx, int *dy)
{
    if (!soft || cam->zoom != c->cam.zoom || cam->zoom < UI_LOD_ZOOM || o->fx != c->org.fx ||
        o->fy != c->org.fy)
        return false;
    double sx = c->org.ix - o->ix, sy = c->org.iy - o->iy;
    if (fabs(sx) >= w || fabs(sy) >= h || !still_same_map(c, m, w, h)) return false;
    *dx = (int)sx;
    *dy = (int)sy;
    return true;
}

/* Remember what the layer now in c->tex[c->cur] was drawn from; false on OOM. */
static bool still_keep(still_t *c, const map_t *m, const ui_camera_t *cam, int w, int h)
{
    size_t n = (size_t)m->cols * (size_t)m->rows;
    if (n > c->cap_cells) {
        uint8_t *p = realloc(c->cells, n);
        if (!p) return false;
        c->cells = p;
        c->cap_cells = n;
    }
    memcpy(c->cells, m->cells, n);
    c->n_cells = n;
    memcpy(c->types, m->types, sizeof *m->types * (size_t)m->n_types);
    c->n_types = m->n_types;
    c->cam = *cam;
    c->org = layer_org(cam);
    c->w = w;
    c->h = h;
    c->layout = m->layout;
    c->cols = m->cols;
    c->rows = m->rows;
    return true;
}

/* The pixel format the renderer draws to (the caller's target texture, else
 * the window), so the copy is a plain one. */
static Uint32 still_format(SDL_Renderer *r, SDL_Texture *outer)
{
    Uint32 f = SDL_PIXELFORMAT_UNKNOWN;
    SDL_Window *win = SDL_RenderGetWindow(r);
    if (outer)
        SDL_QueryTexture(outer, &f, NULL, NULL, NULL);
    else if (win)
        f = SDL_GetWindowPixelFormat(win);
    return f == SDL_PIXELFORMAT_UNKNOWN ? SDL_PIXELFORMAT_ARGB8888 : f;
}

/* A w x h target texture of c->format in c->tex[i]; false when the
 * renderer cannot make one. */
static bool still_make(still_t *c, SDL_Renderer *r, int i, int w, int h)
{
    if (c->tex[i]) return true;
    c->tex[i] = SDL_CreateTexture(r, c->format, SDL_TEXTUREACCESS_TARGET, w, h);
    if (!c->tex[i])
        c->tex[i] = SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
    if (!c->tex[i]) return false;
    SDL_SetTextureBlendMode(c->tex[i], SDL_BLENDMODE_NONE);
    return true;
}

/* w x h target textures of the renderer's format: the current one made
 * now, the spare when a shift first needs it; both go when the size or the
 * format changes. false when the renderer cannot make the current one. */
static bool still_texture(still_t *c, SDL_Renderer *r, SDL_Texture *outer, int w, int h)
{
    Uint32 f = still_format(r, outer);
    if (!(c->tw == w && c->th == h && c->format == f)) {
        for (int i = 0; i < 2; i++) {
            if (c->tex[i]) SDL_DestroyTexture(c->tex[i]);
            c->tex[i] = NULL;
        }
        c->valid = false;
        c->format = f;
        c->tw = w;
        c->th = h;
    }
    return still_make(c, r, c->cur, w, h);
}

/* Into the spare texture: the cached picture moved by (dx, dy), then the
 * strips it leaves bare drawn afresh (a column band the full height, then a
 * row band beside it, so no pixel is drawn twice). The spare becomes the
 * current texture. false, with nothing changed, when the spare cannot be
 * made or drawn to. */
static bool still_shift_into_spare(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w,
                                   int h, int dx, int dy)
{
    still_t *c = &d->still;
    int spare = 1 - c->cur;
    if (!still_make(c, d->r, spare, w, h) || SDL_SetRenderTarget(d->r, c->tex[spare]) != 0)
        return false;
    int ax = abs(dx), ay = abs(dy);
    SDL_Rect src = {dx < 0 ? ax : 0, dy < 0 ? ay : 0, w - ax, h - ay};
    SDL_Rect dst = {dx > 0 ? ax : 0, dy > 0 ? ay : 0, w - ax, h - ay};
    SDL_RenderCopy(d->r, c->tex[c->cur], &src, &dst);
    SDL_Rect strip[2] = {{dx > 0 ? 0 : w - ax, 0, ax, h}, {dst.x, dy > 0 ? 0 : h - ay, w - ax, ay}};
    for (int i = 0; i < 2; i++) {
        if (strip[i].w <= 0 || strip[i].h <= 0) continue;
        SDL_RenderSetClipRect(d->r, &strip[i]);
        draw_static(d, m, cam, w, h, &strip[i]);
    }
    SDL_RenderSetClipRect(d->r, NULL);
    c->cur = spare;
    return true;
}

/* Draw the static layer, from the cache when nothing it shows has changed
 * and shifted when only the camera's position has. The cache is skipped (the
 * layer drawn straight) when it is off, when the caller draws with a render
 * scale, or when the renderer has no target textures. A caller drawing into
 * a texture of its own (the projector, to turn the picture) keeps it: its
 * viewport and clip come back after. */
void static_layer(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h)
{
    still_t *c = &d->still;
    float sx = 1, sy = 1;
    SDL_RenderGetScale(d->r, &sx, &sy);
    if (SDL_AtomicSet(&c->lost, 0)) c->valid = false;
    if (c->off || w <= 0 || h <= 0 || sx != 1 || sy != 1 || !SDL_RenderTargetSupported(d->r)) {
        c->valid = false;
        c->redraws++;
        draw_static(d, m, cam, w, h, NULL);
        return;
    }
    SDL_Texture *outer = SDL_GetRenderTarget(d->r);
    bool new_format = c->format != still_format(d->r, outer);
    /* A layer of pictures depends on them too, and is never shifted (art.c). */
    bool art = ui_art_draws(d->art, m, cam);
    uint64_t sig = art ? ui_art_sig(d->art, m, d->art_overlay) : 0;
    if (new_format || !still_same(c, m, cam, w, h, sig)) {
        org_t o = layer_org(cam);
        int dx = 0, dy = 0;
        bool shift = !new_format && !art && c->art_sig == 0 &&
                     still_shift(c, d->soft, m, cam, w, h, &o, &dx, &dy);
        SDL_Rect vp, clip;
        SDL_RenderGetViewport(d->r, &vp);
        SDL_RenderGetClipRect(d->r, &clip);
        bool clipped = SDL_RenderIsClipEnabled(d->r);
        if (shift && dx == 0 && dy == 0) {
            /* Moved by less than the grid's step: the very same picture. */
            ui_rect_t view = {cam->x, cam->y, cam->x + w / cam->zoom, cam->y + h / cam->zoom};
            cell_t lo, hi;
            d->last_hexes =
                ui_visible_cells(m, view, &lo, &hi) ? hexes_in_view(m, cam, w, h, lo, hi) : 0;
        }
        if (shift && (dx != 0 || dy != 0) && !still_shift_into_spare(d, m, cam, w, h, dx, dy))
            shift = false;
        if (shift) {
            c->shifts += dx != 0 || dy != 0;
            c->cam = *cam;
            c->org = o;
        } else {
            c->valid = false;
            c->redraws++;
            if (!still_texture(c, d->r, outer, w, h) ||
                SDL_SetRenderTarget(d->r, c->tex[c->cur]) != 0) {
                draw_static(d, m, cam, w, h, NULL);
                return;
            }
            draw_static(d, m, cam, w, h, NULL);
            c->valid = still_keep(c, m, cam, w, h);
            c->art_sig = sig;
        }
        SDL_SetRenderTarget(d->r, outer);
        if (outer) { /* SDL restores these only for the window */
            SDL_RenderSetViewport(d->r, &vp);
            SDL_RenderSetClipRect(d->r, clipped ? &clip : NULL);
        }
        c->last_hexes = d->last_hexes;
    }
    d->last_hexes = c->last_hexes;
    SDL_Rect dst = {0, 0, w, h};
    SDL_RenderCopy(d->r, c->tex[c->cur], NULL, &dst);
}

void ui_draw_cache_static(ui_draw_t *d, bool on)
{
    d->still.off = !on;
    d->still.valid = false;
}

int ui_draw_static_redraws(const ui_draw_t *d)
{
    return d->still.redraws;
}

int ui_draw_static_shifts(const ui_draw_t *d)
{
    return d->still.shifts;
}

/* ---- grid lines that a clip cannot change -------------------------------
 *
 * SDL's software line drawer clips a line to the clip rectangle first and
 * then walks Bresenham's steps from the clipped end, so the pixels a clipped
 * line sets are not the pixels the same line sets on a bigger view: they
 * depend on where the view's edge falls. The layer must not (a shifted
 * layer is copied next to a freshly drawn strip), so on the software
 * renderer a polyline is drawn as SDL would draw it on a target that clips
 * nothing, then clipped pixel by pixel: the segments wholly inside the area
 * SDL clips to go to SDL as they are, and the others are walked here with
 * the same steps and set as points, which SDL clips one by one. Every pixel
 * gets the same translucent colour, whoever sets it, so the result depends
 * only on which pixels are set and how often. */

static SDL_Point grid_pt(SDL_FPoint p)
{
    return (SDL_Point){(int)p.x, (int)p.y};
}

static bool same_pt(SDL_Point a, SDL_Point b)
{
    return a.x == b.x && a.y == b.y;
}

static bool pt_inside(SDL_Point p, const SDL_Rect *r)
{
    return p.x >= r->x && p.x < r->x + r->w && p.y >= r->y && p.y < r->y + r->h;
}

static void dot(ui_draw_t *d, int x, int y)
{
    if (d->n_dots < d->cap_dots ||
        grow((void **)&d->dots, &d->cap_dots, d->n_dots + 1, sizeof *d->dots))
        d->dots[d->n_dots++] = (SDL_FPoint){(float)x, (float)y};
}

/* The pixels SDL's line drawer sets from a to b when it draws the segment
 * inside a polyline: every step of its Bresenham walk but the last (b is
 * the next segment's first pixel), and without a when skip_a. */
static void seg_dots(ui_draw_t *d, SDL_Point a, SDL_Point b, bool skip_a)
{
    int adx = abs(b.x - a.x), ady = abs(b.y - a.y);
    bool along_x = adx >= ady;
    int n = along_x ? adx : ady;
    int err = along_x ? 2 * ady - adx : 2 * adx - ady;
    int keep = along_x ? 2 * ady : 2 * adx, both = along_x ? 2 * (ady - adx) : 2 * (adx - ady);
    int sx = b.x < a.x ? -1 : 1, sy = b.y < a.y ? -1 : 1;
    int x = a.x, y = a.y;
    for (int i = 0; i < n; i++) {
        if (i > 0 || !skip_a) dot(d, x, y);
        if (err < 0) {
            err += keep;
            if (along_x)
                x += sx;
            else
                y += sy;
        } else {
            err += both;
            x += sx;
            y += sy;
        }
    }
}

/* Polyline p[0..n) of whole-pixel points, as SDL draws it unclipped (each
 * segment but its last pixel, then the last point unless the line is
 * closed), clipped to what SDL clips to; `in` is that area or a part of
 * it. NULL: straight to SDL (not the software renderer, or a render scale,
 * where SDL draws lines pixel by pixel anyway). */
void grid_poly(ui_draw_t *d, const SDL_FPoint *p, int n, const SDL_Rect *in)
{
    if (n < 2) return;
    if (!in) {
        SDL_RenderDrawLinesF(d->r, p, n);
        return;
    }
    SDL_Point last = grid_pt(p[n - 1]);
    bool closed = same_pt(grid_pt(p[0]), last);
    int run = -1; /* first point of the segments going to SDL, -1: none */
    for (int i = 1; i < n; i++) {
        SDL_Point a = grid_pt(p[i - 1]), b = grid_pt(p[i]);
        /* SDL leaves the end of a closed line alone; a run ending there
         * would set it, so that segment is walked here. */
        if (pt_inside(a, in) && pt_inside(b, in) && !(closed && i == n - 1)) {
            if (run < 0) run = i - 1;
            continue;
        }
        bool skip = false;
        if (run >= 0) { /* SDL sets the run's last point too: a */
            SDL_RenderDrawLinesF(d->r, p + run, i - run);
            skip = !same_pt(grid_pt(p[run]), a);
            run = -1;
        }
        seg_dots(d, a, b, skip);
    }
    if (run >= 0) {
        SDL_RenderDrawLinesF(d->r, p + run, n - run);
        if (same_pt(grid_pt(p[run]), last)) dot(d, last.x, last.y);
    } else if (!closed) {
        dot(d, last.x, last.y);
    }
}

/* The area SDL clips the layer to, in the viewport's coordinates: the
 * viewport, its clip rectangle and the target. */
SDL_Rect clip_area(SDL_Renderer *r)
{
    SDL_Rect vp, a;
    SDL_RenderGetViewport(r, &vp);
    a = (SDL_Rect){0, 0, vp.w, vp.h};
    if (SDL_RenderIsClipEnabled(r)) {
        SDL_Rect c;
        SDL_RenderGetClipRect(r, &c);
        if (!SDL_IntersectRect(&a, &c, &a)) return (SDL_Rect){0, 0, 0, 0};
    }
    int ow, oh;
    if (SDL_GetRendererOutputSize(r, &ow, &oh) == 0) {
        SDL_Rect t = {-vp.x, -vp.y, ow, oh};
        if (!SDL_IntersectRect(&a, &t, &a)) return (SDL_Rect){0, 0, 0, 0};
    }
    return a;
}
