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

void xhalem_geo_profile(const map_t *m, const map_combatant_t *c, geo_profile_t *out)
{
    int unit = c->kind == KIND_MACHINE ? MECH_HEX_FT : 1;
    int reach = c->reach_ft > 0 ? c->reach_ft : (big_for_reach(c) ? 10 : 5) * unit;
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
    if (is_machine(b, i)) return w < 2;
    int e = b->u[i].equipped;
    if (w == e) return true;
    return stat(b, i, XS_DUAL_WEAPON) > 0 && (w == e + 1 || (e == b->u[i].n_weapons - 1 && w == 0));
}

bool xhalem_aware(const battle_t *b, int obs, int t)
{
    const xh_state_t *s = cst(b);
    if (has(b, t, XC_CLOAKED) && !s->revealed[t]) return false;
    sight_t sg = sight_trace(b->board, pos(b, obs), pos(b, t));
    if (!sg.visible) return false;
    if (has(b, t, XC_HIDDEN)) {
        /* A machine's passive scan finds a hider unless something blocks its scanners. */
        return is_machine(b, obs) && sg.cover < COVER_HEAVY;
    }
    return true;
}

void xh_emit_cond(battle_t *b, int i, const char *name, bool on)
{
    event_t e = event_make(EV_CONDITION);
    e.who = i;
    e.on = on;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

void xh_set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on)
{
    if (((b->u[i].cond & bit) != 0) == on) return;
    if (on)
        b->u[i].cond |= bit;
    else
        b->u[i].cond &= ~bit;
    xh_emit_cond(b, i, name, on);
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
    xh_emit_cond(b, r, "mounted", false);
    if (b->board->present[r] && board_occupant(b->board, pos(b, r)) < 0)
        board_place(b->board, r, pos(b, r));
}

static void defeat(battle_t *b, int i)
{
    break_grapples(b, i);
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
    if (a < 0 || immobile(b, a)) return 0;
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
