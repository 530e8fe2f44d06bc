/* event.h - the event log: the seam between the rules and everything that shows them.
 *
 * A ruleset never draws; it appends events. The UI animates them, simulate
 * prints them (src/io/event_json.c), saves and replays read them back. One flat
 * value type serves every kind; each kind documents the fields it uses.
 */
#ifndef HB_EVENT_H
#define HB_EVENT_H

#include <stdbool.h>

#include "hex.h"
#include "roll.h"

#define EV_MAX_DICE ROLL_MAX_DICE
#define EV_NAME_MAX 48

typedef enum {
    EV_INITIATIVE = 0, /* who (or -1 with side for a side's roll), total (score), value (rank, 1 = first) */
    EV_TURN_START,     /* who (or -1 with side for a side's turn), value = round */
    EV_MOVE_STEP,      /* who, from, to; name "teleport" for a blink (empty: a step) */
    EV_ROLL,           /* who, sides, n_dice, dice[], kept_n, kept[], mod, total, name = why;
                          spec = the whole shape; successes when roll_counts(&spec) */
    EV_ATTACK,         /* who = attacker, target, hit, name = weapon id */
    EV_DAMAGE,         /* target, amount (taken off hp), hp; name = kind ("" plain HP
                          damage, or "nonlethal", "heat", "wounds"...); soaked and armor
                          (what soak and armour took) when opt has EV_OPT_SOAKED / _ARMOR */
    EV_CONDITION,      /* who, name = condition, on */
    EV_REACTION,       /* who = reactor, target = trigger combatant, name = kind */
    EV_DEFEATED,       /* who */
    EV_ROUND_END,      /* value = round */
    EV_END,            /* side = winner (-1 none), value = rounds */
    EV_ACTION,         /* who, name = action, target (-1 none), hit = success;
                          to = a hex it is about (opt EV_OPT_AT) */
    EV_DECLARE,        /* who, name = declared action, target; to = a telegraphed hex
                          (opt EV_OPT_AT), value (opt EV_OPT_VALUE: activations left...) */
    EV_STAT,           /* who, name = stat, value = new value; amount = the value
                          before (opt EV_OPT_FROM) */
    EV_TERRAIN,        /* to = cell, name = new terrain type */
    EV_TURN_END,       /* who (or side), value = round */
    EV_FLED,           /* who: left the battle alive */
    EV_PHASE,          /* name = the phase ("immediate", "movement"...), value = round */
    EV_AREA,           /* who, target (-1 none), name = shape, from, to, value = size,
                        * amount = width (line), tan_half (cone): see area.h */
    EV_COUNT
} ev_type_t;

/* Bits of event_t.opt: optional fields an event carries (printed only then). */
enum {
    EV_OPT_AT = 1u << 0,     /* declare, action: `to` is the telegraphed hex */
    EV_OPT_VALUE = 1u << 1,  /* declare: `value` means something */
    EV_OPT_SOAKED = 1u << 2, /* damage: `soaked` was rolled for */
    EV_OPT_ARMOR = 1u << 3,  /* damage: `armor` took part */
    EV_OPT_FROM = 1u << 4,   /* stat: `amount` is the value before the change */
};

typedef struct {
    ev_type_t type;
    unsigned opt;     /* EV_OPT_* */
    int who, target, side;
    cell_t from, to;
    int sides, n_dice, dice[EV_MAX_DICE];
    int kept_n, kept[EV_MAX_DICE];
    int mod, total;
    int successes;    /* EV_ROLL: see roll_result_t */
    roll_spec_t spec; /* EV_ROLL: how the dice were read */
    bool hit, on;
    int amount, hp, value;
    int soaked, armor; /* EV_DAMAGE: taken off by soak, by armour (see opt) */
    double tan_half; /* area: a cone's half-angle tangent */
    char name[EV_NAME_MAX];
} event_t;

typedef struct {
    event_t *ev;
    int n, cap;
} event_log_t;

/* An event of TYPE with every index field set to "none". */
event_t event_make(ev_type_t type);
/* Append a copy of e; false on OOM. */
bool event_push(event_log_t *log, const event_t *e);
/* Forget every event but keep the storage. */
void event_clear(event_log_t *log);
/* Free the storage. */
void event_log_free(event_log_t *log);
/* Wire name of an event type ("move_step"). */
const char *event_type_name(ev_type_t t);

#endif
