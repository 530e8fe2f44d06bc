/* tmpl.h - stat-block templates and weapons of one ruleset, as plain data.
 *
 * Loaded by src/io/data_io.c from data/<ruleset>/templates.json and
 * weapons.json. All lengths are feet (a machine's 25-hex speed is 375 ft).
 * Ruleset-specific numbers (Engine, Agility, STR, armor...) are kept as named
 * stats so one struct serves every ruleset.
 */
#ifndef HB_TMPL_H
#define HB_TMPL_H

#include "map.h"

#define TMPL_MAX 256
#define WEAPON_MAX 256
#define WEAPON_MAX_TAGS 16 /* tags on one weapon; more are refused */

typedef enum { WPN_MELEE = 0, WPN_RANGED, WPN_THROWN } weapon_class_t;

typedef struct {
    char id[MAP_ID_MAX];
    char name[MAP_NAME_MAX];
    weapon_class_t cls;
    bool energy;      /* energy (vs conventional) weapon */
    int reach_ft;     /* melee: reach in feet, 0 = the ruleset's default */
    int range_ft;     /* ranged/thrown: range without penalty, feet */
    int dice_n, dice_sides, dice_bonus; /* damage NdS+B; a flat "+B" has dice_n 0, dice_sides 0 */
    stat_kv_t tags[WEAPON_MAX_TAGS]; /* ruleset-specific properties (blast, two_handed...) */
    int n_tags;
} weapon_t;

typedef struct {
    char id[MAP_ID_MAX];
    char name[MAP_NAME_MAX];
    ckind_t kind;
    csize_t size;
    int speed_ft, fly_ft;
    int hp;
    int reach_ft;     /* 0 = the ruleset's default */
    char token[MAP_PATH_MAX];
    /* Wire name of a command kind a specialty or program lets this stat block
     * take as a secondary action ("hide", "cloak"...); empty for none. */
    char secondary[MAP_ID_MAX];
    char weapons[MAP_MAX_WEAPONS][MAP_ID_MAX];
    int n_weapons;
    stat_kv_t stats[MAP_MAX_STATS];
    int n_stats;
} tmpl_t;

#define TMPL_WORDS_MAX 96  /* stat and gauge names of one ruleset */
#define TMPL_WORD_MAX 48   /* a name: "Special defence" */
#define TMPL_BRIEF_MAX 16  /* its short form for bars and the log: "SpDef", "PP" */

/* The table's words for one stat or gauge key of a ruleset (its data's
 * "stat_names"): a name for the card, and a short form for gauges and the
 * log's bookkeeping ("Power points", "PP"). */
typedef struct {
    char key[MAP_ID_MAX];
    char name[TMPL_WORD_MAX];
    char brief[TMPL_BRIEF_MAX];
} stat_word_t;

typedef struct {
    char ruleset[MAP_ID_MAX];
    stat_word_t words[TMPL_WORDS_MAX];
    int n_words;
    tmpl_t templates[TMPL_MAX];
    int n_templates;
    weapon_t weapons[WEAPON_MAX];
    int n_weapons;
} tmpl_db_t;

/* Template ID in db, or NULL. */
const tmpl_t *tmpl_find(const tmpl_db_t *db, const char *id);
/* Weapon ID in db, or NULL. */
const weapon_t *tmpl_find_weapon(const tmpl_db_t *db, const char *id);
/* The words for stat or gauge KEY in db, or NULL when its data names none. */
const stat_word_t *tmpl_find_word(const tmpl_db_t *db, const char *key);
/* Fill c's name, kind, size, speeds, HP, reach, token and weapons from
 * template t, or with the plain defaults when t is NULL (named after its id,
 * a medium creature, 30 ft, 10 HP). Its id, faction and position stay. */
void tmpl_fill_combatant(const tmpl_t *t, map_combatant_t *c);
/* Value of stat KEY in a stat list; false if absent. */
bool stat_get(const stat_kv_t *kv, int n, const char *key, int *out);

#endif
