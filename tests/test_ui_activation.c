/* test_ui_activation.c - the play screen on activation battles: a telegraphed
 * Meteor ([Delay 2]) is marked on the map where it will land, with its
 * countdown, until it lands; the battle log says when. A frame with the mark
 * is saved to /tmp to look at. */
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

#include "core/trigger.h"
#include "io/map_io.h"
#include "rules/activation/act.h"
#include "rules_fixture.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/telegraph.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

/* A small battle on the bundled data: a bulwark with Meteor against two
 * brawlers, one of which will walk out of the blast. */
static const char MAP[] =
    "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Meteor test\","
    " \"ruleset\": \"activation\","
    " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 12, \"rows\": 6,"
    " \"feet_per_hex\": 5},"
    " \"terrain\": {\"legend\": {\".\": \"open\", \",\": \"brush\", \"#\": \"wall\"},"
    " \"rows\": [\"............\", \"....,,......\", \"............\", \"......#.....\","
    " \"............\", \"............\"]},"
    " \"combatants\": ["
    "  {\"id\": \"hale\", \"name\": \"Hale\", \"faction\": \"players\", \"at\": [1, 2],"
    "   \"template\": \"bulwark\", \"weapons\": [\"meteor\", \"strike\"], \"stats\": {\"spd\": 30}},"
    "  {\"id\": \"tor\", \"name\": \"Tor\", \"faction\": \"rivals\", \"at\": [7, 2],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"]},"
    "  {\"id\": \"ugo\", \"name\": \"Ugo\", \"faction\": \"rivals\", \"at\": [8, 2],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"], \"stats\": {\"spd\": 5}}]}";

static pui_t *open_meteor(map_t **m, tmpl_db_t **db)
{
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    assert_int_equal(map_load_mem(MAP, sizeof MAP - 1, "meteor test", data, m, db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, *m, *db, 5), BATTLE_OK);
    return p;
}

/* Apply c as the screen does: the computer rolls every die the battle waits
 * for (the window rolls for a side that does not roll by hand). */
static void apply_ok(pui_t *p, cmd_t c)
{
    battle_status_t st = play_apply(&p->play, &c);
    while (st == BATTLE_NEED_DICE)
        st = play_enter_die(&p->play, rng_die(&p->rng, p->play.b->need.sides));
    assert_int_equal(st, BATTLE_OK);
    pui_refresh(p);
}

static void frame(pui_t *p, const char *png)
{
    fx_play_frame(p, NULL, VIEW_W, VIEW_H, png);
}

static void test_meteor_marked_until_it_lands(void **state)
{
    (void)state;
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    pui_t *p = open_meteor(&m, &db);
    battle_t *b = p->play.b;
    assert_int_equal(p->actor, 0); /* SPD 30 first */
    ui_telegraph_t tg[UI_TELEGRAPH_MAX];
    assert_int_equal(ui_telegraphs(b, tg, UI_TELEGRAPH_MAX), 0);

    /* Meteor at tor's hex: a Blast 1 that lands after two activations end. */
    cmd_t c = fx_engage(0, 1, 0);
    apply_ok(p, c);
    assert_int_equal(ui_telegraphs(b, tg, UI_TELEGRAPH_MAX), 1);
    assert_int_equal(tg[0].who, 0);
    assert_true(tg[0].has_at);
    assert_int_equal(tg[0].left, 2);
    assert_int_equal(tg[0].at.col, 7);
    assert_int_equal(tg[0].at.row, 2);
    assert_string_equal(tg[0].name, "meteor");
    /* The marked hexes are the blast's, as the rules lay it. */
    hex_t hx[64], want[64];
    int n = ui_telegraph_hexes(b, &tg[0], hx, 64);
    area_t a = area_blast(b->board->pos[0], b->board->pos[1], 1);
    int nw = area_hexes(b->board, &a, want, 64);
    assert_int_equal(n, 7);
    assert_int_equal(n, nw);
    for (int k = 0; k < n; k++) assert_true(hex_eq(hx[k], want[k]));
    /* The log says so in words. */
    char line[160];
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == EV_DECLARE) {
            hud_log_text(p, &b->log.ev[k], line, sizeof line);
            break;
        }
    assert_non_null(strstr(line, "meteor lands in 2"));
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    frame(p, "/tmp/hexbattle_activation_telegraph.png");

    /* Its user's activation ends: one to go. Tor walks out; ugo stays. */
    apply_ok(p, cmd_make(CMD_END, 0));
    assert_int_equal(ui_telegraphs(b, tg, UI_TELEGRAPH_MAX), 1);
    assert_int_equal(tg[0].left, 1);
    assert_int_equal(p->actor, 1);
    cmd_t mv = FX_PATH(1, 7, 3, 7, 4);
    apply_ok(p, mv);
    apply_ok(p, cmd_make(CMD_END, 1));
    /* It has landed: no mark, and ugo (still there) was struck, tor not. */
    assert_int_equal(ui_telegraphs(b, tg, UI_TELEGRAPH_MAX), 0);
    assert_true(FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"hale\"", "\"target\":\"ugo\"") >= 0);
    assert_true(FX_FIND(b, 0, "\"attack\"", "\"target\":\"tor\"") < 0);
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* Grim (the AI's) strikes Tor, whose Counter the table may take. */
static const char DUEL[] =
    "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Counter test\","
    " \"ruleset\": \"activation\","
    " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 8, \"rows\": 4,"
    " \"feet_per_hex\": 5},"
    " \"terrain\": {\"legend\": {\".\": \"open\"},"
    " \"rows\": [\"........\", \"........\", \"........\", \"........\"]},"
    " \"combatants\": ["
    "  {\"id\": \"grim\", \"name\": \"Grim\", \"faction\": \"rivals\", \"at\": [3, 1],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"], \"stats\": {\"spd\": 30}},"
    "  {\"id\": \"tor\", \"name\": \"Tor\", \"faction\": \"players\", \"at\": [4, 1],"
    "   \"template\": \"brawler\"}]}";

/* The table is asked (F4): the foe's Strike stops for Tor's answer, shown
 * as buttons (0 pass, 1 Counter); the table takes the Counter by its key,
 * and it lands before the Strike, inside Grim's activation. */
static void test_interrupt_put_to_the_table(void **state)
{
    (void)state;
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load_mem(DUEL, sizeof DUEL - 1, "counter test", data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    assert_true(pui_key(p, SDLK_F4, 0));
    assert_true(p->ask);
    assert_false(p->user_turn); /* Grim first: the AI's turn */
    pui_run_ai(p, 5);
    assert_true(pui_needs_answer(p));
    const battle_t *b = p->play.b;
    assert_int_equal(b->ask.who, 1);
    assert_int_equal(b->ask.trigger, 0);
    assert_string_equal(b->ask.kind, "interrupt");
    assert_int_equal(b->ask.n, 2);
    assert_string_equal(b->ask.labels[0], "pass");
    assert_string_equal(b->ask.labels[1], "Counter [Interrupt 2]");
    assert_non_null(strstr(p->msg, "Tor may react to Grim"));
    /* Nothing of the Strike has happened yet, and the AI waits. */
    assert_true(FX_FIND(b, 0, "\"attack\"") < 0);
    pui_tick(p, 5.0);
    assert_true(pui_needs_answer(p));
    assert_false(b->over);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    frame(p, "/tmp/hexbattle_activation_interrupt.png");
    /* An answer out of range is refused; 1 takes the Counter. */
    assert_false(pui_answer(p, 2));
    assert_true(pui_key(p, SDLK_1, 0));
    assert_false(pui_needs_answer(p));
    b = p->play.b;
    int counter = FX_FIND(b, 0, "\"reaction\"", "\"id\":\"tor\"", "\"kind\":\"interrupt\"");
    int strike = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"grim\"");
    assert_true(counter >= 0);
    assert_true(strike > counter); /* the Counter resolved first */
    assert_true(FX_FIND(b, counter, "\"attack\"", "\"attacker\":\"tor\"", "\"weapon\":\"counter\"") < strike);
    /* The answer is part of Grim's command: a rebuild replays it. */
    assert_int_equal(b->cmds.c[b->cmds.n - 1].n_answers, 1);
    assert_int_equal(b->cmds.c[b->cmds.n - 1].answer[0], 1);
    int events = b->log.n;
    assert_int_equal(play_rebuild(&p->play), BATTLE_OK);
    assert_int_equal(p->play.b->log.n, events);
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* The physical-dice prompt for an accuracy roll says what is rolled against
 * what: a d100 at or under the chance the stages give. */
static void test_dice_prompt_names_the_chance(void **state)
{
    (void)state;
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load_mem(DUEL, sizeof DUEL - 1, "counter test", data, &m, &db, err, sizeof err), 0);
    /* Tor acts first here, with a Strike (Accuracy 100) at Grim, EVA 2:
     * 100 x 3/5 = 60. */
    m->combatants[0].stats[0].value = 5; /* Grim's SPD: Tor first */
    hb_strlcpy(m->combatants[0].stats[1].key, "eva", sizeof m->combatants[0].stats[1].key);
    m->combatants[0].stats[1].value = 2;
    m->combatants[0].n_stats = 2;
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    assert_true(p->user_turn);
    assert_int_equal(p->actor, 1);
    pui_toggle_physical(p);
    cmd_t c = fx_engage(1, 0, 0);
    battle_status_t st = play_apply(&p->play, &c);
    assert_int_equal(st, BATTLE_NEED_DICE);
    assert_true(pui_needs_die(p));
    char prompt[256];
    pui_die_prompt(p, prompt, sizeof prompt);
    assert_non_null(strstr(prompt, "Tor"));
    assert_non_null(strstr(prompt, "on Grim"));
    assert_non_null(strstr(prompt, "1d100: 60 or under succeeds"));
    /* 60 hits; then the critical d100 and the 2d6 of damage. */
    const int faces[] = {60, 50, 3, 3};
    for (int k = 0; k < 4; k++) assert_true(pui_enter_die(p, faces[k]));
    assert_false(pui_needs_die(p));
    assert_true(FX_FIND(p->play.b, 0, "\"attack\"", "\"attacker\":\"tor\"", "\"hit\":true") >= 0);
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* Three reactors' battle: Al (fast) holds a Strike for "an ally is
 * targeted" and could also Guard; Bo has a Counter; Grim (the AI's) strikes
 * Bo. */
static const char TRIO[] =
    "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Declared levels\","
    " \"ruleset\": \"activation\","
    " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 8, \"rows\": 4,"
    " \"feet_per_hex\": 5},"
    " \"terrain\": {\"legend\": {\".\": \"open\"},"
    " \"rows\": [\"........\", \"........\", \"........\", \"........\"]},"
    " \"combatants\": ["
    "  {\"id\": \"grim\", \"name\": \"Grim\", \"faction\": \"rivals\", \"at\": [3, 1],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"], \"stats\": {\"spd\": 30}, \"hp\": 200},"
    "  {\"id\": \"bo\", \"name\": \"Bo\", \"faction\": \"players\", \"at\": [4, 1],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\", \"counter\"], \"stats\": {\"spd\": 10},"
    "   \"hp\": 200},"
    "  {\"id\": \"al\", \"name\": \"Al\", \"faction\": \"players\", \"at\": [4, 0],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\", \"guard\"], \"stats\": {\"spd\": 40},"
    "   \"hp\": 200}]}";

/* Push one event and let the window's handler take all that is queued, as
 * the window's loop does. */
static void push_key(ui_state_t *st, SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    assert_int_equal(SDL_PushEvent(&e), 1);
    e.type = SDL_KEYUP;
    assert_int_equal(SDL_PushEvent(&e), 1);
    SDL_Event got;
    while (SDL_PollEvent(&got)) ui_handle_event(st, &got);
}

/* A5 on the screen, through the window's own events: the table is asked
 * (F4); Al's question lists Guard and its held Strike with their interrupt
 * levels; Al declares the Strike ([Interrupt 1], key 2); Bo's question
 * then shows Counter [Interrupt 2], and the tracker lists Al's Strike as
 * declared and waiting. Bo takes the Counter (key 1): it resolves first,
 * Al's Strike after it, Grim's blow last. A frame of Bo's question is saved
 * to /tmp to look at. */
static void test_declared_levels_on_screen(void **state)
{
    (void)state;
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load_mem(TRIO, sizeof TRIO - 1, "trio", data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, VIEW_W, VIEW_H);
    /* Al acts first: it holds its Strike for "an ally is targeted". */
    assert_int_equal(p->actor, 2);
    cmd_t hold = cmd_make(CMD_STANDBY, 2);
    hold.weapon = 0;
    hold.arg = TRIG_TARGETS_ALLY;
    apply_ok(p, hold);
    apply_ok(p, cmd_make(CMD_END, 2));
    push_key(&st, SDLK_F4); /* the table decides the players' reactions */
    assert_true(p->ask);
    assert_false(p->user_turn);
    pui_run_ai(p, 5); /* Grim strikes Bo */
    assert_true(pui_needs_answer(p));
    const battle_t *b = p->play.b;
    assert_int_equal(b->ask.who, 2);
    assert_int_equal(b->ask.n, 3);
    assert_string_equal(b->ask.labels[1], "Guard [Interrupt 3]");
    assert_string_equal(b->ask.labels[2], "Strike (held) [Interrupt 1]");
    push_key(&st, SDLK_2);
    b = p->play.b;
    assert_true(pui_needs_answer(p));
    assert_int_equal(b->ask.who, 1);
    assert_int_equal(b->ask.n, 2);
    assert_string_equal(b->ask.labels[1], "Counter [Interrupt 2]");
    /* The tracker's source: Al's declared Strike first, then the timeline. */
    turn_slot_t q[QUEUE_MAX];
    int nq = ruleset_queue(p->play.rs, b, q, QUEUE_MAX);
    assert_true(nq >= 2);
    assert_true(q[0].reaction);
    assert_int_equal(q[0].who, 2);
    assert_string_equal(q[0].label, "Strike (held) [Interrupt 1]");
    assert_false(q[1].reaction);
    /* Nothing has resolved yet: both answers wait for Bo's. */
    assert_true(FX_FIND(b, 0, "\"attack\"") < 0);
    /* The status line says once who may react (issue 34): the question. */
    char line[512];
    pui_status(p, line, sizeof line);
    const char *said = strstr(line, "may react");
    assert_non_null(said);
    assert_null(strstr(said + 1, "may react"));
    assert_non_null(strstr(line, "Round"));
    /* 1200 px wide: the tracker is folded away, and the answers declared so
     * far show over the map in the order they resolve, on no token. */
    ui_state_t drawn;
    SDL_Surface *surf =
        fx_play_surface(p, &hud, VIEW_W, VIEW_H, "/tmp/hexbattle_activation_declared.png", &drawn);
    SDL_FreeSurface(surf);
    assert_int_equal(hud.lay.tracker.w, 0);
    SDL_Rect res = hud.resolves;
    assert_true(res.w > 0 && res.h > 0);
    assert_true(res.x >= hud.lay.map.x && res.y >= hud.lay.map.y &&
                res.x + res.w <= hud.lay.map.x + hud.lay.map.w &&
                res.y + res.h <= hud.lay.map.y + hud.lay.map.h);
    for (int i = 0; i < b->n; i++) {
        SDL_Point at = fx_cell_point(&drawn, hex_to_cell(m->layout, b->board->pos[i]));
        int rr = (int)ui_token_screen_radius(m->combatants[i].size, drawn.cam.zoom);
        SDL_Rect tok = {at.x - rr, at.y - rr, 2 * rr, 2 * rr};
        assert_false(SDL_HasIntersection(&tok, &res));
    }
    push_key(&st, SDLK_1);
    assert_false(pui_needs_answer(p));
    b = p->play.b;
    int counter = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"bo\"", "\"weapon\":\"counter\"");
    int held = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"al\"", "\"weapon\":\"strike\"");
    int blow = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"grim\"");
    assert_true(counter >= 0);
    assert_true(held > counter); /* Interrupt 2 before Interrupt 1 */
    assert_true(blow > held);
    /* Both answers are part of Grim's command, in the order asked. */
    const cmd_t *gc = &b->cmds.c[b->cmds.n - 1];
    assert_int_equal(gc->n_answers, 2);
    assert_int_equal(gc->answer[0], 2);
    assert_int_equal(gc->answer[1], 1);
    hud_free(&hud);
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* A23 amended on the action bar: Gus holds Tee in a grapple; Move stays,
 * Dash is greyed with its reason, Strike too. A frame is saved to /tmp. */
static void test_controller_bar_greys_dash(void **state)
{
    (void)state;
    static const char GRIP[] =
        "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Grip\","
        " \"ruleset\": \"activation\","
        " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 8, \"rows\": 4,"
        " \"feet_per_hex\": 5},"
        " \"terrain\": {\"legend\": {\".\": \"open\"},"
        " \"rows\": [\"........\", \"........\", \"........\", \"........\"]},"
        " \"combatants\": ["
        "  {\"id\": \"gus\", \"name\": \"Gus\", \"faction\": \"players\", \"at\": [3, 1],"
        "   \"template\": \"brawler\", \"weapons\": [\"strike\", \"slam\", \"dash\"]},"
        "  {\"id\": \"tee\", \"name\": \"Tee\", \"faction\": \"rivals\", \"at\": [4, 1],"
        "   \"template\": \"skirmisher\", \"stats\": {\"spd\": 10}}]}";
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load_mem(GRIP, sizeof GRIP - 1, "grip", data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    assert_int_equal(p->actor, 0);
    /* Free, Gus may Dash. */
    bool dash_on = false;
    for (int k = 0; k < p->n_bar; k++)
        dash_on |= p->bar[k].kind == CMD_MOVE && p->bar[k].arg == AM_DASH && !p->bar[k].off;
    assert_true(dash_on);
    /* The grapple as a won Grab leaves it (set here: no dice to roll). */
    act_join_grapple(p->play.b, 0, 0, 0);
    act_join_grapple(p->play.b, 1, 0, 1);
    pui_refresh(p);
    bool move = false, dash_off = false, strike_off = false;
    for (int k = 0; k < p->n_bar; k++) {
        const pui_action_t *a = &p->bar[k];
        move |= a->kind == CMD_MOVE && a->arg == AM_MOVE && !a->off;
        if (a->kind == CMD_MOVE && a->arg == AM_DASH) {
            assert_true(a->off);
            assert_string_equal(a->why, "grappled: only Move and [Grapple] actions");
            dash_off = true;
        }
        if (a->kind == CMD_ENGAGE && a->weapon == 0) {
            assert_true(a->off);
            strike_off = true;
        }
    }
    assert_true(move && dash_off && strike_off);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    frame(p, "/tmp/hexbattle_activation_grip.png");
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controller_bar_greys_dash),
        cmocka_unit_test(test_declared_levels_on_screen),
        cmocka_unit_test(test_dice_prompt_names_the_chance),
        cmocka_unit_test(test_meteor_marked_until_it_lands),
        cmocka_unit_test(test_interrupt_put_to_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
