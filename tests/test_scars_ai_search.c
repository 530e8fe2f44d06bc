/* test_scars_ai_search.c - the scars AI's bounded searches (src/rules/scars/
 * ai.c, "the bounded search"; issue 30, item 12). Where no attack is open
 * the AI looks for the cheapest hex near a foe, and badly hurt for the
 * cheapest edge hex; it searches only as far as the answer can lie and reads
 * its paths from that search. scars_ai_exhaustive(true) searches the whole
 * map from each NPC, as before. On randomized small boards (walls that wall
 * foes in or cut sight, detachments, hurt combatants who run) every
 * choice must come out the same both ways, for every combatant at every step
 * of the battle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "rules_fixture.h"
#include "rules/scars.h"
#include "rules/scars/scars_int.h"

#define BOARDS 150
#define STEPS 120

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static tmpl_db_t *arms(void)
{
    tmpl_db_t *db = fx_db("scars");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "maul", WPN_MELEE, false, 5, 0, 1, 10, 0, "two_handed=1");
    fx_weapon(db, "pistol", WPN_RANGED, false, 0, 30, 1, 6, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 100, 1, 10, 0, NULL);
    fx_weapon(db, "grenade", WPN_THROWN, false, 0, 40, 1, 6, 0, "blast=1");
    return db;
}

static const char *const KITS[] = {"knife", "maul", "pistol,knife", "rifle", "grenade,knife",
                                   "knife,pistol"};

static bool held(const map_t *m, int col, int row)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (m->combatants[i].at.col == col && m->combatants[i].at.row == row) return true;
    return false;
}

/* A random board: walls (some in lines, so they wall hexes in and cut
 * sight), difficult ground, and a few combatants on open hexes. */
static map_t *board(uint64_t *s, int *hurt)
{
    int cols = 12 + (int)(next(s) % 52), rows = 8 + (int)(next(s) % 44);
    map_t *m = fx_map(cols, rows, "scars", NULL);
    int walls = 5 + (int)(next(s) % 30);
    for (int k = 0; k < cols * rows; k++) {
        uint32_t r = next(s) % 100;
        m->cells[k] = (uint8_t)(r < (uint32_t)walls ? T_WALL
                                : r < 60                ? T_OPEN
                                : r < 73                ? T_BRUSH
                                : r < 86                ? T_RUBBLE
                                                        : T_WATER);
    }
    for (int line = 0, n = (int)(next(s) % 4); line < n; line++) {
        int c = (int)(next(s) % (uint32_t)cols), r = (int)(next(s) % (uint32_t)rows);
        bool down = next(s) % 2;
        for (int k = 0; k < 8 && c < cols && r < rows; k++, down ? r++ : c++)
            m->cells[r * cols + c] = T_WALL;
    }
    int n = 3 + (int)(next(s) % 8);
    *hurt = -1;
    for (int i = 0; i < n; i++) {
        int c, r;
        do { /* the first near the middle: far from the edge it may run for */
            c = i ? (int)(next(s) % (uint32_t)cols) : cols / 3 + (int)(next(s) % (uint32_t)(cols / 3));
            r = i ? (int)(next(s) % (uint32_t)rows) : rows / 3 + (int)(next(s) % (uint32_t)(rows / 3));
        } while (m->cells[r * cols + c] != T_OPEN || held(m, c, r));
        char id[16], stats[64];
        snprintf(id, sizeof id, "c%d", i);
        bool weak = i == 0 && next(s) % 3; /* at 0 HP and low STR: it may run */
        snprintf(stats, sizeof stats, "dex=%d,str=%d%s", 8 + (int)(next(s) % 12), weak ? 4 : 12,
                 i % 2 && next(s) % 4 == 0 ? ",detachment=1" : "");
        fx_add(m, id, i % 2 ? "raiders" : "crew", c, r, KIND_CREATURE, SIZE_MEDIUM,
               weak ? 0 : 3 + (int)(next(s) % 8), weak ? 10 : 10 * (1 + (int)(next(s) % 5)),
               KITS[next(s) % (sizeof KITS / sizeof KITS[0])], stats);
        if (weak) *hurt = i;
    }
    return m;
}

static bool same(const cmd_t *x, const cmd_t *y)
{
    if (x->kind != y->kind || x->actor != y->actor || x->act != y->act || x->target != y->target ||
        x->weapon != y->weapon || x->weapon2 != y->weapon2 || x->arg != y->arg ||
        x->n_path != y->n_path)
        return false;
    for (int k = 0; k < x->n_path; k++)
        if (x->path[k].col != y->path[k].col || x->path[k].row != y->path[k].row)
            return false;
    return true;
}

/* The plan of combatant a both ways; fails the test when they differ. */
static void compare(battle_t *b, int a, int board_no, int step, int *moves)
{
    cmd_t bounded, whole;
    b->frozen++;
    scars_ai_exhaustive(true);
    scars_intent(b, a, &whole);
    scars_ai_exhaustive(false);
    scars_intent(b, a, &bounded);
    b->frozen--;
    if (!same(&bounded, &whole))
        fail_msg("board %d, step %d, combatant %d: bounded search act %d target %d path %d, "
                 "whole map act %d target %d path %d",
                 board_no, step, a, bounded.act, bounded.target, bounded.n_path, whole.act,
                 whole.target, whole.n_path);
    if (bounded.n_path > 0 && bounded.act != CMD_ENGAGE) (*moves)++;
}

static void test_bounded_search_chooses_as_the_whole_map(void **state)
{
    (void)state;
    uint64_t s = 30;
    int moves = 0, runs = 0;
    for (int k = 0; k < BOARDS; k++) {
        fx_t f;
        int hurt;
        f.m = board(&s, &hurt);
        f.db = arms();
        battle_opts_t o = {.seed = 100 + (uint64_t)k};
        assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
        battle_t *b = f.p.b;
        if (hurt >= 0 && battle_active(b, hurt)) b->u[hurt].stat_max[SS_STR] = 12; /* 4 of 12 */
        for (int step = 0; step < STEPS && !b->over; step++) {
            for (int a = 0; a < b->n; a++)
                if (battle_active(b, a)) compare(b, a, k, step, &moves);
            int act[MAP_MAX_COMBATANTS];
            if (play_actors(&f.p, act, MAP_MAX_COMBATANTS) <= 0) break;
            cmd_t c;
            b->frozen++;
            f.p.rs->ai(b, act[0], &c);
            b->frozen--;
            if (c.kind == CMD_DECLARE && c.act == CMD_RETREAT) runs++;
            battle_status_t st = play_apply(&f.p, &c);
            if (st == BATTLE_ILLEGAL) {
                cmd_t end = cmd_make(CMD_END, act[0]);
                st = play_apply(&f.p, &end);
            }
            assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        }
        fx_free(&f);
    }
    /* The boards did make the AI move and run, so the searches ran. */
    print_message("moves %d runs %d\n", moves, runs);
    assert_true(moves > 100);
    assert_true(runs > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounded_search_chooses_as_the_whole_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
