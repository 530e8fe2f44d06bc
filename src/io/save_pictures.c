/* save_pictures.c - a copy of a map kept away from the map's folder (in a
 * save, a recovery copy) drawn with the map's own pictures (map_io.h,
 * map_adopt_pictures; save.h, save_adopt_pictures). */
#include <stdio.h>
#include <string.h>

#include "../core/art.h"
#include "fileio.h"
#include "map_io.h"
#include "picture.h"
#include "platform/platform.h"
#include "save.h"

/* Does a file (not a folder) lie at path? */
static bool is_file(const char *path)
{
    hb_fs_info_t st;
    return hb_fs_stat(path, &st) == 0 && st.kind == HB_FS_REGULAR;
}

/* Where map_file is: as written (absolute, or relative to the working
 * folder), else relative to the folder of beside. False when neither is. */
static bool locate(const char *map_file, const char *beside, char *out, size_t cap)
{
    if (is_file(map_file)) return snprintf(out, cap, "%s", map_file) < (int)cap;
    if (hb_fs_is_absolute(map_file) || !beside) return false;
    char dir[ART_DIR_MAX];
    hb_dir_of(beside, dir, sizeof dir);
    int k = snprintf(out, cap, "%s/%s", dir[0] ? dir : ".", map_file);
    return k > 0 && (size_t)k < cap && is_file(out);
}

/* The map at path's tiles, when it has some for m's very grid: a map
 * reshaped since would put them on the wrong hexes. */
static map_art_t *tiles_for(const map_t *m, const char *path)
{
    map_t *from = NULL;
    char err[HB_ERR_MAX];
    if (map_load(path, hb_data_dir(), &from, NULL, err, sizeof err) != HB_OK) return NULL;
    map_art_t *art = NULL;
    if (from->art && from->art->gids && from->cols == m->cols && from->rows == m->rows &&
        from->layout.orient == m->layout.orient && from->layout.stagger == m->layout.stagger) {
        art = from->art;
        from->art = NULL;
    }
    map_destroy(from);
    return art;
}

bool map_adopt_pictures(map_t *m, const char *map_file, const char *beside)
{
    char path[2 * ART_DIR_MAX];
    if (!m || !map_file || !map_file[0] || !locate(map_file, beside, path, sizeof path))
        return false;
    /* A copy keeps no Tiled tiles: the map's own, on the same grid. */
    if (!m->art || !m->art->gids) {
        map_art_t *tiles = tiles_for(m, path);
        if (tiles) {
            art_destroy(m->art);
            m->art = tiles;
            return true;
        }
    }
    /* A battle-map picture, named relative to the map's folder: kept with
     * the copy's own placing, looked for there. */
    if (!m->art || !m->art->bg[0]) return false;
    char dir[ART_DIR_MAX], pic[3 * ART_DIR_MAX];
    hb_dir_of(path, dir, sizeof dir);
    int k = snprintf(pic, sizeof pic, "%s/%s", dir[0] ? dir : ".", m->art->bg);
    if (k <= 0 || (size_t)k >= sizeof pic || !is_file(pic) || strlen(dir) >= sizeof m->art->dir)
        return false;
    hb_strlcpy(m->art->dir, dir, sizeof m->art->dir);
    return true;
}

bool save_adopt_pictures(save_t *s, const char *save_path)
{
    return s && map_adopt_pictures(s->map, s->map_file, save_path);
}
