/* attack.c - emcore's attacks outside the Immediate phase (hasty and aimed
 * shots, opportunity and readied attacks), the defence each meets (E11),
 * dodging, soak and wounds (E9). */
#include <stdio.h>
#include <string.h>

#include "../../core/trigger.h"
#include "../ruleset.h"
#include "emcore.h"

int em_base_damage(const battle_t *b, int a, const weapon_t *w, em_attack_kind_t kind, bool ranged)
{
    if (kind == EK_HASTY)
        return 0; /* a hasty shot adds no base damage (E12) */
    if (!ranged)
        return b->u[a].stat[ES_MIGHT] + (w ? w->dice_bonus : 0); /* E-R3 */
    if (w && w->cls == WPN_THROWN) {
        int v = 0;
        if (stat_get(w->tags, w->n_tags, "thrown_base", &v))
            return v;
    }
    return w ? w->dice_bonus : 0;
}

em_pool_mode_t em_attack_mode(const battle_t *b, int t, const weapon_t *w, em_attack_kind_t kind,
                              bool ranged)
{
    (void)w;
    if (!ranged)
        return EPOOL_FULL;
    if (kind == EK_HASTY)
        return EPOOL_CRITS1; /* only criticals, one each; cover changes nothing more */
    return (b->u[t].cond & EC_COVER) ? EPOOL_CRITS2 : EPOOL_FULL;
}

int em_known_defence(const battle_t *b, int t, em_attack_kind_t kind, bool ranged, int *fixed)
{
    const em_state_t *s = em_cst(b);
    const unit_t *u = &b->u[t];
    *fixed = 0;
    if (ranged && (u->cond & EC_COVER)) {
        *fixed = s->cover[t];
        return 1;
    }
    if (ranged && (u->cond & EC_EVADING)) {
        *fixed = s->evade[t];
        return 2;
    }
    /* A target of opportunity has lost its guard against the blows it sets
     * off, opportunity strikes and readied attacks alike (E17). */
    bool unguarded = kind == EK_OPPORTUNITY || (kind == EK_READIED && em_too(b, t));
    if (!unguarded && s->imm[t] >= 0) {
        *fixed = s->imm[t];
        return 3;
    }
    return 0;
}

/* The labels of a reaction's two options: let it pass, or take it. */
static const char *const *reaction_labels(const char *kind)
{
    static const char *const DODGE[2] = {"no dodge", "dodge for a point"};
    static const char *const DODGE_WILL[2] = {"no dodge", "dodge for 1 Willpower"};
    static const char *const STRIKE[2] = {"let it pass", "strike for a point"};
    static const char *const STRIKE_WILL[2] = {"let it pass", "strike for 1 Willpower"};
    static const char *const READIED[2] = {"keep holding", "let it go"};
    if (strcmp(kind, "dodge") == 0)
        return DODGE;
    if (strcmp(kind, "dodge_willpower") == 0)
        return DODGE_WILL;
    if (strcmp(kind, "opportunity") == 0)
        return STRIKE;
    if (strcmp(kind, "opportunity_willpower") == 0)
        return STRIKE_WILL;
    return READIED;
}

/* Does r take the reaction: the table's answer when its side decides (it
 * declines everything, or is asked), else the ruleset's policy (em_react,
 * the AI's choice)? */
bool em_take_reaction(battle_t *b, int r, const char *kind, int trigger)
{
    return battle_ask_choice(b, r, kind, trigger, 2, reaction_labels(kind)) != 0;
}

int em_react_policy(const battle_t *b, int r, const react_offer_t *offer)
{
    const char *k = offer->kind ? offer->kind : "";
    bool will = strstr(k, "_willpower") != NULL;
    if (offer->n < 2)
        return 0;
    if (strncmp(k, "dodge", 5) == 0)
        return em_ai_dodge(b, r, offer->trigger, will);
    if (strncmp(k, "opportunity", 11) == 0)
        return em_ai_opportunity(b, r, offer->trigger, will);
    return 1; /* a readied action goes off when its moment comes */
}

void em_emit_reaction(battle_t *b, int r, int trigger, const char *kind)
{
    event_t e = event_make(EV_REACTION);
    e.who = r;
    e.target = trigger;
    hb_strlcpy(e.name, kind, sizeof e.name);
    battle_emit(b, &e);
}

void em_check_out(battle_t *b, int t)
{
    if (!battle_active(b, t) || b->u[t].hp > 0)
        return;
    em_state_t *s = em_st(b);
    s->commit[t] = 0;
    battle_remove(b, t);
    event_t e = event_make(EV_DEFEATED);
    e.who = t;
    battle_emit(b, &e);
}

int em_soak(battle_t *b, int t, int damage, bool defer)
{
    if (damage <= 0 || !battle_active(b, t))
        return 0;
    char why[DICE_WHY_MAX];
    snprintf(why, sizeof why, "soak vs %d", damage);
    em_roll_t r = em_roll(b, t, em_soak_dice(b, t), EPOOL_FULL, why);
    int wounds = damage - r.succ;
    if (wounds < 0)
        wounds = 0;
    unit_t *u = &b->u[t];
    u->hp = u->hp > wounds ? u->hp - wounds : 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = wounds;
    e.hp = u->hp;
    e.soaked = damage - wounds;
    e.opt = EV_OPT_SOAKED;
    hb_strlcpy(e.name, "wounds", sizeof e.name);
    battle_emit(b, &e);
    if (!defer)
        em_check_out(b, t);
    return wounds;
}

void em_emit_attack(battle_t *b, int a, int t, const weapon_t *w, bool hit)
{
    event_t e = event_make(EV_ATTACK);
    e.who = a;
    e.target = t;
    e.hit = hit;
    hb_strlcpy(e.name, w ? w->id : "unarmed", sizeof e.name);
    battle_emit(b, &e);
}

static const char *kind_word(em_attack_kind_t kind)
{
    switch (kind) {
    case EK_FIGHT: return "fight";
    case EK_HASTY: return "hasty shot";
    case EK_COMMITTED: return "aimed shot";
    case EK_OPPORTUNITY: return "opportunity";
    default: return "readied";
    }
}

bool em_offer_dodge(battle_t *b, int t, int a, int wi, em_attack_kind_t kind, bool ranged)
{
    em_state_t *s = em_st(b);
    if (!battle_active(b, t))
        return false;
    bool will = s->points[t] < 1;
    if (will && b->u[t].stat[ES_WILLPOWER] < 1)
        return false;
    const char *k = will ? "dodge_willpower" : "dodge";
    /* What is coming, for the AI to weigh (em_ai_dodge). */
    s->inc_attacker = (short)a;
    s->inc_weapon = (short)wi;
    s->inc_kind = (unsigned char)kind;
    s->inc_ranged = ranged;
    bool take = em_take_reaction(b, t, k, a);
    s->inc_attacker = -1;
    if (!take)
        return false;
    em_emit_reaction(b, t, a, k);
    em_pay(b, t, 1, will); /* after the reaction's line, which tells it */
    return true;
}

bool em_attack(battle_t *b, int a, int t, int wi, em_attack_kind_t kind, bool ranged)
{
    const weapon_t *w = battle_weapon(b, a, wi);
    /* The moment an attack begins is one a readied foe may have waited for;
     * a blow that takes the attacker out ends it there. */
    hex_t at = b->board->pos[a];
    em_ready_check(b, TRIG_ATTACKS, a, t, at, at);
    if (ranged)
        em_ready_check(b, TRIG_ATTACKS_RANGED, a, t, at, at);
    em_ready_check(b, TRIG_TARGETS_SELF, a, t, at, at);
    em_ready_check(b, TRIG_TARGETS_ALLY, a, t, at, at);
    if (!em_able(b, a) || !battle_active(b, t))
        return false;
    int fixed = 0;
    int src = em_known_defence(b, t, kind, ranged, &fixed);
    /* Nothing guards it: it may dodge for a point, or for 1 Willpower when
     * it has none left (E-X1, E19). It chooses before anyone rolls. */
    bool dodge = src == 0 && em_offer_dodge(b, t, a, wi, kind, ranged);
    char why[DICE_WHY_MAX];
    snprintf(why, sizeof why, "%s on %s", kind_word(kind), b->map->combatants[t].id);
    em_pool_mode_t mode = em_attack_mode(b, t, w, kind, ranged);
    em_roll_t att = em_roll(b, a, em_aspect_dice(b, a, em_attack_aspect(w, ranged)), mode, why);
    int def = fixed;
    if (dodge)
        def = em_roll(b, t, em_aspect_dice(b, t, EA_ADEPTNESS), EPOOL_FULL, "dodge").succ;
    bool hit = att.succ > def;
    em_emit_attack(b, a, t, w, hit);
    if (hit) {
        em_soak(b, t, em_base_damage(b, a, w, kind, ranged) + att.succ - def, false);
        em_ready_check(b, TRIG_HIT_SELF, a, t, at, at);
        em_ready_check(b, TRIG_HIT_ALLY, a, t, at, at);
    }
    return hit;
}

/* Has r already made its opportunity attack on t this turn? */
static bool oa_done(const em_state_t *s, int r, int t)
{
    for (int k = 0; k < s->n_oa[r]; k++)
        if (s->oa[r][k] == t)
            return true;
    return false;
}

void em_note_oa(battle_t *b, int r, int t)
{
    em_state_t *s = em_st(b);
    if (s->n_oa[r] < EM_OA_MAX)
        s->oa[r][s->n_oa[r]++] = (short)t;
}

bool em_oa_open(const battle_t *b, int r, int t)
{
    const em_state_t *s = em_cst(b);
    return !oa_done(s, r, t) && s->n_oa[r] < EM_OA_MAX;
}

int em_best_melee(const battle_t *b, int r, int t)
{
    int best = -2, bonus = -1000;
    for (int w = -1; w < b->u[r].n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, r, w);
        if ((w >= 0 && !em_is_melee(wp)) || !em_melee_reaches(b, r, t, wp))
            continue;
        int v = wp ? wp->dice_bonus : 0;
        if (v > bonus) {
            bonus = v;
            best = w;
        }
    }
    return best;
}

void em_offer_opportunity(battle_t *b, int i, hex_t from, bool fresh)
{
    em_state_t *s = em_st(b);
    for (int r = 0; r < b->n && em_too(b, i); r++) {
        if (r == i || !em_enemies(b, r, i) || !em_able(b, r) || !em_oa_open(b, r, i))
            continue;
        int wi = em_best_melee(b, r, i);
        if (wi < -1)
            continue;
        /* Only when it comes within reach: a foe it was already next to has
         * had its chance (unless it has only now become a target). */
        if (!fresh && em_threatens(b, r, from))
            continue;
        bool will = s->points[r] < 1;
        if (will && b->u[r].stat[ES_WILLPOWER] < 1)
            continue;
        if (!em_take_reaction(b, r, will ? "opportunity_willpower" : "opportunity", i))
            continue;
        em_pay(b, r, 1, will);
        em_note_oa(b, r, i);
        em_emit_reaction(b, r, i, will ? "opportunity_willpower" : "opportunity");
        em_attack(b, r, i, wi, EK_OPPORTUNITY, false);
    }
}
