/* fog.h - the player view: what the drawing leaves out so that a projected
 * or rendered map shows only what a table of players may see.
 *
 * A view is built from a vision (fog: visible, remembered, unseen cells) and
 * says per combatant whether it is drawn and whether its health is. The
 * drawer (draw.c) applies it: unseen hexes dark, remembered ones dimmed,
 * unseen or undetected enemies left out, enemy HP bars left out, and large,
 * high-contrast labels for reading across a table.
 */
#ifndef HB_UI_FOG_H
#define HB_UI_FOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/battle.h"
#include "../core/vision.h"
#include "anim.h"

enum {
    UI_SHOW_NONE = 0,  /* not drawn at all */
    UI_SHOW_NO_HP = 1, /* drawn without its health bar (an enemy) */
    UI_SHOW_ALL = 2,   /* drawn in full (one of the viewing sides) */
};

typedef struct ui_view {
    const vision_t *vis;              /* fog; NULL draws every cell plainly */
    unsigned sides;                   /* the viewing board sides */
    uint8_t show[MAP_MAX_COMBATANTS]; /* UI_SHOW_* per combatant */
    int n;
    bool big_labels; /* large, high-contrast names */
} ui_view_t;

/* Fill view v for the sides in mask SIDES on board bd with fog vis (already
 * updated). Battle b may be NULL (a plain map: nothing hides but the fog);
 * with a battle, the ruleset's stealth decides who is undetected. */
void ui_view_build(ui_view_t *v, const vision_t *vis, const board_t *bd, const battle_t *b,
                   unsigned sides, bool big_labels);
/* Is combatant i hidden from every viewing side by the ruleset's stealth
 * (hidden, cloaked, concealed and not detected)? False without a battle. */
bool ui_view_stealthed(const battle_t *b, int i, unsigned sides);

/* How the player view shows one animation effect. */
enum {
    UI_FX_HIDE = 0,     /* left out: it would give away a combatant the players cannot see */
    UI_FX_SHOW = 1,     /* drawn as in the referee's window */
    UI_FX_NO_AMOUNT = 2 /* a damage number on an enemy: drawn as a plain "hit", no amount */
};
/* What view v (NULL: the referee's, everything) does with effect f: a tracer
 * needs both ends in view; flashes, blast rings and numbers need the one hit
 * in view; damage amounts show only on the viewing sides' own combatants, so
 * the table cannot count down an enemy's health (docs/projection.md). */
int ui_view_fx(const ui_view_t *v, const anim_fx_t *f);

/* The fog of the player view worked out one viewer at a time: each viewing
 * combatant's sight is kept, and only those who moved (or everyone, when the
 * terrain changed) are traced again; a count per cell of the viewers that
 * see it turns one viewer's old and new sight into the changes of the
 * combined one, so a player's step costs that viewer's field of view, not
 * the map. Same result as vision_update. */
typedef struct {
    unsigned sides;   /* the viewing sides it was made for */
    int n;            /* combatants on the board it was made for */
    int n_words;      /* words per bitset (the vision's) */
    int n_slots;      /* viewing combatants */
    int16_t *slot;    /* per combatant: its slot, or -1 when not a viewer */
    hex_t *eye;       /* per slot: where its sight was traced from */
    bool *have;       /* per slot: traced (and present) */
    uint64_t *bits;   /* per slot: its visible cells */
    int *lo, *hi;     /* per slot: the words of bits that hold any */
    uint16_t *count;  /* per cell: viewers that see it */
    const vision_t *synced; /* the vision whose visible cells the counts are of */
    fov_scratch_t fov;
    uint64_t terrain; /* terrain fingerprint at the last update */
    int traces;       /* viewers traced so far (for tests) */
} ui_fog_cache_t;

/* A cache for the sides in mask SIDES on board bd (the vision's map); false
 * on OOM (then free it anyway). */
bool ui_fog_cache_init(ui_fog_cache_t *c, const board_t *bd, unsigned sides);
/* Free what ui_fog_cache_init allocated (a zeroed one is fine). */
void ui_fog_cache_free(ui_fog_cache_t *c);
/* Make v's visible cells those of board bd for the cache's sides, as
 * vision_update would, and add them to its memory. Allocates nothing. */
void ui_fog_update(ui_fog_cache_t *c, vision_t *v, const board_t *bd);

/* Everything a headless player view of a plain map needs. */
typedef struct {
    board_t *board;
    vision_t *vis;
    ui_view_t view;
} ui_player_view_t;

/* The view of map m (no battle) for FACTION: its fog from its combatants'
 * sight. Returns 0; 2 with err filled when the map has no such faction; 1 on
 * OOM. Free with ui_player_view_free. */
int ui_player_view_make(ui_player_view_t *pv, const map_t *m, const char *faction, bool big_labels,
                        char *err, size_t errcap);
/* Free what ui_player_view_make made (a zeroed one is fine). */
void ui_player_view_free(ui_player_view_t *pv);

#endif
