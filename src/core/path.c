/* path.c - one Dijkstra over a bucket queue (see path.h).
 *
 * Step costs are small whole numbers of feet, so the open set is a ring of
 * buckets indexed by cost modulo NBUCKETS, each a doubly linked list threaded
 * through per-cell arrays (so lowering a cell's cost is an O(1) unlink/link).
 * Every queued cost lies in [cur, cur + largest step], so while steps stay
 * below NBUCKETS a bucket only ever holds cells of one exact cost. A callback
 * that returns a larger step still works: cells are matched on exact cost and
 * the cursor jumps to the cheapest queued cell after a whole empty lap.
 */
#include "path.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 1024 /* a power of two, far above 2 x feet_per_hex */

enum { UNSEEN = 0, QUEUED = 1, SETTLED = 2 };

struct path_search {
    int ncells;
    int *cost;        /* tentative or final cost per cell; valid when state != UNSEEN */
    int *parent;      /* predecessor on the cheapest path, -1 for the start */
    int *next, *prev; /* bucket list links of queued cells */
    uint8_t *state;
    int *touched;     /* every cell given a cost by the last run */
    int n_touched;
    int *settled;     /* cells in the order they were settled */
    int n_settled;
    /* The dearest cost a step beyond the budget of its time led to
     * (PATH_NO_BUDGET + 1 for beyond any budget): the run refused a step for
     * its budget when that is above the budget. */
    int far, budget;
    bool keep; /* path_run_open: steps beyond the budget are queued, not dropped */
    /* Where the last run stopped, for path_resume: its start, the cost it had
     * reached, the queue's size and the empty buckets passed since the last
     * settled cell, and whether it may go on (it stopped for its budget, not
     * at a goal, on a board of cols x rows). */
    int start, cur, queued, misses, cols, rows;
    bool resumable;
    int head[NBUCKETS];
};

path_search_t *path_search_create(int ncells)
{
    if (ncells < 1)
        return NULL;
    path_search_t *ps = calloc(1, sizeof *ps);
    if (!ps)
        return NULL;
    size_t n = (size_t)ncells;
    ps->ncells = ncells;
    ps->cost = malloc(n * sizeof *ps->cost);
    ps->parent = malloc(n * sizeof *ps->parent);
    ps->next = malloc(n * sizeof *ps->next);
    ps->prev = malloc(n * sizeof *ps->prev);
    ps->state = calloc(n, sizeof *ps->state);
    ps->touched = malloc(n * sizeof *ps->touched);
    ps->settled = malloc(n * sizeof *ps->settled);
    if (!ps->cost || !ps->parent || !ps->next || !ps->prev || !ps->state || !ps->touched ||
        !ps->settled) {
        path_search_destroy(ps);
        return NULL;
    }
    for (int k = 0; k < NBUCKETS; k++)
        ps->head[k] = -1;
    return ps;
}

void path_search_destroy(path_search_t *ps)
{
    if (!ps)
        return;
    free(ps->cost);
    free(ps->parent);
    free(ps->next);
    free(ps->prev);
    free(ps->state);
    free(ps->touched);
    free(ps->settled);
    free(ps);
}

/* Forget the previous run, visiting only the cells it touched. Every bucket
 * is empty but those of cells still queued (a run stopped at its goal), so
 * only theirs are emptied. */
static void reset(path_search_t *ps)
{
    for (int k = 0; k < ps->n_touched; k++) {
        int c = ps->touched[k];
        if (ps->state[c] == QUEUED) ps->head[ps->cost[c] & (NBUCKETS - 1)] = -1;
        ps->state[c] = UNSEEN;
    }
    ps->n_touched = 0;
    ps->n_settled = 0;
    ps->far = 0;
    ps->budget = 0;
}

/* Offsets (columns, rows) from a cell to its neighbour in each direction, by
 * the parity of its row (pointy) or column (flat): the same neighbours as
 * hex_neighbor, without converting each cell to a hex and back. */
typedef struct {
    int dcol[2][HEX_DIRS], drow[2][HEX_DIRS];
    bool by_row; /* pointy: the row's parity picks the offsets */
} nbr_steps_t;

static nbr_steps_t nbr_steps(hex_layout_t lay)
{
    nbr_steps_t s;
    s.by_row = lay.orient == HEX_POINTY;
    for (int par = 0; par < 2; par++) {
        cell_t c0 = {2 + (s.by_row ? 0 : par), 2 + (s.by_row ? par : 0)};
        hex_t h0 = hex_from_cell(lay, c0);
        for (int d = 0; d < HEX_DIRS; d++) {
            cell_t c1 = hex_to_cell(lay, hex_neighbor(h0, d));
            s.dcol[par][d] = c1.col - c0.col;
            s.drow[par][d] = c1.row - c0.row;
        }
    }
    return s;
}

static void bucket_link(path_search_t *ps, int c)
{
    int bucket = ps->cost[c] & (NBUCKETS - 1);
    int h = ps->head[bucket];
    ps->prev[c] = -1;
    ps->next[c] = h;
    if (h >= 0)
        ps->prev[h] = c;
    ps->head[bucket] = c;
}

static void bucket_unlink(path_search_t *ps, int c)
{
    int bucket = ps->cost[c] & (NBUCKETS - 1);
    if (ps->prev[c] >= 0)
        ps->next[ps->prev[c]] = ps->next[c];
    else
        ps->head[bucket] = ps->next[c];
    if (ps->next[c] >= 0)
        ps->prev[ps->next[c]] = ps->prev[c];
}

/* A queued cell of exactly cost cur, or -1. */
static int pop_at(const path_search_t *ps, int cur)
{
    for (int c = ps->head[cur & (NBUCKETS - 1)]; c >= 0; c = ps->next[c])
        if (ps->cost[c] == cur)
            return c;
    return -1;
}

/* Cheapest queued cost; only needed after a step longer than the ring. */
static int min_queued(const path_search_t *ps)
{
    int best = PATH_NO_BUDGET;
    for (int k = 0; k < NBUCKETS; k++)
        for (int c = ps->head[k]; c >= 0; c = ps->next[c])
            if (ps->cost[c] < best)
                best = ps->cost[c];
    return best;
}

/* Settle cells in order of cost from where the run stands, up to cost
 * budget_ft (a goal >= 0 stops it once settled). ps->far notes a step beyond
 * the budget. An open run (ps->keep) still queues it, so path_resume can
 * carry on; such a cell costs more than the budget and is never settled, so
 * the cells settled,
 * their order, costs and parents are those of a run that refused the step
 * (a bucket holds cells of several costs only apart by a multiple of the
 * ring, and pop_at matches the exact cost, so order within a cost is kept). */
static void expand(path_search_t *ps, const board_t *b, int budget_ft, int goal, path_cost_fn cost,
                   void *ud)
{
    const int cols = b->map->cols, rows = b->map->rows;
    int queued = ps->queued, cur = ps->cur, misses = ps->misses;
    const nbr_steps_t steps = nbr_steps(b->map->layout);
    ps->resumable = false;
    ps->budget = budget_ft;

    while (queued > 0) {
        if (cur > budget_ft) {
            ps->resumable = true; /* only cells beyond the budget are left */
            break;
        }
        int c = pop_at(ps, cur);
        if (c < 0) {
            if (++misses >= NBUCKETS) {
                cur = min_queued(ps);
                misses = 0;
            } else {
                cur++;
            }
            continue;
        }
        misses = 0;
        bucket_unlink(ps, c);
        queued--;
        ps->state[c] = SETTLED;
        ps->settled[ps->n_settled++] = c;
        if (c == goal)
            break;

        int col = c % cols, row = c / cols, par = (steps.by_row ? row : col) & 1;
        for (int d = 0; d < HEX_DIRS; d++) {
            int ncol = col + steps.dcol[par][d], nrow = row + steps.drow[par][d];
            if (ncol < 0 || nrow < 0 || ncol >= cols || nrow >= rows)
                continue;
            int n = nrow * cols + ncol;
            if (ps->state[n] == SETTLED)
                continue;
            int step = cost(ud, c, n);
            /* Written as subtractions so a huge step cannot overflow. */
            if (step < 0) continue;
            if (step > budget_ft - cur) {
                int over = step > PATH_NO_BUDGET - cur ? PATH_NO_BUDGET + 1 : cur + step;
                if (over > ps->far) ps->far = over;
                if (!ps->keep || over > PATH_NO_BUDGET) continue;
            }
            int nc = cur + step;
            if (ps->state[n] == UNSEEN) {
                ps->state[n] = QUEUED;
                ps->touched[ps->n_touched++] = n;
                queued++;
            } else if (nc < ps->cost[n]) {
                bucket_unlink(ps, n);
            } else {
                continue;
            }
            ps->cost[n] = nc;
            ps->parent[n] = c;
            bucket_link(ps, n);
        }
    }
    ps->queued = queued;
    ps->cur = cur;
    ps->misses = misses;
    if (queued == 0) ps->resumable = true; /* all settled: nothing more to find */
}

/* path_run, and for path_run_open (keep) a run path_resume may carry on. */
static int run(path_search_t *ps, const board_t *b, int start, int budget_ft, int goal,
               path_cost_fn cost, void *ud, bool keep)
{
    reset(ps);
    ps->resumable = false;
    ps->keep = keep;
    const int cols = b->map->cols, rows = b->map->rows, ncells = cols * rows;
    if (ncells > ps->ncells || start < 0 || start >= ncells || budget_ft < 0)
        return 0;
    if (budget_ft > PATH_NO_BUDGET)
        budget_ft = PATH_NO_BUDGET;

    ps->cost[start] = 0;
    ps->parent[start] = -1;
    ps->state[start] = QUEUED;
    ps->touched[ps->n_touched++] = start;
    bucket_link(ps, start);
    ps->start = start;
    ps->cols = cols;
    ps->rows = rows;
    ps->queued = 1;
    ps->cur = 0;
    ps->misses = 0;
    expand(ps, b, budget_ft, goal, cost, ud);
    if (!keep) ps->resumable = false; /* the steps beyond the budget were dropped */
    return ps->n_settled;
}

int path_run(path_search_t *ps, const board_t *b, int start, int budget_ft, int goal,
             path_cost_fn cost, void *ud)
{
    return run(ps, b, start, budget_ft, goal, cost, ud, false);
}

int path_run_open(path_search_t *ps, const board_t *b, int start, int budget_ft, path_cost_fn cost,
                  void *ud)
{
    return run(ps, b, start, budget_ft, -1, cost, ud, true);
}

int path_resume(path_search_t *ps, const board_t *b, int budget_ft, path_cost_fn cost, void *ud)
{
    if (budget_ft > PATH_NO_BUDGET)
        budget_ft = PATH_NO_BUDGET;
    if (!ps->resumable || budget_ft < ps->budget || b->map->cols != ps->cols ||
        b->map->rows != ps->rows)
        return ps->n_touched ? path_run_open(ps, b, ps->start, budget_ft, cost, ud) : 0;
    expand(ps, b, budget_ft, -1, cost, ud);
    return ps->n_settled;
}

int path_cost(const path_search_t *ps, int idx)
{
    if (idx < 0 || idx >= ps->ncells || ps->state[idx] != SETTLED)
        return -1;
    return ps->cost[idx];
}

int path_settled(const path_search_t *ps, const int **out)
{
    *out = ps->settled;
    return ps->n_settled;
}

bool path_budget_cut(const path_search_t *ps)
{
    return ps->far > ps->budget;
}

int path_parent(const path_search_t *ps, int idx)
{
    if (idx < 0 || idx >= ps->ncells || ps->state[idx] != SETTLED)
        return -1;
    return ps->parent[idx];
}

int path_extract(const path_search_t *ps, int idx, int *out, int cap)
{
    if (path_cost(ps, idx) < 0)
        return 0;
    int n = 0;
    for (int c = idx; c >= 0; c = ps->parent[c])
        n++;
    int k = n;
    for (int c = idx; c >= 0; c = ps->parent[c])
        if (--k < cap)
            out[k] = c;
    return n;
}

int path_move_cost(void *ud, int from, int to)
{
    const path_mover_t *mv = ud;
    const board_t *b = mv->b;
    (void)from;
    const terrain_t *t = &b->map->types[b->map->cells[to]];
    if (t->move <= 0)
        return -1;
    int who = b->occ[to];
    /* occ holds only combatants on the board, so no present[] check is needed. */
    if (who >= 0 && who != mv->who && !board_allies(b, who, mv->who))
        return -1;
    return t->move * b->map->feet_per_hex;
}
