/* editor.h - the map editor window: state, event handler, drawing, loop.
 *
 * Like the play window, the handler is a plain function of (state, event) so
 * tests drive it with synthetic SDL events; every change to the map goes
 * through src/core/edit.h and its history, so the edit state and undo history
 * live in ed_state_t and survive a round trip through play mode.
 */
#ifndef HB_UI_EDITOR_H
#define HB_UI_EDITOR_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "../core/edit.h"
#include "../io/recover.h"
#include "camera.h"
#include "draw.h"

#define ED_PALETTE_W 210 /* left panel: terrain palette */
#define ED_PANEL_W 300   /* right panel: tool, selection, templates, map */
#define ED_ROW_H 22      /* one palette or list row */
#define ED_MSG_MAX 6
#define ED_WANT_W 1400 /* the editor window's size when the screen has room */
#define ED_WANT_H 860

typedef enum { ED_SELECT = 0, ED_BRUSH, ED_LINE, ED_FILL, ED_ERASER, ED_PICK, ED_UNIT } ed_tool_t;

typedef enum {
    ED_PROMPT_NONE = 0,
    ED_PROMPT_SAVE_AS,
    ED_PROMPT_SEARCH,  /* template search, filters as one types */
    ED_PROMPT_NAME,    /* selected combatant's name */
    ED_PROMPT_FACTION, /* selected combatant's faction (or the default one) */
    ED_PROMPT_STAT,    /* "key=value" override; "key=" removes */
    ED_PROMPT_MAP_NAME,
    ED_PROMPT_RULESET,
    ED_PROMPT_FEET,
    ED_PROMPT_RESIZE,    /* "COLSxROWS [tl|t|tr|l|c|r|bl|b|br]" */
    ED_PROMPT_NEW_TYPE,  /* "name move cover blocks #rrggbb" */
    ED_PROMPT_NEW_MAP,   /* "COLSxROWS TERRAIN": start over on a blank map */
    ED_PROMPT_QUIT,      /* unsaved changes: the quit question (ui_quit_choice) */
    ED_PROMPT_RECOVER,   /* a recovery copy: r restore, d discard, Esc later */
    ED_PROMPT_OVERWRITE, /* the file changed on disk since loaded: y overwrite, Esc not */
} ed_prompt_t;

typedef enum { ED_RUN_QUIT = 0, ED_RUN_PLAY = 1, ED_RUN_ERROR = 2 } ed_run_t;

typedef struct {
    map_t *map;          /* owned by the caller; edits change it */
    const tmpl_db_t *db; /* templates of the map's ruleset (may be NULL) */
    tmpl_db_t *own_db;   /* loaded by the editor after a ruleset change, else NULL */
    edit_history_t hist;
    char path[MAP_PATH_MAX]; /* "" until saved once */
    hb_stamp_t disk;         /* the file at path as loaded or last saved */

    ui_camera_t cam;
    int view_w, view_h;
    double mouse_x, mouse_y;
    cell_t hover;
    bool hover_on_map;

    ed_tool_t tool;
    int brush;    /* 1..3 */
    int type;     /* palette selection: a terrain type index */
    int selected; /* combatant index, or -1 */
    int tmpl_sel; /* index among the templates matching search, or -1 */
    char search[64];
    char faction[MAP_ID_MAX]; /* faction given to new combatants */

    bool stroke_on;     /* a brush/eraser drag is under way */
    edit_t stroke;      /* its applied dabs, recorded on release */
    cell_t stroke_last; /* last cell painted, so fast drags paint the cells between */
    bool line_on;
    cell_t line_from;
    int drag_unit; /* combatant being dragged, or -1 */
    int pan_button;

    ed_prompt_t prompt;
    char input[MAP_PATH_MAX];
    char skip_text; /* the key that opened the prompt: drop its own text event */

    char msg[ED_MSG_MAX][160]; /* messages and warnings shown in the panel */
    int n_msg;
    bool play_warned; /* warnings shown once; the next play key goes ahead */

    recover_map_t recover;           /* a recovery copy on offer (recover.map != NULL) */
    char recover_file[SAVE_PATH_MAX]; /* where it is */
    char recover_label[200];         /* what the offer says */
    bool fitted;            /* the view is as ed_fit left it: a resize fits again */
    bool toggle_fullscreen; /* F11: the loop toggles the window */
    int opens;              /* how many times the editor window has opened */

    /* A map's own pictures (edit_align.c). */
    bool art_colours;  /* F12: terrain colours over the pictures (on at first) */
    int align;         /* A: 1 wants the first hex centre, 2 the second, 0 off */
    cell_t align_c1;   /* the hex of the first click */
    vec2_t align_q1;   /* its point on the picture, in the picture's pixels */
    int align_n;       /* how many hexes apart the two are */
    bool align_typed;  /* a number was typed for align_n */
    bool art_moved;    /* the picture was aligned since the last save */
    bool tile_pick;    /* X: the next click picks a tile for the palette's terrain */

    bool quit;        /* leave the editor */
    bool want_play;   /* switch to play mode */
    bool dirty_frame; /* redraw needed */
} ed_state_t;

/* A map's own pictures (edit_align.c): F12, A and the number keys while
 * aligning; true when the key was theirs. */
bool ed_align_key(ed_state_t *s, SDL_Keycode k);
/* A click on the map while aligning; true when it was theirs. */
bool ed_align_click(ed_state_t *s, double x, double y);
/* Keep, of the terrains chosen for tiles with the palette, those a save
 * writes: for each tile, the terrain all the hexes showing it have now when
 * the palette gave it that one; a choice undone or painted over is dropped. */
void ed_tile_choices_settle(ed_state_t *s);

/* Fresh editor state on map m (path may be NULL for a new map), view fitted. */
void ed_init(ed_state_t *s, map_t *m, const tmpl_db_t *db, const char *path, int view_w,
             int view_h);
/* Free the history, a stroke under way and templates the editor loaded (not the map). */
void ed_free(ed_state_t *s);
/* Fit the map in the space between the panels. */
void ed_fit(ed_state_t *s);
/* Apply one input event. */
void ed_handle_event(ed_state_t *s, const SDL_Event *e);
/* Add a line to the message panel (oldest dropped). */
void ed_message(ed_state_t *s, const char *fmt, ...);
/* Offer the recovery copy at RPATH (src/io/recover.h): when it loads, the
 * editor asks whether to restore it; else a message says why not. */
void ed_offer_recovery(ed_state_t *s, const char *rpath);
/* Take the offered copy: its map replaces the edited one (in place, so the
 * caller's pointer stays good) with its undo history; the copy is deleted. */
bool ed_restore_recovery(ed_state_t *s);
/* Write the map with its undo history as its recovery copy, when it has
 * unsaved edits (a stop signal, src/ui/stop.h). False with err filled on
 * failure; true, with *written set, otherwise. */
bool ed_write_recovery(const ed_state_t *s, bool *written, char *err, size_t errcap);
/* A stop (src/ui/stop.h): the unsaved edits go to their recovery copy, and
 * standard error says where (or why they could not). */
void ed_keep_edits(const ed_state_t *s);
/* The same as a stop.h last-words callback (ctx: the ed_state_t), for
 * Windows' end of session in the editor window and in its play-test. */
void ed_last_words(void *ctx);
/* Save to s->path (or ask for one); true on success. When the file there
 * changed since it was loaded or saved (another editor), it asks first. */
bool ed_save(ed_state_t *s);
/* Undo / redo one edit; false when there is none. */
bool ed_undo(ed_state_t *s);
bool ed_redo(ed_state_t *s);
/* The i-th template matching s->search, or NULL past the end. */
const tmpl_t *ed_template_match(const ed_state_t *s, int i);
/* Draw a frame: map, selection, palette and side panel. Does not present. */
void ed_draw(ui_draw_t *d, const ed_state_t *s);
/* Save the map as its recovery copy when it has unsaved changes, and write
 * into msg what happened (for a window that could not open again: `why`).
 * Returns true when a copy was written. */
bool ed_recover(ed_state_t *s, const char *why, char *msg, size_t cap);
/* Rows of the template list that fit the panel at the current height. */
int ed_template_rows(const ed_state_t *s);
/* ---- editor_save.c ---- */

/* The user's maps folder: $XDG_DATA_HOME/hexbattle/maps (else under
 * ~/.local/share); false when neither variable is set. */
bool ed_maps_dir(char *out, size_t cap);
/* A full path in the maps folder named after the map ("untitled" without a
 * name) that no file has yet. */
bool ed_default_save_path(const ed_state_t *s, char *out, size_t cap);
/* Open the Save As prompt on the map's path, or on the default path for a
 * map never saved. */
void ed_start_save_as(ed_state_t *s);
/* The file a Save As answer names: a bare name goes into the maps folder
 * (".json" added when missing), the folder made when it is missing. */
bool ed_resolve_save_path(const char *in, char *out, size_t cap);

/* The roster before an edit that may remove combatants (a resize). */
#define ED_LOST_TEXT 200
typedef struct {
    int n;
    char id[MAP_MAX_COMBATANTS][MAP_ID_MAX];
    char name[MAP_MAX_COMBATANTS][MAP_NAME_MAX];
} ed_roster_t;
/* Note the map's roster (NULL when out of memory). */
ed_roster_t *ed_roster_keep(const map_t *m);
/* After the edit: the combatants of r no longer on the map, named in a
 * message ("resize removed 2 combatants: ..."); frees r; returns how many. */
int ed_roster_lost(ed_state_t *s, ed_roster_t *r, const char *what);

/* Run the editor in a window until it quits or asks for play mode. The state
 * (map, history, path) is kept in s across calls. */
ed_run_t ed_run_window(ed_state_t *s, char *err, size_t errcap);

#endif
