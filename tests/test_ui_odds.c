/* test_ui_odds.c - the odds panel of the play window (ui/odds_panel.h): O
 * opens it; the frame only reads what the worker threads have counted, and
 * once they are done the panel holds exactly the odds of the battle as it
 * stands; a command starts the count afresh from the new state; a chosen
 * attack or move shows "what if" (a bad move a clear loss, the AI's own
 * choice none); the panel is drawn in the play window (frames saved to /tmp
 * to look at) and closing it stops the runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/odds_panel.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

static pui_t *open_map(const char *path, map_t **m, tmpl_db_t **db, uint64_t seed)
{
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    assert_int_equal(map_load(path, data, m, db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, *m, *db, seed), BATTLE_OK);
    return p;
}

static void close_map(pui_t *p, map_t *m, tmpl_db_t *db)
{
    pui_free(p);
    free(p);
    map_destroy(m);
    free(db);
}

/* Frames until the panel's runs are all counted (a few ms apart, as a
 * window's frames would be); how many frames that took. */
static int frames_until_done(ui_odds_t *o, pui_t *p)
{
    int frames = 0;
    for (;;) {
        ui_odds_frame(o, p);
        frames++;
        if (!ui_odds_busy(o)) return frames;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
        assert_true(frames < 200000); /* about 15 minutes: something is stuck */
    }
}

static bool same_tally(const odds_tally_t *x, const odds_tally_t *y)
{
    if (x->runs != y->runs || x->failed != y->failed || x->none != y->none ||
        x->rounds_sum != y->rounds_sum || x->rounds_sq != y->rounds_sq)
        return false;
    for (int s = 0; s < MAP_MAX_FACTIONS; s++)
        if (x->win[s] != y->win[s] || x->base_win[s] != y->base_win[s] ||
            x->diff_sum[s] != y->diff_sum[s] || x->diff_sq[s] != y->diff_sq[s])
            return false;
    for (int i = 0; i < x->n; i++)
        if (x->out[i] != y->out[i]) return false;
    return true;
}

/* The duel (tests/data/good/odds_duel.json) at dren's first turn. */
static pui_t *duel(map_t **m, tmpl_db_t **db)
{
    pui_t *p = open_map(HB_TEST_DATA "/good/odds_duel.json", m, db, 4);
    pui_run_ai(p, 50);
    assert_true(p->user_turn);
    assert_string_equal((*m)->combatants[p->actor].id, "dren");
    return p;
}

static void test_panel_counts_the_battle_as_it_stands(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    pui_t *p = duel(&m, &db);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t s;
    ui_state_init(&s, m, VIEW_W, VIEW_H);
    SDL_Event e = fx_key_event(SDLK_o);
    assert_true(hud_pre_event(&h, &s, &e));
    assert_true(h.odds.open);
    assert_non_null(h.odds.pool);
    int frames = frames_until_done(&h.odds, p);
    /* Counted on the workers while the frames went on. */
    assert_true(frames > 1);
    assert_true(h.odds.base.done);
    assert_int_equal(h.odds.base.tally.runs, UI_ODDS_RUNS);
    odds_base_t base = odds_base_of(&p->play);
    odds_progress_t want;
    assert_true(odds_run_all(&base, NULL, UI_ODDS_SEED, UI_ODDS_RUNS, 1, &want));
    assert_true(same_tally(&h.odds.base.tally, &want.tally));

    /* A command: the count starts again from the new state. */
    uint64_t before = h.odds.base_sig;
    assert_true(pui_end_turn(p));
    pui_run_ai(p, 50);
    ui_odds_frame(&h.odds, p);
    assert_true(h.odds.base_sig != before);
    frames_until_done(&h.odds, p);
    base = odds_base_of(&p->play);
    assert_true(odds_run_all(&base, NULL, UI_ODDS_SEED, UI_ODDS_RUNS, 2, &want));
    assert_true(same_tally(&h.odds.base.tally, &want.tally));

    /* O again closes it, and the runs stop. */
    assert_true(hud_pre_event(&h, &s, &e));
    assert_false(h.odds.open);
    assert_false(ui_odds_busy(&h.odds));
    assert_false(ui_odds_frame(&h.odds, p));
    hud_free(&h);
    close_map(p, m, db);
}

/* The bar button for an engage with weapon w, or -1. */
static int engage_button(const pui_t *p, int w)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == CMD_ENGAGE && p->bar[i].weapon == w && p->bar[i].group == PUI_GROUP_NONE)
            return i;
    return -1;
}

static void test_what_if_good_and_bad(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    pui_t *p = duel(&m, &db);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t s;
    ui_state_init(&s, m, VIEW_W, VIEW_H);
    SDL_Event o = fx_key_event(SDLK_o);
    assert_true(hud_pre_event(&h, &s, &o));
    int dren = p->actor, side = p->play.b->board->side[dren];
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);

    /* Nothing chosen: no "what if". */
    ui_odds_frame(&h.odds, p);
    assert_false(h.odds.have_alt);

    /* The maul on the boss, chosen and waiting for Enter: a "what if". */
    int b = engage_button(p, 0);
    assert_true(b >= 0);
    assert_true(pui_choose(p, b));
    assert_int_equal(p->mode, PUI_CONFIRM);
    cmd_t strike;
    assert_true(pui_preview_cmd(p, &strike));
    assert_int_equal(strike.kind, CMD_ENGAGE);
    frames_until_done(&h.odds, p);
    assert_true(h.odds.have_alt);
    assert_true(h.odds.what_if.done);
    assert_non_null(strstr(h.odds.alt_label, "engage"));
    double hw_good, good = odds_diff(&h.odds.what_if.tally, side, &hw_good);
    fx_play_frame(p, &h, VIEW_W, VIEW_H, "/tmp/hexbattle_odds_strike.png");

    /* Cancelled: the "what if" goes. */
    assert_true(pui_cancel(p));
    ui_odds_frame(&h.odds, p);
    assert_false(h.odds.have_alt);

    /* A walk away from the boss, previewed: a clear loss for dren's side. */
    p->sel = dren;
    cell_t far = {1, 3};
    assert_true(pui_hover_cell(p, far, true));
    cmd_t walk;
    assert_true(pui_preview_cmd(p, &walk));
    assert_int_equal(walk.kind, CMD_MOVE);
    frames_until_done(&h.odds, p);
    assert_true(h.odds.have_alt);
    assert_int_equal(h.odds.what_if.first_failure, -1);
    double hw_bad, bad = odds_diff(&h.odds.what_if.tally, side, &hw_bad);
    fx_play_frame(p, &h, VIEW_W, VIEW_H, "/tmp/hexbattle_odds_walk.png");
    assert_true(bad + hw_bad < 0.0);
    assert_true(good - bad > hw_good + hw_bad);
    /* The numbers are the paired runs' own. */
    odds_base_t base = odds_base_of(&p->play);
    odds_progress_t want;
    assert_true(odds_run_all(&base, &walk, UI_ODDS_SEED, UI_ODDS_WHATIF, 1, &want));
    assert_true(same_tally(&h.odds.what_if.tally, &want.tally));
    printf("what if: strike %+.3f +- %.3f, walk away %+.3f +- %.3f\n", good, hw_good, bad, hw_bad);

    /* The panel is drawn over the map: the frame differs where it stands. */
    SDL_Surface *open = IMG_Load("/tmp/hexbattle_odds_walk.png");
    assert_non_null(open);
    assert_true(hud_pre_event(&h, &s, &o)); /* closed */
    fx_play_frame(p, &h, VIEW_W, VIEW_H, "/tmp/hexbattle_odds_closed.png");
    SDL_Surface *closed = IMG_Load("/tmp/hexbattle_odds_closed.png");
    assert_non_null(closed);
    SDL_Rect box = {h.lay.map.x + h.lay.map.w * 2 / 3, h.lay.map.y + h.lay.map.h * 3 / 4,
                    h.lay.map.w / 3 - 2 * h.lay.px, h.lay.map.h / 4 - 2 * h.lay.px};
    int differ = 0;
    for (int y = box.y; y < box.y + box.h; y += 2)
        for (int x = box.x; x < box.x + box.w; x += 2) {
            Uint32 a, c;
            memcpy(&a, (Uint8 *)open->pixels + y * open->pitch + x * 4, 4);
            memcpy(&c, (Uint8 *)closed->pixels + y * closed->pitch + x * 4, 4);
            differ += a != c;
        }
    assert_true(differ > box.w * box.h / 16);
    SDL_FreeSurface(open);
    SDL_FreeSurface(closed);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    close_map(p, m, db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_panel_counts_the_battle_as_it_stands),
        cmocka_unit_test(test_what_if_good_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
