/* path.h - one Dijkstra search with a pluggable cost, for both the reachable
 * set and the path to a single hex.
 *
 * A path_search_t holds scratch sized for one map and is reused: each run
 * resets only the cells the previous run touched, and allocates nothing.
 */
#ifndef HB_PATH_H
#define HB_PATH_H

#include "board.h"

/* Feet to step from cell `from` into neighbouring cell `to`, or -1 if that
 * step is not allowed. Both are in-bounds cell indices. */
typedef int (*path_cost_fn)(void *ud, int from, int to);

typedef struct path_search path_search_t;

/* Scratch for maps of up to ncells cells; NULL on OOM. */
path_search_t *path_search_create(int ncells);
void path_search_destroy(path_search_t *ps);

/* Run from cell `start` on board b. Expands cells whose cost is <= budget_ft
 * (use PATH_NO_BUDGET for none). If goal >= 0 the search stops as soon as the
 * goal is settled. Returns the number of cells settled. */
#define PATH_NO_BUDGET 0x3fffffff
int path_run(path_search_t *ps, const board_t *b, int start, int budget_ft, int goal,
             path_cost_fn cost, void *ud);
/* path_run with no goal that keeps the steps beyond its budget queued (a
 * little dearer), so that path_resume can carry it on. */
int path_run_open(path_search_t *ps, const board_t *b, int start, int budget_ft, path_cost_fn cost,
                  void *ud);
/* Carry the last path_run_open (or path_resume) on to a budget of budget_ft,
 * with the same board, cost and ud, as if path_run had been called with that
 * budget: the same cells settled in the same order with the same costs and
 * parents, and path_budget_cut as that run would leave it; only the cells
 * beyond the old budget are searched. (After a plain path_run, or to a
 * smaller budget, it runs afresh from the same start.) Returns the number of
 * cells settled. */
int path_resume(path_search_t *ps, const board_t *b, int budget_ft, path_cost_fn cost, void *ud);
/* Cheapest cost found to cell idx in the last run, or -1 if not reached. */
int path_cost(const path_search_t *ps, int idx);
/* Cells settled by the last run, in order of increasing cost; *out points into ps. */
int path_settled(const path_search_t *ps, const int **out);
/* Cells of the cheapest path start..idx (both included) into out; returns the
 * count (0 if unreached), writing at most cap. */
int path_extract(const path_search_t *ps, int idx, int *out, int cap);
/* Did the last run stop short of a cell for its budget alone? When not,
 * every cell reachable at any budget was settled, so a bigger budget finds
 * nothing more (a goal walled off is not searched for again and again). */
bool path_budget_cut(const path_search_t *ps);
/* Predecessor of idx on its cheapest path in the last run; -1 for the start or
 * an unreached cell (lets callers walk a path without a scratch buffer). */
int path_parent(const path_search_t *ps, int idx);

/* The ordinary cost of moving combatant `who`: terrain move x feet_per_hex,
 * impassable and enemy-held hexes refused, allies passed through. */
typedef struct {
    const board_t *b;
    int who;
} path_mover_t;
int path_move_cost(void *ud, int from, int to);

#endif
