/* fileio.h - bounded file reads and atomic, crash-safe writes. */
#ifndef HB_FILEIO_H
#define HB_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* Largest file any loader will read. */
#define HB_FILE_MAX (16u * 1024u * 1024u)

/* Status codes shared by the io layer: 0 ok, 2 bad input, 1 anything else. */
enum { HB_OK = 0, HB_ERR_OTHER = 1, HB_ERR_INPUT = 2 };

/* Read all of PATH (at most max_bytes) into a NUL-terminated malloc'd buffer.
 * Only a regular file is read: a FIFO, device or socket is refused without
 * blocking. On failure fills err with "PATH: reason" and returns HB_ERR_INPUT
 * (HB_ERR_OTHER when out of memory). */
int hb_read_file(const char *path, size_t max_bytes, char **out, size_t *len, char *err,
                 size_t errcap);

/* A write under way: the new bytes are in a temporary file beside PATH,
 * synced and closed, not yet renamed over it. */
typedef struct {
    char path[4096]; /* as given */
    char real[4096]; /* the file it replaces: PATH with its links followed */
    char tmp[4120];
} hb_pending_t;

/* Write data to a temporary file beside PATH (write, fsync, close, each
 * checked). HB_OK, or HB_ERR_OTHER with "PATH: cannot write: REASON" in err
 * and nothing left behind. PATH itself is not touched yet. */
int hb_write_begin(const char *path, const void *data, size_t len, hb_pending_t *pend, char *err,
                   size_t errcap);
/* Finish a write begun above: keep PATH as PATH.bak (keep_bak), rename the
 * temporary file over PATH, fsync the folder. On failure the temporary file
 * is removed and PATH is as it was. */
int hb_write_commit(hb_pending_t *pend, bool keep_bak, char *err, size_t errcap);
/* Give up a write begun above: its temporary file is removed. */
void hb_write_abort(hb_pending_t *pend);
/* rename(2), subject to the injected faults below (for rotations). */
int hb_rename(const char *from, const char *to);
/* mkdir -p DIR with MODE; false (errno set) when it is not a folder afterwards. */
bool hb_make_dirs(const char *dir, int mode);

/* Make writes fail on purpose, for tests: SPEC is a comma-separated list of
 * OP:N[+][:ERRNO], OP one of create, write, fsync, close, rename; the Nth
 * such call from now (with "+", that one and every later one) fails with
 * ERRNO (ENOSPC, EIO, EROFS, EDQUOT, EACCES or EFBIG; ENOSPC by default).
 * NULL clears. Without a call, the environment variable HEXBATTLE_FAULT is
 * read the same way at the first write. False when SPEC is malformed. */
bool hb_fault_set(const char *spec);

/* Write data to PATH atomically: a temporary file in the same folder, fsync,
 * rename over PATH, fsync of the folder. With keep_bak, an existing PATH is
 * first kept as PATH.bak. On failure PATH is untouched, no temporary file is
 * left, err says "PATH: cannot write: REASON", and HB_ERR_OTHER is returned.
 * Every file hexbattle writes goes through here.
 *   - PATH a symbolic link: the file it points to is replaced, the link kept.
 *   - The file replaced keeps its permissions (and owner where allowed), and
 *     so does its .bak.
 *   - PATH a FIFO, device or socket: refused ("not a regular file"), never
 *     opened, so nothing blocks.
 *   - PATH "-": the bytes go to standard output. */
int hb_write_atomic(const char *path, const void *data, size_t len, bool keep_bak, char *err,
                    size_t errcap);

/* What a file on disk held at one moment: enough to tell whether someone
 * else has written it since (size, change time and a hash of its bytes). */
typedef struct {
    bool exists;
    long long size, mtime_ns;
    unsigned long long hash; /* FNV-1a of the bytes; 0 when over HB_FILE_MAX */
} hb_stamp_t;

/* Stamp the file at PATH now (exists false when it is not there or not a
 * readable regular file). */
void hb_file_stamp(const char *path, hb_stamp_t *st);
/* Do two stamps describe the same file content? */
bool hb_stamp_same(const hb_stamp_t *a, const hb_stamp_t *b);

/* Folder holding data/ (terrain.json, rulesets): an installed copy's own,
 * relative to the executable (<exe dir>/../share/hexbattle/data; beside the
 * .exe on Windows); else $HEXBATTLE_DATA; else a build tree's, next to the
 * executable's parent; else the source tree it was built from (unless built
 * with -DHB_SOURCE_FALLBACK=OFF, as packages are). */
const char *hb_data_dir(void);
/* Folder holding assets/ (fonts, textures), found the same way
 * ($HEXBATTLE_ASSETS, or assets/ beside $HEXBATTLE_DATA). */
const char *hb_assets_dir(void);
/* Remember argv[0] so the folders above can be found relative to it. */
void hb_set_argv0(const char *argv0);

#endif
