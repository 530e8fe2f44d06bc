/* legal.c - xhalem: the commands legal now, as apply would accept them.
 */
#include "xh_int.h"

/* The legal-command list under construction; `only_granted` keeps just the
 * commands a secondary action grants. */
typedef struct {
    cmd_t *out;
    int cap, n;
    bool only_granted;
} legal_list_t;

cmd_t xh_engage_cmd(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = t;
    c.weapon = w;
    return c;
}

static void offer(const battle_t *b, legal_list_t *l, cmd_t c)
{
    if (l->only_granted && !xh_secondary_grant(b, c.actor, &c)) return;
    if (l->n < l->cap) l->out[l->n] = c;
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
    /* A grappler's only action is a strike at the one it holds. */
    bool holding = holding_someone(b, a);
    if (!s->turn.dashed && !holding) offer(b, l, cmd_make(CMD_DASH, a));
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t)) continue;
        if (holding && s->grappled_by[t] != a + 1) continue;
        for (int w = -1; w < nw; w++) {
            if (!xhalem_equipped(b, a, w) ||
                !xh_assess(b, a, t, battle_weapon(b, a, w), false, false).legal)
                continue;
            offer(b, l, xh_engage_cmd(a, t, w));
            /* Dual strike: every ordered pair (the first strike may end the
             * fight), both strikes able to land. */
            for (int w2 = 0; w2 < nw; w2++) {
                if (w < 0 || !xh_dual_ok(b, a, w, w2) ||
                    !xh_assess(b, a, t, battle_weapon(b, a, w2), false, false).legal)
                    continue;
                cmd_t c = xh_engage_cmd(a, t, w);
                c.weapon2 = w2;
                offer(b, l, c);
            }
        }
        if (holding) continue;
        /* Assist names its ally: by number, unless only one stands near (arg 0). */
        int lone = xh_assist_ally(b, a, 0);
        for (int x = -1; x < b->n; x++) {
            int ally = x < 0 ? lone : x;
            if ((x < 0) != (lone >= 0) || !xh_assist_ok(b, a, t, ally)) continue;
            cmd_t c = targeted(CMD_ASSIST, a, t);
            c.arg = x < 0 ? 0 : x + 1;
            offer(b, l, c);
        }
        if (xh_grab_ok(b, a, t)) {
            offer(b, l, targeted(CMD_GRAPPLE, a, t));
            for (int push = 0; push < 2; push++)
                /* With a dual strike, a shove may be followed by a strike (weapon2). */
                for (int w2 = -1; w2 < (stat(b, a, XS_DUAL_STRIKE) > 0 ? nw : 0); w2++) {
                    if (w2 >= 0 && (!xhalem_equipped(b, a, w2) ||
                                    !xh_assess(b, a, t, battle_weapon(b, a, w2), false, false).legal))
                        continue;
                    cmd_t c = targeted(CMD_SHOVE, a, t);
                    c.arg = push;
                    c.weapon2 = w2;
                    offer(b, l, c);
                }
        }
    }
    if (holding) return;
    if (s->grappled_by[a]) offer(b, l, cmd_make(CMD_ESCAPE, a));
    if (xh_hide_ok(b, a)) offer(b, l, cmd_make(CMD_HIDE, a));
    offer(b, l, cmd_make(CMD_SEARCH, a));
    if (stat(b, a, XS_CLOAK) > 0 && !has(b, a, XC_CLOAKED)) offer(b, l, cmd_make(CMD_CLOAK, a));
    if (stat(b, a, XS_TELEPORT) > 0 && !immobile(b, a) && !holding_someone(b, a) &&
        xhalem_mount_of(b, a) < 0 && rider_on(b, a) < 0)
        offer(b, l, cmd_make(CMD_TELEPORT, a));
    for (int m = 0; m < b->n; m++)
        if (xh_mount_ok(b, a, m)) offer(b, l, targeted(CMD_MOUNT, a, m));
    if (xhalem_mount_of(b, a) >= 0) offer(b, l, cmd_make(CMD_DISMOUNT, a));
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
            if (xh_standby_ok(b, &c)) offer(b, l, c);
        }
    /* A creature takes up a weapon; a machine also names the one it puts away. */
    for (int w = 0; w < nw; w++)
        for (int away = -1; away < (is_machine(b, a) ? nw : 0); away++)
            if (xh_switch_ok(b, a, w, away)) {
                cmd_t c = cmd_make(CMD_SWITCH, a);
                c.weapon = w;
                c.weapon2 = away;
                offer(b, l, c);
            }
    for (int d = -1; d < HEX_DIRS; d++) {
        cmd_t c = cmd_make(CMD_USE, a);
        c.at = d < 0 ? here : hex_to_cell(b->map->layout, hex_neighbor(pos(b, a), d));
        if (xh_use_result(b, a, c.at) >= 0) offer(b, l, c);
    }
}

int xhalem_legal(battle_t *b, int a, cmd_t *out, int cap)
{
    xh_state_t *s = st(b);
    legal_list_t l = {out, cap, 0, false};
    if (a != s->actor || b->over) return 0;
    offer(b, &l, cmd_make(CMD_END, a));
    /* One move per mode with feet left (a dash only while the action is free). */
    for (int mode = 0; mode < XM_COUNT; mode++) {
        move_cost_t mv;
        if (!xhalem_move_cost(b, a, mode, &mv) || mv.budget_ft <= 0) continue;
        cmd_t c = cmd_make(CMD_MOVE, a);
        c.arg = mode;
        offer(b, &l, c);
    }
    /* Free at any time of the turn: letting go of a hold, taking off or landing. */
    for (int t = 0; t < b->n; t++)
        if (s->grappled_by[t] == a + 1) offer(b, &l, targeted(CMD_RELEASE, a, t));
    for (int up = 1; up >= 0; up--)
        if (xh_fly_ok(b, a, up)) {
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
