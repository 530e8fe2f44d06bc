/* map_io.c - map files, format version 1 (DESIGN.md "Map file", docs/map-format.md).
 *
 * The loader trusts nothing: every value is type- and range-checked and every
 * refusal names the file, the JSON path and the reason. The saver writes only
 * what the author gave (template values stay in the template), so a load and
 * a save give back an equal map.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/ruleset.h"
#include "io_json.h"
#include "map_io.h"
#include "picture.h"
#include "tiled.h"

#define FEET_PER_HEX_MAX 1000

static int read_grid(io_ctx_t *cx, const cJSON *root, map_t **out)
{
    const cJSON *g, *v;
    int rc;
    if ((rc = io_require(cx, root, "", "grid", &g)) || (rc = io_want_object(cx, g, "grid")))
        return rc;

    hex_layout_t lay;
    if ((rc = io_require(cx, g, "grid", "orientation", &v))) return rc;
    /* Index order matches hex_orient_t and hex_stagger_t. */
    static const char *const ORIENT[] = {"pointy", "flat"};
    static const char *const STAGGER[] = {"odd", "even"};
    int which;
    if ((rc = io_want_enum(cx, v, "grid.orientation", ORIENT, 2, &which))) return rc;
    lay.orient = which == 1 ? HEX_FLAT : HEX_POINTY;
    if ((rc = io_require(cx, g, "grid", "stagger", &v)) ||
        (rc = io_want_enum(cx, v, "grid.stagger", STAGGER, 2, &which)))
        return rc;
    lay.stagger = which == 1 ? HEX_EVEN : HEX_ODD;

    int cols, rows, feet = 5;
    if ((rc = io_require(cx, g, "grid", "cols", &v)) ||
        (rc = io_want_int(cx, v, "grid.cols", 1, MAP_MAX_DIM, &cols)) ||
        (rc = io_require(cx, g, "grid", "rows", &v)) ||
        (rc = io_want_int(cx, v, "grid.rows", 1, MAP_MAX_DIM, &rows)))
        return rc;
    if ((v = io_get(g, "feet_per_hex")) &&
        (rc = io_want_int(cx, v, "grid.feet_per_hex", 1, FEET_PER_HEX_MAX, &feet)))
        return rc;

    map_t *m = map_create(cols, rows);
    if (!m) return io_fail_other(cx, "out of memory");
    m->layout = lay;
    m->feet_per_hex = feet;
    *out = m;
    return HB_OK;
}

/* A byte as it should appear in a message. */
static void show_char(unsigned char c, char *out, size_t cap)
{
    if (c >= 0x20 && c < 0x7f && c != '\'')
        snprintf(out, cap, "'%c'", c);
    else
        snprintf(out, cap, "byte 0x%02x", c);
}

static int read_legend(io_ctx_t *cx, const cJSON *legend, map_t *m, int lookup[256])
{
    int rc = io_want_object(cx, legend, "terrain.legend");
    if (rc) return rc;
    char p[IO_PATH_MAX];
    for (const cJSON *e = legend->child; e; e = e->next) {
        io_path_key(p, sizeof p, "terrain.legend", e->string);
        const unsigned char *k = (const unsigned char *)e->string;
        if (strlen(e->string) != 1)
            return io_fail(cx, p, "legend keys must be exactly one character");
        if (k[0] < 0x20 || k[0] >= 0x7f)
            return io_fail(cx, p, "legend keys must be printable ASCII characters");
        if (lookup[k[0]] >= 0) return io_fail(cx, p, "given twice");
        if (m->n_legend >= MAP_MAX_LEGEND)
            return io_fail(cx, p, "more than %d legend entries", MAP_MAX_LEGEND);
        if (!cJSON_IsString(e))
            return io_fail(cx, p, "expected a terrain type name, found %s", io_type_name(e));
        int t = map_find_type(m, e->valuestring);
        if (t < 0) return io_fail(cx, p, "unknown terrain type '%.40s'", e->valuestring);
        lookup[k[0]] = t;
        m->legend_ch[m->n_legend] = (char)k[0];
        m->legend_type[m->n_legend] = (uint8_t)t;
        m->n_legend++;
    }
    return HB_OK;
}

static int read_terrain(io_ctx_t *cx, const cJSON *root, map_t *m)
{
    const cJSON *terrain, *legend, *rows;
    int rc;
    if ((rc = io_require(cx, root, "", "terrain", &terrain)) ||
        (rc = io_want_object(cx, terrain, "terrain")) ||
        (rc = io_require(cx, terrain, "terrain", "legend", &legend)))
        return rc;
    int lookup[256];
    for (int i = 0; i < 256; i++)
        lookup[i] = -1;
    if ((rc = read_legend(cx, legend, m, lookup))) return rc;

    if ((rc = io_require(cx, terrain, "terrain", "rows", &rows)) ||
        (rc = io_want_array(cx, rows, "terrain.rows")))
        return rc;
    int n = cJSON_GetArraySize(rows);
    if (n != m->rows)
        return io_fail(cx, "terrain.rows", "expected %d rows (grid.rows), found %d", m->rows, n);
    char p[IO_PATH_MAX];
    int r = 0;
    for (const cJSON *row = rows->child; row; row = row->next, r++) {
        io_path_index(p, sizeof p, "terrain.rows", r);
        if (!cJSON_IsString(row))
            return io_fail(cx, p, "expected a string, found %s", io_type_name(row));
        const unsigned char *s = (const unsigned char *)row->valuestring;
        size_t len = strlen(row->valuestring);
        if (len != (size_t)m->cols)
            return io_fail(cx, p, "expected %d characters, found %zu", m->cols, len);
        for (int c = 0; c < m->cols; c++) {
            if (lookup[s[c]] < 0) {
                char shown[16];
                show_char(s[c], shown, sizeof shown);
                return io_fail(cx, p, "column %d: %s is not in the legend", c, shown);
            }
            m->cells[r * m->cols + c] = (uint8_t)lookup[s[c]];
        }
    }
    return HB_OK;
}

/* One faction's entry: "player" / "architect" / "referee" ("referee" is the
 * same side as "architect" under another name), or an object with that
 * "control" and side-level integer scores such as "morale" (0..12). */
static int read_faction(io_ctx_t *cx, const cJSON *e, const char *p, faction_t *fa)
{
    static const char *const CONTROL[] = {"player", "architect", "referee"};
    int which, rc;
    if (!cJSON_IsObject(e)) {
        if ((rc = io_want_enum(cx, e, p, CONTROL, 3, &which))) return rc;
        fa->player = which == 0;
        return HB_OK;
    }
    const cJSON *v;
    if ((rc = io_require(cx, e, p, "control", &v))) return rc;
    char q[IO_PATH_MAX];
    io_path_key(q, sizeof q, p, "control");
    if ((rc = io_want_enum(cx, v, q, CONTROL, 3, &which))) return rc;
    fa->player = which == 0;
    for (const cJSON *s = e->child; s; s = s->next) {
        if (strcmp(s->string, "control") == 0) continue;
        io_path_key(q, sizeof q, p, s->string);
        if (fa->n_values >= FACTION_MAX_VALUES)
            return io_fail(cx, q, "more than %d faction scores", FACTION_MAX_VALUES);
        if ((rc = io_want_key_id(cx, s->string, q, MAP_ID_MAX))) return rc;
        for (int k = 0; k < fa->n_values; k++)
            if (strcmp(fa->values[k].key, s->string) == 0) return io_fail(cx, q, "given twice");
        bool morale = strcmp(s->string, "morale") == 0;
        stat_kv_t *kv = &fa->values[fa->n_values];
        if ((rc = io_want_int(cx, s, q, morale ? 0 : -IO_VALUE_MAX,
                              morale ? FACTION_MORALE_MAX : IO_VALUE_MAX, &kv->value)))
            return rc;
        hb_strlcpy(kv->key, s->string, sizeof kv->key);
        fa->n_values++;
    }
    return HB_OK;
}

/* "options": {name: true | false | integer}, at most MAP_MAX_OPTIONS. */
static int read_options(io_ctx_t *cx, const cJSON *root, map_t *m)
{
    const cJSON *o = io_get(root, "options");
    if (!o) return HB_OK;
    int rc = io_want_object(cx, o, "options");
    if (rc) return rc;
    char p[IO_PATH_MAX];
    for (const cJSON *e = o->child; e; e = e->next) {
        io_path_key(p, sizeof p, "options", e->string);
        if (m->n_options >= MAP_MAX_OPTIONS)
            return io_fail(cx, p, "more than %d options", MAP_MAX_OPTIONS);
        if ((rc = io_want_key_id(cx, e->string, p, MAP_ID_MAX))) return rc;
        int v;
        if (map_option(m, e->string, &v)) return io_fail(cx, p, "given twice");
        bool is_bool = cJSON_IsBool(e);
        if (is_bool)
            v = cJSON_IsTrue(e);
        else if (!cJSON_IsNumber(e))
            return io_fail(cx, p, "expected true, false or an integer, found %s", io_type_name(e));
        else if ((rc = io_want_int(cx, e, p, -IO_VALUE_MAX, IO_VALUE_MAX, &v)))
            return rc;
        map_option_set(m, e->string, v, is_bool, false);
    }
    return HB_OK;
}

static int read_factions(io_ctx_t *cx, const cJSON *root, map_t *m)
{
    const cJSON *f = io_get(root, "factions");
    if (!f) return HB_OK;
    int rc = io_want_object(cx, f, "factions");
    if (rc) return rc;
    m->factions_given = true;
    char p[IO_PATH_MAX];
    for (const cJSON *e = f->child; e; e = e->next) {
        io_path_key(p, sizeof p, "factions", e->string);
        if (!*e->string) return io_fail(cx, p, "faction names must not be empty");
        if (!io_is_id(e->string))
            return io_fail(cx, p, "'%s' is not a valid faction name (letters, digits, '_' and '-')",
                           e->string);
        if (strlen(e->string) >= MAP_ID_MAX)
            return io_fail(cx, p, "faction name longer than %d characters", MAP_ID_MAX - 1);
        for (int i = 0; i < m->n_factions; i++)
            if (strcmp(m->factions[i].name, e->string) == 0) return io_fail(cx, p, "given twice");
        if (m->n_factions >= MAP_MAX_FACTIONS)
            return io_fail(cx, p, "more than %d factions", MAP_MAX_FACTIONS);
        faction_t *fa = &m->factions[m->n_factions];
        memset(fa, 0, sizeof *fa);
        if ((rc = read_faction(cx, e, p, fa))) return rc;
        hb_strlcpy(fa->name, e->string, sizeof fa->name);
        m->n_factions++;
    }
    return HB_OK;
}

/* Optional non-negative integer field KEY; sets bit in c->given when present. */
static int opt_int(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, int lo, int hi,
                   int *dst, unsigned bit, map_combatant_t *c)
{
    const cJSON *v = io_get(o, key);
    if (!v) return HB_OK;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, key);
    int rc = io_want_int(cx, v, p, lo, hi, dst);
    if (!rc) c->given |= bit;
    return rc;
}

static int read_combatant(io_ctx_t *cx, const cJSON *o, const char *path, const map_t *m,
                          const tmpl_db_t *db, map_combatant_t *c)
{
    int rc = io_want_object(cx, o, path);
    char p[IO_PATH_MAX];
    const cJSON *v;
    if (rc) return rc;
    memset(c, 0, sizeof *c);
    if ((rc = io_require(cx, o, path, "id", &v))) return rc;
    io_path_key(p, sizeof p, path, "id");
    if ((rc = io_want_id(cx, v, p, c->id, sizeof c->id))) return rc;
    if ((rc = io_require(cx, o, path, "faction", &v))) return rc;
    io_path_key(p, sizeof p, path, "faction");
    if ((rc = io_want_string(cx, v, p, c->faction, sizeof c->faction, false))) return rc;
    if (!io_is_id(c->faction))
        return io_fail(cx, p, "'%s' is not a valid faction name (letters, digits, '_' and '-')",
                       c->faction);

    if ((rc = io_require(cx, o, path, "at", &v))) return rc;
    io_path_key(p, sizeof p, path, "at");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) {
        if (cJSON_IsArray(v))
            return io_fail(cx, p, "expected [col, row], found an array of %d values",
                           cJSON_GetArraySize(v));
        return io_fail(cx, p, "expected [col, row], found %s", io_type_name(v));
    }
    char q[IO_PATH_MAX];
    io_path_index(q, sizeof q, p, 0);
    if ((rc = io_want_int(cx, v->child, q, 0, MAP_MAX_DIM - 1, &c->at.col))) return rc;
    io_path_index(q, sizeof q, p, 1);
    if ((rc = io_want_int(cx, v->child->next, q, 0, MAP_MAX_DIM - 1, &c->at.row))) return rc;
    if (!map_in_bounds(m, c->at))
        return io_fail(cx, p, "(%d, %d) is off the %dx%d map", c->at.col, c->at.row, m->cols,
                       m->rows);
    const terrain_t *ground = map_terrain_at(m, c->at);
    if (ground->move == 0)
        return io_fail(cx, p, "(%d, %d) is impassable terrain (%s)", c->at.col, c->at.row,
                       ground->name);

    const tmpl_t *t = NULL;
    if ((v = io_get(o, "template"))) {
        char id[MAP_ID_MAX];
        io_path_key(p, sizeof p, path, "template");
        if ((rc = io_want_id(cx, v, p, id, sizeof id))) return rc;
        if (!(t = tmpl_find(db, id)))
            return io_fail(cx, p, "no template '%s' in ruleset %s", id, db->ruleset);
    }
    tmpl_fill_combatant(t, c); /* the file's own fields override these */

    if ((v = io_get(o, "name"))) {
        io_path_key(p, sizeof p, path, "name");
        if ((rc = io_want_string(cx, v, p, c->name, sizeof c->name, false))) return rc;
        c->given |= GIVEN_NAME;
    }
    if ((v = io_get(o, "kind"))) {
        io_path_key(p, sizeof p, path, "kind");
        if ((rc = io_kind(cx, v, p, &c->kind))) return rc;
        c->given |= GIVEN_KIND;
    }
    if ((v = io_get(o, "size"))) {
        io_path_key(p, sizeof p, path, "size");
        if ((rc = io_size(cx, v, p, &c->size))) return rc;
        c->given |= GIVEN_SIZE;
    }
    /* Check the pair only once both are final: an override of either may fix
     * or break what the template said. */
    io_path_key(p, sizeof p, path, (c->given & GIVEN_SIZE) ? "size" : "kind");
    if ((rc = io_check_size(cx, p, c->kind, c->size))) return rc;

    if ((rc = opt_int(cx, o, path, "speed", 0, IO_FEET_MAX, &c->speed_ft, GIVEN_SPEED, c)) ||
        (rc = opt_int(cx, o, path, "fly", 0, IO_FEET_MAX, &c->fly_ft, GIVEN_FLY, c)) ||
        (rc = opt_int(cx, o, path, "reach", 0, IO_FEET_MAX, &c->reach_ft, GIVEN_REACH, c)) ||
        (rc = opt_int(cx, o, path, "hp", 1, IO_HP_MAX, &c->hp_max, GIVEN_HP, c)))
        return rc;
    c->hp = c->hp_max;

    if ((v = io_get(o, "token"))) {
        io_path_key(p, sizeof p, path, "token");
        if ((rc = io_want_string(cx, v, p, c->token, sizeof c->token, true)) ||
            (rc = io_want_inside(cx, p, c->token, "assets/")))
            return rc;
        c->given |= GIVEN_TOKEN;
    }
    if ((v = io_get(o, "weapons"))) {
        io_path_key(p, sizeof p, path, "weapons");
        if ((rc = io_weapon_list(cx, v, p, db, c->weapons, &c->n_weapons))) return rc;
        c->given |= GIVEN_WEAPONS;
    }
    if ((v = io_get(o, "stats"))) {
        io_path_key(p, sizeof p, path, "stats");
        if ((rc = io_stats(cx, v, p, c->stats, MAP_MAX_STATS, &c->n_stats))) return rc;
    }
    return HB_OK;
}

static int read_combatants(io_ctx_t *cx, const cJSON *root, map_t *m, const tmpl_db_t *db)
{
    const cJSON *list = io_get(root, "combatants");
    if (!list) return HB_OK;
    int rc = io_want_array(cx, list, "combatants");
    if (rc) return rc;
    int n = cJSON_GetArraySize(list);
    if (n > MAP_MAX_COMBATANTS)
        return io_fail(cx, "combatants", "%d combatants; at most %d are allowed", n,
                       MAP_MAX_COMBATANTS);
    if (n == 0) return HB_OK;
    m->combatants = calloc((size_t)n, sizeof *m->combatants);
    if (!m->combatants) return io_fail_other(cx, "out of memory");
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    int i = 0;
    for (const cJSON *o = list->child; o; o = o->next, i++) {
        io_path_index(p, sizeof p, "combatants", i);
        map_combatant_t *c = &m->combatants[i];
        if ((rc = read_combatant(cx, o, p, m, db, c))) return rc;
        /* n is at most MAP_MAX_COMBATANTS, so the pairwise checks stay cheap. */
        for (int k = 0; k < i; k++) {
            const map_combatant_t *e = &m->combatants[k];
            if (strcmp(e->id, c->id) == 0) {
                io_path_key(q, sizeof q, p, "id");
                return io_fail(cx, q, "duplicate id '%s' (also combatants[%d])", c->id, k);
            }
            if (e->at.col == c->at.col && e->at.row == c->at.row) {
                io_path_key(q, sizeof q, p, "at");
                return io_fail(cx, q, "'%s' and '%s' both stand on (%d, %d)", e->id, c->id,
                               c->at.col, c->at.row);
            }
        }
        m->n_combatants = i + 1;
    }
    return HB_OK;
}

/* A number at PATH within lo..hi into *out. */
static int want_number(io_ctx_t *cx, const cJSON *v, const char *path, double lo, double hi,
                       double *out)
{
    if (!cJSON_IsNumber(v)) return io_fail(cx, path, "expected a number, found %s", io_type_name(v));
    if (!(v->valuedouble >= lo && v->valuedouble <= hi))
        return io_fail(cx, path, "%g is out of range (%g..%g)", v->valuedouble, lo, hi);
    *out = v->valuedouble;
    return HB_OK;
}

/* "background": the battle-map picture under the grid (docs/map-format.md):
 * {"image": "cave.png", "offset": [x, y], "scale": s or [sx, sy]}. */
static int read_background(io_ctx_t *cx, const cJSON *root, map_t *m)
{
    const cJSON *bg = io_get(root, "background"), *v;
    if (!bg) return HB_OK;
    int rc = io_want_object(cx, bg, "background");
    if (rc) return rc;
    char image[ART_PATH_MAX], rel[ART_PATH_MAX];
    if ((rc = io_require(cx, bg, "background", "image", &v)) ||
        (rc = io_want_string(cx, v, "background.image", image, sizeof image, false)))
        return rc;
    char dir[ART_DIR_MAX];
    hb_dir_of(cx->file, dir, sizeof dir);
    if (!hb_picture_allowed(dir, "", image, rel, sizeof rel))
        return io_fail(cx, "background.image",
                       "'%.80s': a picture must be a relative path inside the map's folder or "
                       "hexbattle's assets folder (no absolute path)",
                       image);
    double ox = 0, oy = 0, sx = 1, sy = 1; /* set below: gcc -O3 cannot see it */
    if ((v = io_get(bg, "offset"))) {
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
            return io_fail(cx, "background.offset", "expected [x, y]");
        if ((rc = want_number(cx, cJSON_GetArrayItem(v, 0), "background.offset[0]", -1e6, 1e6,
                              &ox)) ||
            (rc = want_number(cx, cJSON_GetArrayItem(v, 1), "background.offset[1]", -1e6, 1e6,
                              &oy)))
            return rc;
    }
    if ((rc = io_require(cx, bg, "background", "scale", &v))) return rc;
    if (cJSON_IsArray(v)) {
        if (cJSON_GetArraySize(v) != 2)
            return io_fail(cx, "background.scale", "expected a number or [x, y]");
        if ((rc = want_number(cx, cJSON_GetArrayItem(v, 0), "background.scale[0]", 0.01, 1e5,
                              &sx)) ||
            (rc = want_number(cx, cJSON_GetArrayItem(v, 1), "background.scale[1]", 0.01, 1e5,
                              &sy)))
            return rc;
    } else {
        if ((rc = want_number(cx, v, "background.scale", 0.01, 1e5, &sx))) return rc;
        sy = sx;
    }
    if (!(m->art = art_create())) return io_fail_other(cx, "out of memory");
    hb_strlcpy(m->art->bg, rel, sizeof m->art->bg);
    hb_strlcpy(m->art->dir, dir, sizeof m->art->dir);
    m->art->bg_ox = ox;
    m->art->bg_oy = oy;
    m->art->bg_sx = sx;
    m->art->bg_sy = sy;
    m->art->cols = m->cols;
    m->art->rows = m->rows;
    m->art->layout = m->layout;
    return HB_OK;
}

static int read_map(io_ctx_t *cx, const cJSON *root, const char *data_dir, map_t **out,
                    tmpl_db_t **db_out)
{
    const cJSON *v;
    char name[MAP_NAME_MAX] = "";
    char ruleset[MAP_ID_MAX] = "xhalem";
    int rc = io_check_header(cx, root, "hexbattle-map");
    if (rc) return rc;
    if ((v = io_get(root, "name")) && (rc = io_want_string(cx, v, "name", name, sizeof name, true)))
        return rc;
    if ((v = io_get(root, "ruleset"))) {
        if ((rc = io_want_string(cx, v, "ruleset", ruleset, sizeof ruleset, false))) return rc;
        if (!ruleset_find(ruleset)) {
            const ruleset_t *const *list;
            int n = ruleset_list(&list);
            char known[128] = "";
            size_t used = 0;
            for (int i = 0; i < n && used < sizeof known; i++)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                         list[i]->id);
            return io_fail(cx, "ruleset", "unknown ruleset '%s' (known: %s)", ruleset, known);
        }
    }

    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    if ((rc = read_grid(cx, root, &m))) return rc;
    hb_strlcpy(m->name, name, sizeof m->name);
    hb_strlcpy(m->ruleset, ruleset, sizeof m->ruleset);

    rc =
        terrain_load_builtin(data_dir, m->types, MAP_MAX_TERRAIN, &m->n_types, cx->err, cx->errcap);
    if (!rc && (v = io_get(root, "terrain_types")))
        rc = io_terrain_table(cx, v, "terrain_types", m->types, MAP_MAX_TERRAIN, &m->n_types, true);
    if (!rc) rc = read_terrain(cx, root, m);
    if (!rc) rc = tmpl_db_load(data_dir, ruleset, &db, cx->err, cx->errcap);
    if (!rc) rc = read_factions(cx, root, m);
    if (!rc) rc = read_options(cx, root, m);
    if (!rc) rc = read_combatants(cx, root, m, db);
    if (!rc) rc = read_background(cx, root, m);
    if (rc) {
        tmpl_db_destroy(db);
        map_destroy(m);
        return rc;
    }
    *out = m;
    if (db_out)
        *db_out = db;
    else
        tmpl_db_destroy(db);
    return HB_OK;
}

int map_from_json(const cJSON *root, const char *name, const char *data_dir, map_t **out,
                  tmpl_db_t **db_out, char *err, size_t errcap)
{
    *out = NULL;
    if (db_out) *db_out = NULL;
    io_ctx_t cx = {.file = name ? name : "(map)", .err = err, .errcap = errcap};
    return read_map(&cx, root, data_dir ? data_dir : hb_data_dir(), out, db_out);
}

int map_load_mem(const char *text, size_t len, const char *name, const char *data_dir, map_t **out,
                 tmpl_db_t **db_out, char *err, size_t errcap)
{
    *out = NULL;
    if (db_out) *db_out = NULL;
    /* A Tiled map by its name: .tmj or .tmx (tiled.h). */
    if (tiled_format_of(name) != TILED_NONE)
        return tiled_load_mem(text, len, name, data_dir, out, db_out, NULL, 0, err, errcap);
    io_ctx_t cx = {.file = name ? name : "(map)", .err = err, .errcap = errcap};
    if (len > HB_FILE_MAX)
        return io_fail(&cx, "", "over the %u MiB limit", HB_FILE_MAX / (1024u * 1024u));
    if (!data_dir) data_dir = hb_data_dir();
    cJSON *root = NULL;
    int rc = io_parse(&cx, text, len, &root);
    if (!rc) rc = read_map(&cx, root, data_dir, out, db_out);
    cJSON_Delete(root);
    return rc;
}

int io_load_member_map(io_ctx_t *cx, const cJSON *root, const char *key, const char *data_dir,
                       map_t **out, tmpl_db_t **db_out)
{
    const cJSON *v;
    int rc = io_require(cx, root, "", key, &v);
    if (!rc) rc = io_want_object(cx, v, key);
    if (rc) return rc;
    char *text = cJSON_PrintUnformatted(v);
    if (!text) return io_fail_other(cx, "out of memory");
    char merr[HB_ERR_MAX];
    merr[0] = '\0';
    rc = map_load_mem(text, strlen(text), cx->file, data_dir, out, db_out, merr, sizeof merr);
    cJSON_free(text);
    if (rc == HB_OK) return HB_OK;
    size_t k = strlen(cx->file);
    if (rc == HB_ERR_INPUT && strncmp(merr, cx->file, k) == 0 && strncmp(merr + k, ": ", 2) == 0) {
        const char *rest = merr + k + 2;
        if (strncmp(rest, "(root): ", 8) == 0) return io_fail(cx, key, "%s", rest + 8);
        /* rest is "PATH: reason"; the map's paths sit under "KEY." here. */
        if (cx->err && cx->errcap) snprintf(cx->err, cx->errcap, "%s: %s.%s", cx->file, key, rest);
        return HB_ERR_INPUT;
    }
    /* A message about the data folder or memory names its own file. */
    if (cx->err && cx->errcap) snprintf(cx->err, cx->errcap, "%s", merr);
    return rc;
}

int map_load(const char *path, const char *data_dir, map_t **out, tmpl_db_t **db_out, char *err,
             size_t errcap)
{
    *out = NULL;
    if (db_out) *db_out = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = hb_read_file(path, HB_FILE_MAX, &text, &len, err, errcap);
    if (rc) return rc;
    rc = map_load_mem(text, len, path, data_dir, out, db_out, err, errcap);
    free(text);
    return rc;
}

/* ---- saving ---- */

/* Attach item under key (or to an array when key is NULL); on any failure
 * free item and clear *ok, so callers check once at the end. */
static cJSON *attach(cJSON *parent, const char *key, cJSON *item, bool *ok)
{
    bool done =
        item && parent &&
        (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (!done) {
        cJSON_Delete(item);
        *ok = false;
        return NULL;
    }
    return item;
}

static void put_num(cJSON *o, const char *key, int v, bool *ok)
{
    attach(o, key, cJSON_CreateNumber(v), ok);
}

static void put_str(cJSON *o, const char *key, const char *s, bool *ok)
{
    attach(o, key, cJSON_CreateString(s), ok);
}

static void put_type(cJSON *types, const terrain_t *t, bool *ok)
{
    cJSON *o = attach(types, t->name, cJSON_CreateObject(), ok);
    char color[8];
    snprintf(color, sizeof color, "#%06x", (unsigned)(t->color & 0xffffffu));
    put_num(o, "move", t->move, ok);
    put_str(o, "cover", map_cover_name(t->cover), ok);
    attach(o, "blocks_sight", cJSON_CreateBool(t->blocks_sight), ok);
    put_str(o, "color", color, ok);
    if (t->texture[0]) put_str(o, "texture", t->texture, ok);
    if (t->opens_to[0]) put_str(o, "opens_to", t->opens_to, ok);
    if (t->depth != DEPTH_NONE) put_str(o, "depth", map_depth_name(t->depth), ok);
}

/* Legend plus rows; cells whose type has no legend character (an editor may
 * paint any type) get a free character so the file stays loadable. */
static void put_terrain(cJSON *root, const map_t *m, bool *ok)
{
    static const char SPARE[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "!$%&*+-/:;<=>?@_|";
    char ch_of[MAP_MAX_TERRAIN] = {0};
    bool used[256] = {false};
    char lch[MAP_MAX_LEGEND + MAP_MAX_TERRAIN];
    int ltype[MAP_MAX_LEGEND + MAP_MAX_TERRAIN];
    int nl = 0;
    for (int i = 0; i < m->n_legend && i < MAP_MAX_LEGEND; i++) {
        lch[nl] = m->legend_ch[i];
        ltype[nl++] = m->legend_type[i];
        used[(unsigned char)m->legend_ch[i]] = true;
        if (m->legend_type[i] < MAP_MAX_TERRAIN && !ch_of[m->legend_type[i]])
            ch_of[m->legend_type[i]] = m->legend_ch[i];
    }
    size_t ncells = (size_t)m->cols * (size_t)m->rows;
    size_t spare = 0;
    for (size_t i = 0; i < ncells; i++) {
        int t = m->cells[i];
        if (t >= m->n_types || t >= MAP_MAX_TERRAIN) {
            *ok = false;
            return;
        }
        if (ch_of[t]) continue;
        while (spare < sizeof SPARE - 1 && used[(unsigned char)SPARE[spare]])
            spare++;
        if (spare >= sizeof SPARE - 1) {
            *ok = false;
            return;
        }
        ch_of[t] = SPARE[spare];
        used[(unsigned char)SPARE[spare]] = true;
        lch[nl] = SPARE[spare];
        ltype[nl++] = t;
    }

    cJSON *terrain = attach(root, "terrain", cJSON_CreateObject(), ok);
    cJSON *legend = attach(terrain, "legend", cJSON_CreateObject(), ok);
    for (int i = 0; i < nl; i++) {
        char key[2] = {lch[i], '\0'};
        const char *tname = ltype[i] < m->n_types ? m->types[ltype[i]].name : "open";
        put_str(legend, key, tname, ok);
    }
    cJSON *rows = attach(terrain, "rows", cJSON_CreateArray(), ok);
    char *line = malloc((size_t)m->cols + 1);
    if (!line) {
        *ok = false;
        return;
    }
    for (int r = 0; r < m->rows && *ok; r++) {
        for (int c = 0; c < m->cols; c++)
            line[c] = ch_of[m->cells[r * m->cols + c]];
        line[m->cols] = '\0';
        attach(rows, NULL, cJSON_CreateString(line), ok);
    }
    free(line);
}

static void put_combatant(cJSON *list, const map_combatant_t *c, bool *ok)
{
    cJSON *o = attach(list, NULL, cJSON_CreateObject(), ok);
    put_str(o, "id", c->id, ok);
    if (c->given & GIVEN_NAME) put_str(o, "name", c->name, ok);
    put_str(o, "faction", c->faction, ok);
    cJSON *at = attach(o, "at", cJSON_CreateArray(), ok);
    attach(at, NULL, cJSON_CreateNumber(c->at.col), ok);
    attach(at, NULL, cJSON_CreateNumber(c->at.row), ok);
    if (c->template_name[0]) put_str(o, "template", c->template_name, ok);
    if (c->given & GIVEN_KIND) put_str(o, "kind", map_kind_name(c->kind), ok);
    if (c->given & GIVEN_SIZE) put_str(o, "size", map_size_name(c->size), ok);
    if (c->given & GIVEN_SPEED) put_num(o, "speed", c->speed_ft, ok);
    if (c->given & GIVEN_FLY) put_num(o, "fly", c->fly_ft, ok);
    if (c->given & GIVEN_HP) put_num(o, "hp", c->hp_max, ok);
    if (c->given & GIVEN_REACH) put_num(o, "reach", c->reach_ft, ok);
    if (c->given & GIVEN_TOKEN) put_str(o, "token", c->token, ok);
    if (c->given & GIVEN_WEAPONS) {
        cJSON *w = attach(o, "weapons", cJSON_CreateArray(), ok);
        for (int i = 0; i < c->n_weapons && i < MAP_MAX_WEAPONS; i++)
            attach(w, NULL, cJSON_CreateString(c->weapons[i]), ok);
    }
    if (c->n_stats > 0) {
        cJSON *s = attach(o, "stats", cJSON_CreateObject(), ok);
        for (int i = 0; i < c->n_stats && i < MAP_MAX_STATS; i++)
            put_num(s, c->stats[i].key, c->stats[i].value, ok);
    }
}

char *map_to_json(const map_t *m)
{
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    put_str(root, "format", "hexbattle-map", &ok);
    put_num(root, "version", 1, &ok);
    put_str(root, "name", m->name, &ok);
    put_str(root, "ruleset", m->ruleset, &ok);

    cJSON *grid = attach(root, "grid", cJSON_CreateObject(), &ok);
    put_str(grid, "orientation", m->layout.orient == HEX_FLAT ? "flat" : "pointy", &ok);
    put_str(grid, "stagger", m->layout.stagger == HEX_EVEN ? "even" : "odd", &ok);
    put_num(grid, "cols", m->cols, &ok);
    put_num(grid, "rows", m->rows, &ok);
    put_num(grid, "feet_per_hex", m->feet_per_hex, &ok);

    bool any_types = false;
    for (int i = 0; i < m->n_types; i++)
        any_types = any_types || m->types[i].in_map;
    if (any_types) {
        cJSON *types = attach(root, "terrain_types", cJSON_CreateObject(), &ok);
        for (int i = 0; i < m->n_types; i++)
            if (m->types[i].in_map) put_type(types, &m->types[i], &ok);
    }
    put_terrain(root, m, &ok);

    if (m->factions_given) {
        cJSON *f = attach(root, "factions", cJSON_CreateObject(), &ok);
        for (int i = 0; i < m->n_factions; i++) {
            const faction_t *fa = &m->factions[i];
            const char *control = fa->player ? "player" : "architect";
            if (fa->n_values == 0) {
                put_str(f, fa->name, control, &ok); /* the short form, as version 1 began */
                continue;
            }
            cJSON *o = attach(f, fa->name, cJSON_CreateObject(), &ok);
            put_str(o, "control", control, &ok);
            for (int k = 0; k < fa->n_values; k++)
                put_num(o, fa->values[k].key, fa->values[k].value, &ok);
        }
    }
    if (m->n_options > 0) {
        cJSON *o = attach(root, "options", cJSON_CreateObject(), &ok);
        for (int k = 0; k < m->n_options; k++)
            attach(o, m->options[k].key,
                   (m->options_bool >> k) & 1u ? cJSON_CreateBool(m->options[k].value)
                                               : cJSON_CreateNumber(m->options[k].value),
                   &ok);
    }
    cJSON *list = attach(root, "combatants", cJSON_CreateArray(), &ok);
    for (int i = 0; i < m->n_combatants; i++)
        put_combatant(list, &m->combatants[i], &ok);
    if (m->art && m->art->bg[0]) {
        /* The battle-map picture, its place rounded to a hundredth of a pixel. */
        const map_art_t *a = m->art;
        cJSON *bg = attach(root, "background", cJSON_CreateObject(), &ok);
        put_str(bg, "image", a->bg, &ok);
        cJSON *off = attach(bg, "offset", cJSON_CreateArray(), &ok);
        attach(off, NULL, cJSON_CreateNumber(round(a->bg_ox * 100) / 100), &ok);
        attach(off, NULL, cJSON_CreateNumber(round(a->bg_oy * 100) / 100), &ok);
        double sx = round(a->bg_sx * 1000) / 1000, sy = round(a->bg_sy * 1000) / 1000;
        if (sx == sy) {
            attach(bg, "scale", cJSON_CreateNumber(sx), &ok);
        } else {
            cJSON *sc = attach(bg, "scale", cJSON_CreateArray(), &ok);
            attach(sc, NULL, cJSON_CreateNumber(sx), &ok);
            attach(sc, NULL, cJSON_CreateNumber(sy), &ok);
        }
    }

    return io_print_owned(root, ok);
}

int map_save(const map_t *m, const char *path, char *err, size_t errcap)
{
    if (tiled_format_of(path) != TILED_NONE) return tiled_save(m, path, err, errcap);
    char *text = map_to_json(m);
    if (!text) {
        if (err && errcap)
            snprintf(err, errcap, "%s: cannot write: out of memory or a corrupt map", path);
        return HB_ERR_OTHER;
    }
    int rc = hb_write_atomic(path, text, strlen(text), true, err, errcap);
    free(text);
    return rc;
}
