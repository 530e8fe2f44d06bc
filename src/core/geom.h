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

/* One way of moving (a ruleset's move mode): what a step costs, where a move
 * may end, and how far this mode may still go. The one search (path_run)
 * prices every step through `step`, so the reachable set, the cheapest path
 * and the check of a given path cannot disagree. */
typedef struct move_cost move_cost_t;
struct move_cost {
    /* Feet to step from cell `from` into its neighbour `to` (in-bounds cell
     * indices), -1 when that step is refused. ud is this move_cost_t. */
    path_cost_fn step;
    /* May the move end on cell idx? NULL: on any hex nobody holds. A move
     * may always end back where it started. */
    bool (*may_end)(const move_cost_t *mc, int idx);
    int budget_ft;   /* feet this mode may still spend now */
    int interval_ft; /* a move's cost rounds up to a multiple of this */
    const board_t *board;
    int who;         /* the mover */
    /* Free for the ruleset's step and may_end: */
    const void *data;
    int mode, flags, start;
};

/* The ordinary way of moving for combatant i: terrain costs, impassable and
 * enemy-held hexes refused, allies passed through (path_move_cost). */
void geom_move_plain(const board_t *b, int i, int budget_ft, int interval_ft, move_cost_t *out);
/* Every hex where mc's mover may end a move of this mode within its budget
 * (rounded up to the interval), its own hex excluded. Returns the count,
 * writing at most cap. */
int geom_reach_mode(const move_cost_t *mc, path_search_t *ps, geom_reach_t *out, int cap);
/* Cheapest path of mc's mover to `goal` in this mode, ignoring the budget,
 * as geom_path. */
bool geom_path_mode(const move_cost_t *mc, cell_t goal, path_search_t *ps, int *cost_ft,
                    cell_t *path, int cap, int *len);
/* The cost (rounded up to the interval) of following path[0..n) (the cells
 * entered, the start excluded) in this mode: each step to a neighbour the
 * step function accepts, ending where the move may end. -1 when it cannot be
 * followed. The budget is the caller's to compare: "legal" for a mode means
 * any path this returns a cost for, within mc->budget_ft. */
int geom_path_price(const move_cost_t *mc, const cell_t *path, int n);

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
