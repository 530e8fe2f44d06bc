/* act.h - private to the activation ruleset (src/rules/activation/).
 *
 * The action-value timeline of seed 002 as docs/rules-activation.md reads
 * it. The ruleset's state lives in battle_t.rs as plain data (no pointers),
 * so a reset zeroes it and a rebuild replays into it. The files:
 *   activation.c  the ruleset table: setup, actors, legal, apply, winner
 *   timeline.c    AV, activations, rounds, Priority, interrupt debt, forecast
 *   action.c      an action read from its data: cost, range, odds, damage
 *   pipeline.c    declaration, accuracy, hit, damage, effect, resolution; Delay
 *   react.c       trigger windows, interrupts, Hold! triggers, offers
 *   grapple.c     Grab, the Lift check, Co-Grapple, carry, Struggle Free
 *   move.c        the Move action step by step
 *   ai.c          the built-in AI and its reaction policy
 *   calls.c       the referee's override of hit and critical (A27)
 */
#ifndef HB_ACT_H
#define HB_ACT_H

#include "../../core/sight.h"
#include "../../core/trigger.h"
#include "../ruleset.h"

#define ACT_ROUND 1000      /* ticks in a round (A2) */
#define ACT_AV_NUM 10000    /* Base AV = ACT_AV_NUM / SPD ticks (A2) */
#define ACT_SIMPLE 2        /* simple actions in one activation */
#define ACT_PRIORITY_CAP 10 /* Priority X summed over an activation, at most (A3) */
#define ACT_DELAY_MAX 32    /* telegraphed actions waiting at once */
#define ACT_DEPTH_MAX 8     /* nested reactions (A5) */
#define ACT_STAGE_MAX 6     /* ACC/EVA stages run -6..+6 (A9) */
#define ACT_CRIT_BASE 5     /* d100 at or under 5 (+ tag crit) is critical (A14) */
#define ACT_LIFT_GOAL 11    /* Lift check: d20 + M >= 11 (A20) */
#define ACT_NMAX MAP_MAX_COMBATANTS
#define ACT_TAG_COUNT 22    /* tags an action is read from (action.c) */

/* Weapon slots that are not in a combatant's list: the basic Struggle every
 * creature has (A25) and the Grab every creature may use (the text). */
#define ACT_W_STRUGGLE CMD_WEAPON_NONE
#define ACT_W_GRAB CMD_WEAPON_GRAB

/* Stat slots, in the order of the names the templates use. */
enum {
    AS_SPD = 0,
    AS_ACC,      /* accuracy stages */
    AS_EVA,      /* evasion stages */
    AS_ATK,
    AS_DEF,
    AS_SPATK,
    AS_SPDEF,
    AS_PP,       /* power points left (stat_max: the pool) */
    AS_MOVEMENT, /* hexes one Move may cover; 0: from the speed in feet */
    AS_WC,       /* weight class 1..6 */
    AS_LIFT,     /* 0: 10 x WC (A25) */
    AS_RANGE_PLUS, /* hexes added to the range of every action (A-Z3, A11) */
    AS_RANGE_PCT,  /* then this percentage of it (A-Z3, A11) */
    AS_COUNT
};

/* Condition bits (unit_t.cond). */
enum {
    AC_GRAPPLED = 1u << 0, /* in a grapple: ACC -1, EVA -1, only [Grapple] actions */
    AC_BOUND = 1u << 1,    /* in a grapple and not its controller: Movement 0 */
    AC_POISONED = 1u << 2, /* loses max HP / 8 at the end of each of its activations */
};

enum { CAT_PHYSICAL = 0, CAT_SPECIAL = 1, CAT_STATUS = 2 };

typedef enum { SHAPE_SINGLE = 0, SHAPE_BURST, SHAPE_BLAST, SHAPE_CONE, SHAPE_LINE } act_shape_t;

/* Triggers of Interrupt actions (the `trigger` tag of an action) and of
 * Hold! (cmd_t.arg of CMD_STANDBY) are the shared vocabulary of
 * core/trigger.h; every one of them is detected here. The reactor always
 * reacts to a foe. */

/* The reaction windows of the pipeline and of movement (A6). */
typedef enum {
    WIN_DECLARE = 0, /* declared / targeted */
    WIN_ACCURACY,    /* after the accuracy roll */
    WIN_HIT,         /* hit confirmation */
    WIN_DAMAGE,      /* after damage (and critical hits) */
    WIN_EFFECT,      /* after the user's on-hit effect */
    WIN_RESOLUTION,  /* on resolution */
    WIN_STEP_BEFORE, /* a mover is about to step (leaves reach) */
    WIN_STEP_AFTER,  /* a mover has stepped (enters reach, moves in sight) */
    WIN_MOVE_END,    /* a Move has ended (ends move in range) */
    WIN_COUNT
} act_window_t;

/* An action as the rules read it: the data entry and its tags. */
typedef struct {
    const weapon_t *w; /* never NULL for a valid action */
    int slot;          /* weapon slot, ACT_W_STRUGGLE or ACT_W_GRAB */
    int cost;          /* simple actions: 0 free, 1 simple, 2 complex */
    int acc;           /* accuracy %; 0: none, it always hits (A-R2) */
    int pp;
    int priority, interrupt, trigger, delay;
    bool contact;      /* [Contact]: range = action range + reach - 1 (A12) */
    int category;      /* CAT_* */
    act_shape_t shape;
    int size;          /* burst/blast radius, cone/line length (hexes) */
    int range;         /* hexes: contact range, RI size, blast range */
    int crit, poison;  /* crit bonus; poison chance % */
    bool grapple;      /* [Grapple]: allowed inside a grapple */
    bool grab;         /* starts a grapple on a hit (the Lift check) */
    bool foes_only;    /* an area that spares the user's side */
    bool intercept;    /* Guard: the interrupter becomes the target */
    bool move;         /* a Move with this action's traits (Dash) */
    bool trigger_contact; /* reacts only to a [Contact] action */
} act_action_t;

/* The odds and numbers of one single-target use, as the roll will read them. */
typedef struct {
    bool legal;        /* may be aimed at this target at all */
    bool fails;        /* beyond the -6 limit at RI2 or farther: fails outright (A10) */
    int dist, ri;      /* hexes; range increment (1: within RI1; 0: contact/area) */
    int stage_raw;     /* ACC - EVA + modifiers, before clamping */
    int stage;         /* clamped to -6..+6 */
    int chance;        /* d100 at or under this hits; >= 100 always; acc 0: 100 */
    int crit_chance;   /* d100 at or under this is critical */
    int dmg_n, dmg_sides, dmg_bonus; /* rolled dice + bonus before atk/def */
    int dmg_mod;       /* atk/spatk - def/spdef */
    bool damages;      /* not a status action */
} act_odds_t;

/* A telegraphed action waiting for its activations to pass (A7, A8). */
typedef struct {
    unsigned char used;
    unsigned char held;  /* from Hold! (Delay X), else the action's own [Delay X] */
    short who, slot, target; /* target -1: aimed at the cell `at` */
    short left;          /* activations still to end before it resolves */
    cell_t at;           /* where it is aimed */
    cell_t from;         /* where its user stood: a template stays where it was laid */
} act_delay_t;

typedef struct {
    /* Timeline (absolute ticks: AV of i = next[i] - clock). */
    int clock;
    int next[ACT_NMAX];
    int base[ACT_NMAX];
    int acts[ACT_NMAX];            /* activations begun, for the log reader */
    unsigned char debt[ACT_NMAX];  /* simple actions owed to interrupts (A4) */
    int actor;                     /* whose activation it is, -1 for none */
    int left;                      /* simple actions left in it */
    bool simple_used;              /* a simple action was used: no complex now */
    int prio;                      /* Priority X resolved in it, summed */
    bool struck;                   /* it used an action on someone */
    /* Hold! with a trigger (A8): one at a time. */
    unsigned char held[ACT_NMAX];
    short held_slot[ACT_NMAX];
    short held_trigger[ACT_NMAX];
    short held_target[ACT_NMAX];   /* -1: any enemy */
    /* Grapples: gctl[i] = controller + 1 of the grapple i is in (0: none);
     * gside[i] 0 on the controller's side, 1 on the other; gseq orders the
     * carried participants. */
    short gctl[ACT_NMAX];
    unsigned char gside[ACT_NMAX];
    int gseq[ACT_NMAX];
    int gnext;
    act_delay_t delay[ACT_DELAY_MAX];
    int depth;                     /* reactions nested now (0 outside one) */
    int offer_reactor, offer_pick; /* the offer being made and the AI's answer to it */
    /* The referee's ruling on i's next attack (A27; cmd_override_t), and
     * whether the action now resolving has used it (it then clears). */
    unsigned char ovr[ACT_NMAX];
    unsigned char ovr_used[ACT_NMAX];
    /* The data's Struggle and Grab: index + 1 in the weapons of b->db, 0 for
     * none (the built-in ones then). Found at setup. */
    short w_struggle, w_grab;
    /* The tags of every weapon of b->db as act_action reads them (tags[k]
     * for db->weapons[k]), read once at setup: the AI reads actions in its
     * inner loops. */
    int tags[WEAPON_MAX][ACT_TAG_COUNT];
} act_state_t;

static inline act_state_t *act_st(battle_t *b) { return (act_state_t *)b->rs; }
static inline const act_state_t *act_cst(const battle_t *b) { return (const act_state_t *)b->rs; }
static inline hex_t act_pos(const battle_t *b, int i) { return b->board->pos[i]; }
static inline bool act_enemies(const battle_t *b, int i, int j)
{
    return !board_allies(b->board, i, j);
}
static inline bool act_has(const battle_t *b, int i, unsigned c) { return (b->u[i].cond & c) != 0; }
/* Has the command stopped (a manual die or a reaction question with no
 * answer yet, a broken limit)? Then nothing more needs resolving: the driver
 * rebuilds (battle.h, "Stopping"). */
static inline bool act_stopped(const battle_t *b) { return battle_halted(b); }

/* ---- calls.c: the referee's calls (A27) ---- */
/* ruleset_t.calls: the overrides the referee may rule on who's next attack. */
int act_calls(battle_t *b, int who, ref_call_t *out, int cap);
/* Apply a call (CMD_OVERRIDE), whoever's activation it is. */
battle_status_t act_apply_call(battle_t *b, const cmd_t *c);

/* ---- action.c ---- */
/* Read what act_action needs from b's data once (at setup): where its
 * Struggle and Grab are, and every weapon's tags. */
void act_read_data(battle_t *b);
/* Action `slot` of combatant i (a list slot, ACT_W_STRUGGLE or ACT_W_GRAB);
 * false when there is none. */
bool act_action(const battle_t *b, int i, int slot, act_action_t *out);
/* Range r (hexes) after changes (A-Z3, A11): whole hexes `plus` first, then
 * `pct` percent of the result, rounded to the nearest hex; a non-zero change
 * is at least one hex; a range is never below one hex. */
int act_change_range(int r, int plus, int pct);
/* i's reach in hexes (template reach, default one hex). */
int act_reach(const battle_t *b, int i);
/* Hexes of one Move for i now: Movement less the carry penalty, 0 when Bound. */
int act_move_hexes(const battle_t *b, int i);
/* May i pay for action a now, in its own activation (own) or as an interrupt? */
bool act_affordable(const battle_t *b, int i, const act_action_t *a, bool own);
/* Does the grapple allow i to use a on target t (-1: an area or none)? */
bool act_grapple_allows(const battle_t *b, int i, const act_action_t *a, int t);
/* The odds of i using a on t from where both stand (out->legal false when it
 * cannot be aimed there: out of range, no sight, total cover). */
void act_odds(const battle_t *b, int i, const act_action_t *a, int t, act_odds_t *out);
/* The same as if i stood at hex from; seen: the sight from there to t's hex
 * when the caller has traced it already (it reads the same line for several
 * actions), else NULL. */
void act_odds_from(const battle_t *b, int i, hex_t from, const act_action_t *a, int t,
                   const sight_t *seen, act_odds_t *out);
/* The odds of i's area action a on t, which its template caught. */
void act_odds_caught(const battle_t *b, int i, const act_action_t *a, int t, act_odds_t *out);
/* Accuracy stages lost at range increment ri (A10: RI2 1, RI3 3, RI4 6). */
int act_ri_penalty(int ri);
/* Mean damage of a hit from these odds (criticals counted). */
double act_mean_damage(const act_odds_t *o);
/* The area weapon w strikes from hex `from` aimed at hex `at` (the
 * ruleset's weapon_area hook); false when w has none. */
bool act_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out);
/* The template of area action a thrown from hex `from` at hex `aim`. */
bool act_area_of(const battle_t *b, const act_action_t *a, hex_t from, hex_t aim, area_t *out);
/* Can i aim area action a at hex aim from where it stands (a blast within
 * range and in line of effect; a cone or a line anywhere but its own hex)? */
bool act_area_aim_ok(const battle_t *b, int i, const act_action_t *a, hex_t aim);
/* Does template ar of action a cover hex h (a burst never its centre)? */
bool act_area_catches_hex(const battle_t *b, const act_action_t *a, const area_t *ar, hex_t h);
/* Does template ar of i's action a catch combatant k? */
bool act_area_catches(const battle_t *b, int i, const act_action_t *a, const area_t *ar, int k);

/* ---- timeline.c ---- */
/* Base AV of combatant i. */
int act_base_av(const battle_t *b, int i);
/* Fill base AVs, announce the order and begin the first activation. */
void act_timeline_start(battle_t *b);
/* End the current activation (poison, Priority, delays) and begin the next. */
void act_end_activation(battle_t *b);
/* Who acts next after the current moment, and when (absolute ticks); -1 if
 * nobody. */
int act_next_actor(const battle_t *b, int *when);
/* The next n activations from now, as they stand: who[k] acts at when[k]
 * (absolute ticks). The current actor's next one counts from its AV after
 * this activation with the Priority it has so far. Returns the count. */
int act_forecast(const battle_t *b, int *who, int *when, int cap);

/* ---- pipeline.c ---- */
/* i uses action `slot` on target t (or aimed at cell aim when t is -1)
 * through every step of the pipeline; depth: reactions it is nested in. */
void act_use(battle_t *b, int i, int slot, int t, cell_t aim, int depth);
/* i declares a telegraphed action (its own [Delay X] or Hold!'s, held);
 * false when the queue is full. */
bool act_declare_delay(battle_t *b, int i, int slot, int t, cell_t aim, int x, bool held);
/* An activation has ended: count it for every telegraphed action and
 * resolve those whose time has come. */
void act_delays_tick(battle_t *b);
/* Spend action a's PP, as it is declared (A-A8). */
void act_pay_pp(battle_t *b, int i, const act_action_t *a);
/* Take amount off t's HP (at least 0); faint at 0 (A15). */
void act_hurt(battle_t *b, int t, int amount);
/* Announce a condition change. */
void act_set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on);

/* ---- react.c ---- */
/* What set a window off. */
typedef struct {
    int user;          /* whose action or move it is */
    int target;        /* the action's target (-1: area or none); may be replaced */
    /* An area action targets every combatant in its template (A17): area
     * set, tgt[k] for each combatant k it targets. */
    bool area;
    unsigned char tgt[ACT_NMAX];
    const act_action_t *a; /* the action (NULL for a move) */
    hex_t from, to;    /* a move step */
    bool dash;         /* the first step of a Dash (TRIG_DASHES) */
    int hit;           /* WIN_HIT..: the combatant hit */
    bool cancelled;    /* an intercept or a faint stopped the action */
} act_trigger_t;
/* Does x's action target combatant k (its single target, or one of those
 * its area caught)? */
static inline bool act_targets(const act_trigger_t *x, int k)
{
    return k >= 0 && (x->area ? x->tgt[k] != 0 : x->target == k);
}
/* x is an area action of i whose template is ar: every combatant the
 * template catches is its target (A17). */
void act_area_targets(const battle_t *b, int i, const act_action_t *a, const area_t *ar,
                      act_trigger_t *x);
/* Open window `win` on x: every reactor whose trigger it meets may declare
 * an answer, each effect once; the answers declared then resolve by the
 * level each declared, then Base AV (A5). depth: of the action. */
void act_window(battle_t *b, act_window_t win, act_trigger_t *x, int depth);
/* After a [Grapple] action of `user` on `target`: offer Co-Grapple (A24). */
void act_offer_cograpple(battle_t *b, int user, int target);
/* The held action of i runs out (its next activation began). */
void act_hold_lost(battle_t *b, int i);
/* The option reactor r takes among n (labels[0..n), 0: pass) for reaction
 * KIND set off by trigger: the table's when its side decides, else ai_pick
 * (the ruleset's react policy). */
int act_offer(battle_t *b, int r, const char *kind, int trigger, int n, const char *const *labels,
              int ai_pick);

/* ---- grapple.c ---- */
/* Is i in a grapple; is it the controller? */
bool act_in_grapple(const battle_t *b, int i);
bool act_controls(const battle_t *b, int i);
/* Are i and j in the same grapple? */
bool act_same_grapple(const battle_t *b, int i, int j);
/* Summed weight classes of the side of the grapple i is on (just i when free). */
int act_side_wc(const battle_t *b, int i);
/* The Lift modifier (A20): (mine - theirs) / 2 rounded away from zero. */
int act_lift_mod(int mine, int theirs);
/* The controller's carry penalty in hexes (A21). */
int act_carry_penalty(const battle_t *b, int ctl);
/* The Lift check of a Grab that hit: a grapple forms on a success. */
void act_grab_effect(battle_t *b, int user, int t);
/* i joins the grapple of `with` on its side (0 controller's, 1 the other). */
void act_join_grapple(battle_t *b, int i, int ctl, int side);
/* i leaves its grapple (struggled free, released, fainted). */
void act_leave_grapple(battle_t *b, int i);
/* The controller ends its whole grapple. */
void act_release(battle_t *b, int ctl);
/* Struggle Free: a Lift check with the sides reversed. */
void act_struggle_free(battle_t *b, int i);
/* After the controller stepped from h0: its participants follow. */
void act_carry(battle_t *b, int ctl, hex_t h0);

/* ---- move.c ---- */
/* Move modes (cmd_t.arg of CMD_MOVE): a plain Move, or a Move with the
 * traits of the mover's movement action (Dash: [Priority 3]). */
enum { AM_MOVE = 0, AM_DASH, AM_COUNT };
extern const char *const ACT_MOVE_MODES[AM_COUNT];
/* The action behind mode `mode` of i: false for a plain Move (*out is then a
 * simple action with no traits) and for a mode i has no action for (then
 * the function returns false and *out->w is NULL). */
bool act_move_action(const battle_t *b, int i, int mode, act_action_t *out);
/* How i moves in `mode` now (ruleset_t.move_cost): for the actor, false when
 * it cannot pay for the Move. */
bool act_move_cost(const battle_t *b, int i, int mode, move_cost_t *out);
/* i walks path[0..n) (already paid), opening the step windows. */
void act_walk(battle_t *b, int i, const cell_t *path, int n, bool dash);

/* ---- present.c: the G3 hooks (ruleset.h) ---- */
bool act_predict(const battle_t *b, const cmd_t *c, predict_t *out);
int act_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
              const geo_profile_t *prof, range_band_t *out, int cap);
int act_gauges(const battle_t *b, int i, gauge_t *out, int cap);
int act_queue(const battle_t *b, turn_slot_t *out, int cap);
bool act_tell(const battle_t *b, int k, char *buf, size_t cap);
bool act_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap);

/* ---- ai.c ---- */
void act_ai(battle_t *b, int a, cmd_t *out);
/* Which option reactor r takes (0: pass) of the n it is offered, labels as
 * given, the action offered as option k being opt[k-1] aimed at subj[k-1]
 * (the foe it would strike). */
int act_ai_react(const battle_t *b, int r, const act_trigger_t *x, int n,
                 const act_action_t *const *opt, const int *subj);

#endif
