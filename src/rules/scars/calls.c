/* calls.c - scars: the calls the text leaves to the referee (issue 22).
 *
 * Each is a command like any other, so undo, saves and replays keep it, and
 * none of them takes the combatant's declaration: a save called on a risky
 * action, a mark that impairs or enhances an attack (bound hands, a daring
 * manoeuvre), telegraphing what the NPCs will most likely do before the
 * players declare, and whether a detachment's critical damage routs it or
 * leaves it significantly weakened. Aid to a crawling ally is a declared
 * action (CMD_STABILIZE, resolved in attack.c). docs/rules-scars.md,
 * "The referee's calls".
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

static const char *name_of(const battle_t *b, int i)
{
    const map_combatant_t *c = &b->map->combatants[i];
    return c->name[0] ? c->name : c->id;
}

/* The telegraph of a's likely command c: an action event naming it. */
static void telegraph_one(battle_t *b, int a)
{
    cmd_t c;
    scars_intent(b, a, &c);
    const char *what = "telegraph_hold";
    if (c.kind == CMD_DECLARE && c.act == CMD_ENGAGE)
        what = "telegraph_attack";
    else if (c.kind == CMD_DECLARE && c.act == CMD_MOVE)
        what = "telegraph_second_move";
    else if (c.kind == CMD_DECLARE && c.act == CMD_RETREAT)
        what = "telegraph_retreat";
    else if (c.n_path > 0)
        what = "telegraph_move";
    /* The action event, with the hex it means to end its move on (the
     * projector marks it where the players can see it). */
    event_t e = event_make(EV_ACTION);
    e.who = a;
    e.target = c.kind == CMD_DECLARE && c.act == CMD_ENGAGE ? c.target : -1;
    e.hit = true;
    if (c.n_path > 0) {
        e.opt |= EV_OPT_AT;
        e.to = c.path[c.n_path - 1];
    }
    hb_strlcpy(e.name, what, sizeof e.name);
    battle_emit(b, &e);
}

battle_status_t sc_apply_call(battle_t *b, const cmd_t *c)
{
    sc_state_t *s = sc_st(b);
    int a = c->actor;
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a))
        return BATTLE_ILLEGAL;
    switch (c->kind) {
    case CMD_SAVE: {
        static const char *const WHY[3] = {"STR save (called)", "DEX save (called)",
                                           "WIL save (called)"};
        static const char *const WHAT[3] = {"save_str", "save_dex", "save_wil"};
        if (c->arg < SS_STR || c->arg > SS_WIL)
            return BATTLE_ILLEGAL;
        bool ok = sc_save(b, a, c->arg, WHY[c->arg]);
        battle_emit_action(b, a, WHAT[c->arg], -1, ok);
        return BATTLE_OK;
    }
    case CMD_MARK: {
        static const char *const WHAT[4] = {"mark_cleared", "mark_impaired", "mark_enhanced",
                                            "mark_both"};
        if (c->arg < 0 || c->arg > (SC_MARK_IMPAIRED | SC_MARK_ENHANCED))
            return BATTLE_ILLEGAL;
        sc_decl_t *d = &s->decl[a];
        /* An attack declared in the phase now open takes the mark; otherwise
         * the next attack a declares does. */
        if (d->set && d->act == CMD_ENGAGE)
            d->marks = (unsigned char)c->arg;
        else
            s->marks[a] = (unsigned char)c->arg;
        battle_emit_action(b, a, WHAT[c->arg], -1, true);
        return BATTLE_OK;
    }
    case CMD_TELEGRAPH:
        if (s->player[a] || (c->arg != 0 && c->arg != 1))
            return BATTLE_ILLEGAL;
        for (int j = 0; j < b->n; j++)
            if (j == a || (c->arg == 1 && !s->player[j] && !sc_enemies(b, a, j) && sc_can_act(b, j)))
                telegraph_one(b, j);
        return BATTLE_OK;
    case CMD_WEAKEN:
        if (!sc_detachment(b, a) || (c->arg != 0 && c->arg != 1))
            return BATTLE_ILLEGAL;
        s->weaken[a] = (unsigned char)c->arg;
        battle_emit_action(b, a, c->arg ? "critical_weakens" : "critical_routs", -1, true);
        return BATTLE_OK;
    default:
        return BATTLE_ILLEGAL;
    }
}

bool sc_is_call(cmd_kind_t k)
{
    return k == CMD_SAVE || k == CMD_MARK || k == CMD_TELEGRAPH || k == CMD_WEAKEN;
}

static void add(ref_call_t *out, int cap, int *n, cmd_t c, const char *fmt, const char *who,
                const char *more)
{
    if (*n < cap) {
        out[*n].cmd = c;
        snprintf(out[*n].label, sizeof out[*n].label, fmt, who, more);
    }
    (*n)++;
}

int sc_calls(battle_t *b, int who, ref_call_t *out, int cap)
{
    const sc_state_t *s = sc_cst(b);
    int n = 0;
    if (b->over || who < 0 || who >= b->n || !battle_active(b, who))
        return 0;
    char nm[41]; /* a name as long as a label can hold */
    hb_strlcpy(nm, name_of(b, who), sizeof nm);
    static const char *const ABILITY[3] = {"STR", "DEX", "WIL"};
    for (int slot = SS_STR; slot <= SS_WIL; slot++) {
        cmd_t c = cmd_make(CMD_SAVE, who);
        c.arg = slot;
        add(out, cap, &n, c, "%s: call a %s save", nm, ABILITY[slot]);
    }
    if (scars_fighting(b, who)) {
        unsigned now = s->decl[who].set && s->decl[who].act == CMD_ENGAGE ? s->decl[who].marks
                                                                           : s->marks[who];
        static const char *const MARK[3] = {"", "impaired (weakness)", "enhanced (advantage)"};
        for (int m = SC_MARK_IMPAIRED; m <= SC_MARK_ENHANCED; m++) {
            if (now == (unsigned)m)
                continue;
            cmd_t c = cmd_make(CMD_MARK, who);
            c.arg = m;
            add(out, cap, &n, c, "%s: attack %s", nm, MARK[m]);
        }
        if (now) {
            cmd_t c = cmd_make(CMD_MARK, who);
            add(out, cap, &n, c, "%s: attack %sunmarked", nm, "");
        }
    }
    if (!s->player[who] && sc_can_act(b, who)) {
        cmd_t one = cmd_make(CMD_TELEGRAPH, who), all = one;
        all.arg = 1;
        add(out, cap, &n, one, "%s: telegraph its move%s", nm, "");
        add(out, cap, &n, all, "%s and its side: telegraph every move%s", nm, "");
    }
    if (sc_detachment(b, who)) {
        cmd_t c = cmd_make(CMD_WEAKEN, who);
        c.arg = !s->weaken[who];
        add(out, cap, &n, c, "%s: critical damage %s", nm,
            c.arg ? "weakens it (not routed)" : "routs it");
    }
    return n;
}
