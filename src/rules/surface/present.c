/* present.c - Surface Combat odds: what an attack is likely to do, computed
 * exactly from the shape apply rolls (sf_shot_shape), without rolling.
 * The AI reads the same numbers.
 */
#include <stdio.h>
#include <string.h>

#include "surface.h"

#define DMAX 1024 /* damage totals tracked exactly (a 10-shot 3d6 burst is 180) */

double sf_p_d20(int bonus)
{
    int faces = bonus + 1; /* faces f with f + bonus >= 20 */
    if (faces < 0) faces = 0;
    if (faces > 20) faces = 20;
    return faces / 20.0;
}

void sf_hit_dist(const sf_shot_t *s, double *p)
{
    if (s->shots < 1) {
        p[0] = 1.0; /* nothing fired, nothing hits */
        return;
    }
    /* The to-hit count below sets every entry; the others set one or two. */
    if (s->roll != SF_ROLL_HIT) memset(p, 0, sizeof(double) * (size_t)(s->shots + 1));
    if (s->roll == SF_ROLL_NONE) {
        p[1] = 1.0;
        return;
    }
    if (s->roll != SF_ROLL_HIT) {
        double fail = 1.0 - sf_p_d20(s->bonus); /* the target's save */
        p[0] = 1.0 - fail;
        p[s->shots] += fail;
        return;
    }
    /* Face f scores min(max(f + bonus - 19, 0), shots) hits: count the
     * faces of each count at once; c faces are a chance of c / 20. */
    int b = s->bonus, n = s->shots;
    int miss = 19 - b, top = 2 + b - n;
    p[0] = (miss < 0 ? 0 : miss > 20 ? 20 : miss) / 20.0;
    for (int h = 1; h < n; h++) {
        int f = 19 + h - b; /* the one face that scores h */
        p[h] = f >= 1 && f <= 20 ? 1.0 / 20.0 : 0.0;
    }
    p[n] = (top < 0 ? 0 : top > 20 ? 20 : top) / 20.0;
}

/* Add n dice of `sides` to distribution d (support 0..*top). */
static void add_dice(double *d, int *top, int n, int sides)
{
    static const int CAP = DMAX;
    for (int k = 0; k < n && sides > 0; k++) {
        double next[DMAX];
        int hi = *top + sides < CAP - 1 ? *top + sides : CAP - 1;
        memset(next, 0, sizeof(double) * (size_t)(hi + 1));
        for (int v = 0; v <= *top; v++)
            if (d[v] > 0)
                for (int f = 1; f <= sides; f++) {
                    int x = v + f < hi ? v + f : hi;
                    next[x] += d[v] / sides;
                }
        *top = hi;
        memcpy(d, next, sizeof(double) * (size_t)(hi + 1));
    }
}

int sf_heat_over(int heat, int vent, int add)
{
    int before = heat - vent > 0 ? heat - vent : 0;
    int after = heat + add - vent > 0 ? heat + add - vent : 0;
    return after - before;
}

void sf_def_init(const battle_t *b, int t, sf_def_t *d)
{
    memset(d, 0, sizeof *d);
    d->soak[0] = 1.0;
    for (int k = 0; k < 2; k++) {
        int n = sf_stat(b, t, k ? SF_SOAK2_N : SF_SOAK_N), sides = sf_stat(b, t, k ? SF_SOAK2_D : SF_SOAK_D);
        for (int die = 0; die < n && sides > 0 && d->top + sides < SF_SOAK_MAX; die++) {
            double next[SF_SOAK_MAX];
            memset(next, 0, sizeof(double) * (size_t)(d->top + sides + 1));
            for (int v = 0; v <= d->top; v++)
                for (int f = 1; f <= sides; f++) next[v + f] += d->soak[v] / sides;
            d->top += sides;
            memcpy(d->soak, next, sizeof(double) * (size_t)(d->top + 1));
        }
    }
    d->has_soak = d->top > 0;
    int over = sf_heat_over(sf_stat(b, t, SF_HEAT), sf_stat(b, t, SF_VENT), sf_soak_heat(b, t));
    d->heat_cost = SF_HEAT_POINT_COST * over;
    d->armor = sf_stat(b, t, SF_ARMOR);
    d->hp = b->u[t].hp;
    d->guard = sf_cst(b)->u[t].guard;
    /* The soak table follows from the two dice stats, heat_cost from the
     * heat a soak leaves: these eight numbers decide the whole defender. */
    const int key[SF_DEF_KEY] = {sf_stat(b, t, SF_SOAK_N),
                                 sf_stat(b, t, SF_SOAK_D),
                                 sf_stat(b, t, SF_SOAK2_N),
                                 sf_stat(b, t, SF_SOAK2_D),
                                 over,
                                 d->armor,
                                 d->hp,
                                 d->guard};
    memcpy(d->key, key, sizeof key);
}

/* sf_def_soaks with the heat a soak would cost given. */
static bool soaks_at(const sf_def_t *d, int amount, double heat_cost)
{
    if (amount <= 0 || !d->has_soak) return false;
    double absorbed = 0.0;
    for (int v = 0; v <= d->top; v++) absorbed += d->soak[v] * (v < amount ? v : amount);
    return absorbed > heat_cost;
}

bool sf_def_soaks(const sf_def_t *d, int amount)
{
    return soaks_at(d, amount, d->heat_cost);
}

/* What the defender loses to `left` once the guard die and soak (as its
 * policy would choose) are through: armour HP first, then HP (capped at what
 * it has) or nonlethal. *kill gets the chance that this takes its last HP. */
static double after_guard(const sf_def_t *d, int left, bool nonlethal, double *kill)
{
    bool soaks = sf_def_soaks(d, left);
    double loss = 0.0, k = 0.0;
    for (int sv = 0; sv <= (soaks ? d->top : 0); sv++) {
        double ps = soaks ? d->soak[sv] : 1.0;
        if (ps <= 0) continue;
        int r = left - sv > 0 ? left - sv : 0;
        r = r > d->armor ? r - d->armor : 0;
        if (!nonlethal && r >= d->hp) {
            r = d->hp;
            k += ps;
        }
        loss += ps * r;
    }
    *kill = k;
    return loss;
}

double sf_def_loss(const sf_def_t *d, int left, bool nonlethal, double *kill)
{
    double k = 0.0;
    if (kill) *kill = 0.0;
    if (left <= 0) return 0.0;
    if (d->guard <= 0) {
        double l = after_guard(d, left, nonlethal, &k);
        if (kill) *kill = k;
        return l;
    }
    double loss = 0.0, kk = 0.0;
    for (int f = 1; f <= d->guard; f++) {
        loss += after_guard(d, left > f ? left - f : 0, nonlethal, &k) / d->guard;
        kk += k / d->guard;
    }
    if (kill) *kill = kk;
    return loss;
}

double sf_expected_loss(const battle_t *b, int t, const sf_shot_t *s)
{
    sf_def_t def;
    sf_def_init(b, t, &def);
    return sf_expected_loss_def(&def, sf_save_score(b, t, SF_SAVE_AREA), s);
}

/* The distribution of the dice of h hitting shots of s (roll_damage's
 * dice, the flat bonus left out) into d[0..*top]. */
static void hits_dice(const sf_shot_t *s, int h, double *d, int *top)
{
    *top = 0;
    memset(d, 0, sizeof(double) * DMAX);
    d[0] = 1.0;
    add_dice(d, top, h * s->dmg_n, s->dmg_sides);
    if (s->xdie > 0) add_dice(d, top, h, s->xdie);
}

/* sf_loss_by_hits worked out from scratch. */
static void loss_by_hits_now(const sf_def_t *def, int save_area, const sf_shot_t *s, double *ek,
                             double *pk)
{
    int shots = s->shots < SF_SHOTS_MAX ? s->shots : SF_SHOTS_MAX;
    double save = s->blast > 0 || s->cone ? sf_p_d20(save_area) : 0.0;
    /* Loss and kill chance for each raw amount, computed once. */
    double lt[DMAX], kt[DMAX];
    int lmax = -1;
    ek[0] = pk[0] = 0.0;
    for (int k = 1; k <= shots; k++) {
        double d[DMAX];
        int top;
        hits_dice(s, k, d, &top);
        double e = 0.0, kill = 0.0;
        for (int v = 0; v <= top; v++) {
            if (d[v] <= 0) continue;
            int raw = v + k * s->dmg_bonus - s->ray_loss;
            if (raw < 0) raw = 0;
            if (raw >= DMAX) raw = DMAX - 1;
            while (lmax < raw) {
                lmax++;
                lt[lmax] = sf_def_loss(def, lmax, s->nonlethal, &kt[lmax]);
            }
            e += d[v] * ((1.0 - save) * lt[raw] + save * lt[raw / 2]);
            kill += d[v] * ((1.0 - save) * kt[raw] + save * kt[raw / 2]);
        }
        ek[k] = e;
        pk[k] = kill;
    }
}

/* Answers of sf_loss_by_hits kept per thread: the AI asks for the same
 * defender, damage and shot count from hex after hex and call after call,
 * and only the to-hit chances differ. An entry holds everything the answer
 * is worked out from (the defender's key, the save when it applies, the
 * damage fields of the shot), so a kept answer is the same bytes as a fresh
 * one; a slot taken by another key is overwritten. No allocation. */
#define LOSS_MEMO 1024     /* slots, a power of two */
#define LOSS_MEMO_SHOTS 15 /* larger volleys are worked out each time */
enum { LOSS_KEY = SF_DEF_KEY + 9 };
typedef struct {
    int key[LOSS_KEY]; /* key[0] == 0: empty (shots is always >= 1 there) */
    double ek[LOSS_MEMO_SHOTS + 1], pk[LOSS_MEMO_SHOTS + 1];
} loss_entry_t;

void sf_loss_by_hits(const sf_def_t *def, int save_area, const sf_shot_t *s, double *ek, double *pk)
{
    static _Thread_local loss_entry_t memo[LOSS_MEMO];
    int shots = s->shots < SF_SHOTS_MAX ? s->shots : SF_SHOTS_MAX;
    if (shots < 1 || shots > LOSS_MEMO_SHOTS) {
        loss_by_hits_now(def, save_area, s, ek, pk);
        return;
    }
    bool area = s->blast > 0 || s->cone;
    int key[LOSS_KEY] = {shots,        area ? save_area : 0, area,    s->nonlethal, s->dmg_n,
                         s->dmg_sides, s->dmg_bonus,         s->xdie, s->ray_loss};
    memcpy(key + 9, def->key, sizeof def->key);
    uint32_t h = 2166136261u;
    for (int k = 0; k < LOSS_KEY; k++)
        h = (h ^ (uint32_t)key[k]) * 16777619u;
    loss_entry_t *e = &memo[(h ^ h >> 15) & (LOSS_MEMO - 1)];
    size_t n = sizeof(double) * (size_t)(shots + 1);
    if (memcmp(e->key, key, sizeof key) != 0) {
        loss_by_hits_now(def, save_area, s, e->ek, e->pk);
        memcpy(e->key, key, sizeof key);
    }
    memcpy(ek, e->ek, n);
    memcpy(pk, e->pk, n);
}

double sf_expected_loss_def(const sf_def_t *def, int save_area, const sf_shot_t *s)
{
    double ph[SF_SHOTS_MAX + 1], ek[SF_SHOTS_MAX + 1], pk[SF_SHOTS_MAX + 1];
    sf_shot_t sc = *s;
    if (sc.shots > SF_SHOTS_MAX) sc.shots = SF_SHOTS_MAX;
    sf_hit_dist(&sc, ph);
    sf_loss_by_hits(def, save_area, &sc, ek, pk);
    double total = 0.0;
    for (int k = 1; k <= sc.shots; k++) total += ph[k] * ek[k];
    return total;
}

bool surface_predict(const battle_t *b, int a, int t, int w, int arg, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (!b || a == t || !battle_active(b, a) || !battle_active(b, t)) return false;
    sf_shot_t s;
    cell_t at = hex_to_cell(b->map->layout, sf_pos(b, t));
    if (!sf_shot_shape(b, a, t, w, arg, 1, at, &s)) return false;
    if (s.cone) {
        hex_t buf[SF_AREA_MAX];
        int n = sf_area_hexes(b, a, s.w, sf_pos(b, t), buf, SF_AREA_MAX);
        bool in = false;
        for (int k = 0; k < n && !in; k++) in = hex_eq(buf[k], sf_pos(b, t));
        if (!in) return false;
    }
    double ph[SF_SHOTS_MAX + 1];
    sf_shot_t sc = s;
    if (sc.shots > SF_SHOTS_MAX) sc.shots = SF_SHOTS_MAX;
    sf_hit_dist(&sc, ph);
    out->valid = true;
    out->p_hit = 1.0 - ph[0];
    out->dmg_expected = sf_expected_loss(b, t, &s);
    out->dmg_hit = out->p_hit > 0 ? out->dmg_expected / out->p_hit : 0.0;
    out->atk_n = s.roll == SF_ROLL_HIT ? 1 : 0;
    out->atk_keep = 0;
    out->atk_bonus = s.roll == SF_ROLL_HIT ? s.bonus : 0;
    out->def_n = s.roll == SF_ROLL_BEAM || s.roll == SF_ROLL_HOMING ? 1 : 0;
    out->def_keep = 0;
    out->def_bonus = s.roll == SF_ROLL_HIT ? 0 : s.bonus;
    out->dmg_n = s.dmg_n * s.shots;
    out->dmg_sides = s.dmg_sides;
    out->dmg_bonus = s.dmg_bonus * s.shots;
    return true;
}

/* ---- weapons fired together ------------------------------------------------------ */

/* Where the target may stand between the weapons of one attack (S24): each
 * weapon's damage is its own packet, and what one packet spends - HP or the
 * nonlethal track, armour HP, the heat a soak adds, the fight itself - is
 * what the next packet meets. */
typedef struct {
    int hp, nl, armor, heat;
    bool down; /* out of the fight: the weapons after it do not fire */
    double p;
} tgt_state_t;

#define VOLLEY_STATES 1024 /* states followed; past that the odds are not shown */

/* Add probability p of state x to the list (merged with an equal state). */
static bool state_add(tgt_state_t *list, int *n, tgt_state_t x, double p)
{
    for (int k = 0; k < *n; k++) {
        tgt_state_t *e = &list[k];
        if (e->hp == x.hp && e->nl == x.nl && e->armor == x.armor && e->heat == x.heat &&
            e->down == x.down) {
            e->p += p;
            return true;
        }
    }
    if (*n == VOLLEY_STATES) return false;
    x.p = p;
    list[(*n)++] = x;
    return true;
}

/* One packet of `left` damage on state x (sf_take): the guard die, soak as
 * the target's rule would choose it at x's heat, armour HP, then HP or the
 * nonlethal track; heat_hit after. Adds the outcomes, probability p, to out
 * and the HP (or nonlethal) they take times their probability to *loss. */
static bool packet(const battle_t *b, int t, const sf_def_t *d, tgt_state_t x, double p, int left,
                   const sf_shot_t *s, int heat_hit, tgt_state_t *out, int *n, double *loss)
{
    /* Soak pays when what the dice are expected to absorb of an amount is
     * more than the HP the heat they add is expected to cost from the heat
     * the target has now (sf_def_soaks). */
    int vent = sf_stat(b, t, SF_VENT), add = sf_soak_heat(b, t);
    double heat_cost = SF_HEAT_POINT_COST * sf_heat_over(x.heat, vent, add);
    int guard = d->guard > 0 && left > 0 ? d->guard : 1;
    for (int f = 1; f <= guard; f++) {
        double pf = p / guard;
        int l1 = d->guard > 0 && left > 0 ? (left > f ? left - f : 0) : left;
        bool soaks = soaks_at(d, l1, heat_cost);
        for (int sv = 0; sv <= (soaks ? d->top : 0); sv++) {
            double ps = soaks ? pf * d->soak[sv] : pf;
            if (ps <= 0) continue;
            tgt_state_t y = x;
            int l2 = l1 - sv > 0 ? l1 - sv : 0;
            if (soaks) y.heat += add;
            int arm = l2 < y.armor ? l2 : y.armor;
            y.armor -= arm;
            l2 -= arm;
            if (s->nonlethal) {
                y.nl += l2;
                *loss += ps * l2;
                if (l2 > 0 && y.nl >= b->u[t].hp_max) y.down = true;
            } else {
                int lost = l2 < y.hp ? l2 : y.hp;
                y.hp -= lost;
                *loss += ps * lost;
                if (y.hp == 0) y.down = true;
            }
            if (heat_hit > 0 && !y.down) y.heat += heat_hit;
            if (!state_add(out, n, y, ps)) return false;
        }
    }
    return true;
}

/* The HP (or nonlethal damage) t is expected to lose to the n weapons of one
 * attack, fired in order at it (sf_do_attack), exactly; false when the
 * target could end in more states than are followed. */
static bool volley_loss(const battle_t *b, int t, const sf_shot_t *shapes, int n, double *loss)
{
    tgt_state_t buf[2][VOLLEY_STATES]; /* 64 KB, only while the odds are shown */
    sf_def_t d;
    sf_def_init(b, t, &d);
    int save_area = sf_save_score(b, t, SF_SAVE_AREA);
    tgt_state_t *cur = buf[0], *next = buf[1];
    int nc = 1, nn;
    cur[0] = (tgt_state_t){b->u[t].hp,
                           b->u[t].stat[SF_NONLETHAL],
                           sf_stat(b, t, SF_ARMOR),
                           sf_stat(b, t, SF_HEAT),
                           false,
                           1.0};
    *loss = 0.0;
    for (int w = 0; w < n; w++) {
        const sf_shot_t *s = &shapes[w];
        sf_shot_t sc = *s;
        if (sc.shots > SF_SHOTS_MAX) sc.shots = SF_SHOTS_MAX;
        double ph[SF_SHOTS_MAX + 1];
        sf_hit_dist(&sc, ph);
        double save = s->blast > 0 ? sf_p_d20(save_area) : 0.0;
        nn = 0;
        for (int k = 0; k < nc; k++)
            if (cur[k].down || ph[0] > 0)
                if (!state_add(next, &nn, cur[k], cur[k].down ? cur[k].p : cur[k].p * ph[0]))
                    return false;
        for (int h = 1; h <= sc.shots; h++) {
            if (ph[h] <= 0) continue;
            /* The damage of h shots (roll_damage), less a moved ray's loss. */
            double dist[DMAX];
            int top;
            hits_dice(s, h, dist, &top);
            int heat_hit = s->blast > 0 ? s->heat_hit : s->heat_hit * h;
            for (int v = 0; v <= top; v++) {
                if (dist[v] <= 0) continue;
                int raw = v + h * s->dmg_bonus - s->ray_loss;
                raw = raw < 0 ? 0 : raw;
                for (int k = 0; k < nc; k++) {
                    if (cur[k].down) continue;
                    double p = cur[k].p * ph[h] * dist[v];
                    if (save > 0 &&
                        !packet(b, t, &d, cur[k], p * save, raw / 2, s, heat_hit, next, &nn, loss))
                        return false;
                    if (!packet(b, t, &d, cur[k], p * (1.0 - save), raw, s, heat_hit, next, &nn,
                                loss))
                        return false;
                }
            }
        }
        tgt_state_t *sw = cur;
        cur = next;
        next = sw;
        nc = nn;
    }
    return true;
}

/* ---- the G3 hooks -------------------------------------------------------------- */

bool sf_predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (c->kind != CMD_ENGAGE || c->target < 0) return false;
    int a = c->actor, t = c->target;
    int ws[SF_MAX_WEAPONS + 2];
    int n = sf_attack_weapons(b, c, ws);
    if (n < 1) return false;
    if (n == 1) {
        if (!surface_predict(b, a, t, c->weapon, c->arg, out)) return false;
    } else {
        /* Weapons that fire together (S24), each from the shape apply rolls:
         * it lands when any lands; the damage follows the target from one
         * weapon's packet to the next (volley_loss). */
        cell_t at = hex_to_cell(b->map->layout, sf_pos(b, t));
        double miss = 1.0, loss = 0.0;
        sf_shot_t shapes[SF_MAX_WEAPONS + 2];
        for (int k = 0; k < n; k++) {
            sf_shot_t *s = &shapes[k];
            if (!sf_shot_shape(b, a, t, ws[k], c->arg, n, at, s)) return false;
            sf_shot_t sc = *s;
            double ph[SF_SHOTS_MAX + 1];
            if (sc.shots > SF_SHOTS_MAX) sc.shots = SF_SHOTS_MAX;
            sf_hit_dist(&sc, ph);
            miss *= ph[0];
        }
        if (!volley_loss(b, t, shapes, n, &loss)) return false;
        out->valid = true;
        out->p_hit = 1.0 - miss;
        out->dmg_expected = loss;
        out->dmg_hit = out->p_hit > 0 ? loss / out->p_hit : 0.0;
        snprintf(out->detail, sizeof out->detail, "%d weapons together", n);
        return true;
    }
    sf_shot_t s;
    cell_t at = hex_to_cell(b->map->layout, sf_pos(b, t));
    if (!sf_shot_shape(b, a, t, c->weapon, c->arg, 1, at, &s)) return true;
    if (s.roll == SF_ROLL_HIT && s.shots > 1)
        snprintf(out->detail, sizeof out->detail, "d20%+d vs 20, %d shots", s.bonus, s.shots);
    else if (s.roll == SF_ROLL_HIT)
        snprintf(out->detail, sizeof out->detail, "d20%+d vs 20", s.bonus);
    else if (s.roll == SF_ROLL_NONE)
        snprintf(out->detail, sizeof out->detail, "no roll to hit (cone)");
    else
        snprintf(out->detail, sizeof out->detail, "%s: target saves d20%+d vs 20",
                 s.roll == SF_ROLL_BEAM ? "beam" : "homing", s.bonus);
    return true;
}

int sf_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap)
{
    if (cap < 1) return 0;
    if (!w || w->cls == WPN_MELEE) return ruleset_bands(NULL, m, db, c, w, prof, out, cap);
    /* No shot reaches past its range; a throw goes 10 ft farther per point
     * of strength (S29). */
    int ft = sf_range_ft(w, sf_map_stat(db, c, "strength", 0));
    out[0].hexes = geom_ft_to_hexes(m, ft);
    out[0].tier = RANGE_NEAR;
    snprintf(out[0].label, sizeof out[0].label, "in range (%d ft)%s", ft,
             w->cls == WPN_THROWN ? ", thrown" : "");
    return 1;
}

int sf_gauges(const battle_t *b, int i, gauge_t *out, int cap)
{
    const unit_t *u = &b->u[i];
    int n = 0;
    if (n < cap && u->hp_max > 0) out[n++] = gauge_named(b, "hp", u->hp, u->hp_max, GAUGE_HEALTH);
    /* Plating shot away and a glowing heat sink show from across the field:
     * the table sees those two on anyone it sees (GAUGE_SEEN_ALL); HP and
     * nonlethal damage stay with the combatant's own side. */
    if (n < cap && u->stat_max[SF_ARMOR] > 0) {
        out[n] = gauge_named(b, "armor_hp", u->stat[SF_ARMOR], u->stat_max[SF_ARMOR], GAUGE_HEALTH);
        out[n++].seen = GAUGE_SEEN_ALL;
    }
    /* Heat has no ceiling in the text: the bar's scale is the larger of the
     * heat now and twice what venting sheds in a turn (at least 4). */
    int vent = u->stat[SF_VENT], heat = u->stat[SF_HEAT];
    int scale = 2 * vent > 4 ? 2 * vent : 4;
    if (heat > scale) scale = heat;
    bool hot = heat > 0 || u->stat[SF_SOAK_HEAT] > 0 || u->stat[SF_SOAK2_HEAT] > 0 || vent > 0;
    if (n < cap && hot) {
        out[n] = gauge_named(b, "heat", heat, scale, GAUGE_LOAD);
        out[n++].seen = GAUGE_SEEN_ALL;
    }
    if (n < cap && u->stat[SF_NONLETHAL] > 0)
        out[n++] = gauge_named(b, "nonlethal", u->stat[SF_NONLETHAL], u->hp_max, GAUGE_LOAD);
    return n;
}

/* A weapon's name for the bar (bare hands when wi is -1). */
static const char *wname(const battle_t *b, int a, int wi)
{
    const weapon_t *w = battle_weapon(b, a, wi);
    return !w ? "unarmed" : w->name[0] ? w->name : w->id;
}

bool sf_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap)
{
    if (c->kind != CMD_ENGAGE) return false;
    if (c->arg & SF_ARG_NONLETHAL)
        snprintf(label, cap, "Subdue: %.30s", wname(b, c->actor, c->weapon));
    else if (c->arg & SF_ARG_MARTIAL)
        snprintf(label, cap, "Martial arts: d%d", (c->arg >> SF_ARG_MARTIAL_SHIFT) & SF_ARG_MARTIAL_MASK);
    else if (c->weapon2 >= 0)
        snprintf(label, cap, "Fire %.18s + %.18s", wname(b, c->actor, c->weapon),
                 wname(b, c->actor, c->weapon2));
    else
        return false;
    return true;
}

int sf_ammo_used(const battle_t *b, ammo_use_t *out, int cap)
{
    const sf_state_t *s = sf_cst(b);
    int n = 0;
    for (int i = 0; i < b->n && i < SF_NMAX; i++)
        for (int w = 0; w < b->u[i].n_weapons && w < SF_AMMO_SLOTS; w++) {
            if (!s->u[i].ammo[w] || !sf_uses_ammo(b->u[i].weapon[w])) continue;
            if (n < cap) {
                out[n].who = i;
                hb_strlcpy(out[n].weapon, b->u[i].weapon[w]->id, sizeof out[n].weapon);
                out[n].rounds = s->u[i].ammo[w];
            }
            n++;
        }
    return n;
}
