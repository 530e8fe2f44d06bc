/* cmd.h - choices as plain values: what a player or the AI asks a ruleset to do.
 *
 * A battle is the map, the seed, the entered dice and the list of accepted
 * commands; replaying that list rebuilds it exactly (undo, saves, replays).
 * Commands hold indices and cells only, never pointers.
 */
#ifndef HB_CMD_H
#define HB_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "hex.h"

/* Longest path one move command carries; longer moves are several commands. */
#define CMD_PATH_MAX 128
/* Most reaction answers one command carries (cmd_t.answer). */
#define CMD_ANSWERS_MAX 64

typedef enum {
    CMD_END = 0,  /* end the turn (a side's declarations: done) */
    CMD_MOVE,     /* follow path[] */
    CMD_ENGAGE,   /* attack target with weapon (and weapon2 for a dual strike) */
    CMD_DASH,     /* action: movement budget doubles */
    CMD_STANDBY,  /* action: hold for trigger arg (a trigger_t, core/trigger.h) against
                     target (-1 any) an engage with weapon, or (act CMD_MOVE) a move
                     to cell `at` */
    CMD_ASSIST,   /* action: distract target for the allies' next engagement */
    CMD_HIDE,     /* action: stealth check */
    CMD_SEARCH,   /* action: look for hidden enemies */
    CMD_CLOAK,    /* action: become cloaked (needs the "cloak" stat) */
    CMD_GRAPPLE,  /* engage action: seize target */
    CMD_ESCAPE,   /* action: break a grapple */
    CMD_RELEASE,  /* free: let go of a grappled target */
    CMD_SHOVE,    /* engage action: arg 0 knock down, 1 push 5 ft */
    CMD_USE,      /* action: use the object at cell `at` (open a door) */
    CMD_SWITCH,   /* action: equip weapon */
    CMD_MOUNT,    /* action: mount target */
    CMD_DISMOUNT, /* action: get off the mount */
    CMD_FLY,      /* free: take off (arg 1) or land (arg 0) */
    CMD_DECLARE,  /* scars: declare path + act (CMD_ENGAGE/CMD_MOVE/CMD_RETREAT/CMD_END) */
    CMD_RETREAT,  /* scars: flee the battle (DEX save, needs a safe edge) */
    CMD_STAND,    /* action: stand up from prone */
    CMD_TELEPORT, /* action: blink to the seen, empty cell `at` (xhalem "teleport" stat) */
    CMD_COMMIT,   /* hold an aimed shot or spell with weapon for a later phase (emcore) */
    CMD_COVER,    /* take cover from ranged attacks (emcore) */
    CMD_EVADE,    /* evade: one roll opposes every ranged attack this turn (emcore) */
    CMD_DISENGAGE, /* declared action: break from melee instead of fighting (emcore) */
    CMD_NOCK,     /* ready a weapon that needs it (an arrow on a bow) (emcore) */
    /* The referee's calls (cmd_is_call; ruleset_t.call_kinds says which a ruleset takes): */
    CMD_SAVE,      /* call for a save by actor; arg = the ability (ruleset's stat slot) */
    CMD_TELEGRAPH, /* announce what actor (arg 1: every Architect combatant of its side)
                      will most likely do */
    CMD_MARK,      /* actor's attack this phase is impaired (arg 1), enhanced (2) or neither (0) */
    CMD_STABILIZE, /* declared action: aid the helpless ally `target` (scars) */
    CMD_WEAKEN,    /* detachment actor's critical damage weakens it (arg 1) or routs it (0) */
    CMD_OVERRIDE,  /* the referee rules actor's next attack: arg a cmd_override_t */
    CMD_COUNT
} cmd_kind_t;

/* CMD_OVERRIDE.arg: what the referee rules about actor's next attack, in
 * place of the dice (activation A27; README G11). */
typedef enum {
    OVERRIDE_NONE = 0, /* clear a ruling not yet used: the dice decide again */
    OVERRIDE_MISS,     /* it misses */
    OVERRIDE_HIT,      /* it hits; whether it is critical is rolled as usual */
    OVERRIDE_CRIT,     /* it hits, critically */
    OVERRIDE_NO_CRIT,  /* it hits, not critically */
    OVERRIDE_COUNT
} cmd_override_t;

/* Largest cmd_t.arg a ruleset gives (surface packs a vehicle's further
 * weapons into bits 12..23); a save's "arg" outside 0..CMD_ARG_MAX is refused. */
#define CMD_ARG_MAX 0xffffff

/* cmd_t.weapon for no weapon (unarmed; activation's basic Struggle), and
 * for the Grab every creature of a ruleset that has one may use whatever it
 * carries (activation; the JSON form names it "grab"). */
#define CMD_WEAPON_NONE (-1)
#define CMD_WEAPON_GRAB (-2)

typedef struct {
    cmd_kind_t kind;
    int actor;
    int target;       /* combatant index, -1 for none */
    int weapon;       /* index into the actor's weapons, -1 for unarmed */
    int weapon2;      /* second weapon of a dual attack, -1 for none */
    int arg;          /* kind-specific, see above */
    cmd_kind_t act;   /* CMD_DECLARE: the declared action; CMD_STANDBY: the held one */
    cell_t at;        /* CMD_USE: the object's cell; CMD_DISMOUNT, held move: where to */
    /* The table's answers to the reactions it was asked about while this
     * command played out (battle_opts_t.ask_sides), in the order asked:
     * answer[k] is the option chosen for the k-th, 0 to let it pass (for a
     * yes/no reaction, 1 takes it). Kept in the command so that a rebuild
     * from the command list replays the same choices. */
    int n_answers;
    uint8_t answer[CMD_ANSWERS_MAX];
    int n_path;
    cell_t path[CMD_PATH_MAX]; /* cells entered, in order (the start excluded) */
} cmd_t;

typedef struct {
    cmd_t *c;
    int n, cap;
} cmd_log_t;

/* A command of KIND by ACTOR with no target, weapon or path. */
cmd_t cmd_make(cmd_kind_t kind, int actor);
/* Append a copy; false on OOM. */
bool cmd_push(cmd_log_t *log, const cmd_t *c);
/* Free the storage. */
void cmd_log_free(cmd_log_t *log);
/* Wire name of a command kind ("engage"). */
const char *cmd_kind_name(cmd_kind_t k);
/* Kind for a wire name, or -1. */
int cmd_kind_parse(const char *name);
/* Is k one of the referee's calls (save, telegraph, mark, weaken, override):
 * a command the table gives about a combatant whoever's turn it is, never
 * the AI? A ruleset says which of them it takes (ruleset_t.call_kinds). */
bool cmd_is_call(cmd_kind_t k);

#endif
