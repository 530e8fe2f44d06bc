/* xhalem.c - the Xha'lem ruleset (mechs and creatures). See docs/rules-xhalem.md.
 *
 * Initiative order, one turn per combatant: one move (split around the
 * action as the mover likes) and one action. Engagements are opposed d20
 * rolls; every modifier is gathered into advantage / disadvantage / detriment
 * first and resolved once, so the cancelling rules live in one place.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/path.h"
#include "predict.h"
#include "ruleset.h"
#include "xhalem.h"

/* Machine lengths are written in mech hexes of 15 ft (RULINGS: xhalem units). */
#define MECH_HEX_FT 15
#define NMAX MAP_MAX_COMBATANTS

static const char *const STAT_NAMES[XS_COUNT] = {
    [XS_AGILITY] = "agility",     [XS_STRENGTH] = "strength",
    [XS_EVASION] = "evasion",     [XS_STEALTH] = "stealth",
    [XS_PERCEPTION] = "perception", [XS_INVESTIGATION] = "investigation",
    [XS_ENGINE] = "engine",       [XS_SYSTEMS] = "systems",
    [XS_HULL] = "hull",           [XS_REACTOR] = "reactor",
    [XS_SCANNERS] = "scanners",   [XS_CLOAK] = "cloak",
    [XS_DUAL_STRIKE] = "dual_strike", [XS_DUAL_WEAPON] = "dual_weapon",
    [XS_AQUATIC] = "aquatic",     [XS_TELEPORT] = "teleport",
};

static xh_state_t *st(battle_t *b) { return (xh_state_t *)b->rs; }
static const xh_state_t *cst(const battle_t *b) { return (const xh_state_t *)b->rs; }

static bool big_for_reach(const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE)
        return c->size == SIZE_GARGANTUAN;
    return c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH;
}

/* Creature move costs round up to 5, 10 or 15 ft by size; machines use the grid. */
static int move_interval(const map_t *m, const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE)
        return m->feet_per_hex;
    if (c->size == SIZE_EXTRA_LARGE)
        return 10;
    if (c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH)
        return 15;
    return 5;
}

static void xhalem_geo_profile(const map_t *m, const map_combatant_t *c, geo_profile_t *out)
{
    int unit = c->kind == KIND_MACHINE ? MECH_HEX_FT : 1;
    int reach = c->reach_ft > 0 ? c->reach_ft : (big_for_reach(c) ? 10 : 5) * unit;
    out->reach_ft = reach;
    out->speed_ft = c->speed_ft;
    out->dash_ft = 2 * c->speed_ft;
    out->interval_ft = move_interval(m, c);
    out->flank_ft = 10 * unit;
}

/* ---- small queries ------------------------------------------------------ */

static const map_combatant_t *mc(const battle_t *b, int i) { return &b->map->combatants[i]; }
static bool is_machine(const battle_t *b, int i) { return mc(b, i)->kind == KIND_MACHINE; }
static int stat(const battle_t *b, int i, int s) { return b->u[i].stat[s]; }
static bool has(const battle_t *b, int i, unsigned c) { return (b->u[i].cond & c) != 0; }
static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }
static int dist_hex(const battle_t *b, int i, int j) { return hex_distance(pos(b, i), pos(b, j)); }
/* Is a distance of `hexes` within a rule length of `ft`? A length covers
 * ceil(ft / feet_per_hex) hexes (RULINGS, Scale), as the threat zone and the
 * overlays count it: 10 ft of reach still reaches the next 15-ft hex. */
static bool within_ft(const battle_t *b, int hexes, int ft)
{
    return hexes <= geom_ft_to_hexes(b->map, ft);
}
int xhalem_mount_of(const battle_t *b, int i) { return cst(b)->mounted_on[i] - 1; }
static int rider_on(const battle_t *b, int m) { return cst(b)->rider_of[m] - 1; }
static bool enemies(const battle_t *b, int i, int j) { return !board_allies(b->board, i, j); }

/* Engagement bonus: Systems for a machine, Agility for a creature. */
static int engage_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_SYSTEMS : XS_AGILITY);
}
/* Evasion / initiative bonus: Engine for a machine, Evasion for a creature. */
static int evade_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_ENGINE : XS_EVASION);
}
/* Raw-strength checks (grapple, shove, escape): Hull or Strength. */
static int might_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_HULL : XS_STRENGTH);
}

/* Reach of combatant i with weapon w (NULL: unarmed), feet. */
static int melee_reach(const battle_t *b, int i, const weapon_t *w)
{
    if (w && w->cls == WPN_MELEE && w->reach_ft > 0)
        return w->reach_ft;
    return b->prof[i].reach_ft;
}

static bool in_water(const battle_t *b, int i)
{
    cell_t c = hex_to_cell(b->map->layout, pos(b, i));
    return strcmp(map_terrain_at(b->map, c)->name, "water") == 0;
}

bool xhalem_equipped(const battle_t *b, int i, int w)
{
    if (w < 0)
        return true; /* the body is always at hand */
    if (w >= b->u[i].n_weapons)
        return false;
    /* Mechs carry two weapons at once; creatures one (two with dual-weapon fighting). */
    if (is_machine(b, i))
        return w < 2;
    int e = b->u[i].equipped;
    if (w == e)
        return true;
    return stat(b, i, XS_DUAL_WEAPON) > 0 && (w == e + 1 || (e == b->u[i].n_weapons - 1 && w == 0));
}

bool xhalem_aware(const battle_t *b, int obs, int t)
{
    const xh_state_t *s = cst(b);
    if (has(b, t, XC_CLOAKED) && !s->revealed[t])
        return false;
    sight_t sg = sight_trace(b->board, pos(b, obs), pos(b, t));
    if (!sg.visible)
        return false;
    if (has(b, t, XC_HIDDEN)) {
        /* A machine's passive scan finds a hider unless something blocks its scanners. */
        return is_machine(b, obs) && sg.cover < COVER_HEAVY;
    }
    return true;
}

static bool immobile(const battle_t *b, int i)
{
    return cst(b)->grappled_by[i] > 0;
}

/* ---- events ------------------------------------------------------------- */

static void emit_cond(battle_t *b, int i, const char *name, bool on)
{
    event_t e = event_make(EV_CONDITION);
    e.who = i;
    e.on = on;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

static void set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on)
{
    if (((b->u[i].cond & bit) != 0) == on)
        return;
    if (on)
        b->u[i].cond |= bit;
    else
        b->u[i].cond &= ~bit;
    emit_cond(b, i, name, on);
}

/* Let go of whatever i holds and whatever holds i. */
static void break_grapples(battle_t *b, int i)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < b->n; k++) {
        if (s->grappled_by[k] == i + 1) {
            s->grappled_by[k] = 0;
            set_cond(b, k, XC_GRAPPLED, "grappled", false);
        }
    }
    if (s->grappled_by[i]) {
        s->grappled_by[i] = 0;
        set_cond(b, i, XC_GRAPPLED, "grappled", false);
    }
}

/* Undo a mount/rider pair (either may be gone); the rider keeps its hex and,
 * if still in the fight and the hex is free, takes it. */
static void unmount(battle_t *b, int r)
{
    xh_state_t *s = st(b);
    int m = xhalem_mount_of(b, r);
    if (m < 0)
        return;
    s->mounted_on[r] = 0;
    s->rider_of[m] = 0;
    emit_cond(b, r, "mounted", false);
    if (b->board->present[r] && board_occupant(b->board, pos(b, r)) < 0)
        board_place(b->board, r, pos(b, r));
}

static void defeat(battle_t *b, int i)
{
    break_grapples(b, i);
    bool was_mount = rider_on(b, i) >= 0;
    int rider = rider_on(b, i);
    if (xhalem_mount_of(b, i) >= 0)
        unmount(b, i);
    battle_remove(b, i);
    if (was_mount)
        unmount(b, rider); /* the rider drops into the hex the mount held */
    event_t e = event_make(EV_DEFEATED);
    e.who = i;
    battle_emit(b, &e);
}

static void deal_damage(battle_t *b, int t, int amount)
{
    unit_t *u = &b->u[t];
    if (amount < 0)
        amount = 0;
    u->hp -= amount;
    if (u->hp < 0)
        u->hp = 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = u->hp;
    battle_emit(b, &e);
    if (u->hp == 0)
        defeat(b, t);
}

/* ---- engagement --------------------------------------------------------- */

typedef xh_mods_t mods_t;

/* Dice count and keep for a d20 roll with these modifiers. */
static void roll_shape(mods_t m, int *n, int *keep)
{
    if (m.detriment) {
        /* Detriment with advantage becomes disadvantage. */
        *n = m.adv ? 2 : 4;
        *keep = -1;
    } else if (m.adv && !m.dis) {
        *n = 2;
        *keep = 1;
    } else if (m.dis && !m.adv) {
        *n = 2;
        *keep = -1;
    } else {
        *n = 1;
        *keep = 0;
    }
}

int xhalem_d20(battle_t *b, int who, xh_mods_t m, int bonus, const char *why, int *natural)
{
    int n, keep;
    roll_shape(m, &n, &keep);
    event_t e;
    int total = battle_roll(b, who, n, 20, keep, bonus, why, &e);
    if (natural)
        *natural = e.kept[0];
    return total;
}

static int d20(battle_t *b, int who, mods_t m, int bonus, const char *why, int *natural)
{
    return xhalem_d20(b, who, m, bonus, why, natural);
}

/* Damage bonus: the score the text adds for this kind of weapon. */
static int damage_bonus(const battle_t *b, int a, const weapon_t *w)
{
    bool ranged = w && w->cls == WPN_RANGED;
    bool energy = w && w->energy;
    if (is_machine(b, a)) {
        if (!ranged)
            return stat(b, a, XS_HULL); /* melee, unarmed, thrown */
        return energy ? stat(b, a, XS_REACTOR) : 0;
    }
    return ranged && energy ? 0 : stat(b, a, XS_STRENGTH);
}

/* How an engagement of t by a with w stands right now (xh_engage_t). */
typedef xh_engage_t eng_t;

bool xhalem_engage_shape(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity,
                         bool forced, xh_engage_t *out)
{
    const xh_state_t *s = cst(b);
    eng_t g;
    memset(&g, 0, sizeof g);
    *out = g;
    if (!battle_active(b, a) || !battle_active(b, t) || a == t)
        return false;
    sight_t sg = sight_trace(b->board, pos(b, a), pos(b, t));
    int d = hex_distance(pos(b, a), pos(b, t));
    bool melee = !w || w->cls == WPN_MELEE;
    if (sg.cover == COVER_TOTAL)
        return false; /* total cover: cannot be targeted */
    if (melee && !within_ft(b, d, melee_reach(b, a, w)))
        return false;
    if (!melee && !within_ft(b, d, w->range_ft)) {
        g.beyond = true;
        g.atk.dis++;
    }
    g.legal = true;

    bool cloaked = has(b, t, XC_CLOAKED);
    bool hidden = has(b, t, XC_HIDDEN);
    bool sees = xhalem_aware(b, a, t);
    if (!sees && (cloaked || hidden)) {
        /* Engaging what you cannot detect: detriment (cloaked) or disadvantage. */
        if (cloaked && !s->revealed[t])
            g.atk.detriment = true;
        else
            g.atk.dis++;
        if (g.beyond)
            g.auto_fail = true;
    }
    if (cloaked || hidden)
        g.def.adv++; /* it still evades with advantage while cloaked or concealed */
    /* Cover: light partially conceals; heavy conceals against ranged attacks. */
    if (sg.cover == COVER_LIGHT)
        g.def.adv++;
    if (sg.cover == COVER_HEAVY) {
        g.def.adv++;
        if (!melee)
            g.atk.dis++;
    }
    /* An attacker its target cannot detect strikes with advantage, unopposed. */
    if ((has(b, a, XC_HIDDEN) || (has(b, a, XC_CLOAKED) && !s->revealed[a])) &&
        !xhalem_aware(b, t, a)) {
        g.unaware = true;
        g.atk.adv++;
    }
    if (melee) {
        int partners[NMAX];
        g.flank_partners = geom_flank_partners(b->board, b->prof, a, t, partners, NMAX);
        if (g.flank_partners > 0)
            g.atk.adv++;
    }
    if (s->assist_on[t] && !board_allies(b->board, s->assist_on[t] - 1, t) &&
        board_allies(b->board, s->assist_on[t] - 1, a) && s->assist_on[t] - 1 != a)
        g.atk.adv++;
    if (opportunity) {
        if (forced)
            g.atk.dis++;
        else
            g.atk.adv++;
    }
    if ((in_water(b, a) || in_water(b, t)) && stat(b, a, XS_AQUATIC) <= 0)
        g.atk.dis++;

    /* The dice, once: both sides' d20s and the damage roll. */
    roll_shape(g.atk, &g.atk_n, &g.atk_keep);
    g.atk_bonus = engage_bonus(b, a);
    g.def_bonus = evade_bonus(b, t);
    if (!g.unaware)
        roll_shape(g.def, &g.def_n, &g.def_keep);
    g.naturals = !is_machine(b, a);
    /* A flat weapon ("+2") rolls no dice: its bonus is the whole damage. */
    g.dmg_n = w ? w->dice_n : 1;
    g.dmg_sides = w ? w->dice_sides : 4;
    g.dmg_bonus = (w ? w->dice_bonus : 0) + damage_bonus(b, a, w);
    /* Water: full immersion stops fire; any immersion makes lightning worse. */
    g.dmg_factor = 1;
    if (in_water(b, t) && battle_weapon_tag(w, "fire"))
        g.dmg_factor = 0;
    else if (in_water(b, t) && battle_weapon_tag(w, "electric"))
        g.dmg_factor = 2;
    *out = g;
    return true;
}

static eng_t assess(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity,
                    bool forced)
{
    eng_t g;
    xhalem_engage_shape(b, a, t, w, opportunity, forced, &g);
    return g;
}

/* Roll the engagement; returns hit. */
static bool engagement(battle_t *b, int a, int t, const weapon_t *w, const eng_t *g)
{
    xh_state_t *s = st(b);
    event_t re;
    int atk = battle_roll(b, a, g->atk_n, 20, g->atk_keep, g->atk_bonus, "engage", &re);
    int nat = re.kept[0];
    bool hit;
    if (g->auto_fail) {
        hit = false;
    } else {
        int def = g->def_n <= 0 ? g->def_bonus
                                : battle_roll(b, t, g->def_n, 20, g->def_keep, g->def_bonus,
                                              "evade", NULL);
        hit = atk > def;
        if (g->naturals && nat == 1)
            hit = false;
        if (g->naturals && nat == 20)
            hit = true;
    }
    /* Striking gives an unseen attacker away. */
    if (has(b, a, XC_HIDDEN))
        set_cond(b, a, XC_HIDDEN, "hidden", false);
    if (has(b, a, XC_CLOAKED))
        s->revealed[a] = 1;
    /* The assist is spent on the first engagement an ally makes after it;
     * the assister's own strike (a granted secondary) neither gains nor spends it. */
    int assister = s->assist_on[t] - 1;
    if (assister >= 0 && assister != a && board_allies(b->board, assister, a)) {
        s->assist_on[t] = 0;
        set_cond(b, t, XC_DISTRACTED, "distracted", false);
    }
    event_t e = event_make(EV_ATTACK);
    e.who = a;
    e.target = t;
    e.hit = hit;
    hb_strlcpy(e.name, w ? w->id : "unarmed", sizeof e.name);
    battle_emit(b, &e);
    return hit;
}

/* Damage for a hit of t by a, rolled as the engagement's shape g says. */
static void strike_damage(battle_t *b, int a, int t, const eng_t *g)
{
    int dmg = battle_roll(b, a, g->dmg_n, g->dmg_sides, 0, g->dmg_bonus, "damage", NULL);
    if (g->beyond)
        dmg /= 2;
    dmg *= g->dmg_factor;
    deal_damage(b, t, dmg);
}

/* A full engagement of t by a: roll, then damage on a hit. Returns hit. */
static bool strike(battle_t *b, int a, int t, const weapon_t *w, bool opportunity, bool forced)
{
    eng_t g = assess(b, a, t, w, opportunity, forced);
    if (!g.legal)
        return false;
    bool hit = engagement(b, a, t, w, &g);
    if (hit)
        strike_damage(b, a, t, &g);
    return hit;
}

/* ---- reactions ---------------------------------------------------------- */

static bool can_react(const battle_t *b, int r)
{
    return battle_active(b, r) && !cst(b)->reaction_used[r] && !immobile(b, r);
}

/* Does r take this reaction (KIND "opportunity" or "standby"): the table's
 * answer when its side decides, else the policy (xhalem_react)? */
static bool react_ok(battle_t *b, int r, const char *kind, int trigger)
{
    static const char *const STRIKE[2] = {"let it pass", "strike"};
    static const char *const ACT[2] = {"keep holding", "act now"};
    return battle_ask_choice(b, r, kind, trigger, 2, kind[0] == 'o' ? STRIKE : ACT) != 0;
}

/* The first equipped melee weapon of r, or -1 for none. */
static int melee_weapon_index(const battle_t *b, int r)
{
    for (int w = 0; w < b->u[r].n_weapons; w++)
        if (b->u[r].weapon[w]->cls == WPN_MELEE && xhalem_equipped(b, r, w))
            return w;
    return -1;
}

/* Mover m is about to step from h0 to h1: enemies whose reach it leaves may
 * strike (RULINGS: opportunity). forced: an unwilling move (by `by`).
 * reacting: a held standby move out of turn, so no engagement of this turn
 * excuses it. Returns false when the mover is no longer standing. */
static bool opportunities(battle_t *b, int m, hex_t h0, hex_t h1, bool forced, int by,
                          bool reacting)
{
    xh_state_t *s = st(b);
    const map_combatant_t *c = mc(b, m);
    if (c->kind == KIND_MACHINE && c->size == SIZE_SMALL)
        return true; /* small mechs are immune to opportunities */
    for (int e = 0; e < b->n && battle_active(b, m); e++) {
        if (e == m || e == by || !enemies(b, e, m) || !can_react(b, e))
            continue;
        if (!forced && !reacting && s->engaged_by_mover[e])
            continue; /* engaged this turn: leaving is free */
        int w = melee_weapon_index(b, e);
        if (w < 0 || !xhalem_aware(b, e, m))
            continue;
        int reach = melee_reach(b, e, b->u[e].weapon[w]);
        if (!geom_threatens(b->board, e, reach, h0) || geom_threatens(b->board, e, reach, h1))
            continue;
        if (!react_ok(b, e, "opportunity", m))
            continue;
        s->reaction_used[e] = 1;
        event_t ev = event_make(EV_REACTION);
        ev.who = e;
        ev.target = m;
        hb_strlcpy(ev.name, "opportunity", sizeof ev.name);
        battle_emit(b, &ev);
        eng_t g = assess(b, e, m, b->u[e].weapon[w], true, forced);
        if (g.legal && engagement(b, e, m, b->u[e].weapon[w], &g))
            strike_damage(b, e, m, &g);
    }
    return battle_active(b, m);
}

/* The remaining cells of every move under way when a reaction comes (the
 * mover's, and the mover's whose move set that one off), which a held move
 * must not end on: each of those movers will still pass through or stop there. */
typedef struct walk_ctx {
    const cell_t *rest;
    int n;
    const struct walk_ctx *up;
} walk_ctx_t;

static void walk(battle_t *b, int i, const cell_t *path, int n, bool reacting,
                 const walk_ctx_t *up);
static int current_mode(const battle_t *b, int i);

static bool reserved(const walk_ctx_t *w, cell_t c)
{
    for (; w; w = w->up)
        for (int k = 0; k < w->n; k++)
            if (w->rest[k].col == c.col && w->rest[k].row == c.row)
                return true;
    return false;
}

/* The path (cells after the start) of r's held move, if r can make it now
 * within the movement its turn left; returns the count, 0 when it cannot. */
static int held_move_path(battle_t *b, int r, const walk_ctx_t *w, cell_t *out)
{
    const xh_state_t *s = cst(b);
    cell_t goal = s->sb_at[r], buf[CMD_PATH_MAX + 1];
    int cost = 0, len = 0;
    move_cost_t mv;
    if (reserved(w, goal) || !xhalem_move_cost(b, r, current_mode(b, r), &mv) ||
        !geom_path_mode(&mv, goal, b->ps, &cost, buf, CMD_PATH_MAX + 1, &len))
        return 0;
    if (len < 2 || buf[len - 1].col != goal.col || buf[len - 1].row != goal.row)
        return 0; /* already there, or farther than one command can carry */
    memcpy(out, buf + 1, sizeof *out * (size_t)(len - 1));
    cost = geom_path_price(&mv, out, len - 1);
    return cost >= 0 && cost <= s->sb_move_ft[r] ? len - 1 : 0;
}

/* Holder r answers trigger t with its held action, if it can and will. */
static void standby_react(battle_t *b, int r, int t, const eng_t *g, const weapon_t *w,
                          const walk_ctx_t *ctx)
{
    xh_state_t *s = st(b);
    cell_t path[CMD_PATH_MAX];
    int n = 0;
    if (s->sb_move[r] && (n = held_move_path(b, r, ctx, path)) == 0)
        return; /* nowhere to go right now: the move stays held */
    if (!react_ok(b, r, "standby", t))
        return;
    s->standby[r] = 0;
    s->reaction_used[r] = 1;
    event_t ev = event_make(EV_REACTION);
    ev.who = r;
    ev.target = t;
    hb_strlcpy(ev.name, "standby", sizeof ev.name);
    battle_emit(b, &ev);
    if (s->sb_move[r])
        walk(b, r, path, n, true, ctx);
    else if (engagement(b, r, t, w, g))
        strike_damage(b, r, t, g);
}

/* Does standby holder r wait on combatant m (an enemy, the named one if any)? */
static bool waits_on(const battle_t *b, int r, int m)
{
    const xh_state_t *s = cst(b);
    return s->standby[r] && enemies(b, r, m) && (s->sb_target[r] < 0 || s->sb_target[r] == m) &&
           can_react(b, r);
}

/* Holder r's trigger t has just been met: a held strike needs t within the held
 * weapon's reach or range (and detectable) now; a held move needs nothing. */
static void standby_fire(battle_t *b, int r, int t, const walk_ctx_t *ctx)
{
    const xh_state_t *s = cst(b);
    const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
    eng_t g = assess(b, r, t, w, false, false);
    if (!s->sb_move[r] && (!g.legal || g.beyond || g.auto_fail))
        return;
    standby_react(b, r, t, &g, w, ctx);
}

/* Standby holders whose trigger this step meets act now, after it: the mover
 * entered the held weapon's reach (XT_ENTERS_REACH), or moved at all where the
 * holder can see it (XT_MOVES_IN_SIGHT). */
static void standby_after_move(battle_t *b, int m, const walk_ctx_t *ctx)
{
    xh_state_t *s = st(b);
    for (int r = 0; r < b->n && battle_active(b, m); r++) {
        if (!waits_on(b, r, m))
            continue;
        if (s->sb_trigger[r] == XT_MOVES_IN_SIGHT) {
            if (xhalem_aware(b, r, m))
                standby_fire(b, r, m, ctx);
            continue;
        }
        if (s->sb_trigger[r] != XT_ENTERS_REACH)
            continue;
        const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
        eng_t g = assess(b, r, m, w, false, false);
        if (!g.legal || g.beyond || g.auto_fail)
            continue;
        standby_react(b, r, m, &g, w, ctx);
    }
}

/* After a engaged t with w: XT_ENGAGES (any engagement), XT_ENGAGES_RANGED (a
 * ranged or thrown one) and XT_ENGAGES_ALLY (one aimed at the holder's ally). */
static void standby_after_engage(battle_t *b, int a, int t, const weapon_t *used)
{
    xh_state_t *s = st(b);
    bool ranged = used && used->cls != WPN_MELEE;
    for (int r = 0; r < b->n && battle_active(b, a); r++) {
        if (!waits_on(b, r, a))
            continue;
        int k = s->sb_trigger[r];
        bool met = k == XT_ENGAGES || (k == XT_ENGAGES_RANGED && ranged) ||
                   (k == XT_ENGAGES_ALLY && t != r && t >= 0 && board_allies(b->board, r, t));
        if (!met)
            continue;
        const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
        eng_t g = assess(b, r, a, w, false, false);
        /* A held move needs no line to the trigger; a held strike does. */
        if (!g.legal && !s->sb_move[r])
            continue;
        standby_react(b, r, a, &g, w, NULL);
    }
}

/* After a dashed or thrust (XT_DASHES): before it has moved a step. */
static void standby_after_dash(battle_t *b, int a)
{
    xh_state_t *s = st(b);
    for (int r = 0; r < b->n && battle_active(b, a); r++)
        if (waits_on(b, r, a) && s->sb_trigger[r] == XT_DASHES)
            standby_fire(b, r, a, NULL);
}

/* ---- initiative and turns ----------------------------------------------- */

/* Order idx[0..n) by key[] descending, ties kept in map order. */
static void sort_by_key(int *idx, int n, const int *key)
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i - 1;
        while (j >= 0 && (key[idx[j]] < key[v] || (key[idx[j]] == key[v] && idx[j] > v))) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = v;
    }
}

/* Settle the order of a run of equal initiative (RULINGS: initiative ties). */
static void break_tie(battle_t *b, int *run, int n, int depth)
{
    if (n < 2 || depth > 8)
        return; /* after eight re-rolls, map order is as fair as anything */
    int players = 0;
    for (int k = 0; k < n; k++)
        players += battle_is_player(b, run[k]);
    int *key = st(b)->tiekey;
    if (players == 0)
        return; /* the Architect orders its own: map order by default */
    if (players == n && depth == 0) {
        /* Players: the higher Engine / Evasion goes first. */
        for (int k = 0; k < n; k++)
            key[run[k]] = evade_bonus(b, run[k]);
    } else {
        for (int k = 0; k < n; k++)
            key[run[k]] = battle_roll(b, run[k], 1, 20, 0, evade_bonus(b, run[k]),
                                      "initiative re-roll", NULL);
    }
    sort_by_key(run, n, key);
    int keys[NMAX];
    for (int k = 0; k < n; k++)
        keys[k] = key[run[k]];
    for (int a = 0; a < n;) {
        int z = a + 1;
        while (z < n && keys[z] == keys[a])
            z++;
        break_tie(b, run + a, z - a, depth + 1);
        a = z;
    }
}

static void roll_initiative(battle_t *b)
{
    xh_state_t *s = st(b);
    int n = 0;
    int *order = s->order;
    bool rolled[NMAX];
    memset(rolled, 0, sizeof rolled);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i) || rolled[i])
            continue;
        int total = battle_roll(b, i, 1, 20, 0, evade_bonus(b, i), "initiative", NULL);
        s->score[i] = total;
        rolled[i] = true;
        order[n++] = i;
        if (!b->opts.group_initiative || battle_is_player(b, i))
            continue;
        /* Optional: like Architect combatants (same side and template) share the roll. */
        for (int j = i + 1; j < b->n; j++) {
            if (rolled[j] || !battle_active(b, j) || battle_is_player(b, j) ||
                !board_allies(b->board, i, j) ||
                strcmp(mc(b, i)->template_name, mc(b, j)->template_name) != 0 ||
                !mc(b, i)->template_name[0])
                continue;
            s->score[j] = total - evade_bonus(b, i) + evade_bonus(b, j);
            rolled[j] = true;
            order[n++] = j;
        }
    }
    sort_by_key(order, n, s->score);
    for (int a = 0; a < n;) {
        int z = a + 1;
        while (z < n && s->score[order[z]] == s->score[order[a]])
            z++;
        break_tie(b, order + a, z - a, 0);
        a = z;
    }
    s->n_order = n;
    for (int k = 0; k < n; k++) {
        event_t e = event_make(EV_INITIATIVE);
        e.who = order[k];
        e.total = s->score[order[k]];
        e.value = k + 1;
        battle_emit(b, &e);
    }
}

/* The one who carries i: its mount when it rides (a rider goes at its
 * mount's pace, in its mount's element), else i itself. */
static int carrier(const battle_t *b, int i)
{
    int m = xhalem_mount_of(b, i);
    return m >= 0 ? m : i;
}

static bool airborne(const battle_t *b, int i) { return has(b, carrier(b, i), XC_FLYING); }

/* Feet i may move in a turn, flying or on foot, doubled by a dash, halved
 * while dragging a grappled foe. */
static int speed_ft(const battle_t *b, int i, bool flying, bool dashed)
{
    const xh_state_t *s = cst(b);
    int body = carrier(b, i);
    int sp = flying ? mc(b, body)->fly_ft : b->prof[body].speed_ft;
    if (dashed)
        sp *= 2;
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
static int mode_speed(const battle_t *b, int i)
{
    return speed_ft(b, i, airborne(b, i), cst(b)->turn.dashed);
}

int xhalem_move_left(const battle_t *b)
{
    const xh_state_t *s = cst(b);
    int a = s->actor;
    if (a < 0 || immobile(b, a))
        return 0;
    int left = mode_speed(b, a) - s->turn.moved_ft;
    return left > 0 ? left : 0;
}

static void start_turn(battle_t *b, int i)
{
    xh_state_t *s = st(b);
    s->actor = i;
    memset(&s->turn, 0, sizeof s->turn);
    memset(s->engaged_by_mover, 0, sizeof(s->engaged_by_mover[0]) * (size_t)b->n);
    /* What i set up on its last turn runs out now. */
    s->standby[i] = 0;
    for (int t = 0; t < b->n; t++)
        if (s->assist_on[t] == i + 1) {
            s->assist_on[t] = 0;
            set_cond(b, t, XC_DISTRACTED, "distracted", false);
        }
    event_t e = event_make(EV_TURN_START);
    e.who = i;
    e.value = b->round;
    battle_emit(b, &e);
    if (has(b, i, XC_PRONE)) {
        /* Standing up costs half the move. */
        s->turn.moved_ft = mode_speed(b, i) / 2;
        set_cond(b, i, XC_PRONE, "prone", false);
    }
}

/* Hand the turn to the next combatant still standing; close rounds as they pass. */
static void next_turn(battle_t *b)
{
    xh_state_t *s = st(b);
    /* A held move may use only what this turn's movement left over. */
    if (s->actor >= 0 && s->standby[s->actor])
        s->sb_move_ft[s->actor] = xhalem_move_left(b);
    event_t e = event_make(EV_TURN_END);
    e.who = s->actor;
    e.value = b->round;
    battle_emit(b, &e);
    for (int guard = 0; guard < 2 * s->n_order + 2; guard++) {
        s->cur++;
        if (s->cur >= s->n_order) {
            s->cur = 0;
            if (!battle_round_end(b)) {
                s->actor = -1;
                return;
            }
            memset(s->reaction_used, 0, sizeof(s->reaction_used[0]) * (size_t)b->n);
        }
        int i = s->order[s->cur];
        /* A mount with a rider acts on the rider's turn (shared initiative). */
        if (battle_active(b, i) && rider_on(b, i) < 0) {
            start_turn(b, i);
            return;
        }
    }
    s->actor = -1;
}

static void xhalem_setup(battle_t *b)
{
    xh_state_t *s = st(b);
    s->actor = -1;
    for (int i = 0; i < b->n; i++) {
        s->sb_target[i] = -1;
        /* A combatant without hit points is already out. */
        if (b->u[i].hp <= 0)
            battle_remove(b, i);
    }
    roll_initiative(b);
    b->round = 1;
    s->cur = 0;
    for (; s->cur < s->n_order; s->cur++)
        if (battle_active(b, s->order[s->cur])) {
            start_turn(b, s->order[s->cur]);
            break;
        }
}

static int xhalem_actors(const battle_t *b, int *out, int cap)
{
    const xh_state_t *s = cst(b);
    if (b->over || s->actor < 0 || cap < 1)
        return 0;
    out[0] = s->actor;
    return 1;
}

/* ---- commands ----------------------------------------------------------- */

static int round_up(int v, int step) { return step > 1 ? (v + step - 1) / step * step : v; }

static const char *const MOVE_MODES[XM_COUNT] = {
    [XM_WALK] = "walk", [XM_FLY] = "fly", [XM_DASH] = "dash"};

/* A step of a move (move_cost_t.step): passable terrain, no enemy in the
 * hex (allies are passed through); a flier crosses ground at the plain rate. */
static int xh_step(void *ud, int from, int to)
{
    const move_cost_t *mv = ud;
    const battle_t *b = mv->data;
    (void)from;
    const terrain_t *t = &b->map->types[b->map->cells[to]];
    if (t->move <= 0)
        return -1;
    int occ = b->board->occ[to];
    if (occ >= 0 && occ != mv->who && enemies(b, mv->who, occ))
        return -1;
    return ((mv->flags & XMF_FLY) ? 1 : t->move) * b->map->feet_per_hex;
}

bool xhalem_move_cost(const battle_t *b, int i, int mode, move_cost_t *out)
{
    const xh_state_t *s = cst(b);
    if (mode < 0 || mode >= XM_COUNT || !battle_active(b, i))
        return false;
    bool acting = i == s->actor;
    bool up = airborne(b, i), flying = up, dashed = acting && s->turn.dashed;
    if (mode == XM_WALK && up)
        return false; /* in the air: fly, or land first */
    if (mode == XM_FLY) {
        if (mc(b, carrier(b, i))->fly_ft <= 0)
            return false;
        flying = true; /* taking off is free */
    }
    if (mode == XM_DASH) {
        if (acting && (s->turn.acted || s->turn.dashed))
            return false; /* the dash is the action */
        dashed = true;
    }
    int left = speed_ft(b, i, flying, dashed) - (acting ? s->turn.moved_ft : 0);
    *out = (move_cost_t){.step = xh_step,
                         .budget_ft = immobile(b, i) || left < 0 ? 0 : left,
                         .interval_ft = b->prof[i].interval_ft,
                         .board = b->board,
                         .who = i,
                         .data = b,
                         .mode = mode,
                         .flags = flying ? XMF_FLY : 0};
    return true;
}

/* The mode i moves in as it stands: flying once in the air, else walking. */
static int current_mode(const battle_t *b, int i) { return airborne(b, i) ? XM_FLY : XM_WALK; }

/* Whoever i holds is dragged into the hex i just left. */
static void drag_held(battle_t *b, int i, hex_t left)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < b->n; k++)
        if (s->grappled_by[k] == i + 1 && battle_active(b, k) &&
            board_occupant(b->board, left) < 0)
            battle_step(b, k, left);
}

/* i walks path[0..n) (already checked and paid for) of its own will: on its
 * turn, or out of turn as a held standby move (reacting). Each step may draw
 * opportunities first and set off standbys after; up is the move under way
 * that this one answers, if any. */
static void walk(battle_t *b, int i, const cell_t *path, int n, bool reacting,
                 const walk_ctx_t *up)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < n && battle_active(b, i); k++) {
        hex_t h0 = pos(b, i);
        hex_t h1 = hex_from_cell(b->map->layout, path[k]);
        if (!opportunities(b, i, h0, h1, false, -1, reacting))
            break;
        int mount = xhalem_mount_of(b, i);
        if (mount >= 0)
            battle_step(b, mount, h1); /* the mount carries; the rider shares its hex */
        battle_step(b, i, h1);
        drag_held(b, i, h0);
        /* Moving into view of an enemy that sees clearly ends hiding. */
        if (has(b, i, XC_HIDDEN)) {
            for (int e = 0; e < b->n; e++) {
                if (!battle_active(b, e) || !enemies(b, e, i))
                    continue;
                sight_t sg = sight_trace(b->board, pos(b, e), h1);
                if (sg.visible && sg.cover == COVER_NONE) {
                    set_cond(b, i, XC_HIDDEN, "hidden", false);
                    break;
                }
            }
        }
        walk_ctx_t here = {path + k + 1, n - k - 1, up};
        standby_after_move(b, i, &here);
    }
    /* A cloaked mover that ends out of every enemy's sight is unseen again. */
    if (battle_active(b, i) && has(b, i, XC_CLOAKED) && s->revealed[i]) {
        bool seen = false;
        for (int e = 0; e < b->n && !seen; e++)
            seen = battle_active(b, e) && enemies(b, e, i) &&
                   sight_clear(b->board, pos(b, e), pos(b, i));
        if (!seen)
            s->revealed[i] = 0;
    }
}

/* The dash (or a machine's thrust): the action, and the move doubles. */
static void dash(battle_t *b, int a)
{
    xh_state_t *s = st(b);
    s->turn.acted = s->turn.dashed = true;
    battle_emit_action(b, a, is_machine(b, a) ? "thrust" : "dash", -1, true);
    standby_after_dash(b, a);
}

/* A move in mode c->arg (XM_*): the path must be one the mode's cost
 * accepts, within its budget (xhalem_move_cost). Flying takes off first; a
 * dash spends the action first, and the path is checked again after any
 * standby the dash set off. */
static battle_status_t do_move(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int i = c->actor, mode = c->arg;
    if (mode == XM_WALK && airborne(b, i))
        mode = XM_FLY; /* as moves were given before there were modes */
    move_cost_t mv;
    if (c->n_path < 1 || c->n_path > CMD_PATH_MAX || !xhalem_move_cost(b, i, mode, &mv))
        return BATTLE_ILLEGAL;
    int cost = geom_path_price(&mv, c->path, c->n_path);
    if (cost < 0 || cost > mv.budget_ft)
        return BATTLE_ILLEGAL;
    if (mode == XM_FLY && !airborne(b, i))
        set_cond(b, carrier(b, i), XC_FLYING, "flying", true);
    if (mode == XM_DASH) {
        dash(b, i);
        if (!battle_active(b, i) || !xhalem_move_cost(b, i, current_mode(b, i), &mv))
            return BATTLE_OK;
        cost = geom_path_price(&mv, c->path, c->n_path);
        if (cost < 0 || cost > mv.budget_ft)
            return BATTLE_OK; /* a reaction to the dash changed the way: it stays put */
    }
    s->turn.moved_ft += cost;
    walk(b, i, c->path, c->n_path, false, NULL);
    return BATTLE_OK;
}

static bool size_ok(const battle_t *b, int a, int t)
{
    return (int)mc(b, t)->size <= (int)mc(b, a)->size + 1;
}

static bool holding_someone(const battle_t *b, int a)
{
    for (int k = 0; k < b->n; k++)
        if (cst(b)->grappled_by[k] == a + 1)
            return true;
    return false;
}

/* May a mount m now, as its action (see do_mount)? */
static bool mount_ok(const battle_t *b, int a, int m)
{
    if (cst(b)->turn.acted || m < 0 || m >= b->n || m == a || !battle_active(b, m) ||
        enemies(b, a, m))
        return false;
    if (xhalem_mount_of(b, a) >= 0 || rider_on(b, a) >= 0 || rider_on(b, m) >= 0 ||
        xhalem_mount_of(b, m) >= 0)
        return false;
    if (immobile(b, a) || holding_someone(b, a) || immobile(b, m) || holding_someone(b, m))
        return false;
    if ((int)mc(b, m)->size < (int)mc(b, a)->size + 1)
        return false;
    if (is_machine(b, m) && mc(b, m)->size >= SIZE_LARGE)
        return false;
    return within_ft(b, dist_hex(b, a, m), melee_reach(b, a, NULL));
}

/* Dual strike with weapons w and w2 (no bare hands), both at hand; a
 * creature's two strikes use one weapon unless it fights with two. */
static bool dual_ok(const battle_t *b, int a, int w, int w2)
{
    if (stat(b, a, XS_DUAL_STRIKE) <= 0 || w < 0 || w2 < 0 || !xhalem_equipped(b, a, w2))
        return false;
    return is_machine(b, a) || w2 == w || stat(b, a, XS_DUAL_WEAPON) > 0;
}

static battle_status_t do_engage(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, t = c->target;
    if (s->turn.acted || t < 0 || t >= b->n || !battle_active(b, t) || !enemies(b, a, t) ||
        holding_someone(b, a))
        return BATTLE_ILLEGAL;
    if (!xhalem_equipped(b, a, c->weapon))
        return BATTLE_ILLEGAL;
    const weapon_t *w = battle_weapon(b, a, c->weapon);
    if (c->weapon >= 0 && !w)
        return BATTLE_ILLEGAL;
    const weapon_t *w2 = NULL;
    if (c->weapon2 >= 0) {
        /* Dual strike: two attacks in one action. */
        if (!dual_ok(b, a, c->weapon, c->weapon2))
            return BATTLE_ILLEGAL;
        w2 = battle_weapon(b, a, c->weapon2);
    }
    if (!assess(b, a, t, w, false, false).legal)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    s->engaged_by_mover[t] = 1;
    strike(b, a, t, w, false, false);
    if (c->weapon2 >= 0 && battle_active(b, t) && battle_active(b, a))
        strike(b, a, t, w2, false, false);
    /* The trigger sees the ranged weapon if either strike used one. */
    standby_after_engage(b, a, t, (w && w->cls != WPN_MELEE) || !w2 ? w : w2);
    return BATTLE_OK;
}

/* The text leaves the difficulty of a rider's and a mount's checks to the
 * Architect; hexbattle uses 10 for both (d20 + Strength or Hull, meet or beat). */
#define XH_MOUNT_DC 10

/* A free, passable hex beside h (5 ft away), first in direction order, or h. */
static hex_t free_beside(const battle_t *b, hex_t h)
{
    for (int d = 0; d < HEX_DIRS; d++) {
        hex_t n = hex_neighbor(h, d);
        int idx = board_cell_index(b->board, n);
        if (idx >= 0 && b->board->occ[idx] < 0 && b->map->types[b->map->cells[idx]].move > 0)
            return n;
    }
    return h;
}

/* Mount m was moved against its will with rider r on it: m keeps its feet on
 * a check or is knocked down; r keeps its seat on a check or falls off, prone,
 * beside m. A rider that passes while its mount goes down is dismounted on its
 * feet beside it. With no free hex beside the mount, the rider clings on. */
static void keep_seat(battle_t *b, int m, int r)
{
    xh_state_t *s = st(b);
    mods_t none = {0, 0, false};
    bool m_up = d20(b, m, none, might_bonus(b, m), "mount keeps footing", NULL) >= XH_MOUNT_DC;
    bool r_on = d20(b, r, none, might_bonus(b, r), "rider keeps seat", NULL) >= XH_MOUNT_DC;
    if (!m_up)
        set_cond(b, m, XC_PRONE, "prone", true);
    if (m_up && r_on)
        return;
    hex_t h = free_beside(b, pos(b, m));
    if (hex_eq(h, pos(b, m)))
        return;
    s->mounted_on[r] = 0;
    s->rider_of[m] = 0;
    battle_step(b, r, h);
    battle_emit_action(b, r, r_on ? "dismounted" : "thrown_off", m, true);
    emit_cond(b, r, "mounted", false);
    if (!r_on)
        set_cond(b, r, XC_PRONE, "prone", true);
}

/* Push t one hex straight away from a, if that hex is free and passable. */
static void push_away(battle_t *b, int a, int t)
{
    hex_t ht = pos(b, t), ha = pos(b, a);
    hex_t best = ht;
    int best_d = hex_distance(ha, ht);
    for (int d = 0; d < HEX_DIRS; d++) {
        hex_t h = hex_neighbor(ht, d);
        int idx = board_cell_index(b->board, h);
        if (idx < 0 || b->board->occ[idx] >= 0 || b->map->types[b->map->cells[idx]].move <= 0)
            continue;
        int dd = hex_distance(ha, h);
        if (dd > best_d) {
            best_d = dd;
            best = h;
        }
    }
    if (hex_eq(best, ht))
        return;
    /* A pushed rider is unseated; a pushed mount carries its rider along. */
    if (xhalem_mount_of(b, t) >= 0)
        unmount(b, t);
    /* Forced movement provokes, with disadvantage; the shover already acted on it. */
    if (!opportunities(b, t, ht, best, true, a, false))
        return;
    battle_step(b, t, best);
    int r = rider_on(b, t);
    if (r >= 0 && battle_active(b, r)) {
        battle_step(b, r, best);
        keep_seat(b, t, r);
    }
}

/* May a grapple or shove t now: an enemy in reach and in sight, no more than
 * one size larger, and a's hands free of another hold. */
static bool grab_ok(const battle_t *b, int a, int t)
{
    if (cst(b)->turn.acted || t < 0 || t >= b->n || !battle_active(b, t) || !enemies(b, a, t) ||
        !size_ok(b, a, t) || holding_someone(b, a))
        return false;
    return within_ft(b, dist_hex(b, a, t), b->prof[a].reach_ft) &&
           sight_clear(b->board, pos(b, a), pos(b, t));
}

static battle_status_t do_grapple_or_shove(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, t = c->target;
    if (!grab_ok(b, a, t))
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    s->engaged_by_mover[t] = 1;
    bool helpless = immobile(b, t);
    mods_t none = {0, 0, false};
    bool grapple = c->kind == CMD_GRAPPLE;
    bool ok;
    if (helpless) {
        ok = true;
    } else if (grapple) {
        /* Grapple: engagement plus Hull / Strength against an evasion roll. */
        int atk = d20(b, a, none, might_bonus(b, a), "grapple", NULL);
        int def = d20(b, t, none, evade_bonus(b, t), "evade", NULL);
        ok = atk > def;
    } else {
        eng_t g = assess(b, a, t, NULL, false, false);
        ok = engagement(b, a, t, NULL, &g);
        if (ok) {
            int mine = d20(b, a, none, might_bonus(b, a), "shove", NULL);
            int theirs = d20(b, t, none, might_bonus(b, t), "resist shove", NULL);
            ok = mine > theirs;
        }
    }
    battle_emit_action(b, a, grapple ? "grapple" : c->arg ? "shove_push" : "shove_knock", t, ok);
    if (!ok)
        return BATTLE_OK;
    if (grapple) {
        s->grappled_by[t] = a + 1;
        set_cond(b, t, XC_GRAPPLED, "grappled", true);
    } else if (c->arg) {
        push_away(b, a, t);
    } else {
        set_cond(b, t, XC_PRONE, "prone", true);
    }
    return BATTLE_OK;
}

static battle_status_t do_escape(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    int g = s->grappled_by[a] - 1;
    if (s->turn.acted || g < 0)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    int mine = d20(b, a, none, might_bonus(b, a), "escape grapple", NULL);
    int theirs = d20(b, g, none, might_bonus(b, g), "hold grapple", NULL);
    bool ok = mine >= theirs; /* equal or better breaks free */
    battle_emit_action(b, a, "escape", g, ok);
    if (ok) {
        s->grappled_by[a] = 0;
        set_cond(b, a, XC_GRAPPLED, "grappled", false);
    }
    return BATTLE_OK;
}

/* Could a hide where it stands: a creature not hidden already, that no enemy
 * sees clearly? (Whether its action or a granted secondary is free is the
 * caller's question.) */
static bool hide_spot_ok(const battle_t *b, int a)
{
    if (is_machine(b, a) || has(b, a, XC_HIDDEN))
        return false;
    for (int e = 0; e < b->n; e++) {
        if (!battle_active(b, e) || !enemies(b, e, a))
            continue;
        sight_t sg = sight_trace(b->board, pos(b, e), pos(b, a));
        if (sg.visible && sg.cover == COVER_NONE)
            return false;
    }
    return true;
}

/* May a hide now, as its action? */
static bool hide_ok(const battle_t *b, int a)
{
    return !cst(b)->turn.acted && hide_spot_ok(b, a);
}

static battle_status_t do_hide(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    if (!hide_ok(b, a))
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    s->stealth[a] = d20(b, a, none, stat(b, a, XS_STEALTH), "stealth", NULL);
    set_cond(b, a, XC_HIDDEN, "hidden", true);
    return BATTLE_OK;
}

static battle_status_t do_search(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    if (s->turn.acted)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    int bonus = is_machine(b, a) ? stat(b, a, XS_SCANNERS)
                                 : (stat(b, a, XS_PERCEPTION) > stat(b, a, XS_INVESTIGATION)
                                        ? stat(b, a, XS_PERCEPTION)
                                        : stat(b, a, XS_INVESTIGATION));
    int total = d20(b, a, none, bonus, "search", NULL);
    bool found = false;
    for (int h = 0; h < b->n; h++) {
        if (!battle_active(b, h) || !enemies(b, a, h) || !has(b, h, XC_HIDDEN))
            continue;
        if (!sight_clear(b->board, pos(b, a), pos(b, h)))
            continue;
        if (total > s->stealth[h]) { /* must beat the stealth total */
            set_cond(b, h, XC_HIDDEN, "hidden", false);
            found = true;
        }
    }
    battle_emit_action(b, a, "search", -1, found);
    return BATTLE_OK;
}

/* The terrain type the object at `at` turns into when a uses it, or -1 when
 * a cannot use anything there (out of reach, or nothing that opens). */
static int use_result(const battle_t *b, int a, cell_t at)
{
    if (cst(b)->turn.acted || !map_in_bounds(b->map, at))
        return -1;
    hex_t h = hex_from_cell(b->map->layout, at);
    if (hex_distance(h, pos(b, a)) > 1)
        return -1;
    const terrain_t *t = map_terrain_at(b->map, at);
    return t->opens_to[0] ? map_find_type(b->map, t->opens_to) : -1;
}

static battle_status_t do_use(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    int to = use_result(b, a, c->at);
    if (to < 0)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    b->map->cells[map_index(b->map, c->at)] = (uint8_t)to;
    battle_emit_action(b, a, "use", -1, true);
    event_t e = event_make(EV_TERRAIN);
    e.to = c->at;
    hb_strlcpy(e.name, b->map->types[to].name, sizeof e.name);
    battle_emit(b, &e);
    return BATTLE_OK;
}

/* Assist: distract enemy t in reach while an ally stands within 5 ft. */
static bool assist_ok(const battle_t *b, int a, int t)
{
    if (cst(b)->turn.acted || t < 0 || t >= b->n || !battle_active(b, t) || !enemies(b, a, t))
        return false;
    if (!within_ft(b, dist_hex(b, a, t), b->prof[a].reach_ft))
        return false;
    int near = geom_ft_to_hexes(b->map, 5);
    for (int k = 0; k < b->n; k++)
        if (k != a && battle_active(b, k) && board_allies(b->board, a, k) && dist_hex(b, a, k) <= near)
            return true;
    return false;
}

/* Standby: a trigger and a held engagement (with a weapon at hand) or a held
 * move to a passable hex, against any enemy or a named one. */
static bool standby_ok(const battle_t *b, const cmd_t *c)
{
    int a = c->actor;
    if (cst(b)->turn.acted || c->arg < 0 || c->arg >= XT_COUNT || !xhalem_equipped(b, a, c->weapon))
        return false;
    if (c->act != CMD_END && c->act != CMD_ENGAGE && c->act != CMD_MOVE)
        return false;
    if (c->act == CMD_MOVE && (!map_in_bounds(b->map, c->at) || map_terrain_at(b->map, c->at)->move <= 0))
        return false;
    return c->target < b->n && (c->target < 0 || enemies(b, a, c->target));
}

/* Switching weapons: a creature takes up another of its weapons. */
static bool switch_ok(const battle_t *b, int a, int w)
{
    return !cst(b)->turn.acted && !is_machine(b, a) && w >= 0 && w < b->u[a].n_weapons &&
           w != b->u[a].equipped;
}

/* Switching between walking and flying (free): up needs a fly speed, down a
 * hex that can be stood on. */
static bool fly_ok(const battle_t *b, int a, bool up)
{
    if (up)
        return mc(b, a)->fly_ft > 0 && !has(b, a, XC_FLYING);
    cell_t cc = hex_to_cell(b->map->layout, pos(b, a));
    return has(b, a, XC_FLYING) && map_terrain_at(b->map, cc)->move > 0;
}

static battle_status_t apply_cmd(battle_t *b, const cmd_t *c);
static battle_status_t apply_one(battle_t *b, const cmd_t *c);

/* Mount: the action, onto a willing (allied) combatant at least one size larger
 * within reach. A machine large enough to climb into is piloted, not ridden. */
static battle_status_t do_mount(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, m = c->target;
    if (!mount_ok(b, a, m))
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    battle_step(b, a, pos(b, m));
    s->mounted_on[a] = m + 1;
    s->rider_of[m] = a + 1;
    battle_emit_action(b, a, "mount", m, true);
    emit_cond(b, a, "mounted", true);
    return BATTLE_OK;
}

/* Dismount: the action, to the free passable hex `at` beside the mount. */
static battle_status_t do_dismount(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, m = xhalem_mount_of(b, a);
    if (s->turn.acted || m < 0 || !map_in_bounds(b->map, c->at))
        return BATTLE_ILLEGAL;
    hex_t h = hex_from_cell(b->map->layout, c->at);
    if (hex_distance(h, pos(b, m)) != 1 || board_occupant(b->board, h) >= 0 ||
        map_terrain_at(b->map, c->at)->move <= 0)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    s->mounted_on[a] = 0;
    s->rider_of[m] = 0;
    battle_step(b, a, h);
    battle_emit_action(b, a, "dismount", m, true);
    emit_cond(b, a, "mounted", false);
    return BATTLE_OK;
}

/* Teleport: the action, to a passable, empty hex within the combatant's
 * "teleport" feet that it can see. It never walks, so it draws no
 * opportunity; a standby waiting for an enemy to come into reach still sees it
 * arrive. Not while grappled, holding someone, riding or carrying a rider. */
static bool teleport_ok(const battle_t *b, int a, cell_t at)
{
    int ft = stat(b, a, XS_TELEPORT);
    if (cst(b)->turn.acted || ft <= 0 || !map_in_bounds(b->map, at))
        return false;
    if (immobile(b, a) || holding_someone(b, a) || xhalem_mount_of(b, a) >= 0 || rider_on(b, a) >= 0)
        return false;
    hex_t h = hex_from_cell(b->map->layout, at);
    int d = hex_distance(pos(b, a), h);
    if (d < 1 || !within_ft(b, d, ft) || board_occupant(b->board, h) >= 0 ||
        map_terrain_at(b->map, at)->move <= 0)
        return false;
    return sight_clear(b->board, pos(b, a), h);
}

static battle_status_t do_teleport(battle_t *b, const cmd_t *c)
{
    int a = c->actor;
    if (!teleport_ok(b, a, c->at))
        return BATTLE_ILLEGAL;
    st(b)->turn.acted = true;
    battle_emit_action(b, a, "teleport", -1, true);
    event_t e = event_make(EV_MOVE_STEP);
    e.who = a;
    e.from = hex_to_cell(b->map->layout, pos(b, a));
    e.to = c->at;
    hb_strlcpy(e.name, "teleport", sizeof e.name);
    board_place(b->board, a, hex_from_cell(b->map->layout, c->at));
    battle_emit(b, &e);
    standby_after_move(b, a, NULL);
    return BATTLE_OK;
}

/* ---- secondary actions --------------------------------------------------- */

int xhalem_secondary_kind(const battle_t *b, int a)
{
    const map_combatant_t *c = mc(b, a);
    const tmpl_t *t = c->template_name[0] && b->db ? tmpl_find(b->db, c->template_name) : NULL;
    if (!t || !t->secondary[0])
        return -1;
    int k = cmd_kind_parse(t->secondary);
    /* Only small actions make sense as an extra: not a dash, a standby or a mount. */
    return k == CMD_HIDE || k == CMD_CLOAK || k == CMD_SEARCH || k == CMD_ASSIST || k == CMD_USE
               ? k
               : -1;
}

/* Does something a has grant c as its secondary action? A weapon tagged
 * `secondary` grants one more engagement with it (an off-hand blade); a
 * template's `secondary` names the kind its specialty or program grants. */
static bool secondary_grant(const battle_t *b, int a, const cmd_t *c)
{
    if (c->kind == CMD_ENGAGE)
        return c->weapon >= 0 && c->weapon2 < 0 &&
               battle_weapon_tag(battle_weapon(b, a, c->weapon), "secondary") > 0;
    return (int)c->kind == xhalem_secondary_kind(b, a);
}

static battle_status_t xhalem_apply(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    if (b->over || c->actor != s->actor || !battle_active(b, c->actor))
        return BATTLE_ILLEGAL;
    battle_status_t r = apply_cmd(b, c);
    /* A combatant felled during its own turn (an opportunity strike) is done. */
    if (r == BATTLE_OK && s->actor >= 0 && !battle_active(b, s->actor) && battle_last_side(b) == -2)
        next_turn(b);
    return r;
}

/* A secondary action comes only after the primary one: once the action is
 * spent, a granted command runs as if it were free, and then the secondary
 * slot is spent. Before the primary, every command is the primary (a primary
 * may be spent on the secondary's kind, never the reverse). */
static battle_status_t apply_cmd(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    if (!s->turn.acted || s->turn.second || !secondary_grant(b, c->actor, c))
        return apply_one(b, c);
    s->turn.acted = false;
    battle_status_t r = apply_one(b, c);
    s->turn.acted = true;
    if (r == BATTLE_OK) {
        s->turn.second = true;
        battle_emit_action(b, c->actor, "secondary", c->target, true);
    }
    return r;
}

static battle_status_t apply_one(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    switch (c->kind) {
    case CMD_END:
        next_turn(b);
        return BATTLE_OK;
    case CMD_MOVE:
        return do_move(b, c);
    case CMD_ENGAGE:
        return do_engage(b, c);
    case CMD_DASH:
        if (s->turn.acted || s->turn.dashed)
            return BATTLE_ILLEGAL;
        dash(b, a);
        return BATTLE_OK;
    case CMD_STANDBY: {
        /* The held action: an engagement with `weapon`, or a move to `at`. */
        bool move = c->act == CMD_MOVE;
        if (!standby_ok(b, c))
            return BATTLE_ILLEGAL;
        s->turn.acted = true;
        s->standby[a] = 1;
        s->sb_trigger[a] = c->arg;
        s->sb_target[a] = c->target;
        s->sb_weapon[a] = c->weapon;
        s->sb_move[a] = move;
        s->sb_at[a] = c->at;
        s->sb_move_ft[a] = xhalem_move_left(b);
        battle_emit_action(b, a, move ? "standby_move" : "standby", c->target, true);
        return BATTLE_OK;
    }
    case CMD_ASSIST: {
        int t = c->target;
        if (!assist_ok(b, a, t))
            return BATTLE_ILLEGAL;
        s->turn.acted = true;
        s->assist_on[t] = a + 1;
        battle_emit_action(b, a, "assist", t, true);
        set_cond(b, t, XC_DISTRACTED, "distracted", true);
        return BATTLE_OK;
    }
    case CMD_HIDE:
        return do_hide(b, c);
    case CMD_TELEPORT:
        return do_teleport(b, c);
    case CMD_SEARCH:
        return do_search(b, c);
    case CMD_MOUNT:
        return do_mount(b, c);
    case CMD_DISMOUNT:
        return do_dismount(b, c);
    case CMD_CLOAK:
        if (s->turn.acted || stat(b, a, XS_CLOAK) <= 0 || has(b, a, XC_CLOAKED))
            return BATTLE_ILLEGAL;
        s->turn.acted = true;
        s->revealed[a] = 0;
        set_cond(b, a, XC_CLOAKED, "cloaked", true);
        return BATTLE_OK;
    case CMD_GRAPPLE:
    case CMD_SHOVE:
        return do_grapple_or_shove(b, c);
    case CMD_ESCAPE:
        return do_escape(b, c);
    case CMD_RELEASE: {
        int t = c->target;
        if (t < 0 || t >= b->n || s->grappled_by[t] != a + 1)
            return BATTLE_ILLEGAL;
        s->grappled_by[t] = 0;
        set_cond(b, t, XC_GRAPPLED, "grappled", false);
        return BATTLE_OK;
    }
    case CMD_USE:
        return do_use(b, c);
    case CMD_SWITCH:
        if (!switch_ok(b, a, c->weapon))
            return BATTLE_ILLEGAL;
        s->turn.acted = true;
        b->u[a].equipped = c->weapon;
        battle_emit_action(b, a, "switch", -1, true);
        return BATTLE_OK;
    case CMD_FLY:
        /* Switching speeds: what has been moved counts against the new speed. */
        if (!fly_ok(b, a, c->arg != 0))
            return BATTLE_ILLEGAL;
        set_cond(b, a, XC_FLYING, "flying", c->arg != 0);
        return BATTLE_OK;
    default:
        return BATTLE_ILLEGAL;
    }
}

/* The AI (and every side the table leaves to it) takes every opportunity and
 * every held standby; a side the table set to decline lets them pass before
 * this is asked (battle_table_choice). */
static int xhalem_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    (void)b;
    (void)reactor;
    return offer->n > 1 ? 1 : 0;
}

static cmd_t engage_cmd(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = t;
    c.weapon = w;
    return c;
}

/* The legal-command list under construction; `only_granted` keeps just the
 * commands a secondary action grants. */
typedef struct {
    cmd_t *out;
    int cap, n;
    bool only_granted;
} legal_list_t;

static void offer(const battle_t *b, legal_list_t *l, cmd_t c)
{
    if (l->only_granted && !secondary_grant(b, c.actor, &c))
        return;
    if (l->n < l->cap)
        l->out[l->n] = c;
    l->n++;
}

static cmd_t targeted(cmd_kind_t kind, int a, int t)
{
    cmd_t c = cmd_make(kind, a);
    c.target = t;
    return c;
}

/* Every action (the one per turn) a may take now, as apply_one would accept it.
 * Commands with a hex (teleport, dismount, a held move) carry a placeholder
 * the caller replaces with its pick. */
static void list_actions(battle_t *b, int a, legal_list_t *l)
{
    const xh_state_t *s = cst(b);
    int nw = b->u[a].n_weapons;
    cell_t here = hex_to_cell(b->map->layout, pos(b, a));
    if (!s->turn.dashed)
        offer(b, l, cmd_make(CMD_DASH, a));
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t))
            continue;
        for (int w = -1; w < nw && !holding_someone(b, a); w++) {
            if (!xhalem_equipped(b, a, w) || !assess(b, a, t, battle_weapon(b, a, w), false, false).legal)
                continue;
            offer(b, l, engage_cmd(a, t, w));
            /* Dual strike: every ordered pair (the first strike may end the
             * fight), both strikes able to land. */
            for (int w2 = 0; w2 < nw; w2++) {
                if (w < 0 || !dual_ok(b, a, w, w2) ||
                    !assess(b, a, t, battle_weapon(b, a, w2), false, false).legal)
                    continue;
                cmd_t c = engage_cmd(a, t, w);
                c.weapon2 = w2;
                offer(b, l, c);
            }
        }
        if (assist_ok(b, a, t))
            offer(b, l, targeted(CMD_ASSIST, a, t));
        if (grab_ok(b, a, t)) {
            offer(b, l, targeted(CMD_GRAPPLE, a, t));
            for (int push = 0; push < 2; push++) {
                cmd_t c = targeted(CMD_SHOVE, a, t);
                c.arg = push;
                offer(b, l, c);
            }
        }
    }
    if (s->grappled_by[a])
        offer(b, l, cmd_make(CMD_ESCAPE, a));
    if (hide_ok(b, a))
        offer(b, l, cmd_make(CMD_HIDE, a));
    offer(b, l, cmd_make(CMD_SEARCH, a));
    if (stat(b, a, XS_CLOAK) > 0 && !has(b, a, XC_CLOAKED))
        offer(b, l, cmd_make(CMD_CLOAK, a));
    if (stat(b, a, XS_TELEPORT) > 0 && !immobile(b, a) && !holding_someone(b, a) &&
        xhalem_mount_of(b, a) < 0 && rider_on(b, a) < 0)
        offer(b, l, cmd_make(CMD_TELEPORT, a));
    for (int m = 0; m < b->n; m++)
        if (mount_ok(b, a, m))
            offer(b, l, targeted(CMD_MOUNT, a, m));
    if (xhalem_mount_of(b, a) >= 0)
        offer(b, l, cmd_make(CMD_DISMOUNT, a));
    /* Standby: every trigger, holding an attack with any weapon at hand (or
     * bare hands), or holding a move. A held move's weapon only sets the reach
     * the "enters reach" trigger measures: the list gives it the one in hand. */
    int in_hand = xhalem_equipped(b, a, b->u[a].equipped) ? b->u[a].equipped : -1;
    for (int trig = 0; trig < XT_COUNT; trig++)
        for (int k = 0; k <= nw + 1; k++) { /* weapons, bare hands, then the move */
            bool mv = k == nw + 1;
            cmd_t c = cmd_make(CMD_STANDBY, a);
            c.arg = trig;
            c.act = mv ? CMD_MOVE : CMD_ENGAGE;
            c.weapon = mv ? in_hand : k < nw ? k : -1;
            c.at = here;
            if (standby_ok(b, &c))
                offer(b, l, c);
        }
    for (int w = 0; w < nw; w++)
        if (switch_ok(b, a, w)) {
            cmd_t c = cmd_make(CMD_SWITCH, a);
            c.weapon = w;
            offer(b, l, c);
        }
    for (int d = -1; d < HEX_DIRS; d++) {
        cmd_t c = cmd_make(CMD_USE, a);
        c.at = d < 0 ? here : hex_to_cell(b->map->layout, hex_neighbor(pos(b, a), d));
        if (use_result(b, a, c.at) >= 0)
            offer(b, l, c);
    }
}

static int xhalem_legal(battle_t *b, int a, cmd_t *out, int cap)
{
    xh_state_t *s = st(b);
    legal_list_t l = {out, cap, 0, false};
    if (a != s->actor || b->over)
        return 0;
    offer(b, &l, cmd_make(CMD_END, a));
    /* One move per mode with feet left (a dash only while the action is free). */
    for (int mode = 0; mode < XM_COUNT; mode++) {
        move_cost_t mv;
        if (!xhalem_move_cost(b, a, mode, &mv) || mv.budget_ft <= 0)
            continue;
        cmd_t c = cmd_make(CMD_MOVE, a);
        c.arg = mode;
        offer(b, &l, c);
    }
    /* Free at any time of the turn: letting go of a hold, taking off or landing. */
    for (int t = 0; t < b->n; t++)
        if (s->grappled_by[t] == a + 1)
            offer(b, &l, targeted(CMD_RELEASE, a, t));
    for (int up = 1; up >= 0; up--)
        if (fly_ok(b, a, up)) {
            cmd_t c = cmd_make(CMD_FLY, a);
            c.arg = up;
            offer(b, &l, c);
        }
    if (!s->turn.acted) {
        list_actions(b, a, &l);
    } else if (!s->turn.second) {
        /* The action is spent: only what a secondary action grants remains,
         * judged as apply_cmd judges it, with the action slot open again. */
        l.only_granted = true;
        s->turn.acted = false;
        list_actions(b, a, &l);
        s->turn.acted = true;
    }
    return l.n;
}

/* ---- AI ----------------------------------------------------------------- */

/* Expected damage of w for a (dice average plus bonus). */
static int expected_damage(const battle_t *b, int a, const weapon_t *w)
{
    int n = w ? w->dice_n : 1, sides = w ? w->dice_sides : 4, bonus = w ? w->dice_bonus : 0;
    return n * (sides + 1) / 2 + bonus + damage_bonus(b, a, w);
}

/* How much a wants to hit t: finish the wounded, then the close. */
static int target_value(const battle_t *b, int a, int t, int dmg)
{
    int v = 1000 - b->u[t].hp * 10 - dist_hex(b, a, t);
    if (b->u[t].hp <= dmg)
        v += 500;
    return v;
}

/* Provocations a path would draw (cells after the start). */
static int provocations(battle_t *b, int i, const cell_t *path, int n)
{
    const xh_state_t *s = cst(b);
    const map_combatant_t *c = mc(b, i);
    if (c->kind == KIND_MACHINE && c->size == SIZE_SMALL)
        return 0;
    int count = 0;
    hex_t at = pos(b, i);
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, path[k]);
        for (int e = 0; e < b->n; e++) {
            if (!enemies(b, e, i) || !can_react(b, e) || s->engaged_by_mover[e])
                continue;
            int w = melee_weapon_index(b, e);
            if (w < 0)
                continue;
            int reach = melee_reach(b, e, b->u[e].weapon[w]);
            if (geom_threatens(b->board, e, reach, at) && !geom_threatens(b->board, e, reach, h))
                count++;
        }
        at = h;
    }
    return count;
}

/* The first cells of b->path[0..len) (the start first) that i can afford
 * within `budget` feet, cut back to a hex it may stop on. Returns the count. */
static int clip_path(battle_t *b, int i, int len, int budget, cell_t *out)
{
    int spent = 0, n = 0, last_ok = 0;
    move_cost_t mv;
    if (len < 2 || !xhalem_move_cost(b, i, current_mode(b, i), &mv))
        return 0;
    for (int k = 1; k < len && n < CMD_PATH_MAX; k++) {
        int sc = xh_step(&mv, map_index(b->map, b->path[k - 1]), map_index(b->map, b->path[k]));
        if (sc < 0 || round_up(spent + sc, b->prof[i].interval_ft) > budget)
            break;
        spent += sc;
        out[n++] = b->path[k];
        int occ = board_occupant(b->board, hex_from_cell(b->map->layout, b->path[k]));
        if (occ < 0)
            last_ok = n;
    }
    return last_ok;
}

/* Path from i's hex to cell index g (cells after the start) cut to `budget`
 * feet and to a hex it may stop on, read from the search already run from
 * i's hex that settled g (no second search). Returns the count (0: none). */
static int path_toward_searched(battle_t *b, int i, int g, int budget, cell_t *out)
{
    int len = 0;
    for (int c = g; c >= 0; c = path_parent(b->ps, c))
        len++;
    if (len < 2 || len > b->ncells)
        return 0;
    int k = len;
    for (int c = g; c >= 0; c = path_parent(b->ps, c))
        b->path[--k] = map_cell_of(b->map, c);
    return clip_path(b, i, len, budget, out);
}

/* Can a, standing on h, engage t with weapon w without range penalty? */
static bool can_hit_from(battle_t *b, int a, hex_t h, int t, const weapon_t *w, cover_t *cover)
{
    int d = hex_distance(h, pos(b, t));
    bool melee = !w || w->cls == WPN_MELEE;
    if (!within_ft(b, d, melee ? melee_reach(b, a, w) : w->range_ft))
        return false;
    sight_t sg = sight_trace(b->board, h, pos(b, t));
    if (cover)
        *cover = sg.cover;
    return sg.cover != COVER_TOTAL;
}

/* Best (target, weapon) engageable from the current hex; value or -1. */
static int best_attack_here(battle_t *b, int a, int *tw, int *ww, bool need_in_range)
{
    int best = -1;
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t))
            continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            if (!xhalem_equipped(b, a, w))
                continue;
            const weapon_t *wp = battle_weapon(b, a, w);
            /* Fists only when nothing better is in hand. */
            if (w < 0 && b->u[a].n_weapons > 0)
                continue;
            eng_t g = assess(b, a, t, wp, false, false);
            if (!g.legal || g.auto_fail || (need_in_range && g.beyond))
                continue;
            int v = target_value(b, a, t, expected_damage(b, a, wp)) +
                    expected_damage(b, a, wp) * 4 + g.atk.adv * 60 - g.atk.dis * 60 -
                    g.def.adv * 40 - (g.beyond ? 200 : 0);
            if (v > best) {
                best = v;
                *tw = t;
                *ww = w;
            }
        }
    }
    return best;
}

/* Does the unit prefer to fight at range (its best ranged weapon outdamages melee)? */
static int preferred_weapon(const battle_t *b, int a, bool *ranged)
{
    int best = -1, best_v = -1;
    *ranged = false;
    for (int w = 0; w < b->u[a].n_weapons; w++) {
        if (!xhalem_equipped(b, a, w))
            continue;
        const weapon_t *wp = b->u[a].weapon[w];
        int v = expected_damage(b, a, wp) * 10 + (wp->cls != WPN_MELEE ? 5 : 0);
        if (v > best_v) {
            best_v = v;
            best = w;
            *ranged = wp->cls != WPN_MELEE;
        }
    }
    return best;
}

/* Would a do more for its side by assisting against t than by striking t
 * with w? Its own expected damage is set against the most that an ally able
 * to engage t from where it stands would gain from striking with advantage.
 * Every ally has its turn before a's next one, when the assist lapses. */
static bool assist_pays(battle_t *b, int a, int t, int w)
{
    xh_state_t *s = st(b);
    predict_t own;
    if (!assist_ok(b, a, t) || s->assist_on[t] || !predict_engage(b, a, t, w, &own))
        return false;
    if (own.p_hit > 0.25 && own.dmg_hit >= b->u[t].hp)
        return false; /* a fair chance to finish it now */
    double best = 0;
    for (int x = 0; x < b->n; x++) {
        if (x == a || !battle_active(b, x) || !board_allies(b->board, a, x))
            continue;
        bool ranged;
        int xw = preferred_weapon(b, x, &ranged);
        predict_t plain, helped;
        if (!predict_engage(b, x, t, xw, &plain))
            continue;
        s->assist_on[t] = a + 1;
        bool ok = predict_engage(b, x, t, xw, &helped);
        s->assist_on[t] = 0;
        if (ok && helped.dmg_expected - plain.dmg_expected > best)
            best = helped.dmg_expected - plain.dmg_expected;
    }
    return best > own.dmg_expected * 1.25 + 0.5;
}

/* Strike t with w, or assist against it when that pays better. */
static cmd_t strike_or_assist(battle_t *b, int a, int t, int w)
{
    cmd_t c = cmd_make(assist_pays(b, a, t, w) ? CMD_ASSIST : CMD_ENGAGE, a);
    c.target = t;
    if (c.kind == CMD_ENGAGE)
        c.weapon = w;
    return c;
}

/* How good hex h is for a to strike t from, before the cost of getting there:
 * a flank with an ally across (melee), or cover from t and distance kept (ranged). */
static int strike_spot_value(battle_t *b, int a, int t, hex_t h, bool melee)
{
    int v = 0;
    if (melee) {
        board_trial_t trial = board_try(b->board, a, h);
        int partners[NMAX];
        if (geom_flank_partners(b->board, b->prof, a, t, partners, NMAX) > 0)
            v += 400;
        board_untry(b->board, &trial);
    } else {
        sight_t back = sight_trace(b->board, pos(b, t), h);
        if (back.cover == COVER_LIGHT)
            v += 150;
        if (back.cover == COVER_HEAVY)
            v += 250;
        v += hex_distance(h, pos(b, t)) * 5;
    }
    return v;
}

/* Could a melee unit gain by moving to strike t with w? Not when it can
 * strike t from here and either flanks it already or no ally stands close
 * enough to t to be a flanking partner (the only thing a melee move buys). */
static bool move_can_help(battle_t *b, int a, int t, int w)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    if (wp && wp->cls != WPN_MELEE)
        return true;
    if (!can_hit_from(b, a, pos(b, a), t, wp, NULL))
        return true;
    if (strike_spot_value(b, a, t, pos(b, a), true) > 0)
        return false; /* flanking already */
    for (int x = 0; x < b->n; x++)
        if (x != a && battle_active(b, x) && board_allies(b->board, a, x) &&
            within_ft(b, dist_hex(b, x, t), b->prof[x].flank_ft))
            return true;
    return false;
}

/* Choose a destination from the reachable set where a can strike t with w,
 * preferring flanks (melee) or cover (ranged), then no provocation, then
 * cheap. Writes a move command; false when none fits. */
static bool plan_attack_move(battle_t *b, int a, int t, int w, int budget, cmd_t *out)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    bool melee = !wp || wp->cls == WPN_MELEE;
    move_cost_t mv;
    if (!xhalem_move_cost(b, a, current_mode(b, a), &mv))
        return false;
    mv.budget_ft = budget;
    int n = geom_reach_mode(&mv, b->ps, b->reach, b->ncells);
    if (n > b->ncells)
        n = b->ncells;
    int best_v = -1000000;
    cell_t best_cell = {0, 0};
    bool found = false;
    int lim = melee ? melee_reach(b, a, wp) : wp->range_ft;
    int lim_hex = geom_ft_to_hexes(b->map, lim);
    /* Staying put is a candidate too: a move must buy something. */
    int stay_v = -1000000;
    if (can_hit_from(b, a, pos(b, a), t, wp, NULL))
        stay_v = strike_spot_value(b, a, t, pos(b, a), melee);
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (hex_distance(h, pos(b, t)) > lim_hex)
            continue;
        if (!can_hit_from(b, a, h, t, wp, NULL))
            continue;
        int v = strike_spot_value(b, a, t, h, melee) - b->reach[k].cost_ft;
        if (v > best_v) {
            best_v = v;
            best_cell = b->reach[k].at;
            found = true;
        }
    }
    if (!found || best_v <= stay_v)
        return false;
    cmd_t c = cmd_make(CMD_MOVE, a);
    /* b->ps still holds the reach search, which settled best_cell. */
    c.n_path = path_toward_searched(b, a, map_index(b->map, best_cell), budget, c.path);
    if (c.n_path == 0)
        return false;
    cell_t last = c.path[c.n_path - 1];
    if (last.col != best_cell.col || last.row != best_cell.row)
        return false;
    if (provocations(b, a, c.path, c.n_path) > 0 && !melee)
        return false; /* a shooter does not run past blades */
    *out = c;
    return true;
}

/* Move toward t as far as `budget` allows; false when no step helps. One
 * search from a's hex prices every hex beside t at once. */
static bool plan_approach(battle_t *b, int a, int t, int budget, cmd_t *out)
{
    hex_t ring[6];
    int nr = hex_ring(pos(b, t), 1, ring, 6);
    int start = board_cell_index(b->board, pos(b, a));
    if (start < 0)
        return false;
    int iv = b->prof[a].interval_ft;
    move_cost_t mv;
    if (!xhalem_move_cost(b, a, current_mode(b, a), &mv))
        return false;
    /* Search outward in growing rings of cost: once some hex beside t is
     * settled within a budget that is a whole number of intervals, every hex
     * that could tie or beat it (rounded) is settled too, so the choice is
     * the one a search of the whole map would make. */
    int lim = round_up((dist_hex(b, a, t) + 2) * b->map->feet_per_hex * 2, iv > 0 ? iv : 1);
    int best_cost = 0x3fffffff, goal = -1;
    for (;;) {
        path_run(b->ps, b->board, start, lim, -1, mv.step, &mv);
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            if (idx < 0 || b->board->occ[idx] >= 0 ||
                b->map->types[b->map->cells[idx]].move <= 0)
                continue;
            int cost = path_cost(b->ps, idx);
            if (cost < 0)
                continue;
            cost = round_up(cost, iv);
            if (cost < best_cost) {
                best_cost = cost;
                goal = idx;
            }
        }
        if (goal >= 0 || lim >= PATH_NO_BUDGET)
            break;
        lim = lim >= PATH_NO_BUDGET / 4 ? PATH_NO_BUDGET : lim * 4;
    }
    if (goal < 0)
        return false;
    cmd_t c = cmd_make(CMD_MOVE, a);
    c.n_path = path_toward_searched(b, a, goal, budget, c.path);
    if (c.n_path == 0)
        return false;
    *out = c;
    return true;
}

static int nearest_enemy(const battle_t *b, int a)
{
    int best = -1, bd = 0x3fffffff;
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t))
            continue;
        int d = dist_hex(b, a, t);
        /* Wounded foes count as a little closer: finish them first. */
        d = d * 4 + b->u[t].hp;
        if (d < bd) {
            bd = d;
            best = t;
        }
    }
    return best;
}

static void xhalem_ai(battle_t *b, int a, cmd_t *out)
{
    const xh_state_t *s = cst(b);
    *out = cmd_make(CMD_END, a);
    if (a != s->actor)
        return;
    if (s->grappled_by[a]) {
        if (!s->turn.acted)
            *out = cmd_make(CMD_ESCAPE, a);
        return;
    }
    if (holding_someone(b, a)) {
        /* Holding on stops every other action: let go and fight. */
        for (int t = 0; t < b->n; t++)
            if (s->grappled_by[t] == a + 1) {
                *out = cmd_make(CMD_RELEASE, a);
                out->target = t;
                return;
            }
    }
    int budget = xhalem_move_left(b);
    if (s->turn.acted && !s->turn.second) {
        /* A granted secondary engagement: strike the best target it reaches. */
        int best = -1;
        for (int t = 0; t < b->n; t++)
            for (int w = 0; w < b->u[a].n_weapons && battle_active(b, t) && enemies(b, a, t); w++) {
                cmd_t c = engage_cmd(a, t, w);
                if (!xhalem_equipped(b, a, w) || !secondary_grant(b, a, &c) || holding_someone(b, a))
                    continue;
                const weapon_t *wp = battle_weapon(b, a, w);
                eng_t g = assess(b, a, t, wp, false, false);
                if (!g.legal || g.auto_fail || g.beyond)
                    continue;
                int v = target_value(b, a, t, expected_damage(b, a, wp));
                if (v > best) {
                    best = v;
                    *out = c;
                }
            }
        if (best >= 0)
            return;
    }
    if (s->turn.acted) {
        /* After a dash, run on; after a strike, stay put rather than provoke. */
        int goal = nearest_enemy(b, a);
        if (s->turn.dashed && budget > 0 && goal >= 0 && dist_hex(b, a, goal) > 1 &&
            plan_approach(b, a, goal, budget, out))
            return;
        /* Then a granted hide or cloak, which costs nothing and makes the
         * next strike harder to see coming. */
        int sk = xhalem_secondary_kind(b, a);
        if (!s->turn.second &&
            ((sk == CMD_HIDE && hide_spot_ok(b, a)) ||
             (sk == CMD_CLOAK && stat(b, a, XS_CLOAK) > 0 && !has(b, a, XC_CLOAKED))))
            *out = cmd_make((cmd_kind_t)sk, a);
        return;
    }
    bool ranged = false;
    int pw = preferred_weapon(b, a, &ranged);
    int t = -1, w = -1;
    int here = best_attack_here(b, a, &t, &w, true);
    if (here >= 0 && (s->turn.moved_ft > 0 || budget <= 0 || ranged)) {
        *out = strike_or_assist(b, a, t, w);
        return;
    }
    int goal = nearest_enemy(b, a);
    if (goal < 0)
        return;
    if (budget > 0) {
        /* Somewhere reachable to strike from (flanking or covered)? */
        int tries[2] = {goal, t};
        for (int k = 0; k < 2; k++) {
            if (tries[k] < 0 || (k == 1 && tries[1] == tries[0]))
                continue;
            if (!ranged && !move_can_help(b, a, tries[k], pw))
                continue; /* saves a search: staying put is as good as any hex */
            bool planned = plan_attack_move(b, a, tries[k], pw, budget, out) ||
                           (pw >= 0 && b->u[a].weapon[pw]->cls != WPN_MELEE &&
                            plan_attack_move(b, a, tries[k], melee_weapon_index(b, a), budget, out));
            if (!planned)
                continue;
            /* A better hex is not worth an opportunity attack when there is
             * already someone to strike from here. */
            if (here >= 0 && provocations(b, a, out->path, out->n_path) > 0)
                continue;
            return;
        }
    }
    if (here >= 0) {
        *out = strike_or_assist(b, a, t, w);
        return;
    }
    if (budget > 0 && plan_approach(b, a, goal, budget, out))
        return;
    if (!s->turn.dashed && s->turn.moved_ft > 0 && mode_speed(b, a) > 0) {
        /* Still out of reach with the action unused: run. */
        *out = cmd_make(CMD_DASH, a);
        return;
    }
    /* Out of range but in sight: a long shot beats nothing. */
    if (best_attack_here(b, a, &t, &w, false) >= 0) {
        *out = cmd_make(CMD_ENGAGE, a);
        out->target = t;
        out->weapon = w;
    }
}

static bool xhalem_hidden_from(const battle_t *b, int who, int side)
{
    if (who < 0 || who >= b->n || b->u[who].out || b->board->side[who] == side)
        return false;
    const xh_state_t *s = cst(b);
    bool cloaked = has(b, who, XC_CLOAKED) && !s->revealed[who];
    if (!cloaked && !has(b, who, XC_HIDDEN))
        return false;
    /* One watcher who knows where it is tells the whole side. */
    for (int i = 0; i < b->n; i++)
        if (battle_active(b, i) && b->board->side[i] == side && xhalem_aware(b, i, who))
            return false;
    return true;
}

const ruleset_t ruleset_xhalem = {
    .id = "xhalem",
    .title = "Xha'lem: mechs and creatures",
    .geo_profile = xhalem_geo_profile,
    .stat_names = STAT_NAMES,
    .n_stats = XS_COUNT,
    .state_size = sizeof(xh_state_t),
    .setup = xhalem_setup,
    .actors = xhalem_actors,
    .move_modes = MOVE_MODES,
    .n_move_modes = XM_COUNT,
    .move_cost = xhalem_move_cost,
    .legal = xhalem_legal,
    .apply = xhalem_apply,
    .react = xhalem_react,
    .ai = xhalem_ai,
    .winner = battle_last_side,
    .hidden_from = xhalem_hidden_from,
};
