/* recent.h - the maps and saved battles a referee opened lately, kept in
 * $XDG_DATA_HOME/hexbattle/recent.json (or ~/.local/share/hexbattle/), newest
 * first, for the play window's map picker (src/ui/menu.h). */
#ifndef HB_RECENT_H
#define HB_RECENT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/map.h"

#define RECENT_MAX 8
#define RECENT_PATH_MAX 1024

typedef struct {
    char path[RECENT_MAX][RECENT_PATH_MAX]; /* absolute paths, newest first */
    int n;
} recent_t;

/* The recent-files list's path; false when no home folder can be named. */
bool recent_file(char *out, size_t cap);
/* Read the list at FILE (a missing or bad file gives an empty list: the list
 * is a convenience, never a reason to refuse to start). */
void recent_load(const char *file, recent_t *r);
/* Put PATH (made absolute) first in the list at FILE, dropping a repeat and
 * the oldest past RECENT_MAX, and write it atomically. HB_OK or HB_ERR_OTHER. */
int recent_add(const char *file, const char *path, char *err, size_t errcap);

#endif
