/* test_fileio.c - bounded reads, atomic saves with backups, and how the data
 * and assets folders are found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#include <io.h>
#else
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#endif

#include "io/fileio.h"
#include "platform/platform.h"
#include "tmp_fixture.h"

/* One temporary folder per test, removed afterwards. */
static int setup_dir(void **state)
{
    char *dir = malloc(64);
    if (!dir || !tmp_dir_make(dir, 64, "fileio")) {
        free(dir);
        return -1;
    }
    *state = dir;
    return 0;
}

static int teardown_dir(void **state)
{
    hb_fault_set(NULL);
    tmp_dir_remove(*state);
    free(*state);
    return 0;
}

static void join(char *out, size_t cap, const char *dir, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Whole file as a string, or NULL when it cannot be opened. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 256, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    fclose(f);
    assert_non_null(buf);
    buf[n] = '\0';
    return buf;
}

/* The file at path holds exactly the text want. */
static void expect_file(const char *path, const char *want)
{
    char *got = read_all(path);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

/* ---- hb_read_file ---- */

static void test_read_whole_file(void **state)
{
    char path[1024], err[256] = "";
    join(path, sizeof path, *state, "a.txt");
    const char data[] = "hex\0battle\n"; /* an embedded NUL must not cut the length */
    write_bytes(path, data, sizeof data - 1);
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &out, &len, err, sizeof err), HB_OK);
    assert_int_equal(len, sizeof data - 1);
    assert_memory_equal(out, data, len);
    assert_int_equal(out[len], '\0');
    free(out);
}

static void test_read_empty_file(void **state)
{
    char path[1024], err[256] = "";
    join(path, sizeof path, *state, "empty");
    write_bytes(path, "", 0);
    char *out = NULL;
    size_t len = 99;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &out, &len, err, sizeof err), HB_OK);
    assert_int_equal(len, 0);
    assert_non_null(out);
    assert_string_equal(out, "");
    free(out);
}

static void test_read_missing_file(void **state)
{
    char path[1024], expect[1200], err[1200] = "";
    join(path, sizeof path, *state, "nope.json");
    snprintf(expect, sizeof expect, "%s: %s", path, strerror(ENOENT));
    char *out = (char *)err;
    size_t len = 7;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &out, &len, err, sizeof err), HB_ERR_INPUT);
    assert_null(out);
    assert_int_equal(len, 0);
    assert_string_equal(err, expect);
}

static void test_read_limit_exact(void **state)
{
    char path[1024], expect[1200], err[1200] = "";
    join(path, sizeof path, *state, "ten");
    write_bytes(path, "0123456789", 10);
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(path, 10, &out, &len, err, sizeof err), HB_OK);
    assert_int_equal(len, 10);
    free(out);
    out = NULL;
    assert_int_equal(hb_read_file(path, 9, &out, &len, err, sizeof err), HB_ERR_INPUT);
    assert_null(out);
    snprintf(expect, sizeof expect, "%s: file is 10 bytes, over the 9 bytes limit", path);
    assert_string_equal(err, expect);
}

static void test_read_oversize_refused_before_reading(void **state)
{
    char path[1024], expect[1200], err[1200] = "";
    join(path, sizeof path, *state, "huge.json");
    /* Sparse: the size says 16 MiB + 1 byte, nothing is really stored, and
     * no buffer of that size should ever be allocated. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)HB_FILE_MAX + 1), 0);
    close(fd);
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &out, &len, err, sizeof err), HB_ERR_INPUT);
    assert_null(out);
    snprintf(expect, sizeof expect, "%s: file is %u bytes, over the 16 MiB limit", path,
             HB_FILE_MAX + 1u);
    assert_string_equal(err, expect);
    /* Exactly at the limit is still fine. */
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)HB_FILE_MAX), 0);
    close(fd);
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &out, &len, err, sizeof err), HB_OK);
    assert_int_equal(len, HB_FILE_MAX);
    free(out);
}

static void test_read_folder_refused(void **state)
{
    char expect[1200], err[1200] = "";
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(*state, HB_FILE_MAX, &out, &len, err, sizeof err), HB_ERR_INPUT);
    assert_null(out);
    snprintf(expect, sizeof expect, "%s: is a folder, not a file", (char *)*state);
    assert_string_equal(err, expect);
}

/* ---- hb_write_atomic ---- */

static void test_write_new_file(void **state)
{
    char path[1024], bak[1100], err[256] = "";
    join(path, sizeof path, *state, "new.json");
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(hb_write_atomic(path, "{}\n", 3, true, err, sizeof err), HB_OK);
    expect_file(path, "{}\n");
    /* Nothing existed before, so there is nothing to back up. */
    assert_int_equal(access(bak, F_OK), -1);
    assert_int_equal(tmp_dir_count(*state), 1);
}

static void test_write_replaces_and_keeps_bak(void **state)
{
    char path[1024], bak[1100], err[256] = "";
    join(path, sizeof path, *state, "map.json");
    snprintf(bak, sizeof bak, "%s.bak", path);
    write_bytes(path, "first", 5);
    assert_int_equal(hb_write_atomic(path, "second", 6, true, err, sizeof err), HB_OK);
    expect_file(path, "second");
    expect_file(bak, "first");
    /* The next save rotates: the backup is always the version just replaced. */
    assert_int_equal(hb_write_atomic(path, "third", 5, true, err, sizeof err), HB_OK);
    expect_file(path, "third");
    expect_file(bak, "second");
    assert_int_equal(tmp_dir_count(*state), 2);
}

static void test_write_without_bak(void **state)
{
    char path[1024], bak[1100], err[256] = "";
    join(path, sizeof path, *state, "plain.txt");
    snprintf(bak, sizeof bak, "%s.bak", path);
    write_bytes(path, "old", 3);
    assert_int_equal(hb_write_atomic(path, "new", 3, false, err, sizeof err), HB_OK);
    expect_file(path, "new");
    assert_int_equal(access(bak, F_OK), -1);
}

static void test_write_empty_and_large(void **state)
{
    char path[1024], err[256] = "";
    join(path, sizeof path, *state, "big.bin");
    size_t n = 3u * 1024u * 1024u + 17u;
    char *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)('a' + (i * 7) % 26);
    assert_int_equal(hb_write_atomic(path, data, n, true, err, sizeof err), HB_OK);
    char *back = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &back, &len, err, sizeof err), HB_OK);
    assert_int_equal(len, n);
    assert_memory_equal(back, data, n);
    free(back);
    /* Zero bytes is a valid file too, and the large one becomes the backup. */
    assert_int_equal(hb_write_atomic(path, "", 0, true, err, sizeof err), HB_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
    char bak[1100];
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(stat(bak, &st), 0);
    assert_int_equal((size_t)st.st_size, n);
    free(data);
}

static void test_write_parent_is_file(void **state)
{
    char file[1024], path[1100], expect[1400], err[1400] = "";
    join(file, sizeof file, *state, "regular");
    write_bytes(file, "x", 1);
    snprintf(path, sizeof path, "%s/map.json", file);
    assert_int_equal(hb_write_atomic(path, "data", 4, true, err, sizeof err), HB_ERR_OTHER);
#ifdef _WIN32
    int why = ENOENT; /* Windows: ERROR_PATH_NOT_FOUND, no ENOTDIR */
#else
    int why = ENOTDIR;
#endif
    snprintf(expect, sizeof expect,
             "%s: cannot write: %s (creating a temporary file beside it)", path, strerror(why));
    assert_string_equal(err, expect);
    expect_file(file, "x");
    assert_int_equal(tmp_dir_count(*state), 1);
}

static void test_write_missing_folder(void **state)
{
    char path[1024], err[1400] = "";
    snprintf(path, sizeof path, "%s/not/there/map.json", (char *)*state);
    assert_int_equal(hb_write_atomic(path, "data", 4, true, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, strerror(ENOENT)));
    assert_int_equal(tmp_dir_count(*state), 0);
}

static void test_failed_backup_leaves_target(void **state)
{
    char path[1024], bak[1100], blocker[1200], err[1400] = "";
    join(path, sizeof path, *state, "keep.json");
    write_bytes(path, "precious", 8);
    /* A non-empty folder where the backup must go: the rename onto it fails. */
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(mkdir(bak, 0755), 0);
    snprintf(blocker, sizeof blocker, "%s/inside", bak);
    write_bytes(blocker, "y", 1);
    assert_int_equal(hb_write_atomic(path, "replacement", 11, true, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, path));
    expect_file(path, "precious");
    /* keep.json and keep.json.bak only: every temporary file was removed. */
    assert_int_equal(tmp_dir_count(*state), 2);
    assert_int_equal(tmp_dir_count(bak), 1);
}

static void test_failed_rename_leaves_target(void **state)
{
    char path[1024], inner[1100], err[1400] = "";
    /* The target is a non-empty folder: rename cannot replace it. */
    join(path, sizeof path, *state, "taken");
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(inner, sizeof inner, "%s/file", path);
    write_bytes(inner, "z", 1);
    assert_int_equal(hb_write_atomic(path, "data", 4, false, err, sizeof err), HB_ERR_OTHER);
    char expect[1400];
    snprintf(expect, sizeof expect, "%s: cannot write: %s", path, strerror(EISDIR));
    assert_string_equal(err, expect);
    expect_file(inner, "z");
    assert_int_equal(tmp_dir_count(*state), 1);
}

#ifndef _WIN32
/* A disk that fills up part way through the write: a file-size limit makes
 * every write past 1 KiB fail (EFBIG) in a child process, the way ENOSPC does
 * on a full disk (tests/cli/disk.sh does a real full and read-only tmpfs
 * where it may mount one). The old file and its folder must be untouched. */
static void test_write_fails_part_way(void **state)
{
    char path[1024], err[1400] = "";
    join(path, sizeof path, *state, "battle.json");
    write_bytes(path, "precious", 8);
    enum { BIG = 64 * 1024 };
    static char big[BIG];
    memset(big, 'x', sizeof big);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit lim = {1024, 1024};
        signal(SIGXFSZ, SIG_IGN); /* the write then fails with EFBIG instead of killing us */
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(3);
        int rc = hb_write_atomic(path, big, sizeof big, true, err, sizeof err);
        if (rc != HB_ERR_OTHER) _exit(4);
        if (!strstr(err, path) || !strstr(err, strerror(EFBIG))) _exit(5);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    expect_file(path, "precious");
    assert_int_equal(tmp_dir_count(*state), 1); /* no temporary file, no .bak */
}
#endif

/* The file being replaced is read-only. POSIX: the replace is the folder's
 * business (rename), so the save goes through and the file keeps its mode.
 * Windows: MoveFileEx refuses to replace a read-only file, so the save fails
 * naming the file, the old bytes stay, and no temporary file is left (the
 * backup, written before, is the old file too). */
static void test_replace_read_only_target(void **state)
{
    char path[1024], bak[1100], err[1400] = "";
    join(path, sizeof path, *state, "locked.json");
    snprintf(bak, sizeof bak, "%s.bak", path);
    write_bytes(path, "precious", 8);
    assert_int_equal(chmod(path, S_IRUSR), 0);
    int rc = hb_write_atomic(path, "replacement", 11, true, err, sizeof err);
#ifdef _WIN32
    assert_int_equal(rc, HB_ERR_OTHER);
    char expect[1400];
    snprintf(expect, sizeof expect, "%s: cannot write: %s", path, strerror(EACCES));
    assert_string_equal(err, expect);
    expect_file(path, "precious");
#else
    assert_int_equal(rc, HB_OK);
    expect_file(path, "replacement");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, S_IRUSR);
#endif
    expect_file(bak, "precious");
    assert_int_equal(tmp_dir_count(*state), 2); /* the file and its .bak */
    chmod(path, S_IRUSR | S_IWUSR);
}

/* The file being replaced is held open by a reader (another program
 * reading the map). POSIX: replaced; the reader goes on reading the old
 * bytes. Windows: a file open without delete sharing (the C runtime's
 * open, as most programs do) cannot be replaced: the save fails naming the
 * file, the old bytes stay, no temporary file is left; once the reader
 * closes it, the same save goes through. */
static void test_replace_open_target(void **state)
{
    char path[1024], err[1400] = "";
    join(path, sizeof path, *state, "busy.json");
    write_bytes(path, "precious", 8);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    int rc = hb_write_atomic(path, "replacement", 11, false, err, sizeof err);
    char got[16] = "";
#ifdef _WIN32
    assert_int_equal(rc, HB_ERR_OTHER);
    char expect[1400];
    snprintf(expect, sizeof expect, "%s: cannot write: %s", path, strerror(EACCES));
    assert_string_equal(err, expect);
    expect_file(path, "precious");
    assert_int_equal(tmp_dir_count(*state), 1);
    assert_int_equal(read(fd, got, sizeof got - 1), 8);
    assert_string_equal(got, "precious");
    close(fd);
    assert_int_equal(hb_write_atomic(path, "replacement", 11, false, err, sizeof err), HB_OK);
#else
    assert_int_equal(rc, HB_OK);
    assert_int_equal(read(fd, got, sizeof got - 1), 8);
    assert_string_equal(got, "precious");
    close(fd);
#endif
    expect_file(path, "replacement");
    assert_int_equal(tmp_dir_count(*state), 1);
}

/* The injected failures: which call fails, with what, and what is left. */
static void test_injected_faults(void **state)
{
    char path[1024], err[1400] = "";
    join(path, sizeof path, *state, "f.json");
    assert_false(hb_fault_set("write"));
    assert_false(hb_fault_set("write:0"));
    assert_false(hb_fault_set("seek:1"));
    assert_false(hb_fault_set("write:1:ENOENT"));
    assert_false(hb_fault_set("write:1,"));
    /* The second write fails and, with "+", every one after it. */
#ifdef EDQUOT
    assert_true(hb_fault_set("write:2+:EDQUOT"));
#define QUOTA EDQUOT
#else /* no disk quotas in Windows' errno */
    assert_false(hb_fault_set("write:2+:EDQUOT"));
    assert_true(hb_fault_set("write:2+:EFBIG"));
#define QUOTA EFBIG
#endif
    assert_int_equal(hb_write_atomic(path, "one", 3, false, err, sizeof err), HB_OK);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(hb_write_atomic(path, "two", 3, false, err, sizeof err), HB_ERR_OTHER);
        char expect[1400];
        snprintf(expect, sizeof expect, "%s: cannot write: %s", path, strerror(QUOTA));
        assert_string_equal(err, expect);
    }
    /* Several at once; only the named call of each. */
    assert_true(hb_fault_set("fsync:1:EIO,rename:2"));
    assert_int_equal(hb_write_atomic(path, "two", 3, false, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, strerror(EIO)));
    assert_int_equal(hb_write_atomic(path, "two", 3, false, err, sizeof err), HB_OK);
    assert_int_equal(hb_write_atomic(path, "six", 3, false, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, strerror(ENOSPC)));
    hb_fault_set(NULL);
    expect_file(path, "two");
    assert_int_equal(tmp_dir_count(*state), 1);
    /* Begun and then given up: nothing is left and the target stays. */
    hb_pending_t pend;
    assert_int_equal(hb_write_begin(path, "xyz", 3, &pend, err, sizeof err), HB_OK);
    assert_int_equal(tmp_dir_count(*state), 2);
    hb_write_abort(&pend);
    assert_int_equal(tmp_dir_count(*state), 1);
    expect_file(path, "two");
}

/* ---- folders ---- */

static void test_data_dir_from_env(void **state)
{
    char *saved = getenv("HEXBATTLE_DATA") ? strdup(getenv("HEXBATTLE_DATA")) : NULL;
    setenv("HEXBATTLE_DATA", *state, 1);
    hb_set_argv0("/nowhere/bin/hexbattle");
    assert_string_equal(hb_data_dir(), *state);
    /* The answer is cached until argv0 is set again. */
    setenv("HEXBATTLE_DATA", "/elsewhere", 1);
    assert_string_equal(hb_data_dir(), *state);
    if (saved)
        setenv("HEXBATTLE_DATA", saved, 1);
    else
        unsetenv("HEXBATTLE_DATA");
    free(saved);
    hb_set_argv0(NULL);
}

static void test_data_dir_beside_argv0(void **state)
{
    char *saved = getenv("HEXBATTLE_DATA") ? strdup(getenv("HEXBATTLE_DATA")) : NULL;
    unsetenv("HEXBATTLE_DATA");
    /* An installed layout: DIR/bin/hexbattle with DIR/data/terrain.json. */
    char bin[1024], data[1024], terrain[1100], exe[1100], expect[1200];
    join(bin, sizeof bin, *state, "bin");
    join(data, sizeof data, *state, "data");
    assert_int_equal(mkdir(bin, 0755), 0);
    assert_int_equal(mkdir(data, 0755), 0);
    snprintf(terrain, sizeof terrain, "%s/terrain.json", data);
    write_bytes(terrain, "{}", 2);
    snprintf(exe, sizeof exe, "%s/hexbattle", bin);
#ifdef _WIN32
    /* The Windows suites sit in the top of their build folder, so the
     * build tree's data/ beside this program's own folder comes first; and
     * they are built as shipped, without the source tree's (no
     * HB_SOURCE_DIR fallback). */
    char self[1024];
    assert_true(hb_plat_exe_dir(self, sizeof self));
    snprintf(expect, sizeof expect, "%s/../data", self);
#define SOURCE_DATA expect
#else
    snprintf(expect, sizeof expect, "%s/../data", bin);
#define SOURCE_DATA HB_SOURCE_DIR "/data"
#endif
    hb_set_argv0(exe);
    assert_string_equal(hb_data_dir(), expect);

    /* Without terrain.json there, the source tree it was built from is used. */
    unlink(terrain);
    hb_set_argv0(exe);
    assert_string_equal(hb_data_dir(), SOURCE_DATA);
    if (saved) setenv("HEXBATTLE_DATA", saved, 1);
    free(saved);
    hb_set_argv0(NULL);
}

static void test_assets_dir(void **state)
{
    char *saved = getenv("HEXBATTLE_DATA") ? strdup(getenv("HEXBATTLE_DATA")) : NULL;
    char data[1024], assets[1024], fonts[1100], expect[1200];
    join(data, sizeof data, *state, "data");
    join(assets, sizeof assets, *state, "assets");
    snprintf(fonts, sizeof fonts, "%s/fonts", assets);
    assert_int_equal(mkdir(data, 0755), 0);
    assert_int_equal(mkdir(assets, 0755), 0);
    assert_int_equal(mkdir(fonts, 0755), 0);
    /* With only HEXBATTLE_DATA set, assets/ beside it is found. */
    setenv("HEXBATTLE_DATA", data, 1);
    hb_set_argv0(NULL);
    snprintf(expect, sizeof expect, "%s/../assets", data);
    assert_string_equal(hb_assets_dir(), expect);
    /* Without fonts there, the build tree's assets are used. */
    rmdir(fonts);
    hb_set_argv0(NULL);
#ifdef _WIN32
    char self[1024];
    assert_true(hb_plat_exe_dir(self, sizeof self));
    snprintf(expect, sizeof expect, "%s/../assets", self);
    assert_string_equal(hb_assets_dir(), expect);
#else
    assert_string_equal(hb_assets_dir(), HB_SOURCE_DIR "/assets");
#endif
    if (saved)
        setenv("HEXBATTLE_DATA", saved, 1);
    else
        unsetenv("HEXBATTLE_DATA");
    free(saved);
    hb_set_argv0(NULL);
}

#define DIR_TEST(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        DIR_TEST(test_injected_faults),
        DIR_TEST(test_read_whole_file),
        DIR_TEST(test_read_empty_file),
        DIR_TEST(test_read_missing_file),
        DIR_TEST(test_read_limit_exact),
        DIR_TEST(test_read_oversize_refused_before_reading),
        DIR_TEST(test_read_folder_refused),
        DIR_TEST(test_write_new_file),
        DIR_TEST(test_write_replaces_and_keeps_bak),
        DIR_TEST(test_write_without_bak),
        DIR_TEST(test_write_empty_and_large),
        DIR_TEST(test_write_parent_is_file),
        DIR_TEST(test_write_missing_folder),
        DIR_TEST(test_failed_backup_leaves_target),
        DIR_TEST(test_failed_rename_leaves_target),
#ifndef _WIN32
        DIR_TEST(test_write_fails_part_way),
#endif
        DIR_TEST(test_replace_read_only_target),
        DIR_TEST(test_replace_open_target),
        DIR_TEST(test_data_dir_from_env),
        DIR_TEST(test_data_dir_beside_argv0),
        DIR_TEST(test_assets_dir),
    };
    return cmocka_run_group_tests_name("fileio", tests, NULL, NULL);
}
