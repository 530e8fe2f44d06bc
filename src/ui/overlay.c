/* overlay.c - reach, threat, flanking, range and sight overlays, the move
 * preview and the legend (see overlay.h).
 *
 * Specs become marks when added, so drawing is cheap and repeatable: a frame
 * pushes the hex fills into one indexed SDL_RenderGeometry call and every
 * contour, dot, line and marker into one more. Large areas (range bands, all
 * hexes in sight) are drawn as contours and dots rather than fills: on the
 * software renderer a translucent fill costs as much per pixel as the terrain
 * under it, and a contour says "inside this line" just as clearly.
 */
#include "overlay.h"
#include "shapes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/area.h"
#include "../core/geom.h"
#include "../core/path.h"
#include "../core/printf_attr.h"
#include "../core/sight.h"
#include "draw.h"
#include "../rules/ruleset.h"

#define MAX_BADGES 32
#define MAX_LEGEND 64
#define BADGE_MAX 48
#define FAN_IDX 12
#define PI 3.14159265358979323846
#define PREMIX_ZOOM 14.0 /* draw.c TEX_MIN_ZOOM: below it terrain is flat colour */

typedef struct {
    int cell;
    uint8_t color; /* ui_ov_color_t */
    uint8_t style; /* ui_ov_style_t */
    uint8_t edges; /* bit d: draw the edge toward direction d (contours) */
} hex_mark_t;

typedef struct {
    cell_t a, b;
    uint8_t color;
} line_mark_t;

typedef struct {
    cell_t at;
    uint8_t color;
    char text[BADGE_MAX];
} badge_t;

typedef struct {
    uint8_t color; /* UI_OV_COLOR_COUNT: a heading row without a swatch */
    char text[96];
} legend_row_t;

struct ui_overlay {
    const map_t *src; /* the map given at creation (borrowed): ui_overlay_sync reads it */
    map_t *m;         /* the set's own working copy: terrain and combatants */
    board_t *b;       /* positions, on m */
    geo_profile_t *prof;
    const geo_profile_t *battle_prof; /* ui_overlay_use_profiles, or NULL */
    path_search_t *ps;
    int ncells;
    geom_reach_t *reach; /* ncells */
    hex_t *hexes;        /* ncells */
    cell_t *path;        /* ncells */
    uint8_t *band;       /* per cell scratch, all zero between uses */
    hex_t *line_a, *line_b;
    int line_cap;

    hex_mark_t *marks;
    int n_marks, cap_marks;
    line_mark_t *lines;
    int n_lines, cap_lines;
    cell_t *warn;
    int n_warn, cap_warn;
    badge_t badges[MAX_BADGES];
    int n_badges;
    legend_row_t legend[MAX_LEGEND];
    int n_legend;

    SDL_Vertex *fill_v, *tri_v;
    SDL_FRect *dots; /* centre dots, drawn as rects: far cheaper than triangles */
    uint8_t *dot_color;
    int n_dots, cap_dots, cap_dot_color;
    int n_fill, cap_fill, n_tri, cap_tri;
    int *fan_idx;
    int fan_cap; /* hexes */
    SDL_Rect legend_box;
    int legend_x, legend_y;
    const tmpl_db_t *db;
};

/* ---- palette ------------------------------------------------------------ */

static const uint32_t RGB[UI_OV_COLOR_COUNT] = {
    [UI_OV_REACH_1] = 0xA6DCF5,     [UI_OV_REACH_2] = 0x56B4E9,     [UI_OV_REACH_3] = 0x0072B2,
    [UI_OV_DASH] = 0xE69F00,        [UI_OV_THREAT] = 0xD55E00,      [UI_OV_PROVOKE] = 0xF0E442,
    [UI_OV_PATH] = 0xFFFFFF,        [UI_OV_FLANK_SPOT] = 0x009E73,  [UI_OV_FLANK_PAIR] = 0xCC79A7,
    [UI_OV_RANGE_IN] = 0x0072B2,    [UI_OV_RANGE_MID] = 0x56B4E9,   [UI_OV_RANGE_OUT] = 0xCC79A7,
    [UI_OV_SEEN] = 0xF0E442,        [UI_OV_SIGHT_PLUS] = 0xF0E442,  [UI_OV_SIGHT_MINUS] = 0xCC79A7,
    [UI_OV_COVER_NONE] = 0x009E73,  [UI_OV_COVER_LIGHT] = 0xF0E442, [UI_OV_COVER_HEAVY] = 0xE69F00,
    [UI_OV_COVER_TOTAL] = 0xD55E00, [UI_OV_AREA] = 0xD81B60,
};

SDL_Color ui_overlay_color(ui_ov_color_t c)
{
    uint32_t v = (unsigned)c < UI_OV_COLOR_COUNT ? RGB[c] : 0x808080;
    return (SDL_Color){(Uint8)(v >> 16), (Uint8)(v >> 8), (Uint8)v, 255};
}

Uint8 ui_overlay_alpha(ui_ov_color_t c)
{
    switch (c) {
    case UI_OV_REACH_1:
    case UI_OV_REACH_2:
    case UI_OV_REACH_3:
        return 150;
    case UI_OV_DASH:
    case UI_OV_THREAT:
        return 130;
    case UI_OV_FLANK_SPOT:
        return 170;
    default:
        return 140;
    }
}

static SDL_Color with_alpha(ui_ov_color_t c, Uint8 a)
{
    SDL_Color k = ui_overlay_color(c);
    k.a = a;
    return k;
}

/* ---- lifetime ----------------------------------------------------------- */

/* Lengths for maps whose ruleset is not registered: the xhalem creature
 * defaults, which are also what a table would assume. */
static void default_profiles(const board_t *b, geo_profile_t *prof)
{
    for (int i = 0; i < b->n; i++) {
        int speed = b->map->combatants[i].speed_ft;
        int reach = b->map->combatants[i].reach_ft;
        prof[i] =
            (geo_profile_t){reach > 0 ? reach : 5, speed, 2 * speed, b->map->feet_per_hex, 10};
    }
}

ui_overlay_t *ui_overlay_create(const map_t *src)
{
    ui_overlay_t *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    /* A copy of its own, so that nothing the set keeps points into a map or
     * a battle that may be rebuilt under it (undo frees the battle's map). */
    o->src = src;
    map_t *m = o->m = map_clone(src);
    if (!m) {
        free(o);
        return NULL;
    }
    o->ncells = m->cols * m->rows;
    o->line_cap = m->cols + m->rows + 4;
    o->b = board_create(m);
    o->prof = calloc((size_t)m->n_combatants + 1, sizeof *o->prof);
    o->ps = path_search_create(o->ncells);
    o->reach = malloc(sizeof *o->reach * (size_t)o->ncells);
    o->hexes = malloc(sizeof *o->hexes * (size_t)o->ncells);
    o->path = malloc(sizeof *o->path * (size_t)o->ncells);
    o->band = calloc((size_t)o->ncells, 1);
    o->line_a = malloc(sizeof *o->line_a * (size_t)o->line_cap);
    o->line_b = malloc(sizeof *o->line_b * (size_t)o->line_cap);
    if (!o->b || !o->prof || !o->ps || !o->reach || !o->hexes || !o->path || !o->band ||
        !o->line_a || !o->line_b) {
        ui_overlay_destroy(o);
        return NULL;
    }
    ui_overlay_sync(o);
    return o;
}

void ui_overlay_destroy(ui_overlay_t *o)
{
    if (!o) return;
    board_destroy(o->b);
    map_destroy(o->m);
    free(o->prof);
    path_search_destroy(o->ps);
    free(o->reach);
    free(o->hexes);
    free(o->path);
    free(o->band);
    free(o->line_a);
    free(o->line_b);
    free(o->marks);
    free(o->lines);
    free(o->warn);
    free(o->fill_v);
    free(o->tri_v);
    free(o->dots);
    free(o->dot_color);
    free(o->fan_idx);
    free(o);
}

void ui_overlay_clear(ui_overlay_t *o)
{
    o->n_marks = o->n_lines = o->n_warn = o->n_badges = o->n_legend = 0;
    o->legend_box = (SDL_Rect){0, 0, 0, 0};
}

/* Take terrain and combatants from map src, of the set's size. */
static void copy_map(ui_overlay_t *o, const map_t *src)
{
    map_t *m = o->m;
    memcpy(m->cells, src->cells, (size_t)o->ncells);
    int n = src->n_combatants < m->n_combatants ? src->n_combatants : m->n_combatants;
    if (n > 0) memcpy(m->combatants, src->combatants, sizeof *m->combatants * (size_t)n);
    if (src->n_types <= MAP_MAX_TERRAIN && src->n_types != m->n_types) {
        memcpy(m->types, src->types, sizeof m->types[0] * (size_t)src->n_types);
        m->n_types = src->n_types;
    }
}

/* Does map src have the set's shape (size and combatants)? */
static bool same_shape(const ui_overlay_t *o, const map_t *src)
{
    return src->cols == o->m->cols && src->rows == o->m->rows &&
           src->n_combatants == o->m->n_combatants;
}

void ui_overlay_sync(ui_overlay_t *o)
{
    const map_t *m = o->m;
    if (same_shape(o, o->src)) copy_map(o, o->src);
    for (int i = 0; i < o->b->n && i < m->n_combatants; i++) {
        hex_t h = hex_from_cell(m->layout, m->combatants[i].at);
        if (!hex_eq(h, o->b->pos[i]) && map_in_bounds(m, m->combatants[i].at))
            board_place(o->b, i, h);
    }
    const ruleset_t *rs = ruleset_find(m->ruleset);
    if (rs && rs->geo_profile)
        ruleset_profiles(rs, o->b, o->db, o->prof);
    else
        default_profiles(o->b, o->prof);
    ui_overlay_clear(o);
}

/* ---- adding marks ------------------------------------------------------- */

static bool grow(void **p, int *cap, int need, size_t elem)
{
    return ui_grow(p, cap, need, elem, 256);
}

static void add_mark(ui_overlay_t *o, int cell, ui_ov_color_t c, ui_ov_style_t s)
{
    if (!grow((void **)&o->marks, &o->cap_marks, o->n_marks + 1, sizeof *o->marks)) return;
    o->marks[o->n_marks++] = (hex_mark_t){cell, (uint8_t)c, (uint8_t)s, 0};
}

static void add_line(ui_overlay_t *o, cell_t a, cell_t b, ui_ov_color_t c)
{
    if (!grow((void **)&o->lines, &o->cap_lines, o->n_lines + 1, sizeof *o->lines)) return;
    o->lines[o->n_lines++] = (line_mark_t){a, b, (uint8_t)c};
}

static void add_warn(ui_overlay_t *o, cell_t at)
{
    if (!grow((void **)&o->warn, &o->cap_warn, o->n_warn + 1, sizeof *o->warn)) return;
    o->warn[o->n_warn++] = at;
}

static void add_badge(ui_overlay_t *o, cell_t at, ui_ov_color_t c, const char *text)
{
    if (o->n_badges == MAX_BADGES) return;
    badge_t *bd = &o->badges[o->n_badges++];
    bd->at = at;
    bd->color = (uint8_t)c;
    hb_strlcpy(bd->text, text, sizeof bd->text);
}

static void add_legend(ui_overlay_t *o, int color, const char *fmt, ...)
    HB_PRINTF(3, 4);
static void add_legend(ui_overlay_t *o, int color, const char *fmt, ...)
{
    if (o->n_legend == MAX_LEGEND) return;
    legend_row_t *row = &o->legend[o->n_legend++];
    row->color = (uint8_t)color;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->text, sizeof row->text, fmt, ap);
    va_end(ap);
}

/* The cell combatant i stands on now (the set's board: the battle's positions
 * in the window, never the map file's starting ones). */
static cell_t stand(const ui_overlay_t *o, int i)
{
    return hex_to_cell(o->m->layout, o->b->pos[i]);
}

static const char *who_name(const map_t *m, int i)
{
    const map_combatant_t *c = &m->combatants[i];
    return c->name[0] ? c->name : c->id;
}

/* Marks for every cell with a nonzero band (band value b is palette entry
 * b - 1), in style s; contours get the edges that border another band. Clears
 * the band scratch as it goes. */
static void marks_from_bands(ui_overlay_t *o, ui_ov_style_t s)
{
    for (int idx = 0; idx < o->ncells; idx++) {
        int bd = o->band[idx];
        if (!bd) continue;
        int before = o->n_marks;
        add_mark(o, idx, (ui_ov_color_t)(bd - 1), s);
        if (s != UI_OV_EDGE || o->n_marks == before) continue;
        hex_t h = board_hex_of(o->b, idx);
        uint8_t edges = 0;
        for (int d = 0; d < HEX_DIRS; d++) {
            int nb = board_cell_index(o->b, hex_neighbor(h, d));
            /* The map's own rim is no boundary of a band. */
            if (nb >= 0 && o->band[nb] != bd) edges |= (uint8_t)(1u << d);
        }
        o->marks[o->n_marks - 1].edges = edges;
    }
    memset(o->band, 0, (size_t)o->ncells);
}

static bool carries(const map_combatant_t *c, const char *weapon)
{
    for (int k = 0; k < c->n_weapons; k++)
        if (strcmp(c->weapons[k], weapon) == 0) return true;
    return false;
}

/* The area weapon w of combatant i would strike aimed at cell `at`, as the
 * map's ruleset says (false: w has none, or the ruleset has no areas). */
static bool weapon_area(const ui_overlay_t *o, const weapon_t *w, int i, cell_t at, area_t *out)
{
    const ruleset_t *rs = ruleset_find(o->m->ruleset);
    return w && rs && rs->weapon_area &&
           rs->weapon_area(o->m, w, o->b->pos[i], hex_from_cell(o->m->layout, at), out);
}

int ui_overlay_check(const ui_overlay_t *o, const tmpl_db_t *db, const overlay_spec_t *spec,
                     char *err, size_t errcap)
{
    const map_t *m = o->m;
    const char *kind = args_overlay_kind_name(spec->kind);
    int i = map_find_combatant(m, spec->id);
    if (i < 0) {
        snprintf(err, errcap, "overlay %s: no combatant '%s' on map '%s'", kind, spec->id, m->name);
        return 2;
    }
    if (spec->kind == OVERLAY_FLANKING) {
        int t = map_find_combatant(m, spec->other);
        if (t < 0) {
            snprintf(err, errcap, "overlay flanking: no combatant '%s' on map '%s'", spec->other,
                     m->name);
            return 2;
        }
        if (t == i) {
            snprintf(err, errcap, "overlay flanking: '%s' cannot flank itself", spec->id);
            return 2;
        }
    }
    bool weapon = spec->kind == OVERLAY_RANGE || spec->kind == OVERLAY_AREA;
    if (weapon && spec->other[0]) {
        if (!db || !tmpl_find_weapon(db, spec->other)) {
            snprintf(err, errcap, "overlay %s: no weapon '%s' in the %s data", kind, spec->other,
                     m->ruleset);
            return 2;
        }
        const map_combatant_t *c = &m->combatants[i];
        if (c->n_weapons > 0 && !carries(c, spec->other)) {
            snprintf(err, errcap, "overlay %s: '%s' does not carry '%s'", kind, spec->id,
                     spec->other);
            return 2;
        }
    }
    if (spec->has_cell && !map_in_bounds(m, spec->cell)) {
        snprintf(err, errcap, "overlay %s: cell %d,%d is off the %dx%d map", kind, spec->cell.col,
                 spec->cell.row, m->cols, m->rows);
        return 2;
    }
    area_t a;
    if (spec->kind == OVERLAY_AREA &&
        !weapon_area(o, db ? tmpl_find_weapon(db, spec->other) : NULL, i, spec->cell, &a)) {
        snprintf(err, errcap, "overlay area: '%s' strikes no area in %s", spec->other,
                 m->ruleset);
        return 2;
    }
    return 0;
}

static void build_reach(ui_overlay_t *o, int i)
{
    const geo_profile_t *p = &o->prof[i];
    int speed = p->speed_ft, dash = p->dash_ft > speed ? p->dash_ft : speed;
    int n = geom_reach(o->b, i, dash, p->interval_ft, o->ps, o->reach, o->ncells);
    if (n > o->ncells) n = o->ncells;
    for (int k = 0; k < n; k++) {
        int cost = o->reach[k].cost_ft;
        ui_ov_color_t c = UI_OV_DASH;
        if (cost <= speed) {
            /* Thirds of the normal move, so the shading reads "near / far". */
            int band = speed > 0 ? (3 * cost + speed - 1) / speed : 1;
            c = band <= 1 ? UI_OV_REACH_1 : band == 2 ? UI_OV_REACH_2 : UI_OV_REACH_3;
        }
        add_mark(o, map_index(o->m, o->reach[k].at), c, UI_OV_FILL);
    }
    add_legend(o, UI_OV_COLOR_COUNT, "reach: %s", who_name(o->m, i));
    add_legend(o, UI_OV_REACH_1, "move up to %d ft", speed / 3);
    add_legend(o, UI_OV_REACH_2, "move up to %d ft", speed * 2 / 3);
    add_legend(o, UI_OV_REACH_3, "move up to %d ft (speed)", speed);
    add_legend(o, UI_OV_DASH, "dash up to %d ft", dash);
}

/* The play window's reach: where combatant i may still go this turn (for a
 * combatant not acting, on a fresh turn), mode by mode as the rules price it
 * (ruleset_t.move_cost), so the shading is exactly what a click may reach.
 * The first mode with feet left is shaded in thirds of what it has left; the
 * further hexes other modes reach (a dash, a run) get the dash colour.
 * False when the ruleset prices no move (the caller falls back). */
static bool build_reach_turn(ui_overlay_t *o, const battle_t *bt, int i)
{
    const ruleset_t *rs = ruleset_find(o->m->ruleset);
    if (!rs || !rs->move_cost || rs->n_move_modes <= 0) return false;
    int main_ft = -1, far_ft = 0, n_far = 0;
    char main_mode[40] = "", far_mode[40] = "";
    for (int k = 0; k < rs->n_move_modes; k++) {
        move_cost_t mv;
        if (!rs->move_cost(bt, i, k, &mv) || mv.budget_ft <= 0) continue;
        int n = geom_reach_mode(&mv, o->ps, o->reach, o->ncells);
        if (n > o->ncells) n = o->ncells;
        bool first = main_ft < 0;
        if (first) {
            main_ft = mv.budget_ft;
            ruleset_move_word(rs, k, main_mode, sizeof main_mode);
        }
        int added = 0;
        for (int r = 0; r < n; r++) {
            int idx = map_index(o->m, o->reach[r].at);
            if (o->band[idx]) continue;
            int cost = o->reach[r].cost_ft;
            ui_ov_color_t c = UI_OV_DASH;
            if (first) {
                int band = (3 * cost + main_ft - 1) / main_ft;
                c = band <= 1 ? UI_OV_REACH_1 : band == 2 ? UI_OV_REACH_2 : UI_OV_REACH_3;
            }
            o->band[idx] = (uint8_t)(c + 1);
            added++;
        }
        if (!first && added > 0) {
            n_far++;
            if (mv.budget_ft > far_ft) {
                far_ft = mv.budget_ft;
                ruleset_move_word(rs, k, far_mode, sizeof far_mode);
            }
        }
    }
    marks_from_bands(o, UI_OV_FILL);
    bool acting = false;
    int actors[MAP_MAX_COMBATANTS];
    int na = rs->actors(bt, actors, MAP_MAX_COMBATANTS);
    for (int k = 0; k < na && k < MAP_MAX_COMBATANTS; k++)
        acting |= actors[k] == i;
    add_legend(o, UI_OV_COLOR_COUNT, "reach: %s, %s", who_name(o->m, i),
               acting ? "left this turn" : "on its next turn");
    if (main_ft <= 0) {
        add_legend(o, UI_OV_REACH_1, "no movement left (speed %d ft)", o->prof[i].speed_ft);
        return true;
    }
    add_legend(o, UI_OV_REACH_1, "%s up to %d ft", main_mode, main_ft / 3);
    add_legend(o, UI_OV_REACH_2, "%s up to %d ft", main_mode, main_ft * 2 / 3);
    add_legend(o, UI_OV_REACH_3, "%s up to %d ft left (speed %d)", main_mode, main_ft,
               o->prof[i].speed_ft);
    if (n_far > 0) add_legend(o, UI_OV_DASH, "%s: up to %d ft", far_mode, far_ft);
    return true;
}

static void build_threat(ui_overlay_t *o, int i)
{
    int n = geom_threat(o->b, i, o->prof[i].reach_ft, o->hexes, o->ncells);
    if (n > o->ncells) n = o->ncells;
    for (int k = 0; k < n; k++)
        add_mark(o, board_cell_index(o->b, o->hexes[k]), UI_OV_THREAT, UI_OV_FILL);
    add_legend(o, UI_OV_COLOR_COUNT, "threat: %s", who_name(o->m, i));
    add_legend(o, UI_OV_THREAT, "threat zone (reach %d ft, in sight)", o->prof[i].reach_ft);
}

static void build_flanking(ui_overlay_t *o, int a, int t)
{
    const board_t *b = o->b;
    const geo_profile_t *pa = &o->prof[a];
    hex_t ta = b->pos[t], aa = b->pos[a];
    int reach = geom_ft_to_hexes(o->m, pa->reach_ft);
    int flank = geom_ft_to_hexes(o->m, pa->flank_ft);
    /* An ally's spot counts only while A itself is placed to flank: within its
     * flanking distance and threatening T. The ally is judged with A's
     * lengths, the best guess for an ally not yet chosen. */
    bool ready = pa->flank_ft > 0 && b->present[a] && b->present[t] &&
                 hex_distance(aa, ta) <= flank && geom_threatens(b, a, pa->reach_ft, ta);
    int spots = 0;
    if (ready) {
        int k = reach < flank ? reach : flank;
        hex_t off_a = hex_sub(aa, ta);
        for (int dq = -k; dq <= k; dq++)
            for (int dr = -k; dr <= k; dr++) {
                hex_t d = {dq, dr};
                if (hex_length(d) > k || hex_length(d) == 0 || !geom_opposite(off_a, d)) continue;
                hex_t h = hex_add(ta, d);
                int idx = board_cell_index(b, h);
                if (idx < 0 || b->occ[idx] >= 0) continue;
                if (o->m->types[o->m->cells[idx]].move <= 0 || !sight_clear(b, h, ta)) continue;
                add_mark(o, idx, UI_OV_FLANK_SPOT, UI_OV_FILL);
                spots++;
            }
    }
    int pairs = 0;
    int partners[MAP_MAX_COMBATANTS];
    for (int x = 0; x < b->n; x++) {
        if (x == t || !b->present[x] || board_allies(b, x, t)) continue;
        int n = geom_flank_partners(b, o->prof, x, t, partners, MAP_MAX_COMBATANTS);
        for (int k = 0; k < n && k < MAP_MAX_COMBATANTS; k++)
            if (partners[k] > x) { /* each pair once */
                add_line(o, stand(o, x), stand(o, partners[k]),
                         UI_OV_FLANK_PAIR);
                pairs++;
            }
    }
    add_legend(o, UI_OV_COLOR_COUNT, "flanking: %s on %s", who_name(o->m, a), who_name(o->m, t));
    if (ready)
        add_legend(o, UI_OV_FLANK_SPOT, "an ally here flanks (%d spots)", spots);
    else
        add_legend(o, UI_OV_FLANK_SPOT, "none: %s is not placed to flank", who_name(o->m, a));
    add_legend(o, UI_OV_FLANK_PAIR, "flanking pairs now: %d", pairs);
}

/* The weapon a range overlay shows: the one named, else the first ranged or
 * thrown weapon carried, else the first melee one, else none (NULL). */
static const weapon_t *range_weapon(const map_combatant_t *c, const tmpl_db_t *db,
                                    const char *named)
{
    if (!db) return NULL;
    if (named[0]) return tmpl_find_weapon(db, named);
    const weapon_t *melee = NULL;
    for (int k = 0; k < c->n_weapons; k++) {
        const weapon_t *w = tmpl_find_weapon(db, c->weapons[k]);
        if (!w) continue;
        if (w->cls != WPN_MELEE) return w;
        if (!melee) melee = w;
    }
    return melee;
}

static void build_range(ui_overlay_t *o, const tmpl_db_t *db, int i, const char *named)
{
    const map_t *m = o->m;
    const map_combatant_t *c = &m->combatants[i];
    const weapon_t *w = range_weapon(c, db, named);
    /* The ruleset's bands (its bands hook), nearest first. */
    range_band_t bands[RANGE_BANDS_MAX];
    int nb = ruleset_bands(ruleset_find(m->ruleset), m, db, c, w, &o->prof[i], bands,
                           RANGE_BANDS_MAX);
    /* Colours by the band's tier: near, a farther band, the farthest. */
    ui_ov_color_t col[RANGE_BANDS_MAX];
    for (int k = 0; k < nb; k++)
        col[k] = bands[k].tier == RANGE_FAR   ? UI_OV_RANGE_OUT
                 : bands[k].tier == RANGE_MID ? UI_OV_RANGE_MID
                                              : UI_OV_RANGE_IN;
    hex_t at = o->b->pos[i];
    int far = bands[nb - 1].hexes;
    for (int idx = 0; idx < o->ncells; idx++) {
        int d = hex_distance(at, board_hex_of(o->b, idx));
        /* Its own hex belongs to a contour (so none rings it) but not to a fill. */
        if (d > far || (d == 0 && far <= 3)) continue;
        int k = 0;
        while (k < nb - 1 && d > bands[k].hexes)
            k++;
        o->band[idx] = (uint8_t)(col[k] + 1);
    }
    /* Small areas read best filled; wide ones as contours (see the top). */
    marks_from_bands(o, far <= 3 ? UI_OV_FILL : UI_OV_EDGE);

    const char *wname = w ? w->name : "unarmed";
    add_legend(o, UI_OV_COLOR_COUNT, "range: %s, %s", who_name(m, i), wname);
    for (int k = 0; k < nb; k++)
        add_legend(o, col[k], "%s", bands[k].label);
}

static ui_ov_color_t cover_color(cover_t c)
{
    switch (c) {
    case COVER_LIGHT:
        return UI_OV_COVER_LIGHT;
    case COVER_HEAVY:
        return UI_OV_COVER_HEAVY;
    case COVER_TOTAL:
        return UI_OV_COVER_TOTAL;
    default:
        return UI_OV_COVER_NONE;
    }
}

static void build_los(ui_overlay_t *o, int i, const overlay_spec_t *spec)
{
    const map_t *m = o->m;
    hex_t from = o->b->pos[i];
    if (!spec->has_cell) {
        int seen = 0;
        for (int idx = 0; idx < o->ncells; idx++) {
            hex_t h = board_hex_of(o->b, idx);
            if (!hex_eq(h, from) && !sight_clear(o->b, from, h)) continue;
            o->band[idx] = UI_OV_SEEN + 1;
            seen += !hex_eq(h, from);
        }
        marks_from_bands(o, UI_OV_DOT);
        add_legend(o, UI_OV_COLOR_COUNT, "sight: %s", who_name(m, i));
        add_legend(o, UI_OV_SEEN, "in sight (%d hexes)", seen);
        return;
    }
    hex_t to = hex_from_cell(m->layout, spec->cell);
    int na = hex_line(from, to, HEX_NUDGE_PLUS, o->line_a, o->line_cap);
    int nb = hex_line(from, to, HEX_NUDGE_MINUS, o->line_b, o->line_cap);
    if (na > o->line_cap) na = o->line_cap;
    if (nb > o->line_cap) nb = o->line_cap;
    bool differ = false;
    for (int k = 1; k < na - 1; k++) {
        int idx = board_cell_index(o->b, o->line_a[k]);
        if (idx >= 0) add_mark(o, idx, UI_OV_SIGHT_PLUS, UI_OV_FILL);
    }
    for (int k = 1; k < nb - 1; k++) {
        bool shared = k < na && hex_eq(o->line_b[k], o->line_a[k]);
        if (shared) continue;
        differ = true;
        int idx = board_cell_index(o->b, o->line_b[k]);
        if (idx >= 0) add_mark(o, idx, UI_OV_SIGHT_MINUS, UI_OV_FILL);
    }
    add_line(o, stand(o, i), spec->cell, UI_OV_SIGHT_PLUS);
    sight_t s = sight_trace(o->b, from, to);
    char text[BADGE_MAX];
    snprintf(text, sizeof text, "%s%s", s.visible ? "cover: " : "",
             s.visible ? map_cover_name(s.cover) : "blocked: total");
    add_badge(o, spec->cell, cover_color(s.cover), text);
    add_legend(o, UI_OV_COLOR_COUNT, "sight: %s to %d,%d (%d hexes)", who_name(m, i),
               spec->cell.col, spec->cell.row, s.hexes);
    add_legend(o, UI_OV_SIGHT_PLUS, "hexes the line crosses");
    if (differ) add_legend(o, UI_OV_SIGHT_MINUS, "the other side of an edge");
    add_legend(o, cover_color(s.cover), "%s", text);
}

/* The hexes w's area would strike from where i stands, aimed at cell `at`:
 * the same area_hexes the rules strike (the ruleset's weapon_area). */
static void build_area(ui_overlay_t *o, int i, const weapon_t *w, cell_t at)
{
    area_t a;
    if (!weapon_area(o, w, i, at, &a)) return;
    int n = area_hexes(o->b, &a, o->hexes, o->ncells);
    if (n > o->ncells) n = o->ncells;
    for (int k = 0; k < n; k++)
        add_mark(o, board_cell_index(o->b, o->hexes[k]), UI_OV_AREA, UI_OV_FILL);
    add_line(o, stand(o, i), at, UI_OV_AREA);
    add_legend(o, UI_OV_COLOR_COUNT, "area: %s, %s", who_name(o->m, i), w->name);
    add_legend(o, UI_OV_AREA, "%s of %d at %d,%d: %d hexes", area_shape_name(a.shape), a.size,
               at.col, at.row, n);
}

int ui_overlay_add(ui_overlay_t *o, const tmpl_db_t *db, const overlay_spec_t *spec, char *err,
                   size_t errcap)
{
    int rc = ui_overlay_check(o, db, spec, err, errcap);
    if (rc) return rc;
    int i = map_find_combatant(o->m, spec->id);
    switch (spec->kind) {
    case OVERLAY_REACH:
        build_reach(o, i);
        break;
    case OVERLAY_THREAT:
        build_threat(o, i);
        break;
    case OVERLAY_FLANKING:
        build_flanking(o, i, map_find_combatant(o->m, spec->other));
        break;
    case OVERLAY_RANGE:
        build_range(o, db, i, spec->other);
        break;
    case OVERLAY_LOS:
        build_los(o, i, spec);
        break;
    case OVERLAY_AREA:
        build_area(o, i, tmpl_find_weapon(db, spec->other), spec->cell);
        break;
    default:
        snprintf(err, errcap, "overlay: unknown kind");
        return 2;
    }
    return 0;
}

/* The move preview; with bt (the play window) the path and the feet left are
 * the rules' own for this turn: the cheapest way in the first mode that gets
 * there within what that mode has left (ruleset_t.move_cost). */
static bool preview(ui_overlay_t *o, const battle_t *bt, int who, cell_t goal, int *cost_ft)
{
    const board_t *b = o->b;
    const geo_profile_t *p = &o->prof[who];
    int cost = 0, len = 0;
    *cost_ft = 0;
    if (who < 0 || who >= b->n || !b->present[who]) return false;
    int speed = p->speed_ft; /* beyond it the badge says which way it goes further */
    char further[40] = "dash";
    if (bt) {
        const ruleset_t *rs = ruleset_find(o->m->ruleset);
        bool found = false;
        int main_ft = -1;
        for (int k = 0; rs && rs->move_cost && k < rs->n_move_modes && !found; k++) {
            move_cost_t mv;
            if (!rs->move_cost(bt, who, k, &mv) || mv.budget_ft <= 0) continue;
            if (main_ft < 0) main_ft = mv.budget_ft;
            found = geom_path_mode(&mv, goal, o->ps, &cost, o->path, o->ncells, &len) &&
                    len >= 2 && cost <= mv.budget_ft;
            ruleset_move_word(rs, k, further, sizeof further);
        }
        if (!found) return false;
        speed = main_ft;
    } else {
        if (!geom_path(b, who, goal, p->interval_ft, o->ps, &cost, o->path, o->ncells, &len) ||
            len < 2)
            return false;
        int dash = p->dash_ft > p->speed_ft ? p->dash_ft : p->speed_ft;
        if (cost > dash) return false;
    }
    *cost_ft = cost;
    int provokes = 0;
    for (int j = 0; j < b->n; j++) {
        if (!b->present[j] || board_allies(b, j, who)) continue;
        int n = geom_threat(b, j, o->prof[j].reach_ft, o->hexes, o->ncells);
        for (int k = 0; k < n && k < o->ncells; k++) {
            int idx = board_cell_index(b, o->hexes[k]);
            if (idx >= 0) o->band[idx] = UI_OV_THREAT + 1;
        }
        /* One reaction per enemy: only the first step out of its zone. */
        for (int k = 0; k + 1 < len; k++) {
            hex_t here = hex_from_cell(o->m->layout, o->path[k]);
            hex_t next = hex_from_cell(o->m->layout, o->path[k + 1]);
            if (geom_threatens(b, j, o->prof[j].reach_ft, here) &&
                !geom_threatens(b, j, o->prof[j].reach_ft, next)) {
                add_warn(o, o->path[k]);
                provokes++;
                break;
            }
        }
    }
    marks_from_bands(o, UI_OV_FILL);
    for (int k = 0; k + 1 < len; k++)
        add_line(o, o->path[k], o->path[k + 1], UI_OV_PATH);
    char text[BADGE_MAX];
    if (cost > speed)
        snprintf(text, sizeof text, "%d ft (%.16s)", cost, further);
    else
        snprintf(text, sizeof text, "%d ft", cost);
    add_badge(o, goal, cost > speed ? UI_OV_DASH : UI_OV_REACH_1, text);
    add_legend(o, UI_OV_COLOR_COUNT, "move: %s, %d ft", who_name(o->m, who), cost);
    add_legend(o, UI_OV_THREAT, "enemy threat zones");
    if (provokes) add_legend(o, UI_OV_PROVOKE, "leaves a zone: provokes (%d)", provokes);
    return true;
}

bool ui_overlay_preview(ui_overlay_t *o, int who, cell_t goal, int *cost_ft)
{
    return preview(o, NULL, who, goal, cost_ft);
}

/* ---- the play window ---------------------------------------------------- */

void ui_overlay_use_db(ui_overlay_t *o, const tmpl_db_t *db)
{
    o->db = db;
    ui_overlay_sync(o); /* reach counts the weapon in hand */
}

void ui_overlay_use_profiles(ui_overlay_t *o, const geo_profile_t *prof)
{
    o->battle_prof = prof;
}

void ui_overlay_legend_at(ui_overlay_t *o, int x, int y)
{
    o->legend_x = x;
    o->legend_y = y;
}

/* Take positions and presence from src, a board of the same map. */
static void copy_board(board_t *dst, const board_t *src)
{
    int n = dst->n < src->n ? dst->n : src->n;
    for (int i = 0; i < n; i++) {
        int idx = board_cell_index(dst, dst->pos[i]);
        if (idx >= 0 && dst->occ[idx] == i) dst->occ[idx] = -1;
    }
    for (int i = 0; i < n; i++) {
        dst->pos[i] = src->pos[i];
        dst->present[i] = src->present[i];
        int idx = board_cell_index(dst, dst->pos[i]);
        if (idx >= 0 && dst->present[i]) dst->occ[idx] = (int16_t)i;
    }
}

void ui_overlay_window(ui_overlay_t *o, const battle_t *bt, unsigned mask, int who, bool hover_on,
                       cell_t hover)
{
    if (bt && !same_shape(o, bt->map)) {
        ui_overlay_clear(o); /* not this set's map: nothing to show */
        return;
    }
    if (bt) {
        /* Everything is copied from the battle as it stands now; nothing of
         * it is kept, so a rebuild (undo, a die typed in) cannot leave the
         * set pointing at freed memory. */
        copy_map(o, bt->map);
        copy_board(o->b, bt->board);
        memcpy(o->prof, bt->prof, sizeof *o->prof * (size_t)o->b->n);
    } else {
        ui_overlay_sync(o);
        if (o->battle_prof)
            memcpy(o->prof, o->battle_prof, sizeof *o->prof * (size_t)o->b->n);
    }
    ui_overlay_clear(o);
    if (who < 0 || who >= o->b->n || !o->b->present[who] || !mask) return;
    hex_t hh = hex_from_cell(o->m->layout, hover);
    bool on_self = hover_on && hex_eq(hh, o->b->pos[who]);
    int other = hover_on ? board_occupant(o->b, hh) : -1;
    if (mask & (1u << OVERLAY_REACH)) {
        bool turn = bt && build_reach_turn(o, bt, who);
        if (!turn) build_reach(o, who);
        int cost;
        if (hover_on && !on_self) preview(o, turn ? bt : NULL, who, hover, &cost);
    }
    if (mask & (1u << OVERLAY_THREAT)) build_threat(o, who);
    if ((mask & (1u << OVERLAY_FLANKING)) && other >= 0 && other != who)
        build_flanking(o, who, other);
    if (mask & (1u << OVERLAY_RANGE)) {
        /* The weapon in hand; a ruleset where every weapon is at hand
         * (equipped -1) shows the longest reaching one. */
        const weapon_t *held = bt ? battle_weapon(bt, who, bt->u[who].equipped) : NULL;
        build_range(o, o->db, who, held ? held->id : "");
    }
    if (mask & (1u << OVERLAY_LOS)) {
        overlay_spec_t sp = {.kind = OVERLAY_LOS, .has_cell = hover_on && !on_self, .cell = hover};
        build_los(o, who, &sp);
    }
    if ((mask & (1u << OVERLAY_AREA)) && hover_on && !on_self && o->db) {
        /* The first weapon carried that strikes an area, aimed at the hovered hex. */
        const map_combatant_t *c = &o->m->combatants[who];
        area_t a;
        for (int k = 0; k < c->n_weapons; k++) {
            const weapon_t *w = tmpl_find_weapon(o->db, c->weapons[k]);
            if (weapon_area(o, w, who, hover, &a)) {
                build_area(o, who, w, hover);
                break;
            }
        }
    }
}

/* ---- drawing ------------------------------------------------------------ */

static void tri(ui_overlay_t *o, float x0, float y0, float x1, float y1, float x2, float y2,
                SDL_Color c)
{
    o->tri_v[o->n_tri++] = (SDL_Vertex){{x0, y0}, c, {0, 0}};
    o->tri_v[o->n_tri++] = (SDL_Vertex){{x1, y1}, c, {0, 0}};
    o->tri_v[o->n_tri++] = (SDL_Vertex){{x2, y2}, c, {0, 0}};
}

/* A band of width wd from a to e, as two triangles. */
static void segment(ui_overlay_t *o, vec2_t a, vec2_t e, float wd, SDL_Color c)
{
    if (!grow((void **)&o->tri_v, &o->cap_tri, o->n_tri + 6, sizeof *o->tri_v)) return;
    double dx = e.x - a.x, dy = e.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len <= 0.0) return;
    float nx = (float)(-dy / len * wd / 2.0), ny = (float)(dx / len * wd / 2.0);
    float ax = (float)a.x, ay = (float)a.y, ex = (float)e.x, ey = (float)e.y;
    tri(o, ax + nx, ay + ny, ax - nx, ay - ny, ex + nx, ey + ny, c);
    tri(o, ax - nx, ay - ny, ex - nx, ey - ny, ex + nx, ey + ny, c);
}

/* A regular polygon of n sides (a dot or a marker) around (x, y). */
static void polygon(ui_overlay_t *o, double x, double y, double r, int n, double turn, SDL_Color c)
{
    if (!grow((void **)&o->tri_v, &o->cap_tri, o->n_tri + 3 * n, sizeof *o->tri_v)) return;
    for (int k = 0; k < n; k++) {
        double a0 = turn + 2.0 * PI * k / n, a1 = turn + 2.0 * PI * (k + 1) / n;
        tri(o, (float)x, (float)y, (float)(x + r * cos(a0)), (float)(y + r * sin(a0)),
            (float)(x + r * cos(a1)), (float)(y + r * sin(a1)), c);
    }
}

static const int FAN[FAN_IDX] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};

static bool grow_fan(ui_overlay_t *o, int hexes)
{
    if (hexes <= o->fan_cap) return true;
    int c = o->fan_cap ? o->fan_cap : 256;
    while (c < hexes)
        c *= 2;
    int *p = realloc(o->fan_idx, sizeof *p * (size_t)c * FAN_IDX);
    if (!p) return false;
    for (int k = o->fan_cap; k < c; k++)
        for (int j = 0; j < FAN_IDX; j++)
            p[k * FAN_IDX + j] = k * 6 + FAN[j];
    o->fan_idx = p;
    o->fan_cap = c;
    return true;
}

/* Edge toward direction d joins corners (6-d)%6 and (7-d)%6 (as in draw.c). */
static void edge_corners(int d, int *a, int *b)
{
    *a = (6 - d) % 6;
    *b = (7 - d) % 6;
}

/* Badge bd of cell centre at: beside the hex, at the first spot that covers
 * no token of avoid[0..n_avoid); with none clear, above the hex and faded. */
static void draw_badge(SDL_Renderer *r, ui_text_t *text, const badge_t *bd, vec2_t at, double z,
                       int px, const SDL_Rect *avoid, int n_avoid)
{
    int tw, th;
    SDL_Color ink = {16, 16, 20, 255};
    SDL_Texture *t = ui_text_get(text, bd->text, px, true, ink, &tw, &th);
    if (!t) return;
    SDL_Color bg = ui_overlay_color((ui_ov_color_t)bd->color);
    int half = (int)ceil(z * 0.9);
    SDL_Rect hex = {(int)lround(at.x) - half, (int)lround(at.y) - half, 2 * half, 2 * half};
    SDL_Rect box;
    Uint8 alpha = 245;
    if (!ui_place_label(tw + 10, th + 4, hex, hex.y + hex.h + 1, avoid, n_avoid, -1, NULL, 0,
                        &box)) {
        box = (SDL_Rect){(int)lround(at.x - tw / 2.0) - 5, hex.y - th - 5, tw + 10, th + 4};
        alpha = 150;
    }
    box = (SDL_Rect){box.x + 1, box.y + 1, box.w - 2, box.h - 2}; /* inside its rim */
    SDL_SetRenderDrawColor(r, 16, 16, 20, (Uint8)(alpha * 230 / 245));
    SDL_Rect rim = {box.x - 1, box.y - 1, box.w + 2, box.h + 2};
    SDL_RenderFillRect(r, &rim);
    SDL_SetRenderDrawColor(r, bg.r, bg.g, bg.b, alpha);
    SDL_RenderFillRect(r, &box);
    SDL_SetTextureAlphaMod(t, alpha == 245 ? 255 : 170);
    ui_text_put(text, t, (SDL_Rect){box.x + 4, box.y + 1, tw, th}, bd->text, UI_TEXT_LABEL);
    SDL_SetTextureAlphaMod(t, 255);
}

static int badge_px(double z)
{
    return ui_text_quantize((int)fmin(fmax(z * 0.45, 11.0), 18.0));
}

void ui_overlay_draw_badges(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text,
                            const ui_camera_t *cam, const SDL_Rect *avoid, int n_avoid)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    for (int k = 0; k < o->n_badges; k++)
        draw_badge(r, text, &o->badges[k], ui_cam_to_screen(cam, ui_cell_center(o->m, o->badges[k].at)),
                   cam->zoom, badge_px(cam->zoom), avoid, n_avoid);
}

static void draw_legend(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text, int w, int h)
{
    int px = ui_text_quantize(h / 60 < 11 ? 11 : h / 60 > 18 ? 18 : h / 60);
    int pad = px / 2 + 2;
    ui_overlay_draw_legend(o, r, text, o->legend_x + pad, o->legend_y + pad, w - 2 * pad, px);
}

int ui_overlay_draw_legend(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text, int x0, int y0,
                           int maxw, int px)
{
    o->legend_box = (SDL_Rect){0, 0, 0, 0};
    if (!o->n_legend) return 0;
    int row_h = (int)lround(px * 1.45), sw = px, pad = px / 2 + 2;
    SDL_Color ink = {240, 240, 232, 255};
    int width = 0;
    for (int k = 0; k < o->n_legend; k++) {
        int tw = 0, th = 0;
        bool head = o->legend[k].color == UI_OV_COLOR_COUNT;
        if (!text || !ui_text_get(text, o->legend[k].text, px, head, ink, &tw, &th)) continue;
        int rw = tw + (head ? 0 : sw + pad);
        if (rw > width) width = rw;
    }
    SDL_Rect box = {x0, y0, width + 2 * pad, o->n_legend * row_h + 2 * pad};
    if (box.w > maxw) box.w = maxw;
    o->legend_box = box;
    /* Opaque on purpose: a blended box costs the software renderer more
     * than every overlay mark together. */
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 22, 24, 30, 255);
    SDL_RenderFillRect(r, &box);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_Rect old;
    SDL_RenderGetClipRect(r, &old);
    bool clipped = SDL_RenderIsClipEnabled(r);
    SDL_Rect cl = box; /* within the caller's clip, when it set one */
    if (clipped && !SDL_IntersectRect(&box, &old, &cl)) cl = (SDL_Rect){box.x, box.y, 0, 0};
    SDL_RenderSetClipRect(r, &cl);
    for (int k = 0; k < o->n_legend; k++) {
        const legend_row_t *row = &o->legend[k];
        int y = box.y + pad + k * row_h;
        int x = box.x + pad;
        if (row->color != UI_OV_COLOR_COUNT) {
            SDL_Color c = ui_overlay_color((ui_ov_color_t)row->color);
            SDL_Rect s = {x, y + (row_h - sw) / 2, sw, sw};
            SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
            SDL_RenderFillRect(r, &s);
            x += sw + pad;
        }
        int tw = 0, th = 0;
        bool head = row->color == UI_OV_COLOR_COUNT;
        if (text && ui_text_get(text, row->text, px, head, ink, &tw, &th))
            ui_text_draw(text, row->text, px, head, ink, x, y + (row_h - th) / 2);
    }
    SDL_RenderSetClipRect(r, clipped ? &old : NULL);
    return box.h;
}

void ui_overlay_draw(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text, const ui_camera_t *cam,
                     int w, int h, bool legend, bool with_badges)
{
    const map_t *m = o->m;
    double z = cam->zoom, pad = 2.0 * z;
    vec2_t corner[6];
    for (int k = 0; k < 6; k++)
        corner[k] = hex_corner(m->layout.orient, z, k);
    o->n_fill = o->n_tri = o->n_dots = 0;
    o->legend_box = (SDL_Rect){0, 0, 0, 0};
    if (!grow((void **)&o->fill_v, &o->cap_fill, 6 * o->n_marks, sizeof *o->fill_v)) return;
    float lw = (float)fmin(fmax(z * 0.12, 1.5), 5.0);
    double inset = 1.0 - lw / (2.0 * z); /* contours sit just inside their hex */
    /* Below the zoom where draw.c starts texturing terrain every hex is one
     * flat colour, so fills can be premixed and drawn opaque - on the
     * software renderer that is several times cheaper than blending. They
     * are inset a little to leave the grid line between hexes showing. */
    bool premix = z < PREMIX_ZOOM;
    double fill_k = premix ? 1.0 - fmin(1.5 / z, 0.2) : 1.0;
    for (int k = 0; k < o->n_marks; k++) {
        const hex_mark_t *mk = &o->marks[k];
        if (mk->style != UI_OV_FILL && !mk->edges && mk->style != UI_OV_DOT) continue;
        vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, map_cell_of(m, mk->cell)));
        if (sc.x < -pad || sc.y < -pad || sc.x > w + pad || sc.y > h + pad) continue;
        ui_ov_color_t col = (ui_ov_color_t)mk->color;
        if (mk->style == UI_OV_FILL) {
            SDL_Color c = with_alpha(col, ui_overlay_alpha(col));
            if (premix) {
                /* The blend done once here, on the hex's flat terrain colour:
                 * the same picture as blending, at the price of a plain fill. */
                uint32_t t = m->types[m->cells[mk->cell]].color;
                int a = c.a;
                c = (SDL_Color){(Uint8)((c.r * a + (int)(t >> 16 & 255) * (255 - a)) / 255),
                                (Uint8)((c.g * a + (int)(t >> 8 & 255) * (255 - a)) / 255),
                                (Uint8)((c.b * a + (int)(t & 255) * (255 - a)) / 255), 255};
            }
            for (int j = 0; j < 6; j++)
                o->fill_v[o->n_fill++] = (SDL_Vertex){
                    {(float)(sc.x + corner[j].x * fill_k), (float)(sc.y + corner[j].y * fill_k)},
                    c,
                    {0, 0}};
            continue;
        }
        SDL_Color c = with_alpha(col, 255);
        if (mk->style == UI_OV_DOT &&
            grow((void **)&o->dots, &o->cap_dots, o->n_dots + 1, sizeof *o->dots) &&
            grow((void **)&o->dot_color, &o->cap_dot_color, o->n_dots + 1, 1)) {
            float dr = (float)fmax(z * 0.14, 1.0);
            o->dots[o->n_dots] = (SDL_FRect){(float)sc.x - dr, (float)sc.y - dr, 2 * dr, 2 * dr};
            o->dot_color[o->n_dots++] = mk->color;
        }
        for (int d = 0; d < HEX_DIRS; d++) {
            if (!(mk->edges & (1u << d))) continue;
            int a, b;
            edge_corners(d, &a, &b);
            vec2_t pa = {sc.x + corner[a].x * inset, sc.y + corner[a].y * inset};
            vec2_t pb = {sc.x + corner[b].x * inset, sc.y + corner[b].y * inset};
            segment(o, pa, pb, lw, c);
        }
    }
    float line_w = (float)fmax(z * 0.14, 2.0);
    for (int k = 0; k < o->n_lines; k++) {
        const line_mark_t *ln = &o->lines[k];
        vec2_t a = ui_cam_to_screen(cam, ui_cell_center(m, ln->a));
        vec2_t e = ui_cam_to_screen(cam, ui_cell_center(m, ln->b));
        /* A dark casing keeps a light line readable on any terrain. */
        segment(o, a, e, line_w + 2.0f, (SDL_Color){16, 16, 20, 255});
    }
    for (int k = 0; k < o->n_lines; k++) {
        const line_mark_t *ln = &o->lines[k];
        vec2_t a = ui_cam_to_screen(cam, ui_cell_center(m, ln->a));
        vec2_t e = ui_cam_to_screen(cam, ui_cell_center(m, ln->b));
        segment(o, a, e, line_w, with_alpha((ui_ov_color_t)ln->color, 255));
        if (ln->color == UI_OV_PATH)
            polygon(o, e.x, e.y, line_w * 0.9, 8, 0.0, with_alpha(UI_OV_PATH, 255));
    }
    for (int k = 0; k < o->n_warn; k++) {
        vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, o->warn[k]));
        double rr = fmax(z * 0.42, 5.0);
        polygon(o, sc.x, sc.y, rr + 2.0, 3, -PI / 2, (SDL_Color){16, 16, 20, 255});
        polygon(o, sc.x, sc.y, rr, 3, -PI / 2, with_alpha(UI_OV_PROVOKE, 255));
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    if (o->n_fill && grow_fan(o, o->n_fill / 6)) {
        if (premix) SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
        SDL_RenderGeometry(r, NULL, o->fill_v, o->n_fill, o->fan_idx, o->n_fill / 6 * FAN_IDX);
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    }
    /* Contours, dots, lines and markers are all opaque, so they skip blending. */
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    for (int k = 0, run; k < o->n_dots; k += run) {
        for (run = 1; k + run < o->n_dots && o->dot_color[k + run] == o->dot_color[k]; run++)
            ;
        SDL_Color c = with_alpha((ui_ov_color_t)o->dot_color[k], 255);
        SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
        SDL_RenderFillRectsF(r, o->dots + k, run);
    }
    if (o->n_tri) SDL_RenderGeometry(r, NULL, o->tri_v, o->n_tri, NULL, 0);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);

    if (!text) return;
    int px = badge_px(z);
    for (int k = 0; k < o->n_warn && z >= 14.0; k++) {
        vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, o->warn[k]));
        int tw, th;
        SDL_Color ink = {16, 16, 20, 255};
        if (ui_text_get(text, "!", px, true, ink, &tw, &th))
            ui_text_draw(text, "!", px, true, ink, (int)lround(sc.x - tw / 2.0),
                         (int)lround(sc.y - th / 2.0 + z * 0.08));
    }
    if (with_badges) ui_overlay_draw_badges(o, r, text, cam, NULL, 0);
    if (legend && o->n_legend) draw_legend(o, r, text, w, h);
}

/* ---- queries ------------------------------------------------------------ */

int ui_overlay_mark_at(const ui_overlay_t *o, cell_t cell, ui_ov_style_t *style)
{
    if (!map_in_bounds(o->m, cell)) return -1;
    int idx = map_index(o->m, cell);
    for (int k = o->n_marks - 1; k >= 0; k--)
        if (o->marks[k].cell == idx) {
            if (style) *style = (ui_ov_style_t)o->marks[k].style;
            return o->marks[k].color;
        }
    return -1;
}

int ui_overlay_warnings(const ui_overlay_t *o, cell_t *out, int cap)
{
    for (int k = 0; k < o->n_warn && k < cap; k++)
        out[k] = o->warn[k];
    return o->n_warn;
}

int ui_overlay_line(const ui_overlay_t *o, int k, cell_t *a, cell_t *b, ui_ov_color_t *color)
{
    if (k < 0 || k >= o->n_lines) return o->n_lines;
    *a = o->lines[k].a;
    *b = o->lines[k].b;
    *color = (ui_ov_color_t)o->lines[k].color;
    return o->n_lines;
}

int ui_overlay_count(const ui_overlay_t *o)
{
    return o->n_marks + o->n_lines + o->n_warn + o->n_badges;
}

int ui_overlay_legend_rows(const ui_overlay_t *o)
{
    return o->n_legend;
}

ui_ov_color_t ui_overlay_legend_row(const ui_overlay_t *o, int k, char *buf, size_t cap)
{
    if (k < 0 || k >= o->n_legend) return UI_OV_COLOR_COUNT;
    if (buf) hb_strlcpy(buf, o->legend[k].text, (unsigned)cap);
    return (ui_ov_color_t)o->legend[k].color;
}

SDL_Rect ui_overlay_legend_box(const ui_overlay_t *o)
{
    return o->legend_box;
}
