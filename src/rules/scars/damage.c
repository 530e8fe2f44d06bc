/* damage.c - scars: damage to HP and then STR, saves, ability loss and the
 * scars table (docs/rules-scars.md, "Damage, zero and below"). */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

void sc_defeat(battle_t *b, int i)
{
    battle_remove(b, i);
    event_t e = event_make(EV_DEFEATED);
    e.who = i;
    battle_emit(b, &e);
}

/* Helpless: still on the map and still a target (enhanced), but it never acts
 * again and no longer counts for its side. A second blow of the same kind
 * changes nothing more (only STR loss can still kill). */
void sc_incapacitate(battle_t *b, int i, unsigned bit, const char *name)
{
    if (b->u[i].cond & bit)
        return;
    b->u[i].cond |= bit;
    battle_emit_condition(b, i, name, true);
}

/* A save: d20 at or under the score passes. */
bool sc_save(battle_t *b, int i, int slot, const char *why)
{
    int r = battle_roll(b, i, 1, 20, 0, 0, why, NULL);
    return r <= b->u[i].stat[slot];
}

void scars_lose_ability(battle_t *b, int t, int slot, int amount)
{
    unit_t *u = &b->u[t];
    int was = u->stat[slot];
    u->stat[slot] -= amount;
    if (u->stat[slot] < 0)
        u->stat[slot] = 0;
    battle_emit_change(b, t, SCARS_STAT_NAMES[slot], was, u->stat[slot]);
    if (u->stat[slot] > 0 || u->out)
        return;
    if (slot == SS_STR)
        sc_defeat(b, t); /* STR 0 is death (a detachment destroyed) */
    else if (slot == SS_DEX)
        sc_incapacitate(b, t, SC_PARALYZED, "paralyzed");
    else if (slot == SS_WIL)
        sc_incapacitate(b, t, SC_DELIRIOUS, "delirious");
}

/* A new maximum HP (the scars table's "take the new result"). */
static void set_max_hp(battle_t *b, int t, int v)
{
    int was = b->u[t].hp_max;
    b->u[t].hp_max = v;
    battle_emit_change(b, t, "max_hp", was, v);
}

/* A new maximum for ability SLOT; the score itself is raised with it when
 * raise_current (a head wound reshapes the current score). */
static void set_ability(battle_t *b, int t, int slot, int v, bool raise_current)
{
    char name[EV_NAME_MAX];
    unit_t *u = &b->u[t];
    if (v > u->stat_max[slot]) {
        int was = u->stat_max[slot];
        u->stat_max[slot] = v;
        snprintf(name, sizeof name, "max_%s", SCARS_STAT_NAMES[slot]);
        battle_emit_change(b, t, name, was, v);
    }
    if (raise_current && v > u->stat[slot]) {
        int was = u->stat[slot];
        u->stat[slot] = v;
        battle_emit_change(b, t, SCARS_STAT_NAMES[slot], was, v);
    }
}

/* Roll n d`sides` for a scar of t; the total. */
static int scar_roll(battle_t *b, int t, int n, int sides, const char *why)
{
    return battle_roll(b, t, n, sides, 0, 0, why, NULL);
}

/* "Roll XdY. If the total is higher than your max HP, take the new result." */
static void scar_max_hp(battle_t *b, int t, int n, int sides)
{
    int r = scar_roll(b, t, n, sides, "scar: max HP");
    if (r > b->u[t].hp_max)
        set_max_hp(b, t, r);
}

/* The scars table, for a PC left at exactly 0 HP by an attack that dealt
 * `damage` (after armor): rows 1 to 12, 12 or more reading row 12 (RULINGS).
 * The scar's own dice are rolled at once, and its effect on max HP, max WIL
 * or an ability applies at once. */
static void scar(battle_t *b, int t, int damage)
{
    static const char *const NAMES[13] = {
        "", "lasting_scar", "rattling_blow", "walloped", "broken_limb", "diseased",
        "reorienting_head_wound", "hamstrung", "deafened", "re_brained", "sundered",
        "mortal_wound", "doomed",
    };
    int row = damage < 1 ? 1 : damage > 12 ? 12 : damage;
    unit_t *u = &b->u[t];
    char name[EV_NAME_MAX];
    snprintf(name, sizeof name, "scar:%s", NAMES[row]);
    battle_emit_condition(b, t, name, true);
    switch (row) {
    case 1: /* where the scar sits (1d6), or which limb broke (1d6); then a new */
    case 2: /* max HP if higher: 1d6 (scar, rattling blow) or 2d6 (limb, disease) */
    case 4:
    case 5:
        if (row == 1 || row == 4)
            scar_roll(b, t, 1, 6, row == 1 ? "scar location" : "broken limb");
        scar_max_hp(b, t, row <= 2 ? 1 : 2, 6);
        break;
    case 3: /* flat on its face: deprived, and 1d6 more max HP */
        u->cond |= SC_DEPRIVED;
        battle_emit_condition(b, t, "deprived", true);
        set_max_hp(b, t, u->hp_max + scar_roll(b, t, 1, 6, "scar: max HP"));
        break;
    case 6: { /* 1-2 STR, 3-4 DEX, 5-6 WIL: 3d6 replaces the score if higher */
        int which = scar_roll(b, t, 1, 6, "head wound ability");
        int slot = which <= 2 ? SS_STR : which <= 4 ? SS_DEX : SS_WIL;
        set_ability(b, t, slot, scar_roll(b, t, 3, 6, "scar: ability"), true);
        break;
    }
    case 7:
        u->cond |= SC_HAMSTRUNG;
        battle_emit_condition(b, t, "hamstrung", true);
        set_ability(b, t, SS_DEX, scar_roll(b, t, 3, 6, "scar: max DEX"), false);
        break;
    case 8:
    case 10: /* a passed WIL save raises max WIL by 1d4 (deafened) or 1d6 (sundered) */
        if (sc_save(b, t, SS_WIL, "WIL save"))
            set_ability(b, t, SS_WIL,
                        u->stat_max[SS_WIL] + scar_roll(b, t, 1, row == 8 ? 4 : 6, "scar: max WIL"),
                        false);
        break;
    case 9:
        set_ability(b, t, SS_WIL, scar_roll(b, t, 3, 6, "scar: max WIL"), false);
        break;
    case 11: /* out of action; 2d6 becomes max HP, whatever it is */
        u->cond |= SC_DEPRIVED;
        sc_incapacitate(b, t, SC_MORTAL, "mortal_wound");
        set_max_hp(b, t, scar_roll(b, t, 2, 6, "scar: max HP"));
        break;
    case 12:
        u->cond |= SC_DOOMED;
        break;
    default:
        break;
    }
}

void scars_damage(battle_t *b, int t, int amount)
{
    unit_t *u = &b->u[t];
    if (amount < 0)
        amount = 0;
    int before = u->hp;
    int left = u->hp - amount;
    u->hp = left > 0 ? left : 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = u->hp;
    battle_emit(b, &e);
    if (amount == 0)
        return;
    if (left == 0 && before > 0) {
        if (map_faction_is_player(b->map, b->map->combatants[t].faction) && !sc_detachment(b, t))
            scar(b, t, amount);
        return;
    }
    if (left >= 0)
        return;
    /* Past zero: the rest comes off STR, then a STR save against critical damage. */
    scars_lose_ability(b, t, SS_STR, -left);
    if (!battle_active(b, t))
        return;
    bool passed = sc_save(b, t, SS_STR, "STR save");
    if (u->cond & SC_DOOMED) {
        /* Doom ends at this save, pass or fail: death on a fail; on a pass,
         * 3d6 as a new max HP if higher. */
        u->cond &= ~(unsigned)SC_DOOMED;
        if (!passed) {
            battle_emit_condition(b, t, "doomed", true);
            sc_defeat(b, t);
            return;
        }
        battle_emit_condition(b, t, "doomed", false);
        scar_max_hp(b, t, 3, 6);
        return;
    }
    if (passed)
        return;
    if (sc_detachment(b, t) && sc_cst(b)->weaken[t] && !(u->cond & SC_WEAKENED)) {
        /* The referee's call: significantly weakened rather than routed. It
         * fights on without a detachment's edge over individuals; the next
         * critical damage routs it. */
        u->cond |= SC_WEAKENED;
        battle_emit_condition(b, t, "weakened", true);
    } else if (sc_detachment(b, t)) {
        battle_emit_condition(b, t, "routed", true);
        sc_defeat(b, t);
    } else if (map_faction_is_player(b->map, b->map->combatants[t].faction)) {
        sc_incapacitate(b, t, SC_CRITICAL, "critical");
    } else {
        battle_emit_condition(b, t, "critical", true);
        sc_defeat(b, t);
    }
}
