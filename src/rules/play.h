/* play.h - drives a battle through its ruleset: start, commands, hand-entered
 * dice, rebuild and undo.
 *
 * Every accepted command is kept. A command runs to its end every time; when
 * it raised a stop mark (battle.h, "Stopping") the driver reports it and
 * rebuilds the battle to just before the command:
 * - a manual roll found no entered value: BATTLE_NEED_DICE, battle_t.need
 *   says who rolls what and why; play_enter_die applies the command again
 *   once the value is typed in;
 * - a reaction the table wants to be asked about (battle_opts_t.ask_sides):
 *   BATTLE_NEED_REACTION, battle_t.ask; play_answer_reaction writes the
 *   answer into the command and applies it again, so the command list alone
 *   rebuilds the battle;
 * - a broken limit (a roll of too many dice, a roll from AI code):
 *   BATTLE_ERROR, play_t.error says what; the command is dropped.
 */
#ifndef HB_PLAY_H
#define HB_PLAY_H

#include "ruleset.h"

typedef struct {
    battle_t *b;
    const ruleset_t *rs;
    bool pending;     /* a command waits for dice */
    cmd_t pending_cmd;
    bool setup_pending; /* the setup itself waits for dice */
    char error[BATTLE_FAULT_MAX]; /* why the last call returned BATTLE_ERROR */
} play_t;

/* Start a battle of map m's ruleset (or rs when given) and run its setup.
 * Returns BATTLE_OK, BATTLE_NEED_DICE (setup waits for play_enter_die),
 * BATTLE_ILLEGAL (unknown ruleset), BATTLE_ERROR (p->error: a ruleset over a
 * limit, such as more than UNIT_MAX_STATS stats, or a setup that broke one)
 * or BATTLE_NOMEM; p->b is set unless NOMEM, ILLEGAL or ERROR from the
 * ruleset table. */
battle_status_t play_start(play_t *p, const map_t *m, const tmpl_db_t *db, const ruleset_t *rs,
                           const battle_opts_t *opts);
/* Free the battle (the play_t itself is the caller's). */
void play_end(play_t *p);
/* Apply one command: OK, ILLEGAL (nothing changed), NEED_DICE, NEED_REACTION,
 * ERROR (nothing changed; p->error says why) or OVER. */
battle_status_t play_apply(play_t *p, const cmd_t *c);
/* Give the value the battle stopped for (1..sides) and go on. ILLEGAL when no
 * roll is waiting or the value is not a face of the die. */
battle_status_t play_enter_die(play_t *p, int value);
/* Answer the reaction the battle stopped to ask about (take it or let it
 * pass) and go on: the answer joins the waiting command's answers, and the
 * command is applied again. ILLEGAL when no reaction question is waiting. */
battle_status_t play_answer_reaction(play_t *p, bool take);
/* The same for a question of several options (battle_t.ask.n, labels):
 * choice 0 lets it pass, 1..n-1 takes that option. ILLEGAL when no question
 * waits or the choice is not one of its options. */
battle_status_t play_answer_choice(play_t *p, int choice);
/* Replay the kept commands from the start (same seed, same entered dice). */
battle_status_t play_rebuild(play_t *p);
/* Drop the last command and rebuild. ILLEGAL when there is none. */
battle_status_t play_undo(play_t *p);
/* Combatants who may command now. */
int play_actors(const play_t *p, int *out, int cap);
/* Finish the battle by the round limit (no winner) unless already over. */
void play_stop(play_t *p);
/* Play with the AI for every side until the battle ends or max_rounds pass.
 * The AI runs with the battle frozen: a roll from it is BATTLE_ERROR. */
battle_status_t play_auto(play_t *p, int max_rounds);
/* One whole AI-vs-AI battle on map m (its own ruleset when rs is NULL) with
 * this seed and round limit, nothing printed; *winner (may be NULL) gets the
 * winning side, -1 for none. p must start zeroed; pass the same p again for
 * the next battle on the same map and db and the battle's memory is reused
 * (no allocation but the map copy and board of each reset); play_end(p) when
 * done. This is what `hexbattle bench` times (battles per second; see
 * src/app/bench.c). Returns BATTLE_OK when the battle was played out. */
battle_status_t play_headless(play_t *p, const map_t *m, const tmpl_db_t *db, const ruleset_t *rs,
                              uint64_t seed, int max_rounds, int *winner);

#endif
