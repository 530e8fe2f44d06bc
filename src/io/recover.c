/* recover.c - recovery copies of the editor's map and of a battle (see recover.h). */
/* realpath() is an X/Open call. */
#define _XOPEN_SOURCE 700
#include "recover.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "edit_json.h"
#include "io_json.h"

bool recover_path(const char *file, char *out, size_t cap)
{
    char dir[SAVE_PATH_MAX];
    if (!save_autosave_dir(dir, sizeof dir)) return false;
    const char *name = "untitled";
    size_t n = strlen(name);
    if (file && *file) {
        const char *slash = strrchr(file, '/');
        name = slash ? slash + 1 : file;
        n = strlen(name);
        if (n > 5 && strcmp(name + n - 5, ".json") == 0) n -= 5;
        if (n == 0) {
            name = "untitled";
            n = strlen(name);
        }
    }
    int k = snprintf(out, cap, "%s/%.*s.recover.json", dir, (int)n, name);
    return k > 0 && (size_t)k < cap;
}

void recover_abs(const char *file, char *out, size_t cap)
{
    if (cap == 0) return;
    out[0] = '\0';
    if (!file || !*file) return;
    /* The file itself may not exist yet (a battle never saved): resolve its
     * folder and keep the name. */
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(file, '/');
    const char *name = slash ? slash + 1 : file;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == file)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
    if (realpath(dir, real))
        snprintf(out, cap, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", name);
    else
        snprintf(out, cap, "%s", file);
}

/* Make the autosave folder that holds RPATH. */
static int make_folder(const char *rpath, char *err, size_t errcap)
{
    char dir[SAVE_PATH_MAX];
    hb_strlcpy(dir, rpath, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return HB_OK;
    *slash = '\0';
    if (hb_make_dirs(dir, 0777)) return HB_OK;
    snprintf(err, errcap, "%s: cannot write: %s (making its folder)", rpath, strerror(errno));
    return HB_ERR_OTHER;
}

/* Print root, write it to rpath atomically and delete root. */
static int write_json(const char *rpath, cJSON *root, bool ok, char *err, size_t errcap)
{
    char *text = io_print_owned(root, ok);
    if (!text) {
        snprintf(err, errcap, "%s: cannot write: out of memory", rpath);
        return HB_ERR_OTHER;
    }
    int rc = make_folder(rpath, err, errcap);
    if (!rc) rc = hb_write_atomic(rpath, text, strlen(text), false, err, errcap);
    free(text);
    return rc;
}

int recover_write_map(const char *rpath, const char *file, const map_t *m, const edit_history_t *h,
                      char *err, size_t errcap)
{
    char of[SAVE_PATH_MAX];
    recover_abs(file, of, sizeof of);
    /* Seconds since 1970 as digits: a JSON number here would pass an int in 2038. */
    char when[24];
    snprintf(when, sizeof when, "%lld", (long long)time(NULL));
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    ok = root && cJSON_AddStringToObject(root, "format", RECOVER_FORMAT) &&
         cJSON_AddNumberToObject(root, "version", 1) &&
         cJSON_AddStringToObject(root, "kind", "map") && cJSON_AddStringToObject(root, "of", of) &&
         cJSON_AddStringToObject(root, "written", when);
    char *mtext = ok ? map_to_json(m) : NULL;
    cJSON *mj = mtext ? cJSON_Parse(mtext) : NULL;
    free(mtext);
    ok = ok && mj && cJSON_AddItemToObject(root, "map", mj);
    if (!ok) cJSON_Delete(mj);
    /* The legend the map was loaded with: a map file written and read
     * back gains letters for every type in use, and undo must not find them. */
    cJSON *lj = ok ? cJSON_AddArrayToObject(root, "legend") : NULL;
    ok = ok && lj;
    for (int i = 0; ok && i < m->n_legend && i < MAP_MAX_LEGEND; i++) {
        cJSON *pair = cJSON_CreateArray();
        if (!pair || !cJSON_AddItemToArray(lj, pair)) {
            cJSON_Delete(pair);
            ok = false;
            break;
        }
        char ch[2] = {m->legend_ch[i], '\0'};
        cJSON *c = cJSON_CreateString(ch), *t = cJSON_CreateNumber(m->legend_type[i]);
        if (!cJSON_AddItemToArray(pair, c)) {
            cJSON_Delete(c);
            ok = false;
        }
        if (!cJSON_AddItemToArray(pair, t)) {
            cJSON_Delete(t);
            ok = false;
        }
    }
    cJSON *hj = ok ? edit_history_to_json(h) : NULL;
    ok = ok && hj && cJSON_AddItemToObject(root, "history", hj);
    if (!ok) cJSON_Delete(hj);
    if (!root) ok = false;
    return write_json(rpath, root, ok, err, errcap);
}

int recover_write_battle(const char *rpath, const char *file, const play_t *p,
                         const save_table_t *table, const char *map_file, char *err,
                         size_t errcap)
{
    char of[SAVE_PATH_MAX];
    recover_abs(file, of, sizeof of);
    char *text = save_to_json(p, table, map_file);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    bool ok = root && cJSON_AddStringToObject(root, "recover_of", of);
    return write_json(rpath, root, ok, err, errcap);
}

int recover_adopt(const char *rpath, char *slot, size_t slotcap, char *err, size_t errcap)
{
    char dir[SAVE_PATH_MAX];
    if (!save_autosave_dir(dir, sizeof dir) || !save_autosave_path(dir, 1, slot, slotcap)) {
        snprintf(err, errcap, "%s: no autosave folder (set HOME or XDG_DATA_HOME)", rpath);
        return HB_ERR_OTHER;
    }
    int rc = save_autosave_shift(dir, err, errcap);
    if (rc == HB_OK && hb_rename(rpath, slot) != 0) {
        snprintf(err, errcap, "%s: cannot write: %s (moving the recovery copy %s there)", slot,
                 strerror(errno), rpath);
        rc = HB_ERR_OTHER;
    }
    return rc;
}

bool recover_belongs(const char *rpath, const char *file)
{
    char err[HB_ERR_MAX];
    io_ctx_t cx = {rpath, err, sizeof err};
    cJSON *root = NULL;
    if (io_load_json(&cx, rpath, &root) != HB_OK) return false;
    char of[SAVE_PATH_MAX];
    recover_abs(file, of, sizeof of);
    const cJSON *v = io_get(root, "of");
    if (!v) v = io_get(root, "recover_of");
    bool mine = cJSON_IsString(v) && strcmp(v->valuestring, of) == 0;
    cJSON_Delete(root);
    return mine;
}

/* The legend the edited map was loaded with replaces the one its copy gained. */
static int read_legend(io_ctx_t *cx, const cJSON *root, map_t *m)
{
    const cJSON *v;
    int rc = io_require(cx, root, "", "legend", &v);
    if (!rc) rc = io_want_array(cx, v, "legend");
    if (rc) return rc;
    if (cJSON_GetArraySize(v) > MAP_MAX_LEGEND)
        return io_fail(cx, "legend", "more than %d characters", MAP_MAX_LEGEND);
    char p[IO_PATH_MAX];
    int n = 0, type;
    char ch[2];
    for (const cJSON *e = v->child; e; e = e->next, n++) {
        io_path_index(p, sizeof p, "legend", n);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 ||
            io_want_string(cx, e->child, p, ch, sizeof ch, false) ||
            io_want_int(cx, e->child->next, p, 0, m->n_types - 1, &type))
            return io_fail(cx, p, "expected [character, type index below %d]", m->n_types);
        m->legend_ch[n] = ch[0];
        m->legend_type[n] = (uint8_t)type;
    }
    m->n_legend = n;
    return HB_OK;
}

int recover_load_map(const char *rpath, const char *data_dir, recover_map_t *out, char *err,
                     size_t errcap)
{
    memset(out, 0, sizeof *out);
    io_ctx_t cx = {rpath, err, errcap};
    cJSON *root = NULL;
    int rc = io_load_json(&cx, rpath, &root);
    if (!rc) rc = io_check_header(&cx, root, RECOVER_FORMAT);
    const cJSON *v;
    if (!rc && !(rc = io_require(&cx, root, "", "kind", &v)) &&
        (!cJSON_IsString(v) || strcmp(v->valuestring, "map") != 0))
        rc = io_fail(&cx, "kind", "expected \"map\"");
    if (!rc && !(rc = io_require(&cx, root, "", "of", &v)))
        rc = io_want_string(&cx, v, "of", out->of, sizeof out->of, true);
    if (!rc && (v = io_get(root, "written"))) {
        char digits[24];
        char *end = NULL;
        if ((rc = io_want_string(&cx, v, "written", digits, sizeof digits, false)) == HB_OK) {
            out->written = strtoll(digits, &end, 10);
            if (*end || out->written < 0)
                rc = io_fail(&cx, "written", "expected seconds since 1970 as digits");
        }
    }
    if (!rc)
        rc = io_load_member_map(&cx, root, "map", data_dir ? data_dir : hb_data_dir(), &out->map,
                                &out->db);
    if (!rc) rc = read_legend(&cx, root, out->map);
    if (!rc && !(rc = io_require(&cx, root, "", "history", &v)))
        rc = edit_history_from_json(&cx, v, "history", out->map, &out->hist);
    cJSON_Delete(root);
    if (rc) recover_map_free(out);
    return rc;
}

void recover_map_free(recover_map_t *r)
{
    edit_history_free(&r->hist);
    tmpl_db_destroy(r->db);
    map_destroy(r->map);
    memset(r, 0, sizeof *r);
}
