/* test_say.c - messages that echo input show its control characters escaped
 * (issue 30, item 13): the escape itself, stderr through hb_eprintf, and the
 * messages built outside io_fail (file errors, recent files, pictures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/say.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/picture.h"
#include "io/recent.h"
#include "tmp_fixture.h"

/* No byte below 0x20, nor DEL, anywhere in s. */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f) return 1;
    return 0;
}

static void test_escape(void **state)
{
    (void)state;
    char s[64] = "a\x1b[31mb\nc\x7f";
    hb_escape_controls(s, sizeof s);
    assert_string_equal(s, "a\\x1b[31mb\\x0ac\\x7f");
    /* Twice is once. */
    hb_escape_controls(s, sizeof s);
    assert_string_equal(s, "a\\x1b[31mb\\x0ac\\x7f");
    /* A short buffer cuts the text, never half an escape, never past cap. */
    char t[8] = "ab\x1b\x1b";
    hb_escape_controls(t, sizeof t);
    assert_string_equal(t, "ab\\x1b");
    /* Plain text and UTF-8 are untouched. */
    char u[32] = "caf\xc3\xa9 [3, 4]";
    hb_escape_controls(u, sizeof u);
    assert_string_equal(u, "caf\xc3\xa9 [3, 4]");
}

/* What hb_eprintf writes to stderr, into out. */
static void capture(char *out, size_t cap, const char *arg)
{
    char dir[256], path[512];
    assert_true(tmp_dir_make(dir, sizeof dir, "say"));
    snprintf(path, sizeof path, "%s/err", dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    dup2(fileno(f), 2);
    hb_eprintf("hexbattle: '%s' is not a cell\n", arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
    tmp_dir_remove(dir);
}

static void test_eprintf(void **state)
{
    (void)state;
    char got[256];
    capture(got, sizeof got, "3\x1b[2J,4\nhexbattle: forged");
    /* One line: the arguments' newline escaped, the format's kept. */
    assert_string_equal(got,
                        "hexbattle: '3\\x1b[2J,4\\x0ahexbattle: forged' is not a cell\n");
}

static void test_file_errors(void **state)
{
    (void)state;
    char dir[256], path[512], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "say"));
    /* A file that is not there, named with an ESC and a newline. */
    snprintf(path, sizeof path, "%s/no\x1b[31m\nwhere.json", dir);
    char *text = NULL;
    size_t len = 0;
    assert_int_not_equal(hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    assert_null(text);
    assert_false(has_control(err));
    assert_non_null(strstr(err, "no\\x1b[31m\\x0awhere.json"));

    /* A map loaded from there: the same message. */
    map_t *m = NULL;
    assert_int_not_equal(map_load(path, NULL, &m, NULL, err, sizeof err), HB_OK);
    assert_false(has_control(err));
    assert_non_null(strstr(err, "\\x1b[31m"));

    /* A picture. */
    int w = 0, h = 0;
    assert_int_not_equal(hb_picture_check(path, &w, &h, err, sizeof err), HB_OK);
    assert_false(has_control(err));
    assert_non_null(strstr(err, "\\x1b[31m"));

    /* The recent-files list, filed under a folder that cannot be made (a
     * file stands where it would go). */
    char block[512], file[600];
    snprintf(block, sizeof block, "%s/block", dir);
    FILE *f = fopen(block, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(file, sizeof file, "%s/\x1b]0;title\x07/recent.json", block);
    assert_int_not_equal(recent_add(file, "/maps/m.json", err, sizeof err), HB_OK);
    assert_false(has_control(err));
    assert_non_null(strstr(err, "\\x1b]0;title\\x07"));
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_eprintf),
        cmocka_unit_test(test_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
