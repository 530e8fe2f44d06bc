/* trigger.c - names and words of the trigger vocabulary (see trigger.h). */
#include "trigger.h"

#include <string.h>

static const char *const NAMES[TRIG_END] = {
    [TRIG_ENTERS_REACH] = "enters_reach",     [TRIG_ATTACKS] = "attacks",
    [TRIG_DASHES] = "dashes",                 [TRIG_ATTACKS_RANGED] = "attacks_ranged",
    [TRIG_MOVES_IN_SIGHT] = "moves_in_sight", [TRIG_TARGETS_ALLY] = "targets_ally",
    [TRIG_LEAVES_REACH] = "leaves_reach",     [TRIG_TARGETS_SELF] = "targets_self",
    [TRIG_HIT_SELF] = "hit_self",             [TRIG_HIT_ALLY] = "hit_ally",
    [TRIG_ENDS_MOVE_IN_RANGE] = "ends_move_in_range", [TRIG_DECLARES] = "declares",
    [TRIG_ROUND_STARTS] = "round_starts",     [TRIG_TURN_STARTS] = "turn_starts",
    [TRIG_ALLY_HITS] = "ally_hits",           [TRIG_ALLY_TARGETS] = "ally_targets",
};

static const char *const LABELS[TRIG_END] = {
    [TRIG_ENTERS_REACH] = "enemy comes in reach",  [TRIG_ATTACKS] = "enemy engages",
    [TRIG_DASHES] = "enemy dashes",                [TRIG_ATTACKS_RANGED] = "enemy shoots",
    [TRIG_MOVES_IN_SIGHT] = "enemy moves in sight", [TRIG_TARGETS_ALLY] = "ally engaged",
    [TRIG_LEAVES_REACH] = "enemy leaves reach",    [TRIG_TARGETS_SELF] = "enemy attacks me",
    [TRIG_HIT_SELF] = "I am hit",                  [TRIG_HIT_ALLY] = "ally hit",
    [TRIG_ENDS_MOVE_IN_RANGE] = "enemy stops in range", [TRIG_DECLARES] = "enemy declares",
    [TRIG_ROUND_STARTS] = "the round begins",      [TRIG_TURN_STARTS] = "enemy's turn begins",
    [TRIG_ALLY_HITS] = "ally hits an enemy",       [TRIG_ALLY_TARGETS] = "ally attacks an enemy",
};

const char *trigger_name(int t) { return t >= 0 && t < TRIG_END ? NAMES[t] : ""; }

const char *trigger_label(int t) { return t >= 0 && t < TRIG_END ? LABELS[t] : "trigger"; }

int trigger_parse(const char *name)
{
    for (int t = 0; name && t < TRIG_END; t++)
        if (strcmp(NAMES[t], name) == 0)
            return t;
    return -1;
}
