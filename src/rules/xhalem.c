/* xhalem.c - the Xha'lem ruleset (mechs and creatures). See docs/rules-xhalem.md. */
#include "ruleset.h"

/* Machine lengths are written in mech hexes of 15 ft (RULINGS: xhalem units). */
#define MECH_HEX_FT 15

static bool big_for_reach(const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE)
        return c->size == SIZE_GARGANTUAN;
    return c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH;
}

/* Creature move costs round up to 5, 10 or 15 ft by size; machines use the grid. */
static int move_interval(const map_t *m, const map_combatant_t *c)
{
    if (c->kind == KIND_MACHINE)
        return m->feet_per_hex;
    if (c->size == SIZE_EXTRA_LARGE)
        return 10;
    if (c->size == SIZE_GIANT || c->size == SIZE_BEHEMOTH)
        return 15;
    return 5;
}

static void xhalem_geo_profile(const map_t *m, const map_combatant_t *c, geo_profile_t *out)
{
    int unit = c->kind == KIND_MACHINE ? MECH_HEX_FT : 1;
    int reach = c->reach_ft > 0 ? c->reach_ft : (big_for_reach(c) ? 10 : 5) * unit;
    out->reach_ft = reach;
    out->speed_ft = c->speed_ft;
    out->dash_ft = 2 * c->speed_ft;
    out->interval_ft = move_interval(m, c);
    out->flank_ft = 10 * unit;
}

const ruleset_t ruleset_xhalem = {
    .id = "xhalem",
    .title = "Xha'lem: mechs and creatures",
    .geo_profile = xhalem_geo_profile,
};
