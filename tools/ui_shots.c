/* ui_shots.c - screenshots of the play window, for looking at by eye
 * (issue 17 item 7): the window a referee gets (src/ui/session.c), drawn by
 * SDL's software renderer under the dummy video driver and read back.
 *
 *   ui_shots OUTDIR MAP|SAVE...
 *
 * For each map, at 1280x720 and at 1920x1080, four PNGs OUTDIR/NAME-WxH-K.png
 * once the AI has played up to the first turn taken at the table:
 *   a  reach (F5), the ruler (Ctrl+M) from the actor to the nearest foe, and
 *      the foe's card (the cursor on it);
 *   b  threat (F6) and flanking (F7), the cursor on the nearest foe;
 *   c  weapon range (F8) and line of sight (F9), the cursor on the nearest foe;
 *   d  the keys (F1).
 * Nothing is saved but the PNGs (no autosave, no recent list). Exit status 2
 * for bad input or a failed window, 0 otherwise. `make shots` writes them
 * under build/shots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_image.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "io/save.h"
#include "ui/session.h"

static void key(ui_session_t *s, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ui_session_event(s, &e);
}

/* The cursor onto cell c (and a left click there when click is set). */
static void point_at(ui_session_t *s, cell_t c, bool click)
{
    vec2_t p = ui_cam_to_screen(&s->st.cam, ui_cell_center(s->st.map, c));
    int x = (int)(p.x / s->ratio), y = (int)(p.y / s->ratio);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    ui_session_event(s, &e);
    if (!click) return;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = x;
    e.button.y = y;
    ui_session_event(s, &e);
    e.type = SDL_MOUSEBUTTONUP;
    ui_session_event(s, &e);
}

/* Draw the window as it stands into the PNG at path. */
static bool shoot(ui_session_t *s, const char *path)
{
    ui_session_frame(s, 0.0);
    anim_snap(&s->play->anim);
    s->st.dirty = true;
    ui_window_draw(s->d, &s->st);
    SDL_Surface *surf =
        SDL_CreateRGBSurfaceWithFormat(0, s->dw, s->dh, 32, SDL_PIXELFORMAT_ARGB8888);
    bool ok = surf && SDL_RenderReadPixels(s->ren, NULL, SDL_PIXELFORMAT_ARGB8888, surf->pixels,
                                           surf->pitch) == 0 &&
              IMG_SavePNG(surf, path) == 0;
    if (!ok) fprintf(stderr, "ui_shots: %s: %s\n", path, SDL_GetError());
    SDL_FreeSurface(surf);
    SDL_RenderPresent(s->ren);
    return ok;
}

/* The foe nearest to the actor (else to combatant 0), or -1. */
static int nearest_foe(const battle_t *b, int actor)
{
    int best = -1, best_d = 1 << 30;
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i) || b->board->side[i] == b->board->side[actor]) continue;
        int d = hex_distance(b->board->pos[i], b->board->pos[actor]);
        if (d < best_d) best = i, best_d = d;
    }
    return best;
}

static cell_t cell_of(const battle_t *b, int i)
{
    return hex_to_cell(b->map->layout, b->board->pos[i]);
}

/* The four shots of one map at one size; false when the window failed. */
static bool shots(const map_t *m, const tmpl_db_t *db, const save_t *sv, const char *name, int w,
                  int h, const char *outdir)
{
    ui_session_args_t a = {.map = m, .db = db, .seed = 1, .w = w, .h = h, .save = sv};
    ui_session_t s;
    char err[512];
    if (!ui_session_open(&s, &a, err, sizeof err)) {
        fprintf(stderr, "ui_shots: %s: %s\n", name, err);
        ui_session_close(&s);
        return false;
    }
    s.play->autosave_dir[0] = '\0';
    pui_run_ai(s.play, 2000);
    const battle_t *b = pui_battle(s.play);
    int actor = s.play->actor >= 0 ? s.play->actor : 0;
    int foe = nearest_foe(b, actor);
    cell_t at = cell_of(b, actor), to = foe >= 0 ? cell_of(b, foe) : at;
    char path[1024];
    bool ok = true;

    key(&s, SDLK_F5, 0);
    key(&s, SDLK_m, KMOD_LCTRL);
    point_at(&s, at, true);
    point_at(&s, to, false);
    snprintf(path, sizeof path, "%s/%s-%dx%d-a.png", outdir, name, w, h);
    ok &= shoot(&s, path);

    key(&s, SDLK_ESCAPE, 0); /* the ruler off */
    key(&s, SDLK_F5, 0);
    key(&s, SDLK_F6, 0);
    key(&s, SDLK_F7, 0);
    point_at(&s, to, false);
    snprintf(path, sizeof path, "%s/%s-%dx%d-b.png", outdir, name, w, h);
    ok &= shoot(&s, path);

    key(&s, SDLK_F6, 0);
    key(&s, SDLK_F7, 0);
    key(&s, SDLK_F8, 0);
    key(&s, SDLK_F9, 0);
    point_at(&s, to, false);
    snprintf(path, sizeof path, "%s/%s-%dx%d-c.png", outdir, name, w, h);
    ok &= shoot(&s, path);

    key(&s, SDLK_F1, 0);
    snprintf(path, sizeof path, "%s/%s-%dx%d-d.png", outdir, name, w, h);
    ok &= shoot(&s, path);
    ui_session_close(&s);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ui_shots OUTDIR MAP|SAVE...\n");
        return 2;
    }
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    char err[512];
    if (!ui_video_open(err, sizeof err)) {
        fprintf(stderr, "ui_shots: %s\n", err);
        return 2;
    }
    static const int sizes[][2] = {{1280, 720}, {1920, 1080}};
    int rc = 0;
    for (int k = 2; k < argc; k++) {
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        save_t *sv = NULL;
        char serr[512];
        if (map_load(argv[k], hb_data_dir(), &m, &db, err, sizeof err) != HB_OK) {
            /* A saved battle, drawn as resuming it would draw it. */
            if (save_load(argv[k], NULL, &sv, serr, sizeof serr) != HB_OK) {
                fprintf(stderr, "ui_shots: %s\n", err);
                rc = 2;
                continue;
            }
            save_adopt_pictures(sv, argv[k]);
        }
        /* NAME: the file's name without its folder and .json. */
        const char *base = strrchr(argv[k], '/');
        base = base ? base + 1 : argv[k];
        char name[256];
        snprintf(name, sizeof name, "%s", base);
        char *dot = strrchr(name, '.');
        if (dot) *dot = '\0';
        for (int z = 0; z < 2; z++)
            if (!shots(sv ? sv->map : m, sv ? sv->db : db, sv, name, sizes[z][0], sizes[z][1],
                       argv[1]))
                rc = 2;
        save_free(sv);
        tmpl_db_destroy(db);
        map_destroy(m);
    }
    ui_video_close();
    return rc;
}
