/* ai.c - scars: the built-in AI (docs/rules-scars.md, "The built-in AI"). */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

/* ---- AI ----------------------------------------------------------------- */

/* Path toward goal cut to budget feet, ending on a hex nobody holds or claims. */
static int path_toward(battle_t *b, int i, cell_t goal, int budget, cell_t *out, int cap)
{
    int cost = 0, len = 0;
    if (!geom_path(b->board, i, goal, b->prof[i].interval_ft, b->ps, &cost, b->path, b->ncells,
                   &len) ||
        len < 2)
        return 0;
    const sc_state_t *s = sc_cst(b);
    int spent = 0, n = 0, last_ok = 0;
    for (int k = 1; k < len && n < cap; k++) {
        int sc = map_terrain_at(b->map, b->path[k])->move * b->map->feet_per_hex;
        if (spent + sc > budget)
            break;
        spent += sc;
        out[n++] = b->path[k];
        bool claimed = false;
        for (int j = 0; j < b->n && !claimed; j++) {
            const sc_decl_t *d = &s->decl[j];
            claimed = j != i && d->set && d->n_path > 0 &&
                      d->path[d->n_path - 1].col == b->path[k].col &&
                      d->path[d->n_path - 1].row == b->path[k].row;
        }
        if (board_occupant(b->board, hex_from_cell(b->map->layout, b->path[k])) < 0 && !claimed)
            last_ok = n;
    }
    return last_ok;
}

static int weapon_value(const weapon_t *w) { return w ? w->dice_sides * 10 + w->dice_n : 40; }

/* Where j will stand once this phase's moves resolve, as far as is known now:
 * the end of its declared path, else where it stands. */
static hex_t planned_pos(const battle_t *b, int j)
{
    const sc_decl_t *d = &sc_cst(b)->decl[j];
    if (d->set && d->n_path > 0)
        return hex_from_cell(b->map->layout, d->path[d->n_path - 1]);
    return sc_pos(b, j);
}

/* Would a's blast with w on t catch anyone of a's own side (helpless ones
 * too), where they stand or where they have declared to go? */
static bool blast_hits_friend(const battle_t *b, int a, int t, const weapon_t *w)
{
    if (battle_weapon_tag(w, "blast") <= 0)
        return false;
    for (int k = 0; k < b->n; k++)
        if (k != a && battle_active(b, k) && !sc_enemies(b, a, k) &&
            scars_blast_catches(b, a, t, k, planned_pos(b, k), w))
            return true;
    return false;
}

/* Would a standing at h be caught by a blast an ally has already declared? */
static bool in_friendly_blast(const battle_t *b, int a, hex_t h)
{
    const sc_state_t *s = sc_cst(b);
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j == a || !d->set || d->act != CMD_ENGAGE || sc_enemies(b, a, j) ||
            !battle_active(b, d->target))
            continue;
        for (int k = 0; k < 2; k++) {
            int wi = k ? d->weapon2 : d->weapon;
            if (k && wi < 0)
                continue;
            const weapon_t *w = battle_weapon(b, j, wi);
            if (battle_weapon_tag(w, "blast") > 0 && scars_blast_catches(b, j, d->target, a, h, w))
                return true;
        }
    }
    return false;
}

/* The weapon a uses on t: of those that reach it now or after one move, the
 * most damage expected after t's armor, with impaired and enhanced
 * dice as the attack would roll them from here (so a blast against a
 * detachment beats a bigger die that would be impaired). Never a blast that
 * would catch a's own side; unarmed when nothing else will do. */
static int pick_weapon(const battle_t *b, int a, int t)
{
    const unit_t *u = &b->u[a];
    int dist = hex_distance(sc_pos(b, a), sc_pos(b, t));
    int bw = -1, bv = -1;
    for (int w = -1; w < u->n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        if (w < 0 && u->n_weapons > 0)
            continue;
        if (blast_hits_friend(b, a, t, wp))
            continue;
        int reach = scars_weapon_band(b, wp);
        predict_t pr;
        int mean = scars_predict(b, a, t, w, &pr) ? (int)(pr.dmg_hit * 100.0) : 0;
        /* A move comes with the action, so reaching after one move is as good
         * as reaching now; the plain die size breaks ties, as when armor
         * stops everything. */
        int v = mean * 1000 + weapon_value(wp) + (dist <= reach + SCARS_MOVE_HEXES ? 100000000 : 0);
        if (v > bv) {
            bv = v;
            bw = w;
        }
    }
    return bw;
}

/* Is hex h the end of a path an ally (not a) has declared this phase? */
static bool claimed_by_ally(const battle_t *b, int a, hex_t h)
{
    const sc_state_t *s = sc_cst(b);
    cell_t c = hex_to_cell(b->map->layout, h);
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j != a && d->set && d->n_path > 0 && d->path[d->n_path - 1].col == c.col &&
            d->path[d->n_path - 1].row == c.row)
            return true;
    }
    return false;
}

/* The cheapest hex within one move from which a's shot at t (a weapon band
 * of `reach` hexes) has a clear line with no cover on it, so it is not
 * impaired. Hexes an ally has claimed or will blast are passed over. */
static bool clear_shot_hex(battle_t *b, int a, int t, int reach, cell_t *out)
{
    int n = geom_reach(b->board, a, b->prof[a].speed_ft, b->prof[a].interval_ft, b->ps, b->reach,
                       b->ncells);
    int best = -1;
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (hex_distance(h, sc_pos(b, t)) > reach || (best >= 0 && b->reach[k].cost_ft >= b->reach[best].cost_ft))
            continue;
        if (claimed_by_ally(b, a, h) || in_friendly_blast(b, a, h))
            continue;
        sight_t sg = sight_trace(b->board, h, sc_pos(b, t));
        if (sg.visible && sg.cover == COVER_NONE)
            best = k;
    }
    if (best < 0)
        return false;
    *out = b->reach[best].at;
    return true;
}

/* How much farther (in the AI's target score) a foe looks for each ally
 * already attacking it this phase. */
#define POOL_PENALTY 8

/* Allies of a that have declared an attack on t this phase. */
static int allies_on(const battle_t *b, int a, int t)
{
    const sc_state_t *s = sc_cst(b);
    int n = 0;
    for (int j = 0; j < b->n; j++)
        n += j != a && s->decl[j].set && s->decl[j].act == CMD_ENGAGE && s->decl[j].target == t &&
             !sc_enemies(b, a, j);
    return n;
}

/* Can a attack t this turn: in its weapon's band now or after one move? */
static bool in_reach_this_turn(const battle_t *b, int a, int t)
{
    int reach = scars_weapon_band(b, battle_weapon(b, a, pick_weapon(b, a, t)));
    return hex_distance(sc_pos(b, a), sc_pos(b, t)) <= reach + SCARS_MOVE_HEXES;
}

void sc_ai(battle_t *b, int a, cmd_t *out)
{
    *out = cmd_make(CMD_END, a);
    if (!scars_in_phase(b, a))
        return;
    if (scars_crawling(b, a))
        return; /* lies still: a crawl is the table's call */
    unit_t *u = &b->u[a];
    /* Badly hurt with a way out: run for it. */
    if (u->hp == 0 && u->stat[SS_STR] * 2 < u->stat_max[SS_STR] && sc_on_edge(b, a)) {
        out->kind = CMD_DECLARE;
        out->act = CMD_RETREAT;
        return;
    }
    /* The nearest foe still fighting, weaker ones counting as closer; and
     * apart, the nearest helpless one. The helpless no longer hold the field,
     * so they are attacked only when no fighting foe can be reached this turn
     * (the action would otherwise go to waste). */
    int t = -1, best = 0x3fffffff, th = -1, besth = 0x3fffffff;
    for (int k = 0; k < b->n; k++) {
        if (!battle_active(b, k) || !sc_enemies(b, a, k))
            continue;
        int v = hex_distance(sc_pos(b, a), sc_pos(b, k)) * 3 + b->u[k].hp + b->u[k].stat[SS_STR] / 4;
        /* Attacks on one target pool and only the highest die counts, so a
         * foe an ally has already declared against is worth less. */
        v += POOL_PENALTY * allies_on(b, a, k);
        if (scars_helpless(b, k)) {
            if (v < besth) {
                besth = v;
                th = k;
            }
        } else if (v < best) {
            best = v;
            t = k;
        }
    }
    if (th >= 0 && (t < 0 || (!in_reach_this_turn(b, a, t) && in_reach_this_turn(b, a, th))))
        t = th;
    if (t < 0)
        return;
    int dist = hex_distance(sc_pos(b, a), sc_pos(b, t));
    int bw = pick_weapon(b, a, t);
    const weapon_t *wp = battle_weapon(b, a, bw);
    int reach = scars_weapon_band(b, wp);
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.weapon = bw;
    c.target = t;
    /* A shot from here through cover is impaired (d4): a ranged attacker
     * first looks for a hex within one move with a clear, uncovered line. */
    bool clear_here = dist <= reach && sight_clear(b->board, sc_pos(b, a), sc_pos(b, t));
    if (reach > CLOSE_HEX && dist <= reach + SCARS_MOVE_HEXES &&
        (!clear_here || sight_trace(b->board, sc_pos(b, a), sc_pos(b, t)).cover != COVER_NONE)) {
        cell_t spot;
        if (clear_shot_hex(b, a, t, reach, &spot)) {
            c.n_path = path_toward(b, a, spot, b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
            if (c.n_path > 0 && c.path[c.n_path - 1].col == spot.col &&
                c.path[c.n_path - 1].row == spot.row) {
                c.act = CMD_ENGAGE;
                *out = c;
                return;
            }
            c.n_path = 0;
        }
    }
    if (clear_here) {
        c.act = CMD_ENGAGE;
        *out = c;
        return;
    }
    /* Close in: to a free hex next to the target (or in range of it). When
     * an ally's declared blast sweeps every hex next to it, stop one hex
     * further out, ready for the next phase. */
    hex_t ring[12];
    int bc = 0x3fffffff;
    cell_t goal = {0, 0};
    bool found = false;
    for (int radius = 1; radius <= 2 && !found; radius++) {
        int nr = hex_ring(sc_pos(b, t), radius, ring, 12);
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            if (idx < 0 || b->board->occ[idx] >= 0 ||
                b->map->types[b->map->cells[idx]].move <= 0)
                continue;
            /* Never walk into the blast an ally has already declared. */
            if (in_friendly_blast(b, a, ring[k]))
                continue;
            int d = hex_distance(sc_pos(b, a), ring[k]);
            if (d < bc) {
                bc = d;
                goal = hex_to_cell(b->map->layout, ring[k]);
                found = true;
            }
        }
    }
    if (!found)
        return;
    c.n_path = path_toward(b, a, goal, b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
    if (c.n_path > 0) {
        hex_t end = hex_from_cell(b->map->layout, c.path[c.n_path - 1]);
        if (hex_distance(end, sc_pos(b, t)) <= reach) {
            c.act = CMD_ENGAGE;
            *out = c;
            return;
        }
    }
    /* Too far: the action becomes a second move. */
    c.act = CMD_MOVE;
    c.target = -1;
    c.n_path = path_toward(b, a, goal, 2 * b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
    *out = c;
}
