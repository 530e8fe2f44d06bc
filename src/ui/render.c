/* render.c - headless PNG render of a map (see ui.h). */
#include <stdio.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "../core/scale.h"
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
    if (opts->n_overlays) {
        /* Specs are checked before drawing: a bad id is bad input (2). */
        ov = ui_overlay_create(m);
        if (!ov) {
            snprintf(err, errcap, "out of memory");
            goto done;
        }
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
    if (ov) ui_overlay_draw(ov, ren, ui_draw_text(d), &cam, w, h, true);
    SDL_RenderPresent(ren);

    /* Write beside the target and rename over it, so a failed or interrupted
     * render never leaves half a picture under the real name. */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out_png) >= (int)sizeof tmp) {
        snprintf(err, errcap, "%s: path too long", out_png);
        goto done;
    }
    if (IMG_SavePNG(surf, tmp) != 0) {
        snprintf(err, errcap, "%s: cannot write: %s", tmp, IMG_GetError());
        remove(tmp);
        goto done;
    }
    if (rename(tmp, out_png) != 0) {
        snprintf(err, errcap, "%s: cannot rename into place", out_png);
        remove(tmp);
        goto done;
    }
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
