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

/* Which per-user folder: settings, or what hexbattle keeps between runs
 * (autosaves, recent maps, recovery copies). */
typedef enum { HB_USER_CONFIG, HB_USER_DATA } hb_user_dir_t;

/* hexbattle's per-user folder of that kind, ending in "/hexbattle" (it may
 * not exist yet). POSIX: $XDG_CONFIG_HOME or $XDG_DATA_HOME when absolute
 * (the XDG spec says to ignore a relative one), else $HOME/.config or
 * $HOME/.local/share. Windows: %APPDATA% (settings roam with the user) or
 * %LOCALAPPDATA%. False when there is none or it does not fit. */
bool hb_plat_user_dir(hb_user_dir_t kind, char *out, size_t cap);

/* ------------------------------------------------------------ stops */

/* Being told to stop from outside: SIGTERM, SIGHUP and SIGINT on POSIX
 * (a logout, a closed terminal, Ctrl+C); on Windows the console's Ctrl+C,
 * Ctrl+Break, close, log-off and shutdown events. The handler only notes it;
 * the program's loops look at hb_plat_stop_caught, save what must be saved
 * (the recovery copy), then call hb_plat_stop_exit. */
void hb_plat_stop_install(void);
/* What was caught since install (a signal number on POSIX, the console
 * event + 1 on Windows), or 0. */
int hb_plat_stop_caught(void);
/* Forget it (tests). */
void hb_plat_stop_clear(void);
/* When something was caught: end the process the way the sender expects (the
 * signal's default action raised again; on Windows, exit with the status a
 * Ctrl+C gives). Returns when nothing was. */
void hb_plat_stop_exit(void);

/* ------------------------------------------------------------ threads */

/* A mutex, a condition variable and a thread, opaque (POSIX threads or
 * Win32's SRW locks, condition variables and threads). The create calls
 * return NULL when the system refuses; the others cannot fail once created. */
typedef struct hb_mutex hb_mutex_t;
typedef struct hb_cond hb_cond_t;
typedef struct hb_thread hb_thread_t;

hb_mutex_t *hb_mutex_create(void);
void hb_mutex_destroy(hb_mutex_t *m);
void hb_mutex_lock(hb_mutex_t *m);
void hb_mutex_unlock(hb_mutex_t *m);

hb_cond_t *hb_cond_create(void);
void hb_cond_destroy(hb_cond_t *c);
/* Unlock m, sleep until woken (or spuriously), lock m again. */
void hb_cond_wait(hb_cond_t *c, hb_mutex_t *m);
void hb_cond_broadcast(hb_cond_t *c);

/* Run fn(arg) on a new thread with an 8 MiB stack (as Linux gives by
 * default; Windows would give 1 MiB). */
hb_thread_t *hb_thread_start(void *(*fn)(void *), void *arg);
/* Wait for the thread to end, and free it. */
void hb_thread_join(hb_thread_t *t);

/* How many processors are online (at least 1). */
int hb_plat_cpu_count(void);
/* Milliseconds on a clock that only moves forward. */
double hb_plat_now_ms(void);

#endif
