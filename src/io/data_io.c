/* data_io.c - built-in terrain types and a ruleset's templates and weapons.
 *
 * These files ship with the program, but they are edited by hand, so they get
 * the same checks and the same "FILE: JSON.path: reason" messages as maps.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_json.h"
#include "map_io.h"

#define DATA_PATH_MAX 4096

/* Join DIR and a relative name; false when it does not fit. */
static bool join_path(char *out, size_t cap, const char *dir, const char *a, const char *b)
{
    int n = b ? snprintf(out, cap, "%s/%s/%s", dir, a, b) : snprintf(out, cap, "%s/%s", dir, a);
    return n >= 0 && (size_t)n < cap;
}

/* Every opens_to of types[0..n) must name one of them. */
static int check_opens_to(io_ctx_t *cx, const char *parent, const terrain_t *types, int n,
                          bool only_in_map)
{
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    for (int i = 0; i < n; i++) {
        const terrain_t *t = &types[i];
        if (!t->opens_to[0] || (only_in_map && !t->in_map)) continue;
        bool found = false;
        for (int k = 0; k < n && !found; k++)
            found = strcmp(types[k].name, t->opens_to) == 0;
        if (!found) {
            io_path_key(q, sizeof q, parent, t->name);
            io_path_key(p, sizeof p, q, "opens_to");
            return io_fail(cx, p, "unknown terrain type '%s'", t->opens_to);
        }
    }
    return HB_OK;
}

int io_terrain_table(io_ctx_t *cx, const cJSON *obj, const char *path, terrain_t *types, int cap,
                     int *n, bool from_map)
{
    int rc = io_want_object(cx, obj, path);
    if (rc) return rc;
    int first_new = *n;
    char p[IO_PATH_MAX];
    for (const cJSON *e = obj->child; e; e = e->next) {
        io_path_key(p, sizeof p, path, e->string);
        if ((rc = io_want_key_id(cx, e->string, p, MAP_ID_MAX))) return rc;
        int idx = -1;
        for (int k = 0; k < *n; k++)
            if (strcmp(types[k].name, e->string) == 0) idx = k;
        bool fresh = idx < 0;
        if (!fresh && (!from_map || idx >= first_new || types[idx].in_map))
            return io_fail(cx, p, "terrain type defined twice");
        if (fresh) {
            if (*n >= cap) return io_fail(cx, p, "more than %d terrain types", cap);
            idx = (*n)++;
            memset(&types[idx], 0, sizeof types[idx]);
            hb_strlcpy(types[idx].name, e->string, MAP_ID_MAX);
            types[idx].move = 1;
            types[idx].builtin = !from_map;
        }
        if ((rc = io_terrain_fields(cx, e, p, &types[idx], fresh))) return rc;
        types[idx].in_map = from_map;
    }
    return check_opens_to(cx, path, types, *n, from_map);
}

int terrain_load_builtin(const char *data_dir, terrain_t *types, int cap, int *n, char *err,
                         size_t errcap)
{
    char path[DATA_PATH_MAX];
    *n = 0;
    io_ctx_t cx = {.file = path, .err = err, .errcap = errcap};
    if (!join_path(path, sizeof path, data_dir, "terrain.json", NULL)) {
        cx.file = data_dir;
        return io_fail(&cx, "", "data folder path too long");
    }
    cJSON *root = NULL;
    int rc = io_load_json(&cx, path, &root);
    const cJSON *tt = NULL;
    if (!rc) rc = io_check_header(&cx, root, "hexbattle-terrain");
    if (!rc) rc = io_require(&cx, root, "", "types", &tt);
    int count = 0;
    if (!rc) rc = io_terrain_table(&cx, tt, "types", types, cap, &count, false);
    if (!rc && count == 0) rc = io_fail(&cx, "types", "no terrain types defined");
    cJSON_Delete(root);
    *n = rc ? 0 : count;
    return rc;
}

/* A number 0..hi at *s, advancing s; false when there is none or it is too big. */
static bool read_count(const char **s, long hi, int *out)
{
    if (!(**s >= '0' && **s <= '9')) return false;
    long v = 0;
    for (; **s >= '0' && **s <= '9'; (*s)++)
        if ((v = v * 10 + (**s - '0')) > hi) return false;
    *out = (int)v;
    return true;
}

/* Damage: "NdS" or "NdS+B" (N 1..100, S 2..1000, B 0..1000), or a flat
 * amount with no dice, "+B" or "B" (0..1000): dice_n and dice_sides 0. */
static bool parse_damage(const char *s, int *n, int *sides, int *bonus)
{
    int dn = 0, ds = 0, db = 0;
    if (*s == '+') {
        s++;
        if (!read_count(&s, 1000, &db) || *s) return false;
    } else {
        if (!read_count(&s, 1000, &dn)) return false;
        if (*s == '\0') {
            db = dn; /* a flat "0" or "3" */
            dn = 0;
        } else {
            if (dn < 1 || dn > 100 || *s++ != 'd') return false;
            if (!read_count(&s, 1000, &ds) || ds < 2) return false;
            if (*s == '+') {
                s++;
                if (!read_count(&s, 1000, &db)) return false;
            }
            if (*s) return false;
        }
    }
    *n = dn;
    *sides = ds;
    *bonus = db;
    return true;
}

static int load_weapon(io_ctx_t *cx, const cJSON *o, const char *path, weapon_t *w)
{
    int rc = io_want_object(cx, o, path);
    char p[IO_PATH_MAX];
    const cJSON *v;
    if (rc) return rc;
    if ((rc = io_require(cx, o, path, "name", &v))) return rc;
    io_path_key(p, sizeof p, path, "name");
    if ((rc = io_want_string(cx, v, p, w->name, sizeof w->name, false))) return rc;

    if ((rc = io_require(cx, o, path, "class", &v))) return rc;
    io_path_key(p, sizeof p, path, "class");
    static const char *const CLASSES[] = {"melee", "ranged", "thrown"};
    int cls;
    if ((rc = io_want_enum(cx, v, p, CLASSES, 3, &cls))) return rc;
    w->cls = (weapon_class_t)cls;

    io_path_key(p, sizeof p, path, "energy");
    if ((v = io_get(o, "energy")) && (rc = io_want_bool(cx, v, p, &w->energy))) return rc;
    io_path_key(p, sizeof p, path, "reach");
    if ((v = io_get(o, "reach")) && (rc = io_want_int(cx, v, p, 0, IO_FEET_MAX, &w->reach_ft)))
        return rc;
    io_path_key(p, sizeof p, path, "range");
    if ((v = io_get(o, "range"))) {
        if ((rc = io_want_int(cx, v, p, 1, IO_FEET_MAX, &w->range_ft))) return rc;
    } else if (w->cls != WPN_MELEE) {
        return io_fail(cx, p, "required for %s weapons", CLASSES[cls]);
    }

    if ((rc = io_require(cx, o, path, "damage", &v))) return rc;
    io_path_key(p, sizeof p, path, "damage");
    if (!cJSON_IsString(v) ||
        !parse_damage(v->valuestring, &w->dice_n, &w->dice_sides, &w->dice_bonus))
        return io_fail(cx, p, "expected dice such as \"2d6\" or \"1d8+2\", or a flat \"+2\" or \"0\"");

    io_path_key(p, sizeof p, path, "tags");
    if ((v = io_get(o, "tags")))
        return io_int_table(cx, v, p, w->tags, WEAPON_MAX_TAGS, &w->n_tags, "tags");
    return HB_OK;
}

static int load_weapons(io_ctx_t *cx, const cJSON *root, tmpl_db_t *db)
{
    int rc = io_check_header(cx, root, "hexbattle-weapons");
    const cJSON *ws;
    if (rc || (rc = io_require(cx, root, "", "weapons", &ws)) ||
        (rc = io_want_object(cx, ws, "weapons")))
        return rc;
    char p[IO_PATH_MAX];
    for (const cJSON *e = ws->child; e; e = e->next) {
        io_path_key(p, sizeof p, "weapons", e->string);
        if ((rc = io_want_key_id(cx, e->string, p, MAP_ID_MAX))) return rc;
        if (tmpl_find_weapon(db, e->string)) return io_fail(cx, p, "weapon defined twice");
        if (db->n_weapons >= WEAPON_MAX) return io_fail(cx, p, "more than %d weapons", WEAPON_MAX);
        weapon_t *w = &db->weapons[db->n_weapons];
        memset(w, 0, sizeof *w);
        hb_strlcpy(w->id, e->string, sizeof w->id);
        if ((rc = load_weapon(cx, e, p, w))) return rc;
        db->n_weapons++;
    }
    return HB_OK;
}

static int load_template(io_ctx_t *cx, const cJSON *o, const char *path, const tmpl_db_t *db,
                         tmpl_t *t)
{
    int rc = io_want_object(cx, o, path);
    char p[IO_PATH_MAX];
    const cJSON *v;
    if (rc) return rc;
    if ((rc = io_require(cx, o, path, "name", &v))) return rc;
    io_path_key(p, sizeof p, path, "name");
    if ((rc = io_want_string(cx, v, p, t->name, sizeof t->name, false))) return rc;
    if ((rc = io_require(cx, o, path, "kind", &v))) return rc;
    io_path_key(p, sizeof p, path, "kind");
    if ((rc = io_kind(cx, v, p, &t->kind))) return rc;
    if ((rc = io_require(cx, o, path, "size", &v))) return rc;
    io_path_key(p, sizeof p, path, "size");
    if ((rc = io_size(cx, v, p, &t->size)) || (rc = io_check_size(cx, p, t->kind, t->size)))
        return rc;
    if ((rc = io_require(cx, o, path, "speed", &v))) return rc;
    io_path_key(p, sizeof p, path, "speed");
    if ((rc = io_want_int(cx, v, p, 0, IO_FEET_MAX, &t->speed_ft))) return rc;
    if ((rc = io_require(cx, o, path, "hp", &v))) return rc;
    io_path_key(p, sizeof p, path, "hp");
    if ((rc = io_want_int(cx, v, p, 1, IO_HP_MAX, &t->hp))) return rc;
    io_path_key(p, sizeof p, path, "fly");
    if ((v = io_get(o, "fly")) && (rc = io_want_int(cx, v, p, 0, IO_FEET_MAX, &t->fly_ft)))
        return rc;
    io_path_key(p, sizeof p, path, "reach");
    if ((v = io_get(o, "reach")) && (rc = io_want_int(cx, v, p, 0, IO_FEET_MAX, &t->reach_ft)))
        return rc;
    io_path_key(p, sizeof p, path, "token");
    if ((v = io_get(o, "token")) &&
        ((rc = io_want_string(cx, v, p, t->token, sizeof t->token, true)) ||
         (rc = io_want_inside(cx, p, t->token, "assets/"))))
        return rc;
    io_path_key(p, sizeof p, path, "secondary");
    if ((v = io_get(o, "secondary")) &&
        (rc = io_want_string(cx, v, p, t->secondary, sizeof t->secondary, true)))
        return rc;
    io_path_key(p, sizeof p, path, "weapons");
    if ((v = io_get(o, "weapons")) &&
        (rc = io_weapon_list(cx, v, p, db, t->weapons, &t->n_weapons)))
        return rc;
    io_path_key(p, sizeof p, path, "stats");
    if ((v = io_get(o, "stats"))) return io_stats(cx, v, p, t->stats, MAP_MAX_STATS, &t->n_stats);
    return HB_OK;
}

/* "stat_names": each stat or gauge key of the ruleset with the table's word
 * for it, a string ("Vulnerability") or {"name": ..., "short": ...} when
 * bars and the log want a shorter one ("Power points", "PP"). */
static int load_words(io_ctx_t *cx, const cJSON *o, tmpl_db_t *db)
{
    int rc = io_want_object(cx, o, "stat_names");
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    if (rc) return rc;
    for (const cJSON *e = o->child; e; e = e->next) {
        io_path_key(p, sizeof p, "stat_names", e->string);
        if ((rc = io_want_key_id(cx, e->string, p, MAP_ID_MAX))) return rc;
        if (tmpl_find_word(db, e->string)) return io_fail(cx, p, "named twice");
        if (db->n_words >= TMPL_WORDS_MAX)
            return io_fail(cx, p, "more than %d stat names", TMPL_WORDS_MAX);
        stat_word_t *w = &db->words[db->n_words];
        memset(w, 0, sizeof *w);
        hb_strlcpy(w->key, e->string, sizeof w->key);
        const cJSON *v = e;
        if (cJSON_IsObject(e)) {
            if ((rc = io_require(cx, e, p, "name", &v))) return rc;
            io_path_key(q, sizeof q, p, "name");
        } else {
            hb_strlcpy(q, p, sizeof q);
        }
        if ((rc = io_want_string(cx, v, q, w->name, sizeof w->name, false))) return rc;
        const cJSON *b = cJSON_IsObject(e) ? io_get(e, "short") : NULL;
        io_path_key(q, sizeof q, p, "short");
        if (b) {
            if ((rc = io_want_string(cx, b, q, w->brief, sizeof w->brief, false))) return rc;
        } else if (strlen(w->name) >= sizeof w->brief) {
            return io_fail(cx, q, "required: the name is longer than %d characters",
                           (int)sizeof w->brief - 1);
        } else {
            hb_strlcpy(w->brief, w->name, sizeof w->brief);
        }
        db->n_words++;
    }
    return HB_OK;
}

static int load_templates(io_ctx_t *cx, const cJSON *root, tmpl_db_t *db)
{
    int rc = io_check_header(cx, root, "hexbattle-templates");
    const cJSON *v, *ts;
    if (rc || (rc = io_require(cx, root, "", "ruleset", &v))) return rc;
    if (!cJSON_IsString(v) || strcmp(v->valuestring, db->ruleset) != 0)
        return io_fail(cx, "ruleset", "expected \"%s\" (the folder this file is in)", db->ruleset);
    if ((v = io_get(root, "stat_names")) && (rc = load_words(cx, v, db))) return rc;
    if ((rc = io_require(cx, root, "", "templates", &ts)) ||
        (rc = io_want_object(cx, ts, "templates")))
        return rc;
    char p[IO_PATH_MAX];
    for (const cJSON *e = ts->child; e; e = e->next) {
        io_path_key(p, sizeof p, "templates", e->string);
        if ((rc = io_want_key_id(cx, e->string, p, MAP_ID_MAX))) return rc;
        if (tmpl_find(db, e->string)) return io_fail(cx, p, "template defined twice");
        if (db->n_templates >= TMPL_MAX) return io_fail(cx, p, "more than %d templates", TMPL_MAX);
        tmpl_t *t = &db->templates[db->n_templates];
        memset(t, 0, sizeof *t);
        hb_strlcpy(t->id, e->string, sizeof t->id);
        if ((rc = load_template(cx, e, p, db, t))) return rc;
        db->n_templates++;
    }
    return HB_OK;
}

int tmpl_db_load(const char *data_dir, const char *ruleset, tmpl_db_t **out, char *err,
                 size_t errcap)
{
    *out = NULL;
    char path[DATA_PATH_MAX];
    io_ctx_t cx = {.file = ruleset, .err = err, .errcap = errcap};
    /* The ruleset names a folder; refuse anything that could climb out of data/. */
    if (!io_is_id(ruleset) || strlen(ruleset) >= MAP_ID_MAX)
        return io_fail(&cx, "", "not a valid ruleset name");
    tmpl_db_t *db = calloc(1, sizeof *db);
    if (!db) return io_fail_other(&cx, "out of memory");
    hb_strlcpy(db->ruleset, ruleset, sizeof db->ruleset);

    cx.file = path;
    cJSON *root = NULL;
    int rc = HB_OK;
    if (!join_path(path, sizeof path, data_dir, ruleset, "weapons.json"))
        rc = io_fail(&cx, "", "path too long");
    if (!rc && !(rc = io_load_json(&cx, path, &root))) rc = load_weapons(&cx, root, db);
    cJSON_Delete(root);
    root = NULL;
    if (!rc && !join_path(path, sizeof path, data_dir, ruleset, "templates.json"))
        rc = io_fail(&cx, "", "path too long");
    if (!rc && !(rc = io_load_json(&cx, path, &root))) rc = load_templates(&cx, root, db);
    cJSON_Delete(root);
    if (rc) {
        free(db);
        return rc;
    }
    *out = db;
    return HB_OK;
}

int tmpl_db_load_mem(const char *ruleset, const char *weapons, size_t wlen, const char *wname,
                     const char *templates, size_t tlen, const char *tname, tmpl_db_t **out,
                     char *err, size_t errcap)
{
    *out = NULL;
    io_ctx_t cx = {.file = ruleset ? ruleset : "(ruleset)", .err = err, .errcap = errcap};
    if (!ruleset || !io_is_id(ruleset) || strlen(ruleset) >= MAP_ID_MAX)
        return io_fail(&cx, "", "not a valid ruleset name");
    if (wlen > HB_FILE_MAX || tlen > HB_FILE_MAX)
        return io_fail(&cx, "", "over the %u MiB limit", HB_FILE_MAX / (1024u * 1024u));
    tmpl_db_t *db = calloc(1, sizeof *db);
    if (!db) return io_fail_other(&cx, "out of memory");
    hb_strlcpy(db->ruleset, ruleset, sizeof db->ruleset);

    /* Same order as tmpl_db_load: templates name weapons, so weapons come first. */
    cJSON *root = NULL;
    cx.file = wname ? wname : "weapons.json";
    int rc = io_parse(&cx, weapons, wlen, &root);
    if (!rc) rc = load_weapons(&cx, root, db);
    cJSON_Delete(root);
    root = NULL;
    cx.file = tname ? tname : "templates.json";
    if (!rc && !(rc = io_parse(&cx, templates, tlen, &root))) rc = load_templates(&cx, root, db);
    cJSON_Delete(root);
    if (rc) {
        free(db);
        return rc;
    }
    *out = db;
    return HB_OK;
}

void tmpl_db_destroy(tmpl_db_t *db)
{
    free(db);
}
