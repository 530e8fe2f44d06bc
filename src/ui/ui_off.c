/* ui_off.c - what the command line (src/app) calls of ui.h and stop.h, in a
 * build without the windows (HB_GUI=OFF: no SDL). Every window and render
 * call fails and says so; the stop calls are the platform layer's, as in the
 * windowed build, so a command-line run still ends cleanly on Ctrl+C. */
#include <stdio.h>

#include "platform/platform.h"
#include "stop.h"
#include "ui.h"

#define NO_WINDOWS "this build of hexbattle has no windows (built with HB_GUI=OFF)"

/* err: "WHAT: " (when what is not NULL) and why not. */
static int no_windows(const char *what, char *err, size_t errcap)
{
    snprintf(err, errcap, "%s%s%s", what ? what : "", what ? ": " : "", NO_WINDOWS);
    return 1;
}

int ui_render_png_opts(const map_t *m, const tmpl_db_t *db, const ui_render_opts_t *opts,
                       const char *out_png, char *err, size_t errcap)
{
    (void)m;
    (void)db;
    (void)opts;
    (void)out_png;
    return no_windows(NULL, err, errcap); /* the caller names the command */
}

int ui_run_window(map_t *m, const tmpl_db_t *db, const char *map_path, char *err,
                  size_t errcap)
{
    (void)m;
    (void)db;
    (void)map_path;
    return no_windows("the play window", err, errcap);
}

int ui_run_edit(map_t *m, const tmpl_db_t *db, const char *path, char *err, size_t errcap)
{
    (void)m;
    (void)db;
    (void)path;
    return no_windows("the editor", err, errcap);
}

int ui_run_saved(const save_t *s, const char *save_path, bool replay, char *err, size_t errcap)
{
    (void)s;
    (void)save_path;
    return no_windows(replay ? "replay (--events prints the log)" : "resume", err, errcap);
}

void ui_stop_install(void)
{
    hb_plat_stop_install();
}

void ui_stop_exit(void)
{
    hb_plat_stop_exit();
}
