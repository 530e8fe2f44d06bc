/* test_ui_truth.c - the play window tells the truth and shows what a referee
 * needs (issue 17 items 3 and 4), driven by synthetic SDL events through the
 * window's own handler and drawn headless: reach (F5) is what this turn has
 * left, a click on a hex out of reach says why, sight and flanking lines start
 * where combatants stand now, range (F8) is the weapon in hand, the action
 * keys keep their meaning through a turn and labels are shortened, never cut;
 * the combatant card, condition markers on tokens, round separators in the
 * log, the physical-dice prompt and its mark in the tracker, the ruler. */
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

#include "rules_fixture.h"
#include "ui/card.h"
#include "ui/hud.h"
#include "ui/overlay.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1280
#define VIEW_H 720

/* kara (players: blade and bow) against grunt (raiders) on a field with a
 * wall at (3, 1); kara's evasion makes her act first. */
typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t st;
    SDL_Surface *surf;
    SDL_Renderer *r;
    ui_draw_t *d;
    int kara, grunt;
} fx_ui_t;

static const char *const ROWS[] = {
    "............", "...#........", "............", "............",
    "............", "............", "............",
};

static int setup(void **state)
{
    fx_ui_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    f->m = fx_map(12, 7, "xhalem", ROWS);
    f->db = fx_db("xhalem");
    fx_weapon(f->db, "blade", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    fx_weapon(f->db, "longbow", WPN_RANGED, false, 0, 60, 1, 8, 0, NULL);
    f->kara = fx_add(f->m, "kara", "players", 1, 3, KIND_CREATURE, SIZE_MEDIUM, 20, 30,
                     "blade,longbow", "agility=3,evasion=30,strength=1");
    f->grunt = fx_add(f->m, "grunt", "raiders", 8, 3, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "blade",
                      "agility=0,evasion=-10");
    f->p = malloc(sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, 42), BATTLE_OK);
    assert_true(hud_init(&f->hud, f->p));
    fx_state_fit(&f->st, &f->hud, f->m, VIEW_W, VIEW_H);
    f->st.overlay = ui_overlay_create(f->m);
    assert_non_null(f->st.overlay);
    ui_overlay_use_db(f->st.overlay, f->db);
    f->surf = SDL_CreateRGBSurfaceWithFormat(0, VIEW_W, VIEW_H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(f->surf);
    f->r = SDL_CreateSoftwareRenderer(f->surf);
    assert_non_null(f->r);
    char err[256];
    f->d = ui_draw_create(f->r, f->m, err, sizeof err);
    assert_non_null(f->d);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_ui_t *f = *state;
    ui_draw_destroy(f->d);
    SDL_DestroyRenderer(f->r);
    SDL_FreeSurface(f->surf);
    ui_overlay_destroy(f->st.overlay);
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    free(f->db);
    free(f);
    TTF_Quit();
    SDL_Quit();
    return 0;
}

static void mouse_to(fx_ui_t *f, int col, int row)
{
    fx_hover_cell(&f->st, (cell_t){col, row});
}

static void click_cell(fx_ui_t *f, int col, int row)
{
    fx_click_cell(&f->st, (cell_t){col, row}, SDL_BUTTON_LEFT);
}

static void key(fx_ui_t *f, SDL_Keycode k)
{
    fx_key(&f->st, k, 0);
}

/* Draw the window as it is (the overlays are built while drawing). */
static void frame(fx_ui_t *f, const char *png)
{
    anim_snap(&f->p->anim);
    ui_window_draw(f->d, &f->st);
    SDL_RenderPresent(f->r);
    if (png) assert_int_equal(IMG_SavePNG(f->surf, png), 0);
}

static bool legend_has(const ui_overlay_t *o, const char *needle)
{
    char row[128];
    for (int k = 0; k < ui_overlay_legend_rows(o); k++) {
        ui_overlay_legend_row(o, k, row, sizeof row);
        if (strstr(row, needle)) return true;
    }
    return false;
}

static bool in_reach(const pui_t *p, int col, int row)
{
    for (int i = 0; i < p->n_reach; i++)
        if (p->reach[i].at.col == col && p->reach[i].at.row == row) return true;
    return false;
}

/* Every hex shaded as a normal move is one the screen's click can reach, and
 * every such hex is shaded; returns how many. */
static int check_reach_marks(fx_ui_t *f)
{
    int shaded = 0;
    for (int row = 0; row < f->m->rows; row++)
        for (int col = 0; col < f->m->cols; col++) {
            ui_ov_style_t st;
            int c = ui_overlay_mark_at(f->st.overlay, (cell_t){col, row}, &st);
            bool move = c == UI_OV_REACH_1 || c == UI_OV_REACH_2 || c == UI_OV_REACH_3;
            assert_int_equal(move, in_reach(f->p, col, row));
            shaded += move;
        }
    return shaded;
}

static void test_reach_is_what_the_turn_has_left(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    assert_int_equal(p->actor, f->kara);
    key(f, SDLK_F5);
    mouse_to(f, 1, 3); /* on kara herself: no preview */
    frame(f, NULL);
    int before = check_reach_marks(f);
    assert_true(legend_has(f->st.overlay, "30 ft left"));
    click_cell(f, 4, 3); /* 15 ft */
    assert_int_equal(p->budget_ft, 15);
    mouse_to(f, 4, 3);
    frame(f, "/tmp/hexbattle_truth_reach.png");
    int after = check_reach_marks(f);
    assert_true(after > 0 && after < before);
    assert_true(legend_has(f->st.overlay, "15 ft left"));
    /* A hex 25 ft from the start (within the full speed) is no longer shaded. */
    ui_ov_style_t st;
    int c = ui_overlay_mark_at(f->st.overlay, (cell_t){6, 3}, &st);
    assert_int_not_equal(c, UI_OV_REACH_3);
}

static void test_click_out_of_reach_says_why(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 11, 6); /* far away */
    assert_non_null(strstr(p->msg, "Too far"));
    assert_non_null(strstr(p->msg, "30 ft left"));
    assert_int_equal(p->sel, f->kara); /* the selection stays */
    click_cell(f, 3, 1); /* the wall */
    assert_non_null(strstr(p->msg, "impassable"));
    /* Spend half the move: the reason counts what is left. */
    click_cell(f, 1, 0);
    assert_int_equal(p->budget_ft, 15);
    click_cell(f, 1, 6);
    assert_non_null(strstr(p->msg, "takes 30 ft"));
    assert_non_null(strstr(p->msg, "15 ft left"));
}

static void test_lines_start_where_they_stand(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    click_cell(f, 4, 3); /* kara moves from (1, 3) to (4, 3) */
    const battle_t *b = pui_battle(p);
    assert_true(hex_eq(b->board->pos[f->kara], hex_from_cell(f->m->layout, (cell_t){4, 3})));
    key(f, SDLK_F9);
    mouse_to(f, 8, 5);
    frame(f, "/tmp/hexbattle_truth_sight.png");
    cell_t a, e;
    ui_ov_color_t col;
    int n = ui_overlay_line(f->st.overlay, 0, &a, &e, &col);
    assert_true(n >= 1);
    assert_int_equal(a.col, 4);
    assert_int_equal(a.row, 3);
    assert_int_equal(e.col, 8);
    assert_int_equal(e.row, 5);
    /* Flanking: two raiders are not needed; the pair lines of the players
     * come from the board too. Walk grunt's line of sight instead: with the
     * flanking overlay on over grunt, any pair line ends on a token's hex
     * as it stands now. */
    key(f, SDLK_F9);
    key(f, SDLK_F7);
    mouse_to(f, 8, 3);
    frame(f, NULL);
    n = ui_overlay_line(f->st.overlay, -1, &a, &e, &col);
    for (int k = 0; k < n; k++) {
        ui_overlay_line(f->st.overlay, k, &a, &e, &col);
        int at_a = board_occupant(b->board, hex_from_cell(f->m->layout, a));
        int at_e = board_occupant(b->board, hex_from_cell(f->m->layout, e));
        assert_true(at_a >= 0 && at_e >= 0);
    }
}

static int bar_of(const pui_t *p, cmd_kind_t kind, int weapon)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == kind && (weapon < -1 || p->bar[i].weapon == weapon)) return i;
    return -1;
}

static void test_range_is_the_weapon_in_hand(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    key(f, SDLK_F8);
    mouse_to(f, 1, 3);
    frame(f, NULL);
    const weapon_t *held = battle_weapon(b, f->kara, b->u[f->kara].equipped);
    assert_non_null(held);
    assert_true(legend_has(f->st.overlay, held->name));
    /* Switch to the other weapon through the bar (a group of its own). */
    int sw = -1;
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].group == PUI_GROUP_SWITCH || p->bar[i].kind == CMD_SWITCH) sw = i;
    assert_true(sw >= 0);
    key(f, (SDL_Keycode)p->bar[sw].key);
    if (p->sub == PUI_GROUP_SWITCH) key(f, (SDL_Keycode)p->bar[0].key);
    const weapon_t *now = battle_weapon(b, f->kara, b->u[f->kara].equipped);
    assert_non_null(now);
    assert_ptr_not_equal(now, held);
    frame(f, "/tmp/hexbattle_truth_range.png");
    assert_true(legend_has(f->st.overlay, now->name));
    assert_false(legend_has(f->st.overlay, held->name));
}

static void test_keys_keep_their_meaning(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    /* Walk next to grunt, spending the whole move: the attack joins the bar,
     * the walk leaves it. */
    int walk_key = p->bar[bar_of(p, CMD_MOVE, -2)].key;
    click_cell(f, 7, 3);
    for (int i = 0; i < p->n_bar; i++)
        assert_int_not_equal(p->bar[i].key, walk_key);
    assert_true(p->n_bar_slots > p->n_bar); /* the walk's place is a gap */
    int atk = bar_of(p, CMD_ENGAGE, -2), end = bar_of(p, CMD_END, -2);
    assert_true(atk >= 0 && end >= 0);
    char atk_key = p->bar[atk].key, end_key = p->bar[end].key;
    char keys[PUI_MAX_BAR];
    pui_action_t before[PUI_MAX_BAR];
    int n_before = p->n_bar;

    memcpy(before, p->bar, sizeof before);
    for (int i = 0; i < p->n_bar; i++)
        keys[i] = p->bar[i].key;
    /* Attack (the only target: straight to the odds), confirm. */
    key(f, (SDL_Keycode)atk_key);
    assert_int_equal(p->mode, PUI_CONFIRM);
    key(f, SDLK_RETURN);
    for (int guard = 0; pui_needs_die(p) && guard < 64; guard++) {
        int sides = pui_battle(p)->need.sides;
        assert_true(pui_enter_die(p, sides < 10 ? sides : 10));
    }
    assert_false(pui_needs_die(p));
    assert_int_equal(p->actor, f->kara);
    /* Every action still on the bar keeps its key; the one gone leaves a gap
     * nobody else fills. */
    for (int i = 0; i < p->n_bar; i++)
        for (int k = 0; k < n_before; k++)
            if (before[k].kind == p->bar[i].kind && before[k].weapon == p->bar[i].weapon &&
                before[k].arg == p->bar[i].arg && before[k].group == p->bar[i].group &&
                before[k].act == p->bar[i].act)
                assert_int_equal(p->bar[i].key, keys[k]);
    int end2 = bar_of(p, CMD_END, -2);
    assert_true(end2 >= 0);
    assert_int_equal(p->bar[end2].key, end_key);
    if (bar_of(p, CMD_ENGAGE, before[atk].weapon) < 0)
        for (int i = 0; i < p->n_bar; i++)
            assert_int_not_equal(p->bar[i].key, atk_key);
    /* Buttons sit at their slots: left to right in slot order. */
    for (int i = 1; i < p->n_bar; i++)
        assert_true(hud_button_rect(&f->hud, i).x > hud_button_rect(&f->hud, i - 1).x ||
                    hud_button_rect(&f->hud, i).y > hud_button_rect(&f->hud, i - 1).y);
    frame(f, "/tmp/hexbattle_truth_keys.png");
}

static void test_labels_are_shortened_not_cut(void **state)
{
    fx_ui_t *f = *state;
    char out[108];
    const char *lbl = "7  Attack: a sword of quite unreasonable length and many words";
    int px = 14;
    int whole = 0, h = 0;
    ui_text_get(ui_draw_text(f->d), lbl, px, false, (SDL_Color){255, 255, 255, 255}, &whole, &h);
    int maxw = whole / 2;
    hud_fit_text(f->d, lbl, px, maxw, out, sizeof out);
    int w = 0;
    ui_text_get(ui_draw_text(f->d), out, px, false, (SDL_Color){255, 255, 255, 255}, &w, &h);
    assert_true(w <= maxw);
    assert_true(w > maxw / 2); /* not shortened more than needed */
    size_t n = strlen(out);
    assert_true(n > 3 && strcmp(out + n - 3, "...") == 0);
    assert_memory_equal(out, lbl, n - 3);
    /* A label that fits is left whole. */
    hud_fit_text(f->d, "1  Move", px, maxw, out, sizeof out);
    assert_string_equal(out, "1  Move");
    /* Variants told apart by a closing "(...)" keep it: the cut goes before. */
    const char *v2 = "6  Telegraph: a long shot of many words (delay 2)";
    const char *v3 = "7  Telegraph: a long shot of many words (delay 3)";
    ui_text_get(ui_draw_text(f->d), v2, px, false, (SDL_Color){255, 255, 255, 255}, &whole, &h);
    char o3[108];
    hud_fit_text(f->d, v2, px, whole * 2 / 3, out, sizeof out);
    hud_fit_text(f->d, v3, px, whole * 2 / 3, o3, sizeof o3);
    assert_non_null(strstr(out, "..."));
    n = strlen(out);
    assert_true(n > 9 && strcmp(out + n - 9, "(delay 2)") == 0);
    assert_string_not_equal(out, o3);
    ui_text_get(ui_draw_text(f->d), out, px, false, (SDL_Color){255, 255, 255, 255}, &w, &h);
    assert_true(w <= whole * 2 / 3);
}


static bool card_has(const ui_card_t *c, const char *needle, ui_card_style_t *style)
{
    for (int k = 0; k < c->n; k++)
        if (strstr(c->line[k], needle)) {
            if (style) *style = c->style[k];
            return true;
        }
    return false;
}

static void test_card_follows_hover_and_selection(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    mouse_to(f, 8, 3); /* over grunt */
    frame(f, "/tmp/hexbattle_card_grunt.png");
    const ui_card_t *c = &f->hud.card;
    assert_int_equal(c->who, f->grunt);
    assert_string_equal(c->line[0], "grunt");
    assert_true(card_has(c, "HP 12/12", NULL));
    assert_true(card_has(c, "played by the AI", NULL));
    assert_true(card_has(c, "Evasion -10", NULL)); /* the stat's display name */
    ui_card_style_t st;
    assert_true(card_has(c, "blade", &st));
    /* The card sits in the side panel, never on the map. */
    assert_false(SDL_HasIntersection(&f->hud.side, &f->hud.lay.map));
    /* Off the tokens: the selection (kara); her move left and her weapons. */
    mouse_to(f, 4, 5);
    click_cell(f, 4, 3); /* 15 ft */
    mouse_to(f, 10, 0);
    frame(f, NULL);
    assert_int_equal(c->who, f->kara);
    assert_true(card_has(c, "acting now", NULL));
    assert_true(card_has(c, "left this turn: walk 15 ft", NULL));
    assert_true(card_has(c, "Speed 30 ft", NULL));
    const battle_t *b = pui_battle(p);
    const weapon_t *held = battle_weapon(b, f->kara, b->u[f->kara].equipped);
    char want[sizeof held->name + 4];
    snprintf(want, sizeof want, "%s: ", held->name);
    assert_true(card_has(c, want, &st));
    assert_int_equal(st, UI_CARD_HELD);
    assert_true(card_has(c, "(in hand)", NULL));
    assert_true(card_has(c, "no conditions", NULL));
}

/* Count pixels of colour rgb in rect r of the frame. */
static int pixels_of(fx_ui_t *f, SDL_Rect r, uint32_t rgb)
{
    int n = 0;
    const Uint32 *px = f->surf->pixels;
    int pitch = f->surf->pitch / 4;
    for (int y = r.y; y < r.y + r.h && y < VIEW_H; y++)
        for (int x = r.x; x < r.x + r.w && x < VIEW_W; x++) {
            Uint8 cr, cg, cb;
            SDL_GetRGB(px[y * pitch + x], f->surf->format, &cr, &cg, &cb);
            n += ((uint32_t)cr << 16 | (uint32_t)cg << 8 | cb) == rgb;
        }
    return n;
}

static void test_condition_markers_on_tokens(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    battle_t *b = p->play.b;
    char marks[UI_COND_MARKS][3];
    uint8_t hue[UI_COND_MARKS];
    assert_int_equal(ui_cond_marks(&b->log, f->grunt, marks, hue, UI_COND_MARKS), 0);
    /* Conditions as a ruleset announces them. */
    battle_emit_condition(b, f->grunt, "prone", true);
    battle_emit_condition(b, f->grunt, "scar:hamstrung", true);
    battle_emit_condition(b, f->kara, "prone", true);
    assert_int_equal(ui_cond_marks(&b->log, f->grunt, marks, hue, UI_COND_MARKS), 2);
    assert_string_equal(marks[0], "Pr");
    assert_string_equal(marks[1], "Ha");
    uint8_t kh[UI_COND_MARKS];
    assert_int_equal(ui_cond_marks(&b->log, f->kara, marks, kh, UI_COND_MARKS), 1);
    assert_int_equal(kh[0], hue[0]); /* the same condition, the same colour */
    /* Drawn beside the token's face, inside its own hex: the marker colour
     * shows near grunt and not before the condition is on. */
    vec2_t g = ui_cam_to_screen(&f->st.cam, ui_cell_center(f->m, (cell_t){8, 3}));
    double z = f->st.cam.zoom;
    SDL_Rect around = {(int)(g.x - z * 0.85), (int)(g.y - z * 0.95), (int)(z * 1.7), (int)(z * 1.0)};
    mouse_to(f, 11, 6);
    frame(f, "/tmp/hexbattle_card_marks.png");
    static const uint32_t RGB[] = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442,
                                   0x0072B2, 0xD55E00, 0xCC79A7, 0xFFFFFF};
    assert_true(pixels_of(f, around, RGB[hue[1]]) > 10);
    battle_emit_condition(b, f->grunt, "scar:hamstrung", false);
    frame(f, NULL);
    assert_int_equal(ui_cond_marks(&b->log, f->grunt, marks, hue, UI_COND_MARKS), 1);
    /* The card names them in full. */
    mouse_to(f, 8, 3);
    frame(f, NULL);
    assert_true(card_has(&f->hud.card, "prone", NULL));
}

static void test_round_separators_in_the_log(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    key(f, SDLK_e); /* kara ends her turn; grunt (AI) plays */
    pui_run_ai(p, 50);
    assert_true(b->round >= 2);
    int seps = 0;
    char line[160];
    for (int k = 0; k < b->log.n; k++)
        if (b->log.ev[k].type == EV_ROUND_END) {
            assert_int_equal(hud_log_text(p, &b->log.ev[k], line, sizeof line), HUD_LOG_ROUND);
            assert_string_equal(line, "end of round 1");
            seps++;
        }
    assert_int_equal(seps, 1);
    frame(f, "/tmp/hexbattle_card_rounds.png");
    /* The rule is drawn across the log panel in the heading colour. */
    assert_true(pixels_of(f, f->hud.lay.log, 0x56B4E9) > 40);
}

static void test_dice_prompt_names_who_and_marks_the_tracker(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    key(f, SDLK_p); /* kara's side rolls physical dice */
    click_cell(f, 7, 3);
    int atk = bar_of(p, CMD_ENGAGE, -2);
    assert_true(atk >= 0);
    key(f, (SDL_Keycode)p->bar[atk].key);
    key(f, SDLK_RETURN);
    assert_true(pui_needs_die(p));
    char prompt[256];
    pui_die_prompt(p, prompt, sizeof prompt);
    assert_non_null(strstr(prompt, "kara"));
    assert_non_null(strstr(prompt, "grunt"));
    assert_non_null(strstr(prompt, "d20"));
    frame(f, "/tmp/hexbattle_card_dice.png");
    /* The roller's row in the tracker is framed orange. */
    int framed = pixels_of(f, f->hud.lay.tracker, 0xE69F00);
    assert_true(framed > 40);
    int kara = pui_battle(p)->need.who; /* the roller */
    for (int guard = 0; pui_needs_die(p) && guard < 64; guard++) {
        int sides = pui_battle(p)->need.sides;
        assert_true(pui_enter_die(p, sides < 10 ? sides : 10));
    }
    assert_false(pui_needs_die(p));
    /* The frame goes with the die; the side is still marked as rolling
     * physical dice (issue 34, item 12), in the same orange, far less of it. */
    frame(f, NULL);
    int marked = pixels_of(f, f->hud.lay.tracker, 0xE69F00);
    assert_true(marked > 0 && marked < framed / 2);
    /* P again: computer dice, and no orange is left. */
    int now = p->actor >= 0 ? p->actor : p->sel; /* whose side P switches */
    assert_true(kara >= 0 && now >= 0);
    assert_int_equal(pui_battle(p)->board->side[now], pui_battle(p)->board->side[kara]);
    key(f, SDLK_p);
    frame(f, NULL);
    assert_int_equal(pixels_of(f, f->hud.lay.tracker, 0xE69F00), 0);
}

static void ctrl_m(fx_ui_t *f)
{
    fx_key(&f->st, SDLK_m, KMOD_LCTRL);
}

static void test_ruler_measures_feet_hexes_sight_and_cover(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    hex_t kara_at = b->board->pos[f->kara];
    ctrl_m(f);
    assert_true(f->hud.ruler.on);
    click_cell(f, 1, 3); /* kara's hex: the ruler's start, not a selection */
    mouse_to(f, 5, 3);
    assert_non_null(strstr(p->msg, "20 ft, 4 hexes"));
    assert_non_null(strstr(p->msg, "in sight, no cover"));
    click_cell(f, 5, 3); /* fixed */
    mouse_to(f, 9, 6);
    assert_non_null(strstr(p->msg, "(5, 3)"));
    frame(f, "/tmp/hexbattle_card_ruler.png");
    /* Across the wall at (3, 1): blocked. */
    click_cell(f, 2, 1);
    mouse_to(f, 4, 1);
    assert_non_null(strstr(p->msg, "10 ft, 2 hexes; sight blocked"));
    /* A token between the ends gives cover. */
    ui_ruler_measure_t m;
    assert_true(ui_ruler_measure(b, (cell_t){0, 3}, (cell_t){2, 3}, &m));
    assert_true(m.visible);
    assert_int_not_equal(m.cover, COVER_NONE);
    /* Measuring moved nothing; Esc turns it off and clicks play again. */
    assert_true(hex_eq(b->board->pos[f->kara], kara_at));
    key(f, SDLK_ESCAPE);
    assert_false(f->hud.ruler.on);
    click_cell(f, 3, 3);
    assert_false(hex_eq(b->board->pos[f->kara], kara_at));
}

/* ---- right-click menus and drags on tokens ------------------------------ */

static void right_click_cell(fx_ui_t *f, int col, int row)
{
    fx_click_cell(&f->st, (cell_t){col, row}, SDL_BUTTON_RIGHT);
}

/* The bar entries a menu on combatant who should list, worked out from the
 * legal commands: every entry for the actor, else the targeted entries with
 * a legal command against who. */
static int expected_menu(const pui_t *p, int who, int *out)
{
    int n = 0;
    for (int i = 0; i < p->n_bar; i++) {
        const pui_action_t *a = &p->bar[i];
        bool against = false;
        for (int k = 0; k < p->n_legal && !against; k++) {
            const cmd_t *c = &p->legal[k];
            against = a->targeted && a->group == PUI_GROUP_NONE && c->kind == a->kind &&
                      c->act == a->act && c->weapon == a->weapon && c->weapon2 == a->weapon2 &&
                      c->arg == a->arg && c->target == who;
        }
        if (who == p->actor || against) out[n++] = i;
    }
    return n;
}

/* The box of combatant i's token on screen (its circle's bounding square). */
static SDL_Rect token_box(const fx_ui_t *f, int i)
{
    const battle_t *b = pui_battle(f->p);
    cell_t c = hex_to_cell(f->m->layout, b->board->pos[i]);
    SDL_Point pt = fx_cell_point(&f->st, c);
    int r = (int)ceil(ui_token_screen_radius(f->m->combatants[i].size, f->st.cam.zoom));
    return (SDL_Rect){pt.x - r, pt.y - r, 2 * r, 2 * r};
}

static void test_right_click_lists_the_tokens_actions(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    ui_token_menu_t *m = &f->hud.menu;
    assert_int_equal(p->actor, f->kara);
    int want[PUI_MAX_BAR];

    /* On the actor: its whole bar, the bar's own labels and keys. */
    right_click_cell(f, 1, 3);
    assert_true(m->open);
    assert_int_equal(m->who, f->kara);
    int n = expected_menu(p, f->kara, want);
    assert_true(n >= 3);
    assert_int_equal(m->n, n);
    for (int k = 0; k < n; k++) assert_int_equal(m->item[k], want[k]);
    frame(f, "/tmp/hexbattle_truth_menu.png");
    /* It stands beside the token, inside the map, and covers no token. */
    SDL_Rect inter;
    assert_true(SDL_IntersectRect(&m->box, &f->hud.lay.map, &inter));
    assert_true(SDL_RectEquals(&inter, &m->box));
    for (int i = 0; i < pui_battle(p)->n; i++) {
        SDL_Rect tb = token_box(f, i);
        assert_false(SDL_HasIntersection(&m->box, &tb));
    }
    /* Its rows are drawn: the panel colour, not the map, fills the box. */
    assert_true(pixels_of(f, m->box, 0x14171D) > m->box.w * m->box.h / 3);
    /* Esc closes the menu only: the selection and mode stay as they were. */
    pui_mode_t mode = p->mode;
    key(f, SDLK_ESCAPE);
    assert_false(m->open);
    assert_int_equal(p->mode, mode);
    assert_false(f->st.quit);

    /* On the enemy: only the targeted actions legal against it; a click on
     * a row goes straight to the odds against that enemy. */
    click_cell(f, 7, 3); /* kara walks up to grunt */
    assert_true(hex_eq(pui_battle(p)->board->pos[f->kara],
                       hex_from_cell(f->m->layout, (cell_t){7, 3})));
    right_click_cell(f, 8, 3);
    assert_true(m->open);
    assert_int_equal(m->who, f->grunt);
    n = expected_menu(p, f->grunt, want);
    assert_true(n >= 1); /* the blade reaches */
    assert_int_equal(m->n, n);
    for (int k = 0; k < n; k++) {
        assert_int_equal(m->item[k], want[k]);
        assert_true(p->bar[m->item[k]].targeted);
    }
    int row0 = m->item[0];
    fx_press_rect(&f->st, ui_token_menu_row(m, 0));
    assert_false(m->open);
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->act, row0);
    assert_int_equal(p->target, f->grunt);
    key(f, SDLK_ESCAPE); /* the targeting, not the battle */
    assert_int_equal(p->mode, PUI_IDLE);

    /* A key picks a row the same way, and a key no row has closes the menu. */
    right_click_cell(f, 8, 3);
    key(f, (SDL_Keycode)p->bar[row0].key);
    assert_false(m->open);
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, f->grunt);
    key(f, SDLK_ESCAPE);

    /* An empty hex opens nothing; a right drag over a token pans, no menu. */
    right_click_cell(f, 5, 5);
    assert_false(m->open);
    SDL_Point pt = fx_cell_point(&f->st, (cell_t){8, 3});
    double cam_x = f->st.cam.x;
    fx_motion(&f->st, pt.x, pt.y);
    fx_button(&f->st, SDL_BUTTON_RIGHT, true, pt.x, pt.y);
    fx_motion(&f->st, pt.x - 60, pt.y);
    fx_button(&f->st, SDL_BUTTON_RIGHT, false, pt.x - 60, pt.y);
    assert_false(m->open);
    assert_true(f->st.cam.x != cam_x);
    assert_int_equal(f->st.drag_button, 0);
}

static void test_drag_moves_along_the_cheapest_path(void **state)
{
    fx_ui_t *f = *state;
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    hex_t home = hex_from_cell(f->m->layout, (cell_t){1, 3});
    int cmds = b->cmds.n;

    /* A press and release on the token without moving is a click: no move. */
    fx_click_cell(&f->st, (cell_t){1, 3}, SDL_BUTTON_LEFT);
    assert_true(hex_eq(b->board->pos[f->kara], home));
    assert_int_equal(b->cmds.n, cmds);

    /* While dragged, the path and its cost preview as on hover. */
    SDL_Point from = fx_cell_point(&f->st, (cell_t){1, 3});
    fx_motion(&f->st, from.x, from.y);
    fx_button(&f->st, SDL_BUTTON_LEFT, true, from.x, from.y);
    fx_hover_cell(&f->st, (cell_t){4, 3});
    assert_true(f->hud.dragging);
    assert_int_equal(p->n_path, 4);
    assert_int_equal(p->path_cost, 15);
    assert_true(p->path_ok);
    SDL_Point to = fx_cell_point(&f->st, (cell_t){4, 3});
    fx_button(&f->st, SDL_BUTTON_LEFT, false, to.x, to.y);
    b = pui_battle(p);
    assert_true(hex_eq(b->board->pos[f->kara], hex_from_cell(f->m->layout, (cell_t){4, 3})));
    assert_int_equal(b->cmds.n, cmds + 1); /* one command */
    assert_int_equal(b->cmds.c[cmds].kind, CMD_MOVE);
    assert_int_equal(b->cmds.c[cmds].n_path, 3);
    assert_non_null(strstr(p->msg, "moves 15 ft"));

    /* One take-back undoes the whole drag. */
    fx_key(&f->st, SDLK_z, KMOD_LCTRL);
    b = pui_battle(p);
    assert_true(hex_eq(b->board->pos[f->kara], home));
    assert_int_equal(b->cmds.n, cmds);

    /* Dropped out of reach: the reason, and nothing moves. */
    const char *const why[] = {"Too far", "impassable"};
    const cell_t bad[] = {{11, 6}, {3, 1}};
    for (int k = 0; k < 2; k++) {
        from = fx_cell_point(&f->st, (cell_t){1, 3});
        fx_motion(&f->st, from.x, from.y);
        fx_button(&f->st, SDL_BUTTON_LEFT, true, from.x, from.y);
        to = fx_cell_point(&f->st, bad[k]);
        fx_motion(&f->st, to.x, to.y);
        fx_button(&f->st, SDL_BUTTON_LEFT, false, to.x, to.y);
        b = pui_battle(p);
        assert_non_null(strstr(p->msg, why[k]));
        assert_true(hex_eq(b->board->pos[f->kara], home));
        assert_int_equal(b->cmds.n, cmds);
        assert_false(f->hud.dragging);
    }

    /* Only the actor's token drags: a press on the enemy selects it. */
    SDL_Point g = fx_cell_point(&f->st, (cell_t){8, 3});
    fx_motion(&f->st, g.x, g.y);
    fx_button(&f->st, SDL_BUTTON_LEFT, true, g.x, g.y);
    to = fx_cell_point(&f->st, (cell_t){7, 2});
    fx_motion(&f->st, to.x, to.y);
    assert_false(f->hud.dragging);
    fx_button(&f->st, SDL_BUTTON_LEFT, false, to.x, to.y);
    assert_int_equal(pui_battle(p)->cmds.n, cmds);
    assert_int_equal(p->sel, f->grunt);
}

/* Tab cycles the legal targets nearest first, whatever their map order, and
 * comes round again after the farthest. */
static void test_tab_takes_the_nearest_target_first(void **state)
{
    (void)state;
    static const char *const OPEN[] = {"............", "............", "............",
                                       "............", "............"};
    map_t *m = fx_map(12, 5, "xhalem", OPEN);
    tmpl_db_t *db = fx_db("xhalem");
    fx_weapon(db, "longbow", WPN_RANGED, false, 0, 60, 1, 8, 0, NULL);
    int far = fx_add(m, "far", "raiders", 10, 2, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "longbow",
                     "agility=0");
    int kara = fx_add(m, "kara", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "longbow",
                      "agility=9");
    int mid = fx_add(m, "mid", "raiders", 7, 0, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "longbow",
                     "agility=0");
    int near = fx_add(m, "near", "raiders", 4, 4, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "longbow",
                      "agility=0");
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    pui_run_ai(p, 50);
    assert_true(p->user_turn);
    assert_int_equal(p->actor, kara);
    int shot = -1;
    for (int i = 0; i < p->n_bar && shot < 0; i++) {
        if (!p->bar[i].targeted || !pui_choose(p, i)) continue;
        if (pui_is_target(p, far) && pui_is_target(p, mid) && pui_is_target(p, near))
            shot = i;
        else
            pui_cancel(p);
    }
    assert_true(shot >= 0);
    const int want[] = {near, mid, far, near};
    for (int k = 0; k < 4; k++) {
        assert_true(pui_key(p, SDLK_TAB, 0));
        assert_int_equal(p->target, want[k]);
    }
    pui_free(p);
    free(p);
    map_destroy(m);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reach_is_what_the_turn_has_left, setup, teardown),
        cmocka_unit_test_setup_teardown(test_click_out_of_reach_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lines_start_where_they_stand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range_is_the_weapon_in_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_keep_their_meaning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_labels_are_shortened_not_cut, setup, teardown),
        cmocka_unit_test_setup_teardown(test_card_follows_hover_and_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_condition_markers_on_tokens, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_separators_in_the_log, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dice_prompt_names_who_and_marks_the_tracker, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_ruler_measures_feet_hexes_sight_and_cover, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_right_click_lists_the_tokens_actions, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_drag_moves_along_the_cheapest_path, setup, teardown),
        cmocka_unit_test(test_tab_takes_the_nearest_target_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
