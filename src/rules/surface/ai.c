/* ai.c - the built-in Surface Combat AI (surface.md 1.5).
 *
 * Each call plans the actions the combatant has left as a pair and returns
 * the first command of the best plan: attack then move, move then attack,
 * stand and fire, move to a better spot, withdraw from melee, switch weapons
 * and strike, or hold an action back. A plan is worth the damage it is
 * expected to deal (exactly as the odds count it, with a premium for kills
 * and for foes whose faction is close to breaking) less the damage the
 * combatant is expected to take where it ends, from every foe's best weapon
 * against the cover there. Everything is computed from the battle as it
 * stands; the AI never rolls and leaves nothing behind.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "surface.h"

/* Weight of the damage a spot is expected to draw, against damage dealt: the
 * foes will not all shoot at one target. */
#define EXPOSURE_WEIGHT 0.45
/* Worth of a kill, in HP of damage. */
#define KILL_WORTH 5.0
/* Worth of next turn's expected damage when only moving now. */
#define NEXT_TURN 0.6
/* Worth of each hex nearer the nearest foe, for a spot from which nothing can
 * be struck next turn (so a combatant out of every fight closes in). */
#define APPROACH 0.3
/* Worth of staying put once a move has been made this turn. */
#define SECOND_THOUGHTS 0.75
#define MAX_FOES 64
#define SHOT_MEMO 96 /* shot values kept during one call */
#define SPOT_MEMO 1024 /* hexes kept during one call, a power of two */
#define OPEN_D 32      /* distances whose open bounds are kept (open_at) */
#define OPEN_UNKNOWN (-2.0)

/* One foe as the planner sees it: its defences, and each of our weapons'
 * expected damage and kill chance by number of hits. */
typedef struct {
    int who;
    sf_def_t def;
    int save_area;
    double worth; /* premium for this foe: hurt, or its faction near breaking */
} foe_t;

/* What one hex was found worth during a call. */
typedef struct {
    uint32_t call; /* the call it was found in (memos_t.call; others: empty) */
    int cell;
    bool has_exp, has_next;
    double exp, next;
} spot_t;

/* The large memos of a call, kept per thread between calls so that a call
 * empties only what the one before filled: the cover memo its used slots,
 * the spot memo by a call count that makes every older entry empty. */
typedef struct {
    sf_cover_memo_t cover;
    spot_t spot[SPOT_MEMO];
    uint32_t call;
} memos_t;

typedef struct {
    battle_t *b;
    int a;
    int n_foes;
    foe_t foes[MAX_FOES];
    int n_threats;
    int threat[MAX_FOES];      /* enemies able to hurt a */
    hex_t foe_at[MAX_FOES];    /* where each foe stands, and its cell */
    int foe_cell[MAX_FOES];
    int foe_st[MAX_FOES]; /* its stealth level against a (sf_stealth_level) */
    int n_friends;
    int friends[SF_NMAX];                          /* a's active allies, a left out, in order */
    double threat_e[MAX_FOES][SF_MAX_WEAPONS + 1]; /* their best expected damage on a, in the open */
    int threat_r[MAX_FOES][SF_MAX_WEAPONS + 1];     /* and how far each weapon reaches this round */
    int threat_blast[MAX_FOES][SF_MAX_WEAPONS + 1]; /* its blast or area ray radius */
    /* For exposure_floor: each threat's weapons by reach, farthest first,
     * and the best expected damage among those reaching at least as far
     * (floor_n of them; 0 when a's stealth hides it from that foe). */
    int floor_n[MAX_FOES], floor_st[MAX_FOES]; /* floor_st: a's stealth against it */
    int floor_r[MAX_FOES][SF_MAX_WEAPONS + 1];
    double floor_v[MAX_FOES][SF_MAX_WEAPONS + 1];
    /* How far each of a's weapons (index + 1) can strike without a cone, or
     * INT_MAX: a shot at a foe farther away is never possible. */
    int reach[SF_MAX_WEAPONS + 1];
    sf_def_t self;
    /* What shots were found worth, for the rest of this call: a shot's value
     * depends only on its shape and on who it hits, and the planner weighs
     * the same shots from hex after hex. */
    int n_memo;
    struct {
        int who;       /* the target; for an area shot the combatant caught */
        bool area;     /* one shot of an area attack (its worth before p_hit) */
        sf_shot_t s;   /* compared byte for byte: copies are made with memcpy */
        double val;
    } memo[SHOT_MEMO];
    /* Cover from each hex a looks from to each foe: the same lines are
     * traced for every weapon and every plan through that hex. */
    sf_cover_memo_t *cover;
    /* Exposure and next turn's worth of the hexes weighed so far (each kind
     * of move weighs many of the same hexes), by cell index; entries of
     * other calls than `call` are empty. */
    spot_t *spot;
    uint32_t call;
    /* Bounds for skipping hexes that cannot win (plan_moves): how far a's
     * farthest-reaching weapon strikes, whether any of them hits an area,
     * each foe's greatest possible shot value and their sum, and the most
     * a weapon's heat could add to a value. bound_ok false: no skipping. */
    bool bound_ok, area_any;
    int max_reach;
    double foe_top[MAX_FOES], foe_sum, heat_gain;
    /* Each foe's greatest possible value of a single-target shot of each
     * weapon (index + 1) at each cover level (0 open .. 3 concealed);
     * < 0 not worked out yet. */
    double shot_top[MAX_FOES][SF_MAX_WEAPONS + 1][4];
    /* The same for one foe caught by an area shot of the weapon. */
    double area_top[MAX_FOES][SF_MAX_WEAPONS + 1];
    bool area_w[SF_MAX_WEAPONS + 1];
    /* For each area weapon: how far from a anyone it catches may stand. */
    int area_far[SF_MAX_WEAPONS + 1];
    /* Weapons that cannot be fired in a turn with a move (S9). */
    bool still_w[SF_MAX_WEAPONS + 1];
    /* The tags of each of a's weapons (index + 1; bare hands all zero). */
    sf_wtags_t wt[SF_MAX_WEAPONS + 1];
    /* Actions each weapon takes to fire (Heavy, S10). */
    int w_actions[SF_MAX_WEAPONS + 1];
    /* Blast and area-ray weapons: their radius (0 none), and for each foe
     * k the chance a shot at it hits at all at each cover level (< 0 not
     * worked out) and what everyone within the radius of it may add
     * (area_top summed; < 0 not worked out). */
    int blast_r[SF_MAX_WEAPONS + 1];
    double hit_top[MAX_FOES][SF_MAX_WEAPONS + 1][4];
    double around[MAX_FOES][SF_MAX_WEAPONS + 1];
    /* The passes of the plan_moves under way (bounds_begin): np of them,
     * bit i of use[w + 1] set when pass i may fire w; its cone weapons; and
     * each foe's bound in the open at each distance below OPEN_D for each
     * pass (open_at; OPEN_UNKNOWN not worked out). */
    int np, n_cones;
    int foe_order[MAX_FOES]; /* foes by foe_top, highest first */
    unsigned use[SF_MAX_WEAPONS + 1];
    int cones[SF_MAX_WEAPONS + 1];
    double open_d[MAX_FOES][OPEN_D][2]; /* [0] OPEN_UNKNOWN: not worked out */
} plan_t;

typedef struct {
    double val;
    int t, w, arg;
    cell_t at;
} pick_t;

/* sf_ai_exhaustive: weigh every candidate in full, no bound (tests). */
static bool exhaustive;

void sf_ai_exhaustive(bool on) { exhaustive = on; }

/* Does firing w keep a from moving afterwards (S9; thrown weapons too)? */
static bool pins(const weapon_t *w)
{
    return w && w->cls != WPN_MELEE && battle_weapon_tag(w, "assault") <= 0;
}

static int foe_index(const plan_t *p, int t)
{
    for (int k = 0; k < p->n_foes; k++)
        if (p->foes[k].who == t) return k;
    return -1;
}

/* Can faction of t break soon: it checks morale, and a casualty might
 * rout it? Foes of such factions are worth more (morale awareness). */
static double faction_worth(const battle_t *b, int t)
{
    int members = battle_side_count(b, b->board->side[t]);
    int best = sf_side_morale(b, b->board->side[t]);
    if (best >= 12) return 1.0; /* never breaks */
    /* A roll of 2d6 at or over the score breaks it (a score of 2 or less
     * always breaks, S19): more likely for low scores. */
    static const int AT_OR_OVER[13] = {36, 36, 36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 0};
    double p_break = AT_OR_OVER[best < 0 ? 0 : best] / 36.0;
    return 1.0 + p_break * (members <= 2 ? 1.5 : 1.0);
}

/* Reach of foe e's weapon w against hex h this round, in hexes: melee reach,
 * or range; Assault, melee and thrown weapons add a move. */
static int threat_range(const battle_t *b, int e, const weapon_t *w)
{
    int er = sf_er_ft(b, e) / b->map->feet_per_hex;
    if (!w || w->cls == WPN_MELEE) return sf_weapon_reach(b, e, w) + er;
    int r = geom_ft_to_hexes(b->map, w->range_ft);
    return pins(w) ? r : r + er;
}

static double heat_cost(const battle_t *b, int a, int heat_fire);

/* The bounds plan_moves skips hexes by. A shot's value is at most its
 * target's worth times (its HP + KILL_WORTH): the hit chances sum to at most
 * 1, a lethal shot takes at most the HP left and kills at most surely. A
 * nonlethal weapon's loss is not capped by HP: none is then skipped. */
static void bounds_init(plan_t *p)
{
    const battle_t *b = p->b;
    int a = p->a;
    p->bound_ok = b->u[a].n_weapons <= SF_MAX_WEAPONS && !exhaustive;
    p->area_any = false;
    p->max_reach = -1;
    int min_heat = 0;
    for (int w = -1; w < b->u[a].n_weapons && w < SF_MAX_WEAPONS; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        sf_wtags_get(wp, &p->wt[w + 1]);
        sf_wtags_t tg = p->wt[w + 1];
        if (p->reach[w + 1] > p->max_reach) p->max_reach = p->reach[w + 1];
        p->area_w[w + 1] = false;
        p->blast_r[w + 1] = 0;
        p->w_actions[w + 1] = sf_fire_actions(b, a, wp);
        /* As sf_shot_shape: a ranged or thrown weapon without Assault. */
        p->still_w[w + 1] = wp && wp->cls != WPN_MELEE && tg.assault == 0;
        if (!wp) continue;
        if (tg.cone > 0 || tg.blast > 0 || tg.area_ray > 0) p->area_any = p->area_w[w + 1] = true;
        if (tg.cone > 0) {
            /* A cone of length L (half-angle tangent 1/4) reaches no hex
             * farther than L * sqrt(17/16) * 2/sqrt(3) + 1 < 1.2 L + 1 from
             * a (the bound area.c sizes it by); 1.3 L + 2 is safe. */
            int len = geom_ft_to_hexes(b->map, wp->range_ft);
            p->area_far[w + 1] = len + (len * 3 + 9) / 10 + 2;
        } else {
            int r = tg.blast > tg.area_ray ? tg.blast : tg.area_ray;
            p->blast_r[w + 1] = r > 0 ? r : 0;
            p->area_far[w + 1] = p->reach[w + 1] == INT_MAX ? INT_MAX : p->reach[w + 1] + (r > 0 ? r : 0);
        }
        if (tg.nonlethal > 0) p->bound_ok = false;
        if (tg.heat < min_heat) min_heat = tg.heat;
    }
    double hc = heat_cost(b, a, min_heat);
    p->heat_gain = hc < 0 ? -hc : 0.0;
    p->foe_sum = 0.0;
    for (int k = 0; k < p->n_foes; k++) {
        int hp = b->u[p->foes[k].who].hp;
        p->foe_top[k] = p->foes[k].worth * ((hp > 0 ? hp : 0) + KILL_WORTH);
        p->foe_sum += p->foe_top[k];
        for (int w = 0; w <= SF_MAX_WEAPONS; w++) {
            p->area_top[k][w] = p->around[k][w] = -1.0;
            for (int lvl = 0; lvl < 4; lvl++)
                p->shot_top[k][w][lvl] = p->hit_top[k][w][lvl] = -1.0;
        }
    }
}

/* Worth of a martial guard die of g sides (0: none) for a standing where it
 * is expected to draw `exposure` (S33): the guard rolls against each blow
 * until a's next turn, about (g + 1) / 2 off the first, weighed as the
 * exposure is. */
static double guard_worth(double exposure, int g)
{
    if (g <= 0) return 0.0;
    double off = (g + 1) / 2.0;
    return EXPOSURE_WEIGHT * (exposure < off ? exposure : off);
}

/* The most guard_worth can be for a (its whole pool as the guard). */
static double guard_worth_max(const battle_t *b, int a)
{
    int pool = sf_stat(b, a, SF_MARTIAL);
    return pool > 0 ? EXPOSURE_WEIGHT * (pool + 1) / 2.0 + 1e-9 : 0.0;
}

/* The most a single-target shot of a's weapon w on foe k can be worth from
 * a hex where the foe has cover level lvl (shot_value). The damage of a hit
 * does not depend on where a stands; the chance of each number of hits does.
 * With g(n) the best worth of up to n hits (never falling with n), the worth
 * is at most the sum over n of P(n hits) g(n), and a higher to-hit bonus only
 * moves chance to more hits: the bonus with Steady's point counted bounds
 * every hex of that cover. Beam and Homing roll the target's save instead:
 * all hits or none, whatever the cover. */
static double shot_top_calc(plan_t *p, int k, int w, int lvl);

/* The most foe k caught by an area shot of a's weapon w can add to its
 * value (shot_value: the chance the shot hits times one hit's worth; a cone
 * always hits). An area ray's damage depends on where its centre moved, and
 * a Continuous weapon's on who it was kept up on; the loss need not grow
 * with the damage (soak), so their foes count worth * (HP + a kill). */
static double area_top(plan_t *p, int k, int w)
{
    if (p->area_top[k][w + 1] >= 0) return p->area_top[k][w + 1];
    const battle_t *b = p->b;
    const weapon_t *wp = battle_weapon(b, p->a, w);
    const sf_wtags_t *tg = &p->wt[w + 1];
    const foe_t *f = &p->foes[k];
    double top = p->foe_top[k];
    if (wp && tg->area_ray <= 0 && tg->continuous <= 0) {
        sf_shot_t s;
        memset(&s, 0, sizeof s);
        s.shots = 1;
        s.dmg_n = wp->dice_n;
        s.dmg_sides = wp->dice_sides;
        s.dmg_bonus = wp->dice_bonus;
        if (tg->cone > 0) {
            s.cone = true;
        } else {
            s.blast = tg->blast;
            if (wp->cls == WPN_MELEE || wp->cls == WPN_THROWN) s.dmg_bonus += sf_stat(b, p->a, SF_STR);
        }
        double ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1];
        sf_loss_by_hits(&f->def, f->save_area, &s, ek, pk);
        top = (ek[1] + KILL_WORTH * pk[1]) * (1.0 + 1e-9) * f->worth;
    }
    p->area_top[k][w + 1] = top;
    return top;
}

/* The most likely a shot of a's weapon w at foe k is to hit at all, the
 * foe at cover level lvl: to-hit with Steady's point counted, or the foe
 * failing its save for Beam and Homing, whichever is likelier. */
static double hit_top_calc(plan_t *p, int k, int w, int lvl)
{
    const battle_t *b = p->b;
    int a = p->a, t = p->foes[k].who;
    const sf_wtags_t *tg = &p->wt[w + 1];
    sf_shot_t s;
    memset(&s, 0, sizeof s);
    s.shots = 1;
    s.roll = SF_ROLL_HIT;
    s.bonus =
        sf_stat(b, a, SF_CB) + sf_stat(b, t, SF_VLN) + (tg->steady > 0 ? 1 : 0) + sf_cover_mod(lvl);
    double ph[2];
    sf_hit_dist(&s, ph);
    double top = 1.0 - ph[0];
    for (int roll = 0; roll < 2; roll++) {
        if ((roll ? tg->homing : tg->beam) <= 0) continue;
        s.roll = roll ? SF_ROLL_HOMING : SF_ROLL_BEAM;
        s.bonus = sf_save_score(b, t, roll ? SF_SAVE_HOMING : SF_SAVE_BEAM);
        sf_hit_dist(&s, ph);
        if (1.0 - ph[0] > top) top = 1.0 - ph[0];
    }
    top *= 1.0 + 1e-9;
    p->hit_top[k][w + 1][lvl] = top;
    return top;
}

/* What a blast of a's weapon w centred on foe k may add for the foes it can
 * catch (every foe within the radius of k, area_top each); allies caught
 * only take value away. */
static double around_calc(plan_t *p, int k, int w)
{
    const battle_t *b = p->b;
    hex_t c = sf_pos(b, p->foes[k].who);
    double sum = 0.0;
    for (int j = 0; j < p->n_foes; j++)
        if (hex_distance(c, sf_pos(b, p->foes[j].who)) <= p->blast_r[w + 1])
            sum += area_top(p, j, w);
    p->around[k][w + 1] = sum;
    return sum;
}

static double shot_top_calc(plan_t *p, int k, int w, int lvl)
{
    const battle_t *b = p->b;
    int a = p->a, t = p->foes[k].who;
    const foe_t *f = &p->foes[k];
    const weapon_t *wp = battle_weapon(b, a, w);
    const sf_wtags_t *tg = &p->wt[w + 1];
    const sf_state_t *st = sf_cst(b);
    sf_shot_t s;
    memset(&s, 0, sizeof s);
    s.roll = SF_ROLL_HIT;
    if (!wp) {
        s.dmg_n = 1;
        s.dmg_sides = 2;
        s.dmg_bonus = sf_stat(b, a, SF_CB);
    } else {
        s.dmg_n = wp->dice_n;
        s.dmg_sides = wp->dice_sides;
        s.dmg_bonus = wp->dice_bonus;
        if (wp->cls == WPN_MELEE || wp->cls == WPN_THROWN) s.dmg_bonus += sf_stat(b, a, SF_STR);
        const sf_unit_t *u = &st->u[a];
        int cont = tg->continuous;
        if (cont > 0 && u->cont_w == w && u->cont_t == t && u->cont_round == b->round - 1)
            s.dmg_bonus += cont * u->cont_n;
    }
    int shots = tg->shots;
    s.shots = shots > 1 ? shots : 1;
    if (s.shots > SF_SHOTS_MAX) s.shots = SF_SHOTS_MAX;
    double ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1], ph[SF_SHOTS_MAX + 1];
    sf_loss_by_hits(&f->def, f->save_area, &s, ek, pk);
    double g[SF_SHOTS_MAX + 1];
    g[0] = 0.0;
    for (int h = 1; h <= s.shots; h++) {
        double v = ek[h] + KILL_WORTH * pk[h];
        g[h] = v > g[h - 1] ? v : g[h - 1];
    }
    s.bonus =
        sf_stat(b, a, SF_CB) + sf_stat(b, t, SF_VLN) + (tg->steady > 0 ? 1 : 0) + sf_cover_mod(lvl);
    sf_hit_dist(&s, ph);
    double top = 0.0;
    for (int h = 1; h <= s.shots; h++) top += ph[h] * g[h];
    for (int roll = 0; roll < 2; roll++) {
        if ((roll ? tg->homing : tg->beam) <= 0) continue;
        s.roll = roll ? SF_ROLL_HOMING : SF_ROLL_BEAM;
        s.bonus = sf_save_score(b, t, roll ? SF_SAVE_HOMING : SF_SAVE_BEAM);
        sf_hit_dist(&s, ph);
        double v = (1.0 - ph[0]) * g[s.shots];
        if (v > top) top = v;
    }
    /* Room for rounding in the sums. */
    top = top * (1.0 + 1e-9) * f->worth;
    /* Bare hands with a martial pool: a damage die of any split may be
     * added, and the guard left is worth something too (martial_worth):
     * at most the whole of the foe, and the largest guard. */
    if (!wp && sf_stat(b, a, SF_MARTIAL) > 0)
        top = p->foe_top[k] * (1.0 + 1e-9) + guard_worth_max(b, a);
    p->shot_top[k][w + 1][lvl] = top;
    return top;
}

/* The bounds above, each worked out once a call and then read. */
static inline double shot_top(plan_t *p, int k, int w, int lvl)
{
    double v = p->shot_top[k][w + 1][lvl];
    return v >= 0 ? v : shot_top_calc(p, k, w, lvl);
}

static inline double hit_top(plan_t *p, int k, int w, int lvl)
{
    double v = p->hit_top[k][w + 1][lvl];
    return v >= 0 ? v : hit_top_calc(p, k, w, lvl);
}

static inline double around(plan_t *p, int k, int w)
{
    double v = p->around[k][w + 1];
    return v >= 0 ? v : around_calc(p, k, w);
}

/* The most a shot of a's weapon w at foe k, at cover level lvl, can be
 * worth: a blast's chance to hit times everyone it can catch, else the
 * single-target bound. Not for cones (is_cone). */
static inline double weapon_top(plan_t *p, int k, int w, int lvl)
{
    return p->area_w[w + 1] ? hit_top(p, k, w, lvl) * around(p, k, w) : shot_top(p, k, w, lvl);
}

/* Is a's weapon w a cone (an area weapon with no blast radius)? */
static inline bool is_cone(const plan_t *p, int w)
{
    return p->area_w[w + 1] && p->blast_r[w + 1] == 0;
}

/* The reach-ordered best damage of threat k (exposure_floor). */
static void floor_init(plan_t *p, int k)
{
    const battle_t *b = p->b;
    int e = p->threat[k], n = 0;
    p->floor_n[k] = 0;
    p->floor_st[k] = sf_stat(b, p->a, SF_STEALTH) - sf_stat(b, e, SF_SENSOR);
    if (p->floor_st[k] >= 4) return; /* never seen */
    int ws[SF_MAX_WEAPONS + 1];
    for (int w = -1; w < b->u[e].n_weapons && w < SF_MAX_WEAPONS; w++) {
        int j = n++;
        for (; j > 0 && p->threat_r[k][ws[j - 1] + 1] < p->threat_r[k][w + 1]; j--)
            ws[j] = ws[j - 1];
        ws[j] = w;
    }
    double best = 0.0;
    for (int j = 0; j < n; j++) {
        if (p->threat_e[k][ws[j] + 1] > best) best = p->threat_e[k][ws[j] + 1];
        p->floor_r[k][j] = p->threat_r[k][ws[j] + 1];
        p->floor_v[k][j] = best;
    }
    p->floor_n[k] = n;
}

/* Is weapon wp a cone (aimed at a hex, any distance)? */
static bool cone_weapon(const weapon_t *wp)
{
    sf_wtags_t tg;
    sf_wtags_get(wp, &tg);
    return tg.cone > 0;
}

static void plan_init(plan_t *p, battle_t *b, int a)
{
    static _Thread_local memos_t memos; /* zeroed at the thread's start */
    /* Only what is read before written: the memos are large. */
    p->n_foes = p->n_threats = p->n_memo = 0;
    if (++memos.call == 0) { /* wrapped: no entry may look current */
        memset(memos.spot, 0, sizeof memos.spot);
        memos.call = 1;
    }
    p->call = memos.call;
    p->spot = memos.spot;
    p->cover = &memos.cover;
    sf_cover_memo_reset(p->cover, sf_los_for(b));
    p->b = b;
    p->a = a;
    for (int w = -1; w < SF_MAX_WEAPONS; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        int r = INT_MAX;
        if (w >= 0 && !wp) r = -1; /* no such weapon */
        else if (wp && cone_weapon(wp))
            r = INT_MAX; /* aimed at a hex: any */
        else if (!wp || wp->cls == WPN_MELEE) r = sf_weapon_reach(b, a, wp);
        else r = geom_ft_to_hexes(b->map, sf_range_ft(wp, sf_stat(b, a, SF_STR)));
        p->reach[w + 1] = r;
    }
    sf_def_init(b, a, &p->self);
    p->n_friends = 0;
    for (int j = 0; j < b->n; j++)
        if (j != a && battle_active(b, j) && board_allies(b->board, a, j))
            p->friends[p->n_friends++] = j;
    for (int t = 0; t < b->n && p->n_foes < MAX_FOES; t++) {
        /* Only foes a's side knows of (RULINGS: the AI plays fair): one
         * hidden from it, or in smoke where no one sees it, is not there. */
        if (!battle_active(b, t) || !sf_enemies(b, a, t) || !sf_side_knows(b, a, t, p->cover->los))
            continue;
        p->foe_at[p->n_foes] = sf_pos(b, t);
        p->foe_cell[p->n_foes] = board_cell_index(b->board, sf_pos(b, t));
        p->foe_st[p->n_foes] = sf_stealth_level(b, a, t);
        foe_t *f = &p->foes[p->n_foes++];
        f->who = t;
        sf_def_init(b, t, &f->def);
        f->save_area = sf_save_score(b, t, SF_SAVE_AREA);
        f->worth = faction_worth(b, t);
    }
    /* Each foe's best weapon against a in the open, from where a stands:
     * expected damage once in range (the range is checked per spot). */
    for (int k = 0; k < p->n_foes; k++) {
        int e = p->foes[k].who;
        p->threat[p->n_threats] = e;
        for (int w = -1; w < b->u[e].n_weapons && w < SF_MAX_WEAPONS; w++) {
            const weapon_t *wp = battle_weapon(b, e, w);
            sf_wtags_t tg; /* all zero for bare hands */
            sf_wtags_get(wp, &tg);
            sf_shot_t s;
            memset(&s, 0, sizeof s);
            s.w = wp;
            s.roll = SF_ROLL_HIT;
            s.shots = tg.shots > 1 ? tg.shots : 1;
            s.dmg_n = wp ? wp->dice_n : 1;
            s.dmg_sides = wp ? wp->dice_sides : 2;
            s.dmg_bonus = wp ? wp->dice_bonus : sf_stat(b, e, SF_CB);
            if (wp && (wp->cls == WPN_MELEE || wp->cls == WPN_THROWN)) s.dmg_bonus += sf_stat(b, e, SF_STR);
            s.blast = tg.blast + tg.area_ray;
            s.cone = tg.cone > 0;
            if (tg.beam > 0 || tg.homing > 1) s.roll = tg.beam > 0 ? SF_ROLL_BEAM : SF_ROLL_HOMING;
            s.bonus = s.roll == SF_ROLL_HIT ? sf_stat(b, e, SF_CB) + sf_stat(b, a, SF_VLN)
                                            : sf_save_score(b, a, s.roll == SF_ROLL_BEAM ? SF_SAVE_BEAM : SF_SAVE_HOMING);
            p->threat_e[p->n_threats][w + 1] = sf_expected_loss_def(&p->self, sf_save_score(b, a, SF_SAVE_AREA), &s);
            p->threat_r[p->n_threats][w + 1] = threat_range(b, e, wp);
            p->threat_blast[p->n_threats][w + 1] = s.blast;
        }
        floor_init(p, p->n_threats);
        p->n_threats++;
    }
    bounds_init(p);
}

/* Damage a is expected to draw standing at h: each foe's best weapon that
 * can reach h, with the cover between them. */
static double exposure_now(plan_t *p, hex_t h)
{
    const battle_t *b = p->b;
    double total = 0.0;
    for (int k = 0; k < p->n_threats; k++) {
        int e = p->threat[k];
        hex_t eh = sf_pos(b, e);
        int d = hex_distance(eh, h);
        double best = 0.0;
        int lvl = -1;
        for (int w = -1; w < b->u[e].n_weapons && w < SF_MAX_WEAPONS; w++) {
            double v = p->threat_e[k][w + 1];
            if (v <= best || d > p->threat_r[k][w + 1]) continue;
            if (lvl < 0) {
                lvl = sf_los_level(p->cover->los, b, eh, h);
                if (lvl > 3) lvl = 3; /* walled off is unseen too */
                int st = sf_stat(b, p->a, SF_STEALTH) - sf_stat(b, e, SF_SENSOR);
                if (st > lvl) lvl = st;
            }
            if (lvl >= 4) break;
            /* Each point of cover takes about a twentieth per point off the chance. */
            int pen = lvl == 1 ? 1 : lvl == 2 ? 2 : lvl == 3 ? 4 : 0;
            double scale = 1.0 - pen * 0.12;
            v *= scale > 0 ? scale : 0;
            /* A blast that would catch friends standing near h tempts the foe
             * more: each one adds half again (spread out against blasts). */
            int r = p->threat_blast[k][w + 1];
            if (r > 0)
                for (int j = 0; j < p->n_friends; j++)
                    if (hex_distance(sf_pos(b, p->friends[j]), h) <= r) v *= 1.5;
            if (v > best) best = v;
        }
        total += best;
    }
    return total;
}

/* A floor under exposure_now(p, h) from the terrain alone (tl[k]: the
 * terrain level of the line from foe k, sf_los_terrain_level): each foe in
 * range with its best weapon at the most cover the line can give, no blast
 * counted; none from a foe a's stealth hides from altogether. */
static double exposure_floor(const plan_t *p, const int *dist, const int8_t *tl)
{
    double total = 0.0;
    for (int k = 0; k < p->n_threats; k++) {
        int d = dist[k];
        double best = 0.0;
        for (int j = 0; j < p->floor_n[k] && p->floor_r[k][j] >= d; j++)
            best = p->floor_v[k][j];
        if (best <= 0.0) continue;
        /* As exposure_now, at the most cover the line can give: unseen
         * (level 3) when the terrain blocks it or is not known; else the
         * terrain's cover, or light when a body might stand in between;
         * a's stealth when that is more. 0.12 a point, 4 points unseen. */
        int lvl = tl[k] < 0 || tl[k] >= 3 ? 3 : tl[k] < 1 ? 1 : tl[k];
        int st = p->floor_st[k];
        lvl = st > lvl ? st : lvl;
        int pen = lvl == 1 ? 1 : lvl == 2 ? 2 : 4;
        total += best * (1.0 - pen * 0.12) * (1.0 - 1e-9);
    }
    return total;
}

/* The value kept for shot s on who (area: one shot of an area attack), or
 * NULL. */
static const double *memo_find(const plan_t *p, int who, bool area, const sf_shot_t *s)
{
    for (int k = 0; k < p->n_memo; k++)
        if (p->memo[k].who == who && p->memo[k].area == area && memcmp(&p->memo[k].s, s, sizeof *s) == 0)
            return &p->memo[k].val;
    return NULL;
}

static void memo_keep(plan_t *p, int who, bool area, const sf_shot_t *s, double val)
{
    if (p->n_memo == SHOT_MEMO) return;
    p->memo[p->n_memo].who = who;
    p->memo[p->n_memo].area = area;
    memcpy(&p->memo[p->n_memo].s, s, sizeof *s);
    p->memo[p->n_memo++].val = val;
}

/* Where h comes in area_hexes' listing of hexes about c: ring by ring
 * outwards, each ring walked from its hex in direction 4. */
static int listing_rank(hex_t c, hex_t h)
{
    int k = hex_distance(c, h);
    if (k == 0) return 0;
    hex_t r = hex_add(c, hex_scale(hex_dir(4), k));
    for (int side = 0, i = 0; side < HEX_DIRS; side++)
        for (int j = 0; j < k; j++, i++) {
            if (hex_eq(r, h)) return 1 + 3 * k * (k - 1) + i;
            r = hex_neighbor(r, side);
        }
    return INT_MAX; /* not reached: h is on ring k */
}

/* The active combatants area ar strikes (a's weapon aimed from where a
 * stands), in the order area_hexes would list their hexes; -1 when the area
 * may be larger than sf_area_hexes lists. Only the few occupied hexes are
 * tested, not every hex the area covers. */
static int caught_by(plan_t *p, const area_t *ar, int *out)
{
    const battle_t *b = p->b;
    if (area_max_hexes(ar) > SF_AREA_MAX) return -1;
    hex_t c = area_center(ar);
    int rank[SF_NMAX], n = 0;
    for (int v = 0; v < b->n; v++) {
        hex_t h = sf_pos(b, v);
        if (!battle_active(b, v) || board_occupant(b->board, h) != v || !area_shape_has(ar, h) ||
            !sf_los_clear(p->cover->los, b, c, h))
            continue;
        int r = listing_rank(c, h), k = n++;
        for (; k > 0 && rank[k - 1] > r; k--) {
            rank[k] = rank[k - 1];
            out[k] = out[k - 1];
        }
        rank[k] = r;
        out[k] = v;
    }
    return n;
}

/* Value of a's attack shape s on foe t (cones: everyone caught). */
static double shot_value(plan_t *p, int t, const sf_shot_t *s, cell_t aim)
{
    const battle_t *b = p->b;
    int a = p->a;
    double val = 0.0;
    if (s->cone || s->blast > 0) {
        hex_t c = s->cone ? hex_from_cell(b->map->layout, aim) : sf_pos(b, t);
        int who[SF_NMAX], n = 0;
        area_t ar;
        if (sf_weapon_area(b->map, s->w, sf_pos(b, a), c, &ar)) n = caught_by(p, &ar, who);
        if (n < 0) { /* a huge area: list its hexes */
            hex_t buf[SF_AREA_MAX];
            int nh = sf_area_hexes(b, a, s->w, c, buf, SF_AREA_MAX);
            n = 0;
            for (int k = 0; k < nh; k++) {
                int v = board_occupant(b->board, buf[k]);
                if (v >= 0 && battle_active(b, v)) who[n++] = v;
            }
        }
        double ph[SF_SHOTS_MAX + 1];
        sf_hit_dist(s, ph);
        double p_hit = 1.0 - ph[0];
        for (int k = 0; k < n; k++) {
            int v = who[k];
            /* A foe a's side does not know of is not counted (plays fair). */
            if (sf_enemies(b, a, v) && foe_index(p, v) < 0) continue;
            sf_shot_t one;
            memcpy(&one, s, sizeof one);
            one.shots = 1;
            /* a itself may stand in it: its own state changes as it plans. */
            const double *kept = v != a ? memo_find(p, v, true, &one) : NULL;
            double hit_worth;
            if (kept) {
                hit_worth = *kept;
            } else {
                double ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1];
                sf_def_t d;
                sf_def_init(b, v, &d);
                sf_loss_by_hits(&d, sf_save_score(b, v, SF_SAVE_AREA), &one, ek, pk);
                hit_worth = ek[1] + KILL_WORTH * pk[1];
                if (v != a) memo_keep(p, v, true, &one, hit_worth);
            }
            double e = p_hit * hit_worth;
            if (sf_enemies(b, a, v)) {
                val += e * p->foes[foe_index(p, v)].worth;
            } else {
                val -= 2.0 * e; /* never hurt our own lightly */
            }
        }
        return val;
    }
    int fi = foe_index(p, t);
    if (fi < 0) return 0.0;
    const foe_t *f = &p->foes[fi];
    double ph[SF_SHOTS_MAX + 1], ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1];
    sf_shot_t sc;
    memcpy(&sc, s, sizeof sc);
    if (sc.shots > SF_SHOTS_MAX) sc.shots = SF_SHOTS_MAX;
    const double *kept = memo_find(p, t, false, &sc);
    if (kept) return *kept;
    sf_hit_dist(&sc, ph);
    sf_loss_by_hits(&f->def, f->save_area, &sc, ek, pk);
    for (int k = 1; k <= sc.shots; k++) val += ph[k] * (ek[k] + KILL_WORTH * pk[k]);
    memo_keep(p, t, false, &sc, val * f->worth);
    return val * f->worth;
}

/* Heat the firer would carry past its vent, in expected HP (S-D9). */
static double heat_cost(const battle_t *b, int a, int heat_fire)
{
    return SF_HEAT_POINT_COST *
           sf_heat_over(sf_stat(b, a, SF_HEAT), sf_stat(b, a, SF_VENT), heat_fire);
}

static double exposure(plan_t *p, hex_t h);

/* Bare-handed blows of a on t that split its martial pool (S33): a damage
 * die X added to the blow, the rest a guard die until its next turn; each
 * split weighed as the blow's worth and the guard's, into *best. */
static void martial_splits(plan_t *p, int t, cell_t at, int pool, int actions, pick_t *best)
{
    battle_t *b = p->b;
    int a = p->a;
    double here = -1.0;
    for (int x = 0; x <= pool && x <= SF_ARG_MARTIAL_MASK; x++) {
        int arg = SF_ARG_MARTIAL | x << SF_ARG_MARTIAL_SHIFT;
        sf_shot_t s;
        if (!sf_shot_shape_memo(b, a, t, -1, arg, 1, at, p->cover, &s) || s.actions > actions)
            continue;
        if (here < 0) here = exposure(p, sf_pos(b, a));
        double v = shot_value(p, t, &s, at) + guard_worth(here, pool - x);
        if (v > best->val) *best = (pick_t){v, t, -1, arg, at};
    }
}

/* The best single attack a can make from where it stands now (the board and
 * a's moved flag as the caller set them), with at most `actions` actions. */
static pick_t best_attack(plan_t *p, int actions)
{
    battle_t *b = p->b;
    int a = p->a;
    pick_t best = {0.0, -1, -2, 0, {0, 0}};
    /* Weapons sf_shot_shape refuses whoever the target is: not in hand
     * (a vehicle's are all to hand), or fired only standing still after a
     * move (S9). */
    const sf_unit_t *u = &sf_cst(b)->u[a];
    unsigned held = sf_vehicle(b, a) ? ~0u : u->hand;
    int pool = sf_stat(b, a, SF_MARTIAL);
    for (int k = 0; k < p->n_foes; k++) {
        int t = p->foes[k].who;
        cell_t at = hex_to_cell(b->map->layout, sf_pos(b, t));
        int d = sf_dist(b, a, t);
        int lvl = -1;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            if (w < SF_MAX_WEAPONS && d > p->reach[w + 1]) continue;
            if (w >= 0 && w < SF_MAX_WEAPONS &&
                (!((held >> w) & 1u) || (u->moved && p->still_w[w + 1])))
                continue;
            if (p->bound_ok && w < SF_MAX_WEAPONS && (!p->area_w[w + 1] || p->blast_r[w + 1] > 0)) {
                /* A shot that cannot beat the best so far is not shaped:
                 * the pick is the same (only a strictly better one wins). */
                double open = weapon_top(p, k, w, 0);
                if (open + p->heat_gain <= best.val) continue; /* no line traced */
                if (lvl < 0) lvl = sf_cover_level_memo(p->cover, b, a, t);
                if (lvl >= 4) continue; /* t cannot be targeted from here */
                double top = weapon_top(p, k, w, lvl);
                if (top + p->heat_gain <= best.val) continue;
            }
            sf_shot_t s;
            if (!sf_shot_shape_memo(b, a, t, w, 0, 1, at, p->cover, &s) || s.actions > actions)
                continue;
            double v = shot_value(p, t, &s, at) - heat_cost(b, a, s.heat_fire);
            if (v > best.val) best = (pick_t){v, t, w, 0, at};
            if (w == -1 && pool > 0) martial_splits(p, t, at, pool, actions, &best);
        }
    }
    return best;
}

/* Place a at h for a look (the board only), and back. */
static hex_t look_from(battle_t *b, int a, hex_t h)
{
    hex_t old = sf_pos(b, a);
    if (!hex_eq(old, h)) board_place(b->board, a, h);
    return old;
}

/* The ends of a move of `mode` for a, into b->reach; returns the count. */
static int ends(battle_t *b, int a, int mode)
{
    move_cost_t mc;
    if (!sf_move_cost(b, a, mode, &mc)) return 0;
    int n = geom_reach_mode(&mc, b->ps, b->reach, b->ncells);
    return n < b->ncells ? n : b->ncells;
}

/* A move command of `mode` to cell `to`: the cheapest path there. */
static bool move_cmd(battle_t *b, int a, int mode, cell_t to, cmd_t *out)
{
    move_cost_t mc;
    int cost, len;
    if (!sf_move_cost(b, a, mode, &mc) ||
        !geom_path_mode(&mc, to, b->ps, &cost, b->path, b->ncells, &len) || len < 2 ||
        len > CMD_PATH_MAX + 1)
        return false;
    *out = cmd_make(CMD_MOVE, a);
    out->arg = mode;
    for (int k = 1; k < len; k++) out->path[out->n_path++] = b->path[k];
    return sf_path_ok(b, a, mode, out->path, out->n_path, &cost);
}

/* What standing at h is worth for next turn: the best attack from there
 * without moving first, less a little for being far from every foe. */
static double next_turn_worth_now(plan_t *p, hex_t h)
{
    battle_t *b = p->b;
    int a = p->a;
    sf_state_t *s = sf_st(b);
    hex_t old = look_from(b, a, h);
    uint8_t moved = s->u[a].moved, still = s->u[a].fired_still, att = s->u[a].attacked;
    s->u[a].moved = 0;
    s->u[a].fired_still = 0;
    s->u[a].attacked = 0;
    pick_t pk = best_attack(p, 2);
    s->u[a].moved = moved;
    s->u[a].fired_still = still;
    s->u[a].attacked = att;
    look_from(b, a, old);
    int near = 1 << 20;
    for (int k = 0; k < p->n_foes; k++) {
        int d = hex_distance(h, sf_pos(b, p->foes[k].who));
        near = d < near ? d : near;
    }
    /* Nothing to strike from there: closing in is what is worth something. */
    return pk.val > 0 ? pk.val - 0.05 * near : -APPROACH * near;
}

/* The memo entry of hex h (NULL: off the map, or the memo full). */
static spot_t *spot_of(plan_t *p, hex_t h)
{
    int cell = board_cell_index(p->b->board, h);
    if (cell < 0) return NULL;
    unsigned slot = ((unsigned)cell * 2654435761u) >> 22 & (SPOT_MEMO - 1);
    for (int probe = 0; probe < SPOT_MEMO / 2; probe++, slot = (slot + 1) & (SPOT_MEMO - 1)) {
        if (p->spot[slot].call != p->call) {
            p->spot[slot].call = p->call;
            p->spot[slot].cell = cell;
            p->spot[slot].has_exp = p->spot[slot].has_next = false;
            return &p->spot[slot];
        }
        if (p->spot[slot].cell == cell) return &p->spot[slot];
    }
    return NULL;
}

/* Damage a is expected to draw standing at h (exposure_now), once per hex. */
static double exposure(plan_t *p, hex_t h)
{
    spot_t *sp = spot_of(p, h);
    if (!sp) return exposure_now(p, h);
    if (!sp->has_exp) {
        sp->exp = exposure_now(p, h);
        sp->has_exp = true;
    }
    return sp->exp;
}

/* next_turn_worth_now, once per hex: nothing it reads changes in a call. */
static double next_turn_worth(plan_t *p, hex_t h)
{
    spot_t *sp = spot_of(p, h);
    if (!sp) return next_turn_worth_now(p, h);
    if (!sp->has_next) {
        sp->next = next_turn_worth_now(p, h);
        sp->has_next = true;
    }
    return sp->next;
}

typedef struct {
    double val;
    cmd_t first;
    bool strikes; /* the plan strikes this turn */
} plan_pick_t;

static void consider(plan_pick_t *best, double val, const cmd_t *c)
{
    if (val > best->val) {
        best->val = val;
        best->first = *c;
    }
}

static cmd_t engage_cmd(int a, const pick_t *pk)
{
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = pk->t;
    c.weapon = pk->w;
    c.arg = pk->arg;
    c.at = pk->at;
    return c;
}

/* Set the passes of attack_bounds for a plan_moves: pass 0 next turn (not
 * moved, two actions), and when `attack` pass 1 right after this move
 * (moved, so without the weapons that must stand still; after_actions
 * actions). */
static void bounds_begin(plan_t *p, bool attack, int after_actions)
{
    int nw = p->b->u[p->a].n_weapons;
    p->np = attack ? 2 : 1;
    p->n_cones = 0;
    for (int w = -1; w < nw; w++) {
        p->use[w + 1] = p->w_actions[w + 1] <= 2 ? 1u : 0u;
        if (attack && !p->still_w[w + 1] && p->w_actions[w + 1] <= after_actions)
            p->use[w + 1] |= 2u;
        if (p->use[w + 1] && is_cone(p, w)) p->cones[p->n_cones++] = w;
    }
    for (int k = 0; k < p->n_foes; k++)
        for (int d = 0; d < OPEN_D; d++)
            p->open_d[k][d][0] = OPEN_UNKNOWN;
    for (int k = 0; k < p->n_foes; k++) {
        int j = k;
        for (; j > 0 && p->foe_top[p->foe_order[j - 1]] < p->foe_top[k]; j--)
            p->foe_order[j] = p->foe_order[j - 1];
        p->foe_order[j] = k;
    }
}

/* Foe k's bounds in the open, d hexes away, for both passes (pass 1 only
 * when there is one): the best weapon of the pass that needs a target and
 * reaches it, -1 when none does. Kept below OPEN_D; else written to tmp. */
static const double *open_pair(plan_t *p, int k, int d, double *tmp)
{
    double *o = d < OPEN_D ? p->open_d[k][d] : tmp;
    if (d < OPEN_D && o[0] != OPEN_UNKNOWN) return o;
    o[0] = o[1] = -1.0;
    for (int w = -1; w < p->b->u[p->a].n_weapons; w++) {
        if (!p->use[w + 1] || is_cone(p, w) || d > p->reach[w + 1]) continue;
        double v = weapon_top(p, k, w, 0);
        for (int i = 0; i < p->np; i++)
            if ((p->use[w + 1] >> i) & 1u && v > o[i]) o[i] = v;
    }
    return o;
}

/* Upper bounds on what best_attack can find with a standing at h (placed
 * there by the caller) for each pass of bounds_begin. For each pass i,
 * top[i]: the bound, 0 when none[i]: no foe can be struck by any weapon of
 * that pass from h, so best_attack finds nothing there. *near: the nearest
 * foe. A shot at a foe needs it in reach and seen (cover level below 4) and
 * is bounded at the cover it has there; a blast by the chance it hits at all
 * times everyone it can catch; a cone (never rolled) by every foe within
 * its reach of h. A foe whose bound in the open (cover only lowers it)
 * cannot raise any pass's bound has no line traced: the bounds are the
 * same, for fewer lines. Foes are looked at most valuable first, so that
 * the bound rises early.
 * open_only: every foe in reach taken as seen and in the open, a looser
 * bound that traces no line (and needs a not placed at h). */
static void attack_bounds(plan_t *p, hex_t h, const int *d_in, const int8_t *tl, double *top,
                          bool *none, int *near)
{
    const battle_t *b = p->b;
    int np = p->np;
    double area[2][SF_MAX_WEAPONS + 1];
    bool fires[2][SF_MAX_WEAPONS + 1];
    for (int i = 0; i < np; i++) {
        top[i] = 0.0, none[i] = true;
        for (int c = 0; c < p->n_cones; c++)
            area[i][c] = 0.0, fires[i][c] = false;
    }
    *near = 1 << 20;
    double open[MAX_FOES][2], tmp[2];
    int dist[MAX_FOES];
    for (int k = 0; k < p->n_foes; k++) {
        int d = dist[k] = d_in ? d_in[k] : hex_distance(h, sf_pos(b, p->foes[k].who));
        *near = d < *near ? d : *near;
        const double *o = open_pair(p, k, d, tmp);
        open[k][0] = o[0];
        open[k][1] = o[1];
        for (int c = 0; c < p->n_cones; c++) {
            int w = p->cones[c];
            for (int i = 0; i < np; i++) {
                if (!((p->use[w + 1] >> i) & 1u)) continue;
                if (d <= p->area_far[w + 1]) area[i][c] += area_top(p, k, w);
                if (d <= p->reach[w + 1]) fires[i][c] = true, none[i] = false;
            }
        }
    }
    for (int o = 0; o < p->n_foes; o++) {
        int k = p->foe_order[o];
        bool worth = false;
        for (int i = 0; i < np; i++)
            worth = worth || (open[k][i] >= 0 && (none[i] || open[k][i] > top[i]));
        if (!worth) continue;
        int t = p->foes[k].who, lvl;
        if (!tl) {
            lvl = sf_cover_level_memo(p->cover, b, p->a, t);
        } else {
            /* The worse of the terrain's cover and t's stealth: a body on
             * the line or t's place unknown only ever add to it. */
            lvl = tl[k] > p->foe_st[k] ? tl[k] : p->foe_st[k];
        }
        if (lvl >= 4) continue; /* t cannot be targeted from here */
        for (int w = -1; w < b->u[p->a].n_weapons; w++) {
            if (!p->use[w + 1] || is_cone(p, w) || dist[k] > p->reach[w + 1]) continue;
            double v = weapon_top(p, k, w, lvl);
            for (int i = 0; i < np; i++) {
                if (!((p->use[w + 1] >> i) & 1u)) continue;
                none[i] = false;
                if (v > top[i]) top[i] = v;
            }
        }
    }
    for (int i = 0; i < np; i++) {
        if (none[i]) {
            top[i] = 0.0;
            continue;
        }
        for (int c = 0; c < p->n_cones; c++)
            if (fires[i][c] && area[i][c] > top[i]) top[i] = area[i][c];
        top[i] += p->heat_gain;
    }
}

/* An upper bound on what plan_moves adds to a move to h for the attack
 * after it or for next turn (exposure and the walk left out), for the
 * passes of bounds_begin; open_only: the looser bound that traces no line
 * (attack_bounds). */
static double move_gain(plan_t *p, hex_t h, const int *dist, const int8_t *tl)
{
    bool none[2];
    double ub[2];
    int near;
    bool attack = p->np > 1;
    hex_t old = tl ? h : look_from(p->b, p->a, h);
    attack_bounds(p, h, dist, tl, ub, none, &near);
    if (!tl) look_from(p->b, p->a, old);
    /* next_turn_worth: the best attack less 0.05 a hex, or closing in. */
    double nt = -APPROACH * near;
    if (!none[0] && ub[0] - 0.05 * near > nt) nt = ub[0] - 0.05 * near;
    double x = NEXT_TURN * nt;
    /* After a move: the attack found, or next turn's worth if none. */
    if (attack && !none[0] && ub[1] > x) x = ub[1];
    return x;
}

/* An upper bound on the value plan_moves works out for a move of gain
 * bound x costing cost_ft, exposure already weighed (v0 = -EXPOSURE_WEIGHT
 * * exposure, never above 0), with a margin for rounding. It never falls
 * as v0 rises: v0 = 0 bounds the move before its exposure is known. */
static double move_bound(double v0, double x, int cost_ft)
{
    double bound = v0 + x - 0.001 * cost_ft;
    return bound + 1e-6 + 1e-9 * (fabs(v0) + fabs(x) + 0.001 * cost_ft);
}

/* Can a candidate (index k) whose value is at most ub not be the pick: not
 * above the best plan already in *best (consider takes only a strictly
 * better one), nor above the best candidate so far (top, index top_k), nor
 * level with it from a later index? */
static bool cannot_win(double ub, const plan_pick_t *best, double top, int top_k, int k)
{
    return ub <= best->val || (top_k >= 0 && (ub < top || (ub <= top && k > top_k)));
}

/* Moves of `mode` followed (when `then_attack`) by the best attack from the
 * end, or valued for next turn; adds the best to *best.
 *
 * The pick is the first candidate (in b->reach's order) of the highest
 * value. Candidates are weighed from the highest bound down, and one whose
 * bound cannot win is not weighed at all: the same pick, for a fraction of
 * the work. The bound is made tighter in steps, each dearer than the one
 * before and each only for the candidates the one before could not rule
 * out: every foe taken in the open and the floor of the exposure (no line
 * traced); then the cover each foe has from the hex; then the exposure
 * itself. */
static void plan_moves(plan_t *p, int mode, int after_actions, bool then_attack, plan_pick_t *best)
{
    battle_t *b = p->b;
    int a = p->a;
    sf_state_t *s = sf_st(b);
    int n = ends(b, a, mode);
    if (n <= 0) return;
    /* Copy: the path search below reuses b->reach. */
    enum { CAND_MAX = 512 };
    geom_reach_t cand[CAND_MAX];
    double ubs[CAND_MAX], v_low[CAND_MAX];
    int8_t tf[MAX_FOES];
    int order[CAND_MAX];
    if (n > CAND_MAX) n = CAND_MAX;
    memcpy(cand, b->reach, sizeof cand[0] * (size_t)n);
    bool attack = then_attack && after_actions > 0 && !s->u[a].attacked;
    if (p->bound_ok) bounds_begin(p, attack, after_actions);
    for (int k = 0; k < n; k++) {
        ubs[k] = 1e300;
        if (p->bound_ok) {
            hex_t h = hex_from_cell(b->map->layout, cand[k].at);
            /* The terrain of each foe's line to h (the same both ways). */
            int8_t tl[MAX_FOES];
            int dist[MAX_FOES];
            sf_los_terrain_levels(p->cover->los, b, h, map_index(b->map, cand[k].at), p->foe_at,
                                  p->foe_cell, p->n_foes, tf);
            for (int f = 0; f < p->n_foes; f++) {
                tl[f] = (int8_t)(tf[f] < 0 ? 0 : tf[f]);
                dist[f] = hex_distance(h, p->foe_at[f]);
            }
            v_low[k] = -EXPOSURE_WEIGHT * exposure_floor(p, dist, tf);
            ubs[k] = move_bound(v_low[k], move_gain(p, h, dist, tl), cand[k].cost_ft);
        }
    }
    /* Those that could beat the best plan so far; most calls weigh only a
     * few of them before the rest cannot win. */
    int left = 0;
    for (int k = 0; k < n; k++)
        if (ubs[k] > best->val) order[left++] = k;
    double top = -1e300;
    int top_k = -1;
    bool top_strikes = false;
    while (left > 0) {
        /* The highest bound left (the first on a tie), taken out. */
        int at = 0;
        for (int j = 1; j < left; j++)
            if (ubs[order[j]] > ubs[order[at]]) at = j;
        int k = order[at];
        order[at] = order[--left];
        if (ubs[k] <= best->val || (top_k >= 0 && ubs[k] < top)) break; /* so are all after it */
        if (cannot_win(ubs[k], best, top, top_k, k)) continue;
        hex_t h = hex_from_cell(b->map->layout, cand[k].at);
        if (p->bound_ok) {
            double x = move_gain(p, h, NULL, NULL);
            if (cannot_win(move_bound(v_low[k], x, cand[k].cost_ft), best, top, top_k, k) ||
                cannot_win(move_bound(-EXPOSURE_WEIGHT * exposure(p, h), x, cand[k].cost_ft), best,
                           top, top_k, k))
                continue;
        }
        double v = -EXPOSURE_WEIGHT * exposure(p, h);
        bool strikes = false;
        if (attack) {
            hex_t old = look_from(b, a, h);
            uint8_t moved = s->u[a].moved;
            s->u[a].moved = 1;
            pick_t pk = best_attack(p, after_actions);
            s->u[a].moved = moved;
            look_from(b, a, old);
            if (pk.t >= 0 || pk.w >= -1) v += pk.t >= 0 ? pk.val : 0.0;
            if (pk.t < 0) v += NEXT_TURN * next_turn_worth(p, h);
            strikes = pk.t >= 0;
        } else {
            v += NEXT_TURN * next_turn_worth(p, h);
        }
        v -= 0.001 * cand[k].cost_ft; /* ties: the shorter walk */
        if (v > top || (v == top && k < top_k)) {
            top = v;
            top_k = k;
            top_strikes = strikes;
        }
    }
    cmd_t c;
    /* The path only for a move that beats the best plan (consider takes no other). */
    if (top_k >= 0 && top > -1e299 && top > best->val && move_cmd(b, a, mode, cand[top_k].at, &c)) {
        consider(best, top, &c);
        best->strikes = top_strikes;
    }
}

/* Expected damage the free attacks on a flee would deal a (S6). */
static double flee_toll(const plan_t *p)
{
    battle_t *b = p->b;
    int a = p->a;
    const sf_state_t *s = sf_cst(b);
    double toll = 0.0;
    for (int r = 0; r < b->n; r++) {
        if (!battle_active(b, r) || !sf_enemies(b, a, r) || !sf_in_melee_pair(b, a, r)) continue;
        if (s->u[r].left < 1 || s->u[r].attacked) continue;
        int w = sf_response_weapon(b, r, a);
        sf_shot_t sh;
        cell_t none = {0, 0};
        if (w < -1 || !sf_shot_shape(b, r, a, w, 0, 1, none, &sh)) continue;
        toll += sf_expected_loss_def(&p->self, sf_save_score(b, a, SF_SAVE_AREA), &sh);
    }
    return toll;
}

/* How many hexes of the map a standing at h would see (a clear line). */
static int view_from(const battle_t *b, sf_los_t *los, hex_t h)
{
    int n = 0;
    for (int r = 0; r < b->map->rows; r++)
        for (int c = 0; c < b->map->cols; c++) {
            cell_t cl = {c, r};
            n += sf_los_clear(los, b, h, hex_from_cell(b->map->layout, cl));
        }
    return n;
}

/* With no foe its side knows of (its foes hidden, or beyond smoke), a looks
 * around: one move to the hex of its reach that sees the most of the map
 * (the cheapest of those; none when none sees more than here), so that the
 * battle does not stand still with both sides blind. Otherwise *out stays
 * `end`. It learns only what any table would: where it can see from. */
static void look_around(battle_t *b, int a, cmd_t *out)
{
    if (!sf_mode_open(b, a, SF_MOVE) || sf_cst(b)->u[a].moved) return;
    sf_los_t *los = sf_los_for(b);
    int n = ends(b, a, SF_MOVE), best = -1, seen = view_from(b, los, sf_pos(b, a));
    enum { LOOK_MAX = 512 };
    geom_reach_t cand[LOOK_MAX];
    if (n > LOOK_MAX) n = LOOK_MAX;
    memcpy(cand, b->reach, sizeof cand[0] * (size_t)(n > 0 ? n : 0));
    for (int k = 0; k < n; k++) {
        int v = view_from(b, los, hex_from_cell(b->map->layout, cand[k].at));
        if (v > seen || (v == seen && best >= 0 && cand[k].cost_ft < cand[best].cost_ft)) {
            seen = v;
            best = k;
        }
    }
    cmd_t c;
    if (best >= 0 && move_cmd(b, a, SF_MOVE, cand[best].at, &c)) *out = c;
}

void sf_ai(battle_t *b, int a, cmd_t *out)
{
    *out = cmd_make(CMD_END, a);
    if (!sf_may_act(b, a)) return;
    sf_state_t *s = sf_st(b);
    sf_unit_t *u = &s->u[a];
    if (u->left == 0) return;
    plan_t p;
    plan_init(&p, b, a);
    if (p.n_foes == 0) {
        look_around(b, a, out);
        return;
    }
    hex_t here = sf_pos(b, a);
    bool melee = sf_in_melee(b, a);
    /* Holding: stay, keep the actions (a flee nearby may be answered). */
    /* Ending here. Having moved already, a second move must be clearly
     * better: no walking back and forth on small changes of mind. */
    double stay = -EXPOSURE_WEIGHT * exposure(&p, here) + (u->moved ? SECOND_THOUGHTS : 0.0);
    plan_pick_t best = {NEXT_TURN * next_turn_worth(&p, here) + stay, *out, false};
    bool attack_now = false;
    /* Strike from here now; whatever is left is planned on the next call. */
    if (!u->attacked) {
        pick_t pk = best_attack(&p, u->left);
        if (pk.t >= 0) {
            cmd_t c = engage_cmd(a, &pk);
            consider(&best, pk.val + stay, &c);
            best.strikes = best.first.kind == CMD_ENGAGE;
            attack_now = true;
        }
    }
    if (!melee) {
        if (sf_mode_open(b, a, SF_MOVE)) plan_moves(&p, SF_MOVE, u->left - 1, true, &best);
        /* A sprint (four times the ER for both actions, S3) when nothing
         * can be struck from here nor after the best move: weighed against
         * that move by where each ends, for next turn. */
        if (!attack_now && !best.strikes && sf_mode_open(b, a, SF_SPRINT))
            plan_moves(&p, SF_SPRINT, 0, false, &best);
    } else {
        if (sf_mode_open(b, a, SF_RETREAT)) plan_moves(&p, SF_RETREAT, u->left - 1, true, &best);
        /* Flee only from a single foe: the free attacks are certain (1.5). */
        int foes = 0;
        for (int k = 0; k < p.n_foes; k++) foes += sf_in_melee_pair(b, a, p.foes[k].who);
        if (foes == 1 && sf_mode_open(b, a, SF_FLEE)) {
            /* Only a flee worth more than the best plan with its toll paid
             * can be taken: a little less than that is the bar to clear
             * (so rounding never bars one that consider would take). */
            double toll = flee_toll(&p);
            double bar = best.val + toll;
            plan_pick_t fl = {bar - 1e-6 * (1.0 + fabs(best.val) + toll), *out, false};
            plan_moves(&p, SF_FLEE, 0, false, &fl);
            if (fl.first.kind == CMD_MOVE) consider(&best, fl.val - toll, &fl.first);
        }
    }
    /* Switch weapons, then strike with the one taken in hand. */
    if (!u->attacked && u->left >= 2 && !sf_vehicle(b, a)) {
        uint16_t had = u->hand;
        for (int w = 0; w < b->u[a].n_weapons && w < 16; w++) {
            if ((had >> w) & 1u) continue;
            u->hand = sf_hand_with(b, a, w, had);
            pick_t pk = best_attack(&p, u->left - 1);
            u->hand = had;
            if (pk.t < 0 || pk.w != w) continue;
            cmd_t c = cmd_make(CMD_SWITCH, a);
            c.weapon = w;
            consider(&best, pk.val + stay - 0.01, &c);
        }
    }
    *out = best.first;
}

int sf_ai_order_key(const battle_t *b, int i)
{
    if (sf_stat(b, i, SF_SENSOR) > 0) return 0; /* spotters first: they reveal */
    bool ranged = false;
    for (int w = 0; w < b->u[i].n_weapons; w++) {
        const weapon_t *wp = b->u[i].weapon[w];
        if (wp->cls == WPN_MELEE || !sf_ready(b, i, w)) continue;
        ranged = true;
        for (int t = 0; t < b->n; t++) {
            sf_shot_t s;
            cell_t at = hex_to_cell(b->map->layout, sf_pos(b, t));
            if (battle_active(b, t) && sf_enemies(b, i, t) && sf_shot_shape(b, i, t, w, 0, 1, at, &s))
                return 1; /* a shot with no move */
        }
    }
    return ranged ? 2 : 3; /* movers, then melee last */
}

bool sf_ai_respond(const battle_t *b, int r, int t)
{
    const sf_state_t *s = sf_cst(b);
    int w = sf_response_weapon(b, r, t);
    sf_shot_t sh;
    cell_t none = {0, 0};
    if (w < -1 || !sf_shot_shape(b, r, t, w, 0, 1, none, &sh)) return false;
    if (s->u[r].done) return true; /* its own turn is over: the action is free */
    /* Before its own turn, the response spends its one attack: worth it for
     * a likely kill, or when it has nothing to shoot the fleer with later. */
    sf_def_t d;
    sf_def_init(b, t, &d);
    double ph[SF_SHOTS_MAX + 1], ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1];
    sf_hit_dist(&sh, ph);
    sf_loss_by_hits(&d, sf_save_score(b, t, SF_SAVE_AREA), &sh, ek, pk);
    double kill = 0.0;
    for (int k = 1; k <= sh.shots && k <= SF_SHOTS_MAX; k++) kill += ph[k] * pk[k];
    if (kill >= 0.3) return true;
    for (int k = 0; k < b->u[r].n_weapons; k++)
        if (b->u[r].weapon[k]->cls != WPN_MELEE) return false;
    return true;
}
