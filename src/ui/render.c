/* render.c - headless PNG render of a map (see ui.h). */
#include <stdio.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "draw.h"
#include "ui.h"

int ui_render_png(const map_t *m, const tmpl_db_t *db, int w, int h, const char *out_png, char *err,
                  size_t errcap)
{
    ui_render_opts_t opts = {.w = w, .h = h};
    return ui_render_png_opts(m, db, &opts, out_png, err, errcap);
}

int ui_render_png_opts(const map_t *m, const tmpl_db_t *db, const ui_render_opts_t *opts,
                       const char *out_png, char *err, size_t errcap)
{
    (void)db;
    int w = opts->w, h = opts->h;
    if (opts->n_overlays || opts->view_faction || opts->hex_mm > 0) {
        /* Drawn by the play-screen and projection work, which has not landed. */
        snprintf(err, errcap, "%s is not available in this version yet",
                 opts->n_overlays ? "--overlay" : opts->view_faction ? "--view" : "--hex-mm/--dpi");
        return 1;
    }
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        snprintf(err, errcap, "image size %dx%d is out of range", w, h);
        return 1;
    }
    /* A software renderer on a plain surface needs no video driver at all. */
    if (TTF_Init() != 0) {
        snprintf(err, errcap, "cannot start SDL_ttf: %s", TTF_GetError());
        return 1;
    }
    int rc = 1;
    SDL_Renderer *ren = NULL;
    ui_draw_t *d = NULL;
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

    ui_camera_t cam = ui_cam_for_image(m, w, h);
    ui_draw_map(d, m, &cam, w, h, NULL);
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
    ui_draw_destroy(d);
    if (ren) SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    TTF_Quit();
    return rc;
}
