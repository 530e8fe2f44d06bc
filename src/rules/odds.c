/* odds.c - runs from a base, and their tally (see odds.h). */
#include "odds.h"

#include <math.h>
#include <string.h>

odds_base_t odds_base_of(const play_t *p)
{
    const battle_t *b = p->b;
    return (odds_base_t){
        .map = b->src_map,
        .db = b->db,
        .rs = p->rs,
        .from_start = false,
        .opts = b->opts,
        .dice = b->dice.entered,
        /* Values typed in for a command still waiting are not the base's. */
        .n_dice = b->dice.cursor,
        .cmds = b->cmds.c,
        .n_cmds = b->cmds.n,
        .max_rounds = b->opts.max_rounds,
    };
}

/* p's battle set up for base's map, data and ruleset (made on first use). */
static battle_status_t ensure_battle(play_t *p, const odds_base_t *base)
{
    const ruleset_t *rs = base->rs ? base->rs : ruleset_find(base->map->ruleset);
    if (!rs || !rs->setup) return BATTLE_ILLEGAL;
    if (p->b && p->rs == rs && p->b->src_map == base->map && p->b->db == base->db)
        return BATTLE_OK;
    play_end(p);
    /* The options are set again before every run; these only size things. */
    battle_opts_t opts = {.seed = 0};
    play_t fresh;
    battle_status_t st = play_start(&fresh, base->map, base->db, rs, &opts);
    if (!fresh.b) {
        hb_strlcpy(p->error, fresh.error, sizeof p->error);
        return st == BATTLE_OK ? BATTLE_NOMEM : st;
    }
    *p = fresh;
    return BATTLE_OK;
}

/* The battle's options and dice source set to o, with no entered dice and
 * no commands. */
static void set_options(battle_t *b, const battle_opts_t *o)
{
    b->opts = *o;
    b->dice.seed = o->seed;
    b->dice.manual_all = o->manual_all;
    b->dice.manual_sides = o->manual_sides;
    b->dice.n_entered = 0;
    b->dice.cursor = 0;
    b->cmds.n = 0;
}

battle_status_t odds_play(play_t *p, const odds_base_t *base, const cmd_t *first,
                          uint64_t run_seed)
{
    battle_status_t st = ensure_battle(p, base);
    if (st != BATTLE_OK) return st;
    battle_t *b = p->b;
    int max_rounds = base->max_rounds > 0 ? base->max_rounds : ODDS_MAX_ROUNDS;
    p->pending = p->setup_pending = false;
    p->error[0] = 0;
    if (base->from_start) {
        /* The whole battle from its first roll: what simulate plays. */
        battle_opts_t o = {.seed = run_seed, .max_rounds = max_rounds};
        set_options(b, &o);
    } else {
        set_options(b, &base->opts);
        for (int k = 0; k < base->n_dice; k++)
            if (!dice_enter(&b->dice, base->dice[k])) return BATTLE_NOMEM;
        for (int k = 0; k < base->n_cmds; k++)
            if (!cmd_push(&b->cmds, &base->cmds[k])) return BATTLE_NOMEM;
    }
    st = play_rebuild(p);
    if (st == BATTLE_ERROR || st == BATTLE_NOMEM) return st;
    if (st != BATTLE_OK || p->setup_pending) return BATTLE_ILLEGAL;
    if (!base->from_start) {
        /* From here on the AI answers every question and the run's own
         * generator rolls every die. */
        b->opts.manual_all = false;
        b->opts.manual_sides = 0;
        b->opts.ask_sides = 0;
        b->opts.decline_sides = 0;
        b->opts.max_rounds = max_rounds;
        b->dice.manual_all = false;
        b->dice.manual_sides = 0;
        b->dice.n_entered = b->dice.cursor;
        rng_seed(&b->dice.rng, run_seed);
    }
    if (first && !b->over) {
        st = play_apply(p, first);
        if (st != BATTLE_OK) return st == BATTLE_NEED_DICE || st == BATTLE_NEED_REACTION ||
                                            st == BATTLE_OVER
                                        ? BATTLE_ILLEGAL
                                        : st;
    }
    return b->over ? BATTLE_OK : play_auto(p, max_rounds);
}

odds_outcome_t odds_outcome(const battle_t *b, bool *defeated)
{
    odds_outcome_t o = {.ok = true, .winner = b->over ? b->winner : -1, .rounds = b->round};
    for (int i = 0; i < b->n; i++)
        defeated[i] = b->u[i].out;
    /* Out of the fight by fleeing is not defeat, unless defeat came after. */
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if ((e->type == EV_FLED || e->type == EV_DEFEATED) && e->who >= 0 && e->who < b->n)
            defeated[e->who] = b->u[e->who].out && e->type == EV_DEFEATED;
    }
    return o;
}

void odds_tally_init(odds_tally_t *t, int n_sides, int n, bool paired)
{
    memset(t, 0, sizeof *t);
    t->n_sides = n_sides < MAP_MAX_FACTIONS ? n_sides : MAP_MAX_FACTIONS;
    t->n = n < MAP_MAX_COMBATANTS ? n : MAP_MAX_COMBATANTS;
    t->paired = paired;
}

/* 1 when side s is winner w. */
static int won(int w, int s)
{
    return w == s;
}

void odds_tally_add(odds_tally_t *t, odds_outcome_t o, const bool *defeated, int base_winner)
{
    t->runs++;
    if (!o.ok) {
        t->failed++;
        return;
    }
    if (o.winner >= 0 && o.winner < t->n_sides)
        t->win[o.winner]++;
    else
        t->none++;
    t->rounds_sum += o.rounds;
    t->rounds_sq += (long long)o.rounds * o.rounds;
    for (int i = 0; i < t->n; i++)
        t->out[i] += defeated[i];
    if (!t->paired) return;
    if (base_winner >= 0 && base_winner < t->n_sides)
        t->base_win[base_winner]++;
    else
        t->base_none++;
    for (int s = 0; s < t->n_sides; s++) {
        int d = won(o.winner, s) - won(base_winner, s);
        t->diff_sum[s] += d;
        t->diff_sq[s] += d * d;
    }
}

double odds_share(long k, long n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0.0;
        *hi = 1.0;
        return 0.0;
    }
    /* Wilson's interval: unlike p +- z*se it stays inside [0, 1] and is
     * not zero-wide when every run came out the same way. */
    double p = (double)k / (double)n, z = ODDS_Z95, z2 = z * z, nn = (double)n;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    *lo = fmax(0.0, centre - half);
    *hi = fmin(1.0, centre + half);
    return p;
}

void odds_rounds(const odds_tally_t *t, double *mean, double *sd)
{
    long n = odds_played(t);
    *mean = n > 0 ? (double)t->rounds_sum / (double)n : 0.0;
    double var = n > 1 ? ((double)t->rounds_sq - (double)n * *mean * *mean) / (double)(n - 1) : 0.0;
    *sd = var > 0 ? sqrt(var) : 0.0;
}

double odds_diff(const odds_tally_t *t, int s, double *half_width)
{
    long n = odds_played(t);
    *half_width = 0.0;
    if (!t->paired || n <= 0 || s < 0 || s >= t->n_sides) return 0.0;
    double mean = (double)t->diff_sum[s] / (double)n;
    if (n > 1) {
        double var = ((double)t->diff_sq[s] - (double)n * mean * mean) / (double)(n - 1);
        *half_width = var > 0 ? ODDS_Z95 * sqrt(var / (double)n) : 0.0;
    }
    return mean;
}
