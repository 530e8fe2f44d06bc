/* test_ui_bar_refused.c - an action the rules refuse for now stays on the
 * action bar, greyed, with the rules' reason (ruleset_t.refused): at the
 * relay outpost (surface), once Ilse Marr has moved her Arc Beam (a ranged
 * weapon without Assault) may not fire this turn; its button must say so
 * instead of vanishing, its key must only tell why, and nothing is given.
 * The frame is saved to look at (test_ui_bar_refused.png).
 */
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
#include "rules/ruleset.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1400
#define VIEW_H 900

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
} fx_t;

static void fx_open(fx_t *f, const char *name, uint64_t seed)
{
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s.json", HB_TEST_DATA, name);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    if (map_load(path, data, &f->m, &f->db, err, sizeof err) != 0) fail_msg("%s: %s", path, err);
    f->p = calloc(1, sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, seed), BATTLE_OK);
}

static void fx_close(fx_t *f)
{
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    tmpl_db_destroy(f->db);
}

/* The bar entry whose label is `label`, -1 when none. */
static int bar_find(const pui_t *p, const char *label)
{
    for (int i = 0; i < p->n_bar; i++)
        if (strcmp(p->bar[i].label, label) == 0) return i;
    return -1;
}

/* Does rectangle r of s hold pixels of colour c? */
static bool has_colour(SDL_Surface *s, SDL_Rect r, SDL_Color c)
{
    uint32_t want = SDL_MapRGB(s->format, c.r, c.g, c.b) & 0xFFFFFFu;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            if (x < 0 || y < 0 || x >= s->w || y >= s->h) continue;
            uint32_t px = ((uint32_t *)((uint8_t *)s->pixels + y * s->pitch))[x];
            if ((px & 0xFFFFFFu) == want) return true;
        }
    return false;
}

static void test_beam_after_move_greyed(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    battle_t *b = p->play.b;
    int ilse = map_find_combatant(b->map, "tech");
    assert_true(ilse >= 0);
    /* Her faction acts in any order: a click on her token makes her the actor. */
    assert_true(pui_may_pick(p, ilse));
    assert_true(pui_click_cell(p, hex_to_cell(b->map->layout, b->board->pos[ilse])));
    assert_int_equal(p->actor, ilse);
    int beam = bar_find(p, "Attack: Arc Beam");
    if (beam >= 0) assert_false(p->bar[beam].off); /* unmoved: legal, or not shown */

    /* One hex of walking: click the nearest shaded hex. */
    assert_true(p->n_reach > 1);
    cell_t to = {-1, -1};
    hex_t at = b->board->pos[ilse];
    for (int k = 0; k < p->n_reach; k++) {
        hex_t h = hex_from_cell(b->map->layout, p->reach[k].at);
        if (hex_distance(h, at) == 1) {
            to = p->reach[k].at;
            break;
        }
    }
    assert_true(to.col >= 0);
    assert_true(pui_hover_cell(p, to, true) || p->n_path >= 2);
    assert_true(pui_click_cell(p, to));
    assert_int_equal(p->actor, ilse);
    assert_true(hex_eq(b->board->pos[ilse], hex_from_cell(b->map->layout, to)));
    assert_true(p->user_turn);

    /* The beam may not fire after a move: greyed, with the rules' reason. */
    beam = bar_find(p, "Attack: Arc Beam");
    assert_true(beam >= 0);
    assert_true(p->bar[beam].off);
    assert_non_null(strstr(p->bar[beam].why, "after a move"));
    for (int k = 0; k < p->n_legal; k++)
        assert_false(p->legal[k].kind == CMD_ENGAGE && p->legal[k].weapon == p->bar[beam].weapon);
    /* The ruleset says so through its hook, never through a legal command. */
    refusal_t no[8];
    int n_no = ruleset_refused(p->play.rs, b, ilse, no, 8);
    assert_true(n_no >= 1);

    /* Its key only tells why: no targeting, no command given. */
    int cmds = b->cmds.n;
    assert_true(pui_key(p, (SDL_Keycode)p->bar[beam].key, 0));
    assert_int_equal(p->mode, PUI_IDLE);
    assert_int_equal(p->play.b->cmds.n, cmds);
    assert_non_null(strstr(p->msg, "Arc Beam"));
    assert_non_null(strstr(p->msg, "after a move"));

    /* Drawn greyed, and the hovered button's tooltip gives the reason. */
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    SDL_FreeSurface(fx_play_surface(p, &h, VIEW_W, VIEW_H, NULL, &st));
    SDL_Rect br = hud_button_rect(&h, beam);
    st.hud = &h;
    fx_motion(&st, br.x + br.w / 2, br.y + br.h / 2);
    assert_int_equal(h.hover_btn, beam);
    SDL_Surface *s = fx_play_surface(p, &h, VIEW_W, VIEW_H, "test_ui_bar_refused.png", NULL);
    SDL_Rect inside = {br.x + 1, br.y + 1, br.w - 2, br.h - 2};
    assert_true(has_colour(s, inside, (SDL_Color){40, 42, 48, 255}));
    SDL_FreeSurface(s);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beam_after_move_greyed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
