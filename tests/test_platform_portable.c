/* test_platform_portable.c - the platform layer through its own interface
 * only (no POSIX or Win32 header), so the same program checks the POSIX side
 * on Linux and the Win32 side under Wine (make test-windows): the atomic
 * replace over an existing file, reading back, folders made on the way,
 * what stat says, a non-ASCII name, the executable's folder, folder
 * listing, absolute paths, temporary folders, random bytes and clocks. */
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

/* The folder's names, non-ASCII ones too, each once, without "." and "..". */
static void test_dir_listing(void **state)
{
    (void)state;
    char d[1100], f[1200];
    path_of(d, sizeof d, "list");
    assert_true(hb_fs_make_dirs(d, 0755));
    static const char *const NAMES[] = {"one.json", "two.battle.json", "\xc3\xa9t\xc3\xa9.tmx"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(f, sizeof f, "%s/%s", d, NAMES[i]);
        write_replace(f, "{}");
    }
    int seen[3] = {0}, other = 0;
    hb_dir_t *h = hb_dir_open(d);
    assert_non_null(h);
    const char *name;
    while ((name = hb_dir_next(h)) != NULL) {
        size_t i = 0;
        while (i < 3 && strcmp(name, NAMES[i]) != 0) i++;
        if (i < 3)
            seen[i]++;
        else
            other++;
    }
    hb_dir_close(h);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 1);
    assert_int_equal(seen[2], 1);
    assert_int_equal(other, 0);
    /* Not a folder; no such folder. */
    snprintf(f, sizeof f, "%s/%s", d, NAMES[0]);
    assert_null(hb_dir_open(f));
    snprintf(f, sizeof f, "%s/absent", d);
    assert_null(hb_dir_open(f));
    assert_int_equal(errno, ENOENT);
    for (size_t i = 0; i < 3; i++) {
        snprintf(f, sizeof f, "%s/%s", d, NAMES[i]);
        assert_int_equal(hb_fs_remove(f), 0);
    }
    assert_int_equal(hb_fs_remove_dir(d), 0);
    assert_int_not_equal(hb_fs_stat(d, NULL), 0);
}

/* Absolute paths: the system's own form is recognised, a relative name is
 * made absolute whether or not the file exists. */
static void test_absolute(void **state)
{
    (void)state;
    char out[4096];
    assert_true(hb_fs_is_absolute(g_root));
    assert_false(hb_fs_is_absolute("maps/x.json"));
    assert_false(hb_fs_is_absolute("x.json"));
    assert_int_equal(hb_fs_absolute("no_such_file.json", out, sizeof out), 0);
    assert_true(hb_fs_is_absolute(out));
    size_t n = strlen(out);
    assert_true(n > 18 && strcmp(out + n - 18, "/no_such_file.json") == 0);
    assert_int_equal(hb_fs_absolute(g_root, out, sizeof out), 0);
    assert_true(hb_fs_is_absolute(out));
    assert_null(strchr(out, '\\'));
    char tiny[4];
    assert_int_not_equal(hb_fs_absolute(g_root, tiny, sizeof tiny), 0);
}

/* A temporary folder of its own, empty and removable; two are not the same. */
static void test_temp_dirs(void **state)
{
    (void)state;
    char tmp[1024], a[1100], b[1100];
    assert_true(hb_plat_temp_dir(tmp, sizeof tmp));
    assert_true(hb_fs_is_absolute(tmp));
    assert_int_equal(hb_fs_make_temp_dir("hb_test_", a, sizeof a), 0);
    assert_int_equal(hb_fs_make_temp_dir("hb_test_", b, sizeof b), 0);
    assert_string_not_equal(a, b);
    assert_int_equal(strncmp(a, tmp, strlen(tmp)), 0);
    assert_non_null(strstr(a, "/hb_test_"));
    hb_fs_info_t info;
    assert_int_equal(hb_fs_stat(a, &info), 0);
    assert_int_equal(info.kind, HB_FS_FOLDER);
    hb_dir_t *h = hb_dir_open(a);
    assert_non_null(h);
    assert_null(hb_dir_next(h));
    hb_dir_close(h);
    assert_int_equal(hb_fs_remove_dir(a), 0);
    assert_int_equal(hb_fs_remove_dir(b), 0);
    assert_int_not_equal(hb_fs_stat(a, NULL), 0);
}

/* Random bytes are not all one value; the clocks and the process's figures
 * say something. */
static void test_process(void **state)
{
    (void)state;
    unsigned char r[64] = {0};
    assert_true(hb_plat_random(r, sizeof r));
    int zeros = 0;
    for (size_t i = 0; i < sizeof r; i++) zeros += r[i] == 0;
    assert_true(zeros < 16);
    assert_true(hb_plat_pid() > 0);
    /* Busy work moves this thread's CPU clock (in steps of up to 16 ms on
     * Windows) and the wall clock with it; 5 s of wall time bounds the loop. */
    double c0 = hb_plat_thread_cpu_ms(), t0 = hb_plat_now_ms();
    volatile double x = 0;
    while (hb_plat_thread_cpu_ms() - c0 < 30 && hb_plat_now_ms() - t0 < 5000)
        for (int i = 0; i < 100000; i++) x += i * 0.5;
    assert_true(x > 0);
    assert_true(hb_plat_thread_cpu_ms() - c0 >= 30);
    assert_true(hb_plat_now_ms() - t0 >= 1);
    assert_true(hb_plat_peak_mem_mb() > 0.5);
    char ip[64];
    hb_plat_lan_address(ip, sizeof ip); /* a machine may have no network */
    assert_non_null(strchr(ip, '.'));
}

/* Everything below g_root, by the names the tests used. */
static int teardown(void **state)
{
    (void)state;
    static const char *const FILES[] = {"a/b/c/file", "K\xc3\xb6nigsberg \xe6\x88\xb0.json"};
    static const char *const DIRS[] = {"a/b/c", "a/b", "a", "list", ""};
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
        cmocka_unit_test(test_dir_listing),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_temp_dirs),
        cmocka_unit_test(test_process),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
