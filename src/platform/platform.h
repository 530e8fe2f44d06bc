/* platform.h - the few things hexbattle asks of the operating system, behind
 * one small interface (DESIGN.md: a POSIX side and a Win32 side).
 *
 * Sections: files (fs_posix.c / fs_win32.c). Other sections (the program's
 * folder, the per-user folders, signals, threads, folder listing) live in
 * their own files under src/platform/.
 *
 * Everything here knows only libc and the OS: no SDL, no cJSON. Functions
 * return 0 on success and -1 with errno set on failure unless they say
 * otherwise; "PATH" arguments are UTF-8 path names.
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

#endif
