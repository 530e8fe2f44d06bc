/* test_args.c - the text values of the command line (core/args.h): integers,
 * cells "C,R" and overlay specs "KIND:ARGS". Also the regression home for
 * anything tests/fuzz/fuzz_args finds. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/args.h"

static void test_int_accepts_whole_decimals(void **state)
{
    (void)state;
    int v = 99;
    assert_true(args_parse_int("0", &v));
    assert_int_equal(v, 0);
    assert_true(args_parse_int("-17", &v));
    assert_int_equal(v, -17);
    assert_true(args_parse_int("2147483647", &v));
    assert_int_equal(v, INT_MAX);
    assert_true(args_parse_int("-2147483648", &v));
    assert_int_equal(v, INT_MIN);
}

static void test_int_refuses_the_rest(void **state)
{
    (void)state;
    const char *bad[] = {"",   " 1",   "+1",         "1 ",          "1x",
                         "x1", "0x10", "2147483648", "-2147483649", "99999999999999999999",
                         "-",  "1.5",  "1,2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int v = 1234;
        assert_false(args_parse_int(bad[i], &v));
        assert_int_equal(v, 1234); /* out is untouched on failure */
    }
    int v = 5;
    assert_false(args_parse_int(NULL, &v));
}

static void test_cell_parses_col_then_row(void **state)
{
    (void)state;
    cell_t c = {0, 0};
    assert_true(args_parse_cell("3,4", &c));
    assert_int_equal(c.col, 3);
    assert_int_equal(c.row, 4);
    /* Negative cells parse; whether they are on the map is the caller's check. */
    assert_true(args_parse_cell("-1,0", &c));
    assert_int_equal(c.col, -1);
    assert_int_equal(c.row, 0);
    assert_true(args_parse_cell("2147483647,-2147483648", &c));
    assert_int_equal(c.col, INT_MAX);
    assert_int_equal(c.row, INT_MIN);
}

static void test_cell_refuses_malformed(void **state)
{
    (void)state;
    const char *bad[] = {"", "3", "3,", ",4", "3,4,5", " 3,4", "3, 4", "3;4", "+3,4", "a,b", "3,4 ",
                         "2147483648,0", "0,-2147483649",
                         /* longer than the parser's scratch buffers: must not overrun */
                         "11111111111111111111111111111111111111111111111111,1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cell_t c = {7, 8};
        assert_false(args_parse_cell(bad[i], &c));
        assert_int_equal(c.col, 7);
        assert_int_equal(c.row, 8);
    }
    cell_t c = {7, 8};
    assert_false(args_parse_cell(NULL, &c));
}

static void test_overlay_kinds(void **state)
{
    (void)state;
    overlay_spec_t o;
    char err[128];
    assert_true(args_parse_overlay("reach:kara", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_REACH);
    assert_string_equal(o.id, "kara");
    assert_string_equal(o.other, "");
    assert_false(o.has_cell);

    assert_true(args_parse_overlay("threat:ogre-2", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_THREAT);
    assert_string_equal(o.id, "ogre-2");

    assert_true(args_parse_overlay("flanking:kara,ogre", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_FLANKING);
    assert_string_equal(o.id, "kara");
    assert_string_equal(o.other, "ogre");

    assert_true(args_parse_overlay("range:kara", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_RANGE);
    assert_string_equal(o.other, "");
    assert_true(args_parse_overlay("range:kara,long_bow", &o, err, sizeof err));
    assert_string_equal(o.other, "long_bow");

    assert_true(args_parse_overlay("los:kara", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_LOS);
    assert_false(o.has_cell);
    assert_true(args_parse_overlay("los:kara,5,-6", &o, err, sizeof err));
    assert_true(o.has_cell);
    assert_int_equal(o.cell.col, 5);
    assert_int_equal(o.cell.row, -6);

    assert_true(args_parse_overlay("area:vex,frag_charge,12,7", &o, err, sizeof err));
    assert_int_equal(o.kind, OVERLAY_AREA);
    assert_string_equal(o.id, "vex");
    assert_string_equal(o.other, "frag_charge");
    assert_true(o.has_cell);
    assert_int_equal(o.cell.col, 12);
    assert_int_equal(o.cell.row, 7);
}

static void test_overlay_kind_names_round_trip(void **state)
{
    (void)state;
    for (int k = 0; k < OVERLAY_KIND_COUNT; k++) {
        char spec[64], err[128];
        snprintf(spec, sizeof spec, "%s:x", args_overlay_kind_name((overlay_kind_t)k));
        overlay_spec_t o;
        /* flanking needs a target, area a weapon and a hex; the others take a lone id */
        if (k == OVERLAY_FLANKING) strcat(spec, ",y");
        if (k == OVERLAY_AREA) strcat(spec, ",w,1,2");
        assert_true(args_parse_overlay(spec, &o, err, sizeof err));
        assert_int_equal((int)o.kind, k);
    }
    assert_string_equal(args_overlay_kind_name(OVERLAY_KIND_COUNT), "?");
    assert_string_equal(args_overlay_kind_name((overlay_kind_t)-1), "?");
}

static void test_overlay_refusals_say_what_was_expected(void **state)
{
    (void)state;
    struct {
        const char *spec, *want;
    } bad[] = {
        {"reach", "reach:ID"},       /* no colon */
        {"reachx:kara", "reach:ID"}, /* unknown kind */
        {"Reach:kara", "reach:ID"},  /* kinds are lower case */
        {":kara", "reach:ID"},
        {"reach:", "combatant id"},
        {"reach:ka ra", "combatant id"},
        {"reach:kara,ogre", "single combatant id"},
        {"threat:kara,", "single combatant id"},
        {"flanking:kara", "flanking:ATTACKER,TARGET"},
        {"flanking:kara,", "flanking:ATTACKER,TARGET"},
        {"flanking:kara,og re", "flanking:ATTACKER,TARGET"},
        {"range:kara,", "range:ID,WEAPON"},
        {"los:kara,3", "los:ID,C,R"},
        {"los:kara,3,4,5", "los:ID,C,R"},
        {"los:kara,x,y", "los:ID,C,R"},
        {"area:kara", "area:ID,WEAPON,C,R"},
        {"area:kara,frag", "area:ID,WEAPON,C,R"},
        {"area:kara,frag,3", "area:ID,WEAPON,C,R"},
        {"area:kara,3,4", "area:ID,WEAPON,C,R"},
        {"area:kara,fr ag,3,4", "area:ID,WEAPON,C,R"},
        {"area:kara,,3,4", "area:ID,WEAPON,C,R"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        overlay_spec_t o;
        memset(&o, 0x77, sizeof o);
        char err[256] = "";
        assert_false(args_parse_overlay(bad[i].spec, &o, err, sizeof err));
        assert_non_null(strstr(err, bad[i].want));
        assert_non_null(strstr(err, bad[i].spec)); /* the message quotes the input */
        assert_int_equal(o.id[0], 0x77);           /* out untouched */
    }
    overlay_spec_t o;
    char err[128] = "";
    assert_false(args_parse_overlay(NULL, &o, err, sizeof err));
    assert_true(err[0] != '\0');
}

static void test_overlay_id_length_limit(void **state)
{
    (void)state;
    char spec[MAP_ID_MAX + 16], err[256];
    overlay_spec_t o;
    /* MAP_ID_MAX-1 characters is the longest id a map can hold */
    memset(spec, 0, sizeof spec);
    strcpy(spec, "reach:");
    memset(spec + 6, 'a', MAP_ID_MAX - 1);
    assert_true(args_parse_overlay(spec, &o, err, sizeof err));
    assert_int_equal(strlen(o.id), MAP_ID_MAX - 1);
    spec[6 + MAP_ID_MAX - 1] = 'a';
    assert_false(args_parse_overlay(spec, &o, err, sizeof err));

    /* the same limit for the second id */
    memset(spec, 0, sizeof spec);
    strcpy(spec, "flanking:k,");
    memset(spec + 11, 'b', MAP_ID_MAX);
    assert_false(args_parse_overlay(spec, &o, err, sizeof err));
}

/* A short error buffer gets a cut, terminated message and nothing past it. */
static void test_overlay_error_fits_small_buffers(void **state)
{
    (void)state;
    for (size_t cap = 0; cap < 24; cap++) {
        char buf[32];
        memset(buf, 'Z', sizeof buf);
        overlay_spec_t o;
        assert_false(args_parse_overlay("bogus:kara", &o, cap ? buf : NULL, cap));
        if (cap) assert_non_null(memchr(buf, '\0', cap));
        for (size_t i = cap; i < sizeof buf; i++)
            assert_int_equal(buf[i], 'Z');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_accepts_whole_decimals),
        cmocka_unit_test(test_int_refuses_the_rest),
        cmocka_unit_test(test_cell_parses_col_then_row),
        cmocka_unit_test(test_cell_refuses_malformed),
        cmocka_unit_test(test_overlay_kinds),
        cmocka_unit_test(test_overlay_kind_names_round_trip),
        cmocka_unit_test(test_overlay_refusals_say_what_was_expected),
        cmocka_unit_test(test_overlay_id_length_limit),
        cmocka_unit_test(test_overlay_error_fits_small_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
