/* core.c - xhalem: lengths, what a combatant knows and holds, conditions, damage
 * and defeat, and movement speed.
 */
#include "xh_int.h"

static bool big_for_reach(const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE) return c->size == SIZE_GARGANTUAN;
    return c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH;
}

/* Creature move costs round up to 5, 10 or 15 ft by size; machines use the grid. */
static int move_interval(const map_t *m, const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE) return m->feet_per_hex;
    if (c->size == SIZE_EXTRA_LARGE) return 10;
    if (c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH) return 15;
    return 5;
}

int xh_body_reach(const map_combatant_t *c)
{
    int unit = c->kind == KIND_MACHINE ? MECH_HEX_FT : 1;
    return c->reach_ft > 0 ? c->reach_ft : (big_for_reach(c) ? 10 : 5) * unit;
}

/* A stat of c as the battle will start with it: the map's, else its template's. */
static int start_stat(const tmpl_db_t *db, const map_combatant_t *c, const char *key)
{
    int v = 0;
    if (map_combatant_stat(c, key, &v)) return v;
    const tmpl_t *t = db && c->template_name[0] ? tmpl_find(db, c->template_name) : NULL;
    return t && stat_get(t->stats, t->n_stats, key, &v) ? v : 0;
}

void xhalem_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                        geo_profile_t *out)
{
    int unit = c->kind == KIND_MACHINE ? MECH_HEX_FT : 1;
    int reach = xh_body_reach(c);
    /* The weapons in hand at the start: a machine's first two, a creature's
     * first (and second, fighting with two). */
    int in_hand = c->kind == KIND_MACHINE || start_stat(db, c, "dual_weapon") > 0 ? 2 : 1;
    for (int w = 0; db && w < c->n_weapons && w < in_hand; w++) {
        const weapon_t *wp = tmpl_find_weapon(db, c->weapons[w]);
        if (wp && wp->cls == WPN_MELEE && wp->reach_ft > reach) reach = wp->reach_ft;
    }
    out->reach_ft = reach;
    out->speed_ft = c->speed_ft;
    out->dash_ft = 2 * c->speed_ft;
    out->interval_ft = move_interval(m, c);
    out->flank_ft = 10 * unit;
}

int xhalem_mount_of(const battle_t *b, int i)
{
    return cst(b)->mounted_on[i] - 1;
}

bool xhalem_equipped(const battle_t *b, int i, int w)
{
    if (w < 0) return true; /* the body is always at hand */
    if (w >= b->u[i].n_weapons) return false;
    /* Mechs carry two weapons at once; creatures one (two with dual-weapon fighting). */
    if (is_machine(b, i)) return (cst(b)->mhand[i] >> w) & 1u;
    int e = b->u[i].equipped;
    if (w == e) return true;
    return stat(b, i, XS_DUAL_WEAPON) > 0 && (w == e + 1 || (e == b->u[i].n_weapons - 1 && w == 0));
}

int xhalem_reach(const battle_t *b, int i)
{
    int reach = xh_body_reach(mc(b, i));
    for (int w = 0; w < b->u[i].n_weapons; w++) {
        const weapon_t *wp = b->u[i].weapon[w];
        if (wp->cls == WPN_MELEE && wp->reach_ft > reach && xhalem_equipped(b, i, w))
            reach = wp->reach_ft;
    }
    return reach;
}

bool xhalem_aware(const battle_t *b, int obs, int t)
{
    const xh_state_t *s = cst(b);
    if (has(b, t, XC_CLOAKED) && !s->revealed[t]) return false;
    sight_t sg = sight_trace(b->board, pos(b, obs), pos(b, t));
    if (!sg.visible) return false;
    if (has(b, t, XC_HIDDEN)) {
        /* A hider is hidden only from those who cannot see it clearly (RULINGS:
         * hiding), whoever moved last; a machine's passive scan finds it unless
         * something blocks its scanners. */
        return sg.cover == COVER_NONE || (is_machine(b, obs) && sg.cover < COVER_HEAVY);
    }
    return true;
}

void xh_set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on)
{
    if (((b->u[i].cond & bit) != 0) == on) return;
    if (on)
        b->u[i].cond |= bit;
    else
        b->u[i].cond &= ~bit;
    battle_emit_condition(b, i, name, on);
}

/* Let go of whatever i holds and whatever holds i. */
static void break_grapples(battle_t *b, int i)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < b->n; k++) {
        if (s->grappled_by[k] == i + 1) {
            s->grappled_by[k] = 0;
            xh_set_cond(b, k, XC_GRAPPLED, "grappled", false);
        }
    }
    if (s->grappled_by[i]) {
        s->grappled_by[i] = 0;
        xh_set_cond(b, i, XC_GRAPPLED, "grappled", false);
    }
}

/* Undo a mount/rider pair (either may be gone); the rider keeps its hex and,
 * if still in the fight and the hex is free, takes it. */
void xh_unmount(battle_t *b, int r)
{
    xh_state_t *s = st(b);
    int m = xhalem_mount_of(b, r);
    if (m < 0) return;
    s->mounted_on[r] = 0;
    s->rider_of[m] = 0;
    battle_emit_condition(b, r, "mounted", false);
    if (b->board->present[r] && board_occupant(b->board, pos(b, r)) < 0)
        board_place(b->board, r, pos(b, r));
}

static void defeat(battle_t *b, int i)
{
    break_grapples(b, i);
    /* An assist lapses if the assistant falls first (RULINGS: assist). */
    xh_state_t *s = st(b);
    for (int t = 0; t < b->n; t++)
        if (s->assist_on[t] == i + 1) {
            s->assist_on[t] = s->assist_for[t] = 0;
            xh_set_cond(b, t, XC_DISTRACTED, "distracted", false);
        }
    bool was_mount = rider_on(b, i) >= 0;
    int rider = rider_on(b, i);
    if (xhalem_mount_of(b, i) >= 0) xh_unmount(b, i);
    battle_remove(b, i);
    if (was_mount) xh_unmount(b, rider); /* the rider drops into the hex the mount held */
    event_t e = event_make(EV_DEFEATED);
    e.who = i;
    battle_emit(b, &e);
}

void xh_deal_damage(battle_t *b, int t, int amount)
{
    unit_t *u = &b->u[t];
    if (amount < 0) amount = 0;
    u->hp -= amount;
    if (u->hp < 0) u->hp = 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = u->hp;
    battle_emit(b, &e);
    if (u->hp == 0) defeat(b, t);
}

/* Feet i may move in a turn, flying or on foot, doubled by a dash, halved
 * while dragging a grappled foe. */
int xh_speed_ft(const battle_t *b, int i, bool flying, bool dashed)
{
    const xh_state_t *s = cst(b);
    int body = carrier(b, i);
    int sp = flying ? mc(b, body)->fly_ft : b->prof[body].speed_ft;
    if (dashed) sp *= 2;
    /* Dragging a grappled foe halves speed unless it is two sizes smaller. */
    for (int k = 0; k < b->n; k++)
        if (s->grappled_by[k] == i + 1 && battle_active(b, k) &&
            (int)mc(b, k)->size > (int)mc(b, i)->size - 2) {
            sp /= 2;
            break;
        }
    return sp;
}

/* Movement speed of the actor i as it stands (flying or walking, dashed or not), feet. */
int xh_mode_speed(const battle_t *b, int i)
{
    return xh_speed_ft(b, i, airborne(b, i), cst(b)->turn.dashed);
}

int xhalem_move_left(const battle_t *b)
{
    const xh_state_t *s = cst(b);
    int a = s->actor;
    if (a < 0 || immobile(b, a) || s->turn.dash_over) return 0;
    int left = xh_mode_speed(b, a) - s->turn.moved_ft;
    return left > 0 ? left : 0;
}

bool xhalem_hidden_from(const battle_t *b, int who, int side)
{
    if (who < 0 || who >= b->n || b->u[who].out || b->board->side[who] == side) return false;
    const xh_state_t *s = cst(b);
    bool cloaked = has(b, who, XC_CLOAKED) && !s->revealed[who];
    if (!cloaked && !has(b, who, XC_HIDDEN)) return false;
    /* One watcher who knows where it is tells the whole side. */
    for (int i = 0; i < b->n; i++)
        if (battle_active(b, i) && b->board->side[i] == side && xhalem_aware(b, i, who))
            return false;
    return true;
}
