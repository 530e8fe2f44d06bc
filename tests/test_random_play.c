/* test_random_play.c - the bundled battles played by a careless referee.
 *
 * The AI only ever uses a few kinds of command, so the rare ones (grapple,
 * shove, mount, teleport, fly, use, standby, dual strike...) would meet each
 * other in play only by chance. Here every other command is picked at random
 * from the ruleset's own legal list (the rest are the AI's, so the battles
 * move). After every command the battle must still make sense: everything
 * listed was accepted, HP stays within 0..max, no two standing combatants
 * share a hex unless one rides the other, and every so often a rebuild from
 * the commands gives the very same event log. Run under ASan and UBSan by
 * `make test`, this is where a crash in a rare combination would show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/dice.h"
#include "io/map_io.h"
#include "rules_fixture.h"
#include "rules/xhalem.h"

#define LIST_CAP 512
#define STEPS 400        /* commands per battle at most */
#define REBUILD_EVERY 40 /* commands between rebuild checks */

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static map_t *load_sample(const char *name, tmpl_db_t **db)
{
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/%s", data_dir(), name);
    map_t *m = NULL;
    int rc = map_load(path, data_dir(), &m, db, err, sizeof err);
    if (rc != HB_OK) fail_msg("%s", err);
    return m;
}

/* Does combatant i share its hex legitimately with j (one rides the other)? */
static bool riding(const battle_t *b, int i, int j)
{
    if (strcmp(b->map->ruleset, "xhalem") != 0) return false;
    return xhalem_mount_of(b, i) == j || xhalem_mount_of(b, j) == i;
}

static void check_sane(const battle_t *b)
{
    for (int i = 0; i < b->n; i++) {
        if (b->u[i].hp < 0 || b->u[i].hp > b->u[i].hp_max)
            fail_msg("%s has %d of %d HP", b->map->combatants[i].id, b->u[i].hp, b->u[i].hp_max);
        if (!battle_active(b, i)) continue;
        for (int j = i + 1; j < b->n; j++)
            if (battle_active(b, j) && hex_eq(b->board->pos[i], b->board->pos[j]) && !riding(b, i, j))
                fail_msg("%s and %s stand on one hex", b->map->combatants[i].id,
                         b->map->combatants[j].id);
    }
}

/* A kind first, then a command of that kind: the many standby variants do
 * not crowd out the one grapple. */
static cmd_t pick_one(const cmd_t *list, int n, rng_t *r)
{
    int per[CMD_COUNT] = {0}, kinds = 0;
    for (int k = 0; k < n; k++)
        kinds += per[list[k].kind]++ == 0;
    int want = (int)(rng_next(r) % (uint64_t)kinds), kind = 0;
    for (; kind < CMD_COUNT; kind++)
        if (per[kind] && want-- == 0) break;
    int nth = (int)(rng_next(r) % (uint64_t)per[kind]);
    for (int k = 0; k < n; k++)
        if (list[k].kind == (cmd_kind_t)kind && nth-- == 0) return list[k];
    return list[0];
}

/* One careless battle: returns how many listed (non-AI) commands it gave. */
static int careless_battle(const map_t *m, const tmpl_db_t *db, uint64_t seed, int *kinds,
                           int *acts)
{
    play_t p;
    battle_opts_t o = {.seed = seed, .max_rounds = 30};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    rng_t pick;
    rng_seed(&pick, seed * 7919 + 1);
    cmd_t *list = malloc(sizeof *list * LIST_CAP);
    assert_non_null(list);
    int given = 0;
    for (int step = 0; step < STEPS && !p.b->over; step++) {
        int actors[MAP_MAX_COMBATANTS];
        int na = play_actors(&p, actors, MAP_MAX_COMBATANTS);
        assert_true(na > 0);
        int a = actors[rng_next(&pick) % (uint64_t)na];
        cmd_t c;
        bool listed = rng_next(&pick) % 2 == 0;
        if (listed) {
            int n = p.rs->legal(p.b, a, list, LIST_CAP);
            assert_true(n > 0 && n <= LIST_CAP);
            c = pick_one(list, n, &pick);
            /* A bare Move is the button that asks for a path: the AI's
             * command stands in for it. */
            if (c.kind == CMD_MOVE && c.n_path == 0) listed = false;
        }
        if (!listed) p.rs->ai(p.b, a, &c);
        battle_status_t st;
        if (c.kind == CMD_TELEPORT || c.kind == CMD_DISMOUNT) {
            /* The list names the action; the hex is the referee's click. */
            st = BATTLE_ILLEGAL;
            for (int k = 0; k < 40 && st == BATTLE_ILLEGAL; k++) {
                c.at.col = (int)(rng_next(&pick) % (uint64_t)m->cols);
                c.at.row = (int)(rng_next(&pick) % (uint64_t)m->rows);
                st = play_apply(&p, &c);
            }
            if (st == BATTLE_ILLEGAL) {
                c = cmd_make(CMD_END, a);
                st = play_apply(&p, &c);
            }
        } else {
            st = play_apply(&p, &c);
        }
        if (st == BATTLE_ILLEGAL && !listed) {
            /* The AI's choice for someone not first in line may not stand. */
            cmd_t end = cmd_make(CMD_END, a);
            st = play_apply(&p, &end);
        }
        if (st == BATTLE_ILLEGAL)
            fail_msg("seed %llu step %d: listed %s by %s refused", (unsigned long long)seed, step,
                     cmd_kind_name(c.kind), m->combatants[a].id);
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        if (listed) {
            given++;
            kinds[c.kind]++;
            if (c.kind == CMD_DECLARE) acts[c.act]++; /* scars: what was declared */
        }
        check_sane(p.b);
        if ((step + 1) % REBUILD_EVERY == 0 || p.b->over) {
            char *before = fx_log_text(p.b);
            battle_status_t rb = play_rebuild(&p);
            assert_true(rb == BATTLE_OK || rb == BATTLE_OVER);
            char *after = fx_log_text(p.b);
            assert_string_equal(before, after);
            free(before);
            free(after);
        }
    }
    free(list);
    play_end(&p);
    return given;
}

static void play_map(const char *name, int seeds)
{
    tmpl_db_t *db = NULL;
    map_t *m = load_sample(name, &db);
    int kinds[CMD_COUNT] = {0}, acts[CMD_COUNT] = {0}, given = 0;
    for (int s = 1; s <= seeds; s++)
        given += careless_battle(m, db, (uint64_t)s, kinds, acts);
    /* It did give commands from the list, of several kinds (a declaration
     * counts by what it declares). */
    int distinct = 0;
    for (int k = 0; k < CMD_COUNT; k++)
        distinct += (k != CMD_DECLARE && kinds[k] > 0) + (acts[k] > 0);
    printf("# %s: %d listed commands over %d battles, %d kinds:", name, given, seeds, distinct);
    for (int k = 0; k < CMD_COUNT; k++)
        if (kinds[k]) printf(" %s %d", cmd_kind_name((cmd_kind_t)k), kinds[k]);
    for (int k = 0; k < CMD_COUNT; k++)
        if (acts[k]) printf(" (declared %s %d)", cmd_kind_name((cmd_kind_t)k), acts[k]);
    printf("\n");
    assert_true(given > 0);
    assert_true(distinct >= 3);
    map_destroy(m);
    free(db);
}

static void test_ridge_ambush(void **state)
{
    (void)state;
    play_map("ridge_ambush.json", 40);
}

static void test_foundry_breach(void **state)
{
    (void)state;
    play_map("foundry_breach.json", 24);
}

static void test_salt_flats(void **state)
{
    (void)state;
    play_map("salt_flats.json", 40);
}

static void test_relay_outpost(void **state)
{
    (void)state;
    play_map("relay_outpost.json", 40);
}

static void test_river_crossing(void **state)
{
    (void)state;
    play_map("river_crossing.json", 40);
}

static void test_shattered_lane(void **state)
{
    (void)state;
    play_map("shattered_lane.json", 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ridge_ambush),
        cmocka_unit_test(test_foundry_breach),
        cmocka_unit_test(test_salt_flats),
        cmocka_unit_test(test_relay_outpost),
        cmocka_unit_test(test_river_crossing),
        cmocka_unit_test(test_shattered_lane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
