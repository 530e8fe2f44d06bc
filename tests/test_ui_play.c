/* test_ui_play.c - the play screen driven by synthetic SDL events under the
 * dummy video driver: select, move, target, confirm, end turn, undo, physical
 * dice, help; the odds arithmetic; the animation player; and one rendered
 * frame of a bundled battle. */
#include <math.h>
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
#include "rules/predict.h"
#include "rules/xhalem.h"
#include "rules_fixture.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

/* kara (players) against grunt (raiders) on open ground; kara's Evasion makes
 * her first whatever the initiative dice say. */
typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t st;
    int kara, grunt;
} ui_fx_t;

static int setup(void **state)
{
    ui_fx_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->m = fx_map(12, 7, "xhalem", NULL);
    f->db = fx_db("xhalem");
    fx_weapon(f->db, "blade", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    f->kara = fx_add(f->m, "kara", "players", 1, 3, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "blade",
                     "agility=3,evasion=30,strength=1");
    f->grunt = fx_add(f->m, "grunt", "raiders", 6, 3, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "blade",
                      "agility=0,evasion=-10");
    f->p = malloc(sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, 42), BATTLE_OK);
    assert_true(hud_init(&f->hud, f->p));
    fx_state_fit(&f->st, &f->hud, f->m, VIEW_W, VIEW_H);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    ui_fx_t *f = *state;
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    free(f->db);
    free(f);
    return 0;
}

static hex_t pos_of(const ui_fx_t *f, int i)
{
    return pui_battle(f->p)->board->pos[i];
}
static hex_t hex_at(const ui_fx_t *f, int col, int row)
{
    return hex_from_cell(f->m->layout, (cell_t){col, row});
}

/* Move the mouse over a cell and left-click it, as SDL would report it. */
static void click_cell(ui_fx_t *f, int col, int row)
{
    fx_click_cell(&f->st, (cell_t){col, row}, SDL_BUTTON_LEFT);
}

static void click_at(ui_fx_t *f, SDL_Rect r)
{
    fx_press_rect(&f->st, r);
}

static void key(ui_fx_t *f, SDL_Keycode k, Uint16 mod)
{
    fx_key(&f->st, k, mod);
}

static int bar_index(const pui_t *p, cmd_kind_t kind)
{
    int found = -1;
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == kind && (found < 0 || p->bar[i].weapon > p->bar[found].weapon))
            found = i; /* engage: a weapon in hand rather than fists */
    return found;
}

static int count_events(const battle_t *b, ev_type_t t, int who)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++)
        n += b->log.ev[k].type == t && (who < 0 || b->log.ev[k].who == who);
    return n;
}

/* Is button a the one for legal command c (every field but target and cell)? */
static bool button_gives(const pui_action_t *a, const cmd_t *c)
{
    return a->group == PUI_GROUP_NONE && a->kind == c->kind && a->act == c->act &&
           a->weapon == c->weapon && a->weapon2 == c->weapon2 && a->arg == c->arg &&
           a->targeted == (c->target >= 0);
}

static void check_keys_unique(const pui_t *p)
{
    for (int k = 0; k < p->n_bar; k++) {
        assert_true(p->bar[k].key != 0);
        for (int j = 0; j < k; j++)
            assert_true(p->bar[j].key != p->bar[k].key);
    }
}

/* The sub-bar on screen is exactly group g's legal commands (with trigger
 * arg, for a standby trigger's level; -1: any). */
static void check_level(const pui_t *p, const cmd_t *legal, int n, pui_group_t g, int arg)
{
    check_keys_unique(p);
    for (int i = 0; i < n; i++) {
        if (pui_group_of(&legal[i]) != g || (arg >= 0 && legal[i].arg != arg)) continue;
        bool found = false;
        for (int j = 0; j < p->n_bar; j++)
            found |= button_gives(&p->bar[j], &legal[i]);
        if (!found) fail_msg("legal %s (arg %d) has no button", cmd_kind_name(legal[i].kind), legal[i].arg);
    }
    for (int j = 0; j < p->n_bar; j++) {
        bool found = false;
        for (int i = 0; i < n; i++)
            found |= pui_group_of(&legal[i]) == g && (arg < 0 || legal[i].arg == arg) &&
                     button_gives(&p->bar[j], &legal[i]);
        assert_true(found);
    }
}

/* The standby sub-bar: one button per trigger that has a legal standby, each
 * opening exactly that trigger's holds; Esc comes back to the triggers. */
static void check_triggers(ui_fx_t *f, const cmd_t *legal, int n)
{
    pui_t *p = f->p;
    check_keys_unique(p);
    int n_trig = p->n_bar;
    pui_action_t trig[PUI_MAX_BAR];
    memcpy(trig, p->bar, sizeof trig);
    for (int t = 0; t < XT_COUNT; t++) {
        bool any = false, shown = false;
        for (int i = 0; i < n; i++)
            any |= legal[i].kind == CMD_STANDBY && legal[i].arg == t;
        for (int k = 0; k < n_trig; k++)
            shown |= trig[k].group == PUI_GROUP_STANDBY && trig[k].arg == t;
        assert_int_equal(any, shown);
    }
    for (int k = 0; k < n_trig; k++) {
        assert_int_equal(trig[k].group, PUI_GROUP_STANDBY);
        key(f, (SDL_Keycode)trig[k].key, 0);
        assert_int_equal(p->sub, PUI_GROUP_STANDBY);
        assert_int_equal(p->sub_arg, trig[k].arg);
        check_level(p, legal, n, PUI_GROUP_STANDBY, trig[k].arg);
        key(f, SDLK_ESCAPE, 0);
        assert_int_equal(p->sub_arg, -1);
        assert_int_equal(p->n_bar, n_trig);
    }
}

/* The bar on screen against the rules' legal list: every legal command has
 * its button (in its group's sub-bar when grouped) and every button stands
 * for legal commands. Opens each group by its key and comes back with Esc. */
static void check_bar_is_the_legal_list(ui_fx_t *f)
{
    pui_t *p = f->p;
    static cmd_t legal[PUI_MAX_LEGAL];
    int n = p->play.rs->legal(p->play.b, p->actor, legal, PUI_MAX_LEGAL);
    assert_true(n > 0 && n <= PUI_MAX_LEGAL);
    assert_int_equal(p->sub, PUI_GROUP_NONE);
    check_keys_unique(p);
    for (int i = 0; i < n; i++) {
        bool found = false;
        pui_group_t g = pui_group_of(&legal[i]);
        for (int k = 0; k < p->n_bar; k++)
            found |= g != PUI_GROUP_NONE ? p->bar[k].group == g : button_gives(&p->bar[k], &legal[i]);
        if (!found) fail_msg("legal %s (arg %d) has no button", cmd_kind_name(legal[i].kind), legal[i].arg);
    }
    for (int k = 0; k < p->n_bar; k++) {
        bool found = false;
        for (int i = 0; i < n; i++)
            found |= p->bar[k].group != PUI_GROUP_NONE ? pui_group_of(&legal[i]) == p->bar[k].group
                                                      : button_gives(&p->bar[k], &legal[i]);
        assert_true(found);
    }
    int n_main = p->n_bar;
    pui_action_t main_bar[PUI_MAX_BAR];
    memcpy(main_bar, p->bar, sizeof main_bar);
    for (int k = 0; k < n_main; k++) {
        pui_group_t g = main_bar[k].group;
        if (g == PUI_GROUP_NONE) continue;
        key(f, (SDL_Keycode)main_bar[k].key, 0);
        assert_int_equal(p->sub, g);
        if (g == PUI_GROUP_STANDBY)
            check_triggers(f, legal, n);
        else
            check_level(p, legal, n, g, -1);
        key(f, SDLK_ESCAPE, 0);
        assert_int_equal(p->sub, PUI_GROUP_NONE);
        assert_int_equal(p->n_bar, n_main);
    }
}

/* The button of group g on the main bar, or -1. */
static int group_index(const pui_t *p, pui_group_t g)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].group == g) return i;
    return -1;
}

/* ---- tests -------------------------------------------------------------- */

static void test_start_shows_exactly_the_legal_actions(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    assert_int_equal(p->actor, f->kara);
    assert_true(p->user_turn);
    assert_int_equal(p->sel, f->kara);
    /* The bar is the legal list, nothing more and nothing less, each
     * variant in its group's sub-bar; every button has its own key. */
    check_bar_is_the_legal_list(f);
    assert_int_equal(bar_index(p, CMD_ENGAGE), -1); /* grunt is out of reach */
    assert_true(bar_index(p, CMD_END) >= 0);
    /* 30 ft on open 5-ft hexes: six hexes of ring reach, never its own hex. */
    assert_true(p->n_reach > 0);
    for (int i = 0; i < p->n_reach; i++) {
        assert_true(p->reach[i].cost_ft <= 30);
        assert_false(p->reach[i].at.col == 1 && p->reach[i].at.row == 3);
    }
}

static void test_select_then_move_by_click(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 6, 3); /* the enemy token: selects it */
    assert_int_equal(p->sel, f->grunt);
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 1, 3)));
    click_cell(f, 1, 3); /* back to kara */
    assert_int_equal(p->sel, f->kara);
    /* Hovering a reachable hex previews the path and its cost. */
    fx_hover_cell(&f->st, (cell_t){4, 3});
    assert_int_equal(p->n_path, 4);
    assert_int_equal(p->path_cost, 15);
    assert_true(p->path_ok);
    int steps = count_events(pui_battle(p), EV_MOVE_STEP, f->kara);
    click_cell(f, 4, 3);
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 4, 3)));
    assert_int_equal(count_events(pui_battle(p), EV_MOVE_STEP, f->kara), steps + 3);
    /* The budget shrank by what was spent. */
    assert_int_equal(p->budget_ft, 15);
}

static void test_target_confirm_attack(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 5, 3); /* next to grunt */
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 5, 3)));
    int a = bar_index(p, CMD_ENGAGE);
    assert_true(a >= 0);
    key(f, (SDL_Keycode)p->bar[a].key, 0);
    /* One possible target: straight to the odds. */
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, f->grunt);
    assert_true(p->pred.valid);
    /* d20+3 against d20-10 with a creature's naturals. */
    double want = predict_d20_beats(1, 0, 3, 1, 0, -10, true);
    assert_true(fabs(p->pred.p_hit - want) < 1e-9);
    assert_true(fabs(p->pred.p_hit - 17.95 / 20) < 1e-12); /* only a 1 to 7 can fail */
    /* Mean damage of what is in hand, plus Strength 1. */
    const weapon_t *w = battle_weapon(pui_battle(p), f->kara, p->bar[a].weapon);
    double mean = w ? (w->dice_n * (w->dice_sides + 1)) / 2.0 + w->dice_bonus : 2.5;
    assert_true(fabs(p->pred.dmg_hit - (mean + 1)) < 1e-9);
    assert_true(fabs(p->pred.dmg_expected - p->pred.p_hit * (mean + 1)) < 1e-9);
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, f->kara), 0);
    key(f, SDLK_RETURN, 0);
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, f->kara), 1);
    assert_int_equal(p->mode, PUI_IDLE);
    /* The action is spent: no attack on the bar any more. */
    assert_int_equal(bar_index(p, CMD_ENGAGE), -1);
}

/* The confirm step as a referee sees it: saved to a PNG to look at, and the
 * target's orange ring must be on screen around the target. */
static void test_confirm_frame(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    map_t *bm = pui_battle(p)->map; /* the battle draws its own copy of the map */
    for (int i = 0; i < bm->n_types; i++)
        bm->types[i].color = i == 1 ? 0x505058u : 0x7a9a5au; /* walls grey, the rest grass */
    click_cell(f, 5, 3);
    int a = bar_index(p, CMD_ENGAGE);
    key(f, (SDL_Keycode)p->bar[a].key, 0);
    assert_int_equal(p->mode, PUI_CONFIRM);
    anim_snap(&p->anim);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf =
        SDL_CreateRGBSurfaceWithFormat(0, VIEW_W, VIEW_H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, pui_battle(p)->map, err, sizeof err);
    assert_non_null(d);
    ui_window_draw(d, &f->st);
    SDL_RenderPresent(r);
    assert_int_equal(IMG_SavePNG(surf, "test_ui_play_confirm.png"), 0);
    vec2_t c = ui_cam_to_screen(&f->st.cam, ui_cell_center(f->m, (cell_t){6, 3}));
    double rr = f->st.cam.zoom * 0.95; /* between the ring's radii */
    int found = 0;
    for (int k = 0; k < 16; k++) {
        double ang = k * 3.14159265 / 8;
        int x = (int)lround(c.x + cos(ang) * rr), y = (int)lround(c.y + sin(ang) * rr);
        Uint8 pr, pg, pb;
        SDL_GetRGB(((Uint32 *)surf->pixels)[y * (surf->pitch / 4) + x], surf->format, &pr, &pg,
                   &pb);
        found += pr > 200 && pg > 130 && pg < 190 && pb < 40;
    }
    assert_true(found >= 12);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
    SDL_Quit();
}

static void test_escape_cancels_targeting_without_quitting(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 5, 3);
    int a = bar_index(p, CMD_ENGAGE);
    assert_true(a >= 0);
    click_at(f, hud_button_rect(&f->hud, a)); /* the button, by mouse */
    assert_int_equal(p->mode, PUI_CONFIRM);
    key(f, SDLK_ESCAPE, 0);
    assert_int_equal(p->mode, PUI_IDLE);
    assert_false(f->st.quit);
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, -1), 0);
}

static void test_end_turn_then_ai_plays(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    int ends = pui_battle(p)->cmds.n;
    key(f, SDLK_e, 0);
    assert_int_equal(pui_battle(p)->cmds.n, ends + 1);
    assert_int_equal(pui_battle(p)->cmds.c[ends].kind, CMD_END);
    assert_int_equal(p->actor, f->grunt);
    assert_false(p->user_turn);
    /* The AI takes its turn: it comes back to kara in round 2 (or ends it). */
    pui_run_ai(p, 100);
    const battle_t *b = pui_battle(p);
    assert_true(b->over || (p->actor == f->kara && b->round == 2));
    assert_true(b->cmds.n > ends + 1);
    assert_int_not_equal(b->cmds.c[b->cmds.n - 1].actor, f->kara);
    /* The AI closed in: grunt is nearer than the 5 hexes it started at. */
    assert_true(hex_distance(pos_of(f, f->grunt), pos_of(f, f->kara)) < 5 || b->over);
}

static void test_undo_rebuilds_without_the_command(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 3, 3);
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 3, 3)));
    assert_int_equal(pui_battle(p)->cmds.n, 1);
    key(f, SDLK_z, KMOD_LCTRL);
    assert_int_equal(pui_battle(p)->cmds.n, 0);
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 1, 3)));
    assert_int_equal(count_events(pui_battle(p), EV_MOVE_STEP, -1), 0);
    assert_int_equal(p->budget_ft, 30);
    /* Undo after the AI replied takes back the AI's commands too. */
    key(f, SDLK_e, 0);
    pui_run_ai(p, 100);
    assert_true(pui_battle(p)->cmds.n >= 2);
    key(f, SDLK_BACKSPACE, 0);
    assert_int_equal(pui_battle(p)->cmds.n, 0);
    assert_int_equal(p->actor, f->kara);
    assert_int_equal(pui_battle(p)->round, 1);
}

static const event_t *last_roll(const battle_t *b, int who, const char *why)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == EV_ROLL && b->log.ev[k].who == who &&
            strcmp(b->log.ev[k].name, why) == 0)
            return &b->log.ev[k];
    return NULL;
}

static void test_physical_dice_typed_and_clicked(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 5, 3);
    key(f, SDLK_p, 0); /* kara's side rolls at the table from now on */
    assert_true(p->phys_sides != 0);
    int a = bar_index(p, CMD_ENGAGE);
    key(f, (SDL_Keycode)p->bar[a].key, 0);
    key(f, SDLK_RETURN, 0);
    /* The engine stops for kara's engagement die and says so. */
    assert_true(pui_needs_die(p));
    char prompt[256];
    pui_die_prompt(p, prompt, sizeof prompt);
    assert_non_null(strstr(prompt, "kara"));
    assert_non_null(strstr(prompt, "engage"));
    assert_non_null(strstr(prompt, "1d20"));
    assert_non_null(strstr(prompt, "+3")); /* kara's Agility, from the rules */
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, -1), 0);
    key(f, SDLK_1, 0);
    key(f, SDLK_5, 0);
    assert_string_equal(p->entry, "15");
    key(f, SDLK_RETURN, 0);
    /* 18 beats d20-10 always: a hit, so kara's damage die is asked next (the
     * command's events appear once all its dice are in). */
    assert_true(pui_needs_die(p));
    assert_string_equal(pui_battle(p)->need.why, "damage");
    pui_die_prompt(p, prompt, sizeof prompt);
    assert_non_null(strstr(prompt, "damage"));
    assert_non_null(strstr(prompt, "+1")); /* Strength 1 on the weapon dice */
    int sides = pui_battle(p)->need.sides;
    assert_true(sides >= 3);
    /* A face that is not on the die is refused; then click face 3. */
    assert_false(pui_enter_die(p, sides + 1));
    assert_true(pui_needs_die(p));
    click_at(f, hud_face_rect(&f->hud, 3));
    assert_false(pui_needs_die(p));
    const event_t *r = last_roll(pui_battle(p), f->kara, "engage");
    assert_non_null(r);
    assert_int_equal(r->dice[0], 15);
    assert_int_equal(r->total, 18);
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, -1), 1);
    r = last_roll(pui_battle(p), f->kara, "damage");
    assert_non_null(r);
    assert_int_equal(r->dice[0], 3);
    int dealt = r->total;
    assert_true(dealt >= 3);
    assert_int_equal(pui_battle(p)->u[f->grunt].hp, 12 - dealt);
    /* Undo keeps the history exact: taking back the end of turn replays the
     * typed dice, so the hit stays; taking back the attack removes it. */
    key(f, SDLK_e, 0);
    assert_int_equal(p->actor, f->grunt);
    key(f, SDLK_BACKSPACE, 0);
    assert_int_equal(p->actor, f->kara);
    assert_int_equal(pui_battle(p)->u[f->grunt].hp, 12 - dealt);
    r = last_roll(pui_battle(p), f->kara, "engage");
    assert_non_null(r);
    assert_int_equal(r->dice[0], 15);
    key(f, SDLK_BACKSPACE, 0);
    assert_int_equal(pui_battle(p)->u[f->grunt].hp, 12);
    assert_int_equal(count_events(pui_battle(p), EV_ATTACK, -1), 0);
}

/* Shift+F4 puts the reactions of the selected combatant's side to the table,
 * one side at a time (any side), and back; F4 does all the players' sides. */
static void test_ask_per_side(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    battle_t *b = p->play.b;
    assert_int_equal(b->opts.ask_sides, 0u);
    int foe = -1;
    for (int i = 0; i < b->n && foe < 0; i++)
        if (!battle_is_player(b, i)) foe = i;
    assert_true(foe >= 0);
    p->sel = foe;
    key(f, SDLK_F4, KMOD_SHIFT);
    unsigned bit = 1u << b->board->side[foe];
    assert_int_equal(b->opts.ask_sides, bit);
    assert_true(p->ask);
    assert_non_null(strstr(p->msg, b->board->side_name[b->board->side[foe]]));
    key(f, SDLK_F4, KMOD_SHIFT);
    assert_int_equal(b->opts.ask_sides, 0u);
    key(f, SDLK_F4, 0);
    assert_true(p->ask);
    assert_int_equal(b->opts.ask_sides & bit, 0u);
    assert_true(b->opts.ask_sides != 0);
}

static void test_help_toggle(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    assert_false(p->help);
    key(f, SDLK_SLASH, KMOD_LSHIFT);
    assert_true(p->help);
    /* The text event SDL sends after that key press must not close it again. */
    SDL_Event t;
    memset(&t, 0, sizeof t);
    t.type = SDL_TEXTINPUT;
    strcpy(t.text.text, "?");
    ui_handle_event(&f->st, &t);
    assert_true(p->help);
    key(f, SDLK_ESCAPE, 0);
    assert_false(p->help);
    assert_false(f->st.quit);
    key(f, SDLK_QUESTION, 0);
    assert_true(p->help);
    click_cell(f, 3, 3); /* a click closes it and does nothing else */
    assert_false(p->help);
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 1, 3)));
}

static void test_anim_glides_and_snaps(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 3, 3);
    anim_t *a = &p->anim;
    assert_true(anim_busy(a));
    vec2_t start = ui_cell_center(f->m, (cell_t){1, 3}), end = ui_cell_center(f->m, (cell_t){3, 3});
    anim_step(a, 0.07); /* half of the first step */
    double x = a->pose[f->kara].world.x;
    assert_true(x > start.x + 1e-6 && x < end.x - 1e-6);
    /* The true state is already there: the board says kara stands at (3,3). */
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 3, 3)));
    for (int i = 0; i < 100 && anim_busy(a); i++)
        anim_step(a, 0.05);
    assert_false(anim_busy(a));
    assert_true(fabs(a->pose[f->kara].world.x - end.x) < 1e-9);
    /* Space skips ahead at once. */
    click_cell(f, 5, 3);
    assert_true(anim_busy(a));
    key(f, SDLK_SPACE, 0);
    assert_false(anim_busy(a));
    assert_int_equal(a->cursor, pui_battle(p)->log.n);
}

static void test_dice_log_scrolls_with_the_wheel(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    /* Some rolls: kara attacks, then both sides trade a few turns. */
    click_cell(f, 5, 3);
    key(f, (SDL_Keycode)p->bar[bar_index(p, CMD_ENGAGE)].key, 0);
    key(f, SDLK_RETURN, 0);
    key(f, SDLK_e, 0);
    pui_run_ai(p, 50);
    int rolls = 0, lines = 0;
    char text[160];
    for (int k = 0; k < pui_battle(p)->log.n; k++) {
        const event_t *ev = &pui_battle(p)->log.ev[k];
        rolls += ev->type == EV_ROLL;
        hud_log_kind_t kind = hud_log_text(p, ev, text, sizeof text);
        lines += kind != HUD_LOG_NONE;
        /* Every roll is listed as a roll; every listed line says something. */
        assert_int_equal(kind == HUD_LOG_ROLL, ev->type == EV_ROLL);
        assert_int_equal(kind != HUD_LOG_NONE, text[0] != '\0');
        /* Steps and turn bookkeeping are not listed. */
        if (ev->type == EV_MOVE_STEP || ev->type == EV_TURN_START) assert_int_equal(kind, HUD_LOG_NONE);
    }
    assert_true(rolls >= 4);
    assert_true(lines > rolls);
    /* A window below 1280 wide folds the log away: Ctrl+2 brings it back. */
    if (f->hud.lay.log.w == 0) fx_key(&f->st, SDLK_2, KMOD_LCTRL);
    assert_true(f->hud.lay.log.w > 0);
    fx_motion(&f->st, f->hud.lay.log.x + 10, f->hud.lay.log.y + 40); /* over the dice log */
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = 1;
    double zoom = f->st.cam.zoom;
    ui_handle_event(&f->st, &e);
    assert_true(p->log_scroll > 0);
    assert_true(f->st.cam.zoom == zoom); /* the wheel scrolled, it did not zoom */
    for (int i = 0; i < 50; i++)
        ui_handle_event(&f->st, &e);
    assert_int_equal(p->log_scroll, lines - 1); /* never past the oldest line */
    e.wheel.y = -100;
    ui_handle_event(&f->st, &e);
    assert_int_equal(p->log_scroll, 0);
    /* A roll line says who, why, the dice and the total. */
    char line[160];
    const event_t *r = last_roll(pui_battle(p), f->kara, "engage");
    assert_non_null(r);
    hud_roll_text(p, r, line, sizeof line);
    char want[64];
    snprintf(want, sizeof want, "[%d]", r->dice[0]);
    assert_non_null(strstr(line, "kara engage"));
    assert_non_null(strstr(line, want));
    snprintf(want, sizeof want, "= %d", r->total);
    assert_non_null(strstr(line, want));
    /* Between the rolls the log says what they did: kara's attack, its
     * outcome in words, and any damage with the HP left. */
    const battle_t *b = pui_battle(p);
    int found_attack = 0;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *ev = &b->log.ev[k];
        if (ev->type == EV_ATTACK && ev->who == f->kara) {
            hud_log_text(p, ev, line, sizeof line);
            snprintf(want, sizeof want, "%s %s %s", pui_name(p, f->kara),
                     ev->hit ? "hits" : "misses", pui_name(p, ev->target));
            assert_non_null(strstr(line, want));
            found_attack++;
        }
        if (ev->type == EV_DAMAGE) {
            hud_log_text(p, ev, line, sizeof line);
            snprintf(want, sizeof want, "%s takes %d, %d HP left", pui_name(p, ev->target),
                     ev->amount, ev->hp);
            assert_string_equal(line, want);
        }
    }
    assert_true(found_attack > 0);
    /* Actions without dice are listed too: an assist names both sides. */
    event_t as = event_make(EV_ACTION);
    as.who = f->kara;
    as.target = f->kara == 0 ? 1 : 0;
    as.hit = true;
    hb_strlcpy(as.name, "assist", sizeof as.name);
    assert_int_equal(hud_log_text(p, &as, line, sizeof line), HUD_LOG_STORY);
    snprintf(want, sizeof want, "%s assists against %s", pui_name(p, f->kara),
             pui_name(p, as.target));
    assert_string_equal(line, want);
    /* An area attack that singles nobody out names no target (not "hits -"). */
    event_t ar = event_make(EV_ATTACK);
    ar.who = f->kara;
    ar.target = -1;
    ar.hit = true;
    hb_strlcpy(ar.name, "flamer", sizeof ar.name);
    hud_log_text(p, &ar, line, sizeof line);
    snprintf(want, sizeof want, "%s attacks an area (flamer)", pui_name(p, f->kara));
    assert_string_equal(line, want);
}

static void test_layout_keeps_the_map_free(void **state)
{
    (void)state;
    static const int SIZES[][2] = {{1920, 1080}, {1200, 800}, {640, 480}, {320, 240}, {3840, 2160}};
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        int w = SIZES[i][0], h = SIZES[i][1];
        hud_layout_t l;
        hud_layout(&l, w, h, w > 3000 ? 2.0 : 1.0);
        /* Panels and map tile the window without overlapping the map. */
        assert_true(l.map.w >= w / 2);
        assert_true(l.map.h >= h * 2 / 3 - 1);
        assert_int_equal(l.tracker.x + l.tracker.w, l.map.x);
        assert_int_equal(l.map.x + l.map.w, l.log.x);
        assert_int_equal(l.map.y + l.map.h, l.bar.y);
        assert_int_equal(l.bar.y + l.bar.h, l.status.y);
        assert_int_equal(l.status.y + l.status.h, h);
    }
    /* High-DPI: twice the pixels per point gives larger text, not smaller. */
    hud_layout_t a, b;
    hud_layout(&a, 1920, 1080, 1.0);
    hud_layout(&b, 3840, 2160, 2.0);
    assert_true(b.px > a.px);
}

static void test_predict_arithmetic(void **state)
{
    (void)state;
    /* Straight d20 against d20: the attacker wins 190 of 400. */
    assert_true(fabs(predict_d20_beats(1, 0, 0, 1, 0, 0, false) - 190.0 / 400) < 1e-12);
    /* Naturals: a 20 hits even on the defender's 20. */
    assert_true(fabs(predict_d20_beats(1, 0, 0, 1, 0, 0, true) - 191.0 / 400) < 1e-12);
    assert_true(fabs(predict_kept_face(2, 1, 20) - (1 - 0.95 * 0.95)) < 1e-12);
    assert_true(fabs(predict_kept_face(2, -1, 1) - (1 - 0.95 * 0.95)) < 1e-12);
    double sum = 0;
    for (int k = 1; k <= 20; k++)
        sum += predict_kept_face(4, -1, k);
    assert_true(fabs(sum - 1) < 1e-12);
    assert_true(fabs(predict_damage_mean(1, 8, 0, false) - 4.5) < 1e-12);
    assert_true(fabs(predict_damage_mean(1, 8, 0, true) - 2.0) < 1e-12);
    assert_true(fabs(predict_damage_mean(2, 6, 1, false) - 8.0) < 1e-12);
    /* Advantage helps, disadvantage hurts. */
    double flat = predict_d20_beats(1, 0, 2, 1, 0, 2, true);
    assert_true(predict_d20_beats(2, 1, 2, 1, 0, 2, true) > flat);
    assert_true(predict_d20_beats(2, -1, 2, 1, 0, 2, true) < flat);
}

/* One frame of a bundled battle, drawn and saved for a person to look at;
 * checks the panels sit where the layout says and the map area shows terrain. */
static void test_frame_of_bundled_battle(void **state)
{
    (void)state;
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/ridge_ambush.json", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf =
        SDL_CreateRGBSurfaceWithFormat(0, VIEW_W, VIEW_H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 5), BATTLE_OK);
    pui_run_ai(p, 200); /* to the first player turn */
    assert_true(p->user_turn);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    fx_state_fit(&st, &h, m, VIEW_W, VIEW_H);
    /* Hover a reachable hex so the path preview shows. */
    if (p->n_reach > 0) {
        vec2_t s = ui_cam_to_screen(&st.cam, ui_cell_center(m, p->reach[p->n_reach - 1].at));
        SDL_Event e;
        memset(&e, 0, sizeof e);
        e.type = SDL_MOUSEMOTION;
        e.motion.x = (int)s.x;
        e.motion.y = (int)s.y;
        ui_handle_event(&st, &e);
        assert_true(p->n_path >= 2);
    }
    ui_window_draw(d, &st);
    SDL_RenderPresent(r);
    assert_int_equal(IMG_SavePNG(surf, "test_ui_play_frame.png"), 0);
    /* The map fits inside the free area: its bounds' corners map inside it. */
    vec2_t lo = ui_cam_to_screen(&st.cam, (vec2_t){st.bounds.x0, st.bounds.y0});
    vec2_t hi = ui_cam_to_screen(&st.cam, (vec2_t){st.bounds.x1, st.bounds.y1});
    assert_true(lo.x >= h.lay.map.x - 1 && hi.x <= h.lay.map.x + h.lay.map.w + 1);
    assert_true(lo.y >= h.lay.map.y - 1 && hi.y <= h.lay.map.y + h.lay.map.h + 1);
    /* The tracker panel is dark; the map centre is terrain (brighter). */
    Uint32 *px = surf->pixels;
    int pitch = surf->pitch / 4;
    Uint32 panel = px[(h.lay.tracker.h - 5) * pitch + 5];
    Uint8 pr, pg, pb;
    SDL_GetRGB(panel, surf->format, &pr, &pg, &pb);
    assert_true(pr < 40 && pg < 40 && pb < 50);
    hud_free(&h);
    pui_free(p);
    free(p);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    map_destroy(m);
    tmpl_db_destroy(db);
    TTF_Quit();
    SDL_Quit();
}

/* Load a bundled map for the whole-battle tests. */
static void load_bundled(const char *name, map_t **m, tmpl_db_t **db)
{
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s", HB_TEST_DATA, name);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    assert_int_equal(map_load(path, data, m, db, err, sizeof err), 0);
}

static void test_scars_declared_move_by_click(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    load_bundled("salt_flats.json", &m, &db);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 9), BATTLE_OK);
    pui_run_ai(p, 200);
    assert_true(p->user_turn);
    int mv = -1;
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == CMD_DECLARE && p->bar[i].act == CMD_MOVE) mv = i;
    assert_true(mv >= 0);
    assert_true(p->n_reach > 0);
    int who = p->actor, before = pui_battle(p)->cmds.n;
    cell_t goal = p->reach[p->n_reach - 1].at;
    assert_true(pui_click_cell(p, goal));
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, before + 1);
    const cmd_t *c = &b->cmds.c[b->cmds.n - 1];
    assert_int_equal(c->kind, CMD_DECLARE);
    assert_int_equal(c->act, CMD_MOVE);
    assert_int_equal(c->actor, who);
    assert_true(c->n_path >= 1);
    assert_int_equal(c->path[c->n_path - 1].col, goal.col);
    assert_int_equal(c->path[c->n_path - 1].row, goal.row);
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* A referee who only ends turns still sees the battle through to its end
 * screen: the AI fights, the rules end it, the result names the winner. */
static void test_whole_battle_reaches_an_end(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    load_bundled("ridge_ambush.json", &m, &db);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 11), BATTLE_OK);
    for (int i = 0; i < 2000 && !pui_battle(p)->over; i++) {
        if (p->user_turn)
            assert_true(pui_end_turn(p));
        else
            pui_run_ai(p, 1);
        if (pui_battle(p)->round > 60) play_stop(&p->play);
    }
    assert_true(pui_battle(p)->over);
    char buf[128];
    const char *res = pui_result(p, buf, sizeof buf);
    assert_non_null(res);
    const battle_t *b = pui_battle(p);
    if (b->winner >= 0) {
        assert_non_null(strstr(res, b->board->side_name[b->winner]));
        /* Nobody fought back, so the Architect side should be the one left. */
        assert_false(map_faction_is_player(b->map, b->board->side_name[b->winner]));
        assert_non_null(strstr(res, "DEFEAT"));
    }
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* Standby through its sub-bar: the group's key opens the triggers, a
 * trigger's key holds the attack, and the bar comes back. */
static void test_standby_from_its_sub_bar(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    int g = group_index(p, PUI_GROUP_STANDBY);
    assert_true(g >= 0);
    assert_string_equal(p->bar[g].label, "Standby...");
    key(f, (SDL_Keycode)p->bar[g].key, 0);
    assert_int_equal(p->sub, PUI_GROUP_STANDBY);
    /* First the triggers: one button each. */
    int dash = -1;
    for (int i = 0; i < p->n_bar; i++) {
        assert_int_equal(p->bar[i].kind, CMD_STANDBY);
        assert_int_equal(p->bar[i].group, PUI_GROUP_STANDBY);
        if (p->bar[i].arg == XT_DASHES) dash = i;
    }
    assert_int_equal(p->n_bar, XT_COUNT);
    assert_true(dash >= 0);
    assert_non_null(strstr(p->bar[dash].label, "dashes"));
    key(f, (SDL_Keycode)p->bar[dash].key, 0);
    assert_int_equal(p->sub_arg, XT_DASHES);
    /* Then what to hold: the weapon in hand is offered by name. */
    const battle_t *b = pui_battle(p);
    int in_hand = b->u[f->kara].equipped, hold = -1;
    for (int i = 0; i < p->n_bar; i++) {
        assert_int_equal(p->bar[i].group, PUI_GROUP_NONE);
        assert_int_equal(p->bar[i].arg, XT_DASHES);
        if (p->bar[i].act == CMD_ENGAGE && p->bar[i].weapon == in_hand) hold = i;
    }
    assert_true(hold >= 0);
    const weapon_t *w = battle_weapon(b, f->kara, in_hand);
    assert_non_null(w);
    assert_non_null(strstr(p->bar[hold].label, "Hold attack: "));
    assert_non_null(strstr(p->bar[hold].label, w->name[0] ? w->name : w->id));
    int before = b->cmds.n;
    key(f, (SDL_Keycode)p->bar[hold].key, 0);
    b = pui_battle(p);
    assert_int_equal(b->cmds.n, before + 1);
    const cmd_t *got = &b->cmds.c[before];
    assert_int_equal(got->kind, CMD_STANDBY);
    assert_int_equal(got->act, CMD_ENGAGE);
    assert_int_equal(got->arg, XT_DASHES);
    assert_int_equal(p->sub, PUI_GROUP_NONE);
    /* The action is spent: no standby is offered again this turn. */
    assert_int_equal(group_index(p, PUI_GROUP_STANDBY), -1);
}

/* Shove next to the grunt: the group, then "push 5 ft", then the target. */
static void test_shove_push_through_the_bar(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 5, 3); /* kara moves beside the grunt */
    assert_true(hex_eq(pos_of(f, f->kara), hex_at(f, 5, 3)));
    check_bar_is_the_legal_list(f);
    int g = group_index(p, PUI_GROUP_SHOVE);
    assert_true(g >= 0);
    key(f, (SDL_Keycode)p->bar[g].key, 0);
    int push = -1;
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == CMD_SHOVE && p->bar[i].arg == 1) push = i;
    assert_true(push >= 0);
    assert_true(p->bar[push].targeted);
    key(f, (SDL_Keycode)p->bar[push].key, 0);
    /* One possible target: straight to confirming it. */
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, f->grunt);
    int before = pui_battle(p)->cmds.n;
    key(f, SDLK_RETURN, 0);
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, before + 1);
    assert_int_equal(b->cmds.c[before].kind, CMD_SHOVE);
    assert_int_equal(b->cmds.c[before].arg, 1);
    assert_int_equal(b->cmds.c[before].target, f->grunt);
}

/* Esc backs out of a sub-bar without doing anything. */
static void test_escape_leaves_a_sub_bar(void **state)
{
    ui_fx_t *f = *state;
    pui_t *p = f->p;
    int n_main = p->n_bar;
    int g = group_index(p, PUI_GROUP_STANDBY);
    assert_true(g >= 0);
    pui_choose(p, g);
    assert_int_equal(p->sub, PUI_GROUP_STANDBY);
    assert_true(p->n_bar != n_main || p->bar[0].kind == CMD_STANDBY);
    int n_triggers = p->n_bar;
    int before = pui_battle(p)->cmds.n;
    /* Into a trigger, and Esc steps back one level at a time. */
    int first_trigger = p->bar[0].arg;
    pui_choose(p, 0);
    assert_int_equal(p->sub_arg, first_trigger);
    key(f, SDLK_ESCAPE, 0);
    assert_int_equal(p->sub, PUI_GROUP_STANDBY);
    assert_int_equal(p->sub_arg, -1);
    assert_int_equal(p->n_bar, n_triggers);
    key(f, SDLK_ESCAPE, 0);
    assert_int_equal(p->sub, PUI_GROUP_NONE);
    assert_int_equal(p->n_bar, n_main);
    assert_int_equal(pui_battle(p)->cmds.n, before);
    assert_false(f->st.quit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_start_shows_exactly_the_legal_actions, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_select_then_move_by_click, setup, teardown),
        cmocka_unit_test_setup_teardown(test_standby_from_its_sub_bar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shove_push_through_the_bar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escape_leaves_a_sub_bar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_target_confirm_attack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_confirm_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escape_cancels_targeting_without_quitting, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_end_turn_then_ai_plays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undo_rebuilds_without_the_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_physical_dice_typed_and_clicked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_toggle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ask_per_side, setup, teardown),
        cmocka_unit_test_setup_teardown(test_anim_glides_and_snaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dice_log_scrolls_with_the_wheel, setup, teardown),
        cmocka_unit_test(test_layout_keeps_the_map_free),
        cmocka_unit_test(test_predict_arithmetic),
        cmocka_unit_test(test_frame_of_bundled_battle),
        cmocka_unit_test(test_scars_declared_move_by_click),
        cmocka_unit_test(test_whole_battle_reaches_an_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
