/* test_platform_portable.c - the platform layer through its own interface
 * only (no POSIX or Win32 header), so the same program checks the POSIX side
 * on Linux and the Win32 side under Wine (make test-windows): the atomic
 * replace over an existing file, reading back, folders made on the way,
 * what stat says, a non-ASCII name, and the executable's folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/plat_sys.h"
#include "platform/platform.h"

static char g_root[1024];

/* A fresh folder beside this program's (tmpnam-free: the program's folder is
 * writable in every build tree). */
static int setup(void **state)
{
    (void)state;
    char dir[4096];
    if (!hb_plat_exe_dir(dir, sizeof dir)) return -1;
    int n = snprintf(g_root, sizeof g_root, "%s/platform_test_%ld", dir,
                     (long)time(NULL) ^ (long)clock());
    if (n < 0 || (size_t)n >= sizeof g_root) return -1;
    return hb_fs_make_dirs(g_root, 0755) ? 0 : -1;
}

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_root, name);
}

/* Write BYTES to PATH as fileio.c does: a temporary file, sync, replace. */
static void write_replace(const char *path, const char *bytes)
{
    char tmp[1200];
    int fd = hb_fs_create_temp(path, true, tmp, sizeof tmp);
    assert_true(fd >= 0);
    size_t n = strlen(bytes);
    assert_int_equal(hb_fs_write(fd, bytes, n), (long long)n);
    assert_int_equal(hb_fs_sync(fd), 0);
    assert_int_equal(hb_fs_close(fd), 0);
    assert_int_equal(hb_fs_replace(tmp, path), 0);
    hb_fs_info_t st;
    assert_int_equal(hb_fs_stat(tmp, &st), -1); /* the temporary name is gone */
}

static void read_back(const char *path, const char *want)
{
    hb_fs_info_t st;
    int fd = hb_fs_open_read(path, &st);
    assert_true(fd >= 0);
    assert_int_equal(st.kind, HB_FS_REGULAR);
    assert_int_equal(st.size, (long long)strlen(want));
    char buf[256] = "";
    long long got = hb_fs_read(fd, buf, sizeof buf - 1);
    assert_int_equal(got, (long long)strlen(want));
    assert_int_equal(hb_fs_read(fd, buf, sizeof buf - 1), 0);
    hb_fs_close(fd);
    assert_memory_equal(buf, want, strlen(want));
}

static void test_replace_existing(void **state)
{
    (void)state;
    char p[1100];
    path_of(p, sizeof p, "map.json");
    write_replace(p, "first");
    read_back(p, "first");
    /* Over an existing file: rename() alone fails there on Windows. */
    write_replace(p, "second, longer");
    read_back(p, "second, longer");
    assert_int_equal(hb_fs_remove(p), 0);
    hb_fs_info_t st;
    assert_int_equal(hb_fs_stat(p, &st), -1);
    assert_int_equal(errno, ENOENT);
}

static void test_make_dirs_and_kinds(void **state)
{
    (void)state;
    char d[1100], f[1200];
    path_of(d, sizeof d, "a/b/c");
    assert_true(hb_fs_make_dirs(d, 0755));
    assert_true(hb_fs_make_dirs(d, 0755)); /* already there: fine */
    hb_fs_info_t st;
    assert_int_equal(hb_fs_stat(d, &st), 0);
    assert_int_equal(st.kind, HB_FS_FOLDER);
    /* A folder is not read as a file. */
    assert_int_equal(hb_fs_open_read(d, NULL), -1);
    assert_int_equal(errno, EISDIR);
    /* A file in the way of a folder. */
    snprintf(f, sizeof f, "%s/file", d);
    write_replace(f, "x");
    snprintf(f, sizeof f, "%s/file/sub", d);
    assert_false(hb_fs_make_dirs(f, 0755));
}

static void test_non_ascii_name(void **state)
{
    (void)state;
    char p[1100];
    path_of(p, sizeof p, "K\xc3\xb6nigsberg \xe6\x88\xb0.json"); /* Königsberg 戰 */
    write_replace(p, "{}");
    read_back(p, "{}");
    char real[4096];
    assert_int_equal(hb_fs_real_path(p, real, sizeof real), 0);
    assert_non_null(strstr(real, "K\xc3\xb6nigsberg \xe6\x88\xb0.json"));
    assert_null(strchr(real, '\\'));
}

static void test_exe_dir(void **state)
{
    (void)state;
    char dir[4096];
    assert_true(hb_plat_exe_dir(dir, sizeof dir));
    assert_non_null(strstr(g_root, dir));
    assert_null(strchr(dir, '\\'));
    char tiny[3] = "ab";
    assert_false(hb_plat_exe_dir(tiny, sizeof tiny));
    assert_string_equal(tiny, "");
}

/* Everything below g_root, by the names the tests used. */
static int teardown(void **state)
{
    (void)state;
    static const char *const FILES[] = {"a/b/c/file", "K\xc3\xb6nigsberg \xe6\x88\xb0.json"};
    static const char *const DIRS[] = {"a/b/c", "a/b", "a", ""};
    char p[1200];
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        path_of(p, sizeof p, FILES[i]);
        hb_fs_remove(p);
    }
    for (size_t i = 0; i < sizeof DIRS / sizeof DIRS[0]; i++) {
        path_of(p, sizeof p, DIRS[i]);
        remove(p); /* an empty folder */
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replace_existing),
        cmocka_unit_test(test_make_dirs_and_kinds),
        cmocka_unit_test(test_non_ascii_name),
        cmocka_unit_test(test_exe_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
