/* play_internal.h - private to the play screen's logic files: play_ui.c
 * (start, saves, the AI's and the replay's turns), play_bar.c (the action bar,
 * the move plan, targets) and play_input.c (hover, clicks, choices, keys).
 * Each lends the others the functions below. */
#ifndef HB_UI_PLAY_INTERNAL_H
#define HB_UI_PLAY_INTERNAL_H

#include "play_ui.h"

/* ---- play_ui.c ---- */

/* The battle's ruleset. */
const ruleset_t *pui_rules(const pui_t *p);
/* Combatant who's side, -1 when who is out of range. */
int pui_side_of(const pui_t *p, int who);
/* Feed generator dice to every roll that is not physical; stop at a physical
 * one, the end, or an error. Returns the last driver status. */
battle_status_t pui_pump(pui_t *p, battle_status_t st);

/* ---- play_bar.c ---- */

/* How the actor moves in the chosen move command's mode. */
void pui_actor_move_cost(const pui_t *p, move_cost_t *mv);
/* ft rounded up to a whole number of intervals (interval > 1). */
int pui_round_to(int ft, int interval);
/* The actor's cheapest leg from `from` to `to` into out, start excluded:
 * the cells, or -1 when there is no way or it is longer than cap. */
int pui_plan_leg(pui_t *p, cell_t from, cell_t to, cell_t *out, int cap, int *ft);
/* Shortcut of bar slot i. */
char pui_bar_key(int i);
/* The preview when nothing else is hovered: the planned legs. */
void pui_show_plan(pui_t *p);
/* Actions whose cell the rules leave to the caller (cmd_t.at). */
bool pui_picks_cell(const pui_action_t *a);
/* The legal command of bar entry act against target t, or NULL. */
const cmd_t *pui_legal_for(const pui_t *p, int act, int t);
/* The move a click on the previewed path's last hex gives. */
cmd_t pui_path_move(const pui_t *p);

/* ---- play_input.c ---- */

/* Apply c, feed its dice, and bring the screen up to date. */
battle_status_t pui_apply(pui_t *p, const cmd_t *c);
/* Once the battle is over, the status line says so. */
void pui_end_note(pui_t *p);

#endif
