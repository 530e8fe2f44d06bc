/* test_ui_layout.c - the layout check (issue 34): every bundled map drawn in
 * the play window, the editor and the projector at 800x600, 1280x720 and
 * 1920x1080, each text recorded as it is drawn (ui_text_record). It fails
 * when a text is clipped (outside the window or outside the clip its panel
 * set), when a label on the map covers a token other than its own, or when
 * two texts cover each other. A token's own initials and condition markers
 * sit on it by design and are only checked against the window. The play
 * frames are written under build/ to look at (test_ui_layout_*.png). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/editor.h"
#include "ui/hud.h"
#include "ui/projector.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define REC_MAX 4096
#define SLACK 1 /* pixels two boxes may share (antialiased edges) */

static ui_text_rec_t rec[REC_MAX];
static int problems;

static const int SIZES[3][2] = {{800, 600}, {1280, 720}, {1920, 1080}};

static bool inside(SDL_Rect a, SDL_Rect b)
{
    return a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
}

/* a and b share more than SLACK pixels each way. */
static bool cover(SDL_Rect a, SDL_Rect b)
{
    int w = (a.x + a.w < b.x + b.w ? a.x + a.w : b.x + b.w) - (a.x > b.x ? a.x : b.x);
    int h = (a.y + a.h < b.y + b.h ? a.y + a.h : b.y + b.h) - (a.y > b.y ? a.y : b.y);
    return w > SLACK && h > SLACK;
}

static void problem(const char *where, const char *fmt, const char *a, const char *b)
{
    if (problems < 40) {
        printf("# %s: ", where);
        printf(fmt, a, b);
        printf("\n");
    }
    problems++;
}

/* The n texts recorded for a w x h frame; tokens[0..nt) the token boxes. */
static void check_texts(const char *where, int n, int w, int h, const SDL_Rect *tokens, int nt)
{
    if (n > REC_MAX) fail_msg("%s: %d texts, more than the check holds", where, n);
    SDL_Rect win = {0, 0, w, h};
    for (int i = 0; i < n; i++) {
        const ui_text_rec_t *a = &rec[i];
        /* A token the view's edge cuts (the map goes on past it) may have
         * its own marks cut with it. */
        bool edge_token = false;
        for (int t = 0; t < nt && a->kind == UI_TEXT_MARK; t++)
            edge_token |= tokens[t].w > 0 && cover(a->at, tokens[t]) && !inside(tokens[t], win);
        if (!inside(a->at, win) && !edge_token)
            problem(where, "'%s' is cut by the window%s", a->s, "");
        if (a->clip.w > 0 && !inside(a->at, a->clip))
            problem(where, "'%s' is cut by its panel%s", a->s, "");
        if (a->kind == UI_TEXT_MARK) continue;
        if (a->kind == UI_TEXT_LABEL)
            for (int t = 0; t < nt; t++)
                if (tokens[t].w > 0 && cover(a->at, tokens[t]) && !inside(tokens[t], a->at))
                    problem(where, "the label '%s' covers a token%s", a->s, "");
        for (int j = i + 1; j < n; j++) {
            const ui_text_rec_t *b = &rec[j];
            if (b->kind == UI_TEXT_MARK || !cover(a->at, b->at)) continue;
            problem(where, "'%s' and '%s' cover each other", a->s, b->s);
        }
    }
}

/* Every token drawn whole shows its mark (initials or number): a text of
 * kind MARK inside its box. Tokens with an image of their own are left out. */
static void check_marks(const char *where, int n, const map_t *m, const SDL_Rect *tokens, int nt,
                        int w, int h)
{
    SDL_Rect win = {0, 0, w, h};
    for (int t = 0; t < nt; t++) {
        if (tokens[t].w <= 0 || !inside(tokens[t], win) || m->combatants[t].token[0]) continue;
        bool shown = false;
        for (int i = 0; i < n && !shown; i++) {
            int cx = rec[i].at.x + rec[i].at.w / 2, cy = rec[i].at.y + rec[i].at.h / 2;
            shown = rec[i].kind == UI_TEXT_MARK && cx >= tokens[t].x &&
                    cx < tokens[t].x + tokens[t].w && cy >= tokens[t].y &&
                    cy < tokens[t].y + tokens[t].h;
        }
        if (!shown) problem(where, "%s's token shows no initials%s", m->combatants[t].name, "");
    }
}

/* Every action button shows what its action is about whole (issue 34,
 * item 10): the part of its label after "Kind: " (activation's
 * "Telegraph: Long Shot (delay 2)" names its weapon and delay), or the
 * whole label, in the texts drawn on it, never cut to "...". */
static void check_buttons(const char *where, int n, const hud_t *h)
{
    const pui_t *p = h->p;
    for (int i = 0; i < p->n_bar; i++) {
        SDL_Rect br = hud_button_rect(h, i);
        if (br.x + br.w > h->lay.bar.x + h->lay.bar.w) continue; /* not drawn: no room */
        char shown[256] = "";
        size_t at = 0;
        for (int k = 0; k < n && at < sizeof shown; k++) {
            int cx = rec[k].at.x + rec[k].at.w / 2, cy = rec[k].at.y + rec[k].at.h / 2;
            if (cx >= br.x && cx < br.x + br.w && cy >= br.y && cy < br.y + br.h)
                at += (size_t)snprintf(shown + at, sizeof shown - at, "%s ", rec[k].s);
        }
        const char *label = p->bar[i].label, *colon = strstr(label, ": ");
        const char *about = colon ? colon + 2 : label;
        if (!strstr(shown, about)) problem(where, "button '%s' shows only '%s'", label, shown);
    }
}

/* The token boxes the last frame of d drew. */
static int token_boxes(const ui_draw_t *d, int n, SDL_Rect *out)
{
    for (int i = 0; i < n; i++) {
        ui_token_drawn_t t;
        out[i] = ui_draw_token_drawn(d, i, &t) ? t.token : (SDL_Rect){0, 0, 0, 0};
    }
    return n;
}

static void play_frame(const map_t *m, const tmpl_db_t *db, const char *name, int w, int h)
{
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 1), BATTLE_OK);
    pui_run_ai(p, 200);
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, w, h);
    const battle_t *b = pui_battle(p);
    int who = p->actor >= 0 ? p->actor : 0;
    fx_hover_cell(&st, hex_to_cell(m->layout, b->board->pos[who]));
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    anim_snap(&p->anim);
    ui_text_record(ui_draw_text(d), rec, REC_MAX);
    ui_window_draw(d, &st);
    int n = ui_text_recorded(ui_draw_text(d));
    ui_text_record(ui_draw_text(d), NULL, 0);
    char where[200], png[240];
    snprintf(where, sizeof where, "play %s %dx%d", name, w, h);
    snprintf(png, sizeof png, "test_ui_layout_play_%s_%dx%d.png", name, w, h);
    IMG_SavePNG(surf, png);
    static SDL_Rect tokens[MAP_MAX_COMBATANTS];
    int nt = token_boxes(d, b->n, tokens);
    check_texts(where, n, w, h, tokens, nt);
    check_marks(where, n, m, tokens, nt, w, h);
    check_buttons(where, n, &hud);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    hud_free(&hud);
    pui_free(p);
    free(p);
}

static void editor_frame(const map_t *m0, const tmpl_db_t *db, const char *name, int w, int h)
{
    map_t *m = map_clone(m0);
    assert_non_null(m);
    ed_state_t s;
    ed_init(&s, m, db, NULL, w, h);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    ui_text_record(ui_draw_text(d), rec, REC_MAX);
    ed_draw(d, &s);
    int n = ui_text_recorded(ui_draw_text(d));
    ui_text_record(ui_draw_text(d), NULL, 0);
    char where[200];
    snprintf(where, sizeof where, "editor %s %dx%d", name, w, h);
    static SDL_Rect tokens[MAP_MAX_COMBATANTS];
    int nt = token_boxes(d, m->n_combatants, tokens);
    check_texts(where, n, w, h, tokens, nt);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    ed_free(&s);
    map_destroy(m);
}

static void projector_frame(const map_t *m, const tmpl_db_t *db, const char *name, int w, int h)
{
    play_t play;
    battle_opts_t bo = {.seed = 1};
    assert_int_equal(play_start(&play, m, db, NULL, &bo), BATTLE_OK);
    ui_projector_t p;
    ui_projector_init(&p, m);
    char err[HB_ERR_MAX] = "";
    if (!ui_projector_open(&p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    SDL_SetWindowSize(p.win, w, h);
    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, false, 0.0); /* the canvas fits the size */
    ui_projector_start_view(&p, play.b);
    p.dirty = true;
    ui_text_record(ui_draw_text(p.d), rec, REC_MAX);
    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, false, 0.0);
    int n = ui_text_recorded(ui_draw_text(p.d));
    ui_text_record(ui_draw_text(p.d), NULL, 0);
    char where[200];
    snprintf(where, sizeof where, "projector %s %dx%d", name, w, h);
    static SDL_Rect tokens[MAP_MAX_COMBATANTS];
    int nt = token_boxes(p.d, play.b->n, tokens);
    check_texts(where, n, p.tw, p.th, tokens, nt);
    check_marks(where, n, m, tokens, nt, p.tw, p.th);
    ui_projector_free(&p);
    play_end(&play);
}

static void test_every_map_every_window_every_size(void **state)
{
    (void)state;
    char dir[512], data[512], path[1024], err[512], cfg[] = "/tmp/hb_test_layout_XXXXXX";
    assert_non_null(mkdtemp(cfg));
    setenv("XDG_CONFIG_HOME", cfg, 1);
    snprintf(dir, sizeof dir, "%s/../../maps", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int maps = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
        for (int k = 0; k < 3; k++) {
            play_frame(m, db, name, SIZES[k][0], SIZES[k][1]);
            editor_frame(m, db, name, SIZES[k][0], SIZES[k][1]);
            projector_frame(m, db, name, SIZES[k][0], SIZES[k][1]);
        }
        tmpl_db_destroy(db);
        map_destroy(m);
        maps++;
    }
    closedir(dp);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf %s", cfg);
    (void)system(rm);
    assert_true(maps >= 6);
    if (problems) fail_msg("%d layout problems (the first 40 above)", problems);
}

/* Below HUD_FOLD_W the side panels fold away and the map takes the width;
 * Ctrl+1 and Ctrl+2 (SDL key events through the window's handler) bring
 * each back and fold it again; at 1280 they show from the start. */
static void test_panels_fold_on_a_small_window(void **state)
{
    (void)state;
    char path[1024], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/relay_outpost.json", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 1), BATTLE_OK);
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, 800, 600);
    assert_int_equal(hud.lay.tracker.w, 0);
    assert_int_equal(hud.lay.log.w, 0);
    assert_int_equal(hud.lay.map.w, 800);
    double zoom = st.cam.zoom;
    fx_key(&st, SDLK_1, KMOD_LCTRL);
    assert_true(hud.lay.tracker.w > 0);
    assert_int_equal(hud.lay.map.x, hud.lay.tracker.w);
    assert_int_equal(st.area.w, hud.lay.map.w);
    fx_key(&st, SDLK_2, KMOD_LCTRL);
    assert_true(hud.lay.log.w > 0);
    assert_true(hud.lay.map.w < 800);
    assert_true(st.cam.zoom < zoom); /* the map fitted again into less room */
    fx_key(&st, SDLK_1, KMOD_LCTRL);
    fx_key(&st, SDLK_2, KMOD_LCTRL);
    assert_int_equal(hud.lay.map.w, 800);
    /* At 1280 wide both show from the start. */
    hud_t wide;
    assert_true(hud_init(&wide, p));
    ui_state_t st2;
    fx_state_fit(&st2, &wide, m, 1280, 720);
    assert_true(wide.lay.tracker.w > 0 && wide.lay.log.w > 0);
    hud_free(&wide);
    hud_free(&hud);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* A combatant with many conditions: in the tracker at 1280x720 they wrap
 * onto lines of their own, never cut by the panel, every one of them read. */
static void test_tracker_conditions_never_cut(void **state)
{
    (void)state;
    char path[1024], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/ridge_ambush.json", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 1), BATTLE_OK);
    pui_run_ai(p, 200);
    battle_t *b = p->play.b;
    const char *names[] = {"grappled", "prone", "frightened", "restrained", "poisoned",
                           "blinded"};
    for (int k = 0; k < 6; k++) {
        event_t e = event_make(EV_CONDITION);
        e.who = 0;
        e.on = true;
        hb_strlcpy(e.name, names[k], sizeof e.name);
        assert_true(event_push(&b->log, &e));
    }
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, 1280, 720);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1280, 720, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    anim_snap(&p->anim);
    ui_text_record(ui_draw_text(d), rec, REC_MAX);
    ui_window_draw(d, &st);
    int n = ui_text_recorded(ui_draw_text(d));
    ui_text_record(ui_draw_text(d), NULL, 0);
    IMG_SavePNG(surf, "test_ui_layout_conditions.png");
    problems = 0;
    static SDL_Rect tokens[MAP_MAX_COMBATANTS];
    int nt = token_boxes(d, b->n, tokens);
    check_texts("conditions 1280x720", n, 1280, 720, tokens, nt);
    assert_int_equal(problems, 0);
    for (int k = 0; k < 6; k++) {
        bool read = false;
        for (int i = 0; i < n && !read; i++)
            read = strstr(rec[i].s, names[k]) && SDL_HasIntersection(&rec[i].at, &hud.lay.tracker);
        if (!read) fail_msg("'%s' is not read in the tracker", names[k]);
    }
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    hud_free(&hud);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_map_every_window_every_size, fx_video_up, fx_video_down),
        cmocka_unit_test_setup_teardown(test_panels_fold_on_a_small_window, fx_video_up, fx_video_down),
        cmocka_unit_test_setup_teardown(test_tracker_conditions_never_cut, fx_video_up, fx_video_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
