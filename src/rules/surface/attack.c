/* attack.c - Surface Combat attacks: what an attack may be, the shape of its
 * roll (to-hit 20+, or the target's save for Beam and Homing), multiple shots
 * and weapons, cover, concealment and stealth, blasts, cones and area rays,
 * nonlethal blows and martial arts. Damage itself is damage.c's.
 * See docs/rules-surface.md (S8-S12, S22-S28, S31-S33).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../core/area.h"
#include "surface.h"

/* Tangent of a cone's half-angle: width d/2 at distance d (S25). */
#define CONE_TAN 0.25
/* A martial die: 0 (none) or 4..12 sides (S33). */
static bool martial_die(int x) { return x == 0 || (x >= 4 && x <= 12); }

/* ---- sight, cover, stealth --------------------------------------------------- */

int sf_stealth_level(const battle_t *b, int a, int t)
{
    int lvl = sf_stat(b, t, SF_STEALTH) - sf_stat(b, a, SF_SENSOR);
    return lvl > 0 ? lvl : 0;
}

/* Does member m of a faction see t plainly: a clear line (no smoke in
 * between) and t's stealth below the concealed level against m's sensors? */
static bool sees_plainly(const battle_t *b, int m, int t, sf_los_t *los)
{
    return sf_stealth_level(b, m, t) < 3 && sf_los_clear(los, b, sf_pos(b, m), sf_pos(b, t));
}

/* Is t's hex known to a's faction (S22, and S23 for stealth level 3): a
 * member sees it plainly, or a's own sensors match its stealth? */
static bool location_known(const battle_t *b, int a, int t, sf_los_t *los)
{
    int sensor = sf_stat(b, a, SF_SENSOR);
    if (sensor > 0 && sensor >= sf_stat(b, t, SF_STEALTH)) return true;
    for (int m = 0; m < b->n; m++)
        if (battle_active(b, m) && board_allies(b->board, a, m) && sees_plainly(b, m, t, los))
            return true;
    return false;
}

bool sf_side_knows(const battle_t *b, int a, int t, sf_los_t *los)
{
    if (!battle_active(b, t)) return false;
    int stealth = sf_stat(b, t, SF_STEALTH);
    for (int m = 0; m < b->n; m++) {
        if (!battle_active(b, m) || !board_allies(b->board, a, m)) continue;
        int sensor = sf_stat(b, m, SF_SENSOR);
        if (sensor > 0 && sensor >= stealth) return true;
        /* Hidden (4+) or concealed (3) by its stealth against m. */
        if (sf_stealth_level(b, m, t) >= 3) continue;
        /* Concealed by smoke between them: sight blocked by terrain one can
         * walk into (3). Behind a wall (4) it is out of sight, not unknown. */
        if (sf_los_level(los, b, sf_pos(b, m), sf_pos(b, t)) == 3) continue;
        return true;
    }
    return false;
}

/* sf_cover_level, lines read through los (NULL: traced). */
static int cover_level_los(const battle_t *b, int a, int t, sf_los_t *los)
{
    /* The line's terrain and bodies: 0 none, 1 light, 2 heavy, 3 concealed
     * (sight blocked only by terrain one can walk into), 4 walled off (S22). */
    int lvl = sf_los_level(los, b, sf_pos(b, a), sf_pos(b, t));
    if (lvl == 4) return 4;
    int st = sf_stealth_level(b, a, t);
    if (st >= 4) return 4;
    if (st > lvl) lvl = st; /* the worse of the two, never both (S23) */
    /* Concealed, by smoke or by a stealth level of 3: only where the
     * location is known by other means (S22, S23). */
    if (lvl == 3 && !location_known(b, a, t, los)) return 4;
    return lvl;
}

int sf_cover_level(const battle_t *b, int a, int t) { return cover_level_los(b, a, t, NULL); }

int sf_cover_mod(int level)
{
    return level == 1 ? -1 : level == 2 ? -2 : level == 3 ? -4 : 0;
}

/* ---- areas -------------------------------------------------------------------- */

bool sf_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out)
{
    if (!w) return false;
    int blast = battle_weapon_tag(w, "blast"), ray = battle_weapon_tag(w, "area_ray");
    if (battle_weapon_tag(w, "cone") > 0) {
        if (hex_eq(from, at)) return false;
        *out = area_cone(from, at, geom_ft_to_hexes(m, w->range_ft), CONE_TAN);
        return true;
    }
    if (blast <= 0 && ray <= 0) return false;
    *out = area_blast(from, at, blast > ray ? blast : ray); /* a ray is a blast (S-Z4) */
    return true;
}

int sf_area_hexes(const battle_t *b, int a, const weapon_t *w, hex_t at, hex_t *out, int cap)
{
    area_t ar;
    if (!sf_weapon_area(b->map, w, sf_pos(b, a), at, &ar)) return 0;
    int n = area_hexes(b->board, &ar, out, cap);
    return n < cap ? n : cap;
}

/* ---- the shape of one weapon's attack ----------------------------------------- */

/* Range of ranged or thrown weapon w for i, in hexes (S29: thrown + 10 ft per
 * point of strength). */
static int range_hexes(const battle_t *b, int i, const weapon_t *w)
{
    return geom_ft_to_hexes(b->map, sf_range_ft(w, sf_stat(b, i, SF_STR)));
}

int sf_range_ft(const weapon_t *w, int strength)
{
    int ft = w->range_ft;
    if (w->cls == WPN_THROWN) ft += 10 * (strength > 0 ? strength : 0);
    return ft;
}

/* Martial damage die X of an attack's flags, -1 when martial arts are not used. */
static int martial_x(int arg)
{
    if (!(arg & SF_ARG_MARTIAL)) return -1;
    return (arg >> SF_ARG_MARTIAL_SHIFT) & SF_ARG_MARTIAL_MASK;
}

/* Actions a weapon of tag Heavy x takes a of this strength: 2 when too weak (S10). */
static int heavy_actions(const battle_t *b, int a, int heavy)
{
    return heavy > 0 && sf_stat(b, a, SF_STR) < heavy ? 2 : 1;
}

int sf_fire_actions(const battle_t *b, int a, const weapon_t *w)
{
    return w ? heavy_actions(b, a, battle_weapon_tag(w, "heavy")) : 1;
}

void sf_wtags_read(const weapon_t *w, sf_wtags_t *out)
{
    memset(out, 0, sizeof *out);
    if (!w) return;
    out->cone = battle_weapon_tag(w, "cone");
    out->assault = battle_weapon_tag(w, "assault");
    out->handheld = battle_weapon_tag(w, "handheld");
    out->homing = battle_weapon_tag(w, "homing");
    out->beam = battle_weapon_tag(w, "beam");
    out->steady = battle_weapon_tag(w, "steady");
    out->nonlethal = battle_weapon_tag(w, "nonlethal");
    out->blunt = battle_weapon_tag(w, "blunt");
    out->blast = battle_weapon_tag(w, "blast");
    out->area_ray = battle_weapon_tag(w, "area_ray");
    out->shots = battle_weapon_tag(w, "shots");
    out->heavy = battle_weapon_tag(w, "heavy");
    out->heat = battle_weapon_tag(w, "heat");
    out->heat_on_hit = battle_weapon_tag(w, "heat_on_hit");
    out->has_heat_on_hit = sf_has_tag(w, "heat_on_hit");
    out->particle = battle_weapon_tag(w, "particle");
    out->continuous = battle_weapon_tag(w, "continuous");
    out->quench = battle_weapon_tag(w, "quench");
}

#define WTAGS_SLOTS 64 /* weapons kept per thread, a power of two */

typedef struct {
    const weapon_t *w; /* NULL: empty */
    int n_tags;
    stat_kv_t tags[WEAPON_MAX_TAGS]; /* what the entry was read from */
    sf_wtags_t val;
} wtags_slot_t;

void sf_wtags_get(const weapon_t *w, sf_wtags_t *out)
{
    static _Thread_local wtags_slot_t slots[WTAGS_SLOTS];
    if (!w || w->n_tags < 0 || w->n_tags > WEAPON_MAX_TAGS) {
        sf_wtags_read(w, out);
        return;
    }
    uintptr_t x = (uintptr_t)w;
    wtags_slot_t *e = &slots[(x >> 4 ^ x >> 11) & (WTAGS_SLOTS - 1)];
    bool same = e->w == w && e->n_tags == w->n_tags;
    for (int k = 0; same && k < w->n_tags; k++)
        same = e->tags[k].value == w->tags[k].value && strcmp(e->tags[k].key, w->tags[k].key) == 0;
    if (!same) {
        sf_wtags_read(w, &e->val);
        e->w = w;
        e->n_tags = w->n_tags;
        for (int k = 0; k < w->n_tags; k++) {
            hb_strlcpy(e->tags[k].key, w->tags[k].key, sizeof e->tags[k].key);
            e->tags[k].value = w->tags[k].value;
        }
    }
    *out = e->val;
}

/* Shots, actions and heat of a's attack with w (NULL: unarmed; tg its tags),
 * set once the attack is known to be possible: the AI asks about many that
 * are not. */
static void shot_costs(const battle_t *b, int a, const weapon_t *w, const sf_wtags_t *tg,
                       sf_shot_t *out)
{
    out->shots = w && tg->shots > 1 ? tg->shots : 1;
    out->actions = w ? heavy_actions(b, a, tg->heavy) : 1;
    out->heat_fire = w ? tg->heat : 0;
    if (w && tg->has_heat_on_hit)
        out->heat_hit = tg->heat_on_hit;
    else if (w && (w->energy || tg->particle > 0))
        out->heat_hit = 1; /* S15 */
}

/* sf_melee_reach of target t, through memo when there is one. */
static int target_reach(sf_cover_memo_t *memo, const battle_t *b, int t)
{
    if (!memo) return sf_melee_reach(b, t);
    if (memo->mreach[t] == 0) memo->mreach[t] = (int16_t)(1 + sf_melee_reach(b, t));
    return memo->mreach[t] - 1;
}

int sf_cover_level_memo(sf_cover_memo_t *memo, const battle_t *b, int a, int t)
{
    int idx = board_cell_index(b->board, sf_pos(b, a));
    if (idx < 0) return cover_level_los(b, a, t, memo->los);
    uint32_t key = 1u + (uint32_t)idx * SF_NMAX + (uint32_t)t;
    uint32_t slot = (key * 2654435761u) >> 20 & (SF_COVER_MEMO - 1);
    while (memo->key[slot] != 0) {
        if (memo->key[slot] == key) return memo->lvl[slot];
        slot = (slot + 1) & (SF_COVER_MEMO - 1);
    }
    int lvl = cover_level_los(b, a, t, memo->los);
    if (memo->n < SF_COVER_MEMO * 3 / 4) { /* keep probes short: past that, work it out */
        memo->key[slot] = key;
        memo->lvl[slot] = (int8_t)lvl;
        memo->used[memo->n++] = (uint16_t)slot;
    }
    return lvl;
}

void sf_cover_memo_reset(sf_cover_memo_t *memo, sf_los_t *los)
{
    for (int k = 0; k < memo->n; k++)
        memo->key[memo->used[k]] = 0;
    memo->n = 0;
    memset(memo->mreach, 0, sizeof memo->mreach);
    memo->los = los;
}

/* sf_in_melee(b, a), the foes' reaches read through memo (S-M4, S4). */
static bool in_melee_memo(sf_cover_memo_t *memo, const battle_t *b, int a)
{
    if (!memo) return sf_in_melee(b, a);
    int ra = -1;
    hex_t h = sf_pos(b, a);
    for (int j = 0; j < b->n; j++) {
        if (j == a || !battle_active(b, j) || !sf_enemies(b, a, j)) continue;
        int d = hex_distance(h, sf_pos(b, j));
        if (d > target_reach(memo, b, j)) {
            if (ra < 0) ra = sf_melee_reach(b, a);
            if (d > ra) continue;
        }
        if (sf_los_clear(memo->los, b, h, sf_pos(b, j))) return true;
    }
    return false;
}

bool sf_shot_shape(const battle_t *b, int a, int t, int wi, int arg, int n_weapons, cell_t at,
                   sf_shot_t *out)
{
    return sf_shot_shape_memo(b, a, t, wi, arg, n_weapons, at, NULL, out);
}

bool sf_shot_shape_memo(const battle_t *b, int a, int t, int wi, int arg, int n_weapons, cell_t at,
                        sf_cover_memo_t *memo, sf_shot_t *out)
{
    const sf_state_t *s = sf_cst(b);
    memset(out, 0, sizeof *out);
    if (!battle_active(b, a)) return false;
    const weapon_t *w = battle_weapon(b, a, wi);
    if (wi >= 0 && !w) return false;
    sf_wtags_t own;
    const sf_wtags_t *tg = &own;
    sf_wtags_get(w, &own);
    /* sf_ready, with the tags read. */
    if (wi >= 0 && (wi >= b->u[a].n_weapons || (tg->quench > 0 && sf_stat(b, a, SF_INTERSHIELDS) <= 0) ||
                    !(sf_vehicle(b, a) || ((s->u[a].hand >> wi) & 1u))))
        return false;
    out->weapon = wi;
    out->w = w;
    out->actions = 1;
    bool intent = (arg & SF_ARG_NONLETHAL) != 0;
    int mx = martial_x(arg);
    if (mx >= 0) {
        int pool = sf_stat(b, a, SF_MARTIAL);
        if (w || pool <= 0 || mx > pool || !martial_die(mx) || !martial_die(pool - mx)) return false;
    }

    /* A cone: no roll, from the firer towards a hex (S25). */
    if (w && tg->cone > 0) {
        hex_t aim = t >= 0 ? sf_pos(b, t) : hex_from_cell(b->map->layout, at);
        if (n_weapons != 1 || intent || (t >= 0 && !battle_active(b, t)) ||
            (t < 0 && !map_in_bounds(b->map, at)) || hex_eq(aim, sf_pos(b, a)))
            return false;
        if (!tg->assault && s->u[a].moved) return false; /* S9: thrown ones too */
        if (!tg->handheld && in_melee_memo(memo, b, a)) return false; /* S-M4, S-R4 */
        out->roll = SF_ROLL_NONE;
        out->cone = true;
        out->dmg_n = w->dice_n;
        out->dmg_sides = w->dice_sides;
        out->dmg_bonus = w->dice_bonus;
        out->nonlethal = tg->nonlethal > 0;
        shot_costs(b, a, w, tg, out);
        return true;
    }
    if (t < 0 || t >= b->n || t == a || !battle_active(b, t) || !sf_enemies(b, a, t)) return false;

    bool club = intent && w && !tg->nonlethal && !tg->blunt;
    out->club = club;
    out->melee = !w || club || w->cls == WPN_MELEE;
    int d = sf_dist(b, a, t);
    if (out->melee) {
        int reach = club ? sf_body_reach(b, a) : sf_weapon_reach(b, a, w);
        if (d > reach) return false;
    } else {
        if (d > range_hexes(b, a, w)) return false;
        /* Out of the target's melee reach, unless Handheld (S8). */
        if (d <= target_reach(memo, b, t) && !tg->handheld) return false;
        /* A ranged or thrown weapon without Assault is not fired in a turn
         * with a move (S9: no exemption for thrown weapons). */
        if (!tg->assault && s->u[a].moved) return false;
        /* In melee with anyone, only Handheld weapons fire (S-M4, S-R4). */
        if (!tg->handheld && in_melee_memo(memo, b, a)) return false;
    }
    int lvl = memo ? sf_cover_level_memo(memo, b, a, t) : sf_cover_level(b, a, t);
    if (lvl >= 4) return false;
    out->nonlethal = (w && tg->nonlethal > 0) || (intent && (!w || club || tg->blunt > 0));
    out->cover_mod = sf_cover_mod(lvl);

    /* The roll: to-hit, or the target's save for Beam and Homing (S-R7, S27). */
    out->roll = SF_ROLL_HIT;
    int homing = w && !out->melee ? tg->homing : 0;
    bool beam = w && !out->melee && tg->beam > 0;
    if (homing > 0 && d >= (homing <= 1 ? 0 : geom_ft_to_hexes(b->map, homing)))
        out->roll = SF_ROLL_HOMING;
    else if (beam)
        out->roll = SF_ROLL_BEAM;
    if (out->roll == SF_ROLL_HIT) {
        out->bonus = sf_stat(b, a, SF_CB) + sf_stat(b, t, SF_VLN) + out->cover_mod;
        if (!sf_vehicle(b, a)) out->bonus -= 4 * (n_weapons - 1); /* S24 */
        if (club) out->bonus -= 4;                                 /* S32 */
        if (w && !out->melee && tg->steady > 0 && !s->u[a].moved)
            out->bonus += 1;                                       /* S9 */
    } else {
        out->bonus = sf_save_score(b, t, out->roll == SF_ROLL_BEAM ? SF_SAVE_BEAM : SF_SAVE_HOMING);
    }

    /* Damage per hitting shot. */
    if (!w || club) {
        out->dmg_n = 1;
        out->dmg_sides = club ? 4 : 2; /* unarmed 1d2 + CB (S-R8); club 1d4 + CB (S32) */
        out->dmg_bonus = sf_stat(b, a, SF_CB);
    } else {
        out->dmg_n = w->dice_n;
        out->dmg_sides = w->dice_sides;
        out->dmg_bonus = w->dice_bonus;
        if (w->cls == WPN_MELEE || w->cls == WPN_THROWN) out->dmg_bonus += sf_stat(b, a, SF_STR);
        int cont = tg->continuous;
        const sf_unit_t *u = &s->u[a];
        if (cont > 0 && u->cont_w == wi && u->cont_t == t && u->cont_round == b->round - 1)
            out->dmg_bonus += cont * u->cont_n; /* the n-th turn on it: +x(n-1) (S28) */
    }
    if (mx > 0) out->xdie = mx;
    if (w) {
        out->blast = tg->blast;
        if (tg->area_ray > 0) {
            out->blast = tg->area_ray;
            out->ray = true;
            const sf_unit_t *u = &s->u[a];
            if (u->ray_w == wi && u->ray_round == b->round - 1) /* kept up: moved centre (S26) */
                out->ray_loss = hex_distance(hex_from_cell(b->map->layout, u->ray_at), sf_pos(b, t));
        }
    }
    shot_costs(b, a, w, tg, out);
    return true;
}

int sf_attack_weapons(const battle_t *b, const cmd_t *c, int *out)
{
    int a = c->actor, n = 0, nw = b->u[a].n_weapons;
    if (c->weapon < -1 || c->weapon >= nw) return 0;
    out[n++] = c->weapon;
    if (c->weapon2 >= 0) {
        /* Weapons are named in list order (they fire in that order). */
        if (c->weapon < 0 || c->weapon2 >= nw || c->weapon2 <= c->weapon) return 0;
        out[n++] = c->weapon2;
    }
    unsigned extra = (unsigned)c->arg >> SF_ARG_EXTRA_SHIFT;
    for (int w = 0; extra && w < nw && w < SF_MAX_WEAPONS; w++, extra >>= 1) {
        if (!(extra & 1u)) continue;
        if (c->weapon < 0 || c->weapon2 < 0 || w <= c->weapon2) return 0; /* in list order */
        out[n++] = w;
    }
    if (extra) return 0;
    return n;
}

bool sf_attack_ok(const battle_t *b, const cmd_t *c)
{
    int a = c->actor;
    if (a < 0 || a >= b->n || !sf_may_act(b, a)) return false;
    const sf_unit_t *u = &sf_cst(b)->u[a];
    if (u->attacked || u->left < 1) return false; /* one attack per turn (S-A4) */
    int ws[SF_MAX_WEAPONS + 2];
    int n = sf_attack_weapons(b, c, ws);
    if (n < 1) return false;
    if (n > 1) {
        if (sf_vehicle(b, a)) {
            int ops = sf_stat(b, a, SF_OPERATORS), mounts = sf_stat(b, a, SF_MOUNTS);
            if (n > (ops < mounts ? ops : mounts)) return false; /* S24 */
        }
        if (martial_x(c->arg) >= 0) return false;
    }
    int actions = 1;
    for (int k = 0; k < n; k++) {
        sf_shot_t sh;
        if (!sf_shot_shape(b, a, c->target, ws[k], c->arg, n, c->at, &sh)) return false;
        actions = sh.actions > actions ? sh.actions : actions;
    }
    return u->left >= actions;
}

/* ---- resolving ------------------------------------------------------------------ */

/* Everyone standing on hexes[0..n), the one at `first` first, then map order. */
static int occupants(const battle_t *b, const hex_t *hexes, int n, int first, int *out)
{
    int k = 0;
    if (first >= 0 && battle_active(b, first))
        for (int j = 0; j < n; j++)
            if (hex_eq(hexes[j], sf_pos(b, first))) {
                out[k++] = first;
                break;
            }
    for (int i = 0; i < b->n; i++) {
        if (i == first || !battle_active(b, i)) continue;
        for (int j = 0; j < n; j++)
            if (hex_eq(hexes[j], sf_pos(b, i))) {
                out[k++] = i;
                break;
            }
    }
    return k;
}

static const char *id_of(const battle_t *b, int i) { return b->map->combatants[i].id; }

/* The damage of `hits` shots, each its own roll, summed (S12). */
static int roll_damage(battle_t *b, int a, int t, const sf_shot_t *s, int hits)
{
    int total = 0;
    for (int k = 0; k < hits; k++) {
        char why[DICE_WHY_MAX];
        if (t < 0)
            snprintf(why, sizeof why, s->cone ? "damage of the cone" : "damage");
        else if (hits > 1)
            snprintf(why, sizeof why, "damage, shot %d on %.20s", k + 1, id_of(b, t));
        else
            snprintf(why, sizeof why, "damage on %.32s", id_of(b, t));
        total += battle_roll(b, a, s->dmg_n, s->dmg_sides, 0, s->dmg_bonus, why, NULL);
        if (s->xdie > 0) total += battle_roll(b, a, 1, s->xdie, 0, 0, "martial damage die", NULL);
    }
    total -= s->ray_loss;
    return total > 0 ? total : 0;
}

static void emit_attack(battle_t *b, int a, int t, const sf_shot_t *s, bool hit)
{
    event_t e = event_make(EV_ATTACK);
    e.who = a;
    e.target = t;
    e.hit = hit;
    hb_strlcpy(e.name, s->w ? s->w->id : s->club ? "club" : "unarmed", sizeof e.name);
    battle_emit(b, &e);
}

/* Show the hexes an area strikes (the same area that decides who is caught). */
static void emit_area(battle_t *b, int a, int t, const weapon_t *w, hex_t at)
{
    area_t ar;
    if (!sf_weapon_area(b->map, w, sf_pos(b, a), at, &ar)) return;
    event_t e = area_event(b->map, a, t, &ar);
    battle_emit(b, &e);
}

/* The same damage reaches every one caught; each may save vs. Area for half
 * (S25), then its own defences apply. */
static void strike_area(battle_t *b, int a, const int *who, int n, int dmg, const sf_shot_t *s)
{
    for (int k = 0; k < n && !sf_halted(b); k++) {
        int v = who[k];
        if (!battle_active(b, v)) continue;
        int got = sf_save(b, v, SF_SAVE_AREA, "save vs. area") ? dmg / 2 : dmg;
        sf_take(b, v, a, got, s->nonlethal, s->heat_hit, s->w ? s->w->id : "unarmed");
    }
}

/* One weapon's attack of a on t (or a cone aimed at `at`). */
static void resolve(battle_t *b, int a, int t, const sf_shot_t *s, cell_t at)
{
    sf_state_t *st = sf_st(b);
    sf_unit_t *u = &st->u[a];
    hex_t buf[SF_AREA_MAX];
    int who[SF_NMAX];
    if (s->cone) {
        hex_t aim = t >= 0 ? sf_pos(b, t) : hex_from_cell(b->map->layout, at);
        int n = sf_area_hexes(b, a, s->w, aim, buf, SF_AREA_MAX);
        int k = occupants(b, buf, n, -1, who);
        /* A combatant named in the command only gives the cone its way: the
         * log names it as the target only when the cone reaches it. */
        int named = -1;
        for (int j = 0; j < k; j++)
            if (who[j] == t) named = t;
        emit_attack(b, a, named, s, k > 0);
        emit_area(b, a, named, s->w, aim);
        if (k > 0) strike_area(b, a, who, k, roll_damage(b, a, -1, s, 1), s);
        if (s->heat_fire) sf_add_heat(b, a, s->heat_fire);
        return;
    }
    int hits = 0;
    char why[DICE_WHY_MAX];
    if (s->roll == SF_ROLL_HIT) {
        snprintf(why, sizeof why, "to-hit on %.32s", id_of(b, t));
        roll_spec_t spec = roll_plain(1, 20, 0, s->bonus);
        spec.goal = ROLL_GOAL_AT_LEAST;
        spec.target = 20;
        int total = battle_roll_spec(b, a, &spec, why, NULL);
        if (total >= 20) hits = total - 19 < s->shots ? total - 19 : s->shots; /* S-R3 */
    } else {
        snprintf(why, sizeof why, "save vs. %s", s->roll == SF_ROLL_BEAM ? "beam" : "homing");
        if (!sf_save(b, t, s->roll == SF_ROLL_BEAM ? SF_SAVE_BEAM : SF_SAVE_HOMING, why))
            hits = s->shots;
    }
    emit_attack(b, a, t, s, hits > 0);
    /* Continuous fire counts turns spent firing on the same target (S28). */
    if (s->w && battle_weapon_tag(s->w, "continuous") > 0) {
        bool same = u->cont_w == s->weapon && u->cont_t == t && u->cont_round == b->round - 1;
        u->cont_n = (uint8_t)(same && u->cont_n < 250 ? u->cont_n + 1 : 1);
        u->cont_w = (int8_t)s->weapon;
        u->cont_t = (int16_t)t;
        u->cont_round = (int16_t)b->round;
    }
    if (s->ray) {
        u->ray_w = (int8_t)s->weapon;
        u->ray_round = (int16_t)b->round;
        u->ray_at = hex_to_cell(b->map->layout, sf_pos(b, t));
    }
    if (hits > 0) {
        int dmg = roll_damage(b, a, t, s, hits);
        if (s->blast > 0) {
            emit_area(b, a, t, s->w, sf_pos(b, t));
            int n = sf_area_hexes(b, a, s->w, sf_pos(b, t), buf, SF_AREA_MAX);
            int k = occupants(b, buf, n, t, who);
            strike_area(b, a, who, k, dmg, s);
        } else {
            sf_take(b, t, a, dmg, s->nonlethal, s->heat_hit * hits, s->w ? s->w->id : "unarmed");
        }
    }
    if (s->heat_fire && battle_active(b, a)) sf_add_heat(b, a, s->heat_fire);
}

bool sf_uses_ammo(const weapon_t *w)
{
    return w && w->cls != WPN_MELEE && !w->energy;
}

/* The rounds shape s of a's weapon spends on t (S35): one per shot, and a
 * Continuous x weapon kept on the same target x more for each turn it has
 * been kept there (S-D11, S28), as its damage grows. */
static void count_ammo(battle_t *b, int a, int t, const sf_shot_t *s)
{
    if (s->melee || !sf_uses_ammo(s->w) || s->weapon < 0 || s->weapon >= SF_AMMO_SLOTS) return;
    sf_unit_t *u = &sf_st(b)->u[a];
    int rounds = s->shots;
    int cont = battle_weapon_tag(s->w, "continuous");
    if (cont > 0 && u->cont_w == s->weapon && u->cont_t == t && u->cont_round == b->round - 1)
        rounds += cont * u->cont_n;
    int now = u->ammo[s->weapon] + rounds;
    u->ammo[s->weapon] = (uint16_t)(now < UINT16_MAX ? now : UINT16_MAX);
}

void sf_do_attack(battle_t *b, const cmd_t *c)
{
    sf_state_t *st = sf_st(b);
    int a = c->actor;
    int ws[SF_MAX_WEAPONS + 2];
    int n = sf_attack_weapons(b, c, ws);
    sf_shot_t shapes[SF_MAX_WEAPONS + 2];
    int actions = 1;
    /* Every shape is fixed before any die: the weapons fire together. */
    for (int k = 0; k < n; k++) {
        sf_shot_shape(b, a, c->target, ws[k], c->arg, n, c->at, &shapes[k]);
        actions = shapes[k].actions > actions ? shapes[k].actions : actions;
    }
    st->u[a].attacked = 1;
    int mx = martial_x(c->arg);
    if (mx >= 0 && sf_stat(b, a, SF_MARTIAL) - mx > 0) {
        st->u[a].guard = (uint8_t)(sf_stat(b, a, SF_MARTIAL) - mx);
        battle_emit_condition(b, a, "martial_guard", true);
    }
    for (int k = 0; k < n && battle_active(b, a) && !sf_halted(b); k++) {
        const sf_shot_t *s = &shapes[k];
        if (s->w && s->w->cls != WPN_MELEE && !s->melee && !battle_weapon_tag(s->w, "assault"))
            st->u[a].fired_still = 1; /* thrown ones too (S9) */
        if (!s->cone && !battle_active(b, c->target)) break;
        count_ammo(b, a, c->target, s);
        resolve(b, a, c->target, s, c->at);
    }
    sf_spend(b, a, actions);
}

int sf_response_weapon(const battle_t *b, int r, int t)
{
    sf_shot_t s;
    cell_t none = {0, 0};
    for (int w = 0; w < b->u[r].n_weapons; w++)
        if (b->u[r].weapon[w]->cls == WPN_MELEE && sf_shot_shape(b, r, t, w, 0, 1, none, &s))
            return w;
    return sf_shot_shape(b, r, t, -1, 0, 1, none, &s) ? -1 : -2;
}

void sf_respond(battle_t *b, int r, int t, int wi)
{
    sf_state_t *st = sf_st(b);
    sf_shot_t s;
    cell_t none = {0, 0};
    if (!sf_shot_shape(b, r, t, wi, 0, 1, none, &s)) return;
    st->u[r].left--;
    st->u[r].attacked = 1; /* the response is its one attack this turn (S6) */
    resolve(b, r, t, &s, none);
}
