/* ruleset.c - the registry: one line per ruleset. */
#include "ruleset.h"

#include <ctype.h>
#include <stdio.h>
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

_Static_assert(CMD_COUNT <= 64, "ruleset_t.call_kinds holds one bit per command kind");

bool ruleset_takes_call(const ruleset_t *rs, cmd_kind_t k)
{
    return cmd_is_call(k) && k < 64 && (rs->call_kinds & RULESET_CALL(k)) != 0;
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

const char *ruleset_move_word(const ruleset_t *rs, int k, char *buf, size_t cap)
{
    if (cap == 0) return buf;
    buf[0] = '\0';
    if (!rs || k < 0 || k >= rs->n_move_modes) return buf;
    hb_strlcpy(buf, rs->move_modes[k], (unsigned)cap);
    for (char *c = buf; *c; c++)
        if (*c == '_') *c = ' ';
    return buf;
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

int ruleset_bands(const ruleset_t *rs, const map_t *m, const tmpl_db_t *db,
                  const map_combatant_t *c,
                  const weapon_t *w, const geo_profile_t *prof, range_band_t *out, int cap)
{
    if (cap < 1) return 0;
    if (rs && rs->bands) {
        int n = rs->bands(m, db, c, w, prof, out, cap);
        if (n > 0) return n < cap ? n : cap;
    }
    /* Any ruleset: a blade reaches its reach, a shot its range. */
    if (!w || w->cls == WPN_MELEE) {
        int ft = w && w->reach_ft > 0 ? w->reach_ft : prof ? prof->reach_ft : m->feet_per_hex;
        out[0].hexes = geom_ft_to_hexes(m, ft);
        out[0].tier = RANGE_NEAR;
        snprintf(out[0].label, sizeof out[0].label, "melee reach %d ft",
                 out[0].hexes * m->feet_per_hex);
    } else {
        out[0].hexes = geom_ft_to_hexes(m, w->range_ft);
        out[0].tier = RANGE_NEAR;
        snprintf(out[0].label, sizeof out[0].label, "in range (%d ft)", w->range_ft);
    }
    return 1;
}

gauge_t gauge_make(const char *label, int value, int max, gauge_kind_t kind)
{
    gauge_t g;
    memset(&g, 0, sizeof g);
    hb_strlcpy(g.label, label, sizeof g.label);
    g.value = value;
    g.max = max > 0 ? max : 1;
    g.kind = kind;
    return g;
}

gauge_t gauge_named(const battle_t *b, const char *key, int value, int max, gauge_kind_t kind)
{
    char label[GAUGE_LABEL_MAX];
    gauge_t g = gauge_make(ruleset_stat_word(b ? b->db : NULL, key, true, label, sizeof label),
                           value, max, kind);
    hb_strlcpy(g.key, key, sizeof g.key);
    return g;
}

const char *ruleset_stat_word(const tmpl_db_t *db, const char *key, bool brief, char *buf,
                              size_t cap)
{
    if (!cap) return buf;
    const stat_word_t *w = tmpl_find_word(db, key);
    if (w) {
        snprintf(buf, cap, "%s", brief ? w->brief : w->name);
        return buf;
    }
    size_t n = 0;
    for (; key[n] && n + 1 < cap; n++)
        buf[n] = key[n] == '_' ? ' ' : key[n];
    buf[n] = '\0';
    /* A key of three letters or fewer is an abbreviation: "hp" reads "HP". */
    for (size_t k = 0; k < n && (k == 0 || n <= 3); k++)
        buf[k] = (char)toupper((unsigned char)buf[k]);
    return buf;
}

bool ruleset_stat_named(const tmpl_db_t *db, const char *key)
{
    return tmpl_find_word(db, key) != NULL;
}

int ruleset_gauges(const ruleset_t *rs, const battle_t *b, int i, gauge_t *out, int cap)
{
    if (cap < 1 || !b || i < 0 || i >= b->n) return 0;
    if (rs && rs->gauges) {
        int n = rs->gauges(b, i, out, cap);
        return n < cap ? n : cap;
    }
    if (b->u[i].hp_max <= 0) return 0;
    out[0] = gauge_named(b, "hp", b->u[i].hp, b->u[i].hp_max, GAUGE_HEALTH);
    return 1;
}

int ruleset_intents(const ruleset_t *rs, const battle_t *b, intent_t *out, int cap)
{
    if (!rs || !rs->intents || !b || cap < 1) return 0;
    int n = rs->intents(b, out, cap);
    return n < cap ? n : cap;
}

int ruleset_refused(const ruleset_t *rs, const battle_t *b, int actor, refusal_t *out, int cap)
{
    if (!rs || !rs->refused || !b || actor < 0 || actor >= b->n || cap < 1) return 0;
    int n = rs->refused(b, actor, out, cap);
    return n < cap ? n : cap;
}

int ruleset_queue(const ruleset_t *rs, const battle_t *b, turn_slot_t *out, int cap)
{
    if (!rs || !rs->queue || !b || cap < 1) return 0;
    memset(out, 0, sizeof *out * (size_t)cap); /* a hook fills only what it knows */
    int n = rs->queue(b, out, cap);
    return n < cap ? n : cap;
}
