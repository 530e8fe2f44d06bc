/* odds_pool.c - odds runs on the platform layer's threads (see odds_pool.h).
 *
 * One mutex guards the slots, the jobs' counters, their rings and tallies;
 * a run itself is played outside it, on the worker's own battle, reading
 * only the job's base (fixed once the job starts). Finished runs wait in a
 * ring until every earlier run has finished, then join the tally in index
 * order; a worker does not take a run further than the ring ahead of the
 * oldest unfinished one, so the ring never overflows.
 */
#include "odds_pool.h"

#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "platform/platform.h"

/* Runs that may finish ahead of the oldest unfinished one. */
#define RING 1024

typedef struct {
    bool done;
    odds_outcome_t o;
    int base_winner;
} rec_t;

typedef struct job {
    int refs;     /* the slot's, plus one per worker playing one of its runs */
    bool dropped; /* no longer in its slot: results are thrown away */
    odds_base_t base;
    int *dice;
    cmd_t *cmds;
    bool has_alt;
    cmd_t alt;
    uint64_t seed;
    long runs, next, frontier; /* runs to play, next to hand out, next to count */
    rec_t ring[RING];
    bool *defeated; /* RING x n flags */
    int n;
    odds_tally_t tally;
    double t0, t1;
    int first_failure;
    battle_status_t failure;
    char error[BATTLE_FAULT_MAX];
} job_t;

struct odds_pool {
    hb_mutex_t *mu;
    hb_cond_t *work;  /* a run may be handed out, or quit */
    hb_cond_t *moved; /* some job's count moved on */
    job_t *slot[ODDS_POOL_SLOTS];
    bool quit;
    int threads;
    hb_thread_t *tid[ODDS_MAX_THREADS];
};

static double now_ms(void)
{
    return hb_plat_now_ms();
}

int odds_cpu_count(void)
{
    int n = hb_plat_cpu_count();
    return n > ODDS_MAX_THREADS ? ODDS_MAX_THREADS : n;
}

static void job_free(job_t *j)
{
    if (!j) return;
    free(j->dice);
    free(j->cmds);
    free(j->defeated);
    free(j);
}

/* Drop one reference (under the lock). */
static void job_release(job_t *j)
{
    if (--j->refs == 0) job_free(j);
}

/* The job a worker should take its next run from, or NULL. */
static job_t *pick(odds_pool_t *pool)
{
    for (int s = ODDS_POOL_SLOTS - 1; s >= 0; s--) {
        job_t *j = pool->slot[s];
        if (j && j->next < j->runs && j->next < j->frontier + RING) return j;
    }
    return NULL;
}

/* Count the finished runs at the front of the ring (under the lock). */
static void advance(odds_pool_t *pool, job_t *j)
{
    bool moved = false;
    while (j->frontier < j->runs) {
        long k = j->frontier % RING;
        rec_t *r = &j->ring[k];
        if (!r->done) break;
        odds_tally_add(&j->tally, r->o, j->defeated + k * j->n, r->base_winner);
        r->done = false;
        j->frontier++;
        moved = true;
    }
    if (!moved) return;
    if (j->frontier == j->runs) j->t1 = now_ms();
    hb_cond_broadcast(pool->moved);
    hb_cond_broadcast(pool->work); /* the ring has room again */
}

/* One run k of job j on the worker's battle p: its outcome, the defeated
 * flags into def, the plain run's winner into *base_winner (paired jobs). */
static battle_status_t play_run(play_t *p, const job_t *j, long k, odds_outcome_t *o, bool *def,
                                int *base_winner)
{
    uint64_t seed = odds_run_seed(j->seed, k);
    *base_winner = -1;
    *o = (odds_outcome_t){.ok = false, .winner = -1};
    battle_status_t st;
    if (j->has_alt) {
        st = odds_play(p, &j->base, NULL, seed);
        if (st != BATTLE_OK) return st;
        *base_winner = odds_outcome(p->b, def).winner;
    }
    st = odds_play(p, &j->base, j->has_alt ? &j->alt : NULL, seed);
    if (st != BATTLE_OK) return st;
    *o = odds_outcome(p->b, def);
    return BATTLE_OK;
}

static void *worker(void *arg)
{
    odds_pool_t *pool = arg;
    play_t p;
    memset(&p, 0, sizeof p);
    bool def[MAP_MAX_COMBATANTS];
    hb_mutex_lock(pool->mu);
    for (;;) {
        job_t *j = NULL;
        while (!pool->quit && !(j = pick(pool)))
            hb_cond_wait(pool->work, pool->mu);
        if (pool->quit) break;
        long k = j->next++;
        j->refs++;
        hb_mutex_unlock(pool->mu);

        odds_outcome_t o;
        int base_winner;
        memset(def, 0, sizeof def);
        battle_status_t st = play_run(&p, j, k, &o, def, &base_winner);

        hb_mutex_lock(pool->mu);
        if (!j->dropped) {
            rec_t *r = &j->ring[k % RING];
            r->o = o;
            r->base_winner = base_winner;
            r->done = true;
            memcpy(j->defeated + (k % RING) * j->n, def, sizeof *def * (size_t)j->n);
            if (st != BATTLE_OK && (j->first_failure < 0 || k < j->first_failure)) {
                j->first_failure = (int)k;
                j->failure = st;
                hb_strlcpy(j->error, p.error, sizeof j->error);
            }
            advance(pool, j);
        }
        job_release(j);
    }
    hb_mutex_unlock(pool->mu);
    play_end(&p);
    return NULL;
}

odds_pool_t *odds_pool_create(int threads)
{
    if (threads < 1 || threads > ODDS_MAX_THREADS) return NULL;
    odds_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->mu = hb_mutex_create();
    pool->work = hb_cond_create();
    pool->moved = hb_cond_create();
    if (!pool->mu || !pool->work || !pool->moved) {
        hb_cond_destroy(pool->work);
        hb_cond_destroy(pool->moved);
        hb_mutex_destroy(pool->mu);
        free(pool);
        return NULL;
    }
    for (int t = 0; t < threads; t++) {
        if (!(pool->tid[t] = hb_thread_start(worker, pool))) {
            odds_pool_destroy(pool);
            return NULL;
        }
        pool->threads++;
    }
    return pool;
}

/* Empty slot s (under the lock). */
static void drop(odds_pool_t *pool, int s)
{
    job_t *j = pool->slot[s];
    if (!j) return;
    pool->slot[s] = NULL;
    j->dropped = true;
    job_release(j);
    hb_cond_broadcast(pool->moved);
}

void odds_pool_destroy(odds_pool_t *pool)
{
    if (!pool) return;
    hb_mutex_lock(pool->mu);
    for (int s = 0; s < ODDS_POOL_SLOTS; s++)
        drop(pool, s);
    pool->quit = true;
    hb_cond_broadcast(pool->work);
    hb_mutex_unlock(pool->mu);
    for (int t = 0; t < pool->threads; t++)
        hb_thread_join(pool->tid[t]);
    hb_cond_destroy(pool->work);
    hb_cond_destroy(pool->moved);
    hb_mutex_destroy(pool->mu);
    free(pool);
}

/* A job for base (copied), or NULL on OOM. */
static job_t *job_make(const odds_base_t *base, const cmd_t *alt, uint64_t seed, long runs)
{
    job_t *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->base = *base;
    j->n = base->map->n_combatants;
    j->dice = malloc(sizeof *j->dice * (size_t)(base->n_dice + 1));
    j->cmds = malloc(sizeof *j->cmds * (size_t)(base->n_cmds + 1));
    j->defeated = calloc((size_t)RING * (size_t)(j->n + 1), sizeof *j->defeated);
    if (!j->dice || !j->cmds || !j->defeated) {
        job_free(j);
        return NULL;
    }
    if (base->n_dice) memcpy(j->dice, base->dice, sizeof *j->dice * (size_t)base->n_dice);
    if (base->n_cmds) memcpy(j->cmds, base->cmds, sizeof *j->cmds * (size_t)base->n_cmds);
    j->base.dice = j->dice;
    j->base.cmds = j->cmds;
    j->has_alt = alt != NULL;
    if (alt) j->alt = *alt;
    j->seed = seed;
    j->runs = runs;
    j->first_failure = -1;
    j->refs = 1;
    /* Every side a board can have: the reader knows how many this one has. */
    odds_tally_init(&j->tally, MAP_MAX_FACTIONS, j->n, j->has_alt);
    return j;
}

bool odds_pool_start(odds_pool_t *pool, int slot, const odds_base_t *base, const cmd_t *alt,
                     uint64_t seed, long runs)
{
    if (slot < 0 || slot >= ODDS_POOL_SLOTS) return false;
    odds_pool_stop(pool, slot);
    if (runs < 1 || runs > ODDS_MAX_RUNS) return false;
    job_t *j = job_make(base, alt, seed, runs);
    if (!j) return false;
    hb_mutex_lock(pool->mu);
    j->t0 = now_ms();
    pool->slot[slot] = j;
    hb_cond_broadcast(pool->work);
    hb_mutex_unlock(pool->mu);
    return true;
}

void odds_pool_stop(odds_pool_t *pool, int slot)
{
    if (slot < 0 || slot >= ODDS_POOL_SLOTS) return;
    hb_mutex_lock(pool->mu);
    drop(pool, slot);
    hb_mutex_unlock(pool->mu);
}

void odds_pool_read(odds_pool_t *pool, int slot, odds_progress_t *out)
{
    memset(out, 0, sizeof *out);
    out->first_failure = -1;
    if (slot < 0 || slot >= ODDS_POOL_SLOTS) return;
    hb_mutex_lock(pool->mu);
    const job_t *j = pool->slot[slot];
    if (j) {
        out->active = true;
        out->done = j->frontier == j->runs;
        out->target = j->runs;
        out->tally = j->tally;
        out->ms = (out->done ? j->t1 : now_ms()) - j->t0;
        out->first_failure = j->first_failure;
        out->failure = j->failure;
        hb_strlcpy(out->error, j->error, sizeof out->error);
    }
    hb_mutex_unlock(pool->mu);
}

bool odds_pool_busy(odds_pool_t *pool, int slot)
{
    if (slot < 0 || slot >= ODDS_POOL_SLOTS) return false;
    hb_mutex_lock(pool->mu);
    const job_t *j = pool->slot[slot];
    bool busy = j && j->frontier < j->runs;
    hb_mutex_unlock(pool->mu);
    return busy;
}

void odds_pool_wait(odds_pool_t *pool, int slot)
{
    if (slot < 0 || slot >= ODDS_POOL_SLOTS) return;
    hb_mutex_lock(pool->mu);
    for (;;) {
        const job_t *j = pool->slot[slot];
        if (!j || j->frontier >= j->runs) break;
        hb_cond_wait(pool->moved, pool->mu);
    }
    hb_mutex_unlock(pool->mu);
}

bool odds_run_all(const odds_base_t *base, const cmd_t *alt, uint64_t seed, long runs, int threads,
                  odds_progress_t *out)
{
    odds_pool_t *pool = odds_pool_create(threads);
    if (!pool) return false;
    bool ok = odds_pool_start(pool, 0, base, alt, seed, runs);
    if (ok) {
        odds_pool_wait(pool, 0);
        odds_pool_read(pool, 0, out);
    }
    odds_pool_destroy(pool);
    return ok;
}
