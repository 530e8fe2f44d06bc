/* telegraph.h - telegraphed actions still to land, read from the event log:
 * a `declare` event with a countdown (EV_OPT_VALUE) announces one, later ones
 * with the same declarer, action and aim count it down, and one with 0 (or
 * the declarer leaving the fight) ends it. A ruleset that telegraphs this
 * way has its telegraphs marked on the map where they will strike, whatever
 * its id (activation's [Delay X], docs/rules-activation.md). */
#ifndef HB_UI_TELEGRAPH_H
#define HB_UI_TELEGRAPH_H

#include "../core/battle.h"
#include "../rules/ruleset.h"

#define UI_TELEGRAPH_MAX 32

typedef struct {
    int who;                /* the declarer */
    int target;             /* a single target, -1 for hexes */
    char name[EV_NAME_MAX]; /* the action (a weapon id) */
    bool has_at;            /* aimed at hexes: at, laid from `from` */
    cell_t at, from;
    int left;               /* what the ruleset counts down (activations) */
} ui_telegraph_t;

/* The telegraphs of b still to land, oldest first; returns the count,
 * writing at most cap. */
int ui_telegraphs(const battle_t *b, ui_telegraph_t *out, int cap);
/* The weapon telegraph t uses: the declarer's own, else the data's; NULL. */
const weapon_t *ui_telegraph_weapon(const battle_t *b, const ui_telegraph_t *t);
/* The hexes telegraph t will strike, as the ruleset's weapon_area lays them
 * (the same hexes the rules will strike): its template, else the aimed hex,
 * else the hex of its single target. Returns the count, writing at most cap. */
int ui_telegraph_hexes(const battle_t *b, const ui_telegraph_t *t, hex_t *out, int cap);

#endif
