/* edit.c - `hexbattle edit [MAP]`: the map editor with its play-tests
 * (src/ui/edit_session.c). */
#include <stdio.h>

#include "app.h"
#include "core/say.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "ui/stop.h"
#include "ui/ui.h"

int app_edit(int argc, char **argv)
{
    if (argc > 2) {
        hb_eprintf("hexbattle: edit takes at most one map\n");
        return 2;
    }
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    const char *path = argc == 2 ? argv[1] : NULL;
    if (path) {
        int rc = app_load_map(path, &m, &db);
        if (rc != 0) return rc;
    }
    ui_stop_install();
    int status = ui_run_edit(m, db, path, err, sizeof err);
    if (status != 0) hb_eprintf("hexbattle: %s\n", err);
    tmpl_db_destroy(db);
    map_destroy(m);
    return status;
}
