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
 * On failure fills err with "PATH: reason" and returns HB_ERR_INPUT. */
int hb_read_file(const char *path, size_t max_bytes, char **out, size_t *len, char *err,
                 size_t errcap);

/* Write data to PATH atomically: a temporary file in the same folder, fsync,
 * rename over PATH, fsync of the folder. With keep_bak, an existing PATH is
 * first kept as PATH.bak. On failure PATH is untouched, err says why, and
 * HB_ERR_OTHER is returned. */
int hb_write_atomic(const char *path, const void *data, size_t len, bool keep_bak, char *err,
                    size_t errcap);

/* Folder holding data/ (terrain.json, rulesets): $HEXBATTLE_DATA, else next to
 * the executable's parent, else the source tree it was built from. */
const char *hb_data_dir(void);
/* Folder holding assets/ (fonts, textures), found the same way. */
const char *hb_assets_dir(void);
/* Remember argv[0] so the folders above can be found relative to it. */
void hb_set_argv0(const char *argv0);

#endif
