/* edit.c - `hexbattle edit [MAP]`: the map editor, switching to play and back.
 *
 * The editor state (map, undo history, path) lives here across the switch, so
 * a play-test starts on a copy of the edited map and returning to the editor
 * finds everything as it was. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/edit.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/recover.h"
#include "ui/editor.h"
#include "ui/stop.h"
#include "ui/ui.h"

#define NEW_COLS 24
#define NEW_ROWS 16

/* A new map of NEW_COLS x NEW_ROWS open hexes with the built-in terrain. */
static map_t *new_map(char *err, size_t errcap)
{
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    if (terrain_load_builtin(hb_data_dir(), types, MAP_MAX_TERRAIN, &n, err, errcap) != 0)
        return NULL;
    int open = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(types[i].name, "open") == 0) open = i;
    map_t *m = edit_new_map(NEW_COLS, NEW_ROWS, types, n, open);
    if (!m) snprintf(err, errcap, "out of memory");
    return m;
}

/* A stop signal: unsaved edits go to their recovery copy before the exit. */
static void keep_edits(const ed_state_t *st)
{
    char msg[HB_ERR_MAX];
    bool written = false;
    if (!ed_write_recovery(st, &written, msg, sizeof msg))
        fprintf(stderr, "hexbattle: unsaved edits lost: %s\n", msg);
    else if (written)
        fprintf(stderr, "hexbattle: stopped; unsaved edits kept in %s\n", msg);
}

int app_edit(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "hexbattle: edit takes at most one map\n");
        return 2;
    }
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    const char *path = argc == 2 ? argv[1] : NULL;
    if (path) {
        int rc = map_load(path, hb_data_dir(), &m, &db, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "hexbattle: %s\n", err);
            return rc;
        }
    } else {
        m = new_map(err, sizeof err);
        if (!m || tmpl_db_load(hb_data_dir(), m->ruleset, &db, err, sizeof err) != 0) {
            fprintf(stderr, "hexbattle: %s\n", err);
            map_destroy(m);
            return 1;
        }
    }
    ed_state_t st;
    ed_init(&st, m, db, path, 1400, 860);
    /* Edits kept by a stopped editor are offered back (docs/editor.md). */
    char rpath[SAVE_PATH_MAX];
    if (recover_path(path, rpath, sizeof rpath) && recover_belongs(rpath, path))
        ed_offer_recovery(&st, rpath);
    ui_stop_install();
    int status = 0;
    for (;;) {
        ed_run_t r = ed_run_window(&st, err, sizeof err);
        if (ui_stop_signal()) {
            keep_edits(&st);
            break;
        }
        if (r == ED_RUN_ERROR) {
            fprintf(stderr, "hexbattle: %s\n", err);
            status = 1;
            break;
        }
        if (r == ED_RUN_QUIT) break;
        /* Play on a copy: a battle moves combatants, the editor keeps its map. */
        map_t *play = map_clone(m);
        if (!play || ui_run_window(play, st.db, st.path[0] ? st.path : "(edited map)", err,
                                   sizeof err) != 0) {
            ed_message(&st, "play-test failed: %s", play ? err : "out of memory");
        } else {
            ed_message(&st, "back from play-test");
        }
        map_destroy(play);
        if (ui_stop_signal()) { /* stopped during the play-test */
            keep_edits(&st);
            break;
        }
    }
    ed_free(&st);
    tmpl_db_destroy(db);
    map_destroy(m);
    return status;
}
