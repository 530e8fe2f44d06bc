/* play_ui.h - the play screen's logic: one battle, the referee's choices and
 * the AI's turns, without drawing.
 *
 * The rules core decides everything; this module asks it (legal actions,
 * predictions, paths) and feeds it commands and dice. Every die goes through
 * the hand-entry path of the driver (play.h): for a side rolling physical dice
 * the referee types the value, for the others this module rolls it from its
 * own seeded generator. The entered list is so the whole history, which keeps
 * undo and rebuilds exact even when a side switches to physical dice mid-fight.
 * Plain functions of (state, input) so tests drive them without a window.
 */
#ifndef HB_UI_PLAY_UI_H
#define HB_UI_PLAY_UI_H

#include <stdbool.h>
#include <stdint.h>

#include <SDL.h>

#include "../io/save.h"
#include "../rules/play.h"
#include "../rules/predict.h"
#include "anim.h"

#define PUI_MAX_LEGAL 512
#define PUI_MAX_BAR 26    /* keys 1-9, 0, then the letters of PUI_BAR_LETTERS */
#define PUI_AI_PAUSE 0.35 /* seconds between AI commands once animations settle */

/* Actions with several variants share one button that opens their own bar
 * (a sub-bar): the standby triggers, the two shoves, the weapons to switch
 * to, the weapon pairs of a dual strike. */
typedef enum {
    PUI_GROUP_NONE = 0,
    PUI_GROUP_STANDBY,
    PUI_GROUP_SHOVE,
    PUI_GROUP_SWITCH,
    PUI_GROUP_DUAL,
    PUI_GROUP_COUNT
} pui_group_t;

/* One button of the action bar: a kind of legal command, told apart from
 * the others by every field but its target and cell (those are picked on
 * the map), or with `group` set, the button that opens that group. */
typedef struct {
    cmd_kind_t kind;
    cmd_kind_t act;    /* CMD_DECLARE / CMD_STANDBY: the declared or held action */
    int weapon;        /* the command's weapon (-1 unarmed or none) */
    int weapon2;       /* a dual strike's second weapon, else -1 */
    int arg;           /* the command's arg (a trigger, knock down or push, up or down) */
    pui_group_t group; /* not NONE: this button opens the group's sub-bar */
    bool targeted;     /* the command needs a target picked on the map */
    int slot;          /* place on the bar; the key is the slot's (a gap where one is missing) */
    char key;          /* keyboard shortcut, shown in the tooltip */
    char label[48];
    /* A refused action (ruleset_t.refused): shown greyed with why; choosing
     * it only says why on the status line. */
    bool off;
    char why[REFUSAL_WHY_MAX];
} pui_action_t;

typedef enum {
    PUI_IDLE = 0, /* nothing chosen: click a token, a hex or an action */
    PUI_TARGET,   /* an action waits for its target */
    PUI_CONFIRM,  /* a target is chosen: Enter or a second click carries it out */
} pui_mode_t;

typedef struct pui {
    play_t play;
    const map_t *map;
    const tmpl_db_t *db;
    uint64_t seed;
    rng_t rng;           /* dice for sides that do not roll physical dice */
    unsigned phys_sides; /* bit s: board side s rolls physical dice */
    bool ask;            /* the players' reactions are put to the table (F4) */
    bool started;

    int actor;      /* whose command it is now, -1 none */
    bool user_turn; /* the actor's faction is player-controlled */
    cmd_t legal[PUI_MAX_LEGAL];
    int n_legal;
    pui_action_t bar[PUI_MAX_BAR]; /* in slot order */
    int n_bar;
    int n_bar_slots; /* places the bar lays out: the last slot used + 1 */
    /* The main bar's keys, per combatant for the whole battle: an action
     * (told apart by kind, declared act, weapons, arg, group) keeps the slot
     * and key it first got, whatever the turn, an undo or a wait for dice
     * did since, so the same key never does something else. Allocated on
     * first use; when a combatant has had more actions than keys, the one
     * unseen longest gives its key up. */
    struct pui_keys *keys;
    unsigned key_stamp; /* bar builds so far: when each key was last shown */
    pui_group_t sub;    /* the bar shows this group's variants (Esc goes back) */
    int sub_arg;        /* standby: the trigger chosen (its holds show), -1: the triggers show */

    int sel;  /* selected combatant, -1 none */
    int pick; /* the member of the actor set the referee clicked to go next (G7), -1 none */
    pui_mode_t mode;
    int act;        /* bar index being targeted or confirmed */
    int target;     /* chosen target in PUI_CONFIRM */
    bool aimed;     /* PUI_CONFIRM's target was pointed at (a click on it, the token
                     * menu): only then does a click on it again carry it out */
    predict_t pred; /* odds of the chosen target */

    cmd_t move_cmd;      /* the legal command a move click fills in (MOVE or a declared move) */
    geom_reach_t *reach; /* where the actor may move now */
    int n_reach, budget_ft;
    path_search_t *ps;
    cell_t path[CMD_PATH_MAX + 1]; /* previewed move, start included */
    int n_path, path_cost;
    bool path_ok;
    /* Legs planned with Shift+click (start excluded): the next move follows
     * them, and in a ruleset that declares moves (scars) the attacks on the
     * bar are declared from the plan's end. */
    cell_t plan[CMD_PATH_MAX];
    int n_plan, plan_ft; /* cells, and feet before rounding to the interval */

    char entry[64];   /* digits typed for physical dice: a pool as one line ("8 10 3 1") */
    int line_entered; /* dice the last Enter of a typed line gave */
    int n_entry;
    bool help;      /* the key list is shown */
    bool follow;    /* the camera follows the active combatant */
    int log_scroll; /* dice log lines scrolled back from the newest */
    int ai_guard;   /* AI commands this turn (a stuck AI ends its turn) */
    double ai_wait;
    char msg[200]; /* last message for the status line */
    /* The turn the message was written in (pui_status): one left from an
     * earlier turn is stale and goes. */
    char msg_seen[200];
    int msg_round, msg_actor;
    anim_t anim;

    /* Saves (src/io/save.h, docs/saves.md): Ctrl+S writes save_path when set;
     * with autosave_dir set, every turn start rotates an autosave there. */
    char save_path[SAVE_PATH_MAX];
    char map_path[SAVE_PATH_MAX]; /* recorded in saves, for information */
    char autosave_dir[SAVE_PATH_MAX];
    int autosave_seen; /* events already looked at for turn starts */
    int saved_cmds;    /* commands in the battle at its start or last Ctrl+S */
    /* Replay: a save's commands played back at the AI's pace, no input. */
    bool replay;
    const cmd_t *script;
    int n_script, script_pos;
    bool script_stopped; /* the saved battle ended by its round limit */
} pui_t;

/* Start a battle of map m (borrowed with db) with dice from seed; every side
 * rolls by the generator until the referee toggles physical dice. Returns
 * BATTLE_OK, or an error status with msg filled. */
battle_status_t pui_start(pui_t *p, const map_t *m, const tmpl_db_t *db, uint64_t seed);
/* Start from save s (borrowed, with its map and data, for the pui's life):
 * resume the battle where it was saved, or with replay set, from its setup,
 * with the saved commands played back by pui_tick. BATTLE_OK, or an error
 * status with msg saying why. */
battle_status_t pui_start_save(pui_t *p, const save_t *s, bool replay);
/* Ctrl+S: write the battle to save_path (the old file kept as .bak); msg
 * says where or why not. */
bool pui_save(pui_t *p);
/* Are there commands since the battle started or was last saved with Ctrl+S
 * (an autosave does not count)? Q asks before quitting when there are. */
bool pui_unsaved(const pui_t *p);
/* With autosave_dir set: autosave when a turn has started since the last
 * call (the window calls this every frame). True when a save was written. */
bool pui_autosave(pui_t *p);
/* Free the battle and scratch (the pui_t is the caller's). */
void pui_free(pui_t *p);
/* The battle being played. */
static inline const battle_t *pui_battle(const pui_t *p)
{
    return p->play.b;
}
/* Is the engine stopped for a die the referee must give? */
bool pui_needs_die(const pui_t *p);
/* The prompt for that die: who, why, what to roll ("Kara: engage, die 1 of 2: d20"). */
void pui_die_prompt(const pui_t *p, char *buf, size_t cap);
/* Give a physical die's value; false (msg says why) when it is not a face. */
bool pui_enter_die(pui_t *p, int value);
/* Type one key of a die value: digits, Backspace, Enter. True if used. */
bool pui_type_die(pui_t *p, SDL_Keycode k);
/* Is the engine stopped for a reaction the table chooses (battle_t.ask)? */
bool pui_needs_answer(const pui_t *p);
/* The question ("Tor may react to Grim (interrupt): choose 0-2"). */
void pui_answer_prompt(const pui_t *p, char *buf, size_t cap);
/* Give the table's choice k of the question's options (0 lets it pass) and
 * go on; false (msg says why) when none waits or k is not an option. */
bool pui_answer(pui_t *p, int k);
/* Put every reaction of the player-controlled sides to the table (on), or
 * leave them to the rules' own policy (off, the default). */
void pui_set_ask(pui_t *p, bool on);
/* Shift+F4: put the reactions of the selected combatant's side (else the
 * actor's) to the table, or give them back to the rules; one side at a time,
 * any side, the Architect's too. Kept in the battle options (saved). */
void pui_toggle_ask_side(pui_t *p);
/* Toggle physical dice for the side of the current actor (or of the roller
 * the engine waits for). */
void pui_toggle_physical(pui_t *p);

/* Click on map cell c (on the map or not): select, move, target, confirm. */
bool pui_click_cell(pui_t *p, cell_t c);
/* Shift+click on cell c: add a leg to the planned move (the cheapest way from
 * the plan's end to c); false when c cannot be added (msg says why). */
bool pui_plan_cell(pui_t *p, cell_t c);
/* The cursor is over cell c (on is false off the map): refresh the path preview. */
bool pui_hover_cell(pui_t *p, cell_t c, bool on);
/* Choose action bar entry i (a click or its shortcut). */
bool pui_choose(pui_t *p, int i);
/* The action bar entries (indices into bar, at most cap) that a right-click
 * on combatant who offers now: every entry for the actor, the targeted ones
 * legal against who for anyone else; 0 when the screen takes no action. */
int pui_token_actions(const pui_t *p, int who, int *out, int cap);
/* Why pui_token_actions gives combatant who nothing (not its turn, a die
 * or answer awaited, the rules' refusal of the actor's actions...), a short
 * clause for the token menu and the status line. */
void pui_no_actions_why(const pui_t *p, int who, char *buf, size_t cap);
/* Choose bar entry i as pui_choose does, aimed at combatant who: a targeted
 * action goes straight to its odds against who (Enter confirms). */
bool pui_choose_on(pui_t *p, int i, int who);
/* A drag of the actor's token dropped on cell c: it moves there along the
 * cheapest path as one command (the plan's legs first), or, when c cannot be
 * reached, msg says why and nothing moves. False when no move is asked now. */
bool pui_drop_cell(pui_t *p, cell_t c);
/* Carry out the confirmed attack (Enter). */
bool pui_confirm(pui_t *p);
/* Leave targeting, or drop the selection. True if anything was cancelled. */
bool pui_cancel(pui_t *p);
/* End the current user turn. */
bool pui_end_turn(pui_t *p);
/* Give command c as it is (a referee's call, src/ui/calls.h), whoever acts
 * now, keeping any planned route: the driver's status. */
battle_status_t pui_give(pui_t *p, const cmd_t *c);
/* Take back the last command of a player-controlled combatant (and the AI's
 * commands after it) by rebuilding the battle without them. */
bool pui_undo(pui_t *p);
/* Keyboard shortcut of the play screen; true when it was used. */
bool pui_key(pui_t *p, SDL_Keycode k, Uint16 mod);
/* Advance animations and, on an AI side's turn, play its next command at a
 * watchable pace. Returns true while the picture changes. */
bool pui_tick(pui_t *p, double dt);
/* Run AI commands until a user turn, a physical die or the end (no pacing). */
void pui_run_ai(pui_t *p, int max_cmds);
/* May the referee make combatant who the one that acts now (G7)? True for a
 * player-controlled member of the actor set (the ruleset's actors()), which
 * a click on its token then makes the actor; the ruleset's first member
 * acts when nobody is picked. */
bool pui_may_pick(const pui_t *p, int who);
/* Re-read actor, legal actions, reach; call after any change to the battle. */
void pui_refresh(pui_t *p);
/* Is combatant t a target of the action being targeted or confirmed? */
bool pui_is_target(const pui_t *p, int t);
/* The command the screen would give now if the referee went ahead: the
 * attack (or other targeted action) waiting for confirmation, or the move
 * along the previewed path. False when nothing is chosen (the odds panel's
 * "what if", src/ui/odds_panel.h). */
bool pui_preview_cmd(const pui_t *p, cmd_t *out);
/* The group command c belongs to on the action bar (PUI_GROUP_NONE for most). */
pui_group_t pui_group_of(const cmd_t *c);
/* Name of combatant i for the panels. */
const char *pui_name(const pui_t *p, int i);
/* A roll's reason as the table reads it: a combatant id after " on " becomes
 * its name ("damage on oona" -> "damage on Oona Pell"). Returns buf. */
const char *pui_why(const pui_t *p, const char *why, char *buf, size_t cap);
/* Winner text at the end ("Victory: players"), or NULL while it goes on. */
const char *pui_result(const pui_t *p, char *buf, size_t cap);

/* The status line: whose turn it is and what is awaited (a die, an answer,
 * the AI's moves, the referee's choice), then the last message unless it
 * was written in an earlier turn (it is dropped then, so "Battle begins"
 * never stands in round 2). */
void pui_status(pui_t *p, char *buf, size_t cap);
/* What a key or click that cannot act now says instead of nothing: whose
 * turn it is and why `what` must wait. */
void pui_not_now(pui_t *p, const char *what);

#endif
