/* scars.c - the save-based "scars" ruleset. See docs/rules-scars.md. */
#include "ruleset.h"

/* A scars turn moves up to 10 hexes ("nearby"); melee is "close": adjacent. */
#define SCARS_MOVE_HEXES 10

static void scars_geo_profile(const map_t *m, const map_combatant_t *c, geo_profile_t *out)
{
    int fph = m->feet_per_hex;
    out->reach_ft = c->reach_ft > 0 ? c->reach_ft : fph;
    out->speed_ft = SCARS_MOVE_HEXES * fph;
    out->dash_ft = 2 * SCARS_MOVE_HEXES * fph; /* a second move spends the action */
    out->interval_ft = fph;
    out->flank_ft = 0; /* the system has no flanking */
}

const ruleset_t ruleset_scars = {
    .id = "scars",
    .title = "Scars: save-based skirmish",
    .geo_profile = scars_geo_profile,
};
