/* roll.h - the shape of a roll: how many dice, which of them count, and how
 * the kept faces are read (a sum, a count of successes, or pass/fail against
 * a target).
 *
 * One spec serves every ruleset: xhalem's 2d20 keep the highest, scars' d20
 * save, a pool of d12s counting 8+ with 10+ as two and a 1 taking one away,
 * 2d6 under a morale score, d100 under a chance. The battle rolls a spec
 * (battle_roll_spec), the log and the physical-dice prompt describe it
 * (roll_describe), and rulesets and odds read faces the same way (roll_read).
 */
#ifndef HB_ROLL_H
#define HB_ROLL_H

#include <stdbool.h>
#include <stddef.h>

/* Most dice one roll may throw; a bigger roll is refused, never cut short. */
#define ROLL_MAX_DICE 32
/* Most faces a die may have (d1000). */
#define ROLL_MAX_SIDES 1000

/* A pass/fail roll: the total must reach the target, or stay at or under it. */
typedef enum { ROLL_GOAL_NONE = 0, ROLL_GOAL_AT_LEAST, ROLL_GOAL_AT_MOST } roll_goal_t;

typedef struct {
    int n;           /* dice thrown, 0..ROLL_MAX_DICE (0: only mod) */
    int sides;       /* faces of each die, 1..ROLL_MAX_SIDES (0 allowed when n is 0) */
    int keep;        /* keep the keep highest (> 0), the -keep lowest (< 0), or all (0) */
    int mod;         /* added to the kept sum (or, counting, to the successes) */
    /* Success counting (count_at > 0): each kept die showing count_at or more
     * is one success; one showing crit_at or more (crit_at > 0) counts
     * crit_value instead; one showing botch_at or less (botch_at > 0) takes
     * botch_value away. The total is then the successes (mod included), and
     * may fall below zero: the ruleset decides what a net botch means. */
    int count_at;
    int crit_at, crit_value;
    int botch_at, botch_value;
    /* Pass/fail (goal set, not counting): the total against target. The roll
     * then has 1 success when it passes and 0 when it fails. */
    roll_goal_t goal;
    int target;
} roll_spec_t;

/* The faces of one roll read through its spec. */
typedef struct {
    int kept[ROLL_MAX_DICE];
    int kept_n;
    int total;       /* kept sum + mod; counting: successes */
    int successes;   /* counting: the count (mod included); goal: 1 pass, 0 fail; else 0 */
} roll_result_t;

/* A plain roll: n dice of `sides`, keep as above, plus mod. */
roll_spec_t roll_plain(int n, int sides, int keep, int mod);
/* Is the spec within every limit? When not, writes why (for the fault the
 * battle raises: "40d6 is more than 32 dice") and returns false. */
bool roll_check(const roll_spec_t *s, char *why, size_t cap);
/* Does the spec read successes or pass/fail (not a plain sum)? */
bool roll_counts(const roll_spec_t *s);
/* Read faces dice[0..s->n) (each 1..sides) through spec s. */
void roll_read(const roll_spec_t *s, const int *dice, roll_result_t *out);
/* Successes one face is worth under s (counting specs; 0 otherwise). */
int roll_face_successes(const roll_spec_t *s, int face);
/* A short description for the log and the dice prompt, such as "2d20, keep
 * the highest, +3" or "3d12: 8+ succeeds, 10+ counts 2, a 1 takes one away"
 * or "1d20+2: 20 or more succeeds". Returns the length written (snprintf's). */
int roll_describe(const roll_spec_t *s, char *buf, size_t cap);

#endif
