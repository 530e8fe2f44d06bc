/* test_legal.c - the rulesets' lists of legal commands against their own
 * apply(): everything listed is accepted (soundness), and everything apply
 * accepts from a broad set of candidates is listed (completeness).
 *
 * The action bar shows exactly this list, so a command missing here is a
 * command no referee can give with the mouse, and a command listed but
 * refused is a button that does nothing. Dice are typed in: every die asked
 * for gets a middling 10 (or the die's top face when smaller).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules_fixture.h"
#include "rules/xhalem.h"

#define CAP 512

static battle_status_t settle(play_t *p, battle_status_t st)
{
    while (st == BATTLE_NEED_DICE)
        st = play_enter_die(p, p->b->need.sides < 10 ? p->b->need.sides : 10);
    return st;
}

/* Start with every die typed in: combatant 0 rolls 20 for initiative, every
 * other die is a 2, so combatant 0 acts first. */
static void start_first(fx_t *f)
{
    battle_opts_t o = {.seed = 1, .manual_all = true};
    battle_status_t st = play_start(&f->p, f->m, f->db, NULL, &o);
    bool first = true;
    while (st == BATTLE_NEED_DICE) {
        st = play_enter_die(&f->p, first ? 20 : 2);
        first = false;
    }
    assert_int_equal(st, BATTLE_OK);
    int actors[8];
    assert_int_equal(play_actors(&f->p, actors, 8), 1);
    assert_int_equal(actors[0], 0);
}

static battle_status_t apply(fx_t *f, cmd_t c) { return settle(&f->p, play_apply(&f->p, &c)); }

static int legal(fx_t *f, int a, cmd_t *out)
{
    int n = f->p.rs->legal(f->p.b, a, out, CAP);
    assert_true(n <= CAP);
    return n;
}

/* The fields that tell two commands apart on the action bar (a held attack's
 * act END is the same as ENGAGE: both hold an engagement). */
static bool same(const cmd_t *x, const cmd_t *y)
{
    bool held = x->kind == CMD_STANDBY || x->kind == CMD_DECLARE;
    cmd_kind_t ax = !held ? CMD_END : x->act == CMD_END ? CMD_ENGAGE : x->act;
    cmd_kind_t ay = !held ? CMD_END : y->act == CMD_END ? CMD_ENGAGE : y->act;
    bool cell = x->kind == CMD_USE;
    return x->kind == y->kind && x->target == y->target && x->weapon == y->weapon &&
           x->weapon2 == y->weapon2 && x->arg == y->arg && ax == ay &&
           (!cell || (x->at.col == y->at.col && x->at.row == y->at.row));
}

static bool listed(const cmd_t *list, int n, const cmd_t *c)
{
    for (int k = 0; k < n; k++)
        if (same(&list[k], c))
            return true;
    return false;
}

static int count_kind(const cmd_t *list, int n, cmd_kind_t kind)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += list[i].kind == kind;
    return k;
}

/* Commands that need a hex or a path the caller picks (move, teleport,
 * dismount) are checked elsewhere; END ends the turn. The rest must apply. */
static bool self_contained(const cmd_t *c)
{
    return c->kind != CMD_END && c->kind != CMD_MOVE && c->kind != CMD_TELEPORT &&
           c->kind != CMD_DISMOUNT && c->kind != CMD_DECLARE;
}

/* Soundness: every listed command is accepted, and undoing it gives back
 * the same list. Returns how many commands were tried. */
static int check_sound(fx_t *f, int a)
{
    cmd_t list[CAP], again[CAP];
    int n = legal(f, a, list);
    int tried = 0;
    for (int k = 0; k < n; k++) {
        if (!self_contained(&list[k]))
            continue;
        battle_status_t st = apply(f, list[k]);
        if (st != BATTLE_OK)
            fail_msg("listed %s (target %d, weapon %d/%d, arg %d) was refused: %d",
                     cmd_kind_name(list[k].kind), list[k].target, list[k].weapon, list[k].weapon2,
                     list[k].arg, (int)st);
        assert_int_equal(play_undo(&f->p), BATTLE_OK);
        assert_int_equal(legal(f, a, again), n);
        for (int q = 0; q < n; q++)
            assert_true(same(&list[q], &again[q]));
        tried++;
    }
    return tried;
}

/* Completeness: from a broad set of candidates, everything apply accepts is
 * in the list. Two refinements of standby are left out of the candidates: a
 * standby naming one enemy (the list offers "any enemy" for each trigger),
 * and a held move with a weapon other than the one in hand (the weapon only
 * sets the reach of the "enters reach" trigger). Returns how many accepted
 * candidates were found. */
static int check_complete(fx_t *f, int a)
{
    cmd_t list[CAP];
    int n = legal(f, a, list);
    battle_t *b = f->p.b;
    int nw = b->u[a].n_weapons;
    cell_t here = hex_to_cell(b->map->layout, b->board->pos[a]);
    static const cmd_kind_t kinds[] = {CMD_DASH,  CMD_ENGAGE, CMD_STANDBY, CMD_ASSIST, CMD_HIDE,
                                       CMD_SEARCH, CMD_CLOAK, CMD_MOUNT,   CMD_GRAPPLE, CMD_SHOVE,
                                       CMD_ESCAPE, CMD_RELEASE, CMD_USE,   CMD_SWITCH,  CMD_FLY};
    int accepted = 0;
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
        cmd_kind_t kind = kinds[ki];
        /* Vary only the fields this kind reads; the rest keep cmd_make's values. */
        bool standby = kind == CMD_STANDBY;
        bool by_target = kind == CMD_ENGAGE || kind == CMD_ASSIST || kind == CMD_MOUNT ||
                         kind == CMD_GRAPPLE || kind == CMD_SHOVE || kind == CMD_RELEASE;
        bool by_weapon = kind == CMD_ENGAGE || standby || kind == CMD_SWITCH;
        bool by_arg = standby || kind == CMD_SHOVE || kind == CMD_FLY;
        int t_hi = by_target ? b->n - 1 : -1;
        int w_hi = by_weapon ? nw - 1 : -1;
        int w2_hi = kind == CMD_ENGAGE ? nw - 1 : -1;
        int arg_hi = standby ? XT_COUNT - 1 : by_arg ? 1 : 0;
        int n_at = kind == CMD_USE ? HEX_DIRS + 1 : 1;
        for (int t = -1; t <= t_hi; t++)
            for (int w = -1; w <= w_hi; w++)
                for (int w2 = -1; w2 <= w2_hi; w2++)
                    for (int arg = 0; arg <= arg_hi; arg++)
                        for (int act = 0; act < (standby ? 2 : 1); act++)
                            for (int d = -1; d < n_at - 1; d++) {
                                cmd_t c = cmd_make(kind, a);
                                c.target = t;
                                c.weapon = w;
                                c.weapon2 = w2;
                                c.arg = arg;
                                if (standby)
                                    c.act = act ? CMD_MOVE : CMD_ENGAGE;
                                if (standby && act && w != b->u[a].equipped)
                                    continue;
                                c.at = d < 0 ? here
                                             : hex_to_cell(b->map->layout,
                                                           hex_neighbor(b->board->pos[a], d));
                                battle_status_t st = apply(f, c);
                                if (st != BATTLE_OK)
                                    continue;
                                accepted++;
                                assert_int_equal(play_undo(&f->p), BATTLE_OK);
                                b = f->p.b;
                                if (!listed(list, n, &c))
                                    fail_msg("%s (target %d, weapon %d/%d, arg %d, act %s) is "
                                             "accepted but not listed",
                                             cmd_kind_name(kind), t, w, w2, arg,
                                             cmd_kind_name(c.act));
                            }
    }
    return accepted;
}

/* Moves, both ways, for every mode the list offers: each hex of the mode's
 * reachable set is accepted by apply along the mode's cheapest path, and each
 * other hex is refused along its cheapest path (when it has one). The list,
 * the search and apply all price steps with the ruleset's move_cost. Returns
 * the number of modes checked. */
static int check_moves(fx_t *f, int a)
{
    cmd_t list[CAP];
    int n = legal(f, a, list), modes = 0;
    battle_t *b = f->p.b;
    const ruleset_t *rs = f->p.rs;
    int ncells = b->map->cols * b->map->rows;
    geom_reach_t *reach = malloc(sizeof *reach * (size_t)ncells);
    cell_t *path = malloc(sizeof *path * (size_t)ncells);
    assert_non_null(reach);
    assert_non_null(path);
    for (int k = 0; k < n; k++) {
        cmd_t c = list[k];
        if (c.kind != CMD_MOVE && !(c.kind == CMD_DECLARE && c.act == CMD_MOVE))
            continue;
        b = f->p.b;
        move_cost_t mv;
        assert_true(rs->move_cost(b, a, c.arg, &mv));
        assert_true(mv.budget_ft > 0); /* listed: somewhere to go */
        modes++;
        int nr = geom_reach_mode(&mv, b->ps, reach, ncells);
        assert_true(nr > 0);
        bool *in = calloc((size_t)ncells, sizeof *in);
        assert_non_null(in);
        for (int r = 0; r < nr; r++)
            in[map_index(b->map, reach[r].at)] = true;
        int start = board_cell_index(b->board, b->board->pos[a]);
        for (int cell = 0; cell < ncells; cell++) {
            if (cell == start)
                continue;
            b = f->p.b;
            assert_true(rs->move_cost(b, a, c.arg, &mv));
            int cost = 0, len = 0;
            bool found = geom_path_mode(&mv, map_cell_of(b->map, cell), b->ps, &cost, path,
                                        ncells, &len);
            if (in[cell])
                assert_true(found && cost <= mv.budget_ft);
            if (!found || len < 2 || len - 1 > CMD_PATH_MAX) {
                assert_false(in[cell]);
                continue;
            }
            assert_int_equal(geom_path_price(&mv, path + 1, len - 1), cost);
            cmd_t m = c;
            m.n_path = len - 1;
            memcpy(m.path, path + 1, sizeof *path * (size_t)(len - 1));
            battle_status_t st = apply(f, m);
            if (in[cell]) {
                if (st != BATTLE_OK)
                    fail_msg("mode %s: hex %d,%d is in reach but its path was refused",
                             rs->move_modes[c.arg], map_cell_of(b->map, cell).col,
                             map_cell_of(b->map, cell).row);
                assert_int_equal(play_undo(&f->p), BATTLE_OK);
            } else if (st == BATTLE_OK) {
                fail_msg("mode %s: hex %d,%d is out of reach but its path was accepted",
                         rs->move_modes[c.arg], map_cell_of(b->map, cell).col,
                         map_cell_of(b->map, cell).row);
            }
        }
        free(in);
    }
    free(reach);
    free(path);
    return modes;
}

/* Row 2 of a 10x5 map: a (dual strike, dual weapons, a flyer) at (3,2), its
 * ally behind it at (2,2), a raider beside it at (4,2), a huge raider above
 * it at (3,1), a rifleman at (8,2) and a door below it at (3,3). */
static void crowd(fx_t *f, const char *a_stats, const char *secondary)
{
    static const char *const rows[] = {"..........", "..........", "..........", "...D......",
                                       ".........."};
    f->m = fx_map(10, 5, "xhalem", rows);
    fx_add(f->m, "a", "players", 3, 2, KIND_CREATURE, SIZE_MEDIUM, 30, 30, "knife,pike,rifle", a_stats);
    f->m->combatants[0].fly_ft = 30;
    fx_add(f->m, "ally", "players", 2, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    fx_add(f->m, "t", "raiders", 4, 2, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    fx_add(f->m, "huge", "raiders", 3, 1, KIND_CREATURE, SIZE_EXTRA_LARGE, 60, 30, "knife", NULL);
    fx_add(f->m, "far", "raiders", 8, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", NULL);
    f->db = fx_db("xhalem");
    fx_weapon(f->db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(f->db, "pike", WPN_MELEE, false, 10, 0, 1, 8, 0, NULL);
    fx_weapon(f->db, "rifle", WPN_RANGED, false, 0, 30, 1, 10, 0, NULL);
    if (secondary) {
        tmpl_t *t = &f->db->templates[f->db->n_templates++];
        memset(t, 0, sizeof *t);
        hb_strlcpy(t->id, "a_kind", sizeof t->id);
        hb_strlcpy(t->name, "a kind", sizeof t->name);
        t->kind = KIND_CREATURE;
        t->size = SIZE_MEDIUM;
        t->speed_ft = 30;
        t->hp = 30;
        hb_strlcpy(t->secondary, secondary, sizeof t->secondary);
        hb_strlcpy(f->m->combatants[0].template_name, "a_kind", MAP_ID_MAX);
    }
    start_first(f);
}

static void test_turn_start_list_is_sound_and_complete(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2,dual_strike=1,dual_weapon=1", NULL);
    assert_true(check_sound(&f, 0) > 20);
    assert_true(check_complete(&f, 0) > 20);
    fx_free(&f);
}

/* xhalem: walk, fly (a takes off as it moves) and dash, on foot and in the
 * air; scars: the second move. Each both ways. */
static void test_move_modes_both_ways(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", NULL);
    cmd_t list[CAP];
    int n = legal(&f, 0, list), moves = 0;
    for (int k = 0; k < n; k++)
        moves += list[k].kind == CMD_MOVE;
    assert_int_equal(moves, 3); /* walk, fly, dash */
    assert_int_equal(check_moves(&f, 0), 3);
    /* In the air: fly and dash (walking needs a landing first). */
    cmd_t up = cmd_make(CMD_FLY, 0);
    up.arg = 1;
    assert_int_equal(apply(&f, up), BATTLE_OK);
    n = legal(&f, 0, list);
    for (int k = 0; k < n; k++)
        assert_true(list[k].kind != CMD_MOVE || list[k].arg != XM_WALK);
    assert_int_equal(check_moves(&f, 0), 2);
    /* Dashed: the doubled walk is the only move left. */
    assert_int_equal(apply(&f, cmd_make(CMD_DASH, 0)), BATTLE_OK);
    assert_int_equal(check_moves(&f, 0), 1);
    fx_free(&f);

    f.m = fx_map(10, 5, "scars", (const char *const[]){"..........", "..,,,.....", "...#......",
                                                         "..........", ".........."});
    fx_add(f.m, "a", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "sword", "dex=18");
    fx_add(f.m, "t", "raiders", 6, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "sword", "dex=3");
    f.db = fx_db("scars");
    fx_weapon(f.db, "sword", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    battle_opts_t o = {.seed = 3};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    int actors[4];
    assert_true(play_actors(&f.p, actors, 4) >= 1);
    assert_int_equal(check_moves(&f, actors[0]), 1);
    fx_free(&f);
}

static void test_after_the_action_only_grants_and_free_acts(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", "assist");
    assert_int_equal(apply(&f, cmd_make(CMD_SEARCH, 0)), BATTLE_OK);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    /* The secondary assist on either raider beside a, taking off, ending; no attack. */
    assert_int_equal(count_kind(list, n, CMD_ASSIST), 2);
    assert_int_equal(count_kind(list, n, CMD_FLY), 1);
    assert_int_equal(count_kind(list, n, CMD_ENGAGE), 0);
    assert_int_equal(count_kind(list, n, CMD_STANDBY), 0);
    assert_int_equal(count_kind(list, n, CMD_SHOVE), 0);
    check_sound(&f, 0);
    check_complete(&f, 0);
    /* Once the secondary is spent, only the free switches remain. */
    cmd_t assist = cmd_make(CMD_ASSIST, 0);
    assist.target = 2;
    assert_int_equal(apply(&f, assist), BATTLE_OK);
    n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_ASSIST), 0);
    assert_int_equal(count_kind(list, n, CMD_FLY), 1);
    check_complete(&f, 0);
    fx_free(&f);
}

static void test_standby_for_every_trigger_both_ways(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", NULL);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    /* a holds its knife (0); the pike and rifle are stowed; bare hands are -1. */
    int held_attack[XT_COUNT][2] = {{0}}, held_move[XT_COUNT] = {0};
    for (int k = 0; k < n; k++) {
        if (list[k].kind != CMD_STANDBY)
            continue;
        assert_true(list[k].arg >= 0 && list[k].arg < XT_COUNT);
        assert_int_equal(list[k].target, -1);
        if (list[k].act == CMD_MOVE) {
            assert_int_equal(list[k].weapon, 0);
            held_move[list[k].arg]++;
        } else {
            assert_true(list[k].weapon == -1 || list[k].weapon == 0);
            held_attack[list[k].arg][list[k].weapon + 1]++;
        }
    }
    for (int t = 0; t < XT_COUNT; t++) {
        assert_int_equal(held_attack[t][0], 1);
        assert_int_equal(held_attack[t][1], 1);
        assert_int_equal(held_move[t], 1);
    }
    fx_free(&f);
}

static void test_grapple_and_shove_only_within_one_size(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", NULL);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    int grapple_t = 0, shove_t[2] = {0}, at_huge = 0;
    for (int k = 0; k < n; k++) {
        if (list[k].kind == CMD_GRAPPLE && list[k].target == 2)
            grapple_t++;
        if (list[k].kind == CMD_SHOVE && list[k].target == 2)
            shove_t[list[k].arg != 0]++;
        if ((list[k].kind == CMD_GRAPPLE || list[k].kind == CMD_SHOVE) && list[k].target == 3)
            at_huge++;
    }
    assert_int_equal(grapple_t, 1);
    assert_int_equal(shove_t[0], 1); /* knock down */
    assert_int_equal(shove_t[1], 1); /* push 5 ft */
    assert_int_equal(at_huge, 0);    /* two sizes larger */
    /* And nothing at the rifleman 25 ft off, out of reach. */
    for (int k = 0; k < n; k++)
        assert_false((list[k].kind == CMD_GRAPPLE || list[k].kind == CMD_SHOVE ||
                      list[k].kind == CMD_ASSIST) &&
                     list[k].target == 4);
    fx_free(&f);
}

/* Pairs on the raider beside a, in either order: weapons at hand are the
 * knife (equipped) and, fighting with two, the pike; the rifle is stowed. */
static void test_dual_strike_pairs(void **state)
{
    (void)state;
    struct {
        const char *stats;
        int pairs;
    } cases[] = {
        {"dual_strike=1,dual_weapon=1", 4}, /* knife or pike, then knife or pike */
        {"dual_strike=1", 1},               /* knife twice */
        {"dual_weapon=1", 0},               /* no dual strike at all */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        crowd(&f, cases[k].stats, NULL);
        cmd_t list[CAP];
        int n = legal(&f, 0, list), pairs = 0;
        for (int q = 0; q < n; q++)
            if (list[q].kind == CMD_ENGAGE && list[q].weapon2 >= 0 && list[q].target == 2) {
                assert_true(list[q].weapon == 0 || list[q].weapon == 1);
                assert_true(list[q].weapon2 == 0 || list[q].weapon2 == 1);
                pairs++;
            }
        assert_int_equal(pairs, cases[k].pairs);
        check_sound(&f, 0);
        fx_free(&f);
    }
}

static void test_switch_and_use_are_listed(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", NULL);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    /* Switch to the pike or the rifle, never to the knife in hand. */
    int sw = 0;
    for (int k = 0; k < n; k++)
        if (list[k].kind == CMD_SWITCH) {
            assert_true(list[k].weapon == 1 || list[k].weapon == 2);
            sw++;
        }
    assert_int_equal(sw, 2);
    /* The door below: one use, at its hex. */
    assert_int_equal(count_kind(list, n, CMD_USE), 1);
    for (int k = 0; k < n; k++)
        if (list[k].kind == CMD_USE)
            assert_true(list[k].at.col == 3 && list[k].at.row == 3);
    cmd_t use = cmd_make(CMD_USE, 0);
    use.at = (cell_t){3, 3};
    assert_int_equal(apply(&f, use), BATTLE_OK);
    assert_int_equal(map_terrain_at(f.p.b->map, use.at)->name[0], 'd');
    assert_string_equal(map_terrain_at(f.p.b->map, use.at)->name, "door_open");
    fx_free(&f);
}

/* A machine: two weapons at hand at once; switching (its action) takes up
 * the third and names which of the two it puts away (RULINGS: machines may
 * switch to any weapon they carry). */
static void test_machine_list(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "mech", "players", 3, 1, KIND_MACHINE, SIZE_LARGE, 40, 30, "fist,gun,beam",
           "systems=2,dual_strike=1");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_MACHINE, SIZE_LARGE, 40, 30, "fist", NULL);
    f.db = fx_db("xhalem");
    fx_weapon(f.db, "fist", WPN_MELEE, false, 5, 0, 2, 6, 0, NULL);
    fx_weapon(f.db, "gun", WPN_RANGED, false, 0, 300, 1, 10, 0, NULL);
    fx_weapon(f.db, "beam", WPN_RANGED, true, 0, 300, 1, 10, 0, NULL);
    start_first(&f);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_SWITCH), 2); /* the beam, for the fist or the gun */
    for (int k = 0; k < n; k++)
        if (list[k].kind == CMD_SWITCH) {
            assert_int_equal(list[k].weapon, 2);
            assert_true(list[k].weapon2 == 0 || list[k].weapon2 == 1);
        }
    assert_int_equal(count_kind(list, n, CMD_HIDE), 0);
    for (int k = 0; k < n; k++)
        if (list[k].kind == CMD_ENGAGE) {
            assert_true(list[k].weapon < 2); /* the third weapon is stowed */
            assert_true(list[k].weapon2 < 2);
        }
    check_sound(&f, 0);
    check_complete(&f, 0);
    /* The beam up, the gun away: now fist and beam are in hand. */
    cmd_t sw = cmd_make(CMD_SWITCH, 0);
    sw.weapon = 2;
    assert_int_equal(apply(&f, sw), BATTLE_ILLEGAL); /* a machine names what it puts away */
    sw.weapon2 = 1;
    assert_int_equal(apply(&f, sw), BATTLE_OK);
    assert_true(xhalem_equipped(f.p.b, 0, 2));
    assert_false(xhalem_equipped(f.p.b, 0, 1));
    assert_true(xhalem_equipped(f.p.b, 0, 0));
    fx_free(&f);
}

/* Holding someone: let go is free, and the hold rules out attacks. */
static void test_release_while_holding(void **state)
{
    (void)state;
    fx_t f;
    crowd(&f, "agility=2", NULL);
    cmd_t g = cmd_make(CMD_GRAPPLE, 0);
    g.target = 2;
    /* a rolls 20 + 0 against t's 2 + 0: held. */
    battle_status_t st = play_apply(&f.p, &g);
    assert_int_equal(st, BATTLE_NEED_DICE);
    assert_int_equal(play_enter_die(&f.p, 20), BATTLE_NEED_DICE);
    assert_int_equal(play_enter_die(&f.p, 2), BATTLE_OK);
    assert_true(f.p.b->u[2].cond & XC_GRAPPLED);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_RELEASE), 1);
    check_sound(&f, 0);
    check_complete(&f, 0);
    cmd_t r = cmd_make(CMD_RELEASE, 0);
    r.target = 2;
    assert_int_equal(apply(&f, r), BATTLE_OK);
    assert_false(f.p.b->u[2].cond & XC_GRAPPLED);
    n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_RELEASE), 0);
    fx_free(&f);
}

/* scars: a fighter with two weapons may declare both at once. */
static void test_scars_dual_declarations(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "sword,dagger,bow", "dex=18");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "sword", "dex=3");
    f.db = fx_db("scars");
    fx_weapon(f.db, "sword", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    fx_weapon(f.db, "dagger", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(f.db, "bow", WPN_RANGED, false, 0, 60, 1, 6, 0, NULL);
    battle_opts_t o = {.seed = 3};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    int actors[4], na = play_actors(&f.p, actors, 4);
    assert_true(na >= 1);
    int a = actors[0];
    assert_int_equal(a, 0);
    cmd_t list[CAP];
    int n = legal(&f, a, list), duals = 0;
    for (int k = 0; k < n; k++) {
        if (list[k].kind != CMD_DECLARE || list[k].act != CMD_ENGAGE || list[k].weapon2 < 0)
            continue;
        assert_true(list[k].weapon >= 0 && list[k].weapon < list[k].weapon2);
        duals++;
        cmd_t c = list[k];
        assert_int_equal(settle(&f.p, play_apply(&f.p, &c)), BATTLE_OK);
        assert_int_equal(play_undo(&f.p), BATTLE_OK);
    }
    /* sword+dagger, sword+bow, dagger+bow: the bow shoots close too. */
    assert_int_equal(duals, 3);
    fx_free(&f);
}

/* surface: four weapons in hand (carbine, knife, grenade, pistol) against two
 * raiders. Sound and complete; move and sprint both ways out of melee; next
 * to a raider from the start, retreat and flee both ways. */
static void surface_fixture(fx_t *f, int col)
{
    f->m = fx_map(10, 5, "surface", (const char *const[]){"...#......", "....,.....", "..........",
                                                           "..........", ".........."});
    fx_add(f->m, "a", "players", col, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 15,
           "carbine,knife,grenade,pistol", "combat_bonus=2,hands=5");
    fx_add(f->m, "t", "raiders", 6, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 15, "knife", NULL);
    fx_add(f->m, "u", "raiders", 8, 4, KIND_CREATURE, SIZE_MEDIUM, 20, 15, "knife", NULL);
    f->db = fx_db("surface");
    fx_weapon(f->db, "carbine", WPN_RANGED, false, 0, 200, 1, 8, 0, "shots=3,assault=1,hands=2");
    fx_weapon(f->db, "knife", WPN_MELEE, false, 0, 0, 1, 4, 0, NULL);
    fx_weapon(f->db, "grenade", WPN_THROWN, false, 0, 30, 2, 4, 0, "blast=1");
    fx_weapon(f->db, "pistol", WPN_RANGED, false, 0, 100, 1, 8, 0, "handheld=1");
    start_first(f);
}

static void test_surface_lists_and_modes(void **state)
{
    (void)state;
    fx_t f;
    surface_fixture(&f, 1);
    assert_true(check_sound(&f, 0) >= 6);
    assert_true(check_complete(&f, 0) >= 6);
    cmd_t list[CAP];
    int n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_MOVE), 2); /* move, sprint */
    assert_int_equal(check_moves(&f, 0), 2);
    fx_free(&f);
    /* In melee from the start: only a retreat or a flee. */
    surface_fixture(&f, 5);
    n = legal(&f, 0, list);
    assert_int_equal(count_kind(list, n, CMD_MOVE), 2);
    for (int k = 0; k < n; k++)
        assert_true(list[k].kind != CMD_MOVE || list[k].arg >= 2);
    assert_int_equal(check_moves(&f, 0), 2);
    assert_true(check_sound(&f, 0) >= 2);
    assert_true(check_complete(&f, 0) >= 2);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn_start_list_is_sound_and_complete),
        cmocka_unit_test(test_after_the_action_only_grants_and_free_acts),
        cmocka_unit_test(test_move_modes_both_ways),
        cmocka_unit_test(test_standby_for_every_trigger_both_ways),
        cmocka_unit_test(test_grapple_and_shove_only_within_one_size),
        cmocka_unit_test(test_dual_strike_pairs),
        cmocka_unit_test(test_switch_and_use_are_listed),
        cmocka_unit_test(test_machine_list),
        cmocka_unit_test(test_release_while_holding),
        cmocka_unit_test(test_scars_dual_declarations),
        cmocka_unit_test(test_surface_lists_and_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
