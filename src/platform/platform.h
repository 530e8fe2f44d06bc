/* platform.h - everything hexbattle asks of the operating system, behind one
 * small interface (DESIGN.md): a POSIX side (*_posix.c) and a Win32 side
 * (*_win32.c) of each section; only one side is compiled. Nothing above this
 * layer includes an OS header (unistd.h, windows.h, fcntl.h, dirent.h,
 * pthread.h, signal.h, sys/..., the socket headers); only libmicrohttpd's
 * microhttpd.h, whose API is sockets, includes them itself.
 *
 * Sections: files and folders (fs_*.c, dirs_*.c), the program's and the
 * user's folders (paths_*.c), stops (stop_*.c), threads and clocks
 * (threads_*.c), the process (proc_*.c), and the network of the players'
 * server (net_*.c).
 *
 * Everything here knows only libc and the OS: no SDL, no cJSON. Functions
 * return 0 on success and -1 with errno set on failure unless they say
 * otherwise; "PATH" arguments are UTF-8 path names, and the paths it gives
 * back use '/' (Windows accepts it); out buffers get a NUL-terminated string.
 */
#ifndef HB_PLATFORM_H
#define HB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------ files */

/* What hb_fs_open_read and hb_fs_stat tell about a path. */
typedef enum {
    HB_FS_REGULAR = 0, /* an ordinary file */
    HB_FS_FOLDER,      /* a directory */
    HB_FS_SPECIAL      /* anything else: FIFO, socket, device, ... */
} hb_fs_kind_t;

typedef struct {
    hb_fs_kind_t kind;
    long long size;     /* bytes (regular files) */
    long long mtime_ns; /* last change, nanoseconds since 1970 */
    unsigned mode;      /* permission bits (07777 on POSIX) */
} hb_fs_info_t;

/* Set errno to this when an operation is refused because the path is not a
 * regular file (a FIFO, a device, a socket, a folder); hb_fs_strerror says it
 * in words. Chosen so it never equals a system errno. */
#define HB_FS_ENOTREG 0x4842

/* strerror(), knowing HB_FS_ENOTREG. */
const char *hb_fs_strerror(int error);

/* Open PATH for reading without ever blocking (a FIFO or a device with no
 * writer would hang a blocking open), then check what it is: a file
 * descriptor >= 0 for a regular file, with *info filled when info is not NULL;
 * -1 otherwise with errno set (HB_FS_ENOTREG when it is not a regular file,
 * EISDIR for a folder). The descriptor reads blocking again. */
int hb_fs_open_read(const char *path, hb_fs_info_t *info);
/* read(2) riding out EINTR: bytes read, 0 at the end, -1 with errno. */
long long hb_fs_read(int fd, void *buf, size_t n);
/* write(2) once, riding out EINTR: bytes written or -1 with errno. */
long long hb_fs_write(int fd, const void *buf, size_t n);
/* Flush the file's bytes to the disk (fsync). */
int hb_fs_sync(int fd);
int hb_fs_close(int fd);

/* stat(2), following links. */
int hb_fs_stat(const char *path, hb_fs_info_t *info);
/* Is PATH itself a symbolic link (not followed)? */
bool hb_fs_is_link(const char *path);
/* The file a save to PATH must replace: PATH with every symbolic link on its
 * last part followed (a relative link read from the link's folder), so that
 * a save keeps the link and replaces the file it points to, as text editors
 * do. A dangling link gives the path it points to. 0, or -1 (ELOOP after 40
 * links, ENAMETOOLONG when it does not fit in out). */
int hb_fs_resolve_target(const char *path, char *out, size_t cap);
/* Absolute, link-free form of PATH, which must exist (realpath). */
int hb_fs_real_path(const char *path, char *out, size_t cap);

/* Create a new, empty temporary file "BASE.tmp.PID.N" beside BASE, open for
 * writing; its name goes to tmp. With replacing, it is readable only by its
 * owner (the bytes may be a private file's) until hb_fs_copy_meta gives it
 * the permissions of the file it replaces; else it has those of any new file
 * (0666 less the umask). A descriptor, or -1 with errno. */
int hb_fs_create_temp(const char *base, bool replacing, char *tmp, size_t cap);
/* Give the open file fd the permission bits (and, where the OS allows it,
 * the owner and group) of the existing file FROM. 0, or -1 with errno when
 * the permissions could not be set (a changed owner is only tried). */
int hb_fs_copy_meta(int fd, const char *from);
/* Put the file FROM in place of TO in one step (rename(2): TO is either the
 * old file or the new one, whole, at every moment). */
int hb_fs_replace(const char *from, const char *to);
/* Remove the file PATH (a temporary file left by a failed write). */
int hb_fs_remove(const char *path);
/* Flush the folder DIR's entries (a rename) to the disk; folders that cannot
 * be synced are no error. */
void hb_fs_sync_dir(const char *dir);
/* mkdir -p DIR with MODE: true when DIR is a folder afterwards (errno set
 * otherwise). */
bool hb_fs_make_dirs(const char *dir, int mode);
/* Is FD a terminal? */
bool hb_fs_is_terminal(int fd);

/* The names in the folder DIR, one at a time ("." and ".." left out), in
 * the order the system gives them: hb_dir_open gives NULL with errno set when
 * DIR cannot be read; hb_dir_next a UTF-8 name, valid until the next call, or
 * NULL at the end. */
typedef struct hb_dir hb_dir_t;
hb_dir_t *hb_dir_open(const char *dir);
const char *hb_dir_next(hb_dir_t *d);
void hb_dir_close(hb_dir_t *d);
/* Remove the empty folder DIR. */
int hb_fs_remove_dir(const char *dir);

/* Is PATH absolute ("/x" on POSIX; "C:/x", "C:\\x" or "//server/x" on Windows)? */
bool hb_fs_is_absolute(const char *path);
/* PATH as an absolute path: its link-free form when it exists
 * (hb_fs_real_path), else PATH joined to the working folder. 0 or -1. */
int hb_fs_absolute(const char *path, char *out, size_t cap);
/* A new, empty folder "TEMP/PREFIXxxxxxx" in the system's temporary folder
 * ($TMPDIR or /tmp; on Windows GetTempPath), readable only by its owner
 * where the system has owners; its path to out. 0 or -1. */
int hb_fs_make_temp_dir(const char *prefix, char *out, size_t cap);
/* The system's temporary folder ($TMPDIR when set, else /tmp; on Windows
 * GetTempPath), with no trailing separator. */
bool hb_plat_temp_dir(char *out, size_t cap);

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
/* Windows: a program with a window and no console is told of a log-off or
 * shutdown by the window's WM_QUERYENDSESSION, then WM_ENDSESSION, after
 * which the process ends as soon as the window answers. Watch the native
 * window (an HWND, from SDL_GetWindowWMInfo) for them: the first is noted as
 * a stop (hb_plat_stop_caught gives HB_PLAT_STOP_ENDSESSION) for the loop to
 * save and end; at the second, if the loop has not ended the process yet,
 * last_words(ctx) runs there and then (the recovery copy), once.
 * hb_plat_stop_unwatch_window before the window goes. Nothing on POSIX. */
#define HB_PLAT_STOP_ENDSESSION 0x4845
void hb_plat_stop_watch_window(void *native, void (*last_words)(void *ctx), void *ctx);
void hb_plat_stop_unwatch_window(void *native);

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
/* Sleep the calling thread for about ms milliseconds (less when a signal
 * arrives: callers poll). */
void hb_plat_sleep_ms(int ms);
/* Milliseconds of processor time the calling thread has used. */
double hb_plat_thread_cpu_ms(void);
/* The most memory the process has held at once, in MiB (resident set on
 * POSIX, peak working set on Windows); 0 when the system cannot say. */
double hb_plat_peak_mem_mb(void);
/* This process's id (names of temporary files). */
long hb_plat_pid(void);
/* n bytes from the system's cryptographic random generator (getrandom,
 * BCryptGenRandom); false when it gives none. */
bool hb_plat_random(unsigned char *out, size_t n);
/* The first up, non-loopback IPv4 address of this machine as text (the
 * players' server's address on the local network); false (out "127.0.0.1")
 * when there is none. */
bool hb_plat_lan_address(char *out, size_t cap);

/* ------------------------------------------------------------ network */

/* IPv4 over TCP, for the players' server (src/share: its web server library
 * is given the address to listen on) and the bench's pages, which talk to
 * it over loopback (src/app/bench_share.c); net_*.c. hb_net_start before
 * any other call (WSAStartup on Windows, nothing on POSIX): true when the
 * system's sockets are ready; each true is matched by an hb_net_end. */
bool hb_net_start(void);
void hb_net_end(void);

/* An IPv4 socket address, opaque: a struct sockaddr_in in its bytes, for a
 * library that takes a "const struct sockaddr *" and its size. */
typedef struct {
    union {
        unsigned char bytes[32];
        long long align;
    } u;
} hb_net_addr_t;
/* PORT (0: any free one) on 127.0.0.1 when loopback, else on every
 * interface, into a: the address's size in bytes. */
size_t hb_net_addr_ipv4(hb_net_addr_t *a, bool loopback, int port);

/* A socket (a descriptor on POSIX, a SOCKET on Windows); HB_NET_NONE is none. */
typedef long long hb_sock_t;
#define HB_NET_NONE (-1LL)
/* Start a TCP connection to 127.0.0.1:PORT without waiting for it: the
 * socket, which never blocks, or HB_NET_NONE. */
hb_sock_t hb_net_dial_loopback(int port);
/* Send up to n bytes (a closed peer raises no signal): how many went, 0 when
 * none can go now, -1 on an error. */
long long hb_net_send(hb_sock_t s, const void *buf, size_t n);
/* Read up to n bytes: how many came, 0 when the peer has closed, -1 when
 * nothing is there now, -2 on an error (a reset connection). */
long long hb_net_recv(hb_sock_t s, void *buf, size_t n);
void hb_net_close(hb_sock_t s);

#endif
