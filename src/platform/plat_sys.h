/* plat_sys.h - the operating system's side of hexbattle that is not file
 * reading and writing: the program's own folder, the per-user folders,
 * stop signals, threads and folder listing. A POSIX side (*_posix.c) and a
 * Win32 side (*_win32.c); only one is compiled. Files: platform.h.
 *
 * libc and the OS only: no SDL, no cJSON. Paths are UTF-8 and use '/'
 * (Windows accepts it); out buffers get a NUL-terminated string.
 */
#ifndef HB_PLAT_SYS_H
#define HB_PLAT_SYS_H

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------ folders */

/* The folder holding the running executable, links followed, with no
 * trailing separator. False when the system cannot say (then out is ""). */
bool hb_plat_exe_dir(char *out, size_t cap);

/* Where an installed hexbattle keeps data/, assets/ and maps/, relative to
 * the folder of its executable: "../share/hexbattle" on POSIX (PREFIX/bin
 * beside PREFIX/share), "" on Windows (beside the .exe). */
const char *hb_plat_install_rel(void);

#endif
