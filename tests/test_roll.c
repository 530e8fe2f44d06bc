/* test_roll.c - roll specs: keeping dice, counting successes with crits and
 * botches, pass/fail goals, the limits, and the descriptions the log and the
 * dice prompt show. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/roll.h"

static roll_result_t read_faces(const roll_spec_t *s, const int *faces)
{
    roll_result_t r;
    memset(&r, 0x55, sizeof r);
    roll_read(s, faces, &r);
    return r;
}

static void test_plain_rolls_keep_and_sum(void **state)
{
    (void)state;
    const int faces[4] = {5, 2, 6, 3};
    roll_spec_t hi = roll_plain(4, 6, 1, 2);
    roll_result_t r = read_faces(&hi, faces);
    assert_int_equal(r.kept_n, 1);
    assert_int_equal(r.kept[0], 6);
    assert_int_equal(r.total, 8);
    assert_int_equal(r.successes, 0);
    roll_spec_t lo2 = roll_plain(4, 6, -2, 0);
    r = read_faces(&lo2, faces);
    assert_int_equal(r.kept_n, 2);
    assert_int_equal(r.kept[0], 2);
    assert_int_equal(r.kept[1], 3);
    assert_int_equal(r.total, 5);
    roll_spec_t all = roll_plain(4, 6, 0, -1);
    r = read_faces(&all, faces);
    assert_int_equal(r.kept_n, 4);
    assert_int_equal(r.total, 15);
    /* No dice: the modifier alone (a flat "+2"). */
    roll_spec_t flat = roll_plain(0, 6, 0, 2);
    r = read_faces(&flat, faces);
    assert_int_equal(r.kept_n, 0);
    assert_int_equal(r.total, 2);
}

/* 3d12: 8-9 count one, 10-12 count two, a 1 takes one away (emcore's pool). */
static roll_spec_t pool(int n)
{
    roll_spec_t s = roll_plain(n, 12, 0, 0);
    s.count_at = 8;
    s.crit_at = 10;
    s.crit_value = 2;
    s.botch_at = 1;
    s.botch_value = 1;
    return s;
}

static void test_success_counting_with_crits_and_botches(void **state)
{
    (void)state;
    roll_spec_t s = pool(3);
    assert_true(roll_counts(&s));
    roll_result_t r = read_faces(&s, (const int[]){1, 9, 11});
    assert_int_equal(r.successes, -1 + 1 + 2);
    assert_int_equal(r.total, r.successes);
    r = read_faces(&s, (const int[]){7, 2, 5});
    assert_int_equal(r.successes, 0);
    /* A net botch stays negative: the ruleset decides what it means. */
    r = read_faces(&s, (const int[]){1, 1, 3});
    assert_int_equal(r.successes, -2);
    /* Face by face, the same reading. */
    assert_int_equal(roll_face_successes(&s, 1), -1);
    assert_int_equal(roll_face_successes(&s, 7), 0);
    assert_int_equal(roll_face_successes(&s, 8), 1);
    assert_int_equal(roll_face_successes(&s, 12), 2);
    /* A modifier adds successes; keeping counts only the kept dice. */
    s.mod = 1;
    s.keep = 2;
    r = read_faces(&s, (const int[]){12, 1, 8});
    assert_int_equal(r.kept_n, 2);
    assert_int_equal(r.successes, 2 + 1 + 1);
    /* Crits-only (a hasty shot): count_at = crit_at, each counts one. */
    roll_spec_t crits = roll_plain(4, 12, 0, 0);
    crits.count_at = 10;
    r = read_faces(&crits, (const int[]){9, 10, 12, 3});
    assert_int_equal(r.successes, 2);
}

static void test_goals_pass_and_fail(void **state)
{
    (void)state;
    roll_spec_t hit = roll_plain(1, 20, 0, 4);
    hit.goal = ROLL_GOAL_AT_LEAST;
    hit.target = 20;
    assert_int_equal(read_faces(&hit, (const int[]){16}).successes, 1);
    assert_int_equal(read_faces(&hit, (const int[]){15}).successes, 0);
    assert_int_equal(read_faces(&hit, (const int[]){15}).total, 19);
    roll_spec_t morale = roll_plain(2, 6, 0, 0);
    morale.goal = ROLL_GOAL_AT_MOST;
    morale.target = 7;
    assert_int_equal(read_faces(&morale, (const int[]){3, 4}).successes, 1);
    assert_int_equal(read_faces(&morale, (const int[]){4, 4}).successes, 0);
}

static void test_limits_are_refused_not_clamped(void **state)
{
    (void)state;
    char why[96];
    roll_spec_t s = roll_plain(ROLL_MAX_DICE, 6, 0, 0);
    assert_true(roll_check(&s, why, sizeof why));
    s.n = ROLL_MAX_DICE + 1;
    assert_false(roll_check(&s, why, sizeof why));
    assert_non_null(strstr(why, "33 dice"));
    s = roll_plain(-1, 6, 0, 0);
    assert_false(roll_check(&s, why, sizeof why));
    s = roll_plain(1, 0, 0, 0);
    assert_false(roll_check(&s, why, sizeof why));
    s = roll_plain(1, ROLL_MAX_SIDES + 1, 0, 0);
    assert_false(roll_check(&s, why, sizeof why));
    s = roll_plain(0, 6, 0, 3);
    assert_true(roll_check(&s, why, sizeof why));
}

static void test_descriptions(void **state)
{
    (void)state;
    char buf[128];
    roll_spec_t s = pool(3);
    roll_describe(&s, buf, sizeof buf);
    assert_string_equal(buf, "3d12: 8+ succeeds, 10+ counts 2, a 1 takes one away");
    s = roll_plain(2, 20, 1, 3);
    roll_describe(&s, buf, sizeof buf);
    assert_string_equal(buf, "2d20 keep the highest+3");
    s = roll_plain(4, 20, -1, 0);
    roll_describe(&s, buf, sizeof buf);
    assert_string_equal(buf, "4d20 keep the lowest");
    s = roll_plain(1, 20, 0, 2);
    s.goal = ROLL_GOAL_AT_LEAST;
    s.target = 20;
    roll_describe(&s, buf, sizeof buf);
    assert_string_equal(buf, "1d20+2: 20 or more succeeds");
    s = roll_plain(2, 6, 0, 0);
    s.goal = ROLL_GOAL_AT_MOST;
    s.target = 9;
    roll_describe(&s, buf, sizeof buf);
    assert_string_equal(buf, "2d6: 9 or under succeeds");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_rolls_keep_and_sum),
        cmocka_unit_test(test_success_counting_with_crits_and_botches),
        cmocka_unit_test(test_goals_pass_and_fail),
        cmocka_unit_test(test_limits_are_refused_not_clamped),
        cmocka_unit_test(test_descriptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
