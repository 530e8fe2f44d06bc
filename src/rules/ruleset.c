/* ruleset.c - the registry: one line per ruleset. */
#include "ruleset.h"

#include <string.h>

extern const ruleset_t ruleset_xhalem;
extern const ruleset_t ruleset_scars;
extern const ruleset_t ruleset_emcore;
extern const ruleset_t ruleset_surface;
extern const ruleset_t ruleset_activation;

static const ruleset_t *const REGISTRY[] = {
    &ruleset_xhalem,
    &ruleset_scars,
    &ruleset_emcore,
    &ruleset_surface,
    &ruleset_activation,
};

const ruleset_t *ruleset_find(const char *id)
{
    for (size_t i = 0; i < sizeof REGISTRY / sizeof REGISTRY[0]; i++)
        if (strcmp(REGISTRY[i]->id, id) == 0)
            return REGISTRY[i];
    return NULL;
}

int ruleset_list(const ruleset_t *const **out)
{
    *out = REGISTRY;
    return (int)(sizeof REGISTRY / sizeof REGISTRY[0]);
}

void ruleset_profiles(const ruleset_t *rs, const board_t *b, const tmpl_db_t *db,
                      geo_profile_t *prof)
{
    for (int i = 0; i < b->n; i++)
        rs->geo_profile(b->map, db, &b->map->combatants[i], &prof[i]);
}

int ruleset_move_mode(const ruleset_t *rs, const char *name)
{
    for (int k = 0; rs && name && k < rs->n_move_modes; k++)
        if (strcmp(rs->move_modes[k], name) == 0)
            return k;
    return -1;
}

int battle_ask_choice(battle_t *b, int reactor, const char *kind, int trigger, int n,
                      const char *const *labels)
{
    int k = battle_table_choice(b, reactor, kind, trigger, n, labels);
    if (k >= 0)
        return k;
    const ruleset_t *rs = b->rules;
    react_offer_t offer = {kind, trigger, n, labels};
    int pick = rs && rs->react ? rs->react(b, reactor, &offer) : 0;
    return pick > 0 && pick < n ? pick : 0;
}
