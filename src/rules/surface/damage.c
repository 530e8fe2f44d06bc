/* damage.c - Surface Combat defences and their tracks: the martial guard,
 * soak dice (the defender's choice), armour HP, HP and nonlethal damage,
 * heat with its venting and its damage, and casualties.
 * See docs/rules-surface.md (S12-S18, S32, S33).
 */
#include <stdio.h>
#include <string.h>

#include "surface.h"

void sf_add_heat(battle_t *b, int i, int amount)
{
    if (amount <= 0 || !battle_active(b, i)) return;
    b->u[i].stat[SF_HEAT] += amount;
    sf_emit_stat(b, i, SF_HEAT, b->u[i].stat[SF_HEAT] - amount);
}

void sf_casualty(battle_t *b, int i, const char *cond)
{
    if (!battle_active(b, i)) return;
    if (cond) {
        b->u[i].cond |= strcmp(cond, "stunned") == 0 ? SFC_STUNNED : SFC_SUBDUED;
        battle_emit_condition(b, i, cond, true);
    }
    sf_st(b)->casualty[b->board->side[i]] = 1; /* the faction checks morale (S19) */
    event_t e = event_make(EV_DEFEATED);
    e.who = i;
    battle_emit(b, &e);
    battle_remove(b, i);
}

/* ---- soak ------------------------------------------------------------------- */

static bool has_soak(const battle_t *b, int t)
{
    return (sf_stat(b, t, SF_SOAK_N) > 0 && sf_stat(b, t, SF_SOAK_D) > 0) ||
           (sf_stat(b, t, SF_SOAK2_N) > 0 && sf_stat(b, t, SF_SOAK2_D) > 0);
}

int sf_soak_heat(const battle_t *b, int t)
{
    int h = 0;
    if (sf_stat(b, t, SF_SOAK_D) > 0) h += sf_stat(b, t, SF_SOAK_N) * sf_stat(b, t, SF_SOAK_HEAT);
    if (sf_stat(b, t, SF_SOAK2_D) > 0) h += sf_stat(b, t, SF_SOAK2_N) * sf_stat(b, t, SF_SOAK2_HEAT);
    return h > 0 ? h : 0;
}

double sf_soak_mean(const battle_t *b, int t)
{
    double m = 0.0;
    for (int k = 0; k < 2; k++) {
        int n = sf_stat(b, t, k ? SF_SOAK2_N : SF_SOAK_N), d = sf_stat(b, t, k ? SF_SOAK2_D : SF_SOAK_D);
        if (n > 0 && d > 0) m += n * (d + 1) / 2.0;
    }
    return m;
}

bool sf_soak_pays(const battle_t *b, int t, int amount)
{
    if (amount <= 0 || !has_soak(b, t)) return false;
    sf_def_t d;
    sf_def_init(b, t, &d);
    return sf_def_soaks(&d, amount);
}

/* Does t throw its soak dice at this packet: the table's answer when its
 * side is asked, nothing when it declines every reaction, else the policy
 * (which weighs this very amount, so it is applied here). */
static bool take_soak(battle_t *b, int t, int from, int amount)
{
    char heat[REACT_LABEL_MAX];
    snprintf(heat, sizeof heat, "roll soak dice (+%d heat)", sf_soak_heat(b, t));
    const char *const labels[2] = {"take the hit", heat};
    int k = battle_table_choice(b, t, "soak", from, 2, labels);
    return k < 0 ? sf_soak_pays(b, t, amount) : k == 1;
}

static int roll_soak(battle_t *b, int t)
{
    int total = 0;
    for (int k = 0; k < 2; k++) {
        int n = sf_stat(b, t, k ? SF_SOAK2_N : SF_SOAK_N), d = sf_stat(b, t, k ? SF_SOAK2_D : SF_SOAK_D);
        if (n <= 0 || d <= 0) continue;
        total += battle_roll(b, t, n, d, 0, 0, k ? "soak, second shield" : "soak", NULL);
    }
    return total;
}

/* ---- taking damage --------------------------------------------------------------- */

/* A damage event: what reached HP (or the nonlethal track; `kind` says which,
 * "heat" for heat damage), the HP left, and what soak (the martial guard
 * included) and armour took off when they took part. */
static void emit_damage(battle_t *b, int t, int amount, const char *kind, int soaked, int armor,
                        unsigned opt)
{
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = b->u[t].hp;
    e.opt = opt;
    e.soaked = soaked;
    e.armor = armor;
    hb_strlcpy(e.name, kind, sizeof e.name);
    battle_emit(b, &e);
}

void sf_take(battle_t *b, int t, int from, int amount, bool nonlethal, int heat_hit,
             const char *weapon)
{
    (void)weapon;
    if (!battle_active(b, t)) return;
    sf_unit_t *su = &sf_st(b)->u[t];
    unit_t *u = &b->u[t];
    int left = amount > 0 ? amount : 0, soaked = 0, armor = 0;
    unsigned opt = 0;
    /* A martial guard soaks until its owner's next turn (S33). */
    if (left > 0 && su->guard > 0) {
        int g = battle_roll(b, t, 1, su->guard, 0, 0, "martial guard", NULL);
        g = g < left ? g : left;
        soaked += g;
        left -= g;
        opt |= EV_OPT_SOAKED;
    }
    /* Soak: all of the defender's dice or none, its choice (S13). */
    if (left > 0 && has_soak(b, t) && take_soak(b, t, from, left) && !sf_halted(b)) {
        event_t e = event_make(EV_REACTION);
        e.who = t;
        e.target = from;
        hb_strlcpy(e.name, "soak", sizeof e.name);
        battle_emit(b, &e);
        int k = roll_soak(b, t);
        k = k < left ? k : left;
        soaked += k;
        left -= k;
        opt |= EV_OPT_SOAKED;
        sf_add_heat(b, t, sf_soak_heat(b, t));
    }
    /* Armour HP takes what is left, and is spent for the battle (S14). */
    if (left > 0 && u->stat[SF_ARMOR] > 0) {
        armor = left < u->stat[SF_ARMOR] ? left : u->stat[SF_ARMOR];
        u->stat[SF_ARMOR] -= armor;
        left -= armor;
        opt |= EV_OPT_ARMOR;
        sf_emit_stat(b, t, SF_ARMOR, u->stat[SF_ARMOR] + armor);
    }
    if (nonlethal) {
        /* Kept apart from HP; at the HP maximum, a Save vs. Stun (S-D10). */
        u->stat[SF_NONLETHAL] += left;
        if (left > 0) sf_emit_stat(b, t, SF_NONLETHAL, u->stat[SF_NONLETHAL] - left);
        emit_damage(b, t, left, "nonlethal", soaked, armor, opt);
        if (left > 0 && u->stat[SF_NONLETHAL] >= u->hp_max) {
            bool ok = sf_save(b, t, SF_SAVE_STUN, "save vs. stun");
            sf_casualty(b, t, ok ? "subdued" : "stunned");
        }
    } else {
        u->hp = u->hp > left ? u->hp - left : 0; /* below 0 is ignored (S18) */
        emit_damage(b, t, left, "", soaked, armor, opt);
        if (u->hp == 0) sf_casualty(b, t, NULL);
    }
    if (heat_hit > 0) sf_add_heat(b, t, heat_hit);
}

void sf_vent(battle_t *b, int i)
{
    unit_t *u = &b->u[i];
    int vent = u->stat[SF_VENT];
    if (u->stat[SF_HEAT] <= 0) return;
    if (vent > 0) {
        int was = u->stat[SF_HEAT];
        u->stat[SF_HEAT] = was > vent ? was - vent : 0;
        battle_emit_action(b, i, "vent", -1, true); /* the line the drop is told on */
        sf_emit_stat(b, i, SF_HEAT, was);
    }
    /* A d6 per point left: 1 and 2 hurt by their face, a 6 sheds the point (S-D9). */
    int n = u->stat[SF_HEAT], hurt = 0, cool = 0;
    for (int done = 0; done < n && !sf_halted(b);) {
        int k = n - done < EV_MAX_DICE ? n - done : EV_MAX_DICE;
        event_t e;
        battle_roll(b, i, k, 6, 0, 0, "heat", &e);
        for (int d = 0; d < e.n_dice; d++) {
            if (e.dice[d] <= 2) hurt += e.dice[d];
            if (e.dice[d] == 6) cool++;
        }
        done += k;
    }
    if (cool > 0) {
        u->stat[SF_HEAT] -= cool;
        sf_emit_stat(b, i, SF_HEAT, u->stat[SF_HEAT] + cool);
    }
    if (hurt > 0) {
        /* Inside the armour: no soak, no armour HP (S16). */
        u->hp = u->hp > hurt ? u->hp - hurt : 0;
        emit_damage(b, i, hurt, "heat", 0, 0, 0);
        if (u->hp == 0) sf_casualty(b, i, NULL);
    }
}
