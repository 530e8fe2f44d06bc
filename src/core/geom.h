/* geom.h - combatant geometry built on the board, path and sight modules:
 * footprints, reachable hexes, paths, threat zones and flanking. */
#ifndef HB_GEOM_H
#define HB_GEOM_H

#include "path.h"
#include "sight.h"

/* Lengths a ruleset gives one combatant, all in feet. */
typedef struct {
    int reach_ft;     /* melee reach */
    int speed_ft;     /* movement budget for a normal turn */
    int dash_ft;      /* movement budget when dashing/thrusting */
    int interval_ft;  /* move costs round up to a multiple of this */
    int flank_ft;     /* flanking partners must be this close to the target (0 = no flanking) */
} geo_profile_t;

/* Hexes for a length in feet: ceil(ft / feet_per_hex), at least 1. */
int geom_ft_to_hexes(const map_t *m, int ft);

/* Hexes combatant i covers (today: its own hex; larger sizes later). Returns
 * the count, writing at most cap. */
int geom_footprint(const board_t *b, int i, hex_t *out, int cap);

typedef struct {
    cell_t at;
    int cost_ft;
} geom_reach_t;

/* Every hex where combatant i may end a move costing at most budget_ft
 * (rounded up to interval_ft), its own hex excluded. Returns the count,
 * writing at most cap. */
int geom_reach(const board_t *b, int i, int budget_ft, int interval_ft, path_search_t *ps,
               geom_reach_t *out, int cap);

/* Cheapest path for combatant i to `goal`, ignoring this turn's budget.
 * Returns false when no path exists or the goal cannot be stood on. On success
 * writes the cost (rounded to interval_ft) and path (start..goal). */
bool geom_path(const board_t *b, int i, cell_t goal, int interval_ft, path_search_t *ps,
               int *cost_ft, cell_t *path, int cap, int *len);

/* Threat zone of combatant i: every other hex within reach_ft that it can
 * see. Returns the count, writing at most cap. */
int geom_threat(const board_t *b, int i, int reach_ft, hex_t *out, int cap);
/* Does combatant i threaten hex h (within reach_ft and in sight)? */
bool geom_threatens(const board_t *b, int i, int reach_ft, hex_t h);

/* Flanking of target t by attacker a: allies of a that threaten t, are within
 * their flank_ft of t, and stand exactly opposite a across t. prof[k] is the
 * profile of combatant k. Returns the number of partners, writing at most cap. */
int geom_flank_partners(const board_t *b, const geo_profile_t *prof, int a, int t, int *out,
                        int cap);
/* Are offsets a = A - T and b = B - T exactly opposite? */
bool geom_opposite(hex_t a, hex_t b);

#endif
