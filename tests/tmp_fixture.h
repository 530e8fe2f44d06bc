/* tmp_fixture.h - temporary folders for the tests that write files: made
 * fresh under /tmp, removed with everything in them afterwards. */
#ifndef HB_TMP_FIXTURE_H
#define HB_TMP_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new empty folder /tmp/hb_test_TAG_XXXXXX, its path written to out;
 * false (out empty) when it could not be made. */
static inline int tmp_dir_make(char *out, size_t cap, const char *tag)
{
    if (snprintf(out, cap, "/tmp/hb_test_%s_XXXXXX", tag) >= (int)cap || !mkdtemp(out)) {
        if (cap) out[0] = '\0';
        return 0;
    }
    return 1;
}

/* Point hexbattle's per-user folders at DIR: what it keeps between runs
 * (autosaves, recovery copies) under DIR/hexbattle, and its settings under
 * DIR/hexbattle too. POSIX: $XDG_DATA_HOME and $XDG_CONFIG_HOME; Windows:
 * %LOCALAPPDATA% and %APPDATA% (src/platform/paths_*.c). */
static inline void tmp_user_dirs(const char *dir)
{
#ifdef _WIN32
    setenv("LOCALAPPDATA", dir, 1);
    setenv("APPDATA", dir, 1);
#else
    setenv("XDG_DATA_HOME", dir, 1);
    setenv("XDG_CONFIG_HOME", dir, 1);
#endif
}

/* Point the system's temporary folder at DIR (NULL: back to the default):
 * $TMPDIR on POSIX, %TMP% (GetTempPath) on Windows. */
static inline void tmp_temp_dir(const char *dir)
{
#ifdef _WIN32
    const char *var = "TMP";
#else
    const char *var = "TMPDIR";
#endif
    if (dir)
        setenv(var, dir, 1);
    else
        unsetenv(var);
}

/* How many entries folder dir holds ("." and ".." aside), or -1 when it
 * cannot be read. */
static inline int tmp_dir_count(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Remove path and, for a folder, everything below it (never follows links). */
static inline void tmp_dir_remove(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char child[2048];
            if (snprintf(child, sizeof child, "%s/%s", path, e->d_name) < (int)sizeof child)
                tmp_dir_remove(child);
        }
        closedir(d);
    }
    rmdir(path);
}

#endif
