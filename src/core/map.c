/* map.c - the map model (see map.h). */
#include "map.h"

#include <stdlib.h>
#include <string.h>

map_t *map_create(int cols, int rows)
{
    if (cols < 1 || rows < 1 || cols > MAP_MAX_DIM || rows > MAP_MAX_DIM) return NULL;
    map_t *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->cells = calloc((size_t)cols * (size_t)rows, 1);
    if (!m->cells) {
        free(m);
        return NULL;
    }
    m->version = 1;
    m->cols = cols;
    m->rows = rows;
    m->feet_per_hex = 5;
    hb_strlcpy(m->ruleset, "xhalem", sizeof m->ruleset);
    return m;
}

void map_destroy(map_t *m)
{
    if (!m) return;
    free(m->cells);
    free(m->combatants);
    art_destroy(m->art);
    free(m);
}

map_t *map_clone(const map_t *m)
{
    map_t *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *m;
    size_t ncells = (size_t)m->cols * (size_t)m->rows;
    c->cells = malloc(ncells);
    c->combatants =
        m->n_combatants ? malloc(sizeof *c->combatants * (size_t)m->n_combatants) : NULL;
    c->art = m->art ? art_clone(m->art, ncells) : NULL;
    if (!c->cells || (m->n_combatants && !c->combatants) || (m->art && !c->art)) {
        free(c->cells);
        free(c->combatants);
        art_destroy(c->art);
        free(c);
        return NULL;
    }
    memcpy(c->cells, m->cells, ncells);
    if (m->n_combatants)
        memcpy(c->combatants, m->combatants, sizeof *c->combatants * (size_t)m->n_combatants);
    return c;
}

int map_find_type(const map_t *m, const char *name)
{
    for (int i = 0; i < m->n_types; i++)
        if (strcmp(m->types[i].name, name) == 0) return i;
    return -1;
}

int map_find_combatant(const map_t *m, const char *id)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (strcmp(m->combatants[i].id, id) == 0) return i;
    return -1;
}

bool map_faction_is_player(const map_t *m, const char *faction)
{
    for (int i = 0; i < m->n_factions; i++)
        if (strcmp(m->factions[i].name, faction) == 0) return m->factions[i].player;
    return strcmp(faction, "players") == 0;
}

bool map_option(const map_t *m, const char *key, int *out)
{
    for (int k = 0; k < m->n_options; k++)
        if (strcmp(m->options[k].key, key) == 0) {
            *out = m->options[k].value;
            return true;
        }
    return false;
}

bool map_option_set(map_t *m, const char *key, int value, bool is_bool, bool remove)
{
    int k = 0;
    while (k < m->n_options && strcmp(m->options[k].key, key) != 0)
        k++;
    if (remove) {
        if (k == m->n_options) return true;
        unsigned low = m->options_bool & ((1u << k) - 1), high = m->options_bool >> (k + 1);
        memmove(&m->options[k], &m->options[k + 1], sizeof m->options[0] * (size_t)(m->n_options - k - 1));
        m->n_options--;
        m->options_bool = low | high << k;
        return true;
    }
    if (k == m->n_options) {
        if (k >= MAP_MAX_OPTIONS || strlen(key) >= MAP_ID_MAX) return false;
        hb_strlcpy(m->options[k].key, key, MAP_ID_MAX);
        m->n_options++;
    }
    m->options[k].value = value;
    if (is_bool)
        m->options_bool |= 1u << k;
    else
        m->options_bool &= ~(1u << k);
    return true;
}

bool map_faction_value(const map_t *m, const char *faction, const char *key, int *out)
{
    for (int i = 0; i < m->n_factions; i++) {
        const faction_t *f = &m->factions[i];
        if (strcmp(f->name, faction) != 0) continue;
        for (int k = 0; k < f->n_values; k++)
            if (strcmp(f->values[k].key, key) == 0) {
                *out = f->values[k].value;
                return true;
            }
    }
    return false;
}

bool map_size_valid(ckind_t kind, csize_t size)
{
    if (kind == KIND_MACHINE)
        return size == SIZE_SMALL || size == SIZE_MEDIUM || size == SIZE_LARGE ||
               size == SIZE_GARGANTUAN;
    return size >= SIZE_TINY && size <= SIZE_BEHEMOTH;
}

static const char *const SIZE_NAMES[SIZE_COUNT] = {
    "tiny", "small", "medium", "large", "extra_large", "giant", "behemoth", "gargantuan",
};

const char *map_size_name(csize_t size)
{
    return (size >= 0 && size < SIZE_COUNT) ? SIZE_NAMES[size] : "?";
}

int map_size_parse(const char *name)
{
    for (int i = 0; i < SIZE_COUNT; i++)
        if (strcmp(SIZE_NAMES[i], name) == 0) return i;
    return -1;
}

const char *map_kind_name(ckind_t kind)
{
    return kind == KIND_MACHINE ? "machine" : "creature";
}

static const char *const COVER_NAMES[] = {"none", "light", "heavy", "total"};

const char *map_cover_name(cover_t cover)
{
    return (cover >= COVER_NONE && cover <= COVER_TOTAL) ? COVER_NAMES[cover] : "?";
}

int map_cover_parse(const char *name)
{
    for (int i = 0; i <= COVER_TOTAL; i++)
        if (strcmp(COVER_NAMES[i], name) == 0) return i;
    return -1;
}

static const char *const DEPTH_NAMES[] = {"none", "partial", "deep"};

const char *map_depth_name(depth_t depth)
{
    return depth >= DEPTH_NONE && depth <= DEPTH_DEEP ? DEPTH_NAMES[depth] : "none";
}

int map_depth_parse(const char *name)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(DEPTH_NAMES[k], name) == 0) return k;
    return -1;
}

bool stat_get(const stat_kv_t *kv, int n, const char *key, int *out)
{
    /* The AI asks for tags in its inner loops: the first letter rules out
     * most keys without a call. */
    for (int i = 0; i < n; i++)
        if (kv[i].key[0] == key[0] && strcmp(kv[i].key, key) == 0) {
            *out = kv[i].value;
            return true;
        }
    return false;
}

bool map_combatant_stat(const map_combatant_t *c, const char *key, int *out)
{
    return stat_get(c->stats, c->n_stats, key, out);
}

bool hb_strlcpy(char *dst, const char *src, unsigned cap)
{
    if (cap == 0) return false;
    size_t n = strlen(src);
    bool fits = n < cap;
    if (!fits) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return fits;
}
