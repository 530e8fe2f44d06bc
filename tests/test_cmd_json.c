/* test_cmd_json.c - commands as JSON (src/io/cmd_json.c): every command kind
 * written by cmd_to_json and read back by cmd_from_json is the same command,
 * both bare (cmd_make's defaults) and with every field it can carry set, and
 * through the printed text as a save or a scenario file holds it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "io/cmd_json.h"
#include "rules_fixture.h"

static map_t *three_combatants(void)
{
    map_t *m = fx_map(10, 8, "xhalem", NULL);
    fx_add(m, "kara", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife,rifle,pike", "");
    fx_add(m, "vex", "raiders", 5, 3, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(m, "mule", "players", 2, 1, KIND_CREATURE, SIZE_LARGE, 30, 40, NULL, "");
    return m;
}

/* Field by field, so padding and unused path slots cannot hide a difference. */
static void assert_cmd_equal(const cmd_t *a, const cmd_t *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->actor, b->actor);
    assert_int_equal(a->target, b->target);
    assert_int_equal(a->weapon, b->weapon);
    assert_int_equal(a->weapon2, b->weapon2);
    assert_int_equal(a->arg, b->arg);
    assert_int_equal(a->act, b->act);
    assert_int_equal(a->at.col, b->at.col);
    assert_int_equal(a->at.row, b->at.row);
    assert_int_equal(a->n_answers, b->n_answers);
    for (int k = 0; k < a->n_answers; k++)
        assert_int_equal(a->answer[k], b->answer[k]);
    assert_int_equal(a->n_path, b->n_path);
    for (int k = 0; k < a->n_path; k++) {
        assert_int_equal(a->path[k].col, b->path[k].col);
        assert_int_equal(a->path[k].row, b->path[k].row);
    }
}

/* c -> JSON object -> text -> JSON -> command, which must equal c. */
static void round_trip(const map_t *m, const cmd_t *c)
{
    cJSON *o = cmd_to_json(m, c);
    assert_non_null(o);
    char *text = cJSON_PrintUnformatted(o);
    assert_non_null(text);
    cJSON_Delete(o);
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    cmd_t got;
    memset(&got, 0xab, sizeof got); /* nothing may survive from before */
    char err[256] = "";
    if (!cmd_from_json(back, m, &got, err, sizeof err))
        fail_msg("%s: %s", text, err);
    free(text);
    cJSON_Delete(back);
    assert_cmd_equal(c, &got);
}

static void test_every_kind_bare(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    for (int k = 0; k < CMD_COUNT; k++) {
        cmd_t c = cmd_make((cmd_kind_t)k, 2);
        round_trip(m, &c);
    }
    map_destroy(m);
}

static void test_every_kind_with_every_field(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    for (int k = 0; k < CMD_COUNT; k++) {
        cmd_t c = cmd_make((cmd_kind_t)k, 0);
        c.target = 1;
        c.weapon = 2;
        c.weapon2 = 1;
        /* Any arg in 0..CMD_ARG_MAX reads back (a save refuses the rest). */
        c.arg = k == CMD_SHOVE ? 1 : k % 2 ? CMD_ARG_MAX - k : 3 + k;
        c.act = (cmd_kind_t)((k + 1) % CMD_COUNT);
        c.at = (cell_t){(k % 9) + 1, k % 8};
        for (int s = 0; s < 5; s++)
            c.path[c.n_path++] = (cell_t){s + 1, (s + k) % 8};
        /* Answers up to the last slot, yes/no ones and options up to 255:
         * all 64 fit and keep their order. */
        c.n_answers = k % 2 ? CMD_ANSWERS_MAX : 3;
        for (int q = 0; q < c.n_answers; q++)
            c.answer[q] = (uint8_t)(q == 63 ? 255 : (q * 7 + k) % 4);
        round_trip(m, &c);
    }
    map_destroy(m);
}

/* Values that equal a default on one field but not another (the cell [0,0],
 * act "end" on a declare, unarmed as -1) must come back as they went. */
static void test_defaults_and_edges(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    cmd_t use = cmd_make(CMD_USE, 0);
    use.at = (cell_t){0, 0};
    round_trip(m, &use);
    cmd_t dis = cmd_make(CMD_DISMOUNT, 0);
    dis.at = (cell_t){3, 2};
    round_trip(m, &dis);
    cmd_t dec = cmd_make(CMD_DECLARE, 1);
    dec.act = CMD_END;
    round_trip(m, &dec);
    cmd_t held = cmd_make(CMD_STANDBY, 0);
    held.act = CMD_MOVE;
    held.at = (cell_t){0, 3};
    held.arg = 1;
    round_trip(m, &held);
    cmd_t declined = cmd_make(CMD_MOVE, 1);
    declined.n_answers = 2; /* both declined: the answers are all 0 */
    declined.path[declined.n_path++] = (cell_t){5, 4};
    round_trip(m, &declined);
    cmd_t full = cmd_make(CMD_MOVE, 0);
    for (int k = 0; k < CMD_PATH_MAX; k++)
        full.path[full.n_path++] = (cell_t){k % 10, (k / 10) % 8};
    round_trip(m, &full);
    map_destroy(m);
}

/* The reader's side of the answers: their JSON form and what it refuses. */
static void test_reactions_key(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    cmd_t c;
    char err[256];
    /* A save from before there were options: true and false read as 1 and 0. */
    cJSON *v = cJSON_Parse("{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[true,false,true]}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.n_answers, 3);
    assert_int_equal(c.answer[0], 1);
    assert_int_equal(c.answer[1], 0);
    assert_int_equal(c.answer[2], 1);
    cJSON_Delete(v);
    /* Options by number, and written back the same way (0 and 1 as before). */
    v = cJSON_Parse("{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[true,false,2,0,1,255]}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.n_answers, 6);
    static const int WANT[6] = {1, 0, 2, 0, 1, 255};
    for (int k = 0; k < 6; k++)
        assert_int_equal(c.answer[k], WANT[k]);
    cJSON_Delete(v);
    cJSON *o = cmd_to_json(m, &c);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "reactions"));
    assert_string_equal(text, "[true,false,2,false,true,255]");
    free(text);
    cJSON_Delete(o);
    static const char *const BAD[] = {
        "{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[-1]}",
        "{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[256]}",
        "{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[1.5]}",
        "{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":[\"yes\"]}",
        "{\"cmd\":\"move\",\"actor\":\"vex\",\"reactions\":true}",
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        v = cJSON_Parse(BAD[k]);
        assert_non_null(v);
        assert_false(cmd_from_json(v, m, &c, err, sizeof err));
        assert_non_null(strstr(err, "reactions"));
        cJSON_Delete(v);
    }
    map_destroy(m);
}

/* Numbers outside their range, or fractions, are refused, never cut down
 * (cJSON's valueint would read 1.5 as 1): issue 30, item 11. */
static void test_numbers_in_range(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    cmd_t c;
    char err[256];
    static const struct {
        const char *json, *key;
    } BAD[] = {
        {"{\"cmd\":\"fly\",\"actor\":\"vex\",\"arg\":-1}", "\"arg\""},
        {"{\"cmd\":\"fly\",\"actor\":\"vex\",\"arg\":16777216}", "\"arg\""},
        {"{\"cmd\":\"fly\",\"actor\":\"vex\",\"arg\":2147483647}", "\"arg\""},
        {"{\"cmd\":\"fly\",\"actor\":\"vex\",\"arg\":1.5}", "\"arg\""},
        {"{\"cmd\":\"use\",\"actor\":\"vex\",\"at\":[1.5,0]}", "\"at\""},
        {"{\"cmd\":\"use\",\"actor\":\"vex\",\"at\":[0,-1]}", "\"at\""},
        {"{\"cmd\":\"move\",\"actor\":\"vex\",\"path\":[[1,0],[2,0.5]]}", "\"path\" step 2"},
        {"{\"cmd\":\"engage\",\"actor\":\"vex\",\"weapon\":0.5}", "\"weapon\""},
        {"{\"cmd\":\"engage\",\"actor\":\"vex\",\"weapon\":12}", "\"weapon\""},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        cJSON *v = cJSON_Parse(BAD[k].json);
        assert_non_null(v);
        assert_false(cmd_from_json(v, m, &c, err, sizeof err));
        assert_non_null(strstr(err, BAD[k].key));
        cJSON_Delete(v);
    }
    /* The ends of the range read back. */
    cJSON *v = cJSON_Parse("{\"cmd\":\"fly\",\"actor\":\"vex\",\"arg\":16777215}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.arg, CMD_ARG_MAX);
    cJSON_Delete(v);
    v = cJSON_Parse("{\"cmd\":\"engage\",\"actor\":\"vex\",\"weapon\":-2}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.weapon, CMD_WEAPON_GRAB);
    cJSON_Delete(v);
    map_destroy(m);
}

/* The built-in Grab (activation) is named "grab", or -2, wherever a weapon
 * is: an id the actor carries wins, and a saved -2 reads back as itself. */
static void test_grab_by_name(void **state)
{
    (void)state;
    map_t *m = three_combatants();
    cmd_t c;
    char err[256];
    static const char *const KINDS[] = {"standby", "declare", "engage"};
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
        char text[128];
        snprintf(text, sizeof text, "{\"cmd\":\"%s\",\"actor\":\"kara\",\"weapon\":\"grab\"}", KINDS[k]);
        cJSON *v = cJSON_Parse(text);
        assert_true(cmd_from_json(v, m, &c, err, sizeof err));
        assert_int_equal(c.weapon, CMD_WEAPON_GRAB);
        cJSON_Delete(v);
        round_trip(m, &c);
    }
    cJSON *v = cJSON_Parse("{\"cmd\":\"engage\",\"actor\":\"kara\",\"weapon\":-2}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.weapon, CMD_WEAPON_GRAB);
    cJSON_Delete(v);
    v = cJSON_Parse("{\"cmd\":\"engage\",\"actor\":\"kara\",\"weapon\":-3}");
    assert_false(cmd_from_json(v, m, &c, err, sizeof err));
    cJSON_Delete(v);
    /* A carried weapon called "grab" is that weapon, not the built-in one. */
    hb_strlcpy(m->combatants[0].weapons[1], "grab", sizeof m->combatants[0].weapons[1]);
    v = cJSON_Parse("{\"cmd\":\"engage\",\"actor\":\"kara\",\"weapon\":\"grab\"}");
    assert_true(cmd_from_json(v, m, &c, err, sizeof err));
    assert_int_equal(c.weapon, 1);
    cJSON_Delete(v);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grab_by_name),
        cmocka_unit_test(test_every_kind_bare),
        cmocka_unit_test(test_every_kind_with_every_field),
        cmocka_unit_test(test_defaults_and_edges),
        cmocka_unit_test(test_reactions_key),
        cmocka_unit_test(test_numbers_in_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
