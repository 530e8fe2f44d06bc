/* actions.c - xhalem commands: the action of the turn (engage, grapple,
 * shove, hide, search, assist, standby, mount...), secondary actions, apply.
 */
#include "xh_int.h"

static bool size_ok(const battle_t *b, int a, int t)
{
    return (int)mc(b, t)->size <= (int)mc(b, a)->size + 1;
}

/* May a mount m now, as its action (see do_mount)? */
bool xh_mount_ok(const battle_t *b, int a, int m)
{
    if (cst(b)->turn.acted || m < 0 || m >= b->n || m == a || !battle_active(b, m) ||
        enemies(b, a, m))
        return false;
    if (xhalem_mount_of(b, a) >= 0 || rider_on(b, a) >= 0 || rider_on(b, m) >= 0 ||
        xhalem_mount_of(b, m) >= 0)
        return false;
    if (immobile(b, a) || holding_someone(b, a) || immobile(b, m) || holding_someone(b, m))
        return false;
    if ((int)mc(b, m)->size < (int)mc(b, a)->size + 1) return false;
    if (is_machine(b, m) && mc(b, m)->size >= SIZE_LARGE) return false;
    /* "A creature can not mount a mech" (RULINGS: mounts), whatever its size. */
    if (!is_machine(b, a) && is_machine(b, m)) return false;
    return within_ft(b, dist_hex(b, a, m), melee_reach(b, a, NULL));
}

/* Dual strike with weapons w and w2 (no bare hands), both at hand; a
 * creature's two strikes use one weapon unless it fights with two. */
bool xh_dual_ok(const battle_t *b, int a, int w, int w2)
{
    if (stat(b, a, XS_DUAL_STRIKE) <= 0 || w < 0 || w2 < 0 || !xhalem_equipped(b, a, w2))
        return false;
    return is_machine(b, a) || w2 == w || stat(b, a, XS_DUAL_WEAPON) > 0;
}

static battle_status_t do_engage(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, t = c->target;
    if (s->turn.acted || t < 0 || t >= b->n || !battle_active(b, t) || !enemies(b, a, t))
        return BATTLE_ILLEGAL;
    /* A grappler may strike only the one it holds (RULINGS: grapple). */
    if (holding_someone(b, a) && s->grappled_by[t] != a + 1) return BATTLE_ILLEGAL;
    if (!xhalem_equipped(b, a, c->weapon)) return BATTLE_ILLEGAL;
    const weapon_t *w = battle_weapon(b, a, c->weapon);
    if (c->weapon >= 0 && !w) return BATTLE_ILLEGAL;
    const weapon_t *w2 = NULL;
    if (c->weapon2 >= 0) {
        /* Dual strike: two attacks in one action. */
        if (!xh_dual_ok(b, a, c->weapon, c->weapon2)) return BATTLE_ILLEGAL;
        w2 = battle_weapon(b, a, c->weapon2);
    }
    eng_t g = xh_assess(b, a, t, w, false, false);
    if (!g.legal) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    s->engaged_by_mover[t] = 1;
    xh_strike(b, a, t, w, false, false);
    if (c->weapon2 >= 0 && battle_active(b, t) && battle_active(b, a))
        xh_strike(b, a, t, w2, false, false);
    /* The trigger sees the ranged weapon if either strike used one. */
    xh_standby_after_engage(b, a, t, (w && w->cls != WPN_MELEE) || !w2 ? w : w2);
    /* An attack that could not hit an undetected target out of range costs
     * the whole turn, as the text says (RULINGS: a lost turn). */
    if (g.auto_fail && s->actor == a && battle_active(b, a)) xh_next_turn(b);
    return BATTLE_OK;
}

/* May a grapple or shove t now: an enemy in reach and in sight, no more than
 * one size larger, and a's hands free of another hold. */
bool xh_grab_ok(const battle_t *b, int a, int t)
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
    if (!xh_grab_ok(b, a, t)) return BATTLE_ILLEGAL;
    bool grapple = c->kind == CMD_GRAPPLE;
    /* A shove replaces one strike of a dual strike: the other (weapon2,
     * a weapon at hand) follows it (RULINGS); a grapple replaces both. */
    const weapon_t *w2 = NULL;
    if (c->weapon2 >= 0 && !grapple) { /* a grapple's weapon2 means nothing */
        if (stat(b, a, XS_DUAL_STRIKE) <= 0 || !xhalem_equipped(b, a, c->weapon2) ||
            !xh_assess(b, a, t, battle_weapon(b, a, c->weapon2), false, false).legal)
            return BATTLE_ILLEGAL;
        w2 = battle_weapon(b, a, c->weapon2);
    }
    s->turn.acted = true;
    s->engaged_by_mover[t] = 1;
    bool helpless = immobile(b, t);
    mods_t none = {0, 0, false};
    bool ok;
    if (helpless) {
        ok = true;
    } else if (grapple) {
        /* Grapple: an engagement like any other (advantage, disadvantage,
         * detriment, cover, flanking, assist, naturals: RULINGS) with Hull or
         * Strength in place of Systems or Agility. */
        eng_t g = xh_assess(b, a, t, NULL, false, false);
        g.atk_bonus = might_bonus(b, a);
        ok = xh_contest(b, a, t, &g, "grapple");
    } else {
        eng_t g = xh_assess(b, a, t, NULL, false, false);
        ok = xh_engagement(b, a, t, NULL, &g);
        if (ok) {
            int mine = xh_d20(b, a, none, might_bonus(b, a), "shove", NULL);
            int theirs = xh_d20(b, t, none, might_bonus(b, t), "resist shove", NULL);
            ok = mine > theirs;
        }
    }
    battle_emit_action(b, a, grapple ? "grapple" : c->arg ? "shove_push" : "shove_knock", t, ok);
    if (ok && grapple) {
        s->grappled_by[t] = a + 1;
        xh_set_cond(b, t, XC_GRAPPLED, "grappled", true);
    } else if (ok && c->arg) {
        xh_push_away(b, a, t);
    } else if (ok) {
        xh_set_cond(b, t, XC_PRONE, "prone", true);
    }
    if (w2 && battle_active(b, a) && battle_active(b, t)) xh_strike(b, a, t, w2, false, false);
    /* A grapple or a shove is an engagement: "an enemy engages" holds for it. */
    if (battle_active(b, a)) xh_standby_after_engage(b, a, t, w2);
    return BATTLE_OK;
}

static battle_status_t do_escape(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    int g = s->grappled_by[a] - 1;
    if (s->turn.acted || g < 0) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    int mine = xh_d20(b, a, none, might_bonus(b, a), "escape grapple", NULL);
    int theirs = xh_d20(b, g, none, might_bonus(b, g), "hold grapple", NULL);
    bool ok = mine >= theirs; /* equal or better breaks free */
    battle_emit_action(b, a, "escape", g, ok);
    if (ok) {
        s->grappled_by[a] = 0;
        xh_set_cond(b, a, XC_GRAPPLED, "grappled", false);
    } else {
        /* Held fast: no further action this turn, a granted secondary
         * included (the text; docs/rules-xhalem.md, "Escape"). */
        s->turn.second = true;
    }
    return BATTLE_OK;
}

/* Could a hide where it stands: a creature not hidden already, that no enemy
 * sees clearly? (Whether its action or a granted secondary is free is the
 * caller's question.) */
bool xh_hide_spot_ok(const battle_t *b, int a)
{
    if (is_machine(b, a) || has(b, a, XC_HIDDEN)) return false;
    for (int e = 0; e < b->n; e++) {
        if (!battle_active(b, e) || !enemies(b, e, a)) continue;
        sight_t sg = sight_trace(b->board, pos(b, e), pos(b, a));
        if (sg.visible && sg.cover == COVER_NONE) return false;
    }
    return true;
}

/* May a hide now, as its action? */
bool xh_hide_ok(const battle_t *b, int a)
{
    return !cst(b)->turn.acted && xh_hide_spot_ok(b, a);
}

static battle_status_t do_hide(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    if (!xh_hide_ok(b, a)) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    s->stealth[a] = xh_d20(b, a, none, stat(b, a, XS_STEALTH), "stealth", NULL);
    /* Who saw it slip away knows where to look (not where it goes next). */
    s->hid_at[a] = hex_to_cell(b->map->layout, pos(b, a));
    s->hid_seen[a] = 0;
    for (int e = 0; e < b->n; e++)
        if (battle_active(b, e) && enemies(b, e, a) && b->board->side[e] < 32 &&
            sight_trace(b->board, pos(b, e), pos(b, a)).visible)
            s->hid_seen[a] |= 1u << b->board->side[e];
    xh_set_cond(b, a, XC_HIDDEN, "hidden", true);
    return BATTLE_OK;
}

static battle_status_t do_search(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    if (s->turn.acted) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    mods_t none = {0, 0, false};
    int bonus = is_machine(b, a) ? stat(b, a, XS_SCANNERS)
                                 : (stat(b, a, XS_PERCEPTION) > stat(b, a, XS_INVESTIGATION)
                                        ? stat(b, a, XS_PERCEPTION)
                                        : stat(b, a, XS_INVESTIGATION));
    int total = xh_d20(b, a, none, bonus, "search", NULL);
    bool found = false;
    for (int h = 0; h < b->n; h++) {
        if (!battle_active(b, h) || !enemies(b, a, h) || !has(b, h, XC_HIDDEN)) continue;
        if (!sight_clear(b->board, pos(b, a), pos(b, h))) continue;
        if (total > s->stealth[h]) { /* must beat the stealth total */
            xh_set_cond(b, h, XC_HIDDEN, "hidden", false);
            found = true;
        }
    }
    battle_emit_action(b, a, "search", -1, found);
    return BATTLE_OK;
}

/* The terrain type the object at `at` turns into when a uses it, or -1 when
 * a cannot use anything there (out of reach, or nothing that opens). */
int xh_use_result(const battle_t *b, int a, cell_t at)
{
    if (cst(b)->turn.acted || !map_in_bounds(b->map, at)) return -1;
    hex_t h = hex_from_cell(b->map->layout, at);
    if (hex_distance(h, pos(b, a)) > 1) return -1;
    const terrain_t *t = map_terrain_at(b->map, at);
    return t->opens_to[0] ? map_find_type(b->map, t->opens_to) : -1;
}

static battle_status_t do_use(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    int to = xh_use_result(b, a, c->at);
    if (to < 0) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    b->map->cells[map_index(b->map, c->at)] = (uint8_t)to;
    battle_emit_action(b, a, "use", -1, true);
    event_t e = event_make(EV_TERRAIN);
    e.to = c->at;
    hb_strlcpy(e.name, b->map->types[to].name, sizeof e.name);
    battle_emit(b, &e);
    return BATTLE_OK;
}

/* Is x an ally of a, in the fight, within 5 ft of it (the one it may assist)? */
static bool assist_partner(const battle_t *b, int a, int x)
{
    return x >= 0 && x < b->n && x != a && battle_active(b, x) && board_allies(b->board, a, x) &&
           dist_hex(b, a, x) <= geom_ft_to_hexes(b->map, 5);
}

int xh_assist_ally(const battle_t *b, int a, int arg)
{
    if (arg > 0) return assist_partner(b, a, arg - 1) ? arg - 1 : -1;
    int only = -1, n = 0;
    for (int x = 0; x < b->n; x++)
        if (assist_partner(b, a, x)) {
            only = x;
            n++;
        }
    return n == 1 ? only : -1;
}

bool xh_assist_ok(const battle_t *b, int a, int t, int ally)
{
    if (cst(b)->turn.acted || t < 0 || t >= b->n || !battle_active(b, t) || !enemies(b, a, t))
        return false;
    if (!within_ft(b, dist_hex(b, a, t), b->prof[a].reach_ft)) return false;
    return assist_partner(b, a, ally);
}

/* Standby: a trigger and a held engagement (with a weapon at hand) or a held
 * move to a passable hex, against any enemy or a named one. */
bool xh_standby_ok(const battle_t *b, const cmd_t *c)
{
    int a = c->actor;
    if (cst(b)->turn.acted || c->arg < 0 || c->arg >= XT_COUNT || !xhalem_equipped(b, a, c->weapon))
        return false;
    if (c->act != CMD_END && c->act != CMD_ENGAGE && c->act != CMD_MOVE) return false;
    if (c->act == CMD_MOVE &&
        (!map_in_bounds(b->map, c->at) || map_terrain_at(b->map, c->at)->move <= 0))
        return false;
    return c->target < b->n && (c->target < 0 || enemies(b, a, c->target));
}

/* Switching weapons: a creature takes up another of its weapons. */
bool xh_switch_ok(const battle_t *b, int a, int w, int put_away)
{
    if (cst(b)->turn.acted || w < 0 || w >= b->u[a].n_weapons || xhalem_equipped(b, a, w))
        return false;
    /* A machine holds two: it names the one it puts away. */
    if (is_machine(b, a)) return put_away >= 0 && put_away != w && xhalem_equipped(b, a, put_away);
    return put_away < 0 && w != b->u[a].equipped;
}

/* Switching between walking and flying (free): up needs a fly speed, down a
 * hex that can be stood on. */
bool xh_fly_ok(const battle_t *b, int a, bool up)
{
    if (up) return mc(b, a)->fly_ft > 0 && !has(b, a, XC_FLYING);
    cell_t cc = hex_to_cell(b->map->layout, pos(b, a));
    return has(b, a, XC_FLYING) && map_terrain_at(b->map, cc)->move > 0;
}

/* Mount: the action, onto a willing (allied) combatant at least one size larger
 * within reach. A machine large enough to climb into is piloted, not ridden. */
static battle_status_t do_mount(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, m = c->target;
    if (!xh_mount_ok(b, a, m)) return BATTLE_ILLEGAL;
    s->turn.acted = true;
    battle_step(b, a, pos(b, m));
    s->mounted_on[a] = m + 1;
    s->rider_of[m] = a + 1;
    battle_emit_action(b, a, "mount", m, true);
    battle_emit_condition(b, a, "mounted", true);
    return BATTLE_OK;
}

/* Dismount: the action, to the free passable hex `at` beside the mount. */
static battle_status_t do_dismount(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor, m = xhalem_mount_of(b, a);
    if (s->turn.acted || m < 0 || !map_in_bounds(b->map, c->at)) return BATTLE_ILLEGAL;
    hex_t h = hex_from_cell(b->map->layout, c->at);
    if (hex_distance(h, pos(b, m)) != 1 || board_occupant(b->board, h) >= 0 ||
        map_terrain_at(b->map, c->at)->move <= 0)
        return BATTLE_ILLEGAL;
    s->turn.acted = true;
    s->mounted_on[a] = 0;
    s->rider_of[m] = 0;
    battle_step(b, a, h);
    battle_emit_action(b, a, "dismount", m, true);
    battle_emit_condition(b, a, "mounted", false);
    return BATTLE_OK;
}

/* Teleport: the action, to a passable, empty hex within the combatant's
 * "teleport" feet that it can see. It never walks, so it draws no
 * opportunity; a standby waiting for an enemy to come into reach still sees it
 * arrive. Not while grappled, holding someone, riding or carrying a rider. */
static bool teleport_ok(const battle_t *b, int a, cell_t at)
{
    int ft = stat(b, a, XS_TELEPORT);
    if (cst(b)->turn.acted || ft <= 0 || !map_in_bounds(b->map, at)) return false;
    if (immobile(b, a) || holding_someone(b, a) || xhalem_mount_of(b, a) >= 0 ||
        rider_on(b, a) >= 0)
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
    if (!teleport_ok(b, a, c->at)) return BATTLE_ILLEGAL;
    st(b)->turn.acted = true;
    battle_emit_action(b, a, "teleport", -1, true);
    event_t e = event_make(EV_MOVE_STEP);
    e.who = a;
    e.from = hex_to_cell(b->map->layout, pos(b, a));
    e.to = c->at;
    hb_strlcpy(e.name, "teleport", sizeof e.name);
    board_place(b->board, a, hex_from_cell(b->map->layout, c->at));
    battle_emit(b, &e);
    xh_standby_after_move(b, a, NULL);
    return BATTLE_OK;
}

int xhalem_secondary_kind(const battle_t *b, int a)
{
    const map_combatant_t *c = mc(b, a);
    const tmpl_t *t = c->template_name[0] && b->db ? tmpl_find(b->db, c->template_name) : NULL;
    if (!t || !t->secondary[0]) return -1;
    int k = cmd_kind_parse(t->secondary);
    /* Only small actions make sense as an extra: not a dash, a standby or a mount. */
    return k == CMD_HIDE || k == CMD_CLOAK || k == CMD_SEARCH || k == CMD_ASSIST || k == CMD_USE
               ? k
               : -1;
}

/* Does something a has grant c as its secondary action? A weapon tagged
 * `secondary` grants one more engagement with it (an off-hand blade); a
 * template's `secondary` names the kind its specialty or program grants. */
bool xh_secondary_grant(const battle_t *b, int a, const cmd_t *c)
{
    if (c->kind == CMD_ENGAGE)
        return c->weapon >= 0 && c->weapon2 < 0 &&
               battle_weapon_tag(battle_weapon(b, a, c->weapon), "secondary") > 0;
    return (int)c->kind == xhalem_secondary_kind(b, a);
}

static battle_status_t apply_cmd(battle_t *b, const cmd_t *c);
static battle_status_t apply_one(battle_t *b, const cmd_t *c);

battle_status_t xhalem_apply(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    if (b->over || c->actor != s->actor || !battle_active(b, c->actor)) return BATTLE_ILLEGAL;
    battle_status_t r = apply_cmd(b, c);
    /* A hold ends when the two are no longer within reach of each other. */
    for (int k = 0; k < b->n; k++) {
        int g = s->grappled_by[k] - 1;
        if (g >= 0 && (!battle_active(b, g) || !battle_active(b, k) ||
                       !within_ft(b, dist_hex(b, g, k), xh_body_reach(mc(b, g))))) {
            s->grappled_by[k] = 0;
            xh_set_cond(b, k, XC_GRAPPLED, "grappled", false);
        }
    }
    /* A combatant felled during its own turn (an opportunity strike) is done. */
    if (r == BATTLE_OK && s->actor >= 0 && !battle_active(b, s->actor) && battle_last_side(b) == -2)
        xh_next_turn(b);
    return r;
}

/* A secondary action comes only after the primary one: once the action is
 * spent, a granted command runs as if it were free, and then the secondary
 * slot is spent. Before the primary, every command is the primary (a primary
 * may be spent on the secondary's kind, never the reverse). */
static battle_status_t apply_cmd(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    if (!s->turn.acted || s->turn.second || !xh_secondary_grant(b, c->actor, c))
        return apply_one(b, c);
    s->turn.acted = false;
    battle_status_t r = apply_one(b, c);
    s->turn.acted = true;
    if (r == BATTLE_OK) {
        s->turn.second = true;
        /* A secondary comes before or after the whole dash, never between its
         * steps (RULINGS): once some of the dash is run, it ends the dash. */
        if (s->turn.dashed && s->turn.moved_ft > s->turn.dash_from_ft) s->turn.dash_over = true;
        battle_emit_action(b, c->actor, "secondary", c->target, true);
    }
    return r;
}

/* What a grappler may still do (RULINGS: grapple): move (dragging), strike
 * the one it holds, let go, end its turn, and take off or land. */
static bool allowed_while_holding(cmd_kind_t k)
{
    return k == CMD_END || k == CMD_MOVE || k == CMD_ENGAGE || k == CMD_RELEASE || k == CMD_FLY;
}

static battle_status_t apply_one(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int a = c->actor;
    if (holding_someone(b, a) && !allowed_while_holding(c->kind)) return BATTLE_ILLEGAL;
    switch (c->kind) {
    case CMD_END:
        xh_next_turn(b);
        return BATTLE_OK;
    case CMD_MOVE:
        return xh_do_move(b, c);
    case CMD_ENGAGE:
        return do_engage(b, c);
    case CMD_DASH:
        if (s->turn.acted || s->turn.dashed) return BATTLE_ILLEGAL;
        xh_dash(b, a);
        return BATTLE_OK;
    case CMD_STANDBY: {
        /* The held action: an engagement with `weapon`, or a move to `at`. */
        bool move = c->act == CMD_MOVE;
        if (!xh_standby_ok(b, c)) return BATTLE_ILLEGAL;
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
        int t = c->target, ally = xh_assist_ally(b, a, c->arg);
        if (!xh_assist_ok(b, a, t, ally)) return BATTLE_ILLEGAL;
        s->turn.acted = true;
        s->assist_on[t] = a + 1;
        s->assist_for[t] = ally + 1;
        battle_emit_action(b, a, "assist", t, true);
        xh_set_cond(b, t, XC_DISTRACTED, "distracted", true);
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
        /* Cloaking in plain view hides nothing from those watching: the
         * position stays known until it moves out of their sight (RULINGS). */
        s->revealed[a] = 0;
        for (int e = 0; e < b->n && !s->revealed[a]; e++)
            if (battle_active(b, e) && enemies(b, e, a)) {
                sight_t sg = sight_trace(b->board, pos(b, e), pos(b, a));
                s->revealed[a] = sg.visible && sg.cover == COVER_NONE;
            }
        xh_set_cond(b, a, XC_CLOAKED, "cloaked", true);
        return BATTLE_OK;
    case CMD_GRAPPLE:
    case CMD_SHOVE:
        return do_grapple_or_shove(b, c);
    case CMD_ESCAPE:
        return do_escape(b, c);
    case CMD_RELEASE: {
        int t = c->target;
        if (t < 0 || t >= b->n || s->grappled_by[t] != a + 1) return BATTLE_ILLEGAL;
        s->grappled_by[t] = 0;
        xh_set_cond(b, t, XC_GRAPPLED, "grappled", false);
        return BATTLE_OK;
    }
    case CMD_USE:
        return do_use(b, c);
    case CMD_SWITCH:
        if (!xh_switch_ok(b, a, c->weapon, c->weapon2)) return BATTLE_ILLEGAL;
        s->turn.acted = true;
        if (is_machine(b, a))
            s->mhand[a] = (unsigned short)((s->mhand[a] & ~(1u << c->weapon2)) | 1u << c->weapon);
        else
            b->u[a].equipped = c->weapon;
        b->prof[a].reach_ft = xhalem_reach(b, a);
        battle_emit_action(b, a, "switch", -1, true);
        return BATTLE_OK;
    case CMD_FLY:
        /* Switching speeds: what has been moved counts against the new speed. */
        if (!xh_fly_ok(b, a, c->arg != 0)) return BATTLE_ILLEGAL;
        xh_set_cond(b, a, XC_FLYING, "flying", c->arg != 0);
        return BATTLE_OK;
    default:
        return BATTLE_ILLEGAL;
    }
}
