/* ready.c - emcore's readied actions (E18): a blow, a shot or spell, or a
 * move prepared for the whole Movement score, to go off once, free, when its
 * trigger (core/trigger.h) comes at any time during the next turn: a deed of
 * an enemy, or a chosen moment (the round begins, an enemy's turn begins). */
#include <stdio.h>
#include <string.h>

#include "../../core/trigger.h"
#include "emcore.h"

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }

bool em_trigger_supported(int trig)
{
    /* Declarations are hidden until they resolve: nothing to wait for. */
    return (trig >= 0 && trig < TRIG_COUNT && trig != TRIG_DECLARES) ||
           trig == TRIG_ROUND_STARTS || trig == TRIG_TURN_STARTS;
}

/* Is h's readied action live now (set last turn, still held, h able)? */
static bool live(const battle_t *b, int h)
{
    const em_state_t *s = em_cst(b);
    return em_able(b, h) && (b->u[h].cond & EC_READIED) && s->rd_round[h] == b->round;
}

/* Could h's held weapon strike t standing at hex at: in melee reach, or in
 * range and sight for a weapon that can be shot or thrown? *ranged says which. */
static bool strikes_at(const battle_t *b, int h, int t, hex_t at, bool *ranged)
{
    const weapon_t *w = battle_weapon(b, h, em_cst(b)->rd_weapon[h]);
    board_t *bd = b->board;
    hex_t was = bd->pos[t];
    /* Measure as if t stood at `at`; sight ignores who stands where. */
    bd->pos[t] = at;
    bool melee = em_is_melee(w) && em_melee_reaches(b, h, t, w);
    bool shot = !melee && em_shot_reaches(b, h, t, w);
    bd->pos[t] = was;
    if (ranged)
        *ranged = shot;
    return melee || shot;
}

/* It goes: spent whatever comes of it (E18: once only). */
static void spend(battle_t *b, int h)
{
    em_st(b)->rd_round[h] = -1;
    em_set_cond(b, h, EC_READIED, false);
}

/* h's readied move goes, set off by t (-1: a moment). */
static void fire_move(battle_t *b, int h, int t)
{
    if (!em_take_reaction(b, h, "readied", t))
        return;
    em_emit_reaction(b, h, t, "readied_move");
    spend(b, h);
    em_free_move(b, h, em_cst(b)->rd_at[h]);
}

static void fire(battle_t *b, int h, int t)
{
    em_state_t *s = em_st(b);
    if (s->rd_move[h]) {
        fire_move(b, h, t);
        return;
    }
    bool ranged = false;
    if (!strikes_at(b, h, t, pos(b, t), &ranged) || !em_take_reaction(b, h, "readied", t))
        return;
    em_emit_reaction(b, h, t, "readied");
    spend(b, h);
    if (ranged && s->rd_weapon[h] >= 0)
        s->nocked[h] &= (unsigned short)~(1u << (s->rd_weapon[h] & 15)); /* its arrow is gone */
    em_attack(b, h, t, s->rd_weapon[h], EK_READIED, ranged);
}

/* Does what `who` just did (to `target`, from hex `from`, towards hex `to`)
 * meet h's trigger? */
static bool meets(const battle_t *b, int h, int trig, int who, int target, hex_t from, hex_t to)
{
    switch (trig) {
    case TRIG_ENTERS_REACH:
        return !strikes_at(b, h, who, from, NULL) && strikes_at(b, h, who, pos(b, who), NULL);
    case TRIG_LEAVES_REACH:
        return strikes_at(b, h, who, pos(b, who), NULL) && !strikes_at(b, h, who, to, NULL);
    case TRIG_MOVES_IN_SIGHT:
        return sight_clear(b->board, pos(b, h), pos(b, who));
    case TRIG_ENDS_MOVE_IN_RANGE:
        return strikes_at(b, h, who, pos(b, who), NULL);
    case TRIG_TARGETS_SELF:
    case TRIG_HIT_SELF:
        return target == h;
    case TRIG_TARGETS_ALLY:
    case TRIG_HIT_ALLY:
        return target >= 0 && target != h && !em_enemies(b, h, target);
    default: /* attacks, attacks at range, runs: the moment itself */
        return true;
    }
}

void em_ready_check(battle_t *b, int trig, int who, int target, hex_t from, hex_t to)
{
    const em_state_t *s = em_cst(b);
    for (int h = 0; h < b->n && battle_active(b, who); h++) {
        if (h == who || !live(b, h) || s->rd_trigger[h] != trig || !em_enemies(b, h, who))
            continue;
        if (s->rd_target[h] >= 0 && s->rd_target[h] != who)
            continue;
        if (meets(b, h, trig, who, target, from, to))
            fire(b, h, who);
    }
}

/* The foe h's readied blow goes at when its moment comes: the one it named
 * if the held weapon reaches it, else the one reached with the fewest
 * health left (map order on a tie); -1 when none is reached. */
static int moment_target(const battle_t *b, int h)
{
    const em_state_t *s = em_cst(b);
    int best = -1;
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !em_enemies(b, h, t) || !strikes_at(b, h, t, pos(b, t), NULL))
            continue;
        if (s->rd_target[h] == t)
            return t;
        if (s->rd_target[h] < 0 && (best < 0 || b->u[t].hp < b->u[best].hp))
            best = t;
    }
    return best;
}

void em_ready_moment(battle_t *b, int trig, int who)
{
    const em_state_t *s = em_cst(b);
    for (int h = 0; h < b->n; h++) {
        if (h == who || !live(b, h) || s->rd_trigger[h] != trig)
            continue;
        if (trig == TRIG_TURN_STARTS &&
            (who < 0 || !battle_active(b, who) || !em_enemies(b, h, who) ||
             (s->rd_target[h] >= 0 && s->rd_target[h] != who)))
            continue;
        int t = trig == TRIG_TURN_STARTS ? who : s->rd_move[h] ? -1 : moment_target(b, h);
        if (!s->rd_move[h] && t < 0)
            continue; /* nobody to strike at this moment: it keeps waiting */
        fire(b, h, t);
    }
}

int em_legal_ready(const battle_t *b, int a, cmd_t *out, int cap, int n)
{
    const em_state_t *s = em_cst(b);
    const unit_t *u = &b->u[a];
    if (s->phase != EP_MOVEMENT || s->points[a] != em_movement(b, a) || (u->cond & EC_READIED))
        return n;
    for (int trig = 0; trig < TRIG_END; trig++) {
        if (!em_trigger_supported(trig))
            continue;
        for (int w = em_melee_from(b, a); w < u->n_weapons; w++) {
            cmd_t c = cmd_make(CMD_STANDBY, a);
            c.arg = trig;
            c.weapon = w;
            em_add_cmd(out, cap, &n, c);
        }
        /* A held move: the caller picks the hex (`at`, here its own); the
         * weapon measures the reach a trigger asks about. */
        cmd_t mv = cmd_make(CMD_STANDBY, a);
        mv.arg = trig;
        mv.act = CMD_MOVE;
        mv.weapon = u->n_weapons > 0 ? 0 : -1;
        mv.at = hex_to_cell(b->map->layout, pos(b, a));
        em_add_cmd(out, cap, &n, mv);
    }
    return n;
}

battle_status_t em_do_ready(battle_t *b, const cmd_t *c)
{
    em_state_t *s = em_st(b);
    int a = c->actor;
    if (s->phase != EP_MOVEMENT || s->points[a] != em_movement(b, a) ||
        (b->u[a].cond & (EC_READIED | EC_PRONE)) || !em_trigger_supported(c->arg) ||
        (c->act != CMD_END && c->act != CMD_ENGAGE && c->act != CMD_MOVE) || c->weapon < -1 ||
        c->weapon >= b->u[a].n_weapons)
        return BATTLE_ILLEGAL;
    bool move = c->act == CMD_MOVE;
    if (move && (!map_in_bounds(b->map, c->at) || map_terrain_at(b->map, c->at)->move <= 0))
        return BATTLE_ILLEGAL;
    if (c->target >= 0 && (c->target >= b->n || !battle_active(b, c->target) ||
                           !em_enemies(b, a, c->target)))
        return BATTLE_ILLEGAL;
    em_pay(b, a, em_movement(b, a), false);
    s->rd_round[a] = b->round + 1; /* any time during the next turn (E18) */
    s->rd_trigger[a] = (short)c->arg;
    s->rd_target[a] = (short)c->target;
    s->rd_weapon[a] = (short)c->weapon;
    s->rd_move[a] = move;
    s->rd_at[a] = c->at;
    char name[EV_NAME_MAX];
    snprintf(name, sizeof name, "ready%s: %s", move ? " move" : "", trigger_name(c->arg));
    battle_emit_action(b, a, name, c->target, true);
    em_set_cond(b, a, EC_READIED, true);
    return BATTLE_OK;
}
