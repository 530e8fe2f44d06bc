/* test_xhalem_actions.c - the Xha'lem rules, part two (test_xhalem.c has
 * initiative, engagement, the turn, opportunity, the other actions and the
 * AI): mounts, held moves, the table's answers to reactions, dual strikes,
 * secondary actions, thrust, standby triggers, teleport, and the
 * prediction's shape of a roll. One test per rule, on hand-entered dice.
 *
 * Every die is typed in (manual mode), so each test knows the exact numbers
 * and would fail if the rule were read differently. Maps are pointy odd-r;
 * most fights happen along one row, where (c,r) and (c+1,r) are adjacent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xhalem_fixture.h"

/* ---- mounts ---------------------------------------------------------------- */

/* r (rider, medium, 30 ft) beside h (horse, large ally, 60 ft); foe far off.
 * Initiative: r 15, foe 10, h 5. */
static void mount_scene(fx_t *f, csize_t horse_size, ckind_t horse_kind, const char *horse_side)
{
    f->m = fx_map(14, 3, "xhalem", NULL);
    fx_add(f->m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "foe", "raiders", 12, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "h", horse_side, 2, 1, horse_kind, horse_size, 30, 60, "knife", "");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 10, 5));
}

static void test_mount_needs_willing_larger_mount(void **state)
{
    (void)state;
    struct {
        csize_t size;
        ckind_t kind;
        const char *side;
        battle_status_t want;
    } cases[] = {
        {SIZE_LARGE, KIND_CREATURE, "players", BATTLE_OK},
        {SIZE_MEDIUM, KIND_CREATURE, "players", BATTLE_ILLEGAL},  /* not larger */
        {SIZE_LARGE, KIND_CREATURE, "raiders", BATTLE_ILLEGAL},   /* not willing */
        {SIZE_LARGE, KIND_MACHINE, "players", BATTLE_ILLEGAL},    /* big enough to enter */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        mount_scene(&f, cases[k].size, cases[k].kind, cases[k].side);
        cmd_t list[64];
        int nl = ((const ruleset_t *)f.p.b->rules)->legal(f.p.b, 0, list, 64);
        bool offered = false;
        for (int q = 0; q < nl && q < 64; q++)
            offered = offered || (list[q].kind == CMD_MOUNT && list[q].target == 2);
        assert_int_equal(offered, cases[k].want == BATTLE_OK);
        cmd_t c = cmd_make(CMD_MOUNT, 0);
        c.target = 2;
        assert_int_equal(play_apply(&f.p, &c), cases[k].want);
        if (cases[k].want == BATTLE_OK) {
            assert_int_equal(xhalem_mount_of(f.p.b, 0), 2);
            hex_t pr = f.p.b->board->pos[0], ph = f.p.b->board->pos[2];
            assert_true(pr.q == ph.q && pr.r == ph.r);
            /* It was the action. */
            assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_DASH, .actor = 0}), BATTLE_ILLEGAL);
        } else {
            assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
        }
        fx_free(&f);
    }
    /* Out of reach: two hexes away. */
    fx_t f;
    f.m = fx_map(14, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 12, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "h", "players", 3, 1, KIND_CREATURE, SIZE_LARGE, 30, 60, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* The AI weighs hexes by standing the rider on them for a look; a rider
 * shares its mount's hex without holding it, so the look must put the hex
 * back as it was (it once handed the mount's hex to the rider, and the
 * next mover could walk onto the mount). */
static void test_ai_look_keeps_the_mount_in_its_hex(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "ally", "players", 7, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "h", "players", 2, 1, KIND_CREATURE, SIZE_LARGE, 30, 60, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 8, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 3;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    for (int k = 0; k < 3; k++) /* r, foe, ally end: r's turn again */
        assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, k), FX_NO_DICE), BATTLE_OK);
    board_t *bd = f.p.b->board;
    int cell = board_cell_index(bd, bd->pos[3]);
    assert_int_equal(bd->occ[cell], 3);
    cmd_t plan;
    f.p.rs->ai(f.p.b, 0, &plan);
    assert_int_equal(plan.kind, CMD_MOVE); /* it weighed hexes beside the foe */
    assert_int_equal(bd->occ[cell], 3);
    assert_true(hex_eq(bd->pos[0], bd->pos[3]));
    fx_free(&f);
}

static void test_mounted_speed_and_shared_turn(void **state)
{
    (void)state;
    fx_t f;
    mount_scene(&f, SIZE_LARGE, KIND_CREATURE, "players");
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    /* The horse's 60 ft replace the rider's 30. */
    assert_int_equal(xhalem_move_left(f.p.b), 60);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1, 5, 1, 6, 1, 7, 1, 8, 1, 9, 1), FX_NO_DICE),
                     BATTLE_OK);
    hex_t want = hex_from_cell(f.p.b->map->layout, (cell_t){9, 1});
    hex_t pr = f.p.b->board->pos[0], ph = f.p.b->board->pos[2];
    assert_true(pr.q == want.q && pr.r == want.r);
    assert_true(ph.q == want.q && ph.r == want.r);
    assert_int_equal(board_occupant(f.p.b->board, want), 2);
    assert_int_equal(xhalem_move_left(f.p.b), 25);
    /* Shared initiative: r, foe, then r again - the horse has no turn of its own. */
    int from = f.p.b->log.n;
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    assert_int_equal(FX_FIND(f.p.b, from, "\"turn_start\"", "\"id\":\"h\""), -1);
    assert_true(FX_FIND(f.p.b, from, "\"turn_start\"", "\"round\":2", "\"id\":\"r\"") >= 0);
    /* Dismounting is the action, onto a free hex beside the mount; the horse
     * then gets its own turn back. */
    cmd_t off = cmd_make(CMD_DISMOUNT, 0);
    off.at = (cell_t){11, 1}; /* two hexes off: refused */
    assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
    off.at = (cell_t){10, 1};
    assert_int_equal(play_apply(&f.p, &off), BATTLE_OK);
    assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
    assert_int_equal(board_occupant(f.p.b->board, hex_from_cell(f.p.b->map->layout, (cell_t){10, 1})), 0);
    assert_int_equal(board_occupant(f.p.b->board, want), 2);
    assert_int_equal(xhalem_move_left(f.p.b), 30);
    from = f.p.b->log.n;
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    assert_true(FX_FIND(f.p.b, from, "\"turn_start\"", "\"id\":\"h\"") >= 0);
    fx_free(&f);
}

static void test_fallen_mount_drops_rider(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=10,strength=5");
    fx_add(f.m, "h", "players", 2, 1, KIND_CREATURE, SIZE_LARGE, 1, 60, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    assert_int_equal(do_tens(&f.p, fx_engage(1, 2, 0)), BATTLE_OK);
    assert_false(battle_active(f.p.b, 2));
    assert_true(battle_active(f.p.b, 0));
    assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
    hex_t h = hex_from_cell(f.p.b->map->layout, (cell_t){2, 1});
    assert_int_equal(board_occupant(f.p.b->board, h), 0); /* the rider now holds the hex */
    assert_true(FX_FIND(f.p.b, 0, "\"condition\"", "\"id\":\"r\"", "\"mounted\"", "\"on\":false") >= 0);
    fx_free(&f);
}

static void test_use_door(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "..D.....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    fx_add(f.m, "t", "raiders", 7, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t through = FX_PATH(0, 2, 1);
    assert_int_equal(play_apply(&f.p, &through), BATTLE_ILLEGAL);
    cmd_t use = cmd_make(CMD_USE, 0);
    use.at = (cell_t){2, 1};
    assert_int_equal(fx_do(&f.p, use, FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"terrain\"", "\"at\":[2,1]", "\"door_open\"") >= 0);
    assert_int_equal(fx_do(&f.p, through, FX_NO_DICE), BATTLE_OK);
    /* The source map is untouched: a rebuild starts from the shut door. */
    assert_int_equal(f.m->cells[1 * 8 + 2], T_DOOR);
    fx_free(&f);
}

static void test_flight_switches_speed(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", ".~~~~~..", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    int a = fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife", NULL);
    f.m->combatants[a].fly_ft = 30;
    fx_add(f.m, "t", "raiders", 7, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Walking, water costs double: one water hex is all 10 ft buys. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 0);
    /* Take off: 30 ft less the 10 already moved leaves 20, at the plain rate. */
    cmd_t fly = cmd_make(CMD_FLY, 0);
    fly.arg = 1;
    assert_int_equal(fx_do(&f.p, fly, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 20);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 2, 1, 3, 1), FX_NO_DICE), BATTLE_OK);
    fx_free(&f);
}

static void test_underwater_disadvantage_and_fire(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", ".~~.....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    f.m->types[T_WATER].depth = DEPTH_DEEP; /* underwater is deep water, not wading */
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "torch", "agility=0");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Both in water: 2d20 keep low (9) beats 3; the torch's fire does nothing there. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(9, 15, 3, 6)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"2d20\"", "\"kept\":[9]") >= 0);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 0);
    fx_free(&f);
}

static void test_dual_strike(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 375, "mech_fist,mech_gun",
           "systems=0,hull=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t c = fx_engage(0, 1, 0);
    c.weapon2 = 1; /* a machine may switch weapons between the two strikes */
    assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 2, 3, 4, 10, 2, 6)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 2);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"mech_gun\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 40 - 7 - 6);
    fx_free(&f);
    /* Without the program: illegal. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 375, "mech_fist,mech_gun", NULL);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_creature_switch_costs_action(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, CRE, CRE);
    /* a holds the knife; the rifle is not at hand. */
    assert_false(xhalem_equipped(f.p.b, 0, 1));
    cmd_t shot = fx_engage(0, 1, 1);
    assert_int_equal(play_apply(&f.p, &shot), BATTLE_ILLEGAL);
    cmd_t sw = cmd_make(CMD_SWITCH, 0);
    sw.weapon = 1;
    assert_int_equal(fx_do(&f.p, sw, FX_NO_DICE), BATTLE_OK);
    assert_true(xhalem_equipped(f.p.b, 0, 1));
    assert_int_equal(play_apply(&f.p, &shot), BATTLE_ILLEGAL); /* the action is spent */
    fx_free(&f);
}

/* w (players, 30 ft) at (1,1) holds a move to `to`, trigger: r enters reach.
 * r (raiders, unarmed so nothing provokes) walks in from (5,1). w first
 * spends `walk_ft` of its move pacing between (1,1) and (0,1). */
static void held_move_scene(fx_t *f, int walk_ft, cell_t to)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "r", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, NULL, "");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
    cmd_t pace = cmd_make(CMD_MOVE, 0);
    for (int k = 0; k < walk_ft / 5; k++)
        pace.path[pace.n_path++] = (cell_t){k % 2 == 0 ? 0 : 1, 1};
    if (pace.n_path > 0)
        assert_int_equal(fx_do(&f->p, pace, FX_NO_DICE), BATTLE_OK);
    cmd_t sb = cmd_make(CMD_STANDBY, 0);
    sb.arg = XT_ENTERS_REACH;
    sb.weapon = 0;
    sb.act = CMD_MOVE;
    sb.at = to;
    assert_int_equal(fx_do(&f->p, sb, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
}

static void test_standby_move_uses_only_leftover_movement(void **state)
{
    (void)state;
    /* (1,1) to (1,3) is 10 ft: 20 ft walked leaves 10, 30 ft walked leaves 0. */
    static const int WALKED[2] = {20, 30};
    for (int k = 0; k < 2; k++) {
        fx_t f;
        held_move_scene(&f, WALKED[k], (cell_t){1, 3});
        assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1), FX_NO_DICE), BATTLE_OK);
        const xh_state_t *s = f.p.b->rs;
        hex_t w = f.p.b->board->pos[0];
        hex_t goal = hex_from_cell(f.p.b->map->layout, (cell_t){1, 3});
        if (k == 0) {
            assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"") >= 0);
            assert_true(hex_eq(w, goal));
            assert_int_equal(s->standby[0], 0);
            assert_int_equal(s->reaction_used[0], 1);
        } else {
            /* Too far for what is left: no reaction, and the move stays held. */
            assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
            assert_false(hex_eq(w, goal));
            assert_int_equal(s->standby[0], 1);
        }
        fx_free(&f);
    }
}

static void test_standby_move_never_ends_on_the_movers_way(void **state)
{
    (void)state;
    fx_t f;
    /* w wants (2,2), the very hex r's move ends on: it cannot go there now. */
    held_move_scene(&f, 0, (cell_t){2, 2});
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1, 2, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    hex_t r = f.p.b->board->pos[1];
    assert_true(hex_eq(r, hex_from_cell(f.p.b->map->layout, (cell_t){2, 2})));
    assert_true(hex_eq(f.p.b->board->pos[0], hex_from_cell(f.p.b->map->layout, (cell_t){1, 1})));
    fx_free(&f);
    /* Somewhere else beside the way is fine, and r still finishes its move. */
    held_move_scene(&f, 0, (cell_t){1, 2});
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1, 2, 2), FX_NO_DICE), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(re >= 0);
    assert_true(FX_FIND(f.p.b, re, "\"move_step\"", "\"id\":\"w\"", "\"to\":[1,2]") > re);
    assert_true(FX_FIND(f.p.b, re, "\"move_step\"", "\"id\":\"r\"", "\"to\":[2,2]") > re);
    fx_free(&f);
}

/* t (raiders) goes first and walks out of a's reach; the players' side is
 * asked about each reaction. */
static void asked_scene(fx_t *f)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f->db = weapons();
    battle_opts_t o = {.seed = 1, .manual_all = true};
    o.ask_sides = 1u << 0; /* board side 0: the players, first in the map */
    battle_status_t st = play_start(&f->p, f->m, f->db, NULL, &o);
    assert_int_equal(fx_feed(&f->p, st, FX_DICE(5, 15)), BATTLE_OK);
    assert_string_equal(f->p.b->board->side_name[0], "players");
}

static void test_table_answers_each_reaction(void **state)
{
    (void)state;
    for (int take = 0; take < 2; take++) {
        fx_t f;
        asked_scene(&f);
        cmd_t away = FX_PATH(1, 3, 1, 4, 1);
        /* The move stops before anything happens, naming who may react. */
        assert_int_equal(play_apply(&f.p, &away), BATTLE_NEED_REACTION);
        assert_true(f.p.b->asking);
        assert_int_equal(f.p.b->ask.who, 0);
        assert_int_equal(f.p.b->ask.trigger, 1);
        assert_string_equal(f.p.b->ask.kind, "opportunity");
        /* The options, the strike with its odds (the same as the screen's). */
        assert_int_equal(f.p.b->ask.n, 2);
        assert_string_equal(f.p.b->ask.labels[0], "let it pass");
        assert_non_null(strstr(f.p.b->ask.labels[1], "strike: "));
        assert_non_null(strstr(f.p.b->ask.labels[1], "% to hit, "));
        assert_non_null(strstr(f.p.b->ask.labels[1], " dmg"));
        assert_int_equal(FX_FIND(f.p.b, 0, "\"move_step\""), -1);
        int actors[4];
        assert_int_equal(play_actors(&f.p, actors, 4), 0);
        assert_int_equal(play_enter_die(&f.p, 3), BATTLE_ILLEGAL); /* not a dice stop */
        assert_int_equal(play_apply(&f.p, &away), BATTLE_NEED_REACTION); /* still waiting */
        battle_status_t st = play_answer_reaction(&f.p, take == 1);
        if (take)
            st = fx_feed(&f.p, st, FX_DICE(12, 3, 5, 4));
        assert_int_equal(st, BATTLE_OK);
        assert_int_equal(play_answer_reaction(&f.p, true), BATTLE_ILLEGAL);
        /* The answer is in the kept command, so a rebuild plays it the same. */
        const battle_t *b = f.p.b;
        assert_int_equal(b->cmds.n, 1);
        assert_int_equal(b->cmds.c[0].n_answers, 1);
        assert_int_equal((int)b->cmds.c[0].answer[0], take);
        int re = FX_FIND(b, 0, "\"reaction\"", "\"opportunity\"");
        assert_true(take ? re >= 0 : re == -1);
        assert_int_equal(b->u[1].hp, take ? 20 - 4 : 20);
        int n_before = b->log.n;
        assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
        assert_int_equal(f.p.b->log.n, n_before);
        assert_int_equal(f.p.b->u[1].hp, take ? 16 : 20);
        assert_true(hex_eq(f.p.b->board->pos[1], hex_from_cell(f.p.b->map->layout, (cell_t){4, 1})));
        fx_free(&f);
    }
}

static void test_unasked_side_reacts_without_stopping(void **state)
{
    (void)state;
    fx_t f;
    asked_scene(&f);
    /* Only the raiders are asked now; a is a player and simply strikes. */
    f.p.b->opts.ask_sides = 1u << 1;
    cmd_t away = FX_PATH(1, 3, 1, 4, 1);
    assert_int_equal(fx_do(&f.p, away, FX_DICE(12, 3, 5, 4)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    assert_int_equal(f.p.b->cmds.c[0].n_answers, 0);
    /* Asking the players from now on does not change what was already
     * played: the rebuild takes the reaction as it was taken then. */
    int n_before = f.p.b->log.n;
    f.p.b->opts.ask_sides = 1u << 0;
    assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
    assert_int_equal(f.p.b->log.n, n_before);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    fx_free(&f);
}

static void test_creature_dual_strike_keeps_one_weapon(void **state)
{
    (void)state;
    fx_t f;
    /* A dual-striking creature with a knife in hand and a javelin carried. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife,javelin",
           "agility=0,strength=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t mixed = fx_engage(0, 1, 0);
    mixed.weapon2 = 1; /* switching between strikes: not for a creature */
    assert_int_equal(play_apply(&f.p, &mixed), BATTLE_ILLEGAL);
    cmd_t twice = fx_engage(0, 1, 0);
    twice.weapon2 = 0;
    assert_int_equal(fx_do(&f.p, twice, FX_DICE(10, 2, 3, 10, 2, 5)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 2);
    assert_int_equal(f.p.b->u[1].hp, 40 - 3 - 5);
    fx_free(&f);
    /* With dual-weapon fighting both are in hand and it may use one of each. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife,torch",
           "agility=0,strength=0,dual_strike=1,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, mixed, FX_DICE(10, 2, 3, 10, 2, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"knife\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"torch\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 40 - 3 - 5);
    fx_free(&f);
    /* A grapple replaces both strikes: one attempt, and the action is gone. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife",
           "strength=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t grab = cmd_make(CMD_GRAPPLE, 0);
    grab.target = 1;
    grab.weapon = grab.weapon2 = 0;
    assert_int_equal(fx_do(&f.p, grab, FX_DICE(4, 9)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ACTION), 1);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 0);
    assert_false(last_of(f.p.b, EV_ACTION)->hit);
    assert_int_equal(play_apply(&f.p, &twice), BATTLE_ILLEGAL);
    assert_int_equal(play_apply(&f.p, &grab), BATTLE_ILLEGAL);
    fx_free(&f);
    /* Without dual strike, one engage action is one attack. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(play_apply(&f.p, &twice), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* The shape of one d20 roll for a set of modifiers, read off its roll event. */
static void roll_shape_of(fx_t *f, xh_mods_t m, int *n, int *keep_low)
{
    int before = f->p.b->log.n;
    xhalem_d20(f->p.b, 0, m, 0, "probe", NULL);
    assert_int_equal(f->p.b->log.n, before + 1);
    const event_t *e = &f->p.b->log.ev[before];
    *n = e->n_dice;
    int lo = e->dice[0];
    for (int k = 1; k < e->n_dice; k++)
        lo = e->dice[k] < lo ? e->dice[k] : lo;
    *keep_low = e->kept_n == 1 && e->kept[0] == lo;
}

static void test_roll_modifiers_cancel_and_detriment(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    f.db = weapons();
    battle_opts_t o = {.seed = 11}; /* seeded: the shapes, not the faces, are checked */
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    int n, low;
    roll_shape_of(&f, (xh_mods_t){1, 0, false}, &n, &low);
    assert_int_equal(n, 2); /* advantage: 2d20 keep the higher */
    roll_shape_of(&f, (xh_mods_t){0, 1, false}, &n, &low);
    assert_int_equal(n, 2);
    assert_true(low);
    roll_shape_of(&f, (xh_mods_t){1, 1, false}, &n, &low);
    assert_int_equal(n, 1); /* they cancel to a straight roll */
    roll_shape_of(&f, (xh_mods_t){2, 1, false}, &n, &low);
    assert_int_equal(n, 1); /* however many of each */
    roll_shape_of(&f, (xh_mods_t){0, 0, true}, &n, &low);
    assert_int_equal(n, 4); /* detriment: 4d20 keep the lowest */
    assert_true(low);
    roll_shape_of(&f, (xh_mods_t){1, 0, true}, &n, &low);
    assert_int_equal(n, 2); /* detriment with advantage becomes disadvantage */
    assert_true(low);
    fx_free(&f);
}

static void test_reach_weapon_strikes_farther(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    /* Two hexes apart: 10 ft, inside a pike's reach, outside a knife's. */
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "pike", "");
    fx_add(f.m, "k", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "t", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    assert_int_equal(fx_do(&f.p, fx_engage(0, 2, 0), FX_DICE(10, 5, 3)), BATTLE_OK);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    cmd_t knife = fx_engage(1, 2, 0);
    assert_int_equal(play_apply(&f.p, &knife), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* ---- secondary actions ----------------------------------------------------- */

/* A template in f->db for combatant i, granting `secondary` ("" for none). */
static void give_template(fx_t *f, int i, const char *id, const char *secondary)
{
    map_combatant_t *c = &f->m->combatants[i];
    tmpl_t *t = &f->db->templates[f->db->n_templates++];
    memset(t, 0, sizeof *t);
    hb_strlcpy(t->id, id, sizeof t->id);
    hb_strlcpy(t->name, id, sizeof t->name);
    t->kind = c->kind;
    t->size = c->size;
    t->speed_ft = c->speed_ft;
    t->hp = c->hp;
    hb_strlcpy(t->secondary, secondary, sizeof t->secondary);
    hb_strlcpy(c->template_name, id, sizeof c->template_name);
}

static bool offered(fx_t *f, int a, cmd_kind_t kind, int weapon)
{
    cmd_t list[128];
    int n = ((const ruleset_t *)f->p.b->rules)->legal(f->p.b, a, list, 128);
    for (int k = 0; k < n && k < 128; k++)
        if (list[k].kind == kind && (kind != CMD_ENGAGE || list[k].weapon == weapon))
            return true;
    return false;
}

/* a (dual-weapon creature: knife, then an off-hand `spur` or plain `dirk`) beside t. */
static void offhand_scene(fx_t *f, bool tagged)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30,
           tagged ? "knife,spur" : "knife,dirk", "agility=0,dual_weapon=1");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f->db = weapons();
    fx_weapon(f->db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_weapon(f->db, "dirk", WPN_MELEE, false, 5, 0, 1, 4, 0, NULL);
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static void test_secondary_engage_after_primary_only(void **state)
{
    (void)state;
    for (int tagged = 0; tagged < 2; tagged++) {
        fx_t f;
        offhand_scene(&f, tagged);
        /* Primary: the knife (misses: 2 against 10). */
        assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
        /* Only a weapon that grants a secondary engagement may strike again. */
        assert_int_equal(offered(&f, 0, CMD_ENGAGE, 1), tagged == 1);
        assert_false(offered(&f, 0, CMD_ENGAGE, 0));
        cmd_t knife = fx_engage(0, 1, 0);
        assert_int_equal(play_apply(&f.p, &knife), BATTLE_ILLEGAL);
        cmd_t off = fx_engage(0, 1, 1);
        if (!tagged) {
            assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
            fx_free(&f);
            continue;
        }
        /* The spur hits (12 against 3) for its d4 plus Strength 0. */
        assert_int_equal(fx_do(&f.p, off, FX_DICE(12, 3, 3)), BATTLE_OK);
        assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
        assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 3);
        assert_int_equal(f.p.b->u[1].hp, 57);
        /* One secondary per turn. */
        assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
        assert_false(offered(&f, 0, CMD_ENGAGE, 1));
        fx_free(&f);
    }
}

static void test_secondary_may_follow_a_dash(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife,spur",
           "agility=0,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_weapon(f.db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Dash is the primary; then 15 of the doubled 20 ft; the spur strikes
     * after them, which ends the dash (RULINGS: a secondary comes before or
     * after the whole dash, never between its steps)... */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1, 2, 1, 3, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 1), FX_DICE(2, 10)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    assert_int_equal(xhalem_move_left(f.p.b), 0);
    cmd_t on = FX_PATH(0, 3, 2);
    assert_int_equal(play_apply(&f.p, &on), BATTLE_ILLEGAL);
    fx_free(&f);
    /* ...or before them, and then the whole dash follows. */
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife,spur",
           "agility=0,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_weapon(f.db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 1), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 20);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 2, 0, 1, 0), FX_NO_DICE), BATTLE_OK);
    fx_free(&f);
}

/* m (machine with a cloaking program that may run as a secondary action). */
static void program_scene(fx_t *f, const char *secondary)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 30, "mech_fist", "cloak=1");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f->db = weapons();
    give_template(f, 0, "prowler", secondary);
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static void test_secondary_program_cloak(void **state)
{
    (void)state;
    /* Granted: strike first (the primary), then cloak as the secondary. */
    fx_t f;
    program_scene(&f, "cloak");
    assert_int_equal(xhalem_secondary_kind(f.p.b, 0), CMD_CLOAK);
    assert_true(offered(&f, 0, CMD_CLOAK, -1)); /* as a primary, any time */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_true(offered(&f, 0, CMD_CLOAK, -1));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & XC_CLOAKED);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    fx_free(&f);
    /* Never the reverse: a cloak first is the primary, and no engagement follows. */
    program_scene(&f, "cloak");
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_false(offered(&f, 0, CMD_ENGAGE, 0));
    cmd_t hit = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"action\":\"secondary\""), -1);
    fx_free(&f);
    /* Without the program, the cloak after a strike is refused. */
    program_scene(&f, "");
    assert_int_equal(xhalem_secondary_kind(f.p.b, 0), -1);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_false(offered(&f, 0, CMD_CLOAK, -1));
    cmd_t cl = cmd_make(CMD_CLOAK, 0);
    assert_int_equal(play_apply(&f.p, &cl), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* After its action the AI takes a granted hide or cloak, when it may. */
static void test_ai_takes_granted_secondary(void **state)
{
    (void)state;
    fx_t f;
    program_scene(&f, "cloak");
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_CLOAK);
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    assert_int_equal(ai_choice(&f, 0).kind, CMD_END); /* one secondary a turn */
    fx_free(&f);
    /* No program, no cloak. */
    program_scene(&f, "");
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(ai_choice(&f, 0).kind, CMD_END);
    fx_free(&f);
    /* A scout shoots from behind brush, then hides there; in the open it cannot. */
    static const char *const BRUSH[] = {"........", "...,....", "........"};
    for (int brush = 0; brush < 2; brush++) {
        f.m = fx_map(8, 3, "xhalem", brush ? BRUSH : NULL);
        fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle",
               "stealth=3,agility=0");
        fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        f.db = weapons();
        give_template(&f, 0, "scout", "hide");
        fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
        c = ai_choice(&f, 0);
        assert_int_equal(c.kind, CMD_ENGAGE);
        assert_int_equal(do_tens(&f.p, c), BATTLE_OK); /* behind brush t evades with advantage */
        c = ai_choice(&f, 0);
        assert_int_equal(c.kind, brush ? CMD_HIDE : CMD_END);
        if (brush) {
            assert_int_equal(fx_do(&f.p, c, FX_DICE(12)), BATTLE_OK);
            assert_true(f.p.b->u[0].cond & XC_HIDDEN);
            assert_int_equal(ai_choice(&f, 0).kind, CMD_END);
        }
        fx_free(&f);
    }
}

/* ---- machine thrust ---------------------------------------------------------- */

static void test_thrust_doubles_machine_budget(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 0, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 15, "mech_fist", "");
    fx_add(f.m, "t", "raiders", 11, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "u", "raiders", 6, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 4));
    /* 5 ft before the thrust counts against the doubled 30 ft. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1), FX_NO_DICE), BATTLE_OK);
    cmd_t far = FX_PATH(0, 2, 1, 3, 1, 4, 1, 5, 1);
    assert_int_equal(play_apply(&f.p, &far), BATTLE_ILLEGAL); /* 20 ft > 10 left */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"thrust\"") >= 0);
    assert_int_equal(xhalem_move_left(f.p.b), 25);
    assert_int_equal(fx_do(&f.p, far, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 5);
    /* u is now beside m, but the thrust was the action: no engagement splits it. */
    cmd_t hit = fx_engage(0, 2, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    assert_false(offered(&f, 0, CMD_ENGAGE, 0));
    fx_free(&f);
}

/* ---- standby triggers -------------------------------------------------------- */

static cmd_t standby(int a, int trigger, int weapon)
{
    cmd_t sb = cmd_make(CMD_STANDBY, a);
    sb.arg = trigger;
    sb.weapon = weapon;
    return sb;
}

static void test_standby_on_dash(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=0");
    fx_add(f.m, "r", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_DASHES, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* Walking is not dashing: nothing. */
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 6, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    /* The dash is: w fires after it, before r's next step. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 1), FX_DICE(12, 3, 4)), BATTLE_OK);
    int dash = FX_FIND(f.p.b, 0, "\"action\":\"dash\"");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(dash >= 0 && re > dash);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 4);
    fx_free(&f);
}

static void test_standby_on_ranged_engagement(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "w", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r1", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r2", "raiders", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=0,evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_ENGAGES_RANGED, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* A knife does not set it off. */
    assert_int_equal(fx_do(&f.p, fx_engage(1, 0, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* A rifle shot does: w strikes r2 after it. */
    assert_int_equal(fx_do(&f.p, fx_engage(2, 0, 0), FX_DICE(2, 10, 12, 3, 4)), BATTLE_OK);
    int shot = FX_FIND(f.p.b, 0, "\"attack\"", "\"attacker\":\"r2\"");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(shot >= 0 && re > shot);
    assert_true(FX_FIND(f.p.b, re, "\"attack\"", "\"attacker\":\"w\"") > re);
    assert_int_equal(f.p.b->u[2].hp, 16);
    fx_free(&f);
}

static void test_standby_on_engaging_an_ally(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "w", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "p", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    fx_add(f.m, "r1", "raiders", 3, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r2", "raiders", 3, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 12, 10, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_ENGAGES_ALLY, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* r1 engaging w itself is not the trigger. */
    assert_int_equal(fx_do(&f.p, fx_engage(2, 0, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE);
    /* r2 engaging the ally p is. */
    assert_int_equal(fx_do(&f.p, fx_engage(3, 1, 0), FX_DICE(2, 10, 12, 3, 4)), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"", "\"target\":\"r2\"");
    assert_true(re >= 0);
    assert_true(FX_FIND(f.p.b, re, "\"attack\"", "\"attacker\":\"w\"", "\"target\":\"r2\"") > re);
    assert_int_equal(f.p.b->u[3].hp, 16);
    fx_free(&f);
}

/* w holds a move to (0,1) on trigger k; r steps once, from (7,1) to (6,1). */
static int moves_in_sight_case(int trigger, const char *const *rows)
{
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", rows);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "r", "raiders", 7, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, NULL, "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t sb = standby(0, trigger, 0);
    sb.act = CMD_MOVE;
    sb.at = (cell_t){0, 1};
    assert_int_equal(fx_do(&f.p, sb, FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 6, 1), FX_NO_DICE), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    int moved = FX_FIND(f.p.b, 0, "\"move_step\"", "\"id\":\"w\"", "\"to\":[0,1]");
    assert_true((re >= 0) == (moved > re));
    fx_free(&f);
    return re >= 0;
}

static void test_standby_on_any_move_in_sight(void **state)
{
    (void)state;
    static const char *const WALLED[] = {"........", "...#....", "........", "........"};
    /* Any step in sight sets it off, far outside every reach... */
    assert_true(moves_in_sight_case(XT_MOVES_IN_SIGHT, OPEN8));
    /* ...where "enters reach" does not... */
    assert_false(moves_in_sight_case(XT_ENTERS_REACH, OPEN8));
    /* ...and a step behind a wall is not seen. */
    assert_false(moves_in_sight_case(XT_MOVES_IN_SIGHT, WALLED));
}

/* ---- mounts under forced movement ----------------------------------------- */

/* r rides h (large); foe f pushes h one hex west. The mount's and the rider's
 * checks (d20 + Strength against 10) roll m_die and r_die. */
static void pushed_mount(fx_t *f, int m_die, int r_die)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "r", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,strength=0");
    fx_add(f->m, "f", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f->m, "h", "players", 3, 1, KIND_CREATURE, SIZE_LARGE, 30, 30, "knife", "evasion=0,strength=0");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(fx_do(&f->p, c, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    cmd_t push = cmd_make(CMD_SHOVE, 1);
    push.target = 2;
    push.arg = 1;
    /* Engagement 12 v 3 hits; shove 15 v 5 wins; then the two checks. */
    assert_int_equal(fx_do(&f->p, push, FX_DICE(12, 3, 15, 5, m_die, r_die)), BATTLE_OK);
    /* The mount was pushed a hex straight away from f, its rider along. */
    hex_t was = hex_from_cell(f->p.b->map->layout, (cell_t){3, 1});
    assert_int_equal(hex_distance(f->p.b->board->pos[2], was), 1);
    assert_int_equal(hex_distance(f->p.b->board->pos[2], f->p.b->board->pos[1]), 2);
}

static void test_pushed_mount_checks(void **state)
{
    (void)state;
    struct {
        int m_die, r_die;
        bool m_prone, still_on, r_prone;
    } cases[] = {
        {14, 14, false, true, false},  /* both hold */
        {4, 14, true, false, false},   /* mount down, rider lands on its feet */
        {14, 4, false, false, true},   /* rider thrown off, prone */
        {4, 4, true, false, true},     /* both down */
        {10, 10, false, true, false},  /* meeting 10 is enough */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        pushed_mount(&f, cases[k].m_die, cases[k].r_die);
        const battle_t *b = f.p.b;
        assert_int_equal((b->u[2].cond & XC_PRONE) != 0, cases[k].m_prone);
        assert_int_equal(xhalem_mount_of(b, 0) == 2, cases[k].still_on);
        assert_int_equal((b->u[0].cond & XC_PRONE) != 0, cases[k].r_prone);
        if (cases[k].still_on) {
            assert_true(hex_eq(b->board->pos[0], b->board->pos[2]));
        } else {
            /* Off, within 5 ft of the mount, holding a hex of its own. */
            assert_int_equal(hex_distance(b->board->pos[0], b->board->pos[2]), 1);
            assert_int_equal(board_occupant(b->board, b->board->pos[0]), 0);
            assert_true(FX_FIND(b, 0, "\"condition\"", "\"id\":\"r\"", "\"mounted\"", "\"on\":false") >= 0);
        }
        fx_free(&f);
    }
}

static void test_rider_strikes_from_the_mounts_hex(void **state)
{
    (void)state;
    fx_t f;
    pushed_mount(&f, 14, 14);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE), BATTLE_OK);
    /* Round 2, r's turn: the mount stands two hexes from f, so r's knife (5 ft,
     * measured from the mount's hex) cannot reach... */
    cmd_t hit = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    /* ...until the mount carries it back beside f; then r strikes from there. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(board_occupant(f.p.b->board, f.p.b->board->pos[0]), 2);
    assert_true(hex_eq(f.p.b->board->pos[0], f.p.b->board->pos[2]));
    assert_int_equal(fx_do(&f.p, hit, FX_DICE(12, 3, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"attacker\":\"r\"", "\"target\":\"f\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 15);
    fx_free(&f);
}

/* ---- teleport ----------------------------------------------------------------- */

/* m (teleport 15 ft) at (2,1) inside g's knife reach; g at (1,1). */
static void blink_scene(fx_t *f, const char *const *rows)
{
    f->m = fx_map(8, 3, "xhalem", rows);
    fx_add(f->m, "m", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife",
           "agility=0,evasion=0,teleport=15");
    fx_add(f->m, "g", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=1");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static cmd_t blink(int a, int col, int row)
{
    cmd_t c = cmd_make(CMD_TELEPORT, a);
    c.at = (cell_t){col, row};
    return c;
}

static void test_teleport_provokes_nothing(void **state)
{
    (void)state;
    fx_t f;
    /* Walking out of g's reach provokes... */
    blink_scene(&f, NULL);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_DICE(14, 2, 3, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    fx_free(&f);
    /* ...blinking out of it does not: no die is asked for, no reaction made. */
    blink_scene(&f, NULL);
    assert_true(offered(&f, 0, CMD_TELEPORT, -1));
    cmd_t far = blink(0, 6, 1); /* 20 ft: past its 15 */
    assert_int_equal(play_apply(&f.p, &far), BATTLE_ILLEGAL);
    cmd_t taken = blink(0, 1, 1); /* g's hex */
    assert_int_equal(play_apply(&f.p, &taken), BATTLE_ILLEGAL);
    assert_int_equal(fx_do(&f.p, blink(0, 4, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    assert_true(hex_eq(f.p.b->board->pos[0], hex_from_cell(f.p.b->map->layout, (cell_t){4, 1})));
    assert_true(FX_FIND(f.p.b, 0, "\"move_step\"", "\"to\":[4,1]", "\"mode\":\"teleport\"") >= 0);
    /* It was the action; the move is still whole. */
    assert_int_equal(xhalem_move_left(f.p.b), 30);
    cmd_t again = blink(0, 5, 1);
    assert_int_equal(play_apply(&f.p, &again), BATTLE_ILLEGAL);
    fx_free(&f);
    /* Only to a hex it can see. */
    static const char *const WALL[] = {"........", "...#....", "........"};
    blink_scene(&f, WALL);
    cmd_t hidden = blink(0, 4, 1);
    assert_int_equal(play_apply(&f.p, &hidden), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* ---- prediction and the roll share one shape ------------------------------- */

/* The first roll event at or after `from` rolled for `why`, or NULL. */
static const event_t *roll_for(const battle_t *b, int from, const char *why)
{
    for (int k = from; k < b->log.n; k++)
        if (b->log.ev[k].type == EV_ROLL && strcmp(b->log.ev[k].name, why) == 0)
            return &b->log.ev[k];
    return NULL;
}

/* Does roll e have the shape n d20 keeping `keep` (1 high, -1 low, 0 one die)? */
static bool shaped(const event_t *e, int n, int keep)
{
    if (e->n_dice != n || e->kept_n != 1)
        return false;
    int hi = e->dice[0], lo = e->dice[0];
    for (int k = 1; k < e->n_dice; k++) {
        hi = e->dice[k] > hi ? e->dice[k] : hi;
        lo = e->dice[k] < lo ? e->dice[k] : lo;
    }
    return keep > 0 ? e->kept[0] == hi : keep < 0 ? e->kept[0] == lo : n == 1;
}

static void test_prediction_matches_the_roll(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"..,.....^.", ".~~..#....", "...,,..^..",
                                       "..#...~~..", ".^....,...", "....#....."};
    unsigned seed = 12345u;
    int checked = 0, hits = 0, flat = 0, adv = 0, dis = 0;
    for (int trial = 0; trial < 600; trial++) {
        fx_t f;
        f.m = fx_map(10, 6, "xhalem", ROWS);
        /* Four combatants on distinct passable cells, picked by a fixed LCG. */
        cell_t used[4];
        for (int k = 0; k < 4; k++) {
            for (;;) {
                seed = seed * 1103515245u + 12345u;
                cell_t c = {(int)((seed >> 8) % 10), (int)((seed >> 20) % 6)};
                char ch = ROWS[c.row][c.col];
                bool clash = ch == '#';
                for (int j = 0; j < k; j++)
                    clash = clash || (used[j].col == c.col && used[j].row == c.row);
                if (!clash) {
                    used[k] = c;
                    break;
                }
            }
        }
        fx_add(f.m, "a", "players", used[0].col, used[0].row, KIND_CREATURE, SIZE_MEDIUM, 40, 30,
               "knife,rifle,laser", "agility=2,strength=1,evasion=3,dual_weapon=1");
        fx_add(f.m, "m", "players", used[1].col, used[1].row, KIND_MACHINE, SIZE_MEDIUM, 40, 30,
               "mech_fist,mech_beam", "systems=3,engine=2,hull=2,reactor=1");
        fx_add(f.m, "t", "raiders", used[2].col, used[2].row, KIND_CREATURE, SIZE_MEDIUM, 40, 30,
               "pike", "agility=1,evasion=2,aquatic=1");
        fx_add(f.m, "u", "raiders", used[3].col, used[3].row, KIND_MACHINE, SIZE_MEDIUM, 40, 30,
               "mech_gun", "systems=2,engine=1");
        f.db = weapons();
        battle_opts_t o = {.seed = (uint64_t)trial + 1};
        assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
        battle_t *b = f.p.b;
        xh_state_t *s = (xh_state_t *)b->rs;
        int a = s->actor;
        /* A random foe, equipped weapon and a sprinkle of conditions. */
        seed = seed * 1103515245u + 12345u;
        int foes[2], nf = 0;
        for (int k = 0; k < 4; k++)
            if (!board_allies(b->board, a, k))
                foes[nf++] = k;
        int t = foes[(seed >> 10) % 2];
        int w = (int)((seed >> 14) % (unsigned)(b->u[a].n_weapons + 1)) - 1;
        if (!xhalem_equipped(b, a, w))
            w = -1;
        unsigned r = seed >> 16;
        if (r & 1) b->u[t].cond |= XC_HIDDEN;
        if (r & 2) b->u[t].cond |= XC_CLOAKED;
        if (r & 4) s->revealed[t] = 1;
        if (r & 8) b->u[a].cond |= XC_HIDDEN;
        if (r & 16) s->assist_on[t] = 1 + (a < 2 ? 1 - a : 5 - a); /* a's ally distracts t */
        predict_t p;
        bool valid = predict_engage(b, a, t, w, &p);
        int from = b->log.n;
        cmd_t c = fx_engage(a, t, w);
        battle_status_t st = play_apply(&f.p, &c);
        assert_int_equal(st == BATTLE_OK, valid);
        if (valid) {
            checked++;
            const event_t *atk = roll_for(b, from, "engage");
            assert_non_null(atk);
            assert_true(shaped(atk, p.atk_n, p.atk_keep));
            assert_int_equal(atk->mod, p.atk_bonus);
            flat += p.atk_n == 1;
            adv += p.atk_keep > 0;
            dis += p.atk_keep < 0;
            const event_t *def = roll_for(b, from, "evade");
            if (def) {
                assert_true(shaped(def, p.def_n, p.def_keep));
                assert_int_equal(def->mod, p.def_bonus);
            } else {
                assert_true(p.def_n == 0 || p.p_hit == 0.0);
            }
            const event_t *at = last_of(b, EV_ATTACK);
            assert_non_null(at);
            /* The naturals rule as predicted: a kept 20 hits, a kept 1 misses. */
            if (p.naturals && atk->kept[0] == 20 && p.p_hit > 0.0)
                assert_true(at->hit);
            if (p.naturals && atk->kept[0] == 1)
                assert_false(at->hit);
            const event_t *dmg = roll_for(b, from, "damage");
            assert_int_equal(dmg != NULL, at->hit);
            if (dmg) {
                hits++;
                assert_int_equal(dmg->n_dice, p.dmg_n);
                assert_int_equal(dmg->sides, p.dmg_sides);
                assert_int_equal(dmg->mod, p.dmg_bonus);
            }
        }
        fx_free(&f);
    }
    /* The sample must reach the interesting shapes, not only plain rolls. */
    assert_true(checked > 200);
    assert_true(hits > 20);
    assert_true(flat > 10 && adv > 10 && dis > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mount_needs_willing_larger_mount),
        cmocka_unit_test(test_mounted_speed_and_shared_turn),
        cmocka_unit_test(test_ai_look_keeps_the_mount_in_its_hex),
        cmocka_unit_test(test_fallen_mount_drops_rider),
        cmocka_unit_test(test_use_door),
        cmocka_unit_test(test_flight_switches_speed),
        cmocka_unit_test(test_underwater_disadvantage_and_fire),
        cmocka_unit_test(test_dual_strike),
        cmocka_unit_test(test_creature_switch_costs_action),
        cmocka_unit_test(test_standby_move_uses_only_leftover_movement),
        cmocka_unit_test(test_standby_move_never_ends_on_the_movers_way),
        cmocka_unit_test(test_table_answers_each_reaction),
        cmocka_unit_test(test_unasked_side_reacts_without_stopping),
        cmocka_unit_test(test_creature_dual_strike_keeps_one_weapon),
        cmocka_unit_test(test_roll_modifiers_cancel_and_detriment),
        cmocka_unit_test(test_reach_weapon_strikes_farther),
        cmocka_unit_test(test_secondary_engage_after_primary_only),
        cmocka_unit_test(test_secondary_may_follow_a_dash),
        cmocka_unit_test(test_secondary_program_cloak),
        cmocka_unit_test(test_ai_takes_granted_secondary),
        cmocka_unit_test(test_thrust_doubles_machine_budget),
        cmocka_unit_test(test_standby_on_dash),
        cmocka_unit_test(test_standby_on_ranged_engagement),
        cmocka_unit_test(test_standby_on_engaging_an_ally),
        cmocka_unit_test(test_standby_on_any_move_in_sight),
        cmocka_unit_test(test_pushed_mount_checks),
        cmocka_unit_test(test_rider_strikes_from_the_mounts_hex),
        cmocka_unit_test(test_teleport_provokes_nothing),
        cmocka_unit_test(test_prediction_matches_the_roll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
