/* scars_int.h - what the files of the scars ruleset share (src/rules/scars/).
 *
 * The ruleset is a folder: turn.c (order, phases, declaring, the legal list
 * and the ruleset table), attack.c (dice, blasts, odds and the resolution of
 * a phase), damage.c (HP, STR, saves and the scars table), ai.c (the built-in
 * AI) and calls.c (the referee's calls). The public face is ../scars.h.
 */
#ifndef HB_SCARS_INT_H
#define HB_SCARS_INT_H

#include "../ruleset.h"
#include "../scars.h"

/* Ranges in hexes (RULINGS: scars). */
#define CLOSE_HEX 1
#define NEARBY_HEX 10
#define DISTANT_HEX 20

/* Stat names in slot order (SS_*). */
extern const char *const SCARS_STAT_NAMES[SS_COUNT];

static inline sc_state_t *sc_st(battle_t *b) { return (sc_state_t *)b->rs; }
static inline const sc_state_t *sc_cst(const battle_t *b) { return (const sc_state_t *)b->rs; }
static inline hex_t sc_pos(const battle_t *b, int i) { return b->board->pos[i]; }
static inline bool sc_enemies(const battle_t *b, int i, int j)
{
    return !board_allies(b->board, i, j);
}
static inline bool sc_detachment(const battle_t *b, int i)
{
    return b->u[i].stat[SS_DETACHMENT] > 0;
}
/* A detachment at full strength: against individuals it is enhanced and its
 * onslaught spills (a weakened one has lost that edge). */
static inline bool sc_horde(const battle_t *b, int i)
{
    return sc_detachment(b, i) && !(b->u[i].cond & SC_WEAKENED);
}

/* damage.c */
/* Append a condition event (who, name, on) / a stat event (who, name, value). */
/* Take i out of the battle (dead, destroyed, routed, taken out). */
void sc_defeat(battle_t *b, int i);
/* Set helpless condition bit (once; the second time says nothing). */
void sc_incapacitate(battle_t *b, int i, unsigned bit, const char *name);
/* A save of ability SLOT: d20 at or under the score passes. */
bool sc_save(battle_t *b, int i, int slot, const char *why);

/* turn.c */
/* May i declare at all: fighting, or a PC that can still crawl. */
bool sc_can_act(const battle_t *b, int i);

/* attack.c */
/* Does i stand on the map's edge (the safe destination a retreat needs)? */
bool sc_on_edge(const battle_t *b, int i);
/* Does a's attack with w reach t from where both stand (band and sight)? */
bool sc_reaches(const battle_t *b, int a, int t, const weapon_t *w);
/* How many steps of its declared path i takes when it moves now: up to the
 * last free hex before any enemy (the resolution's rule, for planning too). */
int sc_move_stop(const battle_t *b, int i, const sc_decl_t *d);
/* The die of a's attack on t with w, given the cover on the line between them
 * and the referee's marks (SC_MARK_*): the weapon's own, d4 impaired, d12
 * enhanced, always d4 unarmed. spill: t is caught in a blast aimed elsewhere. */
sc_die_t sc_die_of(const battle_t *b, int a, int t, const weapon_t *w, bool spill,
                   cover_t cover, unsigned marks);
/* P(the kept face <= k) for die d (n dice keep the highest); a die of 0 sides
 * (none) is always under. */
double sc_kept_cdf(sc_die_t d, int k);
/* Resolve the phase once every member has declared: moves, retreats, attacks. */
void sc_resolve_phase(battle_t *b);
/* ruleset_t.weapon_area: a weapon's own blast. */
bool sc_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out);

/* calls.c */
/* Is kind one of the referee's calls (made by no one's declaration)? */
bool sc_is_call(cmd_kind_t k);
/* Apply a referee's call: BATTLE_OK, or BATTLE_ILLEGAL changing nothing. */
battle_status_t sc_apply_call(battle_t *b, const cmd_t *c);
/* ruleset_t.calls for scars. */
int sc_calls(battle_t *b, int who, ref_call_t *out, int cap);
/* The band (hexes: close, nearby or distant) weapon w reaches on map m;
 * scars_weapon_band reads it. */
int sc_band_hexes(const map_t *m, const weapon_t *w);
/* ---- present.c: the G3 hooks ---- */
bool sc_predict_hook(const battle_t *b, const cmd_t *c, predict_t *out);
int sc_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap);
int sc_gauges(const battle_t *b, int i, gauge_t *out, int cap);
int sc_intents(const battle_t *b, intent_t *out, int cap);

/* ai.c */
/* ruleset_t.ai for scars. */
void sc_ai(battle_t *b, int a, cmd_t *out);
/* Tests: true makes the AI search the whole map from each NPC at once, and
 * each path afresh, as it did before its searches were bounded (ai.c, "the
 * bounded search"); the choices must be the same either way. */
void scars_ai_exhaustive(bool on);

#endif
