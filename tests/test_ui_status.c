/* test_ui_status.c - a live status line and no silent drops (issue 34, item
 * 9), driven through the play window's event handler with SDL key events:
 * the status line always says the round and whose turn it is; a message
 * from an earlier turn is dropped rather than left standing ("Battle
 * begins" in round 2); E or an action key pressed while the AI's side plays
 * and its moves are still shown says why it waits instead of doing nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

static bool in_rect(const SDL_Rect *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

static void test_status_is_live_and_keys_say_why(void **state)
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
    assert_int_equal(pui_start(p, m, db, 2), BATTLE_OK);
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, 1280, 720);
    char line[512];

    /* The referee's first turn: the round, the actor, and the message. */
    pui_run_ai(p, 200);
    anim_snap(&p->anim);
    assert_true(p->user_turn);
    snprintf(p->msg, sizeof p->msg, "Battle begins.");
    pui_status(p, line, sizeof line);
    assert_non_null(strstr(line, "Round 1"));
    assert_non_null(strstr(line, pui_name(p, p->actor)));
    assert_non_null(strstr(line, "to act"));
    assert_non_null(strstr(line, "Battle begins"));

    /* Turns go by (each side's end, the AI's moves): whenever the referee
     * acts again the line names that actor, and never a message from an
     * earlier turn. */
    int said_why = 0, rounds = 0;
    for (int guard = 0; guard < 400 && pui_battle(p)->round < 3 && !pui_battle(p)->over; guard++) {
        if (p->user_turn) {
            fx_key(&st, SDLK_e, 0); /* E through the window's handler */
            pui_status(p, line, sizeof line);
            continue;
        }
        /* The AI's side plays: its first move is shown, and E now waits. */
        pui_tick(p, PUI_AI_PAUSE + 0.01);
        if (!p->user_turn && anim_busy(&p->anim)) {
            fx_key(&st, SDLK_e, 0);
            assert_non_null(strstr(p->msg, "not now"));
            assert_non_null(strstr(p->msg, "AI"));
            pui_status(p, line, sizeof line);
            assert_non_null(strstr(line, "(AI)"));
            /* Every other input the referee may try meanwhile says why too:
             * Enter, an action key, a click on the bar, a click on the ground. */
            p->msg[0] = 0;
            fx_key(&st, SDLK_RETURN, 0);
            assert_non_null(strstr(p->msg, "not now"));
            p->msg[0] = 0;
            fx_key(&st, SDLK_1, 0);
            assert_non_null(strstr(p->msg, "not now"));
            p->msg[0] = 0;
            fx_press_rect(&st, hud.lay.bar);
            fx_button(&st, SDL_BUTTON_LEFT, false, hud.lay.bar.x + hud.lay.bar.w / 2,
                      hud.lay.bar.y + hud.lay.bar.h / 2);
            assert_non_null(strstr(p->msg, "not now"));
            cell_t empty = {-1, -1};
            for (int r = 0; r < m->rows && empty.col < 0; r++)
                for (int c = 0; c < m->cols && empty.col < 0; c++) {
                    cell_t cc = {c, r};
                    SDL_Point at = fx_cell_point(&st, cc);
                    if (board_occupant(pui_battle(p)->board, hex_from_cell(m->layout, cc)) < 0 &&
                        in_rect(&hud.lay.map, at.x, at.y))
                        empty = cc;
                }
            assert_true(empty.col >= 0);
            p->msg[0] = 0;
            fx_click_cell(&st, empty, SDL_BUTTON_LEFT);
            assert_non_null(strstr(p->msg, "not now"));
            said_why++;
        }
        anim_snap(&p->anim);
        rounds = pui_battle(p)->round;
    }
    assert_true(rounds >= 2);
    assert_true(said_why > 0);
    pui_status(p, line, sizeof line);
    assert_null(strstr(line, "Battle begins"));
    char want[32];
    snprintf(want, sizeof want, "Round %d", pui_battle(p)->round);
    assert_non_null(strstr(line, want));

    hud_free(&hud);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

#define REC_MAX 2048
static ui_text_rec_t rec[REC_MAX];

/* Texts starting with `what` drawn in the band of ht pixels just above
 * rectangle r. */
static int texts_above(int n, SDL_Rect r, int ht, const char *what)
{
    SDL_Rect band = {r.x, r.y - ht, r.w, ht};
    int k = 0;
    for (int i = 0; i < n; i++)
        k += strncmp(rec[i].s, what, strlen(what)) == 0 && SDL_HasIntersection(&rec[i].at, &band);
    return k;
}

/* A status line cut to fit an 800-wide window shows whole, wrapped just
 * above it, while the cursor is on it; never when it fits, never when the
 * cursor is elsewhere. */
static void test_cut_status_shows_whole_on_hover(void **state)
{
    (void)state;
    fx_game_t g;
    fx_game_open(&g, "ridge_ambush.json", 2, 800, 600);
    pui_t *p = g.p;
    pui_run_ai(p, 200);
    anim_snap(&p->anim);
    assert_true(p->user_turn);
    const hud_layout_t *l = &g.hud.lay;
    int band = 6 * l->line;
    snprintf(p->msg, sizeof p->msg,
             "Kara Voss cannot reach that hex this turn: the ford costs double, the brush "
             "beyond it is all she has left, and the raiders watch the crossing");
    char line[512];
    pui_status(p, line, sizeof line);
    assert_int_equal(strncmp(line, "Round 1", 7), 0);

    /* The cursor over the map: the line is cut, nothing above it. */
    fx_motion(&g.st, l->map.x + l->map.w / 2, l->map.y + l->map.h / 2);
    assert_false(g.hud.hover_status);
    int n = fx_draw_texts(p, &g.st, 800, 600, NULL, rec, REC_MAX);
    assert_int_equal(texts_above(n, l->status, band, "Round 1"), 0);
    int cut = 0;
    for (int i = 0; i < n; i++)
        cut += SDL_HasIntersection(&rec[i].at, &l->status) && strncmp(rec[i].s, "Round 1", 7) == 0;
    assert_int_equal(cut, 1);

    /* On the status line: the whole of it, over more than one line. */
    fx_motion(&g.st, l->status.x + l->status.w / 3, l->status.y + l->status.h / 2);
    assert_true(g.hud.hover_status);
    n = fx_draw_texts(p, &g.st, 800, 600, "test_ui_status_tip.png", rec, REC_MAX);
    assert_int_equal(texts_above(n, l->status, band, "Round 1"), 1);
    /* Its lines are pieces of the whole status, one under the other. */
    int tip_lines = 0;
    SDL_Rect above = {l->status.x, l->status.y - band, l->status.w, band};
    for (int i = 0; i < n; i++)
        tip_lines += SDL_HasIntersection(&rec[i].at, &above) && strlen(rec[i].s) > 8 &&
                     strstr(line, rec[i].s) != NULL;
    assert_true(tip_lines >= 2);

    /* A message that fits: no tooltip, cursor on the line or not. */
    snprintf(p->msg, sizeof p->msg, "Ready.");
    n = fx_draw_texts(p, &g.st, 800, 600, NULL, rec, REC_MAX);
    assert_int_equal(texts_above(n, l->status, band, "Round 1"), 0);
    fx_game_close(&g);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_is_live_and_keys_say_why),
        cmocka_unit_test(test_cut_status_shows_whole_on_hover),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
