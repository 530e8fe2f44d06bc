/* odds.h - who is likely to win from here: the rest of a battle played out
 * many times with the AI on every side, and the outcomes counted
 * (docs/odds.md).
 *
 * A base is where the runs start: a map's first moment (each run is then a
 * whole battle, the very one `simulate --seed` plays with the run's seed) or
 * a battle as it stands (its options, entered dice and commands, rebuilt
 * exactly, after which the run's own dice take over). Run k of a job with
 * seed S rolls from seed S + k, so the answer depends on the seed and the
 * number of runs only, never on which thread played which run or in what
 * order they finished. A "what if" run applies one command first, with the
 * run's dice; played beside the plain run of the same seed (common random
 * numbers), the two differ by that command and its consequences, not by luck.
 *
 * Nothing here knows a ruleset: the runs go through play.h and the AI of
 * every side. Nothing here keeps state outside the play_t it is given, so
 * each thread playing runs on its own play_t is safe (src/io/odds_pool.h).
 */
#ifndef HB_ODDS_H
#define HB_ODDS_H

#include <stdint.h>

#include "play.h"

/* The round limit of a run when the base names none: simulate's default. */
#define ODDS_MAX_ROUNDS 100
/* 1.96: the normal quantile of a two-sided 95% interval. */
#define ODDS_Z95 1.959963984540054

/* Where the runs start. The pointers are borrowed (a job copies them). */
typedef struct {
    const map_t *map;
    const tmpl_db_t *db;
    const ruleset_t *rs;    /* NULL: the map's own */
    bool from_start;        /* the map's first moment: each run is a whole battle */
    battle_opts_t opts;     /* the battle's options (its own seed; unused from the start) */
    const int *dice;        /* hand-entered dice the commands used, in order */
    int n_dice;
    const cmd_t *cmds;      /* accepted commands, in order */
    int n_cmds;
    int max_rounds;         /* round limit of every run; 0: ODDS_MAX_ROUNDS */
} odds_base_t;

/* The seed run k of a job with seed `seed` rolls from. */
static inline uint64_t odds_run_seed(uint64_t seed, long k)
{
    return seed + (uint64_t)k;
}

/* The base of battle p as it stands (borrowing its map, data, dice and
 * commands): what the play window's odds start from. A command waiting for
 * dice is not part of it. */
odds_base_t odds_base_of(const play_t *p);

/* Play one run from base into p (p starts zeroed; pass the same p for the
 * next run and its battle is reused), with dice from run_seed and, when
 * first is not NULL, that command applied before the AI takes over. BATTLE_OK
 * with p->b played out (over, or stopped by the round limit); otherwise the
 * run could not be played: BATTLE_ILLEGAL (the base does not rebuild, or
 * `first` is not allowed there), BATTLE_ERROR (p->error), BATTLE_NOMEM. */
battle_status_t odds_play(play_t *p, const odds_base_t *base, const cmd_t *first,
                          uint64_t run_seed);

/* What one run came to, in a form a tally adds up. */
typedef struct {
    bool ok;        /* played out (else counted as failed) */
    int winner;     /* board side, -1 for none */
    int rounds;     /* the battle's round at its end (counted from its start) */
} odds_outcome_t;

/* The outcome of battle b as a run left it; defeated[i] (n entries) is set
 * to whether combatant i ended the battle defeated (out of the fight, and
 * not by fleeing). */
odds_outcome_t odds_outcome(const battle_t *b, bool *defeated);

/* Counts over runs. `win` and `rounds` and `out` are those of the runs as
 * played (with the "what if" command, in a paired job); base_win and the
 * diff sums compare paired runs: d = (alt run won) - (plain run won), per
 * side. */
typedef struct {
    long runs;                    /* runs counted, failed ones included */
    long failed;                  /* runs that could not be played */
    int n_sides, n;               /* sides of the board, combatants */
    long win[MAP_MAX_FACTIONS];
    long none;                    /* no winner: nobody left, or the round limit */
    long long rounds_sum, rounds_sq;
    long out[MAP_MAX_COMBATANTS]; /* runs in which combatant i was defeated */
    bool paired;
    long base_win[MAP_MAX_FACTIONS];
    long base_none;
    long diff_sum[MAP_MAX_FACTIONS], diff_sq[MAP_MAX_FACTIONS];
} odds_tally_t;

/* An empty tally for a battle of n_sides sides and n combatants. */
void odds_tally_init(odds_tally_t *t, int n_sides, int n, bool paired);
/* Count one run: its outcome (ok false: failed), the combatants it left
 * defeated (n flags) and, for a paired tally, the plain run's winner. */
void odds_tally_add(odds_tally_t *t, odds_outcome_t o, const bool *defeated, int base_winner);

/* Runs that were played out (the denominator of every share). */
static inline long odds_played(const odds_tally_t *t)
{
    return t->runs - t->failed;
}
/* A share k/n with its 95% Wilson score interval [lo, hi] (0/0: 0, [0, 1]). */
double odds_share(long k, long n, double *lo, double *hi);
/* Mean and sample standard deviation of the rounds played out. */
void odds_rounds(const odds_tally_t *t, double *mean, double *sd);
/* The paired difference of side s's win share (alt - plain) with its 95%
 * interval half-width; 0 and 0 when the tally is not paired or empty. */
double odds_diff(const odds_tally_t *t, int s, double *half_width);

#endif
