/* edit_session.c - the editor with its play-tests (ui.h ui_run_edit).
 *
 * The editor state (map, undo history, path) lives here across the switch, so
 * a play-test starts on a copy of the edited map and returning to the editor
 * finds everything as it was. SDL video is held for the whole session: the
 * windows come and go, the video driver stays the one the editor opened on. */
#include <stdio.h>
#include <string.h>

#include "../core/edit.h"
#include "../core/say.h"
#include "../io/fileio.h"
#include "../io/map_io.h"
#include "../io/recover.h"
#include "editor.h"
#include "stop.h"
#include "ui.h"
#include "window.h"

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

int ui_run_edit(map_t *m, const tmpl_db_t *db, const char *path, char *err, size_t errcap)
{
    map_t *own = NULL;
    tmpl_db_t *own_db = NULL;
    if (!m) {
        m = own = new_map(err, errcap);
        if (!m || tmpl_db_load(hb_data_dir(), m->ruleset, &own_db, err, errcap) != 0) {
            map_destroy(own);
            return 1;
        }
        db = own_db;
        path = NULL;
    }
    if (!ui_video_open(err, errcap)) {
        tmpl_db_destroy(own_db);
        map_destroy(own);
        return 1;
    }
    ed_state_t st;
    int w, h;
    ui_window_size_for(0, ED_WANT_W, ED_WANT_H, &w, &h);
    ed_init(&st, m, db, path, w, h);
    /* Edits kept by a stopped editor are offered back (docs/editor.md). */
    char rpath[SAVE_PATH_MAX], why[HB_ERR_MAX];
    int found = recover_find(path, rpath, sizeof rpath, why, sizeof why);
    if (found > 0) ed_offer_recovery(&st, rpath);
    if (found < 0) { /* there, but it cannot come back: say so */
        hb_eprintf("hexbattle: a recovery copy cannot be read: %s\n", why);
        ed_message(&st, "recovery copy not usable: %s", why);
    }
    int status = 0;
    for (;;) {
        ed_run_t r = ed_run_window(&st, err, errcap);
        if (ui_stop_signal()) {
            ed_keep_edits(&st);
            break;
        }
        if (r == ED_RUN_ERROR) {
            /* After a play-test the edits live only in memory: keep them. */
            if (st.opens > 0) {
                char why[HB_ERR_MAX];
                snprintf(why, sizeof why, "%.400s", err);
                ed_recover(&st, why, err, errcap);
            }
            status = 1;
            break;
        }
        if (r == ED_RUN_QUIT) break;
        /* Play on a copy: a battle moves combatants, the editor keeps its map. */
        map_t *play = map_clone(m);
        if (!play || ui_run_playtest(play, st.db, st.path[0] ? st.path : "(edited map)",
                                     ed_last_words, &st, err, errcap) != 0) {
            ed_message(&st, "play-test failed: %s", play ? err : "out of memory");
        } else {
            ed_message(&st, "back from play-test");
        }
        map_destroy(play);
        if (ui_stop_signal()) { /* stopped during the play-test */
            ed_keep_edits(&st);
            break;
        }
    }
    ed_free(&st);
    ui_video_close();
    tmpl_db_destroy(own_db);
    map_destroy(own);
    return status;
}
