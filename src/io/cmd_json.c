/* cmd_json.c - commands as JSON (see cmd_json.h). */
#include "cmd_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Answers are option numbers below this (one byte each in cmd_t.answer). */
#define REACT_ANSWER_LIMIT 256

static bool fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (cap > 0) vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return false;
}

static int combatant_index(const map_t *m, const char *id)
{
    for (int i = 0; i < m->n_combatants; i++)
        if (strcmp(m->combatants[i].id, id) == 0) return i;
    return -1;
}

/* A whole number in lo..hi (cJSON's valueint would cut 2.5 to 2 without a
 * word, and saturates what does not fit an int). */
static bool whole(const cJSON *v, int lo, int hi, int *out)
{
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= (double)lo && d <= (double)hi) || d != (double)(int)d) return false;
    *out = (int)d;
    return true;
}

/* A [col, row] pair inside the map. */
static bool read_cell(const cJSON *v, const map_t *m, cell_t *out)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) return false;
    cell_t c;
    if (!whole(cJSON_GetArrayItem(v, 0), 0, MAP_MAX_DIM - 1, &c.col) ||
        !whole(cJSON_GetArrayItem(v, 1), 0, MAP_MAX_DIM - 1, &c.row))
        return false;
    *out = c;
    return map_in_bounds(m, *out);
}

/* A weapon slot: an index, or the id of a weapon the actor carries;
 * "unarmed" for none, and "grab" (when the actor carries no weapon of that
 * id) for the built-in Grab. */
static bool read_weapon(const cJSON *v, const map_t *m, int actor, int *out)
{
    if (cJSON_IsNumber(v)) return whole(v, CMD_WEAPON_GRAB, MAP_MAX_WEAPONS - 1, out);
    if (!cJSON_IsString(v)) return false;
    if (strcmp(v->valuestring, "unarmed") == 0) {
        *out = CMD_WEAPON_NONE;
        return true;
    }
    const map_combatant_t *c = &m->combatants[actor];
    for (int w = 0; w < c->n_weapons; w++)
        if (strcmp(c->weapons[w], v->valuestring) == 0) {
            *out = w;
            return true;
        }
    if (strcmp(v->valuestring, "grab") == 0) {
        *out = CMD_WEAPON_GRAB;
        return true;
    }
    return false;
}

bool cmd_from_json(const cJSON *v, const map_t *m, cmd_t *out, char *err, size_t errcap)
{
    if (!cJSON_IsObject(v)) return fail(err, errcap, "a command must be an object");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(v, "cmd");
    int kind = cJSON_IsString(k) ? cmd_kind_parse(k->valuestring) : -1;
    if (kind < 0) return fail(err, errcap, "\"cmd\" must name a command");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "actor");
    int actor = cJSON_IsString(a) ? combatant_index(m, a->valuestring) : -1;
    if (actor < 0) return fail(err, errcap, "\"actor\" must be a combatant id");
    cmd_t c = cmd_make((cmd_kind_t)kind, actor);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "target");
    if (t) {
        c.target = cJSON_IsString(t) ? combatant_index(m, t->valuestring) : -2;
        if (c.target < 0) return fail(err, errcap, "\"target\" must be a combatant id");
    }
    static const char *const WKEYS[2] = {"weapon", "weapon2"};
    int *wdst[2] = {&c.weapon, &c.weapon2};
    for (int w = 0; w < 2; w++) {
        const cJSON *wv = cJSON_GetObjectItemCaseSensitive(v, WKEYS[w]);
        if (wv && !read_weapon(wv, m, actor, wdst[w]))
            return fail(err, errcap, "\"%s\" must be a weapon index or an id the actor carries",
                        WKEYS[w]);
    }
    const cJSON *arg = cJSON_GetObjectItemCaseSensitive(v, "arg");
    if (arg) {
        if (!whole(arg, 0, CMD_ARG_MAX, &c.arg))
            return fail(err, errcap, "\"arg\" must be an integer from 0 to %d", CMD_ARG_MAX);
    }
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(v, "act");
    if (act) {
        int ak = cJSON_IsString(act) ? cmd_kind_parse(act->valuestring) : -1;
        if (ak < 0) return fail(err, errcap, "\"act\" must name a command");
        c.act = (cmd_kind_t)ak;
    }
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(v, "at");
    if (at && !read_cell(at, m, &c.at))
        return fail(err, errcap, "\"at\" must be a [col, row] on the map");
    const cJSON *ans = cJSON_GetObjectItemCaseSensitive(v, "reactions");
    if (ans) {
        if (!cJSON_IsArray(ans) || cJSON_GetArraySize(ans) > CMD_ANSWERS_MAX)
            return fail(err, errcap, "\"reactions\" must be a list of at most %d answers",
                        CMD_ANSWERS_MAX);
        const cJSON *y;
        cJSON_ArrayForEach(y, ans)
        {
            /* An option number; true and false (saves from before there were
             * options) read as 1 and 0. */
            int v = -1;
            if (cJSON_IsBool(y))
                v = cJSON_IsTrue(y) ? 1 : 0;
            else if (!whole(y, 0, REACT_ANSWER_LIMIT - 1, &v))
                v = -1;
            if (v < 0 || v >= REACT_ANSWER_LIMIT)
                return fail(err, errcap,
                            "\"reactions\" answer %d must be true, false or an option 0 to %d",
                            c.n_answers + 1, REACT_ANSWER_LIMIT - 1);
            c.answer[c.n_answers++] = (uint8_t)v;
        }
    }
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(v, "path");
    if (path) {
        if (!cJSON_IsArray(path) || cJSON_GetArraySize(path) > CMD_PATH_MAX)
            return fail(err, errcap, "\"path\" must be a list of at most %d cells", CMD_PATH_MAX);
        const cJSON *p;
        cJSON_ArrayForEach(p, path)
        {
            if (!read_cell(p, m, &c.path[c.n_path]))
                return fail(err, errcap, "\"path\" step %d must be a [col, row] on the map",
                            c.n_path + 1);
            c.n_path++;
        }
    }
    *out = c;
    return true;
}

static bool add_cell(cJSON *parent, const char *key, cell_t c)
{
    int v[2] = {c.col, c.row};
    cJSON *arr = cJSON_CreateIntArray(v, 2);
    if (!arr) return false;
    if (key) return cJSON_AddItemToObject(parent, key, arr);
    return cJSON_AddItemToArray(parent, arr);
}

static const char *id_of(const map_t *m, int i)
{
    return i >= 0 && i < m->n_combatants ? m->combatants[i].id : "";
}

cJSON *cmd_to_json(const map_t *m, const cmd_t *c)
{
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "cmd", cmd_kind_name(c->kind)) &&
              cJSON_AddStringToObject(o, "actor", id_of(m, c->actor));
    if (ok && c->target >= 0)
        ok = cJSON_AddStringToObject(o, "target", id_of(m, c->target)) != NULL;
    if (ok && c->weapon != -1) ok = cJSON_AddNumberToObject(o, "weapon", c->weapon) != NULL;
    if (ok && c->weapon2 != -1) ok = cJSON_AddNumberToObject(o, "weapon2", c->weapon2) != NULL;
    if (ok && c->arg != 0) ok = cJSON_AddNumberToObject(o, "arg", c->arg) != NULL;
    /* Written whenever it differs from cmd_make's default, so reading the
     * object back gives the same command, whatever the kind. */
    if (ok && (c->kind == CMD_DECLARE || c->act != CMD_END))
        ok = cJSON_AddStringToObject(o, "act", cmd_kind_name(c->act)) != NULL;
    if (ok && (c->kind == CMD_USE || c->kind == CMD_DISMOUNT || c->kind == CMD_TELEPORT || c->at.col != 0 || c->at.row != 0))
        ok = add_cell(o, "at", c->at);
    if (ok && c->n_answers > 0) {
        cJSON *a = cJSON_AddArrayToObject(o, "reactions");
        ok = a != NULL;
        /* 0 and 1 as false and true (a yes/no answer reads as before),
         * other options by number. */
        for (int k = 0; ok && k < c->n_answers && k < CMD_ANSWERS_MAX; k++)
            ok = cJSON_AddItemToArray(a, c->answer[k] <= 1 ? cJSON_CreateBool(c->answer[k])
                                                           : cJSON_CreateNumber(c->answer[k]));
    }
    if (ok && c->n_path > 0) {
        cJSON *p = cJSON_AddArrayToObject(o, "path");
        ok = p != NULL;
        for (int k = 0; ok && k < c->n_path; k++)
            ok = add_cell(p, NULL, c->path[k]);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
