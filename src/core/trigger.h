/* trigger.h - the moments a held action or an interrupt can wait for, one
 * vocabulary for every ruleset (xhalem's standby, activation's Hold! and
 * Interrupt, emcore's readied actions).
 *
 * A ruleset supports the triggers it can detect (xhalem: the first six) and
 * refuses the rest; CMD_STANDBY.arg is a trigger_t. The numbers are part of
 * saved commands: new triggers go at the end.
 */
#ifndef HB_TRIGGER_H
#define HB_TRIGGER_H

#include <stdbool.h>

typedef enum {
    TRIG_ENTERS_REACH = 0,  /* an enemy moves to where the held weapon can strike */
    TRIG_ATTACKS,           /* an enemy makes an attack (any engagement) */
    TRIG_DASHES,            /* an enemy dashes, thrusts or runs */
    TRIG_ATTACKS_RANGED,    /* an enemy attacks with a ranged or thrown weapon */
    TRIG_MOVES_IN_SIGHT,    /* an enemy takes any step the holder can see */
    TRIG_TARGETS_ALLY,      /* an enemy attacks one of the holder's allies */
    TRIG_LEAVES_REACH,      /* an enemy steps out of the held weapon's reach */
    TRIG_TARGETS_SELF,      /* an enemy attacks the holder */
    TRIG_HIT_SELF,          /* an enemy's attack hits the holder */
    TRIG_HIT_ALLY,          /* an enemy's attack hits one of the holder's allies */
    TRIG_ENDS_MOVE_IN_RANGE, /* an enemy ends a move within the held weapon's range */
    TRIG_DECLARES,          /* an enemy declares an action */
    TRIG_COUNT,             /* the triggers above are deeds of an enemy */
    /* Moments: the held action goes at a chosen point of the round, whatever
     * anyone does. A ruleset offers them only when it says so, which is why
     * they lie past TRIG_COUNT (loops over the deeds stay as they were). */
    TRIG_ROUND_STARTS = TRIG_COUNT, /* the round begins, before anyone acts in it */
    TRIG_TURN_STARTS,       /* an enemy's turn (its slot) begins, before it acts */
    /* Deeds of an ally (activation: the text opens trigger windows to "any
     * other combatant", its example "when an ally hits an enemy"); the held
     * action then goes at the enemy the ally struck or aimed at. */
    TRIG_ALLY_HITS,         /* an ally's attack hits one of the holder's enemies */
    TRIG_ALLY_TARGETS,      /* an ally attacks one of the holder's enemies */
    TRIG_END                /* every trigger, deeds and moments */
} trigger_t;

/* Wire name ("enters_reach"), or "" for a number that is no trigger. */
const char *trigger_name(int t);
/* Words for the screen ("enemy comes in reach"), or "trigger". */
const char *trigger_label(int t);
/* Trigger for a wire name, or -1. */
int trigger_parse(const char *name);

#endif
