/* edit_json.c - the editor's undo history as JSON (see edit_json.h).
 *
 * An edit in the history holds the state its application swaps in: an
 * applied edit (before the cursor) holds what undo puts back, a redo what
 * redo puts in. Writing keeps every field of that state (not only what a map
 * file names), since undo must restore it exactly.
 */
#include "edit_json.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Most edits a history may hold, and how deep groups may nest. */
#define HIST_MAX 100000
#define GROUP_DEPTH 4
/* One character per cell type index in a reshape's grid. */
static const char CELL_CH[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static const char *const OPS[] = {"cells", "type_add", "type_drop", "type_set",
                                  "unit_add", "unit_del", "unit_set", "factions",
                                  "props", "reshape", "group", "options"};

/* ---- writing ---- */

static cJSON *attach(cJSON *parent, const char *key, cJSON *item, bool *ok)
{
    bool done =
        item && parent && *ok &&
        (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (!done) {
        cJSON_Delete(item);
        *ok = false;
        return NULL;
    }
    return item;
}

static void put_int(cJSON *o, const char *key, int v, bool *ok)
{
    attach(o, key, cJSON_CreateNumber(v), ok);
}

static void put_str(cJSON *o, const char *key, const char *v, bool *ok)
{
    attach(o, key, cJSON_CreateString(v), ok);
}

static void put_bool(cJSON *o, const char *key, bool v, bool *ok)
{
    attach(o, key, cJSON_CreateBool(v), ok);
}

static cJSON *type_json(const terrain_t *t, bool *ok)
{
    cJSON *o = cJSON_CreateObject();
    put_str(o, "name", t->name, ok);
    put_int(o, "move", t->move, ok);
    put_int(o, "cover", (int)t->cover, ok);
    put_bool(o, "blocks_sight", t->blocks_sight, ok);
    put_int(o, "color", (int)(t->color & 0xffffffu), ok);
    put_str(o, "texture", t->texture, ok);
    put_str(o, "opens_to", t->opens_to, ok);
    put_bool(o, "builtin", t->builtin, ok);
    put_bool(o, "in_map", t->in_map, ok);
    if (t->depth != DEPTH_NONE) put_int(o, "depth", (int)t->depth, ok);
    return o;
}

/* A {key: value} list (faction scores, rule options). */
static cJSON *kv_json(const stat_kv_t *kv, int n, bool *ok)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < n; i++)
        put_int(o, kv[i].key, kv[i].value, ok);
    return o;
}

static cJSON *unit_json(const map_combatant_t *c, bool *ok)
{
    cJSON *o = cJSON_CreateObject();
    put_str(o, "id", c->id, ok);
    put_str(o, "name", c->name, ok);
    put_str(o, "faction", c->faction, ok);
    put_str(o, "template", c->template_name, ok);
    put_int(o, "col", c->at.col, ok);
    put_int(o, "row", c->at.row, ok);
    put_int(o, "kind", (int)c->kind, ok);
    put_int(o, "size", (int)c->size, ok);
    put_int(o, "speed", c->speed_ft, ok);
    put_int(o, "fly", c->fly_ft, ok);
    put_int(o, "hp", c->hp, ok);
    put_int(o, "hp_max", c->hp_max, ok);
    put_int(o, "reach", c->reach_ft, ok);
    put_str(o, "token", c->token, ok);
    put_int(o, "given", (int)c->given, ok);
    cJSON *w = attach(o, "weapons", cJSON_CreateArray(), ok);
    for (int i = 0; i < c->n_weapons && i < MAP_MAX_WEAPONS; i++)
        attach(w, NULL, cJSON_CreateString(c->weapons[i]), ok);
    cJSON *st = attach(o, "stats", cJSON_CreateArray(), ok);
    for (int i = 0; i < c->n_stats && i < MAP_MAX_STATS; i++) {
        cJSON *kv = attach(st, NULL, cJSON_CreateArray(), ok);
        attach(kv, NULL, cJSON_CreateString(c->stats[i].key), ok);
        attach(kv, NULL, cJSON_CreateNumber(c->stats[i].value), ok);
    }
    return o;
}

static cJSON *units_json(const map_combatant_t *v, int n, bool *ok)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        attach(a, NULL, unit_json(&v[i], ok), ok);
    return a;
}

static cJSON *edit_json(const edit_t *e, bool *ok)
{
    cJSON *o = cJSON_CreateObject();
    put_str(o, "op", OPS[e->kind], ok);
    switch (e->kind) {
    case EDIT_CELLS: {
        /* Flat pairs: index, type, index, type... */
        cJSON *a = attach(o, "cells", cJSON_CreateArray(), ok);
        for (int i = 0; i < e->u.cells.n && *ok; i++) {
            attach(a, NULL, cJSON_CreateNumber(e->u.cells.v[i].idx), ok);
            attach(a, NULL, cJSON_CreateNumber(e->u.cells.v[i].type), ok);
        }
        break;
    }
    case EDIT_TYPE_ADD:
    case EDIT_TYPE_DROP:
        attach(o, "type", type_json(&e->u.type, ok), ok);
        break;
    case EDIT_TYPE_SET:
        put_int(o, "index", e->u.type_set.index, ok);
        attach(o, "type", type_json(&e->u.type_set.t, ok), ok);
        break;
    case EDIT_UNIT_ADD:
    case EDIT_UNIT_DEL:
    case EDIT_UNIT_SET:
        put_int(o, "index", e->u.unit.index, ok);
        attach(o, "unit", unit_json(&e->u.unit.c, ok), ok);
        break;
    case EDIT_FACTIONS: {
        put_bool(o, "given", e->u.factions.factions_given, ok);
        cJSON *a = attach(o, "factions", cJSON_CreateArray(), ok);
        for (int i = 0; i < e->u.factions.n_factions && i < MAP_MAX_FACTIONS; i++) {
            cJSON *f = attach(a, NULL, cJSON_CreateArray(), ok);
            const faction_t *fa = &e->u.factions.factions[i];
            attach(f, NULL, cJSON_CreateString(fa->name), ok);
            attach(f, NULL, cJSON_CreateBool(fa->player), ok);
            if (fa->n_values > 0) attach(f, NULL, kv_json(fa->values, fa->n_values, ok), ok);
        }
        break;
    }
    case EDIT_OPTIONS:
        attach(o, "options", kv_json(e->u.options.options, e->u.options.n_options, ok), ok);
        put_int(o, "bools", (int)e->u.options.options_bool, ok);
        break;
    case EDIT_PROPS:
        put_str(o, "name", e->u.props.name, ok);
        put_str(o, "ruleset", e->u.props.ruleset, ok);
        put_int(o, "feet_per_hex", e->u.props.feet_per_hex, ok);
        break;
    case EDIT_RESHAPE: {
        const edit_shape_t *s = &e->u.shape;
        put_int(o, "cols", s->cols, ok);
        put_int(o, "rows", s->rows, ok);
        put_str(o, "orientation", s->layout.orient == HEX_FLAT ? "flat" : "pointy", ok);
        put_str(o, "stagger", s->layout.stagger == HEX_EVEN ? "even" : "odd", ok);
        size_t n = (size_t)s->cols * (size_t)s->rows;
        char *grid = malloc(n + 1);
        if (!grid) {
            *ok = false;
            break;
        }
        for (size_t i = 0; i < n; i++)
            grid[i] = CELL_CH[s->cells[i] & 63];
        grid[n] = '\0';
        put_str(o, "cells", grid, ok);
        free(grid);
        attach(o, "combatants", units_json(s->combatants, s->n_combatants, ok), ok);
        break;
    }
    case EDIT_GROUP: {
        cJSON *a = attach(o, "edits", cJSON_CreateArray(), ok);
        for (int i = 0; i < e->u.group.n && *ok; i++)
            attach(a, NULL, edit_json(&e->u.group.v[i], ok), ok);
        break;
    }
    }
    if (!*ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *edit_history_to_json(const edit_history_t *h)
{
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    put_int(o, "pos", h->pos, &ok);
    put_int(o, "saved", h->saved, &ok);
    cJSON *a = attach(o, "edits", cJSON_CreateArray(), &ok);
    for (int i = 0; i < h->n && ok; i++)
        attach(a, NULL, edit_json(&h->v[i], &ok), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- reading ---- */

/* Member KEY of o at PATH, required, into p (the member's path). */
static int member(io_ctx_t *cx, const cJSON *o, const char *path, const char *key,
                  const cJSON **v, char *p, size_t cap)
{
    io_path_key(p, cap, path, key);
    return io_require(cx, o, path, key, v);
}

static int get_int(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, int lo, int hi,
                   int *out)
{
    const cJSON *v;
    char p[IO_PATH_MAX];
    int rc = member(cx, o, path, key, &v, p, sizeof p);
    return rc ? rc : io_want_int(cx, v, p, lo, hi, out);
}

static int get_str(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, char *dst,
                   size_t cap)
{
    const cJSON *v;
    char p[IO_PATH_MAX];
    int rc = member(cx, o, path, key, &v, p, sizeof p);
    return rc ? rc : io_want_string(cx, v, p, dst, cap, true);
}

static int get_bool(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, bool *out)
{
    const cJSON *v;
    char p[IO_PATH_MAX];
    int rc = member(cx, o, path, key, &v, p, sizeof p);
    return rc ? rc : io_want_bool(cx, v, p, out);
}

static int read_type(io_ctx_t *cx, const cJSON *o, const char *path, terrain_t *t)
{
    memset(t, 0, sizeof *t);
    int rc = io_want_object(cx, o, path), cover = 0, color = 0;
    if (!rc) rc = get_str(cx, o, path, "name", t->name, sizeof t->name);
    if (!rc) rc = get_int(cx, o, path, "move", 0, 2, &t->move);
    if (!rc) rc = get_int(cx, o, path, "cover", COVER_NONE, COVER_TOTAL, &cover);
    if (!rc) rc = get_bool(cx, o, path, "blocks_sight", &t->blocks_sight);
    if (!rc) rc = get_int(cx, o, path, "color", 0, 0xffffff, &color);
    if (!rc) rc = get_str(cx, o, path, "texture", t->texture, sizeof t->texture);
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, "texture");
    if (!rc) rc = io_want_inside(cx, p, t->texture, "assets/");
    if (!rc) rc = get_str(cx, o, path, "opens_to", t->opens_to, sizeof t->opens_to);
    if (!rc) rc = get_bool(cx, o, path, "builtin", &t->builtin);
    if (!rc) rc = get_bool(cx, o, path, "in_map", &t->in_map);
    int depth = 0;
    if (!rc && io_get(o, "depth")) rc = get_int(cx, o, path, "depth", DEPTH_NONE, DEPTH_DEEP, &depth);
    t->depth = (depth_t)depth;
    t->cover = (cover_t)cover;
    t->color = (uint32_t)color;
    return rc;
}

static int read_unit(io_ctx_t *cx, const cJSON *o, const char *path, map_combatant_t *c)
{
    memset(c, 0, sizeof *c);
    int rc = io_want_object(cx, o, path), kind = 0, size = 0, given = 0;
    if (!rc) rc = get_str(cx, o, path, "id", c->id, sizeof c->id);
    if (!rc) rc = get_str(cx, o, path, "name", c->name, sizeof c->name);
    if (!rc) rc = get_str(cx, o, path, "faction", c->faction, sizeof c->faction);
    if (!rc) rc = get_str(cx, o, path, "template", c->template_name, sizeof c->template_name);
    if (!rc) rc = get_int(cx, o, path, "col", 0, MAP_MAX_DIM - 1, &c->at.col);
    if (!rc) rc = get_int(cx, o, path, "row", 0, MAP_MAX_DIM - 1, &c->at.row);
    if (!rc) rc = get_int(cx, o, path, "kind", KIND_CREATURE, KIND_MACHINE, &kind);
    if (!rc) rc = get_int(cx, o, path, "size", 0, SIZE_COUNT - 1, &size);
    if (!rc) rc = get_int(cx, o, path, "speed", 0, IO_FEET_MAX, &c->speed_ft);
    if (!rc) rc = get_int(cx, o, path, "fly", 0, IO_FEET_MAX, &c->fly_ft);
    if (!rc) rc = get_int(cx, o, path, "hp", -IO_HP_MAX, IO_HP_MAX, &c->hp);
    if (!rc) rc = get_int(cx, o, path, "hp_max", -IO_HP_MAX, IO_HP_MAX, &c->hp_max);
    if (!rc) rc = get_int(cx, o, path, "reach", 0, IO_FEET_MAX, &c->reach_ft);
    if (!rc) rc = get_str(cx, o, path, "token", c->token, sizeof c->token);
    char tp[IO_PATH_MAX];
    io_path_key(tp, sizeof tp, path, "token");
    if (!rc) rc = io_want_inside(cx, tp, c->token, "assets/");
    if (!rc) rc = get_int(cx, o, path, "given", 0, 0x1ff, &given);
    if (rc) return rc;
    c->kind = (ckind_t)kind;
    c->size = (csize_t)size;
    c->given = (unsigned)given;
    const cJSON *v;
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    if ((rc = member(cx, o, path, "weapons", &v, p, sizeof p)) ||
        (rc = io_want_array(cx, v, p)))
        return rc;
    if (cJSON_GetArraySize(v) > MAP_MAX_WEAPONS)
        return io_fail(cx, p, "more than %d weapons", MAP_MAX_WEAPONS);
    for (const cJSON *w = v->child; w; w = w->next) {
        io_path_index(q, sizeof q, p, c->n_weapons);
        if ((rc = io_want_string(cx, w, q, c->weapons[c->n_weapons], MAP_ID_MAX, true))) return rc;
        c->n_weapons++;
    }
    if ((rc = member(cx, o, path, "stats", &v, p, sizeof p)) || (rc = io_want_array(cx, v, p)))
        return rc;
    if (cJSON_GetArraySize(v) > MAP_MAX_STATS)
        return io_fail(cx, p, "more than %d stats", MAP_MAX_STATS);
    for (const cJSON *kv = v->child; kv; kv = kv->next) {
        io_path_index(q, sizeof q, p, c->n_stats);
        if (!cJSON_IsArray(kv) || cJSON_GetArraySize(kv) != 2)
            return io_fail(cx, q, "expected [name, value]");
        stat_kv_t *s = &c->stats[c->n_stats];
        if ((rc = io_want_string(cx, kv->child, q, s->key, sizeof s->key, false)) ||
            (rc = io_want_int(cx, kv->child->next, q, -IO_VALUE_MAX, IO_VALUE_MAX, &s->value)))
            return rc;
        c->n_stats++;
    }
    return HB_OK;
}

static int read_units(io_ctx_t *cx, const cJSON *v, const char *path, map_combatant_t **out,
                      int *n)
{
    *out = NULL;
    *n = 0;
    int rc = io_want_array(cx, v, path);
    if (rc) return rc;
    int count = cJSON_GetArraySize(v);
    if (count > MAP_MAX_COMBATANTS)
        return io_fail(cx, path, "more than %d combatants", MAP_MAX_COMBATANTS);
    if (count == 0) return HB_OK;
    *out = calloc((size_t)count, sizeof **out);
    if (!*out) return io_fail_other(cx, "out of memory");
    char p[IO_PATH_MAX];
    for (const cJSON *u = v->child; u; u = u->next) {
        io_path_index(p, sizeof p, path, *n);
        if ((rc = read_unit(cx, u, p, &(*out)[*n]))) return rc;
        (*n)++;
    }
    return HB_OK;
}

static int read_cells(io_ctx_t *cx, const cJSON *o, const char *path, edit_t *e)
{
    const cJSON *v;
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    int rc = member(cx, o, path, "cells", &v, p, sizeof p);
    if (!rc) rc = io_want_array(cx, v, p);
    if (rc) return rc;
    int count = cJSON_GetArraySize(v);
    if (count % 2) return io_fail(cx, p, "expected pairs of cell index and type");
    if (count > 2 * MAP_MAX_DIM * MAP_MAX_DIM) return io_fail(cx, p, "too many cells");
    e->u.cells.v = malloc(sizeof *e->u.cells.v * (size_t)(count / 2 + 1));
    if (!e->u.cells.v) return io_fail_other(cx, "out of memory");
    int k = 0, idx = 0, type = 0;
    for (const cJSON *c = v->child; c; c = c->next, k++) {
        io_path_index(q, sizeof q, p, k);
        if (k % 2 == 0) {
            if ((rc = io_want_int(cx, c, q, 0, MAP_MAX_DIM * MAP_MAX_DIM - 1, &idx))) return rc;
        } else {
            if ((rc = io_want_int(cx, c, q, 0, MAP_MAX_TERRAIN - 1, &type))) return rc;
            e->u.cells.v[e->u.cells.n++] = (edit_cell_t){idx, (uint8_t)type};
        }
    }
    return HB_OK;
}

static int read_factions(io_ctx_t *cx, const cJSON *o, const char *path, edit_factions_t *f)
{
    const cJSON *v;
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    int rc = get_bool(cx, o, path, "given", &f->factions_given);
    if (!rc) rc = member(cx, o, path, "factions", &v, p, sizeof p);
    if (!rc) rc = io_want_array(cx, v, p);
    if (rc) return rc;
    if (cJSON_GetArraySize(v) > MAP_MAX_FACTIONS)
        return io_fail(cx, p, "more than %d factions", MAP_MAX_FACTIONS);
    for (const cJSON *e = v->child; e; e = e->next) {
        io_path_index(q, sizeof q, p, f->n_factions);
        faction_t *fa = &f->factions[f->n_factions];
        int len = cJSON_IsArray(e) ? cJSON_GetArraySize(e) : 0;
        if (len != 2 && len != 3) return io_fail(cx, q, "expected [name, player] or [name, player, scores]");
        if ((rc = io_want_string(cx, e->child, q, fa->name, sizeof fa->name, false)) ||
            (rc = io_want_bool(cx, e->child->next, q, &fa->player)))
            return rc;
        if (len == 3 &&
            (rc = io_int_table(cx, e->child->next->next, q, fa->values, FACTION_MAX_VALUES,
                               &fa->n_values, "faction scores")))
            return rc;
        f->n_factions++;
    }
    return HB_OK;
}

static int read_shape(io_ctx_t *cx, const cJSON *o, const char *path, edit_shape_t *s)
{
    int rc = get_int(cx, o, path, "cols", 1, MAP_MAX_DIM, &s->cols);
    if (!rc) rc = get_int(cx, o, path, "rows", 1, MAP_MAX_DIM, &s->rows);
    if (rc) return rc;
    static const char *const ORIENT[] = {"pointy", "flat"}, *const STAGGER[] = {"odd", "even"};
    const cJSON *v;
    char p[IO_PATH_MAX];
    int orient = 0, stagger = 0;
    if ((rc = member(cx, o, path, "orientation", &v, p, sizeof p)) ||
        (rc = io_want_enum(cx, v, p, ORIENT, 2, &orient)) ||
        (rc = member(cx, o, path, "stagger", &v, p, sizeof p)) ||
        (rc = io_want_enum(cx, v, p, STAGGER, 2, &stagger)))
        return rc;
    s->layout.orient = orient ? HEX_FLAT : HEX_POINTY;
    s->layout.stagger = stagger ? HEX_EVEN : HEX_ODD;
    if ((rc = member(cx, o, path, "cells", &v, p, sizeof p))) return rc;
    size_t n = (size_t)s->cols * (size_t)s->rows;
    if (!cJSON_IsString(v) || strlen(v->valuestring) != n)
        return io_fail(cx, p, "expected a string of %zu cells", n);
    s->cells = malloc(n);
    if (!s->cells) return io_fail_other(cx, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *at = strchr(CELL_CH, v->valuestring[i]);
        if (!v->valuestring[i] || !at) return io_fail(cx, p, "bad cell character at %zu", i);
        s->cells[i] = (uint8_t)(at - CELL_CH);
    }
    if ((rc = member(cx, o, path, "combatants", &v, p, sizeof p))) return rc;
    return read_units(cx, v, p, &s->combatants, &s->n_combatants);
}

static int read_edit(io_ctx_t *cx, const cJSON *o, const char *path, int depth, edit_t *e);

static int read_group(io_ctx_t *cx, const cJSON *o, const char *path, int depth, edit_t *e)
{
    const cJSON *v;
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    if (depth >= GROUP_DEPTH) return io_fail(cx, path, "groups nested too deep");
    int rc = member(cx, o, path, "edits", &v, p, sizeof p);
    if (!rc) rc = io_want_array(cx, v, p);
    if (rc) return rc;
    int count = cJSON_GetArraySize(v);
    if (count > HIST_MAX) return io_fail(cx, p, "more than %d edits", HIST_MAX);
    e->u.group.v = calloc((size_t)(count ? count : 1), sizeof *e->u.group.v);
    if (!e->u.group.v) return io_fail_other(cx, "out of memory");
    e->u.group.cap = count ? count : 1;
    for (const cJSON *g = v->child; g; g = g->next) {
        io_path_index(q, sizeof q, p, e->u.group.n);
        /* Counted first, so a failure part way frees what was read. */
        e->u.group.n++;
        if ((rc = read_edit(cx, g, q, depth + 1, &e->u.group.v[e->u.group.n - 1]))) return rc;
    }
    return HB_OK;
}

static int read_edit(io_ctx_t *cx, const cJSON *o, const char *path, int depth, edit_t *e)
{
    memset(e, 0, sizeof *e);
    int rc = io_want_object(cx, o, path), op = 0;
    const cJSON *v;
    char p[IO_PATH_MAX];
    if (!rc) rc = member(cx, o, path, "op", &v, p, sizeof p);
    if (!rc) rc = io_want_enum(cx, v, p, OPS, (int)(sizeof OPS / sizeof OPS[0]), &op);
    if (rc) return rc;
    e->kind = (edit_kind_t)op;
    switch (e->kind) {
    case EDIT_CELLS:
        return read_cells(cx, o, path, e);
    case EDIT_TYPE_ADD:
    case EDIT_TYPE_DROP:
        rc = member(cx, o, path, "type", &v, p, sizeof p);
        return rc ? rc : read_type(cx, v, p, &e->u.type);
    case EDIT_TYPE_SET:
        rc = get_int(cx, o, path, "index", 0, MAP_MAX_TERRAIN - 1, &e->u.type_set.index);
        if (!rc) rc = member(cx, o, path, "type", &v, p, sizeof p);
        return rc ? rc : read_type(cx, v, p, &e->u.type_set.t);
    case EDIT_UNIT_ADD:
    case EDIT_UNIT_DEL:
    case EDIT_UNIT_SET:
        rc = get_int(cx, o, path, "index", 0, MAP_MAX_COMBATANTS - 1, &e->u.unit.index);
        if (!rc) rc = member(cx, o, path, "unit", &v, p, sizeof p);
        return rc ? rc : read_unit(cx, v, p, &e->u.unit.c);
    case EDIT_FACTIONS:
        return read_factions(cx, o, path, &e->u.factions);
    case EDIT_PROPS:
        rc = get_str(cx, o, path, "name", e->u.props.name, sizeof e->u.props.name);
        if (!rc) rc = get_str(cx, o, path, "ruleset", e->u.props.ruleset, sizeof e->u.props.ruleset);
        if (!rc) rc = get_int(cx, o, path, "feet_per_hex", 1, 1000, &e->u.props.feet_per_hex);
        return rc;
    case EDIT_RESHAPE:
        return read_shape(cx, o, path, &e->u.shape);
    case EDIT_GROUP:
        return read_group(cx, o, path, depth, e);
    case EDIT_OPTIONS: {
        int bools = 0;
        rc = member(cx, o, path, "options", &v, p, sizeof p);
        if (!rc) rc = io_int_table(cx, v, p, e->u.options.options, MAP_MAX_OPTIONS,
                                   &e->u.options.n_options, "options");
        if (!rc) rc = get_int(cx, o, path, "bools", 0, (1 << MAP_MAX_OPTIONS) - 1, &bools);
        e->u.options.options_bool = (unsigned)bools;
        return rc;
    }
    }
    return io_fail(cx, path, "unknown edit");
}

/* ---- the check: undo to the start and redo to the end ---- */

static bool same_type(const terrain_t *a, const terrain_t *b)
{
    return !strcmp(a->name, b->name) && a->move == b->move && a->cover == b->cover &&
           a->blocks_sight == b->blocks_sight && a->color == b->color && a->depth == b->depth &&
           !strcmp(a->texture, b->texture) && !strcmp(a->opens_to, b->opens_to) &&
           a->builtin == b->builtin && a->in_map == b->in_map;
}

static bool same_unit(const map_combatant_t *a, const map_combatant_t *b)
{
    if (strcmp(a->id, b->id) || strcmp(a->name, b->name) || strcmp(a->faction, b->faction) ||
        strcmp(a->template_name, b->template_name) || a->at.col != b->at.col ||
        a->at.row != b->at.row || a->kind != b->kind || a->size != b->size ||
        a->speed_ft != b->speed_ft || a->fly_ft != b->fly_ft || a->hp != b->hp ||
        a->hp_max != b->hp_max || a->reach_ft != b->reach_ft || strcmp(a->token, b->token) ||
        a->n_weapons != b->n_weapons || a->n_stats != b->n_stats || a->given != b->given)
        return false;
    for (int i = 0; i < a->n_weapons; i++)
        if (strcmp(a->weapons[i], b->weapons[i])) return false;
    for (int i = 0; i < a->n_stats; i++)
        if (strcmp(a->stats[i].key, b->stats[i].key) || a->stats[i].value != b->stats[i].value)
            return false;
    return true;
}

/* Does a hold exactly what b holds, in every field an edit can change? */
static bool same_map(const map_t *a, const map_t *b)
{
    if (a->cols != b->cols || a->rows != b->rows || a->layout.orient != b->layout.orient ||
        a->layout.stagger != b->layout.stagger || a->n_types != b->n_types ||
        a->n_combatants != b->n_combatants || a->n_factions != b->n_factions ||
        a->factions_given != b->factions_given || a->feet_per_hex != b->feet_per_hex ||
        strcmp(a->name, b->name) || strcmp(a->ruleset, b->ruleset))
        return false;
    if (memcmp(a->cells, b->cells, (size_t)a->cols * (size_t)a->rows) != 0) return false;
    for (int i = 0; i < a->n_types; i++)
        if (!same_type(&a->types[i], &b->types[i])) return false;
    for (int i = 0; i < a->n_combatants; i++)
        if (!same_unit(&a->combatants[i], &b->combatants[i])) return false;
    for (int i = 0; i < a->n_factions; i++) {
        const faction_t *x = &a->factions[i], *y = &b->factions[i];
        if (strcmp(x->name, y->name) || x->player != y->player || x->n_values != y->n_values)
            return false;
        for (int k = 0; k < x->n_values; k++)
            if (strcmp(x->values[k].key, y->values[k].key) || x->values[k].value != y->values[k].value)
                return false;
    }
    if (a->n_options != b->n_options || a->options_bool != b->options_bool) return false;
    for (int k = 0; k < a->n_options; k++)
        if (strcmp(a->options[k].key, b->options[k].key) || a->options[k].value != b->options[k].value)
            return false;
    return true;
}

/* Walk h on a copy of m: every undo back to the start, every redo to the
 * end, then back to the cursor; each step must apply and the copy must end
 * equal to m. Returns the index of the first edit that fails, -1 for none,
 * or -2 when the walk ends elsewhere. */
static int walk(const map_t *m, edit_history_t *h)
{
    map_t *copy = map_clone(m);
    if (!copy) return -3;
    int bad = -1;
    for (int k = h->pos - 1; k >= 0 && bad == -1; k--)
        if (!edit_apply(copy, &h->v[k])) bad = k;
    for (int k = 0; k < h->n && bad == -1; k++)
        if (!edit_apply(copy, &h->v[k])) bad = k;
    for (int k = h->n - 1; k >= h->pos && bad == -1; k--)
        if (!edit_apply(copy, &h->v[k])) bad = k;
    if (bad == -1 && !same_map(copy, m)) bad = -2;
    map_destroy(copy);
    return bad;
}

int edit_history_from_json(io_ctx_t *cx, const cJSON *v, const char *path, const map_t *m,
                           edit_history_t *h)
{
    edit_history_init(h);
    const cJSON *list;
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    int pos = 0, saved = 0;
    int rc = io_want_object(cx, v, path);
    if (!rc) rc = member(cx, v, path, "edits", &list, p, sizeof p);
    if (!rc) rc = io_want_array(cx, list, p);
    if (rc) return rc;
    int count = cJSON_GetArraySize(list);
    if (count > HIST_MAX) return io_fail(cx, p, "more than %d edits", HIST_MAX);
    if ((rc = get_int(cx, v, path, "pos", 0, count, &pos)) ||
        (rc = get_int(cx, v, path, "saved", -1, count, &saved)))
        return rc;
    h->v = calloc((size_t)(count ? count : 1), sizeof *h->v);
    if (!h->v) return io_fail_other(cx, "out of memory");
    h->cap = count ? count : 1;
    for (const cJSON *e = list->child; e; e = e->next) {
        io_path_index(q, sizeof q, p, h->n);
        h->n++;
        if ((rc = read_edit(cx, e, q, 0, &h->v[h->n - 1]))) {
            edit_history_free(h);
            return rc;
        }
    }
    h->pos = pos;
    h->saved = saved;
    int bad = walk(m, h);
    if (bad != -1) {
        edit_history_free(h);
        if (bad == -3) return io_fail_other(cx, "out of memory");
        if (bad == -2) return io_fail(cx, path, "undoing and redoing it does not come back to the map");
        io_path_index(q, sizeof q, p, bad);
        return io_fail(cx, q, "does not fit the map at this point of the history");
    }
    return HB_OK;
}
