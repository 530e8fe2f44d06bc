/* test_compat.h - the few POSIX calls the cmocka suites use to set up their
 * cases (not the program: src/ reaches the OS through src/platform alone),
 * given to the Windows build of the suites with -include
 * (tools/windows/windows.cmake). */
#ifndef HB_TEST_COMPAT_H
#define HB_TEST_COMPAT_H
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

static inline int hb_compat_setenv(const char *name, const char *value, int overwrite)
{
    if (!overwrite && getenv(name)) return 0;
    return _putenv_s(name, value) == 0 ? 0 : -1;
}
static inline int hb_compat_unsetenv(const char *name)
{
    return _putenv_s(name, "") == 0 ? 0 : -1; /* "" removes it */
}
/* mkdtemp: the XXXXXX of tmpl made unique (_mktemp_s), then the folder. */
static inline char *hb_compat_mkdtemp(char *tmpl)
{
    if (_mktemp_s(tmpl, strlen(tmpl) + 1) != 0) return NULL;
    return _mkdir(tmpl) == 0 ? tmpl : NULL;
}
/* No symbolic links in the suites' Windows cases: lstat is stat. */
#define lstat stat
/* mkdir with a mode: Windows' has none. */
#define mkdir(path, mode) _mkdir(path)
#define setenv hb_compat_setenv
#define unsetenv hb_compat_unsetenv
#define mkdtemp hb_compat_mkdtemp
#endif
#endif
