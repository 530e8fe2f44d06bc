/* ruleset.h - the interface every combat system implements, and the registry.
 *
 * A ruleset is a table of functions in a file of its own, found by id. This
 * first slice carries the geometry every ruleset must answer (how far a
 * combatant reaches, moves and flanks); the turn engine's entries join it as
 * the rules engine grows. Rulesets see the core only: no SDL, no JSON, no files.
 */
#ifndef HB_RULESET_H
#define HB_RULESET_H

#include "../core/geom.h"
#include "../core/tmpl.h"

typedef struct ruleset {
    const char *id;
    const char *title;
    /* Lengths for combatant c on map m (feet). */
    void (*geo_profile)(const map_t *m, const map_combatant_t *c, geo_profile_t *out);
} ruleset_t;

/* The ruleset with this id, or NULL. */
const ruleset_t *ruleset_find(const char *id);
/* Registered rulesets, for listings; returns the count. */
int ruleset_list(const ruleset_t *const **out);
/* Profiles of every combatant of board b into prof[b->n]. */
void ruleset_profiles(const ruleset_t *rs, const board_t *b, geo_profile_t *prof);

#endif
