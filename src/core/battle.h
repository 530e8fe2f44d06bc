/* battle.h - the state of one battle: a working copy of the map, the board,
 * each combatant's numbers, the dice source, the event log and the commands.
 *
 * The battle is plain data that rulesets (src/rules) read and change; the
 * driver in src/rules/play.h feeds it commands. Rebuilding from the source
 * map, the seed, the entered dice and the command list gives the same state
 * and the same events, which is what undo, saves and replays stand on.
 */
#ifndef HB_BATTLE_H
#define HB_BATTLE_H

#include <stddef.h>
#include <stdint.h>

#include "cmd.h"
#include "dice.h"
#include "event.h"
#include "geom.h"
#include "tmpl.h"

/* Most stat slots a ruleset may name; battle_create refuses a longer table. */
#define UNIT_MAX_STATS 32

/* One combatant's changing numbers. Stats sit in the ruleset's named slots. */
typedef struct {
    int hp, hp_max;
    int stat[UNIT_MAX_STATS];     /* current values */
    int stat_max[UNIT_MAX_STATS]; /* as the battle began */
    unsigned cond;                /* ruleset condition bits */
    const weapon_t *weapon[MAP_MAX_WEAPONS];
    int n_weapons;
    int equipped;                 /* weapon in hand, -1 for none */
    bool out;                     /* out of the fight: defeated, fled, dying */
} unit_t;

typedef struct {
    uint64_t seed;
    unsigned manual_sides;  /* bit s: side s rolls physical dice (board side index) */
    bool manual_all;        /* every die is entered by hand */
    bool group_initiative;  /* xhalem option: like Architect groups share one roll */
    int max_rounds;         /* stop after this many rounds with no winner; 0 = no limit */
    unsigned decline_sides; /* bit s: side s lets every reaction pass (a table's standing choice) */
    unsigned ask_sides;     /* bit s: stop and ask before each reaction by side s (one at a time) */
} battle_opts_t;

typedef enum {
    BATTLE_OK = 0,
    BATTLE_NEED_DICE,  /* stopped at a manual roll: see battle_t.need */
    BATTLE_ILLEGAL,    /* the command is not allowed now; nothing changed */
    BATTLE_OVER,       /* the battle has ended */
    BATTLE_NOMEM,
    BATTLE_NEED_REACTION, /* stopped to ask whether a reaction is taken: see battle_t.ask */
    BATTLE_ERROR,      /* a ruleset broke a limit (a roll of too many dice...): battle_t.fault;
                          the command is refused and the battle stands as before it */
} battle_status_t;

/* Length of battle_t.fault and of play_t's start error. */
#define BATTLE_FAULT_MAX 160

/* Most options one reaction question offers, and the length of a label. */
#define REACT_CHOICES_MAX 8
#define REACT_LABEL_MAX 40
/* Most answers already declared that one question lists (react_request_t). */
#define REACT_ORDER_MAX 8

/* A reaction the battle stopped to ask about. */
typedef struct {
    int who;      /* the combatant who may react */
    int trigger;  /* the combatant it would react to */
    char kind[DICE_WHY_MAX]; /* the ruleset's name: "opportunity", "standby", "soak"... */
    int n;        /* options: 0 lets it pass, 1..n-1 the ways to take it */
    char labels[REACT_CHOICES_MAX][REACT_LABEL_MAX]; /* what each option is called */
    /* The answers others have already declared to the same moment, in the
     * order they will resolve (a ruleset that gathers declarations before
     * resolving them fills these, battle_ask_order): who, and what. */
    int n_order;
    int order_who[REACT_ORDER_MAX];
    char order_labels[REACT_ORDER_MAX][REACT_LABEL_MAX];
} react_request_t;

typedef struct battle {
    const map_t *src_map;   /* the map as loaded (borrowed, never changed) */
    map_t *map;             /* working copy: doors open, terrain may change */
    const tmpl_db_t *db;    /* borrowed */
    board_t *board;
    geo_profile_t *prof;    /* per combatant, from the ruleset */
    unit_t *u;
    int n;
    battle_opts_t opts;
    dice_src_t dice;
    event_log_t log;
    cmd_log_t cmds;         /* accepted commands, in order */
    int round;              /* 1-based once the battle has begun */
    bool over;
    bool stopped;           /* the round limit ran out */
    int winner;             /* board side index, -1 for none */
    bool oom;
    const char *const *stat_names;
    int n_stats;
    void *rs;               /* the ruleset's own state: plain data, zeroed on reset */
    size_t rs_size;
    const void *rules;      /* the ruleset_t playing this battle (opaque to the core) */
    path_search_t *ps;      /* scratch for the geometry, sized for the map */
    geom_reach_t *reach;
    cell_t *path;
    hex_t *hexes;
    int ncells;
    /* The stop marks (see "Stopping" below). At most one is set at a time:
     * the first one raised during a command or the setup wins. */
    bool needing;           /* a manual roll found no entered value: need says which */
    dice_request_t need;
    bool asking;            /* a reaction needs the table's answer: ask says which */
    react_request_t ask;
    char fault[BATTLE_FAULT_MAX]; /* a broken limit, "" when none */
    const cmd_t *cmd;       /* the command being applied (its answers), NULL otherwise */
    int asked;              /* reactions asked about so far during cmd */
    bool replaying;         /* rebuilding kept commands: never stop to ask */
    int frozen;             /* > 0 while AI or legal code runs: a roll there is a fault */
} battle_t;

/* A battle on map m (borrowed, as is db) with the ruleset's stat slot names and
 * a zeroed state block of rs_size bytes. Call battle_reset next. NULL on OOM,
 * or when the stat table is longer than UNIT_MAX_STATS: a table is refused,
 * never cut short. */
battle_t *battle_create(const map_t *m, const tmpl_db_t *db, const battle_opts_t *opts,
                        const char *const *stat_names, int n_stats, size_t rs_size);
/* Free everything the battle owns (NULL is fine). */
void battle_destroy(battle_t *b);
/* Back to the first moment: fresh map copy, board, units and ruleset state,
 * empty log, dice rewound. Commands and entered dice are kept. False on OOM. */
bool battle_reset(battle_t *b);

/* Append an event (an OOM sets b->oom). */
void battle_emit(battle_t *b, const event_t *e);
/* Append an `action` event: combatant who did NAME (at target, -1 for none),
 * ok saying whether it took effect. */
void battle_emit_action(battle_t *b, int who, const char *name, int target, bool ok);
/* Append a `condition` event: combatant who gained (on) or lost condition NAME. */
void battle_emit_condition(battle_t *b, int who, const char *name, bool on);
/* Append a `stat` event: combatant who's stat NAME is now value. */
void battle_emit_stat(battle_t *b, int who, const char *name, int value);
/* The same for a change from `from` to value, so the log can say both. */
void battle_emit_change(battle_t *b, int who, const char *name, int from, int value);
/* Stopping. A roll whose die must be typed in at the table and has not been
 * yet, a reaction the table wants to be asked about, and a broken limit do
 * not unwind anything: the call returns a stand-in (the lowest face, "pass")
 * and raises a sticky mark on the battle (needing, asking, fault). While a
 * mark is up every later roll returns stand-ins and consumes no die, and
 * every later question answers "pass", so the command (or the setup) simply
 * runs to its end. The driver (src/rules/play.c) then sees the mark, reports
 * BATTLE_NEED_DICE, BATTLE_NEED_REACTION or BATTLE_ERROR, and rebuilds the
 * battle to just before the command; once the die or the answer is in, the
 * command is applied again from the start. A ruleset needs to know nothing
 * of this, but may stop early (battle_halted) to save work, and its state
 * must come only from the battle (no statics), as it always must for
 * rebuilds. AI, legal-list and odds code never roll. */

/* Roll spec s for combatant who (-1: no one; side then says whose dice they
 * are, for manual dice). Emits a roll event (also returned through out, which
 * may be NULL) and returns its total (roll_result_t.total). A spec over a
 * limit (roll_check) raises the fault mark and rolls nothing. */
int battle_roll_spec_side(battle_t *b, int who, int side, const roll_spec_t *s, const char *why,
                          event_t *out);
/* The same for a combatant's own roll (its side's dice). */
int battle_roll_spec(battle_t *b, int who, const roll_spec_t *s, const char *why, event_t *out);
/* A plain roll: n dice of `sides`, keeping the keep highest (keep > 0), the
 * -keep lowest (keep < 0) or all (keep == 0), adding mod (roll_plain). */
int battle_roll_side(battle_t *b, int who, int side, int n, int sides, int keep, int mod,
                     const char *why, event_t *out);
/* The same for a combatant's own roll. */
int battle_roll(battle_t *b, int who, int n, int sides, int keep, int mod, const char *why,
                event_t *out);
/* Is a stop mark up (needing, asking or fault)? Rulesets may return early. */
static inline bool battle_halted(const battle_t *b)
{
    return b->needing || b->asking || b->fault[0];
}
/* The status the marks mean: NEED_DICE, NEED_REACTION, ERROR, or OK. */
battle_status_t battle_status(const battle_t *b);
/* Raise the fault mark with a message (the first fault is kept). */
void battle_fault(battle_t *b, const char *fmt, ...);

/* The table's say on a reaction of combatant reactor (KIND, set off by
 * trigger) with n options (labels[0..n), 0 = let it pass; labels may be
 * NULL for a yes/no one): the option the table chose, or -1 when the table
 * leaves it to the ruleset's policy. A side that declines everything
 * (opts.decline_sides) answers 0. A side that asks (opts.ask_sides) answers
 * from the command being applied (cmd_t.answer, in the order asked); when
 * the command holds no answer for this one yet, raises the asking mark with
 * b->ask filled and answers 0 (the driver asks, then applies the command
 * again). With no command, or while replaying a command accepted before its
 * side was asked, -1: as it was then. An answer of n or more is a fault. The
 * rules layer wraps this with the policy: battle_ask_choice (ruleset.h). */
int battle_table_choice(battle_t *b, int reactor, const char *kind, int trigger, int n,
                        const char *const *labels);
/* Will the table be asked about reactions of combatant reactor (its side
 * asks and does not decline)? For the labels of a question: odds are worth
 * working out only then. */
bool battle_table_asks(const battle_t *b, int reactor);
/* A yes/no reaction: battle_table_choice with two options, the policy being
 * "take it". Call it only once everything else allows the reaction, and
 * before changing anything for it. */
bool battle_ask_reaction(battle_t *b, int reactor, const char *kind, int trigger);
/* While a question is up (b->asking): note an answer another combatant has
 * already declared to the same moment, next in the order they will resolve
 * (react_request_t.order_*), so the screen can show it. Past
 * REACT_ORDER_MAX, or with no question up, nothing happens. */
void battle_ask_order(battle_t *b, int who, const char *label);
/* Slot of stat NAME in the ruleset's table, or -1. */
int battle_stat_slot(const battle_t *b, const char *name);
/* Does the map or combatant i's template give stat KEY (rather than it
 * defaulting to 0)? */
bool battle_stat_given(const battle_t *b, int i, const char *key);
/* Weapon w of combatant i, or NULL (unarmed / out of range). */
const weapon_t *battle_weapon(const battle_t *b, int i, int w);
/* Value of tag KEY on weapon w (0 when absent or w is NULL). */
int battle_weapon_tag(const weapon_t *w, const char *key);
/* Combatants of SIDE still in the fight. */
int battle_side_count(const battle_t *b, int side);
/* The ruleset-neutral end: the one side with combatants left, -1 when no side
 * has any, -2 while two or more fight on. */
int battle_last_side(const battle_t *b);
/* Is combatant i still in the fight? */
static inline bool battle_active(const battle_t *b, int i)
{
    return i >= 0 && i < b->n && !b->u[i].out;
}
/* Take combatant i out of the fight and off the board. */
void battle_remove(battle_t *b, int i);
/* Move combatant i one step to h, emitting move_step; an ally's hex is passed
 * through without taking it from the ally. */
void battle_step(battle_t *b, int i, hex_t h);
/* Close the round: emit round_end, then either start the next round or, at
 * the round limit, mark the battle stopped. Returns false when stopped. */
bool battle_round_end(battle_t *b);
/* Is combatant i player-controlled (its faction, per the map)? */
bool battle_is_player(const battle_t *b, int i);

#endif
