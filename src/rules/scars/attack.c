/* attack.c - scars: the die an attack rolls, blasts, the odds before an
 * attack, and the resolution of a phase (moves, retreats, pooled attacks).
 *
 * No attack rolls: an attack that can reach deals its die minus armor. Whole
 * sides declare, then resolve together, which is where the pooling of
 * attackers on one target (keep the single highest die) comes from.
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

/* ---- resolving ---------------------------------------------------------- */

bool sc_on_edge(const battle_t *b, int i)
{
    cell_t c = hex_to_cell(b->map->layout, sc_pos(b, i));
    return c.col == 0 || c.row == 0 || c.col == b->map->cols - 1 || c.row == b->map->rows - 1;
}

int scars_weapon_band(const battle_t *b, const weapon_t *w)
{
    return sc_band_hexes(b->map, w);
}

int sc_band_hexes(const map_t *m, const weapon_t *w)
{
    if (!w || w->cls == WPN_MELEE)
        return CLOSE_HEX;
    int h = geom_ft_to_hexes(m, w->range_ft);
    /* Ranges round up to the text's bands: nearby or distant. */
    if (h <= CLOSE_HEX)
        return CLOSE_HEX;
    return h <= NEARBY_HEX ? NEARBY_HEX : DISTANT_HEX;
}

/* The die of a's attack on t with w, given the cover on the line between them
 * and the referee's marks: the weapon's own, d4 impaired, d12 enhanced. */
sc_die_t sc_die_of(const battle_t *b, int a, int t, const weapon_t *w, bool spill,
                   cover_t cover, unsigned marks)
{
    /* Unarmed is always a d4, whatever else holds: the specific rule wins. */
    if (!w)
        return (sc_die_t){1, 4, false, false};
    /* A flat weapon (no dice) rolls nothing of its own: 0 unless impaired or enhanced. */
    int sides = w->dice_sides, n = w->dice_n;
    bool blast = battle_weapon_tag(w, "blast") > 0;
    /* Cover impairs an aimed attack; a blast's spill goes around it. */
    bool impaired = !spill && (cover == COVER_LIGHT || cover == COVER_HEAVY);
    if (sc_detachment(b, t) && !sc_detachment(b, a) && !blast)
        impaired = true;
    if (marks & SC_MARK_IMPAIRED)
        impaired = true;
    bool enhanced = scars_helpless(b, t) || (sc_horde(b, a) && !sc_detachment(b, t)) ||
                    (marks & SC_MARK_ENHANCED);
    if (impaired && enhanced) {
        /* The two cancel: the weapon's own die. */
    } else if (impaired) {
        sides = 4;
        n = 1;
    } else if (enhanced) {
        sides = 12;
        n = 1;
    }
    return (sc_die_t){n, sides, impaired, enhanced};
}

sc_die_t scars_attack_die(const battle_t *b, int a, int t, const weapon_t *w, bool spill)
{
    cover_t cover = spill ? COVER_NONE : sight_trace(b->board, sc_pos(b, a), sc_pos(b, t)).cover;
    return sc_die_of(b, a, t, w, spill, cover, 0);
}

/* Does a's attack with w reach t from where both stand? */
bool sc_reaches(const battle_t *b, int a, int t, const weapon_t *w)
{
    return hex_distance(sc_pos(b, a), sc_pos(b, t)) <= scars_weapon_band(b, w) &&
           sight_clear(b->board, sc_pos(b, a), sc_pos(b, t));
}

/* A weapon's own blast: tag blast=R, R hexes around where it lands. */
bool sc_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at,
                              area_t *out)
{
    (void)m;
    int radius = battle_weapon_tag(w, "blast");
    if (radius <= 0)
        return false;
    *out = area_blast(from, at, radius);
    return true;
}

bool scars_blast_area(const battle_t *b, int a, int t, const weapon_t *w, area_t *out)
{
    if (sc_weapon_area(b->map, w, sc_pos(b, a), sc_pos(b, t), out))
        return true;
    if (!sc_horde(b, a) || sc_detachment(b, t))
        return false;
    /* A detachment's onslaught on an individual spills onto the hexes next to it. */
    *out = area_blast(sc_pos(b, a), sc_pos(b, t), 1);
    return true;
}

bool scars_blast_catches(const battle_t *b, int a, int t, int k, hex_t at, const weapon_t *w)
{
    area_t area;
    if (k == t || k == a || !scars_blast_area(b, a, t, w, &area))
        return false;
    /* The onslaught (no blast of the weapon's own) never strikes its own side. */
    if (battle_weapon_tag(w, "blast") <= 0 && !sc_enemies(b, a, k))
        return false;
    return area_covers(b->board, &area, at);
}

/* Roll one attack die (NdS keep the highest, or the impaired / enhanced die). */
static int roll_attack(battle_t *b, int a, int t, const weapon_t *w, bool spill, cover_t cover,
                       unsigned marks)
{
    sc_die_t d = sc_die_of(b, a, t, w, spill, cover, marks);
    char why[EV_NAME_MAX];
    snprintf(why, sizeof why, "damage on %s", b->map->combatants[t].id);
    return battle_roll(b, a, d.n, d.sides, 1, 0, why, NULL);
}

/* ---- odds --------------------------------------------------------------- */

/* P(the kept die <= k) for n dice of `sides`, keeping the highest: every die
 * at or under k. A die of 0 sides (no second weapon) is always under. */
double sc_kept_cdf(sc_die_t d, int k)
{
    if (d.sides <= 0 || k >= d.sides)
        return 1.0;
    if (k <= 0)
        return 0.0;
    double p = 1.0;
    for (int i = 0; i < d.n; i++)
        p *= (double)k / d.sides;
    return p;
}

bool scars_predict_dual(const battle_t *b, int a, int t, int wi, int wi2, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (!b || a == t || !battle_active(b, a) || !battle_active(b, t))
        return false;
    /* The same weapon checks as apply. */
    int nw = b->u[a].n_weapons;
    if (wi >= nw || wi2 >= nw || (wi2 >= 0 && wi2 == wi))
        return false;
    const weapon_t *w = battle_weapon(b, a, wi);
    const weapon_t *w2 = wi2 >= 0 ? battle_weapon(b, a, wi2) : NULL;
    bool r1 = sc_reaches(b, a, t, w), r2 = wi2 >= 0 && sc_reaches(b, a, t, w2);
    /* Damage on a hit counts the dice that land; with none landing, the
     * dice the attack would roll if it did. */
    bool use1 = r1 || !r2, use2 = wi2 >= 0 && (r2 || !r1);
    sc_die_t d1 = scars_attack_die(b, a, t, w, false), none = {0, 0, false, false};
    sc_die_t d2 = wi2 >= 0 ? scars_attack_die(b, a, t, w2, false) : none;
    if (!use1)
        d1 = none;
    if (!use2)
        d2 = none;
    sc_die_t shown = use1 ? d1 : d2;
    out->dmg_n = shown.n;
    out->dmg_sides = shown.sides;
    out->dmg_bonus = 0; /* the roll adds nothing; armor comes off what is kept */
    /* Exact mean of max(0, kept - armor): the kept face is the highest die of
     * every die rolled, so its CDF is the product of the dice's CDFs. */
    int armor = b->u[t].stat[SS_ARMOR];
    int top = d1.sides > d2.sides ? d1.sides : d2.sides;
    double mean = 0.0, below = 0.0;
    for (int k = 1; k <= top; k++) {
        double at_most = sc_kept_cdf(d1, k) * sc_kept_cdf(d2, k);
        int dmg = k - armor;
        if (dmg > 0)
            mean += (at_most - below) * dmg;
        below = at_most;
    }
    out->valid = true;
    out->p_hit = (r1 || r2) ? 1.0 : 0.0; /* no attack roll: it lands if it reaches */
    out->dmg_hit = mean;
    out->dmg_expected = out->p_hit * mean;
    return true;
}

bool scars_predict(const battle_t *b, int a, int t, int w, predict_t *out)
{
    return scars_predict_dual(b, a, t, w, -1, out);
}

/* ---- resolving (continued) ---------------------------------------------- */

int sc_move_stop(const battle_t *b, int i, const sc_decl_t *d)
{
    int stop = 0;
    for (int k = 0; k < d->n_path; k++) {
        int occ = board_occupant(b->board, hex_from_cell(b->map->layout, d->path[k]));
        if (occ >= 0 && occ != i && sc_enemies(b, i, occ))
            break;
        if (occ < 0 || occ == i)
            stop = k + 1;
    }
    return stop;
}

void sc_resolve_phase(battle_t *b)
{
    sc_state_t *s = sc_st(b);
    /* 1. Moves, in map order: up to the last free hex before any enemy. */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || !battle_active(b, i))
            continue;
        int stop = sc_move_stop(b, i, d);
        for (int k = 0; k < stop; k++)
            battle_step(b, i, hex_from_cell(b->map->layout, d->path[k]));
    }
    /* 2. Retreats: a safe edge and a DEX save. */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || d->act != CMD_RETREAT || !battle_active(b, i))
            continue;
        bool ok = sc_on_edge(b, i) && sc_save(b, i, SS_DEX, "DEX save (retreat)");
        battle_emit_action(b, i, "retreat", -1, ok);
        if (ok) {
            battle_remove(b, i);
            event_t e = event_make(EV_FLED);
            e.who = i;
            battle_emit(b, &e);
        }
    }
    /* Aid: a stabilizer next to its helpless ally after the moves steadies
     * it (it will not die of its wounds; it still cannot fight). */
    for (int i = 0; i < b->n; i++) {
        const sc_decl_t *d = &s->decl[i];
        if (!d->set || d->act != CMD_STABILIZE || !battle_active(b, i))
            continue;
        int t = d->target;
        bool ok = battle_active(b, t) && hex_distance(sc_pos(b, i), sc_pos(b, t)) <= CLOSE_HEX;
        battle_emit_action(b, i, "stabilize", t, ok);
        if (ok && !(b->u[t].cond & SC_STABLE)) {
            b->u[t].cond |= SC_STABLE;
            battle_emit_condition(b, t, "stabilized", true);
        }
    }
    /* 3. Attacks land together: which ones reach, and the cover on each line
     * (bodies included), are settled before any damage, so a combatant who
     * falls during the resolution still covers its later shots (RULINGS). */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || d->act != CMD_ENGAGE || !battle_active(b, i) ||
            !battle_active(b, d->target)) {
            d->lands = 0;
            continue;
        }
        const weapon_t *w = battle_weapon(b, i, d->weapon);
        const weapon_t *w2 = d->weapon2 >= 0 ? battle_weapon(b, i, d->weapon2) : NULL;
        d->lands = (unsigned char)(sc_reaches(b, i, d->target, w) |
                                   (d->weapon2 >= 0 && sc_reaches(b, i, d->target, w2)) << 1);
        d->cover = (unsigned char)sight_trace(b->board, sc_pos(b, i), sc_pos(b, d->target)).cover;
        /* One attack event per weapon (a dual attack logs both), and each
         * landing blast shows the hexes it sweeps, the same area that decides
         * who is caught below. */
        for (int k = 0; k < 1 + (d->weapon2 >= 0); k++) {
            const weapon_t *wk = k ? w2 : w;
            event_t e = event_make(EV_ATTACK);
            e.who = i;
            e.target = d->target;
            e.hit = (d->lands >> k) & 1; /* no attack roll: it lands when it can reach */
            hb_strlcpy(e.name, wk ? wk->id : "unarmed", sizeof e.name);
            battle_emit(b, &e);
            area_t area;
            if (e.hit && scars_blast_area(b, i, d->target, wk, &area)) {
                event_t ae = area_event(b->map, i, d->target, &area);
                battle_emit(b, &ae);
            }
        }
    }
    /* Pooled by target: every die on it rolled, the single highest kept, armor once. */
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t))
            continue;
        int best = 0;
        bool any = false;
        for (int i = 0; i < b->n; i++) {
            const sc_decl_t *d = &s->decl[i];
            if (!d->set || d->act != CMD_ENGAGE || !d->lands)
                continue;
            for (int k = 0; k < 2; k++) {
                if (!(d->lands & (1 << k)))
                    continue;
                const weapon_t *w = battle_weapon(b, i, k ? d->weapon2 : d->weapon);
                if (d->target != t && !scars_blast_catches(b, i, d->target, t, sc_pos(b, t), w))
                    continue;
                int v = roll_attack(b, i, t, w, d->target != t, (cover_t)d->cover, d->marks);
                best = v > best ? v : best;
                any = true;
            }
        }
        if (any)
            scars_damage(b, t, best - b->u[t].stat[SS_ARMOR]);
    }
}
