/* side_view.h - what one group of sides may see of a battle: the player view.
 *
 * The projector draws it and the players' server (src/share) sends it, so
 * both take it from here and can never disagree. A view is built from a
 * vision (fog: visible, remembered, unseen cells) and says per combatant
 * whether it is shown at all and whether its health is: the viewing sides'
 * own combatants in full, an enemy in sight without its health, an enemy out
 * of sight or hidden by the ruleset's stealth not at all. The telegraphed
 * intentions and gauges the table may see are filtered here too.
 *
 * No SDL: this sits in the io layer because stealth is the ruleset's
 * business (its hidden_from hook).
 */
#ifndef HB_IO_SIDE_VIEW_H
#define HB_IO_SIDE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/battle.h"
#include "../core/vision.h"
#include "../rules/ruleset.h"

enum {
    SIDE_SHOW_NONE = 0,  /* not shown at all */
    SIDE_SHOW_NO_HP = 1, /* shown without its health (an enemy) */
    SIDE_SHOW_ALL = 2,   /* shown in full (one of the viewing sides) */
};

#define SIDE_INTENTS_MAX 32 /* most telegraphed intentions a view is given */

typedef struct side_view {
    const vision_t *vis;              /* fog; NULL shows every cell plainly */
    unsigned sides;                   /* the viewing board sides */
    uint8_t show[MAP_MAX_COMBATANTS]; /* SIDE_SHOW_* per combatant */
    int n;
    bool big_labels; /* large, high-contrast names (the projector's) */
} side_view_t;

/* Fill view v for the sides in mask SIDES on board bd with fog vis (already
 * updated). Battle b may be NULL (a plain map: nothing hides but the fog);
 * with a battle, the ruleset's stealth decides who is undetected. */
void side_view_build(side_view_t *v, const vision_t *vis, const board_t *bd, const battle_t *b,
                     unsigned sides, bool big_labels);
/* Is combatant i hidden from every viewing side by the ruleset's stealth
 * (hidden, cloaked, concealed and not detected)? False without a battle. */
bool side_view_stealthed(const battle_t *b, int i, unsigned sides);
/* How view (NULL: the referee's, everything) shows combatant i: SIDE_SHOW_*. */
int side_view_shows(const side_view_t *view, int i);

/* The fog of a view worked out one viewer at a time: each viewing
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
} side_fog_cache_t;

/* A cache for the sides in mask SIDES on board bd (the vision's map); false
 * on OOM (then free it anyway). */
bool side_fog_cache_init(side_fog_cache_t *c, const board_t *bd, unsigned sides);
/* Free what side_fog_cache_init allocated (a zeroed one is fine). */
void side_fog_cache_free(side_fog_cache_t *c);
/* Make v's visible cells those of board bd for the cache's sides, as
 * vision_update would, and add them to its memory. Allocates nothing. */
void side_fog_update(side_fog_cache_t *c, vision_t *v, const board_t *bd);

/* Fingerprints of what a view was last built from. The fog (the costly
 * part) depends only on where the viewing sides stand and on the terrain, so
 * an enemy stepping leaves it alone; the filters are rebuilt whenever
 * anything happens (a move, or a log event such as a hider found). */
typedef struct {
    uint64_t fog;    /* viewers' positions and the terrain; 0: not yet worked out */
    uint64_t view;   /* every position and the log length */
    int fog_updates; /* how many times the fog was worked out (for tests) */
} side_view_keys_t;

/* Bring the fog and the filters of view up to date with battle b for the
 * sides in mask SIDES; true when anything changed since *keys. With a cache
 * (may be NULL: every viewer traced each time) the fog traces only the
 * viewers who moved; the cache is (re)made here when it does not fit. */
bool side_view_update(vision_t *vis, side_view_t *view, const battle_t *b, unsigned sides,
                      side_view_keys_t *keys, side_fog_cache_t *cache, bool big_labels);

/* The telegraphed intentions of b (the ruleset's intents hook) that view
 * (NULL: the referee's, everything) lets the table see: only those of
 * combatants it shows; a target it does not show becomes -1 and a hex out of
 * sight is dropped, so a telegraph never gives away a position. Returns the
 * count, writing at most cap. */
int side_view_intents(const battle_t *b, const side_view_t *view, intent_t *out, int cap);
/* Combatant i's gauges (the ruleset's gauges hook) that view lets the table
 * see: every one of the viewing sides' own combatants, only those the
 * ruleset marks GAUGE_SEEN_ALL of another shown combatant, none of one it
 * does not show. Returns the count, writing at most cap. */
int side_view_gauges(const battle_t *b, const side_view_t *view, int i, gauge_t *out, int cap);

/* Everything a headless view of a plain map (no battle) needs. */
typedef struct {
    board_t *board;
    vision_t *vis;
    side_view_t view;
} side_map_view_t;

/* The view of map m (no battle) for FACTION: its fog from its combatants'
 * sight. Returns 0; 2 with err filled when the map has no such faction; 1 on
 * OOM. Free with side_map_view_free. */
int side_map_view_make(side_map_view_t *pv, const map_t *m, const char *faction, bool big_labels,
                       char *err, size_t errcap);
/* Free what side_map_view_make made (a zeroed one is fine). */
void side_map_view_free(side_map_view_t *pv);

#endif
