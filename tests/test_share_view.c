/* test_share_view.c - what the players' side is shown of a Surface Combat
 * battle, on the projector (the side view) and in a page's picture
 * (share_wire): a foe concealed by a stealth level of 3, that no member of
 * the side can place, is in neither, as the side's AI ignores it
 * (sf_side_knows); once a member's sensors place it, it shows in both.
 * (A foe behind smoke is out of the fog's sight as well; the hook's answer
 * for it is pinned in test_surface.c.) The page's turn order, where the
 * ruleset forecasts none, is the laptop tracker's initiative order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/vision.h"
#include "io/map_io.h"
#include "io/side_view.h"
#include "rules/surface/surface.h"
#include "rules_fixture.h"
#include "share/share_wire.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* An open 9x3 surface map; the real data. */
static void fx_open(fx_t *f)
{
    f->m = fx_map(9, 3, "surface", NULL);
    f->m->feet_per_hex = 5;
    char err[HB_ERR_MAX];
    f->db = NULL;
    if (tmpl_db_load(data_dir(), "surface", &f->db, err, sizeof err) != HB_OK) fail_msg("%s", err);
}

/* Does the players' side see combatant i: on the projector's view (its
 * show flag) and in a page's picture (its id anywhere in the text)? Both
 * must agree; returns that answer. */
static bool players_see(const battle_t *b, int i)
{
    unsigned sides = vision_player_sides(b->board);
    vision_t *v = vision_create(b->map);
    assert_non_null(v);
    vision_update(v, b->board, sides);
    side_view_t view;
    side_view_build(&view, v, b->board, b, sides, false);
    bool on_projector = side_view_shows(&view, i) != SIDE_SHOW_NONE;
    vision_destroy(v);

    share_eye_t e;
    assert_true(share_eye_init(&e, b, sides));
    share_eye_update(&e, b);
    char *side = share_side_json(b, &e);
    assert_non_null(side);
    char quoted[80];
    snprintf(quoted, sizeof quoted, "\"%s\"", b->map->combatants[i].id);
    bool on_page = strstr(side, quoted) != NULL;
    free(side);
    share_eye_free(&e);
    assert_int_equal(on_projector, on_page);
    return on_page;
}

/* A raider in the open whose stealth tech is 3 over the players' sensors
 * is concealed and placed by no one: hidden from both views. */
static void stealth_three_unplaced_is_hidden(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f);
    int p = fx_add(f.m, "kara", "players", 1, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    int q = fx_add(f.m, "omar", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    int foe = fx_add(f.m, "shade", "raiders", 6, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL,
                     "stealth=3");
    fx_start_until(&f, p, 5);
    battle_t *b = f.p.b;
    assert_false(players_see(b, foe));
    /* One member's sensors (4 >= 3) place it for the whole side. */
    b->u[q].stat[SF_SENSOR] = 4;
    assert_true(players_see(b, foe));
    fx_free(&f);
}

/* A ruleset with no forecast of turns (surface has no queue hook) still
 * gives the page its turn order: the initiative order the laptop's tracker
 * shows, of the combatants the side sees, and never the hidden one. */
static void order_without_a_forecast(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f);
    int p = fx_add(f.m, "kara", "players", 1, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_add(f.m, "omar", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_add(f.m, "brute", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    int foe = fx_add(f.m, "shade", "raiders", 6, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL,
                     "stealth=3");
    fx_start_until(&f, p, 5);
    battle_t *b = f.p.b;
    assert_false(players_see(b, foe));

    share_eye_t e;
    assert_true(share_eye_init(&e, b, vision_player_sides(b->board)));
    share_eye_update(&e, b);
    char *side = share_side_json(b, &e);
    assert_non_null(side);
    cJSON *j = cJSON_Parse(side);
    assert_non_null(j);
    const cJSON *order = cJSON_GetObjectItemCaseSensitive(j, "order");
    assert_true(cJSON_IsArray(order));
    /* The expected list: the battle's initiative order less the hidden foe. */
    int by_rank[MAP_MAX_COMBATANTS], want[MAP_MAX_COMBATANTS], nw = 0;
    int n = battle_initiative_order(b, by_rank);
    for (int k = 0; k < n; k++)
        if (by_rank[k] != foe) want[nw++] = by_rank[k];
    assert_int_equal(nw, 3);
    assert_int_equal(cJSON_GetArraySize(order), nw);
    for (int k = 0; k < nw; k++) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(order, k), "id");
        assert_true(cJSON_IsString(id));
        assert_string_equal(id->valuestring, b->map->combatants[want[k]].id);
    }
    cJSON_Delete(j);
    free(side);
    share_eye_free(&e);
    fx_free(&f);
}

/* battle_initiative_order follows the latest rank the log gave each
 * combatant, and puts the unranked last in map order. */
static void initiative_order_follows_the_log(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f);
    int p = fx_add(f.m, "kara", "players", 1, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_add(f.m, "omar", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_add(f.m, "brute", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_start_until(&f, p, 5);
    battle_t *b = f.p.b;
    int out[MAP_MAX_COMBATANTS];
    b->log.n = 0; /* a log of our own making */
    battle_emit(b, &(event_t){.type = EV_INITIATIVE, .who = 2, .value = 1});
    battle_emit(b, &(event_t){.type = EV_INITIATIVE, .who = 0, .value = 2});
    assert_int_equal(battle_initiative_order(b, out), 3);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 1); /* never ranked */
    battle_emit(b, &(event_t){.type = EV_INITIATIVE, .who = 2, .value = 3}); /* a new round's */
    battle_initiative_order(b, out);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2);
    assert_int_equal(out[2], 1);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stealth_three_unplaced_is_hidden),
        cmocka_unit_test(order_without_a_forecast),
        cmocka_unit_test(initiative_order_follows_the_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
