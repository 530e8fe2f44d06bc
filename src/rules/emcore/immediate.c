/* immediate.c - emcore's Immediate phase: who is engaged, the hidden
 * declarations, and the engagements resolved together (E6-E10). */
#include <stdio.h>
#include <string.h>

#include "emcore.h"

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }

/* Are i and j engaged with each other (E6)? */
static bool engaged_pair(const battle_t *b, int i, int j)
{
    return i != j && em_enemies(b, i, j) && em_able(b, i) && em_able(b, j) &&
           (em_threatens(b, i, pos(b, j)) || em_threatens(b, j, pos(b, i)));
}

static int find_root(short *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

void em_find_groups(battle_t *b)
{
    em_state_t *s = em_st(b);
    short parent[MAP_MAX_COMBATANTS];
    bool linked[MAP_MAX_COMBATANTS];
    for (int i = 0; i < b->n; i++) {
        parent[i] = (short)i;
        linked[i] = false;
    }
    /* A group is every character joined by a chain of engaged pairs. */
    for (int i = 0; i < b->n; i++)
        for (int j = i + 1; j < b->n; j++)
            if (engaged_pair(b, i, j)) {
                linked[i] = linked[j] = true;
                int ri = find_root(parent, i), rj = find_root(parent, j);
                if (ri != rj)
                    parent[ri > rj ? ri : rj] = (short)(ri < rj ? ri : rj);
            }
    for (int i = 0; i < b->n; i++)
        s->group[i] = (short)(linked[i] ? find_root(parent, i) + 1 : 0);
}

bool em_participant(const battle_t *b, int i)
{
    const em_state_t *s = em_cst(b);
    return s->phase == EP_IMMEDIATE && i >= 0 && i < b->n && s->group[i] > 0 && battle_active(b, i);
}

int em_legal_declare(battle_t *b, int a, cmd_t *out, int cap)
{
    int n = 0;
    const unit_t *u = &b->u[a];
    /* Fight a foe in its own reach with each melee weapon (bare hands only
     * when it carries none); guard only; or disengage. */
    for (int w = em_melee_from(b, a); w < u->n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        if (w >= 0 && !em_is_melee(wp))
            continue;
        for (int t = 0; t < b->n; t++) {
            if (!battle_active(b, t) || !em_enemies(b, a, t) || !em_melee_reaches(b, a, t, wp))
                continue;
            cmd_t c = cmd_make(CMD_DECLARE, a);
            c.act = CMD_ENGAGE;
            c.target = t;
            c.weapon = w;
            em_add_cmd(out, cap, &n, c);
        }
    }
    cmd_t g = cmd_make(CMD_DECLARE, a);
    g.act = CMD_ENGAGE;
    g.arg = 1; /* guard only: the roll defends, nobody is attacked */
    em_add_cmd(out, cap, &n, g);
    cmd_t d = cmd_make(CMD_DECLARE, a);
    d.act = CMD_DISENGAGE;
    em_add_cmd(out, cap, &n, d);
    return n;
}

battle_status_t em_declare(battle_t *b, const cmd_t *c)
{
    em_state_t *s = em_st(b);
    int a = c->actor;
    if (c->kind != CMD_DECLARE || !em_participant(b, a) || s->decl[a].set)
        return BATTLE_ILLEGAL;
    if (c->act != CMD_ENGAGE && c->act != CMD_DISENGAGE)
        return BATTLE_ILLEGAL;
    int t = -1, w = -1;
    if (c->act == CMD_ENGAGE && c->target >= 0) {
        t = c->target;
        w = c->weapon;
        if (t >= b->n || !battle_active(b, t) || !em_enemies(b, a, t))
            return BATTLE_ILLEGAL;
        if (w < -1 || w >= b->u[a].n_weapons)
            return BATTLE_ILLEGAL;
        const weapon_t *wp = battle_weapon(b, a, w);
        if (!em_melee_reaches(b, a, t, wp))
            return BATTLE_ILLEGAL;
    } else if (c->act == CMD_ENGAGE) {
        w = c->weapon >= 0 && c->weapon < b->u[a].n_weapons ? c->weapon : -1;
    }
    em_decl_t *d = &s->decl[a];
    d->set = 1;
    d->act = (unsigned char)c->act;
    d->target = (short)t;
    d->weapon = (short)w;
    /* Fighting or breaking off takes all but one point (E-A1). Nothing is
     * told yet: the declaration shows only when the phase resolves (E7). */
    em_pay(b, a, em_full_less_one(b, a), false);
    s->deeds[a] |= ED_IMMEDIATE;
    for (int i = 0; i < b->n; i++)
        if (em_participant(b, i) && !s->decl[i].set)
            return BATTLE_OK;
    em_resolve_immediate(b);
    em_after_immediate(b);
    return BATTLE_OK;
}

static const char *decl_name(const em_decl_t *d)
{
    if (d->act == CMD_DISENGAGE)
        return "disengage";
    return d->target >= 0 ? "fight" : "guard";
}

void em_resolve_immediate(battle_t *b)
{
    em_state_t *s = em_st(b);
    int succ[MAP_MAX_COMBATANTS];
    bool dodge[MAP_MAX_COMBATANTS]; /* by attacker: its target dodges it */
    bool any = false;
    for (int i = 0; i < b->n; i++)
        any = any || (em_participant(b, i) && s->decl[i].set);
    if (!any)
        return;
    /* The declarations come out together, then everyone rolls, in map order. */
    for (int i = 0; i < b->n; i++) {
        if (!em_participant(b, i))
            continue;
        event_t e = event_make(EV_DECLARE);
        e.who = i;
        e.target = s->decl[i].target;
        hb_strlcpy(e.name, decl_name(&s->decl[i]), sizeof e.name);
        battle_emit(b, &e);
    }
    /* A foe attacked who rolls nothing here (lying prone) is guarded by
     * nothing: once the attacks are known, and before anyone rolls, it may
     * dodge each, as any attacked character may (E17, E-X1). */
    for (int a = 0; a < b->n; a++) {
        const em_decl_t *d = &s->decl[a];
        dodge[a] = false;
        if (em_participant(b, a) && d->act == CMD_ENGAGE && d->target >= 0 &&
            !em_participant(b, d->target))
            dodge[a] = em_offer_dodge(b, d->target, a, d->weapon, EK_FIGHT, false);
    }
    for (int i = 0; i < b->n; i++) {
        succ[i] = 0;
        if (!em_participant(b, i))
            continue;
        const em_decl_t *d = &s->decl[i];
        char why[DICE_WHY_MAX];
        if (d->act == CMD_DISENGAGE) {
            succ[i] = em_roll(b, i, em_aspect_dice(b, i, EA_ADEPTNESS), EPOOL_FULL, "disengage").succ;
            /* The text's "evasion action": its Evasion for the turn (E10). */
            s->evade[i] = (signed char)(succ[i] > 127 ? 127 : succ[i]);
            em_set_cond(b, i, EC_EVADING, true);
            continue;
        }
        const weapon_t *w = battle_weapon(b, i, d->weapon);
        if (d->target >= 0)
            snprintf(why, sizeof why, "fight on %s", b->map->combatants[d->target].id);
        else
            snprintf(why, sizeof why, "guard");
        succ[i] = em_roll(b, i, em_aspect_dice(b, i, em_weapon_aspect(w)), EPOOL_FULL, why).succ;
        s->imm[i] = (signed char)(succ[i] > 127 ? 127 : succ[i]); /* guarded for the turn */
    }
    /* Each declared attack against the target's one roll: more successes
     * wins, ties do nothing; everyone's roll is its defence against all (E8). */
    for (int a = 0; a < b->n; a++) {
        const em_decl_t *d = &s->decl[a];
        if (!em_participant(b, a) || d->act != CMD_ENGAGE || d->target < 0)
            continue;
        int t = d->target;
        int def = em_participant(b, t) ? succ[t] : 0; /* a foe lying prone does not roll */
        if (dodge[a])
            def = em_roll(b, t, em_aspect_dice(b, t, EA_ADEPTNESS), EPOOL_FULL, "dodge").succ;
        bool hit = succ[a] > def;
        const weapon_t *w = battle_weapon(b, a, d->weapon);
        em_emit_attack(b, a, t, w, hit);
        if (hit && b->u[t].hp > 0)
            em_soak(b, t, em_base_damage(b, a, w, EK_FIGHT, false) + succ[a] - def, true);
    }
    /* Breaking off needs one success (E10). */
    for (int i = 0; i < b->n; i++) {
        if (!em_participant(b, i) || s->decl[i].act != CMD_DISENGAGE)
            continue;
        bool ok = succ[i] >= 1;
        s->free_of[i] = ok;
        battle_emit_action(b, i, "disengage", -1, ok);
    }
    /* Simultaneous: the fallen drop only once every blow has landed. */
    for (int i = 0; i < b->n; i++)
        em_check_out(b, i);
    em_update_engaged(b);
}
