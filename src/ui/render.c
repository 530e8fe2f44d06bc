/* render.c - headless PNG render of a map (see ui.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "../core/say.h"
#include "../core/scale.h"
#include "../io/fileio.h"
#include "../io/png.h"
#include "draw.h"
#include "fog.h"
#include "overlay.h"
#include "ui.h"

int ui_render_png(const map_t *m, const tmpl_db_t *db, int w, int h, const char *out_png, char *err,
                  size_t errcap)
{
    ui_render_opts_t opts = {.w = w, .h = h};
    return ui_render_png_opts(m, db, &opts, out_png, err, errcap);
}

/* A growing memory buffer behind an SDL_RWops, for encoding a PNG. */
typedef struct {
    unsigned char *buf;
    size_t len, cap;
    bool failed; /* out of memory on some write */
} membuf_t;

static size_t SDLCALL mem_write(SDL_RWops *rw, const void *p, size_t size, size_t num)
{
    membuf_t *m = rw->hidden.unknown.data1;
    if (size == 0 || num == 0) return 0;
    if (num > ((size_t)-1 - m->len) / size) {
        m->failed = true;
        return 0;
    }
    size_t n = size * num;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->len + n)
            cap = cap > ((size_t)-1) / 2 ? m->len + n : cap * 2;
        unsigned char *grown = realloc(m->buf, cap);
        if (!grown) {
            m->failed = true;
            return 0;
        }
        m->buf = grown;
        m->cap = cap;
    }
    memcpy(m->buf + m->len, p, n);
    m->len += n;
    return num;
}

static Sint64 SDLCALL mem_size(SDL_RWops *rw)
{
    return (Sint64)((membuf_t *)rw->hidden.unknown.data1)->len;
}

/* Only "where am I" is asked of a PNG writer's stream. */
static Sint64 SDLCALL mem_seek(SDL_RWops *rw, Sint64 off, int whence)
{
    membuf_t *m = rw->hidden.unknown.data1;
    if ((whence == RW_SEEK_CUR || whence == RW_SEEK_END) && off == 0) return (Sint64)m->len;
    return SDL_SetError("a PNG being encoded cannot seek");
}

static size_t SDLCALL mem_read(SDL_RWops *rw, void *p, size_t size, size_t num)
{
    (void)rw, (void)p, (void)size, (void)num;
    return 0;
}

static int SDLCALL mem_close(SDL_RWops *rw)
{
    SDL_FreeRW(rw);
    return 0;
}

int ui_png_write(SDL_Surface *surf, const char *path, int dpi, char *err, size_t errcap)
{
    membuf_t mem = {0};
    SDL_RWops *rw = SDL_AllocRW();
    if (!rw) {
        snprintf(err, errcap, "%s: cannot write: out of memory", path);
        return 1;
    }
    rw->type = SDL_RWOPS_UNKNOWN;
    rw->size = mem_size;
    rw->seek = mem_seek;
    rw->read = mem_read;
    rw->write = mem_write;
    rw->close = mem_close;
    rw->hidden.unknown.data1 = &mem;
    int enc = IMG_SavePNG_RW(surf, rw, 1);
    int rc = 1;
    if (enc != 0 || mem.failed || mem.len == 0) {
        snprintf(err, errcap, "%s: cannot write: %s", path,
                 mem.failed ? "out of memory" : IMG_GetError());
    } else if (dpi > 0 && !png_set_phys(&mem.buf, &mem.len, png_dpi_to_ppm(dpi))) {
        snprintf(err, errcap, "%s: cannot write: the encoded picture is not a PNG", path);
    } else {
        rc = hb_write_atomic(path, mem.buf, mem.len, false, err, errcap) == HB_OK ? 0 : 1;
    }
    free(mem.buf);
    return rc;
}

/* Are the combatants an overlay is about shown in player view pv? Unknown
 * ids pass here; ui_overlay_add reports them. */
static bool overlay_visible(const map_t *m, const ui_player_view_t *pv, const overlay_spec_t *o)
{
    int a = map_find_combatant(m, o->id);
    if (a >= 0 && a < pv->view.n && pv->view.show[a] == UI_SHOW_NONE) return false;
    if (o->kind == OVERLAY_FLANKING) {
        int t = map_find_combatant(m, o->other);
        if (t >= 0 && t < pv->view.n && pv->view.show[t] == UI_SHOW_NONE) return false;
    }
    return true;
}

int ui_render_png_opts(const map_t *m, const tmpl_db_t *db, const ui_render_opts_t *opts,
                       const char *out_png, char *err, size_t errcap)
{
    int w = opts->w, h = opts->h;
    /* A print scale fixes the picture: the whole map, every hex hex_mm across
     * when printed at dpi, so --size is ignored (docs/projection.md). */
    scale_print_t print = {0};
    if (opts->hex_mm > 0) {
        if (!scale_print_layout(m, opts->hex_mm, opts->dpi, &print)) {
            snprintf(err, errcap, "at %g mm per hex and %d dpi the image would be over %d pixels",
                     opts->hex_mm, opts->dpi, SCALE_MAX_PX);
            return 2;
        }
        w = print.w;
        h = print.h;
    }
    ui_player_view_t pv = {0};
    if (opts->view_faction) {
        int vrc = ui_player_view_make(&pv, m, opts->view_faction, true, err, errcap);
        if (vrc != 0) return vrc;
    }
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        snprintf(err, errcap, "image size %dx%d is out of range", w, h);
        ui_player_view_free(&pv);
        return 1;
    }
    /* A software renderer on a plain surface needs no video driver at all. */
    if (TTF_Init() != 0) {
        snprintf(err, errcap, "cannot start SDL_ttf: %s", TTF_GetError());
        ui_player_view_free(&pv);
        return 1;
    }
    int rc = 1;
    SDL_Renderer *ren = NULL;
    ui_draw_t *d = NULL;
    ui_overlay_t *ov = NULL;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!surf) {
        snprintf(err, errcap, "cannot make a %dx%d image: %s", w, h, SDL_GetError());
        goto done;
    }
    ren = SDL_CreateSoftwareRenderer(surf);
    if (!ren) {
        snprintf(err, errcap, "cannot create a software renderer: %s", SDL_GetError());
        goto done;
    }
    d = ui_draw_create(ren, m, err, errcap);
    if (!d) goto done;
    /* A picture of the map that cannot be drawn: its terrain colours, said once. */
    if (ui_draw_art_warning(d)) hb_eprintf("hexbattle: %s\n", ui_draw_art_warning(d));
    if (opts->n_overlays) {
        /* Specs are checked before drawing: a bad id is bad input (2). */
        ov = ui_overlay_create(m);
        if (!ov) {
            snprintf(err, errcap, "out of memory");
            goto done;
        }
        ui_overlay_use_db(ov, db);
        for (int k = 0; k < opts->n_overlays; k++) {
            if (opts->view_faction && !overlay_visible(m, &pv, &opts->overlays[k])) {
                /* An overlay about someone the faction cannot see would give
                 * away where that combatant is. */
                snprintf(err, errcap, "overlay %s:%s is about a combatant faction '%s' cannot see",
                         args_overlay_kind_name(opts->overlays[k].kind), opts->overlays[k].id,
                         opts->view_faction);
                rc = 2;
                goto done;
            }
            int orc = ui_overlay_add(ov, db, &opts->overlays[k], err, errcap);
            if (orc != 0) {
                rc = orc;
                goto done;
            }
        }
    }

    ui_camera_t cam = ui_cam_for_image(m, w, h);
    if (opts->hex_mm > 0) cam = (ui_camera_t){print.x, print.y, print.zoom};
    ui_frame_opts_t fo = {.view = opts->view_faction ? &pv.view : NULL};
    ui_draw_map(d, m, &cam, w, h, &fo);
    if (ov) ui_overlay_draw(ov, ren, ui_draw_text(d), &cam, w, h, true, true);
    SDL_RenderPresent(ren);

    /* The picture is encoded in memory and written by the one checked
     * writer, so a full disk or a failed close is noticed and never leaves
     * an empty or partial file under the real name. */
    if (ui_png_write(surf, out_png, opts->hex_mm > 0 ? opts->dpi : 0, err, errcap) != 0) goto done;
    rc = 0;
done:
    ui_overlay_destroy(ov);
    ui_player_view_free(&pv);
    ui_draw_destroy(d);
    if (ren) SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    TTF_Quit();
    return rc;
}
