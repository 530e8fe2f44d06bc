/* ruleset.h - the interface every combat system implements, and the registry.
 *
 * A ruleset is a table of functions in a file of its own, found by id. It
 * answers the geometry (how far a combatant reaches, moves and flanks) and
 * plays the battle: setup and initiative, who may give commands now, the legal
 * actions, applying a command (which appends events), reactions, the AI's
 * choice and the end of the battle. "Who acts" is a set, not one combatant,
 * so a side that declares together (scars) fits as well as an initiative
 * order (xhalem). Rulesets see the core only: no SDL, no JSON, no files.
 * src/rules/play.h drives a battle through this table.
 */
#ifndef HB_RULESET_H
#define HB_RULESET_H

#include "../core/area.h"
#include "../core/battle.h"
#include "../core/geom.h"
#include "../core/tmpl.h"
#include "predict.h"

/* A reaction offered to a combatant: the ruleset's name for it
 * ("opportunity", "standby", "soak", "co_grapple"...), who set it off, and
 * its options (0 always lets it pass; labels[k] names option k). */
typedef struct {
    const char *kind;
    int trigger;
    int n;
    const char *const *labels; /* may be NULL for a yes/no reaction */
} react_offer_t;

/* ---- presentation (G3): what the screen shows, read from the rules ---- */

/* How a gauge reads: full is good (HP), full is bad (heat), or neither (a
 * pool of points). The UI picks the colour from this, never from the label. */
typedef enum { GAUGE_HEALTH = 0, GAUGE_LOAD, GAUGE_POOL } gauge_kind_t;

/* Who at the table may see a gauge (the projector's player view reads it):
 * only the combatant's own side (its players keep their sheets; the default),
 * or anyone who can see the combatant, because the table would see it too
 * (plates blown off, a heat sink glowing). */
typedef enum { GAUGE_SEEN_OWN = 0, GAUGE_SEEN_ALL } gauge_seen_t;

#define GAUGE_LABEL_MAX 16
#define GAUGES_MAX 6 /* most gauges one combatant shows */

/* One number of a combatant worth a bar: HP, armour HP, heat, wounds... */
typedef struct {
    char key[MAP_ID_MAX];        /* the stat key it shows ("hp", "pp"), named in the data */
    char label[GAUGE_LABEL_MAX]; /* short: "HP", "armour", "heat", "PP" */
    int value, max;              /* max > 0 */
    gauge_kind_t kind;
    gauge_seen_t seen; /* GAUGE_SEEN_OWN unless the ruleset says otherwise */
} gauge_t;

#define INTENT_LABEL_MAX 32

/* One intention the referee has told the players about (a telegraph of what
 * a combatant will most likely do next), standing until it plays out. */
typedef struct {
    int who;     /* whose intention */
    int target;  /* the combatant it means to attack, -1 none */
    bool has_at; /* at: the hex it means to go to */
    cell_t at;
    char label[INTENT_LABEL_MAX]; /* the table's words: "attack", "move", "retreat", "hold" */
} intent_t;

#define RANGE_BANDS_MAX 3 /* in reach / a middle band / the farthest */
#define RANGE_LABEL_MAX 48

/* How far out a band lies, for its colour: the first reach, a farther band,
 * the farthest or penalized one. */
typedef enum { RANGE_NEAR = 0, RANGE_MID, RANGE_FAR } range_tier_t;

/* One range band of a weapon: out to `hexes` from its user, and what an
 * attack there is like ("nearby (up to 10 hexes)", "RI2: -1 stage"). */
typedef struct {
    int hexes;
    range_tier_t tier;
    char label[RANGE_LABEL_MAX];
} range_band_t;

#define QUEUE_MAX 16 /* most upcoming turns the tracker lists */
#define QUEUE_LABEL_MAX 32

/* One upcoming turn for the tracker: a combatant (who >= 0) or a whole side
 * (who -1, side set), in the order they come. */
typedef struct {
    int who, side;
    char label[QUEUE_LABEL_MAX]; /* what the ruleset says about it: "AV 40", "round 3" */
    /* Not a turn: an answer already declared to the moment the table is
     * being asked about, waiting to resolve (these come first, in the order
     * they will resolve; label names the answer). */
    bool reaction;
} turn_slot_t;

/* One call the referee may make now (ruleset_t.calls): the command that
 * makes it, and what the button says. */
typedef struct {
    cmd_t cmd;
    char label[128];
} ref_call_t;

#define REFUSAL_WHY_MAX 64

/* An action of a combatant's kit that the rules refuse it now, and why, in
 * the table's words (ruleset_t.refused). */
typedef struct {
    cmd_t cmd; /* as the action bar names it: kind, act, weapon, arg; no target, no path */
    char why[REFUSAL_WHY_MAX]; /* "needs 2 actions, 1 left", "cannot fire after a move" */
} refusal_t;

/* Ammunition one combatant used in a battle: a weapon and the rounds it
 * spent (ruleset_t.ammo_used), for the table's Usage rolls after it. */
typedef struct {
    int who;
    char weapon[MAP_ID_MAX]; /* the weapon's id */
    int rounds;
} ammo_use_t;

typedef struct ruleset {
    const char *id;
    const char *title;
    /* Lengths for combatant c on map m (feet), with the weapons it starts
     * with in hand looked up in db (NULL: no weapon data, the body alone).
     * A battle may update its copy (battle_t.prof) as weapons change hands. */
    void (*geo_profile)(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                        geo_profile_t *out);

    /* Stat names in the templates, in the slot order the ruleset reads them. */
    const char *const *stat_names;
    int n_stats;
    /* Bytes of plain-data state the ruleset keeps in battle_t.rs. */
    size_t state_size;
    /* Start the battle: initiative or order, the first turn (may roll). */
    void (*setup)(battle_t *b);
    /* Combatants who may give a command now; returns the count (0 when over). */
    int (*actors)(const battle_t *b, int *out, int cap);
    /* Move modes (walk, fly, dash; move, second move...): n_move_modes names,
     * mode k's name move_modes[k] (a short lowercase word, for the UI and
     * `query reach --mode`). CMD_MOVE.arg is the mode. */
    const char *const *move_modes;
    int n_move_modes;
    /* How combatant i moves in `mode` now: the step cost, where it may end,
     * the feet left and the interval (geom.h, move_cost_t). For the acting
     * combatant the budget is what its turn has left; for anyone else, what
     * a fresh turn would give. False when i cannot move that way now. Never
     * rolls. The reachable set, the UI's path and apply's check all price a
     * move through this, so they cannot disagree. */
    bool (*move_cost)(const battle_t *b, int i, int mode, move_cost_t *out);
    /* Commands legal for actor now. Moves are listed once per mode that has
     * somewhere to go (CMD_MOVE, arg = mode, no path): any path that mode's
     * move_cost accepts (geom_path_price) within its budget is legal. Returns
     * the count, writing at most cap. Never rolls (nor does ai or react). */
    int (*legal)(battle_t *b, int actor, cmd_t *out, int cap);
    /* Check and carry out c, appending events. BATTLE_ILLEGAL leaves the battle
     * untouched; BATTLE_OK otherwise. May roll and ask the table freely: a
     * die or an answer not yet given raises a stop mark and apply just runs
     * on to its end (battle.h, "Stopping"; docs/rulesets.md). */
    battle_status_t (*apply)(battle_t *b, const cmd_t *c);
    /* Which option of the offer reactor takes, 0..n-1 (0: let it pass): the
     * policy when the table does not decide (the AI's choice, and every
     * side's that is not asked). May be NULL: always 0. Never rolls. */
    int (*react)(const battle_t *b, int reactor, const react_offer_t *offer);
    /* The built-in AI's next command for actor. */
    void (*ai)(battle_t *b, int actor, cmd_t *out);
    /* Winning side index, -1 when nobody is left, -2 while the fight goes on. */
    int (*winner)(const battle_t *b);
    /* True when combatant who is hidden, cloaked or concealed and no member of
     * board side `side` has detected it, so that side's view must leave it out.
     * May be NULL (nothing is ever hidden); callers check. */
    bool (*hidden_from)(const battle_t *b, int who, int side);
    /* The area weapon w strikes when a combatant standing at `from` aims it at
     * hex `at` on map m (a blast around a target, a cone, a line): true with
     * *out filled, false when w strikes no area. apply and the `area:`
     * overlay both ask this, so the hexes shown are the hexes struck. May be
     * NULL (no weapon of the ruleset has an area). */
    bool (*weapon_area)(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out);
    /* The calls the text leaves to the referee that may be made about
     * combatant who now (a save, a mark on its attack, telegraphing what it
     * will do...): each a command applied like any other, so saves and
     * replays keep them. Returns the count, writing at most cap. Never rolls.
     * May be NULL (the ruleset leaves nothing to the referee). */
    int (*calls)(battle_t *b, int who, ref_call_t *out, int cap);
    /* Which of the referee's call kinds (cmd_is_call) apply takes, one bit
     * per kind (RULESET_CALL(CMD_MARK) | ...): the driver refuses the others
     * before apply sees them. 0: none. */
    uint64_t call_kinds;

    /* ---- presentation (G3; docs/rulesets.md). Every hook may be NULL, and
     * the UI then falls back on what any ruleset has. Movement left is
     * move_cost's budget_ft, so it needs no hook of its own. ---- */
    /* The odds of command c (an attack of this ruleset: CMD_ENGAGE, or a
     * declaration or commitment of one) as the battle stands: the chance it
     * lands and the expected loss, computed from the same function apply
     * resolves it with, so the two cannot drift. Never rolls. False (out
     * zeroed) when c is no attack it predicts or cannot be made now. NULL:
     * the screen shows no odds. Callers go through predict_cmd (predict.h). */
    bool (*predict)(const battle_t *b, const cmd_t *c, predict_t *out);
    /* The range bands of weapon w (NULL: unarmed) in the hands of combatant
     * c of map m (prof: its lengths), nearest first: at most cap, returns
     * the count. Reads the map alone (the editor has no battle). NULL: one
     * band, the melee reach or the weapon's range (ruleset_bands). */
    int (*bands)(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
                 const geo_profile_t *prof, range_band_t *out, int cap);
    /* Combatant i's gauges, HP first when it has HP: at most cap, returns
     * the count. NULL: HP alone (ruleset_gauges). */
    int (*gauges)(const battle_t *b, int i, gauge_t *out, int cap);
    /* The upcoming turns from now, next first: at most cap, returns the
     * count. NULL: the tracker lists the initiative order the log announced. */
    int (*queue)(const battle_t *b, turn_slot_t *out, int cap);
    /* The action bar's words for legal command c ("Subdue: knife", "Aim:
     * bow", "Telegraph: fireball (delay 2)"): true with label filled, false
     * to let the screen name it from the command's kind and weapon. NULL:
     * the screen names every command. */
    bool (*describe)(const battle_t *b, const cmd_t *c, char *label, size_t cap);
    /* The intentions the referee has telegraphed to the players that still
     * stand (shown on the projector until the declarations they foretell
     * resolve), oldest first: at most cap, returns the count. Read from the
     * battle (its log or state) alone; never rolls. NULL: none. */
    int (*intents)(const battle_t *b, intent_t *out, int cap);
    /* The actions of actor's kit that the rules refuse it now for a reason
     * the table should see (an attack that needs more actions than are
     * left, a weapon that may not fire after a move, the turn's one attack
     * already made), each once with its reason, so the action bar shows
     * them greyed instead of dropping them. Never a command legal() lists
     * now; never rolls. At most cap, returns the count. NULL: a refused
     * action simply leaves the bar. */
    int (*refused)(const battle_t *b, int actor, refusal_t *out, int cap);
    /* The ammunition used so far, combatant by combatant in map order,
     * weapon by weapon in list order (only weapons that used some): the
     * `end` event lists it and the end of the battle on screen shows it.
     * Never rolls. At most cap, returns the count. NULL: none is counted. */
    int (*ammo_used)(const battle_t *b, ammo_use_t *out, int cap);
    /* The ruleset's own words for log event k of b, when the screen's
     * generic words would not tell the table enough (how the activation
     * timeline works, at the first initiative event): true with buf filled
     * ('\n' between lines), false for the generic words. Never rolls. */
    bool (*tell)(const battle_t *b, int k, char *buf, size_t cap);
    /* Revision of these rules: bump it with every fix that changes how a
     * saved battle's commands play out. A save records it; one made under
     * another revision is replayed under the current rules, with a note when
     * the battle no longer comes out as saved (docs/saves.md). 0 if unset. */
    int revision;
} ruleset_t;

/* The bit of call kind k in ruleset_t.call_kinds. */
#define RULESET_CALL(k) ((uint64_t)1 << (k))

/* Does rs take referee's call kind k (ruleset_t.call_kinds)? */
bool ruleset_takes_call(const ruleset_t *rs, cmd_kind_t k);
/* The ruleset with this id, or NULL. */
const ruleset_t *ruleset_find(const char *id);
/* Registered rulesets, for listings; returns the count. */
int ruleset_list(const ruleset_t *const **out);
/* Profiles of every combatant of board b into prof[b->n] (db: the weapons, may be NULL). */
void ruleset_profiles(const ruleset_t *rs, const board_t *b, const tmpl_db_t *db,
                      geo_profile_t *prof);
/* Which of n options (labels, 0 = let it pass) combatant reactor takes for
 * reaction KIND set off by trigger: the table's answer when its side decides
 * (battle_table_choice: declined, asked, or waiting to be asked, which stops
 * the command as a starved die does), else the ruleset's react policy.
 * Returns 0..n-1. Call it once everything else allows the reaction, before
 * changing anything for it; the answer is part of the command, so a rebuild
 * replays it. */
int battle_ask_choice(battle_t *b, int reactor, const char *kind, int trigger, int n,
                      const char *const *labels);
/* Range bands of w for combatant c (rs->bands, or the generic one: melee
 * reach, or the weapon's range). Returns the count, at least 1. */
int ruleset_bands(const ruleset_t *rs, const map_t *m, const tmpl_db_t *db,
                  const map_combatant_t *c,
                  const weapon_t *w, const geo_profile_t *prof, range_band_t *out, int cap);
/* Combatant i's gauges (rs->gauges, or HP alone). Returns the count. */
int ruleset_gauges(const ruleset_t *rs, const battle_t *b, int i, gauge_t *out, int cap);
/* The upcoming turns (rs->queue); 0 when the ruleset has no hook. */
int ruleset_queue(const ruleset_t *rs, const battle_t *b, turn_slot_t *out, int cap);
/* The standing telegraphed intentions (rs->intents); 0 without the hook. */
int ruleset_intents(const ruleset_t *rs, const battle_t *b, intent_t *out, int cap);
/* The refused actions of actor with their reasons (rs->refused); 0 without the hook. */
int ruleset_refused(const ruleset_t *rs, const battle_t *b, int actor, refusal_t *out, int cap);
/* Fill a gauge (label cut to fit), seen by its own side only. */
gauge_t gauge_make(const char *label, int value, int max, gauge_kind_t kind);
/* The same for stat or gauge KEY of b's ruleset, labelled with the short
 * name its data gives the key (ruleset_stat_word). */
gauge_t gauge_named(const battle_t *b, const char *key, int value, int max, gauge_kind_t kind);
/* The table's word for stat or gauge KEY from the ruleset's data (db's
 * stat_names, loaded by src/io): its name ("Vulnerability"), or with brief
 * its short form ("PP"). A key the data leaves out reads as the key with
 * spaces for underscores and a capital first letter. Written into buf;
 * returns buf. */
const char *ruleset_stat_word(const tmpl_db_t *db, const char *key, bool brief, char *buf,
                              size_t cap);
/* Does the ruleset's data (db) name KEY? */
bool ruleset_stat_named(const tmpl_db_t *db, const char *key);
/* Mode number of move mode NAME in rs, or -1. */
int ruleset_move_mode(const ruleset_t *rs, const char *name);
/* Move mode k of rs as the table reads it: its name ("second_move", what
 * `query reach --mode` takes) with spaces for underscores. Into buf; returns
 * buf ("" for no such mode). */
const char *ruleset_move_word(const ruleset_t *rs, int k, char *buf, size_t cap);

#endif
