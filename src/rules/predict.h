/* predict.h - what an attack is likely to do, computed from the rules without
 * rolling a die: the chance to hit and the expected damage. Each ruleset
 * answers through its predict hook (ruleset.h), from the code its apply
 * resolves the attack with; the helpers here turn a roll's shape into odds.
 *
 * Kept apart from carrying the attack out (as Wesnoth keeps its
 * battle_context::simulate), so the screen can show odds before the referee
 * confirms. Reads the battle only.
 */
#ifndef HB_PREDICT_H
#define HB_PREDICT_H

#include <stdbool.h>

#include "../core/battle.h"

typedef struct {
    bool valid;          /* the ruleset can predict this attack, and it may be made */
    double p_hit;        /* 0..1 */
    double dmg_hit;      /* mean damage when it hits */
    double dmg_expected; /* p_hit * dmg_hit */
    int atk_n, atk_keep; /* attack roll shape: n d20, keep (1 high, -1 low, 0 all) */
    int atk_bonus;
    int def_n, def_keep; /* evasion roll shape; def_n 0 when the target cannot evade */
    int def_bonus;
    int dmg_n, dmg_sides, dmg_bonus; /* damage roll on a hit: n d sides + bonus */
    bool beyond;                     /* past the weapon's range: half damage */
    bool naturals;                   /* a natural 1 misses and a natural 20 hits */
    /* The roll in words, for the screen: "d20+5 vs 20, 3 shots", "6 dice vs
     * 4", "72% (stage +1)". Empty when the ruleset says nothing more. */
    char detail[64];
} predict_t;

/* Probability that a roll of an d20 keeping akeep plus abonus beats (strictly)
 * a roll of dn d20 keeping dkeep plus dbonus (dn 0: a flat dbonus); with
 * naturals, the attacker's kept 1 always misses and kept 20 always hits. */
double predict_d20_beats(int an, int akeep, int abonus, int dn, int dkeep, int dbonus,
                         bool naturals);
/* Probability that n d20 keeping keep (1 highest, -1 lowest, 0 one die) show face k. */
double predict_kept_face(int n, int keep, int k);
/* Mean of n dice of `sides` plus bonus, each total floored at 0 and halved
 * (rounded down) when half is set. */
double predict_damage_mean(int n, int sides, int bonus, bool half);
/* The odds of command c in battle b as it stands, from the ruleset's
 * predict hook (ruleset.h). False (out zeroed) when the ruleset has no hook,
 * c is no attack it predicts, or the attack cannot be made. */
bool predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out);
/* The same for a plain attack: a engages t with weapon w (-1 unarmed). */
bool predict_engage(const battle_t *b, int a, int t, int w, predict_t *out);

#endif
