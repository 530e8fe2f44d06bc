/* play.c - the battle driver (see play.h). */
#include "play.h"

#include <stdio.h>
#include <string.h>

/* The setup, then whatever stop mark it raised (battle.h, "Stopping"). */
static battle_status_t run_setup(play_t *p)
{
    p->rs->setup(p->b);
    return battle_status(p->b);
}

/* One command, run to its end; a stop mark it raised outranks what apply
 * returned (a ruleset may return early with battle_status, or not at all). */
static battle_status_t guarded_apply(play_t *p, const cmd_t *c)
{
    battle_t *const b = p->b;
    /* A referee's call these rules do not take never reaches apply. */
    if (cmd_is_call(c->kind) && !ruleset_takes_call(p->rs, c->kind))
        return BATTLE_ILLEGAL;
    /* The command is where the ruleset finds the table's reaction answers. */
    b->cmd = c;
    b->asked = 0;
    battle_status_t st = p->rs->apply(b, c);
    b->cmd = NULL;
    battle_status_t mark = battle_status(b);
    return mark != BATTLE_OK ? mark : st;
}

/* Keep the fault message for the caller and lower the mark. */
static void take_fault(play_t *p)
{
    battle_t *b = p->b;
    if (b->fault[0])
        hb_strlcpy(p->error, b->fault, sizeof p->error);
    b->fault[0] = 0;
}

/* After a change: has the battle ended (a side won, all fell, rounds ran out)? */
static void check_end(play_t *p)
{
    battle_t *b = p->b;
    if (b->over)
        return;
    int w = p->rs->winner(b);
    if (w == -2 && !b->stopped)
        return;
    b->over = true;
    b->winner = w >= 0 ? w : -1;
    event_t e = event_make(EV_END);
    e.side = b->winner;
    e.value = b->round;
    battle_emit(b, &e);
}

static battle_status_t run_cmd(play_t *p, const cmd_t *c)
{
    battle_status_t st = guarded_apply(p, c);
    if (st == BATTLE_OK)
        check_end(p);
    return st;
}

battle_status_t play_start(play_t *p, const map_t *m, const tmpl_db_t *db, const ruleset_t *rs,
                           const battle_opts_t *opts)
{
    memset(p, 0, sizeof *p);
    p->rs = rs ? rs : ruleset_find(m->ruleset);
    if (!p->rs || !p->rs->setup)
        return BATTLE_ILLEGAL;
    if (p->rs->n_stats < 0 || p->rs->n_stats > UNIT_MAX_STATS) {
        snprintf(p->error, sizeof p->error,
                 "ruleset %s names %d stats; a battle holds at most %d", p->rs->id,
                 p->rs->n_stats, UNIT_MAX_STATS);
        return BATTLE_ERROR;
    }
    p->b = battle_create(m, db, opts, p->rs->stat_names, p->rs->n_stats, p->rs->state_size);
    if (!p->b)
        return BATTLE_NOMEM;
    p->b->rules = p->rs;
    return play_rebuild(p);
}

void play_end(play_t *p)
{
    battle_destroy(p->b);
    p->b = NULL;
}

battle_status_t play_rebuild(play_t *p)
{
    battle_t *b = p->b;
    if (!battle_reset(b))
        return BATTLE_NOMEM;
    ruleset_profiles(p->rs, b->board, b->db, b->prof);
    p->setup_pending = false;
    battle_status_t st = run_setup(p);
    if (st == BATTLE_NEED_DICE) {
        p->setup_pending = true;
        return BATTLE_NEED_DICE;
    }
    if (st != BATTLE_OK) {
        /* A setup never asks about reactions (no command carries answers). */
        take_fault(p);
        return BATTLE_ERROR;
    }
    check_end(p);
    b->replaying = true;
    for (int k = 0; k < b->cmds.n; k++) {
        /* Accepted once, so accepted again: the same state and dice. */
        cmd_t c = b->cmds.c[k];
        st = run_cmd(p, &c);
        if (st != BATTLE_OK) {
            b->replaying = false;
            if (st == BATTLE_ERROR) {
                take_fault(p);
                return BATTLE_ERROR;
            }
            return BATTLE_ILLEGAL;
        }
    }
    b->replaying = false;
    return b->oom ? BATTLE_NOMEM : BATTLE_OK;
}

battle_status_t play_apply(play_t *p, const cmd_t *c)
{
    battle_t *b = p->b;
    if (p->pending || p->setup_pending)
        return b->asking ? BATTLE_NEED_REACTION : BATTLE_NEED_DICE;
    p->error[0] = 0;
    if (b->over)
        return BATTLE_OVER;
    battle_status_t st = run_cmd(p, c);
    if (st == BATTLE_OK) {
        if (!cmd_push(&b->cmds, c))
            return BATTLE_NOMEM;
        return b->oom ? BATTLE_NOMEM : BATTLE_OK;
    }
    if (st == BATTLE_NEED_DICE) {
        /* Wind back to just before c; the request survives the rebuild. */
        dice_request_t need = b->need;
        p->pending_cmd = *c;
        play_rebuild(p);
        p->pending = true;
        b->needing = true;
        b->need = need;
    }
    if (st == BATTLE_NEED_REACTION) {
        react_request_t ask = b->ask;
        p->pending_cmd = *c;
        play_rebuild(p);
        p->pending = true;
        b->asking = true;
        b->ask = ask;
    }
    if (st == BATTLE_ERROR) {
        /* Refused loudly: the message stays, the battle goes back to before c. */
        take_fault(p);
        char why[BATTLE_FAULT_MAX];
        hb_strlcpy(why, p->error, sizeof why);
        play_rebuild(p);
        hb_strlcpy(p->error, why, sizeof p->error);
    }
    return st;
}

battle_status_t play_answer_reaction(play_t *p, bool take)
{
    return play_answer_choice(p, take ? 1 : 0);
}

battle_status_t play_answer_choice(play_t *p, int choice)
{
    battle_t *b = p->b;
    if (!p->pending || !b->asking || p->pending_cmd.n_answers >= CMD_ANSWERS_MAX || choice < 0 ||
        choice >= b->ask.n)
        return BATTLE_ILLEGAL;
    cmd_t c = p->pending_cmd;
    c.answer[c.n_answers++] = (uint8_t)choice;
    p->pending = false;
    b->asking = false;
    /* The battle already stands just before c (play_apply rebuilt it). */
    return play_apply(p, &c);
}

battle_status_t play_enter_die(play_t *p, int value)
{
    battle_t *b = p->b;
    if (!b->needing || (!p->pending && !p->setup_pending))
        return BATTLE_ILLEGAL;
    if (value < 1 || value > b->need.sides)
        return BATTLE_ILLEGAL;
    if (!dice_enter(&b->dice, value))
        return BATTLE_NOMEM;
    bool had_cmd = p->pending;
    p->pending = false;
    battle_status_t st = play_rebuild(p);
    if (st != BATTLE_OK || !had_cmd)
        return st;
    cmd_t c = p->pending_cmd;
    return play_apply(p, &c);
}

battle_status_t play_undo(play_t *p)
{
    battle_t *b = p->b;
    if (b->cmds.n == 0)
        return BATTLE_ILLEGAL;
    b->cmds.n--;
    p->pending = false;
    battle_status_t st = play_rebuild(p);
    /* Values typed in for the dropped command must not feed the next one. */
    b->dice.n_entered = b->dice.cursor;
    return st;
}

int play_actors(const play_t *p, int *out, int cap)
{
    if (p->b->over || p->pending || p->setup_pending)
        return 0;
    return p->rs->actors(p->b, out, cap);
}

void play_stop(play_t *p)
{
    p->b->stopped = true;
    check_end(p);
}

battle_status_t play_auto(play_t *p, int max_rounds)
{
    battle_t *b = p->b;
    int actors[MAP_MAX_COMBATANTS];
    int guard = 0, last_actor = -1;
    while (!b->over) {
        if (max_rounds > 0 && b->round > max_rounds) {
            play_stop(p);
            break;
        }
        int n = play_actors(p, actors, MAP_MAX_COMBATANTS);
        if (n <= 0) {
            if (p->pending || p->setup_pending)
                return b->asking ? BATTLE_NEED_REACTION : BATTLE_NEED_DICE;
            play_stop(p);
            break;
        }
        if (actors[0] != last_actor) {
            last_actor = actors[0];
            guard = 0;
        }
        cmd_t c;
        /* The AI only looks: a roll from it is a fault (battle.h, "Stopping"). */
        b->frozen++;
        p->rs->ai(b, actors[0], &c);
        b->frozen--;
        if (b->fault[0]) {
            take_fault(p);
            return BATTLE_ERROR;
        }
        battle_status_t st = play_apply(p, &c);
        /* A stuck AI would spin forever; ending its turn always moves on. */
        if (st == BATTLE_ILLEGAL || ++guard > 64) {
            cmd_t end = cmd_make(CMD_END, actors[0]);
            st = play_apply(p, &end);
            guard = 0;
            if (st == BATTLE_ILLEGAL) {
                play_stop(p);
                break;
            }
        }
        if (st == BATTLE_NEED_DICE || st == BATTLE_NEED_REACTION || st == BATTLE_NOMEM ||
            st == BATTLE_ERROR)
            return st;
    }
    return b->oom ? BATTLE_NOMEM : BATTLE_OK;
}

battle_status_t play_headless(play_t *p, const map_t *m, const tmpl_db_t *db, const ruleset_t *rs,
                              uint64_t seed, int max_rounds, int *winner)
{
    if (winner)
        *winner = -1;
    const ruleset_t *want = rs ? rs : ruleset_find(m->ruleset);
    battle_status_t st;
    if (p->b && want && p->rs == want && p->b->src_map == m && p->b->db == db) {
        /* Same battle, new dice: forget the commands and start over. */
        battle_t *b = p->b;
        b->cmds.n = 0;
        b->dice.n_entered = 0;
        b->dice.seed = seed;
        b->opts.seed = seed;
        b->opts.max_rounds = max_rounds;
        p->pending = false;
        st = play_rebuild(p);
    } else {
        play_end(p);
        battle_opts_t opts = {.seed = seed, .max_rounds = max_rounds};
        st = play_start(p, m, db, rs, &opts);
        if (st == BATTLE_NOMEM || st == BATTLE_ILLEGAL) {
            play_end(p);
            return st;
        }
    }
    if (st == BATTLE_OK)
        st = play_auto(p, max_rounds);
    if (st == BATTLE_OK && winner)
        *winner = p->b->winner;
    return st;
}
