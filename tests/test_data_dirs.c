/* test_data_dirs.c - where hexbattle finds data/ and assets/ (issue 35): an
 * installed copy's own, relative to the executable, comes first; then
 * $HEXBATTLE_DATA; then a build tree's. And the platform layer's answer for
 * the executable's folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "platform/platform.h"
#include "tmp_fixture.h"

/* argv[0]. */
static const char *g_self;

static int setup_dir(void **state)
{
    char *dir = malloc(512);
    if (!dir || !tmp_dir_make(dir, 512, "datadirs")) return -1;
    *state = dir;
    return 0;
}

static int teardown_dir(void **state)
{
    tmp_dir_remove(*state);
    free(*state);
    hb_set_argv0(NULL);
    return 0;
}

/* mkdir -p of ROOT/REL. */
static void make_dirs(const char *root, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    assert_true(hb_make_dirs(path, 0755));
}

static void touch(const char *root, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs("{}", f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* An installed copy's layout, relative to PREFIX: the program, its folder,
 * and where its data sits as seen from that folder. POSIX: PREFIX/bin beside
 * PREFIX/share/hexbattle (cmake --install, the .deb); Windows: everything
 * beside hexbattle.exe (the zip). */
#ifdef _WIN32
#define INST_BIN "."
#define INST_EXE "hexbattle.exe"
#define INST_SHARE ""
#else
#define INST_BIN "bin"
#define INST_EXE "hexbattle"
#define INST_SHARE "../share/hexbattle/"
#endif
/* The same relative to PREFIX (for making the folders). */
#define INST_DATA INST_BIN "/" INST_SHARE "data"
#define INST_ASSETS INST_BIN "/" INST_SHARE "assets"

/* An installed layout: its own data is used even with HEXBATTLE_DATA
 * pointing elsewhere. */
static void test_installed_copy_uses_its_own(void **state)
{
    const char *p = *state;
    make_dirs(p, INST_BIN);
    make_dirs(p, INST_DATA);
    make_dirs(p, INST_ASSETS "/fonts");
    touch(p, INST_DATA "/terrain.json");
    setenv("HEXBATTLE_DATA", "/elsewhere/data", 1);
    setenv("HEXBATTLE_ASSETS", "/elsewhere/assets", 1);
    char exe[1024], data[1100], assets[1100];
    snprintf(exe, sizeof exe, "%s/" INST_BIN "/" INST_EXE, p);
    snprintf(data, sizeof data, "%s/" INST_DATA, p);
    snprintf(assets, sizeof assets, "%s/" INST_ASSETS, p);
    hb_set_argv0(exe);
    assert_string_equal(hb_data_dir(), data);
    assert_string_equal(hb_assets_dir(), assets);
    unsetenv("HEXBATTLE_ASSETS");
}

/* Not installed (no share/hexbattle beside bin/): HEXBATTLE_DATA, and the
 * assets beside it. */
static void test_not_installed_uses_env(void **state)
{
    const char *p = *state;
    make_dirs(p, "bin");
    make_dirs(p, "src/data");
    make_dirs(p, "src/assets/fonts");
    char exe[1024], data[1100], assets[1100];
    snprintf(exe, sizeof exe, "%s/bin/hexbattle", p);
    snprintf(data, sizeof data, "%s/src/data", p);
    snprintf(assets, sizeof assets, "%s/src/data/../assets", p);
    setenv("HEXBATTLE_DATA", data, 1);
    unsetenv("HEXBATTLE_ASSETS");
    hb_set_argv0(exe);
    assert_string_equal(hb_data_dir(), data);
    assert_string_equal(hb_assets_dir(), assets);
}

/* A data folder without the data in it is no installed copy. */
static void test_installed_needs_the_data(void **state)
{
    const char *p = *state;
    make_dirs(p, INST_BIN);
    make_dirs(p, INST_DATA);
    setenv("HEXBATTLE_DATA", "/elsewhere/data", 1);
    char exe[1024];
    snprintf(exe, sizeof exe, "%s/" INST_BIN "/" INST_EXE, p);
    hb_set_argv0(exe);
    assert_string_equal(hb_data_dir(), "/elsewhere/data");
}

/* The running program's folder: where this test program is. */
static void test_exe_dir(void **state)
{
    (void)state;
    char dir[4096];
    assert_true(hb_plat_exe_dir(dir, sizeof dir));
    /* This program is in it, under the name argv[0] ends with. */
    const char *base = g_self;
    for (const char *c = g_self; *c; c++)
        if (*c == '/' || *c == '\\') base = c + 1;
    char self[4200];
    snprintf(self, sizeof self, "%s/%s", dir, base);
    FILE *f = fopen(self, "rb");
    assert_non_null(f);
    fclose(f);
#ifdef _WIN32
    /* "Z:/work/..." under Wine: a drive, and '/' only. */
    assert_true(dir[1] == ':' && dir[2] == '/');
    assert_null(strchr(dir, '\\'));
#else
    assert_int_equal(dir[0], '/');
#endif
    /* Too small a buffer: false, and an empty string. */
    char tiny[4] = "xyz";
    assert_false(hb_plat_exe_dir(tiny, sizeof tiny));
    assert_string_equal(tiny, "");
}

#define DIR_TEST(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)

int main(int argc, char **argv)
{
    (void)argc;
    g_self = argv[0];
    const struct CMUnitTest tests[] = {
        DIR_TEST(test_installed_copy_uses_its_own),
        DIR_TEST(test_not_installed_uses_env),
        DIR_TEST(test_installed_needs_the_data),
        cmocka_unit_test(test_exe_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
