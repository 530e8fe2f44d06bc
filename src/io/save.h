/* save.h - saved battles (format "hexbattle-save", version 1; docs/saves.md).
 *
 * A save is what rebuilds a battle exactly: the map (embedded as format-1 map
 * JSON, so a moved or deleted map file does not matter), the battle options
 * with the seed, every hand-entered die and every accepted command, plus a
 * summary of the state (round, HP, who is out, the winner) that the rebuilt
 * battle must match. Loading refuses a bad file with "FILE: JSON.path: reason"
 * and HB_ERR_INPUT; writing goes through hb_write_atomic, so a crash leaves the
 * old file or the new one, whole.
 */
#ifndef HB_SAVE_H
#define HB_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/dice.h"
#include "../rules/play.h"
#include "map_io.h"

#define SAVE_FORMAT "hexbattle-save"
#define SAVE_AUTOSAVES 3
#define SAVE_PATH_MAX 4096

/* The play screen's own dice state, kept so a resumed battle rolls on as
 * the interrupted one would have. */
typedef struct {
    bool has_rng;
    rng_t rng;           /* the screen's generator for non-physical dice */
    unsigned phys_sides; /* bit s: board side s rolls physical dice */
} save_table_t;

/* A loaded save. Owns its map and ruleset data; a battle rebuilt from it
 * borrows them, so free the battle first. */
typedef struct {
    char file[SAVE_PATH_MAX];     /* name used in messages */
    char map_file[SAVE_PATH_MAX]; /* where the map was first loaded from ("" unknown) */
    map_t *map;
    tmpl_db_t *db;
    battle_opts_t opts;
    int *dice; /* hand-entered values, in order */
    int n_dice;
    cmd_t *cmds; /* accepted commands, in order */
    int n_cmds;
    bool has_pending; /* a command waited for dice when saved */
    cmd_t pending;
    bool stopped; /* the battle was ended by its round limit or by the referee */
    /* The state summary the rebuilt battle must match. */
    int round;
    bool over;
    char winner[MAP_ID_MAX]; /* winning side's name, "" for none */
    int *hp;                 /* per map combatant */
    bool *out;
    save_table_t table;
    int rules_revision; /* of the ruleset it was played under; SAVE_RULES_UNKNOWN: older */
} save_t;

#define SAVE_RULES_UNKNOWN (-1)

/* What a save written under other rules came to (save_compat.c). */
typedef struct {
    int kept_cmds;     /* commands that still apply, from the first */
    bool kept_pending; /* the command waiting for a die is still there */
    char text[800];    /* "" when the battle rebuilt as saved; else what differs */
} save_note_t;

/* Give a loaded save the pictures of the map it was played on (Tiled tiles,
 * a battle-map picture), from s->map_file: map_adopt_pictures with the save's
 * own path SAVE_PATH. True when they changed; for drawing only, the battle
 * is the save's. */
bool save_adopt_pictures(save_t *s, const char *save_path);

/* The battle p as save text (malloc'd, caller frees); NULL on OOM. table may
 * be NULL; map_file (may be NULL) is recorded so a resumed battle finds its map's
 * pictures (save_adopt_pictures). */
char *save_to_json(const play_t *p, const save_table_t *table, const char *map_file);
/* Write the battle to PATH atomically (temporary file, fsync, rename, folder
 * fsync), keeping the old file as PATH.bak when keep_bak. HB_OK or HB_ERR_OTHER
 * with err filled; on failure PATH is untouched. */
int save_write(const char *path, const play_t *p, const save_table_t *table, const char *map_file,
               bool keep_bak, char *err, size_t errcap);

/* Parse save text (NAME in messages; data_dir NULL: hb_data_dir()). HB_OK with
 * *out owned by the caller, or HB_ERR_INPUT / HB_ERR_OTHER with err filled.
 * Only the file is checked here; save_rebuild checks the battle. */
int save_load_mem(const char *text, size_t len, const char *name, const char *data_dir,
                  save_t **out, char *err, size_t errcap);
/* The same for the file at PATH. */
int save_load(const char *path, const char *data_dir, save_t **out, char *err, size_t errcap);
/* Free a loaded save (NULL is fine). */
void save_free(save_t *s);

/* Rebuild the battle of save s into p (borrowing s's map and data): setup,
 * every command with the entered dice, the pending command, then check the
 * state against the summary. HB_OK with p running, or HB_ERR_INPUT ("FILE:
 * path: reason") with p ended. A save of another rules revision
 * (docs/saves.md, "Saves across versions") that no longer rebuilds as saved
 * still opens: its commands are replayed under the current rules as far as
 * they apply, and note (may be NULL) says what differs. */
int save_rebuild(const save_t *s, play_t *p, char *err, size_t errcap);
int save_rebuild_ex(const save_t *s, play_t *p, save_note_t *note, char *err, size_t errcap);
/* The rebuild with no leniency: everything must come out as saved. */
int save_rebuild_exact(const save_t *s, play_t *p, char *err, size_t errcap);
/* Hand-entered values of the roll events of b from *ev on must be faces of
 * their dice; *used counts the values seen. False at the first that is not,
 * with *ev at its event and *used at its index in s->dice. */
bool save_faces_ok(const save_t *s, const battle_t *b, int *ev, int *used);
/* The state of battle b against the summary in s (HB_ERR_INPUT with the path). */
int save_check_state(const save_t *s, const battle_t *b, char *err, size_t errcap);

/* Folder for autosaves: $XDG_DATA_HOME/hexbattle, else ~/.local/share/hexbattle.
 * False when neither can be named. The folder is not created. */
bool save_autosave_dir(char *out, size_t cap);
/* Path of autosave slot k (1 newest .. SAVE_AUTOSAVES oldest) in dir. */
bool save_autosave_path(const char *dir, int k, char *out, size_t cap);
/* Autosave the battle into dir (created if missing): slot 2 moves to 3, 1 to
 * 2, then the battle is written atomically as slot 1. Every file present is a
 * whole save at every moment. HB_OK or HB_ERR_OTHER with err filled. */
/* Move the autosaves of dir down one slot (2 to 3, then 1 to 2), making
 * room in slot 1. HB_OK or HB_ERR_OTHER with err filled. */
int save_autosave_shift(const char *dir, char *err, size_t errcap);
int save_autosave(const char *dir, const play_t *p, const save_table_t *table, const char *map_file,
                  char *err, size_t errcap);

#endif
