/* odds_pool.h - odds runs (src/rules/odds.h) on worker threads.
 *
 * A pool owns T POSIX threads, each with a battle of its own, so the core
 * and the rules, which keep no state outside a battle, run on all of them
 * at once. A job is a base, a seed and a number of runs (optionally "what
 * if": every run played twice from the same seed, plain and with a command
 * first). Workers take run indices in order; a run's outcome joins the
 * job's tally once every run before it has, so the tally read at any moment
 * is that of runs 0..k-1 - an unbiased answer that only grows more precise,
 * and at the end the same whatever the thread count.
 *
 * A pool has ODDS_POOL_SLOTS job slots; the workers serve the highest slot
 * with runs left first (the play window's "what if" before its baseline).
 * Starting a job in a slot drops the one there without waiting for it: a
 * worker still busy with a run of the old job finishes that run and throws
 * it away. Only the thread that created the pool calls these functions.
 */
#ifndef HB_IO_ODDS_POOL_H
#define HB_IO_ODDS_POOL_H

#include <stdbool.h>

#include "../rules/odds.h"

#define ODDS_POOL_SLOTS 2
#define ODDS_MAX_THREADS 64
#define ODDS_MAX_RUNS 1000000L

typedef struct odds_pool odds_pool_t;

/* What a slot's job has come to so far. */
typedef struct {
    bool active;       /* a job is in the slot */
    bool done;         /* every run of it is counted */
    long target;       /* runs it will play */
    odds_tally_t tally; /* runs 0..tally.runs-1 */
    double ms;         /* wall time from its start to now, or to its end when done */
    int first_failure; /* index of the first failed run, -1 for none */
    battle_status_t failure; /* how that run failed */
    char error[BATTLE_FAULT_MAX]; /* and its message, if any */
} odds_progress_t;

/* The number of processors online (at least 1, at most ODDS_MAX_THREADS). */
int odds_cpu_count(void);
/* A pool of `threads` workers (1..ODDS_MAX_THREADS), idle until a job
 * starts. NULL when the threads or memory cannot be had. */
odds_pool_t *odds_pool_create(int threads);
/* Drop every job, stop and join the workers, free everything (NULL is fine). */
void odds_pool_destroy(odds_pool_t *pool);
/* Start a job in slot (0..ODDS_POOL_SLOTS-1), replacing any job there: runs
 * (1..ODDS_MAX_RUNS) runs from base with run k rolling from
 * odds_run_seed(seed, k); with alt set, each run is paired with the run
 * from the same seed that applies *alt first (the tally is then paired).
 * The base's map, data and ruleset are borrowed until the job is dropped
 * and the pool idle (or destroyed); its dice and commands are copied. False
 * on OOM (the slot is then empty). */
bool odds_pool_start(odds_pool_t *pool, int slot, const odds_base_t *base, const cmd_t *alt,
                     uint64_t seed, long runs);
/* Drop the job in slot (nothing when empty). */
void odds_pool_stop(odds_pool_t *pool, int slot);
/* What slot's job has come to (a copy taken under the pool's lock). */
void odds_pool_read(odds_pool_t *pool, int slot, odds_progress_t *out);
/* Is the job in slot still counting runs? */
bool odds_pool_busy(odds_pool_t *pool, int slot);
/* Block until slot's job is done (returns at once when the slot is empty). */
void odds_pool_wait(odds_pool_t *pool, int slot);
/* Play `runs` runs from base on `threads` threads and wait for them: the
 * whole answer in *out. False on OOM or when the threads cannot start. */
bool odds_run_all(const odds_base_t *base, const cmd_t *alt, uint64_t seed, long runs, int threads,
                  odds_progress_t *out);

#endif
