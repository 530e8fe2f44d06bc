/* ui_bundled_fixture.h - a bundled map (maps/NAME.json) in play on the play
 * screen's logic (pui_t), for the UI tests that drive a real battle. */
#ifndef HB_TEST_UI_BUNDLED_FIXTURE_H
#define HB_TEST_UI_BUNDLED_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/map_io.h"
#include "ui/play_ui.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
} fx_t;

/* Load maps/NAME.json with the bundled data and start its battle with seed. */
static inline void fx_open(fx_t *f, const char *name, uint64_t seed)
{
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s.json", HB_TEST_DATA, name);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    if (map_load(path, data, &f->m, &f->db, err, sizeof err) != 0) fail_msg("%s: %s", path, err);
    f->p = calloc(1, sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, seed), BATTLE_OK);
}

static inline void fx_close(fx_t *f)
{
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    tmpl_db_destroy(f->db);
}

#endif
