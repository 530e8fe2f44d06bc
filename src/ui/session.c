/* session.c - the play window's lifetime and its idle-friendly loop (see
 * session.h and ui.h). */
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/say.h"
#include "../io/recent.h"
#include "../io/recover.h"
#include "../platform/platform.h"
#include "stop.h"
#include "ui.h"

/* Window points -> drawable pixels, for high-DPI displays. */
static double dpi_ratio(SDL_Window *win, SDL_Renderer *r, int *dw, int *dh)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(win, &ww, &wh);
    if (SDL_GetRendererOutputSize(r, dw, dh) != 0) {
        *dw = ww;
        *dh = wh;
    }
    return ww > 0 ? (double)*dw / ww : 1.0;
}

void ui_next_free(ui_next_t *n)
{
    save_free(n->save);
    tmpl_db_destroy(n->db);
    map_destroy(n->map);
    memset(n, 0, sizeof *n);
}

/* Open the picker: in a play-test (allow_maps false) only the saves. */
static void open_menu(smenu_t *menu, const pui_t *play, bool allow_maps)
{
    if (!allow_maps) {
        smenu_scan(menu, play->save_path, play->autosave_dir, play->map_path);
        return;
    }
    recent_t recent;
    char file[RECENT_PATH_MAX], maps[SAVE_PATH_MAX];
    if (recent_file(file, sizeof file))
        recent_load(file, &recent);
    else
        memset(&recent, 0, sizeof recent);
    ui_bundled_maps_dir(maps, sizeof maps);
    smenu_scan_picker(menu, &recent, play->save_path, play->autosave_dir, play->map_path, maps);
}

/* Load what entry e names into *next; false (the status line says why) when it will not. */
static bool load_pick(const smenu_entry_t *e, pui_t *play, ui_next_t *next)
{
    char msg[sizeof play->msg];
    int rc = HB_OK;
    if (e->kind == SMENU_SAVE)
        rc = smenu_try_load(e->path, &next->save, msg, sizeof msg);
    else if (e->kind == SMENU_MAP)
        rc = smenu_try_load_map(e->path, &next->map, &next->db, msg, sizeof msg);
    else
        next->new_map = true;
    if (rc != HB_OK) {
        snprintf(play->msg, sizeof play->msg, "%s", msg);
        ui_next_free(next);
        return false;
    }
    hb_strlcpy(next->path, e->path, sizeof next->path);
    return true;
}

/* Ctrl+O opens the picker; while it is open it takes the input. A pick that
 * loads (a save is rebuilt, a map checked) is handed out through s->next
 * after the battle on screen has been autosaved, and the window closes so
 * the caller reopens it with the choice; anything that fails leaves the
 * battle on screen as it was. */
static bool menu_event(ui_session_t *s, const SDL_Event *e)
{
    ui_state_t *st = &s->st;
    smenu_t *menu = &s->menu;
    pui_t *play = s->play;
    if (!menu->open) {
        if (e->type != SDL_KEYDOWN || e->key.keysym.sym != SDLK_o ||
            !(e->key.keysym.mod & KMOD_CTRL))
            return false;
        if (play->replay)
            snprintf(play->msg, sizeof play->msg, "A replay cannot open another battle.");
        else
            open_menu(menu, play, s->allow_maps);
        st->dirty = true;
        return true;
    }
    int got = SMENU_NONE;
    bool offer = menu->recovery, resume = menu->resume;
    switch (e->type) {
    case SDL_KEYDOWN:
        got = smenu_key(menu, e->key.keysym.sym);
        break;
    case SDL_MOUSEBUTTONDOWN:
        got = smenu_click(menu, (int)lround(e->button.x * st->px_per_pt),
                          (int)lround(e->button.y * st->px_per_pt));
        break;
    case SDL_QUIT:
    case SDL_WINDOWEVENT:
        return false; /* the window still closes, resizes and repaints */
    default:
        return true; /* the map under the menu takes no input */
    }
    st->dirty = true;
    if (got == SMENU_CLOSE && offer)
        snprintf(play->msg, sizeof play->msg,
                 "A new battle. The interrupted one is kept: Ctrl+O lists it.");
    if (got == SMENU_CLOSE && resume)
        snprintf(play->msg, sizeof play->msg,
                 "A new battle. The saved one stays in its file until Ctrl+S saves over it; "
                 "Ctrl+O lists it.");
    if (got < 0) return true;
    menu->open = false;
    ui_next_free(&s->next);
    if (!load_pick(&menu->e[got], play, &s->next)) return true;
    if (offer && s->next.save) {
        /* The copy becomes the newest autosave; Ctrl+S goes on saving to
         * the battle's own file. */
        char err[HB_ERR_MAX];
        if (recover_adopt(s->next.path, s->next.save->file, sizeof s->next.save->file, err,
                          sizeof err) != HB_OK) {
            snprintf(play->msg, sizeof play->msg, "Not restored: %.180s", err);
            ui_next_free(&s->next);
            return true;
        }
        hb_strlcpy(s->next.path, play->save_path, sizeof s->next.path);
        st->quit = true;
        return true;
    }
    if (play->autosave_dir[0] && !resume) { /* a battle not begun is not worth a slot */
        save_table_t t = {.has_rng = true, .rng = play->rng, .phys_sides = play->phys_sides};
        char err[HB_ERR_MAX];
        if (save_autosave(play->autosave_dir, &play->play, &t, play->map_path, err, sizeof err) !=
            HB_OK) {
            snprintf(play->msg, sizeof play->msg,
                     "Not opened: the battle on screen could not be autosaved first: %.120s", err);
            ui_next_free(&s->next);
            return true;
        }
    }
    st->quit = true;
    return true;
}

/* A stop signal: the battle (not a replay, which is a file already) goes to
 * its recovery copy before the window closes. */
static void keep_battle(const pui_t *play)
{
    if (play->replay) return;
    char rpath[SAVE_PATH_MAX], err[HB_ERR_MAX];
    const char *file = play->save_path[0] ? play->save_path : NULL;
    save_table_t t = {.has_rng = true, .rng = play->rng, .phys_sides = play->phys_sides};
    if (recover_write_battle_any(file, &play->play, &t, play->map_path, rpath, sizeof rpath, err,
                                 sizeof err) != HB_OK)
        hb_eprintf("hexbattle: stopped; the battle could not be kept: %s\n", err);
    else
        hb_eprintf("hexbattle: stopped; the battle is kept in %s\n", rpath);
}

/* Windows ends the session (log-off, shutdown) before the loop came round:
 * keep the battle now (ui_stop_watch). */
static void last_words(void *ctx)
{
    const ui_session_t *s = ctx;
    if (s->play && s->play->started) keep_battle(s->play);
    if (s->also_keep) s->also_keep(s->also_ctx);
}

/* Remember a map or save the referee opened, for the picker; a failure
 * only costs the list an entry. */
static void remember(const char *path)
{
    char file[RECENT_PATH_MAX], err[HB_ERR_MAX];
    if (path && *path && recent_file(file, sizeof file)) recent_add(file, path, err, sizeof err);
}

void ui_session_event(ui_session_t *s, const SDL_Event *e)
{
    ui_state_t *st = &s->st;
    int disp = SDL_GetWindowDisplayIndex(s->win);
    bool closed = false;
    if (!st->ask_quit && menu_event(s, e))
        ;
    else if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_F12 && ui_draw_has_art(s->d)) {
        /* A map with its own pictures: the terrain colours over them, or not
         * (the projector's table follows). */
        bool on = !ui_draw_terrain_overlay(s->d);
        ui_draw_set_terrain_overlay(s->d, on);
        if (s->proj.d) ui_draw_set_terrain_overlay(s->proj.d, on);
        snprintf(s->play->msg, sizeof s->play->msg, "Terrain colours %s (F12).",
                 on ? "over the map's pictures" : "off: the map's own pictures");
        st->dirty = true;
    }
    else if (!st->ask_quit && ui_share_event(&s->share, e, s->play, s->ren))
        st->dirty = true;
    else if (!st->ask_quit && ui_projector_route(&s->proj, e, SDL_GetWindowID(s->win),
                                                 disp < 0 ? 0 : disp, &closed))
        st->dirty = true;
    else
        ui_handle_event(st, e);
    if (closed) ui_close_asked(st); /* the play window's close button, projector open */
    if (st->toggle_fullscreen) {
        st->toggle_fullscreen = false;
        ui_toggle_fullscreen(s->win);
        st->resized = true;
    }
    if (s->proj.msg[0]) {
        snprintf(s->play->msg, sizeof s->play->msg, "%s", s->proj.msg);
        s->proj.msg[0] = '\0';
        st->dirty = true;
    }
    if (s->share.msg[0]) {
        snprintf(s->play->msg, sizeof s->play->msg, "%s", s->share.msg);
        s->share.msg[0] = '\0';
        st->dirty = true;
    }
}

bool ui_session_open(ui_session_t *s, const ui_session_args_t *a, char *err, size_t errcap)
{
    memset(s, 0, sizeof *s);
    ui_projector_init(&s->proj, a->map);
    s->animating = true;
    s->allow_maps = a->allow_maps;
    s->also_keep = a->also_keep;
    s->also_ctx = a->also_ctx;
    const map_t *m = a->map;
    char title[MAP_NAME_MAX + 32];
    snprintf(title, sizeof title, "hexbattle - %s", m->name[0] ? m->name : "untitled");

    int w = a->w, h = a->h;
    if (w <= 0 || h <= 0) ui_window_size_for(0, 1280, 800, &w, &h);
    s->opened = true; /* from here on, close frees what was made */
    s->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!s->win) {
        snprintf(err, errcap, "cannot open a window: %s", SDL_GetError());
        goto fail;
    }
    SDL_SetWindowMinimumSize(s->win, 320, 240);
    ui_stop_watch(s->win, last_words, s);
    s->ren = SDL_CreateRenderer(s->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!s->ren) s->ren = SDL_CreateRenderer(s->win, -1, SDL_RENDERER_SOFTWARE);
    if (!s->ren) {
        snprintf(err, errcap, "cannot create a renderer: %s", SDL_GetError());
        goto fail;
    }
    s->d = ui_draw_create(s->ren, m, err, errcap);
    if (!s->d) goto fail;

    s->ratio = dpi_ratio(s->win, s->ren, &s->dw, &s->dh);
    ui_state_t *st = &s->st;
    ui_state_init(st, m, s->dw, s->dh);
    st->px_per_pt = s->ratio;

    pui_t *play = s->play = malloc(sizeof *s->play);
    if (!play ||
        (a->save ? pui_start_save(play, a->save, a->replay) : pui_start(play, m, a->db, a->seed)) !=
            BATTLE_OK) {
        snprintf(err, errcap, "%s", play ? play->msg : "out of memory");
        if (play) pui_free(play);
        free(play);
        s->play = NULL;
        goto fail;
    }
    /* Ctrl+S writes the save being resumed, else NAME.battle.json beside the
     * map; every turn start rotates an autosave (docs/saves.md). */
    if (a->save) {
        hb_strlcpy(play->save_path, a->save_path ? a->save_path : "", sizeof play->save_path);
    } else if (a->map_path) {
        /* Recorded in saves whole: a save resumed from elsewhere, or after a
         * change of folder, still finds the map's pictures
         * (save_adopt_pictures). */
        if (hb_fs_absolute(a->map_path, play->map_path, sizeof play->map_path) != 0)
            hb_strlcpy(play->map_path, a->map_path, sizeof play->map_path);
        size_t n = strlen(a->map_path);
        if (n > 5 && strcmp(a->map_path + n - 5, ".json") == 0) n -= 5;
        int k = snprintf(play->save_path, sizeof play->save_path, "%.*s.battle.json", (int)n,
                         a->map_path);
        if (k < 0 || (size_t)k >= sizeof play->save_path) play->save_path[0] = '\0';
    }
    if (!save_autosave_dir(play->autosave_dir, sizeof play->autosave_dir))
        play->autosave_dir[0] = '\0';
    if (a->allow_maps && !a->replay) remember(a->save ? a->save_path : a->map_path);
    if (!hud_init(&s->hud, play)) {
        snprintf(err, errcap, "out of memory");
        goto fail;
    }
    st->hud = &s->hud;
    /* Built from the map this session owns, never the battle's working copy:
     * every rebuild (undo, a die typed in) frees and remakes that one. */
    s->overlay = ui_overlay_create(a->map);
    if (s->overlay) ui_overlay_use_db(s->overlay, a->db ? a->db : play->db);
    st->overlay = s->overlay; /* none on OOM: the window still plays */
    hud_layout(&s->hud.lay, s->dw, s->dh, s->ratio);
    st->area = s->hud.lay.map;
    ui_state_fit(st);

    /* A battle stopped by a signal is offered back at the start of play. */
    char rpath[SAVE_PATH_MAX], why[HB_ERR_MAX];
    int found = !a->save && !a->replay && play->save_path[0]
                    ? recover_find(play->save_path, rpath, sizeof rpath, why, sizeof why)
                    : 0;
    if (found > 0) smenu_offer(&s->menu, rpath);
    else if (!a->save && !a->replay && play->save_path[0] && a->allow_maps)
        smenu_offer_resume(&s->menu, play->save_path); /* only when the file is there */
    if (found < 0) { /* there, but it cannot come back: say so */
        hb_eprintf("hexbattle: a recovery copy cannot be read: %s\n", why);
        snprintf(play->msg, sizeof play->msg, "recovery copy not usable: %.170s", why);
    }
    s->proj.beside = s->win; /* F2 opens the table beside this window, without the keyboard */
    /* A map read with a warning (a tile naming no terrain, a picture that
     * could not be drawn) says so on the status line. */
    const char *warn = m->art && m->art->warn[0] ? m->art->warn : ui_draw_art_warning(s->d);
    if (warn) snprintf(play->msg, sizeof play->msg, "%.190s", warn);
    if (a->project) {
        int disp = SDL_GetWindowDisplayIndex(s->win);
        if (!ui_projector_open(&s->proj, -1, disp < 0 ? 0 : disp, err, errcap)) goto fail;
        snprintf(play->msg, sizeof play->msg, "%.140s F2 closes it; Ctrl+R/L/K steer it.",
                 s->proj.msg);
        s->proj.msg[0] = '\0';
    }
    return true;
fail:
    ui_session_close(s);
    return false;
}

void ui_session_frame(ui_session_t *s, double dt)
{
    ui_state_t *st = &s->st;
    pui_t *play = s->play;
    if (st->resized) {
        s->ratio = dpi_ratio(s->win, s->ren, &s->dw, &s->dh);
        ui_state_resize(st, s->dw, s->dh, s->ratio); /* lays the panels out again too */
        st->resized = false;
    }
    /* The players' pages: served without waiting (nothing when not sharing). */
    st->dirty |= ui_share_frame(&s->share);
    bool was_animating = s->animating;
    s->animating = pui_tick(play, dt > 0.1 ? 0.1 : dt);
    pui_autosave(play); /* at each turn start; a failure shows on the status line */
    /* The odds panel's runs go on in worker threads; a frame only reads them. */
    st->dirty |= ui_odds_frame(&s->hud.odds, play);
    /* The frame after the last moving one shows the settled marks. */
    st->dirty |= was_animating && !s->animating;
    if (s->animating && play->follow && play->anim.focus >= 0 && play->anim.focus < play->anim.n) {
        /* Ease the view towards the combatant the story is about. */
        vec2_t want = play->anim.pose[play->anim.focus].world;
        vec2_t mid = ui_cam_to_world(&st->cam, (vec2_t){st->area.x + st->area.w / 2.0,
                                                        st->area.y + st->area.h / 2.0});
        double k = fmin(1.0, dt * 4.0);
        st->cam.x += (want.x - mid.x) * k;
        st->cam.y += (want.y - mid.y) * k;
    }
    if (st->dirty || s->animating) {
        ui_window_draw(s->d, st);
        ui_share_draw(&s->share, s->d,
                      st->area.w > 0 ? st->area : (SDL_Rect){0, 0, s->dw, s->dh}, s->ratio);
        smenu_draw(&s->menu, s->ren, ui_draw_text(s->d), s->dw, s->dh, s->ratio);
        SDL_RenderPresent(s->ren);
        st->dirty = false;
    }
    ui_projector_frame(&s->proj, pui_battle(play), hud_poses(&s->hud), play->anim.fx,
                       play->anim.n_fx, play->anim.focus, s->animating, dt);
}

void ui_session_close(ui_session_t *s)
{
    if (!s->opened) return;
    /* First: a log-off message during what follows must not keep a battle
     * that is being freed (the last words read s->play). */
    ui_stop_unwatch(s->win);
    ui_share_free(&s->share); /* every page's connection closed */
    ui_overlay_destroy(s->overlay);
    ui_projector_free(&s->proj);
    hud_free(&s->hud);
    if (s->play && s->play->started) pui_free(s->play);
    free(s->play);
    ui_draw_destroy(s->d);
    if (s->ren) SDL_DestroyRenderer(s->ren);
    if (s->win) SDL_DestroyWindow(s->win);
    s->overlay = NULL;
    s->play = NULL;
    s->d = NULL;
    s->ren = NULL;
    s->win = NULL;
    s->opened = false;
}

/* The play window, with the projector opened at once when *PROJECT is set.
 * When the referee opens something from the picker, *next gets it (the
 * caller's to run and free) and *project whether the projector was open, so
 * the caller can reopen the window with it. */
static int run_window(const ui_session_args_t *args, bool *project, ui_next_t *next, char *err,
                      size_t errcap)
{
    if (!ui_video_open(err, errcap)) return 1;
    /* The battle: a fixed seed from HEXBATTLE_SEED replays a session exactly. */
    ui_session_args_t a = *args;
    a.project = *project;
    const char *seed_env = getenv("HEXBATTLE_SEED");
    a.seed = seed_env && *seed_env ? strtoull(seed_env, NULL, 10) : (uint64_t)time(NULL);
    ui_session_t s;
    int rc = 1;
    if (ui_session_open(&s, &a, err, errcap)) {
        Uint64 last = SDL_GetTicks64();
        /* HEXBATTLE_QUIT_AFTER_MS=N closes the window N ms after it opened, for
         * scripted runs that look at the windows from outside (tests/cli). */
        const char *quit_env = getenv("HEXBATTLE_QUIT_AFTER_MS");
        long quit_ms = quit_env && *quit_env ? strtol(quit_env, NULL, 10) : 0;
        Uint64 quit_at = quit_ms > 0 ? last + (Uint64)quit_ms : 0;
        while (!ui_session_done(&s)) {
            if (quit_at && SDL_GetTicks64() >= quit_at) break;
            if (ui_stop_signal()) {
                keep_battle(s.play);
                break;
            }
            Uint64 now = SDL_GetTicks64();
            double dt = (now - last) / 1000.0;
            last = now;
            ui_session_frame(&s, dt);
            /* Block until something happens, so an idle window costs no CPU;
             * then drain the queue so a burst of motion makes one frame, not
             * many. While something moves, wake for the next frame. */
            SDL_Event e;
            int wait = s.animating || ui_share_on(&s.share) ? 15 : ui_odds_busy(&s.hud.odds) ? 100 : 250;
            if (!SDL_WaitEventTimeout(&e, wait)) continue;
            ui_session_event(&s, &e);
            while (!ui_session_done(&s) && SDL_PollEvent(&e))
                ui_session_event(&s, &e);
        }
        *project = ui_projector_is_open(&s.proj);
        *next = s.next;
        memset(&s.next, 0, sizeof s.next);
        rc = 0;
    }
    ui_session_close(&s);
    ui_video_close();
    return rc;
}

/* Run the window, and again with each map or saved battle the referee opens
 * from its picker, until the window is closed for good ("New map" ends in
 * the editor). */
static int run_session(const ui_session_args_t *first, char *err, size_t errcap)
{
    /* Video stays up between the windows of one session (a battle opened
     * from the picker, a restored one), so the display is not reconnected. */
    if (!ui_video_open(err, errcap)) return 1;
    ui_next_t next;
    memset(&next, 0, sizeof next);
    bool project = first->project;
    int rc = run_window(first, &project, &next, err, errcap);
    while (rc == 0 && ui_next_any(&next)) {
        ui_next_t now = next;
        memset(&next, 0, sizeof next);
        if (now.new_map) {
            rc = ui_run_edit(NULL, NULL, NULL, err, errcap);
        } else if (now.map) {
            ui_session_args_t a = {.map = now.map, .db = now.db, .map_path = now.path,
                                   .allow_maps = true};
            rc = run_window(&a, &project, &next, err, errcap);
        } else {
            const save_t *sv = now.save;
            ui_session_args_t a = {.map = sv->map,
                                   .db = sv->db,
                                   .map_path = sv->map_file[0] ? sv->map_file : NULL,
                                   .save = sv,
                                   .save_path = now.path,
                                   .allow_maps = true};
            rc = run_window(&a, &project, &next, err, errcap);
        }
        ui_next_free(&now);
    }
    ui_next_free(&next); /* only set when a later window failed to open */
    ui_video_close();
    return rc;
}

int ui_run_window(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap)
{
    ui_session_args_t a = {.map = m, .db = db, .map_path = map_path, .allow_maps = true};
    return run_session(&a, err, errcap);
}

int ui_run_playtest(map_t *m, const tmpl_db_t *db, const char *map_path,
                    void (*keep_edits)(void *ctx), void *ctx, char *err, size_t errcap)
{
    ui_session_args_t a = {
        .map = m, .db = db, .map_path = map_path, .also_keep = keep_edits, .also_ctx = ctx};
    return run_session(&a, err, errcap);
}

int ui_run_project(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap)
{
    ui_session_args_t a = {.map = m, .db = db, .map_path = map_path, .project = true,
                           .allow_maps = true};
    return run_session(&a, err, errcap);
}

int ui_run_saved(const save_t *s, const char *save_path, bool replay, char *err, size_t errcap)
{
    ui_session_args_t a = {.map = s->map,
                           .db = s->db,
                           .map_path = s->map_file[0] ? s->map_file : NULL,
                           .save = s,
                           .save_path = save_path,
                           .replay = replay,
                           .allow_maps = true};
    return run_session(&a, err, errcap);
}
