/* printf_attr.h - HB_PRINTF(F, A): the compiler checks a printf-like
 * function's format (argument F) against its arguments (from A on). On
 * mingw-w64 the check follows the printf the build uses (its own C99 one,
 * __USE_MINGW_ANSI_STDIO: tools/windows/mingw-w64-x86_64.cmake), not
 * msvcrt's, which knows no %zu. */
#ifndef HB_PRINTF_ATTR_H
#define HB_PRINTF_ATTR_H

#include <stdio.h>

#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define HB_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define HB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HB_PRINTF(f, a)
#endif

#endif
