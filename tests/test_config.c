/* test_config.c - per-display settings (io/config.h): where the file lives,
 * a save and load round trip, and malformed files reported and ignored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/config.h"
#include "io/fileio.h"
#include "tmp_fixture.h"

static char g_dir[256];

static int make_dir(void **state)
{
    (void)state;
    return tmp_dir_make(g_dir, sizeof g_dir, "config") ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    tmp_dir_remove(g_dir);
    return 0;
}

#ifndef _WIN32
/* POSIX: $XDG_CONFIG_HOME when absolute, else ~/.config. */
static void path_follows_xdg_then_home(void **state)
{
    (void)state;
    char p[512];
    setenv("XDG_CONFIG_HOME", "/srv/cfg", 1);
    setenv("HOME", "/home/ref", 1);
    assert_int_equal(config_path(p, sizeof p), HB_OK);
    assert_string_equal(p, "/srv/cfg/hexbattle/displays.json");
    setenv("XDG_CONFIG_HOME", "relative/cfg", 1); /* invalid per the spec: ignored */
    assert_int_equal(config_path(p, sizeof p), HB_OK);
    assert_string_equal(p, "/home/ref/.config/hexbattle/displays.json");
    unsetenv("XDG_CONFIG_HOME");
    assert_int_equal(config_path(p, sizeof p), HB_OK);
    assert_string_equal(p, "/home/ref/.config/hexbattle/displays.json");
    unsetenv("HOME");
    assert_int_equal(config_path(p, sizeof p), HB_ERR_OTHER);
    char tiny[8];
    setenv("HOME", "/home/ref", 1);
    assert_int_equal(config_path(tiny, sizeof tiny), HB_ERR_OTHER);
}
#else
/* Windows: %APPDATA% (settings roam with the user), never %LOCALAPPDATA%
 * (the autosaves' and recovery copies' folder), and never the POSIX
 * variables; none set is an error, not a file in the working folder. */
static void path_follows_xdg_then_home(void **state)
{
    (void)state;
    char p[512];
    setenv("APPDATA", "C:\\Users\\ref\\AppData\\Roaming", 1);
    setenv("LOCALAPPDATA", "C:\\Users\\ref\\AppData\\Local", 1);
    setenv("XDG_CONFIG_HOME", "/srv/cfg", 1);
    setenv("HOME", "/home/ref", 1);
    assert_int_equal(config_path(p, sizeof p), HB_OK);
    assert_string_equal(p, "C:/Users/ref/AppData/Roaming/hexbattle/displays.json");
    /* A name outside ASCII comes through as UTF-8. */
    assert_int_equal(_wputenv_s(L"APPDATA", L"C:\\Users\\J\u00f6rg"), 0);
    assert_int_equal(config_path(p, sizeof p), HB_OK);
    assert_string_equal(p, "C:/Users/J\xc3\xb6rg/hexbattle/displays.json");
    unsetenv("APPDATA");
    assert_int_equal(config_path(p, sizeof p), HB_ERR_OTHER);
    char tiny[8];
    setenv("APPDATA", "C:\\x", 1);
    assert_int_equal(config_path(tiny, sizeof tiny), HB_ERR_OTHER);
    unsetenv("LOCALAPPDATA");
    unsetenv("XDG_CONFIG_HOME");
}
#endif

static void missing_file_is_empty(void **state)
{
    (void)state;
    char p[512], err[256] = "";
    snprintf(p, sizeof p, "%s/none/displays.json", g_dir);
    config_t c;
    c.n = 5;
    assert_int_equal(config_load(p, &c, err, sizeof err), HB_OK);
    assert_int_equal(c.n, 0);
}

static void save_and_load_round_trip(void **state)
{
    (void)state;
    char p[512], err[256] = "";
    /* The folder does not exist yet: the save makes it. */
    snprintf(p, sizeof p, "%s/xdg/hexbattle/displays.json", g_dir);
    config_t c;
    config_init(&c);
    display_cfg_t *a = config_get(&c, "HDMI-1", 1920, 1080);
    assert_non_null(a);
    assert_true(a->hex_mm == 25.4 && a->dpi == 0.0 && a->rotation == 0);
    a->dpi = 41.7;
    a->rotation = 180;
    display_cfg_t *b = config_get(&c, "HDMI-1", 1280, 720); /* same port, other mode */
    b->hex_mm = 31.75;
    assert_ptr_equal(config_get(&c, "HDMI-1", 1920, 1080), a);
    assert_int_equal(c.n, 2);
    assert_int_equal(config_save(p, &c, err, sizeof err), HB_OK);

    config_t back;
    assert_int_equal(config_load(p, &back, err, sizeof err), HB_OK);
    assert_int_equal(back.n, 2);
    display_cfg_t *x = config_find(&back, "HDMI-1", 1920, 1080);
    assert_non_null(x);
    assert_true(x->dpi == 41.7 && x->rotation == 180 && x->hex_mm == 25.4);
    display_cfg_t *y = config_find(&back, "HDMI-1", 1280, 720);
    assert_non_null(y);
    assert_true(y->hex_mm == 31.75 && y->dpi == 0.0);
    assert_null(config_find(&back, "DP-2", 1920, 1080));

    /* A second save replaces the file whole and leaves no temporary behind. */
    x->rotation = 90;
    assert_int_equal(config_save(p, &back, err, sizeof err), HB_OK);
    assert_int_equal(config_load(p, &c, err, sizeof err), HB_OK);
    assert_int_equal(config_find(&c, "HDMI-1", 1920, 1080)->rotation, 90);
}

/* A save that fails at any step (full disk, I/O error, read-only disk)
 * says so and leaves the settings file as it was, with nothing beside it. */
static void failed_save_keeps_old_file(void **state)
{
    (void)state;
    char p[512], err[512] = "";
    snprintf(p, sizeof p, "%s/displays.json", g_dir);
    config_t c;
    config_init(&c);
    config_get(&c, "HDMI-1", 1920, 1080)->dpi = 40.0;
    assert_int_equal(config_save(p, &c, err, sizeof err), HB_OK);
    config_get(&c, "HDMI-1", 1920, 1080)->dpi = 55.0;
    static const char *const FAULTS[] = {"create:1:EROFS", "write:1", "fsync:1:EIO", "close:1",
                                         "rename:1"};
    for (size_t k = 0; k < sizeof FAULTS / sizeof FAULTS[0]; k++) {
        assert_true(hb_fault_set(FAULTS[k]));
        assert_int_equal(config_save(p, &c, err, sizeof err), HB_ERR_OTHER);
        hb_fault_set(NULL);
        char want[600];
        snprintf(want, sizeof want, "%s: cannot write: ", p);
        assert_memory_equal(err, want, strlen(want));
        config_t back;
        assert_int_equal(config_load(p, &back, err, sizeof err), HB_OK);
        assert_true(config_find(&back, "HDMI-1", 1920, 1080)->dpi == 40.0);
        struct stat st;
        char tmp[600];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld.0", p, (long)getpid());
        assert_int_not_equal(stat(tmp, &st), 0);
    }
}

/* Each malformed file is refused with the file and JSON path named, and the
 * settings come back empty rather than half-read. */
static void malformed_files_are_reported_and_ignored(void **state)
{
    (void)state;
    static const struct {
        const char *text, *where;
    } BAD[] = {
        {"{ \"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [", "line"},
        {"[1, 2]", "(root)"},
        {"{\"format\": \"hexbattle-map\", \"version\": 1, \"displays\": []}", "format"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 2, \"displays\": []}", "version"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1}", "displays"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\", "
         "\"width\": 800, \"height\": 600}, {\"name\": \"B\", \"width\": 800, \"height\": 600, "
         "\"dpi\": \"96\"}]}",
         "displays[1].dpi"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\", "
         "\"width\": 800, \"height\": 600, \"rotation\": 45}]}",
         "displays[0].rotation"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\", "
         "\"width\": 800, \"height\": 600, \"hex_mm\": -3}]}",
         "displays[0].hex_mm"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\", "
         "\"width\": 800, \"height\": 600}, {\"name\": \"A\", \"width\": 800, \"height\": 600}]}",
         "displays[1]"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"width\": 8, "
         "\"height\": 6}]}",
         "displays[0].name"},
        {"", "displays.json"},
        /* Strict JSON ('@' stands for a NUL byte). */
        {"{\"format\": \"hexbattle-displays\",@ \"version\": 1, \"displays\": []}",
         "(root): a NUL byte in the file"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A@B\", "
         "\"width\": 800, \"height\": 600}]}",
         "displays[0].name: a NUL byte inside a string"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": "
         "\"A\\u0000B\", \"width\": 800, \"height\": 600}]}",
         "displays[0].name: a NUL (\\u0000) inside a string"},
        {"{\"format\": \"hexbattle-displays\",\x01 \"version\": 1, \"displays\": []}",
         "control character 0x01 outside a string"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\tB\", "
         "\"width\": 800, \"height\": 600}]}",
         "displays[0].name: control character 0x09 inside a string"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\xc3\", "
         "\"width\": 800, \"height\": 600}]}",
         "displays[0].name: invalid UTF-8"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"version\": 1, \"displays\": []}",
         "version: given twice"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": [{\"name\": \"A\", "
         "\"width\": 80000000000, \"height\": 600}]}",
         "displays[0].width: number 80000000000 is out of range"},
        {"{\"format\": \"hexbattle-displays\", \"version\": 1, \"displays\": "
         "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
         "nested deeper than 32 levels"},
    };
    char p[512];
    snprintf(p, sizeof p, "%s/displays.json", g_dir);
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s", BAD[i].text);
        size_t n = strlen(text);
        for (size_t k = 0; k < n; k++)
            if (text[k] == '@') text[k] = '\0';
        FILE *f = fopen(p, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(text, 1, n, f), n);
        fclose(f);
        char err[512] = "";
        config_t c;
        c.n = 3;
        int rc = config_load(p, &c, err, sizeof err);
        if (rc != HB_ERR_INPUT || !strstr(err, p) || !strstr(err, BAD[i].where))
            fail_msg("case %zu: rc %d, err '%s', wanted '%s'", i, rc, err, BAD[i].where);
        assert_int_equal(c.n, 0);
    }
}

static void table_is_bounded(void **state)
{
    (void)state;
    config_t c;
    config_init(&c);
    char name[32];
    for (int i = 0; i < CONFIG_MAX_DISPLAYS; i++) {
        snprintf(name, sizeof name, "D%d", i);
        assert_non_null(config_get(&c, name, 800, 600));
    }
    assert_null(config_get(&c, "one-too-many", 800, 600));
    assert_non_null(config_get(&c, "D3", 800, 600)); /* known ones are still found */
    assert_int_equal(c.n, CONFIG_MAX_DISPLAYS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_follows_xdg_then_home),
        cmocka_unit_test_setup_teardown(missing_file_is_empty, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(save_and_load_round_trip, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(failed_save_keeps_old_file, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(malformed_files_are_reported_and_ignored, make_dir,
                                        remove_dir),
        cmocka_unit_test(table_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
