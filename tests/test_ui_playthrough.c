/* test_ui_playthrough.c - every bundled battle played from start to its end
 * through the play screen's input alone (issue 4: "a referee can play each
 * bundled battle from start to victory with the mouse and keyboard").
 *
 * On each player-controlled turn the built-in AI is asked what it would do,
 * and that command is then given the way a referee would: click the actor's
 * token, press the action's shortcut key, click the target, Enter; click a
 * hex to move (Shift+click for each leg when the AI's route differs from the
 * one the screen would pick); E to end the turn. The battle's command log
 * must then hold exactly that command. The Architect's sides are played by
 * the screen's own AI ticks. The first battle goes wholly through real SDL
 * events pushed into the queue and handed to the window's event handler; the
 * others use the same input functions the handler calls, after one turn of
 * events each. A frame of each ending is saved to /tmp for a person to see.
 * The checks ask only that a side wins through this input, whichever side it
 * is; a report line per map says who won and which commands the referee gave
 * (the AI's tactics change the winners from seed to seed). Then the inputs
 * the playthroughs needed are tested one by one on small fixture battles:
 * moves laid in legs, scars move-then-attack declarations and double moves,
 * a teleport's clicked hex, a retreat.
 */
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
#include "rules/emcore/emcore.h"
#include "rules_fixture.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1280
#define VIEW_H 800
#define MAX_ROUNDS 60 /* a battle still going after this many rounds fails */

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t st;
    bool events; /* give input as SDL events (else the handler's functions) */
    /* What the playthrough did, for its checks. */
    int user_cmds, exact_paths, legs, key_presses, target_clicks, button_clicks;
    int kinds[CMD_COUNT];
    int answers, taken;             /* reactions put to the table, and those it took */
    int declared_moves_with_attack; /* scars: move and attack in one declaration */
    int long_moves;                 /* scars: a declared move past the plain speed */
} pt_t;

static void open_battle(pt_t *f, const char *name, uint64_t seed)
{
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s", HB_TEST_DATA, name);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    memset(f, 0, sizeof *f);
    assert_int_equal(map_load(path, data, &f->m, &f->db, err, sizeof err), 0);
    f->p = malloc(sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, seed), BATTLE_OK);
    assert_true(hud_init(&f->hud, f->p));
    fx_state_fit(&f->st, &f->hud, f->m, VIEW_W, VIEW_H);
}

static void close_battle(pt_t *f)
{
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    tmpl_db_destroy(f->db);
}

/* ---- input, as events or as the handler's calls ------------------------ */

/* Push one event and let the window's handler take everything queued, as
 * the window loop does. */
static void push(pt_t *f, SDL_Event *e)
{
    assert_true(SDL_PushEvent(e) >= 0);
    SDL_Event got;
    while (SDL_PollEvent(&got))
        ui_handle_event(&f->st, &got);
}

static SDL_Point cell_px(const pt_t *f, cell_t c)
{
    vec2_t s = ui_cam_to_screen(&f->st.cam, ui_cell_center(f->m, c));
    return (SDL_Point){(int)lround(s.x), (int)lround(s.y)};
}

static void hover(pt_t *f, cell_t c)
{
    if (!f->events) {
        pui_hover_cell(f->p, c, true);
        return;
    }
    SDL_Point at = cell_px(f, c);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = at.x;
    e.motion.y = at.y;
    push(f, &e);
}

/* Left click on a cell; with shift, Shift+click (a leg of a planned move). */
static void click(pt_t *f, cell_t c, bool shift)
{
    if (!f->events) {
        if (shift)
            pui_plan_cell(f->p, c);
        else
            pui_click_cell(f->p, c);
        return;
    }
    hover(f, c);
    SDL_Point at = cell_px(f, c);
    SDL_SetModState(shift ? KMOD_LSHIFT : KMOD_NONE);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = at.x;
    e.button.y = at.y;
    push(f, &e);
    e.type = SDL_MOUSEBUTTONUP;
    push(f, &e);
    SDL_SetModState(KMOD_NONE);
}

static void press(pt_t *f, SDL_Keycode k)
{
    f->key_presses++;
    if (!f->events) {
        pui_key(f->p, k, 0);
        return;
    }
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    push(f, &e);
    e.type = SDL_KEYUP;
    push(f, &e);
}

/* A button of the action bar: its key when it has one, else a click on it. */
static void choose(pt_t *f, int i)
{
    pui_t *p = f->p;
    if (p->bar[i].key) {
        press(f, (SDL_Keycode)p->bar[i].key);
        return;
    }
    f->button_clicks++;
    if (!f->events) {
        pui_choose(p, i);
        return;
    }
    SDL_Rect r = hud_button_rect(&f->hud, i);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = r.x + r.w / 2;
    e.button.y = r.y + r.h / 2;
    push(f, &e);
}

/* ---- one command, given through the screen ------------------------------ */

static cell_t cell_of(const pt_t *f, int i)
{
    const battle_t *b = pui_battle(f->p);
    return hex_to_cell(b->map->layout, b->board->pos[i]);
}

static bool same_cell(cell_t a, cell_t b)
{
    return a.col == b.col && a.row == b.row;
}

/* The bar entry that gives command c, or -1: every field but the target and
 * the cell must match. */
static int bar_for(const pui_t *p, const cmd_t *c)
{
    for (int i = 0; i < p->n_bar; i++) {
        const pui_action_t *a = &p->bar[i];
        if (a->group == PUI_GROUP_NONE && a->kind == c->kind && a->act == c->act &&
            a->weapon == c->weapon && a->weapon2 == c->weapon2 && a->arg == c->arg)
            return i;
    }
    return -1;
}

/* The button that opens the group of c, or inside the standby group the
 * button of c's trigger; -1 when there is none. */
static int group_button(const pui_t *p, const cmd_t *c)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].group != PUI_GROUP_NONE && p->bar[i].group == pui_group_of(c) &&
            (p->sub == PUI_GROUP_NONE || p->bar[i].arg == c->arg))
            return i;
    return -1;
}

/* Lay out the route of want (a move, or a scars declaration with a path):
 * when the screen's own choice for the last hex is that route, nothing to
 * do; otherwise Shift+click every hex but the last. With `all`, the last
 * too (a declaration then picks its attack from the plan's end). */
static void lay_route(pt_t *f, const cmd_t *want, bool all)
{
    pui_t *p = f->p;
    cell_t last = want->path[want->n_path - 1];
    hover(f, last);
    bool same = p->n_path == want->n_path + 1;
    for (int k = 0; same && k < want->n_path; k++)
        same = same_cell(p->path[k + 1], want->path[k]);
    if (same && !all) return;
    for (int k = 0; k < want->n_path - (all ? 0 : 1); k++) {
        click(f, want->path[k], true);
        f->legs++;
        assert_int_equal(p->n_plan, k + 1);
    }
}

/* Give want through the screen and check the battle took exactly it. */
static void give(pt_t *f, const cmd_t *want)
{
    pui_t *p = f->p;
    int before = pui_battle(p)->cmds.n;
    int actor = p->actor;
    assert_int_equal(want->actor, actor);
    if (p->sel != actor) {
        click(f, cell_of(f, actor), false); /* select the actor's token */
        assert_int_equal(p->sel, actor);
    }
    bool declare = want->kind == CMD_DECLARE;
    bool move = want->kind == CMD_MOVE || (declare && want->act == CMD_MOVE);
    if (want->kind == CMD_END) {
        press(f, SDLK_e);
    } else if (move) {
        assert_true(want->n_path > 0);
        if (want->kind == CMD_MOVE && p->move_cmd.arg != want->arg) {
            /* Another move mode (a run, a charge): its button first. */
            int i = bar_for(p, want);
            assert_true(i >= 0);
            choose(f, i);
            assert_int_equal(p->move_cmd.arg, want->arg);
        }
        lay_route(f, want, false);
        click(f, want->path[want->n_path - 1], false);
    } else {
        if (declare && want->n_path > 0) {
            lay_route(f, want, true);
            f->declared_moves_with_attack += want->act == CMD_ENGAGE;
        }
        int i = bar_for(p, want);
        for (int level = 0; i < 0 && level < 2; level++) {
            /* A grouped action: its button opens the sub-bar with the variants
             * (a standby: first its trigger, then what to hold). */
            int g = group_button(p, want);
            if (g < 0) break;
            choose(f, g);
            assert_int_equal(p->sub, pui_group_of(want));
            i = bar_for(p, want);
        }
        if (i < 0) {
            char what[64];
            snprintf(what, sizeof what, "%s/%s weapon %d", cmd_kind_name(want->kind),
                     cmd_kind_name(want->act), want->weapon);
            fail_msg("the bar offers no button for the AI's %s", what);
        }
        /* Read before choosing: an untargeted action is carried out at
         * once, and the bar is then the next one. */
        bool targeted = p->bar[i].targeted;
        choose(f, i);
        if (targeted) {
            /* Click the target unless the screen already chose it (the only one). */
            if (p->mode != PUI_CONFIRM || p->target != want->target) {
                click(f, cell_of(f, want->target), false);
                f->target_clicks++;
            }
            assert_int_equal(p->mode, PUI_CONFIRM);
            assert_int_equal(p->target, want->target);
            press(f, SDLK_RETURN);
        } else if (p->mode == PUI_TARGET) {
            /* An action on a hex (teleport, dismount, use, a held move): click it. */
            click(f, want->at, false);
        }
    }
    while (pui_needs_answer(p)) {
        /* The command set off a reaction of the players' own (a Counter
         * answering a Counter): the table takes it. */
        press(f, SDLK_1);
        f->answers++;
    }
    const battle_t *b = pui_battle(p);
    if (b->cmds.n != before + 1)
        fail_msg("%s by %s was not taken (%d commands, msg: %s)", cmd_kind_name(want->kind),
                 pui_name(p, actor), b->cmds.n - before, p->msg);
    const cmd_t *got = &b->cmds.c[before];
    assert_int_equal(got->kind, want->kind);
    assert_int_equal(got->actor, want->actor);
    if (declare) assert_int_equal(got->act, want->act);
    bool targeted = want->target >= 0 && !(declare && want->act == CMD_MOVE);
    if (targeted) assert_int_equal(got->target, want->target);
    if (want->kind == CMD_ENGAGE || (declare && want->act == CMD_ENGAGE)) {
        assert_int_equal(got->weapon, want->weapon);
        assert_int_equal(got->weapon2, want->weapon2);
    }
    /* A path ends where the AI meant; hex for hex when legs were laid. */
    assert_int_equal(got->n_path > 0, want->n_path > 0);
    if (want->n_path > 0) {
        assert_true(same_cell(got->path[got->n_path - 1], want->path[want->n_path - 1]));
        bool exact = got->n_path == want->n_path;
        for (int k = 0; exact && k < want->n_path; k++)
            exact = same_cell(got->path[k], want->path[k]);
        assert_true(exact);
        f->exact_paths++;
        if (declare && want->act == CMD_MOVE) {
            int ft = 0;
            for (int k = 0; k < want->n_path; k++)
                ft += map_terrain_at(b->map, want->path[k])->move * b->map->feet_per_hex;
            f->long_moves += ft > b->prof[actor].speed_ft;
        }
    }
    f->user_cmds++;
    f->kinds[want->kind]++;
}

/* ---- the whole battle --------------------------------------------------- */

/* Let the Architect's sides play as the window lets them: the screen's tick,
 * with its animations skipped so the test does not wait for them. */
static void ai_turns(pt_t *f)
{
    pui_t *p = f->p;
    for (int i = 0; i < 400 && !pui_battle(p)->over && !p->user_turn && !pui_needs_die(p) &&
                    !pui_needs_answer(p);
         i++) {
        anim_snap(&p->anim);
        pui_tick(p, PUI_AI_PAUSE + 0.01);
    }
}

static void play_out(pt_t *f, bool all_events)
{
    pui_t *p = f->p;
    int user_turn_starts = 0, last_actor = -1;
    for (int guard = 0; guard < 20000 && !pui_battle(p)->over; guard++) {
        assert_false(pui_needs_die(p)); /* every side rolls by the computer */
        if (pui_battle(p)->round > MAX_ROUNDS)
            fail_msg("still fighting after %d rounds", MAX_ROUNDS);
        if (pui_needs_answer(p)) {
            /* A reaction put to the table (F4): it takes the first option,
             * by its number key. */
            const react_request_t *q = &pui_battle(p)->ask;
            assert_true(q->n >= 2);
            assert_true(battle_is_player(pui_battle(p), q->who));
            int cmds = pui_battle(p)->cmds.n;
            f->events = true;
            press(f, SDLK_1);
            f->answers++;
            f->taken += pui_battle(p)->cmds.n > cmds || pui_needs_answer(p) || pui_needs_die(p);
            continue;
        }
        if (!p->user_turn) {
            ai_turns(f);
            last_actor = -1;
            continue;
        }
        if (p->actor != last_actor) user_turn_starts++;
        last_actor = p->actor;
        /* Events for the whole first battle, else for the first turn. */
        f->events = all_events || user_turn_starts == 1;
        cmd_t want;
        p->play.rs->ai(p->play.b, p->actor, &want);
        give(f, &want);
        anim_snap(&p->anim);
    }
    f->events = false;
    assert_true(pui_battle(p)->over);
}

/* The end of the battle as a referee sees it, saved for a person to look at. */
static void shoot(pt_t *f, const char *png)
{
    SDL_Surface *surf =
        SDL_CreateRGBSurfaceWithFormat(0, VIEW_W, VIEW_H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, pui_battle(f->p)->map, err, sizeof err);
    assert_non_null(d);
    anim_snap(&f->p->anim);
    ui_window_draw(d, &f->st);
    SDL_RenderPresent(r);
    assert_int_equal(IMG_SavePNG(surf, png), 0);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
}

static void report(const pt_t *f, const char *map)
{
    char buf[128];
    const char *res = pui_result(f->p, buf, sizeof buf);
    char kinds[256] = "";
    size_t used = 0;
    for (int k = 0; k < CMD_COUNT && used < sizeof kinds; k++)
        if (f->kinds[k])
            used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s%d %s",
                                     used ? ", " : "", f->kinds[k], cmd_kind_name((cmd_kind_t)k));
    printf("# %s: %s; %d move+attack declarations, %d long declared moves; %d referee commands "
           "(%s), %d paths, %d legs laid, %d target clicks, %d button clicks\n",
           map, res ? res : "-", f->declared_moves_with_attack, f->long_moves, f->user_cmds, kinds,
           f->exact_paths, f->legs, f->target_clicks, f->button_clicks);
}

/* Play one bundled map to its end; the winner must be a side (not a round
 * limit), and the referee must have fought, not only ended turns. */
static void playthrough(const char *map, uint64_t seed, bool all_events, pt_t *f)
{
    open_battle(f, map, seed);
    play_out(f, all_events);
    const battle_t *b = pui_battle(f->p);
    char buf[128];
    const char *res = pui_result(f->p, buf, sizeof buf);
    assert_non_null(res);
    assert_true(b->winner >= 0);
    assert_non_null(strstr(res, b->board->side_name[b->winner]));
    assert_non_null(strstr(
        res, map_faction_is_player(b->map, b->board->side_name[b->winner]) ? "VICTORY" : "DEFEAT"));
    assert_true(f->user_cmds > 0);
    /* Once over, the screen takes no more commands. */
    assert_false(pui_end_turn(f->p));
    char png[256];
    snprintf(png, sizeof png, "/tmp/hexbattle_playthrough_%.*s.png", (int)strcspn(map, "."), map);
    shoot(f, png);
    report(f, map);
}

static void test_ridge_ambush_by_sdl_events(void **state)
{
    (void)state;
    pt_t f;
    playthrough("ridge_ambush.json", 19, true, &f);
    assert_true(f.kinds[CMD_ENGAGE] > 0);
    assert_true(f.kinds[CMD_MOVE] > 0);
    close_battle(&f);
}

static void test_foundry_breach(void **state)
{
    (void)state;
    pt_t f;
    playthrough("foundry_breach.json", 7, false, &f);
    assert_true(f.kinds[CMD_ENGAGE] > 0);
    assert_true(f.kinds[CMD_MOVE] > 0);
    close_battle(&f);
}

static void test_river_crossing_by_sdl_events(void **state)
{
    (void)state;
    pt_t f;
    playthrough("river_crossing.json", 2, true, &f);
    close_battle(&f);
}

/* Activation through the window with the players' reactions put to the
 * table (F4): whenever a foe's action or move gives a player combatant an
 * interrupt or a held action, the question stops the foe's activation and
 * the table takes it by its number key. The players win. */
static void test_shattered_lane_table_interrupts(void **state)
{
    (void)state;
    pt_t f;
    open_battle(&f, "shattered_lane.json", 1);
    f.events = true;
    press(&f, SDLK_F4);
    assert_true(f.p->ask);
    play_out(&f, true);
    const battle_t *b = pui_battle(f.p);
    assert_true(b->winner >= 0);
    assert_true(map_faction_is_player(b->map, b->board->side_name[b->winner]));
    char buf[128];
    assert_non_null(strstr(pui_result(f.p, buf, sizeof buf), "VICTORY"));
    /* Questions came, and interrupts of the players were taken by the table
     * inside the foes' activations. */
    assert_true(f.answers > 0);
    int taken = 0;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_REACTION && battle_is_player(b, e->who) && !battle_is_player(b, e->target))
            taken++;
    }
    assert_true(taken > 0);
    shoot(&f, "/tmp/hexbattle_playthrough_shattered_lane.png");
    report(&f, "shattered_lane.json");
    printf("# shattered_lane: %d reactions put to the table, %d taken\n", f.answers, taken);
    close_battle(&f);
}

/* surface: faction turns, two actions, soak and heat, through the screen. */
static void test_relay_outpost_by_sdl_events(void **state)
{
    (void)state;
    pt_t f;
    playthrough("relay_outpost.json", 1, true, &f);
    assert_true(f.kinds[CMD_ENGAGE] > 0);
    assert_true(f.kinds[CMD_MOVE] > 0);
    close_battle(&f);
}

static void test_salt_flats(void **state)
{
    (void)state;
    pt_t f;
    playthrough("salt_flats.json", 2, false, &f);
    assert_true(f.kinds[CMD_DECLARE] > 0);
    close_battle(&f);
}

/* ---- the inputs the playthroughs needed, one by one --------------------- */

/* A small open battle of the ruleset: "vex" (players, always first: DEX 20
 * in scars, Evasion 30 in xhalem) at (vex_col, 1) with its stats plus
 * `more`, and "foe" at (foe_col, 1), on a 20x7 map. */
static void open_fixture_at(pt_t *f, const char *ruleset, int vex_col, int foe_col,
                            const char *more)
{
    memset(f, 0, sizeof *f);
    f->m = fx_map(20, 7, ruleset, NULL);
    f->db = fx_db(ruleset);
    fx_weapon(f->db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    bool scars = strcmp(ruleset, "scars") == 0;
    char stats[128];
    snprintf(stats, sizeof stats, "%s%s%s", scars ? "dex=20,str=10" : "agility=3,evasion=30",
             more ? "," : "", more ? more : "");
    fx_add(f->m, "vex", "players", vex_col, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 30, "knife", stats);
    fx_add(f->m, "foe", "raiders", foe_col, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 30, "knife",
           scars ? "dex=10,str=10" : "agility=0,evasion=-10");
    f->p = malloc(sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, 1), BATTLE_OK);
    map_t *bm = pui_battle(f->p)->map; /* the battle draws its own copy */
    for (int i = 0; i < bm->n_types; i++)
        bm->types[i].color = i == T_WALL ? 0x505058u : 0x7a9a5au; /* for the screenshots */
    assert_true(hud_init(&f->hud, f->p));
    fx_state_fit(&f->st, &f->hud, f->m, VIEW_W, VIEW_H);
    ai_turns(f);
    assert_true(f->p->user_turn);
    assert_int_equal(f->p->actor, 0);
}

static void open_fixture(pt_t *f, const char *ruleset, int foe_col)
{
    open_fixture_at(f, ruleset, 1, foe_col, NULL);
}

static void close_fixture(pt_t *f)
{
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    free(f->db);
}

static int declare_engage_button(const pui_t *p)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == CMD_DECLARE && p->bar[i].act == CMD_ENGAGE) return i;
    return -1;
}

/* scars: a declaration moves and then attacks. Shift+click lays the move
 * (here by real events, Shift held), the attack is then offered from the
 * plan's end with its odds, and Enter declares both as one command. */
static void test_scars_move_then_attack_declared(void **state)
{
    (void)state;
    pt_t f;
    open_fixture(&f, "scars", 8);
    f.events = true;
    pui_t *p = f.p;
    assert_int_equal(declare_engage_button(p), -1); /* foe is 7 hexes off */
    click(&f, (cell_t){7, 1}, true);
    assert_int_equal(p->n_plan, 6);
    assert_int_equal(p->plan_ft, 30);
    assert_int_equal(pui_battle(p)->cmds.n, 0); /* planned, not declared */
    assert_true(same_cell(cell_of(&f, 0), (cell_t){1, 1}));
    int i = declare_engage_button(p);
    assert_true(i >= 0);
    press(&f, (SDL_Keycode)p->bar[i].key);
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, 1);
    assert_true(p->pred.valid);
    assert_true(p->pred.p_hit > 0.99); /* judged from (7,1), where it reaches */
    /* The planned route stays on screen while the attack is confirmed. */
    assert_int_equal(p->n_path, 7);
    assert_true(same_cell(p->path[6], (cell_t){7, 1}));
    assert_non_null(strstr(p->msg, "lands")); /* no roll to hit in scars */
    shoot(&f, "/tmp/hexbattle_playthrough_scars_plan.png");
    press(&f, SDLK_RETURN);
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, 1);
    const cmd_t *c = &b->cmds.c[0];
    assert_int_equal(c->kind, CMD_DECLARE);
    assert_int_equal(c->act, CMD_ENGAGE);
    assert_int_equal(c->target, 1);
    assert_int_equal(c->n_path, 6);
    for (int k = 0; k < 6; k++)
        assert_true(same_cell(c->path[k], (cell_t){2 + k, 1}));
    /* vex's phase resolved: it went there and struck. */
    assert_true(same_cell(cell_of(&f, 0), (cell_t){7, 1}));
    int attacks = 0;
    for (int k = 0; k < b->log.n; k++)
        attacks += b->log.ev[k].type == EV_ATTACK && b->log.ev[k].who == 0;
    assert_int_equal(attacks, 1);
    assert_int_equal(p->n_plan, 0);
    close_fixture(&f);
}

/* scars: a declared move spends the action on a second move, so it reaches
 * twice the speed; Esc drops a plan and nothing is declared. */
static void test_scars_long_move_and_dropped_plan(void **state)
{
    (void)state;
    pt_t f;
    open_fixture(&f, "scars", 18);
    pui_t *p = f.p;
    const battle_t *b = pui_battle(p);
    assert_int_equal(p->budget_ft, 2 * b->prof[0].speed_ft);
    click(&f, (cell_t){4, 1}, true);
    assert_int_equal(p->n_plan, 3);
    press(&f, SDLK_ESCAPE);
    assert_int_equal(p->n_plan, 0);
    assert_int_equal(b->cmds.n, 0);
    /* Fifteen hexes: past the plain speed (10), within the second move. */
    cell_t far = {16, 1};
    assert_true(b->prof[0].speed_ft < 15 * 5);
    click(&f, far, false);
    b = pui_battle(p);
    assert_int_equal(b->cmds.n, 1);
    assert_int_equal(b->cmds.c[0].kind, CMD_DECLARE);
    assert_int_equal(b->cmds.c[0].act, CMD_MOVE);
    assert_int_equal(b->cmds.c[0].n_path, 15);
    assert_true(same_cell(cell_of(&f, 0), far));
    close_fixture(&f);
}

/* xhalem: a move of two legs follows the route laid, not the cheapest one,
 * and costs what that route costs. */
static void test_xhalem_move_in_legs(void **state)
{
    (void)state;
    pt_t f;
    open_fixture(&f, "xhalem", 12);
    pui_t *p = f.p;
    assert_int_equal(p->budget_ft, 30);
    /* Straight along row 1 to (4,1) is 15 ft; by way of (2,0) it is 20. */
    hover(&f, (cell_t){4, 1});
    assert_int_equal(p->path_cost, 15);
    click(&f, (cell_t){2, 0}, true);
    assert_int_equal(p->n_plan, 1);
    hover(&f, (cell_t){4, 1});
    assert_int_equal(p->path_cost, 20);
    assert_true(same_cell(p->path[1], (cell_t){2, 0}));
    /* A leg past the budget is refused and the plan stays as it was. */
    assert_false(pui_plan_cell(p, (cell_t){12, 4}));
    assert_int_equal(p->n_plan, 1);
    click(&f, (cell_t){4, 1}, false);
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, 1);
    const cmd_t *c = &b->cmds.c[0];
    assert_int_equal(c->kind, CMD_MOVE);
    assert_int_equal(c->n_path, 4);
    assert_true(same_cell(c->path[0], (cell_t){2, 0}));
    assert_true(same_cell(c->path[3], (cell_t){4, 1}));
    assert_int_equal(p->budget_ft, 10);
    assert_int_equal(p->n_plan, 0);
    close_fixture(&f);
}

static int button_of(const pui_t *p, cmd_kind_t kind, cmd_kind_t act)
{
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].kind == kind && (kind != CMD_DECLARE || p->bar[i].act == act)) return i;
    return -1;
}

/* xhalem: a teleport lands on the hex the referee clicks after choosing it;
 * a hex the rules refuse (too far) keeps the screen asking. */
static void test_xhalem_teleport_to_a_clicked_hex(void **state)
{
    (void)state;
    pt_t f;
    open_fixture_at(&f, "xhalem", 1, 12, "teleport=30");
    f.events = true;
    pui_t *p = f.p;
    int i = button_of(p, CMD_TELEPORT, CMD_END);
    assert_true(i >= 0);
    assert_true(p->bar[i].key != 0);
    press(&f, (SDL_Keycode)p->bar[i].key);
    assert_int_equal(p->mode, PUI_TARGET);
    assert_int_equal(pui_battle(p)->cmds.n, 0);
    click(&f, (cell_t){10, 1}, false); /* 45 ft: beyond its 30 */
    assert_int_equal(pui_battle(p)->cmds.n, 0);
    assert_int_equal(p->mode, PUI_TARGET);
    assert_true(same_cell(cell_of(&f, 0), (cell_t){1, 1}));
    click(&f, (cell_t){5, 3}, false);
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, 1);
    assert_int_equal(b->cmds.c[0].kind, CMD_TELEPORT);
    assert_true(same_cell(b->cmds.c[0].at, (cell_t){5, 3}));
    assert_true(same_cell(cell_of(&f, 0), (cell_t){5, 3}));
    assert_int_equal(p->mode, PUI_IDLE);
    close_fixture(&f);
}

/* The log's events of type t since event `from`. */
static int count_since(const battle_t *b, int from, ev_type_t t)
{
    int n = 0;
    for (int k = from; k < b->log.n; k++)
        n += b->log.ev[k].type == t;
    return n;
}

/* Index of the last event of type t, or -1. */
static int last_event(const battle_t *b, ev_type_t t)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == t) return k;
    return -1;
}

/* emcore: play on (the AI's choices given through the screen) until a
 * player has to declare in an Immediate phase. */
static void to_players_declaring(pt_t *f)
{
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    for (int guard = 0; guard < 2000 && !b->over; guard++) {
        if (p->user_turn && em_phase(b) == EP_IMMEDIATE) break;
        if (!p->user_turn) {
            ai_turns(f);
            continue;
        }
        cmd_t want;
        p->play.rs->ai(p->play.b, p->actor, &want);
        give(f, &want);
        anim_snap(&p->anim);
    }
    assert_false(b->over);
}

/* A pool typed as one line (issue 34, item 12): the players' emcore fight
 * roll waits for several d12; "9 9 9" and Enter, typed as SDL key events,
 * gives three of them at once, where each Enter used to give one. */
static void test_emcore_pool_typed_as_one_line(void **state)
{
    (void)state;
    pt_t f;
    open_battle(&f, "river_crossing.json", 2);
    pui_t *p = f.p;
    const battle_t *b = pui_battle(p);
    to_players_declaring(&f);
    press(&f, SDLK_p);
    while (!pui_needs_die(p) && p->user_turn && em_phase(b) == EP_IMMEDIATE) {
        cmd_t want;
        p->play.rs->ai(p->play.b, p->actor, &want);
        int i = bar_for(p, &want);
        assert_true(i >= 0);
        bool targeted = p->bar[i].targeted;
        choose(&f, i);
        if (targeted) {
            if (p->mode != PUI_CONFIRM || p->target != want.target)
                click(&f, cell_of(&f, want.target), false);
            press(&f, SDLK_RETURN);
        }
    }
    assert_true(pui_needs_die(p));
    f.events = true;
    const SDL_Keycode line[] = {SDLK_9, SDLK_SPACE, SDLK_9, SDLK_SPACE, SDLK_9};
    for (size_t k = 0; k < sizeof line / sizeof line[0]; k++)
        press(&f, line[k]);
    assert_string_equal(p->entry, "9 9 9");
    press(&f, SDLK_RETURN);
    /* Three dice went in, or the roll took fewer and is done. */
    assert_true(p->line_entered == 3 || (p->line_entered > 0 && !pui_needs_die(p)));
    assert_true(p->line_entered >= 2);
    assert_string_equal(p->entry, "");
    close_battle(&f);
}

/* emcore: the physical-dice prompt says how many d12 and what counts. The
 * players' side rolls at the table; the last declaration sets off the
 * rolls, and the first player's fight roll waits for its dice, typed in. */
static void test_emcore_dice_prompt(void **state)
{
    (void)state;
    pt_t f;
    open_battle(&f, "river_crossing.json", 2);
    pui_t *p = f.p;
    const battle_t *b = pui_battle(p);
    to_players_declaring(&f);
    press(&f, SDLK_p); /* the players roll physical dice from now on */
    int typed = 0;
    while (!pui_needs_die(p) && p->user_turn && em_phase(b) == EP_IMMEDIATE) {
        cmd_t want;
        p->play.rs->ai(p->play.b, p->actor, &want);
        const pui_t *cp = p;
        int before = pui_battle(cp)->cmds.n;
        int i = bar_for(p, &want);
        assert_true(i >= 0);
        bool targeted = p->bar[i].targeted;
        choose(&f, i);
        if (targeted) {
            if (p->mode != PUI_CONFIRM || p->target != want.target) click(&f, cell_of(&f, want.target), false);
            press(&f, SDLK_RETURN);
        }
        assert_true(pui_needs_die(p) || pui_battle(cp)->cmds.n == before + 1);
    }
    assert_true(pui_needs_die(p));
    char prompt[256];
    pui_die_prompt(p, prompt, sizeof prompt);
    printf("# emcore dice prompt: %s\n", prompt);
    assert_non_null(strstr(prompt, "d12"));
    assert_non_null(strstr(prompt, "8+ succeeds"));
    assert_non_null(strstr(prompt, "10+ counts 2"));
    assert_non_null(strstr(prompt, "a 1 takes one away"));
    shoot(&f, "/tmp/hexbattle_emcore_dice_prompt.png");
    /* Type a 9 for every die the table rolls until the phase resolves. */
    for (int guard = 0; guard < 200 && pui_needs_die(p); guard++) {
        press(&f, SDLK_9);
        press(&f, SDLK_RETURN);
        typed++;
    }
    assert_false(pui_needs_die(p));
    assert_true(typed > 0);
    assert_true(em_phase(b) != EP_IMMEDIATE || b->over);
    close_battle(&f);
}

/* emcore: an Immediate phase as the referee meets it at the window. The
 * Architect's engaged characters have declared, unseen, before the first
 * player's turn comes; the referee then declares for each player by SDL
 * events, and only with the last does every declaration come out, in map
 * order, before the rolls. The battle is then played on to its end. */
static void test_emcore_immediate_declared_unseen(void **state)
{
    (void)state;
    pt_t f;
    open_battle(&f, "river_crossing.json", 2);
    pui_t *p = f.p;
    const battle_t *b = pui_battle(p);
    const em_state_t *s = (const em_state_t *)b->rs;
    to_players_declaring(&f);
    assert_int_equal(em_phase(b), EP_IMMEDIATE);
    int phase_at = last_event(b, EV_PHASE);
    assert_true(phase_at >= 0);
    int architects = 0, players = 0;
    for (int i = 0; i < b->n; i++) {
        if (!em_participant(b, i)) continue;
        if (battle_is_player(b, i)) {
            players++;
        } else {
            architects++;
            assert_true(s->decl[i].set); /* the AI has declared already */
        }
    }
    assert_true(architects > 0 && players > 0);
    /* ... and nothing of it shows: no declaration, no roll since the phase began. */
    assert_int_equal(count_since(b, phase_at, EV_DECLARE), 0);
    assert_int_equal(count_since(b, phase_at, EV_ROLL), 0);
    shoot(&f, "/tmp/hexbattle_emcore_immediate_before.png");
    /* The referee declares for each player, by SDL events. */
    f.events = true;
    int given = 0;
    while (p->user_turn && em_phase(b) == EP_IMMEDIATE && !b->over) {
        assert_int_equal(count_since(b, phase_at, EV_DECLARE), 0);
        cmd_t want;
        p->play.rs->ai(p->play.b, p->actor, &want);
        assert_int_equal(want.kind, CMD_DECLARE);
        give(&f, &want);
        anim_snap(&p->anim);
        given++;
    }
    f.events = false;
    assert_int_equal(given, players);
    assert_int_equal(count_since(b, phase_at, EV_DECLARE), architects + players);
    int prev = -1, first_roll = -1;
    for (int k = phase_at; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_ROLL && first_roll < 0) first_roll = k;
        if (e->type != EV_DECLARE) continue;
        assert_true(first_roll < 0); /* every declaration before any roll */
        assert_true(e->who > prev);  /* in map order */
        prev = e->who;
    }
    shoot(&f, "/tmp/hexbattle_emcore_immediate_after.png");
    play_out(&f, false);
    assert_true(b->over);
    close_battle(&f);
}

/* scars: on the map's edge a retreat is declared from its button's key. */
static void test_scars_retreat_by_key(void **state)
{
    (void)state;
    pt_t f;
    open_fixture_at(&f, "scars", 0, 12, NULL);
    pui_t *p = f.p;
    int i = button_of(p, CMD_DECLARE, CMD_RETREAT);
    assert_true(i >= 0);
    assert_true(p->bar[i].key != 0);
    press(&f, (SDL_Keycode)p->bar[i].key);
    const battle_t *b = pui_battle(p);
    assert_int_equal(b->cmds.n, 1);
    assert_int_equal(b->cmds.c[0].kind, CMD_DECLARE);
    assert_int_equal(b->cmds.c[0].act, CMD_RETREAT);
    /* The phase resolved at once: a DEX save of 20 always passes, so vex fled. */
    assert_true(b->u[0].out);
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ridge_ambush_by_sdl_events),
        cmocka_unit_test(test_foundry_breach),
        cmocka_unit_test(test_salt_flats),
        cmocka_unit_test(test_river_crossing_by_sdl_events),
        cmocka_unit_test(test_shattered_lane_table_interrupts),
        cmocka_unit_test(test_relay_outpost_by_sdl_events),
        cmocka_unit_test(test_scars_move_then_attack_declared),
        cmocka_unit_test(test_scars_long_move_and_dropped_plan),
        cmocka_unit_test(test_xhalem_move_in_legs),
        cmocka_unit_test(test_xhalem_teleport_to_a_clicked_hex),
        cmocka_unit_test(test_scars_retreat_by_key),
        cmocka_unit_test(test_emcore_immediate_declared_unseen),
        cmocka_unit_test(test_emcore_pool_typed_as_one_line),
        cmocka_unit_test(test_emcore_dice_prompt),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
