/* edit.c - editor operations that apply by swapping state (see edit.h). */
#include "edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void edit_free(edit_t *e)
{
    if (!e) return;
    switch (e->kind) {
    case EDIT_CELLS:
        free(e->u.cells.v);
        break;
    case EDIT_RESHAPE:
        free(e->u.shape.cells);
        free(e->u.shape.combatants);
        break;
    case EDIT_GROUP:
        for (int i = 0; i < e->u.group.n; i++)
            edit_free(&e->u.group.v[i]);
        free(e->u.group.v);
        break;
    default:
        break;
    }
    memset(e, 0, sizeof *e);
    e->kind = EDIT_CELLS;
}

/* Is cell `at` free of combatants other than index `self`? */
static bool cell_free(const map_t *m, cell_t at, int self)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (i != self && m->combatants[i].at.col == at.col && m->combatants[i].at.row == at.row)
            return false;
    return true;
}

static bool id_free(const map_t *m, const char *id, int self)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (i != self && strcmp(m->combatants[i].id, id) == 0) return false;
    return true;
}

/* Swap in place, in order, then reverse: a list that sets one cell twice
 * must restore in the opposite order to land on the first value. */
static void apply_cells(map_t *m, edit_t *e)
{
    edit_cell_t *v = e->u.cells.v;
    int n = e->u.cells.n;
    for (int i = 0; i < n; i++) {
        uint8_t old = m->cells[v[i].idx];
        m->cells[v[i].idx] = v[i].type;
        v[i].type = old;
    }
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        edit_cell_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static bool cells_fit(const map_t *m, const edit_t *e)
{
    int ncells = m->cols * m->rows;
    for (int i = 0; i < e->u.cells.n; i++)
        if (e->u.cells.v[i].idx < 0 || e->u.cells.v[i].idx >= ncells ||
            e->u.cells.v[i].type >= m->n_types)
            return false;
    return true;
}

static bool type_used(const map_t *m, int t)
{
    size_t n = (size_t)m->cols * (size_t)m->rows;
    for (size_t i = 0; i < n; i++)
        if (m->cells[i] == t) return true;
    for (int i = 0; i < m->n_legend; i++)
        if (m->legend_type[i] == t) return true;
    return false;
}

static bool unit_insert(map_t *m, int index, const map_combatant_t *c)
{
    if (index < 0 || index > m->n_combatants || m->n_combatants >= MAP_MAX_COMBATANTS) return false;
    map_combatant_t *v = realloc(m->combatants, sizeof *v * (size_t)(m->n_combatants + 1));
    if (!v) return false;
    m->combatants = v;
    memmove(&v[index + 1], &v[index], sizeof *v * (size_t)(m->n_combatants - index));
    v[index] = *c;
    m->n_combatants++;
    return true;
}

static void unit_remove(map_t *m, int index, map_combatant_t *out)
{
    map_combatant_t *v = m->combatants;
    *out = v[index];
    memmove(&v[index], &v[index + 1], sizeof *v * (size_t)(m->n_combatants - index - 1));
    m->n_combatants--;
}

static void apply_shape(map_t *m, edit_shape_t *s)
{
    edit_shape_t old = {m->cols, m->rows, m->layout, m->cells, m->combatants, m->n_combatants};
    m->cols = s->cols;
    m->rows = s->rows;
    m->layout = s->layout;
    m->cells = s->cells;
    m->combatants = s->combatants;
    m->n_combatants = s->n_combatants;
    *s = old;
}

/* A combatant a swap would put on m: on the map, with its lists in range. */
static bool unit_on_map(const map_t *m, const map_combatant_t *c)
{
    return map_in_bounds(m, c->at) && c->n_weapons >= 0 && c->n_weapons <= MAP_MAX_WEAPONS &&
           c->n_stats >= 0 && c->n_stats <= MAP_MAX_STATS;
}

/* A grid and roster a reshape would swap in: every cell names a type of m
 * and every combatant stands on the new grid. */
static bool shape_fits(const map_t *m, const edit_shape_t *s)
{
    if (s->cols < 1 || s->rows < 1 || s->cols > MAP_MAX_DIM || s->rows > MAP_MAX_DIM ||
        !s->cells || s->n_combatants < 0 || s->n_combatants > MAP_MAX_COMBATANTS ||
        (s->n_combatants > 0 && !s->combatants))
        return false;
    size_t n = (size_t)s->cols * (size_t)s->rows;
    for (size_t i = 0; i < n; i++)
        if (s->cells[i] >= m->n_types) return false;
    map_t grid = *m;
    grid.cols = s->cols;
    grid.rows = s->rows;
    for (int i = 0; i < s->n_combatants; i++)
        if (!unit_on_map(&grid, &s->combatants[i])) return false;
    return true;
}

static bool apply_group(map_t *m, edit_t *e)
{
    int n = e->u.group.n;
    edit_t *v = e->u.group.v;
    for (int i = 0; i < n; i++) {
        if (!edit_apply(m, &v[i])) {
            /* Put back what this group already did, so a failure changes nothing. */
            for (int k = i - 1; k >= 0; k--)
                edit_apply(m, &v[k]);
            return false;
        }
    }
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        edit_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    return true;
}

bool edit_apply(map_t *m, edit_t *e)
{
    switch (e->kind) {
    case EDIT_CELLS:
        if (!cells_fit(m, e)) return false;
        apply_cells(m, e);
        return true;
    case EDIT_TYPE_ADD:
        if (m->n_types >= MAP_MAX_TERRAIN || map_find_type(m, e->u.type.name) >= 0) return false;
        m->types[m->n_types++] = e->u.type;
        e->kind = EDIT_TYPE_DROP;
        return true;
    case EDIT_TYPE_DROP:
        if (m->n_types < 1 || type_used(m, m->n_types - 1)) return false;
        e->u.type = m->types[--m->n_types];
        memset(&m->types[m->n_types], 0, sizeof m->types[0]);
        e->kind = EDIT_TYPE_ADD;
        return true;
    case EDIT_TYPE_SET: {
        int i = e->u.type_set.index;
        if (i < 0 || i >= m->n_types) return false;
        terrain_t t = m->types[i];
        m->types[i] = e->u.type_set.t;
        e->u.type_set.t = t;
        return true;
    }
    case EDIT_UNIT_ADD:
        if (!unit_on_map(m, &e->u.unit.c) || !unit_insert(m, e->u.unit.index, &e->u.unit.c))
            return false;
        e->kind = EDIT_UNIT_DEL;
        return true;
    case EDIT_UNIT_DEL:
        if (e->u.unit.index < 0 || e->u.unit.index >= m->n_combatants) return false;
        unit_remove(m, e->u.unit.index, &e->u.unit.c);
        e->kind = EDIT_UNIT_ADD;
        return true;
    case EDIT_UNIT_SET: {
        int i = e->u.unit.index;
        if (i < 0 || i >= m->n_combatants || !unit_on_map(m, &e->u.unit.c)) return false;
        map_combatant_t c = m->combatants[i];
        m->combatants[i] = e->u.unit.c;
        e->u.unit.c = c;
        return true;
    }
    case EDIT_FACTIONS: {
        edit_factions_t f;
        memcpy(f.factions, m->factions, sizeof f.factions);
        f.n_factions = m->n_factions;
        f.factions_given = m->factions_given;
        memcpy(m->factions, e->u.factions.factions, sizeof m->factions);
        m->n_factions = e->u.factions.n_factions;
        m->factions_given = e->u.factions.factions_given;
        e->u.factions = f;
        return true;
    }
    case EDIT_PROPS: {
        edit_props_t p;
        memcpy(p.name, m->name, sizeof p.name);
        memcpy(p.ruleset, m->ruleset, sizeof p.ruleset);
        p.feet_per_hex = m->feet_per_hex;
        memcpy(m->name, e->u.props.name, sizeof m->name);
        memcpy(m->ruleset, e->u.props.ruleset, sizeof m->ruleset);
        m->feet_per_hex = e->u.props.feet_per_hex;
        e->u.props = p;
        return true;
    }
    case EDIT_RESHAPE:
        if (!shape_fits(m, &e->u.shape)) return false;
        apply_shape(m, &e->u.shape);
        return true;
    case EDIT_GROUP:
        return apply_group(m, e);
    }
    return false;
}

bool edit_is_noop(const edit_t *e)
{
    if (e->kind == EDIT_CELLS) return e->u.cells.n == 0;
    if (e->kind == EDIT_GROUP) {
        for (int i = 0; i < e->u.group.n; i++)
            if (!edit_is_noop(&e->u.group.v[i])) return false;
        return true;
    }
    return false;
}

const char *edit_describe(const edit_t *e)
{
    static const char *const NAMES[] = {
        "paint terrain",       "add terrain type", "remove terrain type",
        "change terrain type", "add combatant",    "delete combatant",
        "change combatant",    "change factions",  "map properties",
        "reshape map",         "stroke",
    };
    return (e->kind >= EDIT_CELLS && e->kind <= EDIT_GROUP) ? NAMES[e->kind] : "?";
}

/* ---- builders ---- */

/* Growing list of cell changes that records each cell once. */
typedef struct {
    edit_cell_t *v;
    int n, cap;
    uint8_t *seen; /* one flag per cell, or NULL for small lists that scan */
} cell_list_t;

static bool list_add(cell_list_t *l, const map_t *m, cell_t c, int type)
{
    if (!map_in_bounds(m, c)) return true;
    int idx = map_index(m, c);
    if (m->cells[idx] == type) return true;
    if (l->seen) {
        if (l->seen[idx]) return true;
        l->seen[idx] = 1;
    } else {
        for (int i = 0; i < l->n; i++)
            if (l->v[i].idx == idx) return true;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 32;
        edit_cell_t *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v) return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (edit_cell_t){idx, (uint8_t)type};
    return true;
}

static void list_finish(cell_list_t *l, edit_t *out)
{
    free(l->seen);
    memset(out, 0, sizeof *out);
    out->kind = EDIT_CELLS;
    out->u.cells.v = l->v;
    out->u.cells.n = l->n;
}

static bool valid_type(const map_t *m, int type)
{
    return type >= 0 && type < m->n_types;
}

static bool add_brush(cell_list_t *l, const map_t *m, hex_t centre, int radius, int type)
{
    hex_t ring[6 * EDIT_BRUSH_MAX];
    for (int k = 0; k < radius; k++) {
        int n = hex_ring(centre, k, ring, (int)(sizeof ring / sizeof ring[0]));
        for (int i = 0; i < n; i++)
            if (!list_add(l, m, hex_to_cell(m->layout, ring[i]), type)) return false;
    }
    return true;
}

bool edit_paint(const map_t *m, cell_t centre, int radius, int type, edit_t *out)
{
    if (!valid_type(m, type) || radius < 1 || radius > EDIT_BRUSH_MAX) return false;
    cell_list_t l = {0};
    if (!add_brush(&l, m, hex_from_cell(m->layout, centre), radius, type)) {
        free(l.v);
        return false;
    }
    list_finish(&l, out);
    return true;
}

bool edit_line(const map_t *m, cell_t a, cell_t b, int radius, int type, edit_t *out)
{
    if (!valid_type(m, type) || radius < 1 || radius > EDIT_BRUSH_MAX) return false;
    hex_t ha = hex_from_cell(m->layout, a), hb = hex_from_cell(m->layout, b);
    int n = hex_distance(ha, hb) + 1;
    hex_t *pts = malloc(sizeof *pts * (size_t)n);
    cell_list_t l = {0};
    l.seen = calloc((size_t)m->cols * (size_t)m->rows, 1);
    bool ok = pts && l.seen;
    if (ok) n = hex_line(ha, hb, HEX_NUDGE_PLUS, pts, n);
    for (int i = 0; ok && i < n; i++)
        ok = add_brush(&l, m, pts[i], radius, type);
    free(pts);
    if (!ok) {
        free(l.seen);
        free(l.v);
        return false;
    }
    list_finish(&l, out);
    return true;
}

bool edit_flood(const map_t *m, cell_t start, int type, edit_t *out)
{
    if (!valid_type(m, type) || !map_in_bounds(m, start)) return false;
    int from = m->cells[map_index(m, start)];
    cell_list_t l = {0};
    if (from == type) {
        list_finish(&l, out);
        return true;
    }
    size_t ncells = (size_t)m->cols * (size_t)m->rows;
    int *queue = malloc(sizeof *queue * ncells);
    l.seen = calloc(ncells, 1);
    if (!queue || !l.seen) {
        free(queue);
        free(l.seen);
        return false;
    }
    /* list_add marks cells as seen, so each enters the queue once. */
    int head = 0, tail = 0;
    bool ok = list_add(&l, m, start, type);
    queue[tail++] = map_index(m, start);
    while (ok && head < tail) {
        cell_t c = map_cell_of(m, queue[head++]);
        hex_t h = hex_from_cell(m->layout, c);
        for (int d = 0; d < HEX_DIRS && ok; d++) {
            cell_t nc = hex_to_cell(m->layout, hex_neighbor(h, d));
            if (!map_in_bounds(m, nc)) continue;
            int idx = map_index(m, nc);
            if (l.seen[idx] || m->cells[idx] != from) continue;
            ok = list_add(&l, m, nc, type);
            queue[tail++] = idx;
        }
    }
    free(queue);
    if (!ok) {
        free(l.seen);
        free(l.v);
        return false;
    }
    list_finish(&l, out);
    return true;
}

/* The type the eraser paints. */
static int open_type(const map_t *m)
{
    int t = map_find_type(m, "open");
    return t < 0 ? 0 : t;
}

bool edit_erase(const map_t *m, cell_t centre, int radius, edit_t *out)
{
    return edit_paint(m, centre, radius, open_type(m), out);
}

bool edit_type_add(const map_t *m, const terrain_t *t, edit_t *out)
{
    if (!t->name[0] || map_find_type(m, t->name) >= 0 || m->n_types >= MAP_MAX_TERRAIN)
        return false;
    if (t->move < 0 || t->move > 2) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_TYPE_ADD;
    out->u.type = *t;
    out->u.type.in_map = true;
    out->u.type.builtin = false;
    return true;
}

bool edit_type_set(const map_t *m, int index, const terrain_t *t, edit_t *out)
{
    if (index < 0 || index >= m->n_types || !t->name[0] || t->move < 0 || t->move > 2) return false;
    int other = map_find_type(m, t->name);
    if (other >= 0 && other != index) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_TYPE_SET;
    out->u.type_set.index = index;
    out->u.type_set.t = *t;
    /* A changed type must be written to the file, or the change is lost on save. */
    out->u.type_set.t.in_map = true;
    return true;
}

/* Can c stand at index self of m (self = -1 for a newcomer)? */
static bool unit_fits(const map_t *m, const map_combatant_t *c, int self)
{
    return c->id[0] && c->faction[0] && map_in_bounds(m, c->at) && cell_free(m, c->at, self) &&
           id_free(m, c->id, self);
}

bool edit_unit_add(const map_t *m, const map_combatant_t *c, edit_t *out)
{
    if (!unit_fits(m, c, -1) || m->n_combatants >= MAP_MAX_COMBATANTS) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_UNIT_ADD;
    out->u.unit.index = m->n_combatants;
    out->u.unit.c = *c;
    return true;
}

bool edit_unit_del(const map_t *m, int index, edit_t *out)
{
    if (index < 0 || index >= m->n_combatants) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_UNIT_DEL;
    out->u.unit.index = index;
    return true;
}

bool edit_unit_set(const map_t *m, int index, const map_combatant_t *c, edit_t *out)
{
    if (index < 0 || index >= m->n_combatants || !unit_fits(m, c, index)) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_UNIT_SET;
    out->u.unit.index = index;
    out->u.unit.c = *c;
    return true;
}

bool edit_unit_move(const map_t *m, int index, cell_t to, edit_t *out)
{
    if (index < 0 || index >= m->n_combatants) return false;
    map_combatant_t c = m->combatants[index];
    c.at = to;
    return edit_unit_set(m, index, &c, out);
}

bool edit_faction_set(const map_t *m, const char *faction, bool player, edit_t *out)
{
    if (!faction[0] || strlen(faction) >= MAP_ID_MAX) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_FACTIONS;
    edit_factions_t *f = &out->u.factions;
    memcpy(f->factions, m->factions, sizeof f->factions);
    f->n_factions = m->n_factions;
    f->factions_given = true;
    /* Once the table is written, a faction it leaves out is referee-controlled,
     * so write every faction on the map with its current control first. */
    for (int i = 0; i < m->n_combatants; i++) {
        const char *name = m->combatants[i].faction;
        bool found = false;
        for (int k = 0; k < f->n_factions && !found; k++)
            found = strcmp(f->factions[k].name, name) == 0;
        if (!found && f->n_factions < MAP_MAX_FACTIONS) {
            hb_strlcpy(f->factions[f->n_factions].name, name, MAP_ID_MAX);
            f->factions[f->n_factions++].player = map_faction_is_player(m, name);
        }
    }
    for (int k = 0; k < f->n_factions; k++)
        if (strcmp(f->factions[k].name, faction) == 0) {
            f->factions[k].player = player;
            return true;
        }
    if (f->n_factions >= MAP_MAX_FACTIONS) return false;
    memset(&f->factions[f->n_factions], 0, sizeof f->factions[0]);
    hb_strlcpy(f->factions[f->n_factions].name, faction, MAP_ID_MAX);
    f->factions[f->n_factions++].player = player;
    return true;
}

bool edit_props(const map_t *m, const edit_props_t *p, edit_t *out)
{
    (void)m;
    if (p->feet_per_hex < 1 || p->feet_per_hex > 1000 || !p->ruleset[0]) return false;
    memset(out, 0, sizeof *out);
    out->kind = EDIT_PROPS;
    out->u.props = *p;
    return true;
}

/* Maps an old cell to its new place (false: it falls off). */
typedef bool (*cell_map_fn)(const map_t *m, const void *ctx, cell_t c, cell_t *to);

/* Build the new grid and roster for a reshape through fn. */
static bool reshape(const map_t *m, int cols, int rows, hex_layout_t lay, int fill, cell_map_fn fn,
                    const void *ctx, edit_t *out)
{
    if (cols < 1 || rows < 1 || cols > MAP_MAX_DIM || rows > MAP_MAX_DIM || !valid_type(m, fill))
        return false;
    uint8_t *cells = malloc((size_t)cols * (size_t)rows);
    map_combatant_t *units =
        m->n_combatants ? malloc(sizeof *units * (size_t)m->n_combatants) : NULL;
    if (!cells || (m->n_combatants && !units)) {
        free(cells);
        free(units);
        return false;
    }
    memset(cells, fill, (size_t)cols * (size_t)rows);
    map_t probe = {.cols = cols, .rows = rows};
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            cell_t to;
            if (fn(m, ctx, (cell_t){c, r}, &to) && map_in_bounds(&probe, to))
                cells[to.row * cols + to.col] = m->cells[r * m->cols + c];
        }
    int n = 0;
    for (int i = 0; i < m->n_combatants; i++) {
        cell_t to;
        if (fn(m, ctx, m->combatants[i].at, &to) && map_in_bounds(&probe, to)) {
            units[n] = m->combatants[i];
            units[n++].at = to;
        }
    }
    if (n == 0) {
        free(units);
        units = NULL;
    }
    memset(out, 0, sizeof *out);
    out->kind = EDIT_RESHAPE;
    out->u.shape = (edit_shape_t){cols, rows, lay, cells, units, n};
    return true;
}

static bool shift_cell(const map_t *m, const void *ctx, cell_t c, cell_t *to)
{
    (void)m;
    const cell_t *d = ctx;
    *to = (cell_t){c.col + d->col, c.row + d->row};
    return true;
}

/* Offset for anchor a (0, 1, 2) when a length changes from old to new. */
static int anchor_shift(int old_len, int new_len, int a, bool staggered)
{
    int s = a <= 0 ? 0 : a == 1 ? (new_len - old_len) / 2 : new_len - old_len;
    /* An odd shift along the staggered axis would flip which lines are
     * shoved and shear the map; keep the parity. */
    if (staggered && (s & 1)) s += (s > 0 || a == 2) ? -1 : 1;
    return s;
}

bool edit_resize(const map_t *m, int cols, int rows, edit_anchor_t anchor, int fill, edit_t *out)
{
    bool pointy = m->layout.orient == HEX_POINTY;
    cell_t d = {anchor_shift(m->cols, cols, anchor.x, !pointy),
                anchor_shift(m->rows, rows, anchor.y, pointy)};
    return reshape(m, cols, rows, m->layout, fill, shift_cell, &d, out);
}

static bool transpose_cell(const map_t *m, const void *ctx, cell_t c, cell_t *to)
{
    (void)m;
    (void)ctx;
    *to = (cell_t){c.row, c.col};
    return true;
}

static bool relayout_cell(const map_t *m, const void *ctx, cell_t c, cell_t *to)
{
    const hex_layout_t *lay = ctx;
    *to = hex_to_cell(*lay, hex_from_cell(m->layout, c));
    return true;
}

bool edit_layout(const map_t *m, hex_layout_t lay, int fill, edit_t *out)
{
    if (lay.orient == m->layout.orient)
        return reshape(m, m->cols, m->rows, lay, fill, relayout_cell, &lay, out);
    /* Reflecting pointy hexes across the diagonal gives flat hexes with the
     * same stagger; a stagger change, if any, follows on the reflected map. */
    hex_layout_t mid = {lay.orient, m->layout.stagger};
    if (!reshape(m, m->rows, m->cols, mid, fill, transpose_cell, NULL, out)) return false;
    if (mid.stagger == lay.stagger) return true;
    map_t tmp = *m;
    tmp.cols = out->u.shape.cols;
    tmp.rows = out->u.shape.rows;
    tmp.layout = mid;
    tmp.cells = out->u.shape.cells;
    tmp.combatants = out->u.shape.combatants;
    tmp.n_combatants = out->u.shape.n_combatants;
    edit_t second;
    bool ok = reshape(&tmp, tmp.cols, tmp.rows, lay, fill, relayout_cell, &lay, &second);
    edit_free(out);
    if (ok) *out = second;
    return ok;
}

void edit_group_init(edit_t *out)
{
    memset(out, 0, sizeof *out);
    out->kind = EDIT_GROUP;
}

bool edit_group_push(edit_t *g, edit_t *e)
{
    if (g->kind != EDIT_GROUP) return false;
    if (g->u.group.n == g->u.group.cap) {
        int cap = g->u.group.cap ? g->u.group.cap * 2 : 8;
        edit_t *v = realloc(g->u.group.v, sizeof *v * (size_t)cap);
        if (!v) return false;
        g->u.group.v = v;
        g->u.group.cap = cap;
    }
    /* e undoes the edits pushed before it only once it has run itself, so
     * the newest inverse goes first. */
    memmove(&g->u.group.v[1], &g->u.group.v[0], sizeof g->u.group.v[0] * (size_t)g->u.group.n);
    g->u.group.v[0] = *e;
    g->u.group.n++;
    memset(e, 0, sizeof *e);
    e->kind = EDIT_CELLS;
    return true;
}

/* ---- helpers ---- */

map_t *edit_new_map(int cols, int rows, const terrain_t *types, int n_types, int fill)
{
    if (n_types < 1 || n_types > MAP_MAX_TERRAIN || fill < 0 || fill >= n_types) return NULL;
    map_t *m = map_create(cols, rows);
    if (!m) return NULL;
    memcpy(m->types, types, sizeof *types * (size_t)n_types);
    m->n_types = n_types;
    memset(m->cells, fill, (size_t)cols * (size_t)rows);
    return m;
}

void edit_unit_from_template(const tmpl_t *t, const char *id, const char *faction, cell_t at,
                             map_combatant_t *out)
{
    memset(out, 0, sizeof *out);
    hb_strlcpy(out->id, id, sizeof out->id);
    hb_strlcpy(out->faction, faction, sizeof out->faction);
    out->at = at;
    tmpl_fill_combatant(t, out);
}

void edit_unique_id(const map_t *m, const char *base, char out[MAP_ID_MAX])
{
    char stem[MAP_ID_MAX - 6];
    int n = 0;
    /* Ids are identifiers in the file; keep letters, digits and '_' only. */
    for (const char *p = base; *p && n < (int)sizeof stem - 1; p++) {
        char ch = *p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')
            stem[n++] = ch;
        else if (ch >= 'A' && ch <= 'Z')
            stem[n++] = (char)(ch - 'A' + 'a');
        else if (n > 0 && stem[n - 1] != '_')
            stem[n++] = '_';
    }
    if (n == 0) stem[n++] = 'u';
    stem[n] = '\0';
    hb_strlcpy(out, stem, MAP_ID_MAX);
    for (int k = 2; !id_free(m, out, -1) && k < 100000; k++)
        snprintf(out, MAP_ID_MAX, "%s_%d", stem, k);
}

static bool name_taken(const map_t *m, int self, const char *name)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (i != self && strcmp(m->combatants[i].name, name) == 0) return true;
    return false;
}

void edit_unique_name(const map_t *m, int self, map_combatant_t *c)
{
    if (!c->name[0] || !name_taken(m, self, c->name)) return;
    char stem[sizeof c->name - 8];
    hb_strlcpy(stem, c->name, sizeof stem);
    for (int k = 2; k < 100000; k++) {
        snprintf(c->name, sizeof c->name, "%s %d", stem, k);
        if (!name_taken(m, self, c->name)) return;
    }
}

bool edit_stat_put(map_combatant_t *c, const char *key, int value, bool remove)
{
    for (int i = 0; i < c->n_stats; i++)
        if (strcmp(c->stats[i].key, key) == 0) {
            if (remove) {
                memmove(&c->stats[i], &c->stats[i + 1],
                        sizeof c->stats[0] * (size_t)(c->n_stats - i - 1));
                c->n_stats--;
            } else {
                c->stats[i].value = value;
            }
            return true;
        }
    if (remove) return true;
    if (c->n_stats >= MAP_MAX_STATS || !key[0]) return false;
    memset(&c->stats[c->n_stats], 0, sizeof c->stats[0]);
    if (!hb_strlcpy(c->stats[c->n_stats].key, key, MAP_ID_MAX)) return false;
    c->stats[c->n_stats++].value = value;
    return true;
}

int edit_unit_at(const map_t *m, cell_t c)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (m->combatants[i].at.col == c.col && m->combatants[i].at.row == c.row) return i;
    return -1;
}

int edit_check(const map_t *m, const tmpl_db_t *db, char (*out)[160], int cap)
{
    int n = 0;
    for (int i = 0; i < m->n_combatants; i++) {
        const map_combatant_t *c = &m->combatants[i];
        const terrain_t *t = map_terrain_at(m, c->at);
        if (t->move == 0) {
            if (n < cap)
                snprintf(out[n], 160, "%s stands on impassable %s at %d,%d", c->id, t->name,
                         c->at.col, c->at.row);
            n++;
        }
        if (db && c->template_name[0] && !tmpl_find(db, c->template_name)) {
            if (n < cap)
                snprintf(out[n], 160, "%s uses template '%s', which ruleset %s lacks", c->id,
                         c->template_name, m->ruleset);
            n++;
        }
    }
    int factions = 0;
    for (int i = 0; i < m->n_combatants; i++) {
        bool first = true;
        for (int k = 0; k < i && first; k++)
            first = strcmp(m->combatants[k].faction, m->combatants[i].faction) != 0;
        factions += first;
    }
    if (factions < 2) {
        if (n < cap)
            snprintf(out[n], 160, "%s: nobody to fight",
                     factions ? "only one faction" : "no combatants");
        n++;
    }
    return n;
}

/* ---- history ---- */

void edit_history_init(edit_history_t *h)
{
    memset(h, 0, sizeof *h);
}

void edit_history_free(edit_history_t *h)
{
    for (int i = 0; i < h->n; i++)
        edit_free(&h->v[i]);
    free(h->v);
    memset(h, 0, sizeof *h);
}

bool edit_record(edit_history_t *h, edit_t *e)
{
    for (int i = h->pos; i < h->n; i++)
        edit_free(&h->v[i]);
    h->n = h->pos;
    /* The saved state was among the dropped redos: no cursor reaches it now. */
    if (h->saved > h->pos) h->saved = -1;
    if (h->n == h->cap) {
        int cap = h->cap ? h->cap * 2 : 64;
        edit_t *v = realloc(h->v, sizeof *v * (size_t)cap);
        if (!v) return false;
        h->v = v;
        h->cap = cap;
    }
    h->v[h->n++] = *e;
    h->pos = h->n;
    memset(e, 0, sizeof *e);
    e->kind = EDIT_CELLS;
    return true;
}

bool edit_do(edit_history_t *h, map_t *m, edit_t *e)
{
    if (!edit_apply(m, e)) {
        edit_free(e);
        return false;
    }
    if (!edit_record(h, e)) {
        edit_apply(m, e); /* no room to remember it: take it back */
        edit_free(e);
        return false;
    }
    return true;
}

bool edit_undo(edit_history_t *h, map_t *m)
{
    if (h->pos == 0 || !edit_apply(m, &h->v[h->pos - 1])) return false;
    h->pos--;
    return true;
}

bool edit_redo(edit_history_t *h, map_t *m)
{
    if (h->pos >= h->n || !edit_apply(m, &h->v[h->pos])) return false;
    h->pos++;
    return true;
}

bool edit_history_dirty(const edit_history_t *h)
{
    return h->saved != h->pos;
}

void edit_history_mark_saved(edit_history_t *h)
{
    h->saved = h->pos;
}
