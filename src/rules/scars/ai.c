/* ai.c - scars: the built-in AI (docs/rules-scars.md, "The built-in AI").
 *
 * A side declares one member at a time and resolves together, so each plan
 * is made on the board as it will stand: the allies who have declared are
 * put where their moves will leave them (the resolution's own rule, in map
 * order; board_try, undone before returning), and the hexes they will end on
 * are taken. From there every hex the combatant may end a move on is weighed
 * with every attack it could make from it, by what the attack adds to the
 * damage already pooled on its target (only the highest die counts, so a
 * second attacker on one foe adds little) less what the enemy could do to it
 * there. With no attack open it moves to where one will be, keeping its
 * action unless a second move gets it further; badly hurt, it runs for the
 * edge and retreats.
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

#define FACES 13         /* kept faces 0..12: no die in scars is bigger */
#define DEFENCE 0.35     /* weight of the damage the hex lets foes deal back */
#define HELPLESS_WORTH 0.2 /* a foe that no longer holds the field */
#define RETREAT_MIN_DEX 5  /* below this DEX (25%) a retreat rarely comes off */

/* The board as the combatant's plan sees it, and what it may not end on. */
typedef struct {
    battle_t *b;
    int a;
    board_trial_t moved[MAP_MAX_COMBATANTS]; /* declared allies at their planned ends */
    int n_moved;
    int a_cell;              /* a's cell, lifted off the board while planning */
    int blocked[MAP_MAX_COMBATANTS]; /* cells moving allies hold now */
    int n_blocked;
    area_t blasts[16];       /* blasts allies have declared: never walk into one */
    int n_blasts;
    /* b->ps holds the search of a's moves from a_cell that firing_goal or
     * nearest_edge ran (ai.c, "the bounded search"): a path to a hex it
     * settled is read from it rather than searched again. */
    bool searched;
} plan_t;

/* May a plan end on cell idx: free on the planned board, not where a moving
 * ally stands now (a declaration may not end on a held hex), not in an ally's
 * blast. */
static bool plan_may_end(const move_cost_t *mc, int idx)
{
    const plan_t *p = mc->data;
    if (idx == p->a_cell)
        return true; /* staying put */
    if (p->b->board->occ[idx] >= 0)
        return false;
    for (int k = 0; k < p->n_blocked; k++)
        if (p->blocked[k] == idx)
            return false;
    hex_t h = board_hex_of(p->b->board, idx);
    for (int k = 0; k < p->n_blasts; k++)
        if (area_covers(p->b->board, &p->blasts[k], h))
            return false;
    return true;
}

/* Put the declared allies of a where their moves will leave them. */
static void plan_begin(plan_t *p, battle_t *b, int a)
{
    const sc_state_t *s = sc_cst(b);
    p->b = b;
    p->a = a;
    p->n_moved = p->n_blocked = p->n_blasts = 0;
    p->searched = false;
    p->a_cell = board_cell_index(b->board, sc_pos(b, a));
    /* a's own body is no cover on its own lines, and its hex is free to keep. */
    p->moved[p->n_moved++] = board_try(b->board, a, sc_pos(b, a));
    if (p->a_cell >= 0 && b->board->occ[p->a_cell] == a)
        b->board->occ[p->a_cell] = -1;
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j == a || !d->set || !battle_active(b, j) || sc_enemies(b, a, j))
            continue;
        int stop = sc_move_stop(b, j, d);
        if (stop > 0) {
            /* Its hex is held as a declares (and still when a moves, if j
             * moves later): no move may end there. */
            p->blocked[p->n_blocked++] = board_cell_index(b->board, sc_pos(b, j));
            p->moved[p->n_moved++] =
                board_try(b->board, j, hex_from_cell(b->map->layout, d->path[stop - 1]));
        }
        for (int k = 0; d->act == CMD_ENGAGE && k < 2 && p->n_blasts < 16; k++) {
            int wi = k ? d->weapon2 : d->weapon;
            area_t ar;
            if ((k == 0 || wi >= 0) && battle_active(b, d->target) &&
                battle_weapon_tag(battle_weapon(b, j, wi), "blast") > 0 &&
                scars_blast_area(b, j, d->target, battle_weapon(b, j, wi), &ar))
                p->blasts[p->n_blasts++] = ar;
        }
    }
}

static void plan_end(plan_t *p)
{
    for (int k = p->n_moved - 1; k >= 0; k--)
        board_untry(p->b->board, &p->moved[k]);
}

/* a's move in mode (SM_MOVE: one move; SM_SECOND: the action spent on a
 * second), ending only where the plan allows. */
static bool plan_move(const plan_t *p, int mode, move_cost_t *mv)
{
    if (!scars_move_cost(p->b, p->a, mode, mv))
        return false;
    mv->may_end = plan_may_end;
    mv->data = p;
    return true;
}

/* ---- what an attack is worth ------------------------------------------- */

/* The distribution of the kept face on t: F[k] = P(kept <= k). */
typedef struct {
    double F[FACES];
} pool_t;

static void pool_empty(pool_t *q)
{
    for (int k = 0; k < FACES; k++)
        q->F[k] = 1.0;
}

static void pool_add(pool_t *q, sc_die_t d)
{
    for (int k = 0; k < FACES; k++)
        q->F[k] *= sc_kept_cdf(d, k);
}

/* What t taking pool q is worth: damage after armor, and more for damage that
 * goes past its HP (STR, and a critical save); less for a helpless foe. */
static double pool_worth(const battle_t *b, int t, const pool_t *q)
{
    int armor = b->u[t].stat[SS_ARMOR], hp = b->u[t].hp;
    double v = 0.0;
    for (int k = 1; k < FACES; k++) {
        int x = k - armor;
        if (x <= 0)
            continue;
        double u = x + (x > hp ? 2.0 + (x - hp) : 0.0);
        v += (q->F[k] - q->F[k - 1]) * u;
    }
    return scars_helpless(b, t) ? v * HELPLESS_WORTH : v;
}

/* The dice already coming down on t this phase from a's declared allies,
 * from where they will stand (their aimed shots and the spill of their blasts). */
static void pool_on(const battle_t *b, int a, int t, pool_t *q)
{
    const sc_state_t *s = sc_cst(b);
    pool_empty(q);
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j == a || !d->set || d->act != CMD_ENGAGE || !battle_active(b, j) ||
            sc_enemies(b, a, j) || !battle_active(b, d->target))
            continue;
        for (int k = 0; k < 2; k++) {
            int wi = k ? d->weapon2 : d->weapon;
            if (k && wi < 0)
                continue;
            const weapon_t *w = battle_weapon(b, j, wi);
            if (!sc_reaches(b, j, d->target, w))
                continue;
            if (d->target == t) {
                cover_t c = sight_trace(b->board, sc_pos(b, j), sc_pos(b, t)).cover;
                pool_add(q, sc_die_of(b, j, t, w, false, c, d->marks));
            } else if (scars_blast_catches(b, j, d->target, t, sc_pos(b, t), w)) {
                pool_add(q, sc_die_of(b, j, t, w, true, COVER_NONE, d->marks));
            }
        }
    }
}

/* One attack a could declare: on t with w (and w2), standing at cell `at`. */
typedef struct {
    int t, w, w2, at;
    double value;
} option_t;

/* What a's blast (or onslaught) with w on t adds on the foes it spills onto;
 * -1 when it would catch anyone of a's own side, helpless ones included. */
static double spill_gain(const battle_t *b, int a, int t, const weapon_t *w)
{
    area_t ar;
    if (!scars_blast_area(b, a, t, w, &ar))
        return 0.0;
    double gain = 0.0;
    for (int k = 0; k < b->n; k++) {
        if (k == a || k == t || !battle_active(b, k) ||
            !scars_blast_catches(b, a, t, k, sc_pos(b, k), w))
            continue;
        if (!sc_enemies(b, a, k))
            return -1.0;
        pool_t q;
        pool_on(b, a, k, &q);
        double before = pool_worth(b, k, &q);
        pool_add(&q, sc_die_of(b, a, k, w, true, COVER_NONE, 0));
        gain += pool_worth(b, k, &q) - before;
    }
    return gain;
}

/* ---- what one plan works out once ------------------------------------ */

/* While a plans, the board stands still, so what depends only on it - the
 * line between a foe and a hex, the weapons' reach, a die's mean, what an
 * attack on a target adds - is worked out once per call of best_attack and
 * read back for every hex: the same numbers in the same order as working
 * them out each time, at a fraction of the cost. */

#define DIE_MEMO 16    /* distinct dice whose means are kept */
#define CHOICE_MEMO 1024 /* weapon choices kept over all targets and covers */
/* Weapon choices against one target: each weapon alone, or with a later one. */
#define CHOICES_MAX (MAP_MAX_WEAPONS + MAP_MAX_WEAPONS * (MAP_MAX_WEAPONS - 1) / 2 + 1)
#define MAX_TARGETS 32

/* One way a could attack a target: weapon w (and w2), reaching `reach`
 * hexes, adding `gain` to the pool; ok is false when it would catch a's own
 * side. */
typedef struct {
    int w, w2, reach;
    bool ok;
    double gain;
} choice_t;

typedef struct {
    int armor;                         /* a's */
    int stamp;                         /* the hex being weighed */
    int seen[MAP_MAX_COMBATANTS];      /* == stamp: line[j] is j's line to that hex */
    sight_t line[MAP_MAX_COMBATANTS];
    bool foe[MAP_MAX_COMBATANTS];      /* fighting, and a's enemy */
    int band[MAP_MAX_COMBATANTS];      /* longest band of each foe */
    hex_t ally[MAP_MAX_COMBATANTS];    /* a's allies in the fight, in index order */
    int n_allies;
    sc_die_t die[DIE_MEMO];            /* dice whose mean (after a's armor) is known */
    double mean[DIE_MEMO];
    int n_dice;
    int first[MAX_TARGETS][COVER_TOTAL + 1]; /* the choices on target slot i through
                                                cover c start here; -1: not listed */
    int count[MAX_TARGETS][COVER_TOTAL + 1];
    choice_t choice[CHOICE_MEMO];
    int n_choices;
} memo_t;

/* The widest band of any weapon i carries (unarmed: close). */
static int longest_band(const battle_t *b, int i)
{
    int band = CLOSE_HEX;
    for (int w = 0; w < b->u[i].n_weapons; w++) {
        int bw = scars_weapon_band(b, battle_weapon(b, i, w));
        band = bw > band ? bw : band;
    }
    return band;
}

static void memo_begin(memo_t *m, const battle_t *b, int a)
{
    m->armor = b->u[a].stat[SS_ARMOR];
    m->stamp = 1;
    m->n_allies = m->n_dice = m->n_choices = 0;
    for (int j = 0; j < b->n; j++) {
        m->seen[j] = 0;
        m->foe[j] = scars_fighting(b, j) && sc_enemies(b, a, j);
        m->band[j] = m->foe[j] ? longest_band(b, j) : CLOSE_HEX;
        if (j != a && battle_active(b, j) && !sc_enemies(b, a, j))
            m->ally[m->n_allies++] = sc_pos(b, j);
    }
    for (int i = 0; i < MAX_TARGETS; i++)
        for (int c = 0; c <= COVER_TOTAL; c++)
            m->first[i][c] = -1;
}

/* The line from combatant j to hex h, the hex being weighed. Sight is the
 * same both ways (sight.h), so it also serves as the line from h to j. */
static sight_t line_to(memo_t *m, const battle_t *b, int j, hex_t h)
{
    if (m->seen[j] != m->stamp) {
        m->line[j] = sight_trace(b->board, sc_pos(b, j), h);
        m->seen[j] = m->stamp;
    }
    return m->line[j];
}

/* The mean damage of die d after armor. */
static double die_mean(sc_die_t d, int armor)
{
    double mean = 0.0, below = 0.0;
    for (int k = 1; k < FACES; k++) {
        double at_most = sc_kept_cdf(d, k);
        if (k > armor)
            mean += (at_most - below) * (k - armor);
        below = at_most;
    }
    return mean;
}

/* die_mean against a's armor, each die worked out once. */
static double mean_of(memo_t *m, sc_die_t d)
{
    for (int k = 0; k < m->n_dice; k++)
        if (m->die[k].n == d.n && m->die[k].sides == d.sides)
            return m->mean[k];
    double v = die_mean(d, m->armor);
    if (m->n_dice < DIE_MEMO) {
        m->die[m->n_dice] = d;
        m->mean[m->n_dice++] = v;
    }
    return v;
}

/* The damage a standing at h could take back next time the foes act: the
 * worst single die of those within a move and a weapon's band, impaired when
 * the line to h has cover. */
static double exposure(memo_t *m, const battle_t *b, int a, hex_t h)
{
    double worst = 0.0;
    for (int e = 0; e < b->n; e++) {
        if (!m->foe[e])
            continue;
        int dist = hex_distance(sc_pos(b, e), h);
        if (dist > m->band[e] + SCARS_MOVE_HEXES)
            continue;
        sight_t sg = line_to(m, b, e, h);
        cover_t c = sg.visible ? sg.cover : COVER_LIGHT; /* it would move for a line */
        for (int w = -1; w < b->u[e].n_weapons; w++) {
            if (w < 0 && b->u[e].n_weapons > 0)
                continue;
            const weapon_t *wp = battle_weapon(b, e, w);
            if (dist > scars_weapon_band(b, wp) + SCARS_MOVE_HEXES)
                continue;
            double mean = mean_of(m, sc_die_of(b, e, a, wp, false, c, 0));
            /* A blast or an onslaught on an ally next to h spills onto a too
             * (and one on a onto them): standing close is paying twice. */
            int radius = battle_weapon_tag(wp, "blast");
            if (radius <= 0 && sc_horde(b, e) && !sc_detachment(b, a))
                radius = 1;
            if (radius > 0) {
                double spill = mean_of(m, sc_die_of(b, e, a, wp, true, COVER_NONE, 0));
                for (int k = 0; k < m->n_allies; k++)
                    if (hex_distance(m->ally[k], h) <= radius)
                        mean += spill;
            }
            worst = mean > worst ? mean : worst;
        }
    }
    return worst;
}

/* Every weapon choice of a (one weapon, or two at once) on t with cover c on
 * the line, in the order they are weighed, with what each adds to pool:
 * into out (CHOICES_MAX of them at most); returns the count. */
static int list_choices(const battle_t *b, int a, int t, cover_t c, const pool_t *pool,
                        choice_t *out)
{
    const unit_t *u = &b->u[a];
    double before = pool_worth(b, t, pool);
    int n = 0;
    for (int w = u->n_weapons > 0 ? 0 : -1; w < u->n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        int band = scars_weapon_band(b, wp);
        for (int w2 = -1; w2 < u->n_weapons; w2++) {
            if (w2 >= 0 && (w2 <= w || !scars_dual_ok(b, a, w, w2)))
                continue;
            choice_t *ch = &out[n++];
            *ch = (choice_t){w, w2, band, true, 0.0};
            pool_t q = *pool;
            pool_add(&q, sc_die_of(b, a, t, wp, false, c, 0));
            double spill = spill_gain(b, a, t, wp);
            if (w2 >= 0) {
                const weapon_t *wp2 = battle_weapon(b, a, w2);
                int band2 = scars_weapon_band(b, wp2);
                ch->reach = band2 < band ? band2 : band;
                pool_add(&q, sc_die_of(b, a, t, wp2, false, c, 0));
                double s2 = spill_gain(b, a, t, wp2);
                spill = spill < 0 || s2 < 0 ? -1.0 : spill + s2;
            }
            ch->ok = spill >= 0; /* else it would catch a's own side */
            if (ch->ok)
                ch->gain = pool_worth(b, t, &q) - before + spill;
        }
    }
    return n;
}

/* The choices on target slot i (combatant t, its pool) through cover c:
 * listed once, then read back; *out points at them. scratch holds them
 * when the memo is full. */
static int choices(memo_t *m, const battle_t *b, int a, int i, int t, cover_t c,
                   const pool_t *pool, choice_t *scratch, const choice_t **out)
{
    if (m->first[i][c] >= 0) {
        *out = &m->choice[m->first[i][c]];
        return m->count[i][c];
    }
    int n = list_choices(b, a, t, c, pool, scratch);
    *out = scratch;
    if (m->n_choices + n <= CHOICE_MEMO) {
        memcpy(&m->choice[m->n_choices], scratch, sizeof *scratch * (size_t)n);
        m->first[i][c] = m->n_choices;
        m->count[i][c] = n;
        m->n_choices += n;
    }
    return n;
}

/* The best attack a can declare this phase, from its hex or one move away:
 * on foes still fighting, or on the helpless only when none is open. */
static bool best_attack(plan_t *p, option_t *best)
{
    battle_t *b = p->b;
    int a = p->a;
    move_cost_t mv;
    if (!plan_move(p, SM_MOVE, &mv))
        return false;
    p->searched = false; /* b->ps is taken */
    int n = geom_reach_mode(&mv, b->ps, b->reach, b->ncells);
    if (n > b->ncells)
        n = b->ncells;
    best->value = 0.0;
    best->t = -1;
    int tg[MAX_TARGETS], band = longest_band(b, a);
    pool_t pools[MAX_TARGETS];
    memo_t m;
    choice_t scratch[CHOICES_MAX];
    memo_begin(&m, b, a);
    for (int pass = 0; pass < 2 && best->t < 0; pass++) {
        int nt = 0;
        for (int t = 0; t < b->n && nt < MAX_TARGETS; t++)
            if (battle_active(b, t) && sc_enemies(b, a, t) && scars_helpless(b, t) == (pass == 1) &&
                hex_distance(sc_pos(b, a), sc_pos(b, t)) <= DISTANT_HEX + SCARS_MOVE_HEXES) {
                pool_on(b, a, t, &pools[nt]);
                for (int c = 0; c <= COVER_TOTAL; c++)
                    m.first[nt][c] = -1; /* a new target in this slot */
                tg[nt++] = t;
            }
        /* Its own hex first (no move), then every hex it may end on. */
        for (int k = -1; k < n && nt > 0; k++) {
            int cell = k < 0 ? p->a_cell : map_index(b->map, b->reach[k].at);
            hex_t h = board_hex_of(b->board, cell);
            int cost = k < 0 ? 0 : b->reach[k].cost_ft;
            bool weighed = false;
            double base = 0.0;
            m.stamp++; /* a new hex: no line known yet */
            for (int i = 0; i < nt; i++) {
                int dist = hex_distance(h, sc_pos(b, tg[i]));
                if (dist > band)
                    continue;
                sight_t sg = line_to(&m, b, tg[i], h);
                if (!sg.visible)
                    continue;
                if (!weighed) {
                    /* Less the damage the foes could deal back there, and a
                     * hair for every foot walked (the shorter way when all
                     * else is equal). */
                    base = -DEFENCE * exposure(&m, b, a, h) - cost * 1e-4;
                    weighed = true;
                }
                const choice_t *ch;
                int nc = choices(&m, b, a, i, tg[i], sg.cover, &pools[i], scratch, &ch);
                for (int j = 0; j < nc; j++) {
                    if (dist > ch[j].reach || !ch[j].ok)
                        continue;
                    double gain = ch[j].gain;
                    if (gain > 0.0 && (best->t < 0 || gain + base > best->value))
                        *best = (option_t){tg[i], ch[j].w, ch[j].w2, cell, gain + base};
                }
            }
        }
    }
    return best->t >= 0;
}

/* ---- moves ------------------------------------------------------------- */

/* The cheapest path a_cell..goal of the search b->ps holds, as
 * geom_path_mode writes it into b->path; its length. */
static int known_path(const battle_t *b, int goal)
{
    int n = 0;
    for (int c = goal; c >= 0; c = path_parent(b->ps, c))
        n++;
    int k = n;
    for (int c = goal; c >= 0; c = path_parent(b->ps, c))
        if (--k < b->ncells)
            b->path[k] = map_cell_of(b->map, c);
    return n < b->ncells ? n : b->ncells;
}

/* The path of a's move in mv to cell goal, cut to where it may end within
 * the budget; its length (0: none), the cost into *cost. Every move of a
 * steps alike (scars_step: the mode sets only the budget, which the cheapest
 * path ignores), so a goal the plan's search has settled takes the path that
 * search found: the one a search to the goal alone would find, as path_run
 * settles the same cells in the same order up to any budget (path.h). */
static int path_to(plan_t *p, const move_cost_t *mv, int goal, cell_t *out, int cap, int *cost)
{
    battle_t *b = p->b;
    int full = 0, len = 0;
    *cost = 0;
    if (goal == p->a_cell)
        return 0;
    if (p->searched && path_cost(b->ps, goal) >= 0) {
        len = known_path(b, goal);
    } else {
        p->searched = false; /* b->ps is taken */
        if (!geom_path_mode(mv, map_cell_of(b->map, goal), b->ps, &full, b->path, b->ncells, &len))
            return 0;
    }
    if (len < 2)
        return 0;
    int spent = 0, last = 0, last_cost = 0;
    for (int k = 1; k < len && k <= cap; k++) {
        int from = map_index(b->map, b->path[k - 1]), to = map_index(b->map, b->path[k]);
        int step = mv->step((void *)mv, from, to);
        if (step < 0 || spent + step > mv->budget_ft)
            break;
        spent += step;
        out[k - 1] = b->path[k];
        if (plan_may_end(mv, to)) {
            last = k;
            last_cost = spent;
        }
    }
    *cost = last_cost;
    return last;
}

/* Declare a move to cell goal, as far as two moves go: a plain move that
 * keeps the action when one move covers what it reaches, the action spent on
 * a second move only when that gets further. */
static bool move_toward(plan_t *p, int goal, cmd_kind_t act, cmd_t *out)
{
    move_cost_t one, two;
    if (!plan_move(p, SM_MOVE, &one))
        return false;
    cmd_t c = cmd_make(CMD_DECLARE, p->a);
    c.act = act;
    int cost = 0;
    bool second = act == CMD_END && plan_move(p, SM_SECOND, &two);
    c.n_path = path_to(p, second ? &two : &one, goal, c.path, SCARS_PATH_MAX, &cost);
    if (c.n_path == 0)
        return false;
    if (second && cost > one.budget_ft) {
        c.act = CMD_MOVE;
        c.arg = SM_SECOND;
    } else if (second) {
        /* One move reaches as far: keep the action. */
        c.n_path = path_to(p, &one, goal, c.path, SCARS_PATH_MAX, &cost);
        if (c.n_path == 0)
            return false;
    }
    *out = c;
    return true;
}

/* ---- the bounded search ------------------------------------------------ */

/* firing_goal and nearest_edge want the cheapest hexes of a kind, by path
 * from a's hex. A search of the whole map for each NPC cost 25 s a round with
 * 512 combatants on 1024x1024 (issue 30), while the answer almost always lies
 * a few moves away. So the search goes out to a budget and grows it
 * (path_resume) only while a hex it has not reached yet could still be the
 * answer: every hex within the budget is settled at its true cost, and a hex
 * not settled costs more than the budget (or cannot be reached at all), so
 * the answer is the one the whole map would give, ties broken the same way.
 * Once the budget cuts nothing off (path_budget_cut), everything reachable is
 * known. scars_ai_exhaustive(true) searches the whole map at once and each
 * path afresh, as before (the tests compare the two). */

static bool exhaustive = false;

void scars_ai_exhaustive(bool on) { exhaustive = on; }

typedef struct {
    move_cost_t far; /* a's second move: the widest it may go, as path_run prices it */
    int budget;      /* feet searched so far; PATH_NO_BUDGET: all of it */
} search_t;

/* Start the search from a's hex: two moves' worth first (at least 50 ft). */
static bool search_begin(plan_t *p, search_t *s)
{
    if (!plan_move(p, SM_SECOND, &s->far))
        return false;
    s->budget = exhaustive ? PATH_NO_BUDGET : s->far.budget_ft > 50 ? s->far.budget_ft : 50;
    path_run_open(p->b->ps, p->b->board, p->a_cell, s->budget, s->far.step, &s->far);
    if (!path_budget_cut(p->b->ps))
        s->budget = PATH_NO_BUDGET; /* nothing lies beyond it */
    p->searched = !exhaustive; /* as before: each path searched afresh */
    return true;
}

/* Grow the budget by an eighth (the cells searched grow with its square, so
 * small steps overshoot the answer least); false when the search already
 * knows everything. */
static bool search_grow(plan_t *p, search_t *s)
{
    if (s->budget >= PATH_NO_BUDGET)
        return false;
    s->budget = s->budget > PATH_NO_BUDGET / 2 ? PATH_NO_BUDGET : s->budget + s->budget / 8;
    path_resume(p->b->ps, p->b->board, s->budget, s->far.step, &s->far);
    if (!path_budget_cut(p->b->ps))
        s->budget = PATH_NO_BUDGET;
    return true;
}

/* Could cell idx, not reached yet, be reached later (a hex a step may
 * enter) and be ended on? */
static bool may_come(const search_t *s, const battle_t *b, int idx)
{
    return path_cost(b->ps, idx) < 0 && b->map->types[b->map->cells[idx]].move > 0 &&
           plan_may_end(&s->far, idx);
}

/* The key a goal hex near t is weighed by: its cost, and on pass 1 its ring
 * first (nearer the foe first when only nearness counts). */
static long long goal_key(int pass, int r, long long cost)
{
    return pass ? r * 100000LL + cost : cost;
}

/* For foe t on this pass, the hex firing_goal wants as far as the search
 * has gone: on pass 0 a hex in the band with a line of sight to t, on pass 1
 * any free hex within DISTANT_HEX of it, the lowest key first, the first in
 * ring order among equals; -1 for none. *open: a hex the search has not
 * reached could still beat it. */
static int goal_near(plan_t *p, const search_t *s, int t, int pass, int band, bool *open)
{
    battle_t *b = p->b;
    hex_t ring[6 * DISTANT_HEX];
    int best = -1, hi = pass ? DISTANT_HEX : band;
    long long best_key = PATH_NO_BUDGET;
    for (int r = 1; r <= hi; r++) {
        int nr = hex_ring(sc_pos(b, t), r, ring, 6 * DISTANT_HEX);
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            int cost = idx < 0 ? -1 : path_cost(b->ps, idx);
            long long key = goal_key(pass, r, cost);
            if (cost < 0 || key >= best_key || !plan_may_end(&s->far, idx) ||
                (!pass && !sight_clear(b->board, ring[k], sc_pos(b, t))))
                continue;
            best = idx;
            best_key = key;
        }
    }
    *open = false;
    if (s->budget >= PATH_NO_BUDGET)
        return best;
    /* A hex not reached costs at least budget + 1: can it still come first
     * (or tie and come earlier in ring order)? */
    for (int r = 1; r <= hi; r++) {
        long long least = goal_key(pass, r, (long long)s->budget + 1);
        if (least > best_key || least >= PATH_NO_BUDGET)
            continue;
        int nr = hex_ring(sc_pos(b, t), r, ring, 6 * DISTANT_HEX);
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            if (idx >= 0 && may_come(s, b, idx) &&
                (pass || sight_clear(b->board, ring[k], sc_pos(b, t)))) {
                *open = true;
                return best;
            }
        }
    }
    return best;
}

/* Where a should head for when no attack is open: for the nearest fighting
 * foe, the nearest hex (by path) from which its longest-reaching weapon would
 * reach the foe in sight; failing any, the free hex nearest the foe; failing
 * that, the same for the next foe. -1: none at all. */
static int firing_goal(plan_t *p)
{
    battle_t *b = p->b;
    int a = p->a;
    search_t s;
    if (!search_begin(p, &s))
        return -1;
    int band = longest_band(b, a);
    /* The nearest foe first; for it, a hex in the band with a line of sight
     * (pass 0), else the free hex nearest it (pass 1); then the next foe. */
    bool tried[MAP_MAX_COMBATANTS] = {false};
    for (;;) {
        int t = -1;
        for (int k = 0; k < b->n; k++)
            if (!tried[k] && scars_fighting(b, k) && sc_enemies(b, a, k) &&
                (t < 0 || hex_distance(sc_pos(b, a), sc_pos(b, k)) <
                              hex_distance(sc_pos(b, a), sc_pos(b, t))))
                t = k;
        if (t < 0)
            return -1;
        tried[t] = true;
        for (int pass = 0; pass < 2; pass++) {
            bool open;
            int best = goal_near(p, &s, t, pass, band, &open);
            while (open && search_grow(p, &s))
                best = goal_near(p, &s, t, pass, band, &open);
            if (best >= 0)
                return best;
        }
    }
}

/* ---- running for it ---------------------------------------------------- */

/* Is a at 0 HP, below half its STR, and within one enemy die of death? */
static bool in_danger(const battle_t *b, int a)
{
    const unit_t *u = &b->u[a];
    if (u->hp > 0 || u->stat[SS_DEX] < RETREAT_MIN_DEX || 2 * u->stat[SS_STR] >= u->stat_max[SS_STR])
        return false;
    int worst = 0;
    for (int e = 0; e < b->n; e++) {
        if (!scars_fighting(b, e) || !sc_enemies(b, a, e))
            continue;
        for (int w = -1; w < b->u[e].n_weapons; w++) {
            const weapon_t *wp = battle_weapon(b, e, w);
            if (hex_distance(sc_pos(b, e), sc_pos(b, a)) > scars_weapon_band(b, wp) + SCARS_MOVE_HEXES)
                continue;
            sc_die_t d = sc_die_of(b, e, a, wp, false, COVER_NONE, 0);
            worst = d.sides > worst ? d.sides : worst;
        }
    }
    return worst - u->stat[SS_ARMOR] >= u->stat[SS_STR];
}

/* The cheaper of edge cell idx and the best so far (the first in map order
 * among equals, as the cells are offered in map order). */
static void edge_try(const plan_t *p, const search_t *s, int idx, int *best, int *best_cost)
{
    int cost = path_cost(p->b->ps, idx);
    if (cost >= 0 && cost < *best_cost && plan_may_end(&s->far, idx)) {
        *best = idx;
        *best_cost = cost;
    }
}

/* The edge cell nearest a by path that it may end on, the first in map
 * order among equals; -1 when none. */
static int nearest_edge(plan_t *p)
{
    battle_t *b = p->b;
    search_t s;
    if (!search_begin(p, &s))
        return -1;
    const map_t *m = b->map;
    for (;;) {
        /* Every cell within the budget is settled: the cheapest edge cell
         * among them is the answer, unless none is and the search can grow. */
        int best = -1, best_cost = PATH_NO_BUDGET;
        for (int row = 0; row < m->rows; row++) {
            bool whole = row == 0 || row == m->rows - 1;
            for (int col = 0; col < m->cols; col += whole || col == m->cols - 1 ? 1 : m->cols - 1)
                edge_try(p, &s, row * m->cols + col, &best, &best_cost);
        }
        if (best >= 0 || !search_grow(p, &s))
            return best;
    }
}

/* Badly hurt: retreat from the edge (moving there first when one move
 * does it), or head for the edge with the action. */
static bool run_for_it(plan_t *p, cmd_t *out)
{
    battle_t *b = p->b;
    if (!in_danger(b, p->a))
        return false;
    cmd_t c = cmd_make(CMD_DECLARE, p->a);
    c.act = CMD_RETREAT;
    if (sc_on_edge(b, p->a)) {
        *out = c;
        return true;
    }
    int edge = nearest_edge(p);
    if (edge < 0)
        return false;
    move_cost_t one;
    int cost;
    if (plan_move(p, SM_MOVE, &one)) {
        c.n_path = path_to(p, &one, edge, c.path, SCARS_PATH_MAX, &cost);
        if (c.n_path > 0 && map_index(b->map, c.path[c.n_path - 1]) == edge) {
            *out = c;
            return true;
        }
    }
    return move_toward(p, edge, CMD_END, out);
}

/* ---- the plan ---------------------------------------------------------- */

/* The command a's plan gives on the planned board. */
static void decide(plan_t *p, cmd_t *out)
{
    battle_t *b = p->b;
    int a = p->a;
    if (run_for_it(p, out))
        return;
    option_t o = {-1, -1, -1, -1, 0.0};
    if (best_attack(p, &o)) {
        cmd_t c = cmd_make(CMD_DECLARE, a);
        c.act = CMD_ENGAGE;
        c.target = o.t;
        c.weapon = o.w;
        c.weapon2 = o.w2;
        move_cost_t one;
        int cost;
        if (o.at != p->a_cell && plan_move(p, SM_MOVE, &one))
            c.n_path = path_to(p, &one, o.at, c.path, SCARS_PATH_MAX, &cost);
        if (o.at == p->a_cell || (c.n_path > 0 && map_index(b->map, c.path[c.n_path - 1]) == o.at)) {
            *out = c;
            return;
        }
    }
    int goal = firing_goal(p);
    if (goal >= 0)
        move_toward(p, goal, CMD_END, out);
}

void scars_intent(battle_t *b, int a, cmd_t *out)
{
    *out = cmd_make(CMD_END, a);
    if (!sc_can_act(b, a) || scars_crawling(b, a))
        return;
    plan_t plan;
    plan_begin(&plan, b, a);
    decide(&plan, out);
    plan_end(&plan);
}

void sc_ai(battle_t *b, int a, cmd_t *out)
{
    *out = cmd_make(CMD_END, a);
    if (!scars_in_phase(b, a) || sc_cst(b)->decl[a].set)
        return;
    if (scars_crawling(b, a))
        return; /* lies still: a crawl is the table's call */
    scars_intent(b, a, out);
}
