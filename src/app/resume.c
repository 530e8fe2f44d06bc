/* resume.c - hexbattle resume [SAVE] and hexbattle replay SAVE [--events]:
 * saved battles rebuilt from their map, seed, dice and commands (docs/saves.md).
 * A save that does not rebuild to the state it records is refused (exit 2)
 * before any window opens, and nothing on disk is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "core/say.h"
#include "io/event_json.h"
#include "io/save.h"
#include "ui/stop.h"
#include "ui/ui.h"

#define EXIT_BAD 2
#define EXIT_FAIL 1

static int usage(const char *cmd, const char *why, const char *arg)
{
    hb_eprintf("hexbattle: %s: ", cmd);
    hb_eprintf(why, arg);
    fprintf(stderr, "\nusage: hexbattle resume [SAVE]   or   hexbattle replay SAVE [--events]\n");
    return EXIT_BAD;
}

/* Load and rebuild SAVE; prints why not. Returns the exit status. */
static int open_save(const char *path, save_t **s, play_t *p)
{
    char err[HB_ERR_MAX];
    int rc = save_load(path, NULL, s, err, sizeof err);
    /* Drawn with its map's tiles or picture when that map is still there. */
    if (rc == HB_OK) save_adopt_pictures(*s, path);
    save_note_t note;
    if (rc == HB_OK) rc = save_rebuild_ex(*s, p, &note, err, sizeof err);
    /* A save of other rules opens all the same; the note says what differs. */
    if (rc == HB_OK && note.text[0]) hb_eprintf("hexbattle: note: %s\n", note.text);
    if (rc != HB_OK) {
        hb_eprintf("hexbattle: %s\n", err);
        save_free(*s);
        *s = NULL;
    }
    return rc;
}

/* Print the rebuilt battle's event log as JSON Lines, as simulate does. */
static int print_events(const battle_t *b)
{
    for (int k = 0; k < b->log.n; k++) {
        char *line = event_to_line_in(b, &b->log.ev[k]);
        if (!line) {
            hb_eprintf("hexbattle: out of memory\n");
            return EXIT_FAIL;
        }
        fputs(line, stdout);
        fputc('\n', stdout);
        free(line);
    }
    return fflush(stdout) == 0 ? 0 : EXIT_FAIL;
}

int app_resume(int argc, char **argv)
{
    const char *path = NULL;
    char autosave[SAVE_PATH_MAX];
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') return usage("resume", "unknown option '%s'", argv[i]);
        if (path) return usage("resume", "unexpected argument '%s'", argv[i]);
        path = argv[i];
    }
    if (!path) {
        /* No file named: the newest autosave. */
        char dir[SAVE_PATH_MAX];
        if (!save_autosave_dir(dir, sizeof dir) ||
            !save_autosave_path(dir, 1, autosave, sizeof autosave))
            return usage("resume", "%s", "no autosave folder (set HOME or XDG_DATA_HOME)");
        path = autosave;
    }
    save_t *s = NULL;
    play_t p;
    int rc = open_save(path, &s, &p);
    if (rc != HB_OK) return rc;
    /* The window rebuilds its own copy, with the screen's dice state. */
    play_end(&p);
    char err[HB_ERR_MAX];
    ui_stop_install();
    if (ui_run_saved(s, path, false, err, sizeof err) != 0) {
        hb_eprintf("hexbattle: %s\n", err);
        rc = EXIT_FAIL;
    }
    save_free(s);
    return rc;
}

int app_replay(int argc, char **argv)
{
    const char *path = NULL;
    bool events = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--events") == 0)
            events = true;
        else if (argv[i][0] == '-')
            return usage("replay", "unknown option '%s'", argv[i]);
        else if (path)
            return usage("replay", "unexpected argument '%s'", argv[i]);
        else
            path = argv[i];
    }
    if (!path) return usage("replay", "%s", "needs a save file");
    save_t *s = NULL;
    play_t p;
    int rc = open_save(path, &s, &p);
    if (rc != HB_OK) return rc;
    if (events) {
        rc = print_events(p.b);
        play_end(&p);
    } else {
        play_end(&p);
        char err[HB_ERR_MAX];
        ui_stop_install();
        if (ui_run_saved(s, path, true, err, sizeof err) != 0) {
            hb_eprintf("hexbattle: %s\n", err);
            rc = EXIT_FAIL;
        }
    }
    save_free(s);
    return rc;
}
