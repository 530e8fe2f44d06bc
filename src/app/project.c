/* project.c - hexbattle project [MAP]: the play window on the laptop and the
 * player view on a second display (src/ui/projector.h). */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/say.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "ui/projector.h"
#include "ui/stop.h"

#define PROJECT_DEFAULT_MAP "ridge_ambush.json"

int app_project(int argc, char **argv)
{
    /* argv[0] is "project". */
    if (argc > 2) {
        hb_eprintf("hexbattle: project takes at most one map, not '%s'\n", argv[2]);
        fputs("Try 'hexbattle --help'.\n", stderr);
        return 2;
    }
    if (argc == 2 && argv[1][0] == '-') {
        hb_eprintf("hexbattle: project: unknown option '%s'\n", argv[1]);
        fputs("Try 'hexbattle --help'.\n", stderr);
        return 2;
    }
    char fallback[4096];
    const char *path = argc == 2 ? argv[1] : NULL;
    if (!path) {
        snprintf(fallback, sizeof fallback, "%s/../maps/" PROJECT_DEFAULT_MAP, hb_data_dir());
        path = fallback;
    }
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    int rc = app_load_map(path, &m, &db);
    if (rc != HB_OK) return rc;
    ui_stop_install();
    if (ui_run_project(m, db, path, err, sizeof err) != 0) {
        hb_eprintf("hexbattle: %s\n", err);
        rc = 1;
    }
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}
