/* menu.h - the play window's "open" menu (Ctrl+O): the map picker.
 *
 * It lists what a referee may want to open: the maps and battles opened
 * lately, the battle's own save file, the rotating autosaves, the other saved
 * battles (NAME.battle.json) in the map's folder, newest first, each with its
 * map, round and time; then the bundled maps and "New map". Picking a save is
 * checked by rebuilding it, a map by loading it, before anything is left
 * behind; the window then autosaves the battle on screen and reopens with the
 * chosen one (docs/saves.md). Logic and drawing are apart so tests drive the
 * logic.
 */
#ifndef HB_UI_MENU_H
#define HB_UI_MENU_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <SDL.h>

#include "../io/recent.h"
#include "../io/save.h"
#include "text.h"

#define SMENU_MAX 32
#define SMENU_NONE (-1)  /* the input changed nothing to act on */
#define SMENU_CLOSE (-2) /* the menu was closed */

/* What picking an entry opens. */
typedef enum { SMENU_SAVE = 0, SMENU_MAP, SMENU_NEW_MAP } smenu_kind_t;

typedef struct {
    smenu_kind_t kind;
    char path[SAVE_PATH_MAX];
    char title[64];   /* "Autosave 1", "Saved battle", "This battle's save" */
    char detail[200]; /* "Ridge Ambush, round 3, 23 Nov 14:05" or why it cannot load */
    time_t mtime;
    bool ok; /* the file loads (the rebuild is checked when it is picked) */
} smenu_entry_t;

typedef struct {
    bool open;
    int n, sel;
    smenu_entry_t e[SMENU_MAX];
    SDL_Rect row[SMENU_MAX]; /* where each shown entry was last drawn, for clicks */
    int n_rows;
    bool recovery; /* opened at the start to offer a recovery copy (entry 0) */
    bool resume;   /* opened at the start to offer the map's saved battle (entry 0) */
    int first; /* the entry shown in the top row (the list scrolls) */
    bool maps; /* the map picker: maps and "New map" are listed too */
} smenu_t;

/* Fill the list and open the menu: save_path (the battle's own save; may be
 * "" or missing), the autosaves in autosave_dir (may be ""), and the
 * *.battle.json files in the folder of map_path (may be NULL or ""). A path
 * seen twice is listed once. */
void smenu_scan(smenu_t *m, const char *save_path, const char *autosave_dir,
                const char *map_path);
/* Open the menu on the one recovery copy at rpath (src/io/recover.h) of a
 * battle stopped by a signal: Enter takes it back, Esc starts afresh. */
void smenu_offer(smenu_t *m, const char *rpath);
/* Open the menu on the map's own saved battle at save_path
 * (NAME.battle.json), when there is one: Enter resumes it, Esc starts a new
 * battle. Nothing opens without the file. */
void smenu_offer_resume(smenu_t *m, const char *save_path);
/* Fill the whole picker and open it: the RECENT maps and saves (may be NULL)
 * first, then what smenu_scan lists, then the maps in maps_dir (*.json,
 * *.tmj, *.tmx; may be NULL) and "New map". */
void smenu_scan_picker(smenu_t *m, const recent_t *recent, const char *save_path,
                       const char *autosave_dir, const char *map_path, const char *maps_dir);
/* A key while the menu is open: arrows move, Enter picks, Escape closes.
 * Returns the entry index picked, SMENU_CLOSE or SMENU_NONE. */
int smenu_key(smenu_t *m, SDL_Keycode k);
/* A click at window pixel (x, y): on a row picks it, outside the panel
 * closes. Same returns as smenu_key. */
int smenu_click(smenu_t *m, int x, int y);
/* Load and rebuild the save at path without touching the battle on screen.
 * HB_OK with *out owned by the caller, or an error with msg saying why. */
int smenu_try_load(const char *path, save_t **out, char *msg, size_t cap);
/* Load the map at path without touching the battle on screen: HB_OK with
 * *out and *db owned by the caller, or an error with msg saying why. */
int smenu_try_load_map(const char *path, map_t **out, tmpl_db_t **db, char *msg, size_t cap);
/* Draw the open menu over a w x h window and remember the row rectangles. */
void smenu_draw(smenu_t *m, SDL_Renderer *r, ui_text_t *t, int w, int h, double px_per_pt);

#endif
