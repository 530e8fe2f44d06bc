/* recover.c - recovery copies of the editor's map and of a battle (see recover.h). */
#include "recover.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "../platform/platform.h"
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
    if (hb_fs_real_path(dir, real, sizeof real) == 0)
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
    snprintf(err, errcap, "%.300s: cannot write: %s (making its folder)", rpath, strerror(errno));
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

/* Cells an edit holds (through groups; a reshape holds the whole grid). */
static long long edit_cells(const edit_t *e)
{
    switch (e->kind) {
    case EDIT_CELLS:
        return e->u.cells.n;
    case EDIT_RESHAPE:
        return (long long)e->u.shape.cols * e->u.shape.rows;
    case EDIT_GROUP: {
        long long n = 0;
        for (int i = 0; i < e->u.group.n; i++)
            n += edit_cells(&e->u.group.v[i]);
        return n;
    }
    default:
        return 1;
    }
}

/* The map copy as JSON text (malloc'd), or NULL when out of memory. A copy
 * whose undo history would take it over HB_FILE_MAX, which no loader reads
 * back, is written without the history (*no_history set): the edits are
 * kept, only their undo steps are lost. */
static char *map_copy_text(const char *file, const map_t *m, const edit_history_t *h,
                           bool *no_history)
{
    *no_history = false;
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
    /* A history of more cells than RECOVER_HISTORY_CELLS costs seconds to
     * write (a JSON number per cell), and the copy is written when the
     * editor is told to stop: it is left out, as below. */
    long long cells = 0;
    for (int i = 0; i < h->n; i++)
        cells += edit_cells(&h->v[i]);
    edit_history_t none;
    edit_history_init(&none);
    none.saved = -1; /* an empty history whose saved state is gone: still "unsaved" */
    if (cells > RECOVER_HISTORY_CELLS) {
        h = &none;
        *no_history = true;
    }
    cJSON *hj = ok ? edit_history_to_json(h) : NULL;
    ok = ok && hj && cJSON_AddItemToObject(root, "history", hj);
    if (!ok) cJSON_Delete(hj);
    if (!root) ok = false;
    char *printed = ok ? cJSON_Print(root) : NULL;
    if (printed && strlen(printed) >= HB_FILE_MAX) {
        cJSON_free(printed);
        printed = NULL;
        cJSON *empty = edit_history_to_json(&none);
        if (empty && cJSON_ReplaceItemInObject(root, "history", empty)) {
            printed = cJSON_Print(root);
            *no_history = true;
        } else {
            cJSON_Delete(empty);
        }
    }
    cJSON_Delete(root);
    if (!printed) return NULL;
    /* cJSON's allocator may differ from malloc: copy out, then free its copy. */
    size_t n = strlen(printed);
    char *text = malloc(n + 2);
    if (text) {
        memcpy(text, printed, n);
        memcpy(text + n, "\n", 2);
    }
    cJSON_free(printed);
    return text;
}

static int write_text(const char *rpath, const char *text, bool first, char *err, size_t errcap)
{
    int rc = first ? make_folder(rpath, err, errcap) : HB_OK;
    if (!rc) rc = hb_write_atomic(rpath, text, strlen(text), false, err, errcap);
    return rc;
}

int recover_write_map(const char *rpath, const char *file, const map_t *m, const edit_history_t *h,
                      char *err, size_t errcap)
{
    bool trimmed;
    char *text = map_copy_text(file, m, h, &trimmed);
    if (!text) {
        snprintf(err, errcap, "%s: cannot write: out of memory", rpath);
        return HB_ERR_OTHER;
    }
    int rc = write_text(rpath, text, true, err, errcap);
    free(text);
    return rc;
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

/* The places a copy named after FILE (naming: the name it is filed under)
 * may be, in the order tried: the autosave folder, beside FILE, $TMPDIR. */
int recover_places(const char *file, const char *naming, char (*out)[SAVE_PATH_MAX], int max)
{
    int n = 0;
    if (n < max && recover_path(naming, out[n], SAVE_PATH_MAX)) n++;
    char own[SAVE_PATH_MAX];
    if (!recover_path(naming, own, sizeof own)) return n;
    const char *base = strrchr(own, '/');
    base = base ? base + 1 : own;
    if (n < max && file && *file) {
        const char *slash = strrchr(file, '/');
        int k = slash ? snprintf(out[n], SAVE_PATH_MAX, "%.*s/%s", (int)(slash - file), file, base)
                      : snprintf(out[n], SAVE_PATH_MAX, "%s", base);
        if (slash == file) k = snprintf(out[n], SAVE_PATH_MAX, "/%s", base);
        if (k > 0 && k < SAVE_PATH_MAX && strcmp(out[n], out[0]) != 0) n++;
    }
    char tmp[SAVE_PATH_MAX];
    if (n < max && hb_plat_temp_dir(tmp, sizeof tmp) &&
        snprintf(out[n], SAVE_PATH_MAX, "%s/hexbattle-%s", tmp, base) < SAVE_PATH_MAX)
        n++;
    return n;
}

/* Write TEXT to the first of FILE's places that takes it; its path to where.
 * Every failure is said in err when none does. */
static int write_anywhere(const char *file, const char *naming, const char *text, char *where,
                          size_t wcap, char *err, size_t errcap)
{
    char places[3][SAVE_PATH_MAX];
    int n = recover_places(file, naming, places, 3);
    if (n == 0) {
        snprintf(err, errcap, "no folder for a recovery copy (set HOME or XDG_DATA_HOME)");
        return HB_ERR_OTHER;
    }
    size_t used = 0;
    err[0] = '\0';
    for (int k = 0; k < n; k++) {
        char one[HB_ERR_MAX];
        if (write_text(places[k], text, k == 0, one, sizeof one) == HB_OK) {
            snprintf(where, wcap, "%s", places[k]);
            return HB_OK;
        }
        int w = snprintf(err + used, errcap - used, "%s%s", k ? "; " : "", one);
        if (w > 0) used = (size_t)w + used < errcap ? used + (size_t)w : errcap - 1;
    }
    return HB_ERR_OTHER;
}

int recover_write_map_any(const char *file, const map_t *m, const edit_history_t *h, char *where,
                          size_t wcap, bool *no_history, char *err, size_t errcap)
{
    bool trimmed = false;
    char *text = map_copy_text(file, m, h, &trimmed);
    if (no_history) *no_history = trimmed;
    if (!text) {
        snprintf(err, errcap, "%s: cannot write a recovery copy: out of memory",
                 file && *file ? file : "(new map)");
        return HB_ERR_OTHER;
    }
    int rc = write_anywhere(file, file, text, where, wcap, err, errcap);
    free(text);
    return rc;
}

int recover_write_battle_any(const char *file, const play_t *p, const save_table_t *table,
                             const char *map_file, char *where, size_t wcap, char *err,
                             size_t errcap)
{
    char of[SAVE_PATH_MAX];
    recover_abs(file, of, sizeof of);
    char *text = save_to_json(p, table, map_file);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    bool ok = root && cJSON_AddStringToObject(root, "recover_of", of);
    text = io_print_owned(root, ok);
    if (!text) {
        snprintf(err, errcap, "cannot write a recovery copy of the battle: out of memory");
        return HB_ERR_OTHER;
    }
    int rc = write_anywhere(file, file && *file ? file : "untitled.battle.json", text, where, wcap,
                            err, errcap);
    free(text);
    return rc;
}

int recover_find(const char *file, char *rpath, size_t cap, char *err, size_t errcap)
{
    char places[3][SAVE_PATH_MAX];
    int n = recover_places(file, file && *file ? file : "untitled.json", places, 3);
    char of[SAVE_PATH_MAX];
    recover_abs(file, of, sizeof of);
    for (int k = 0; k < n; k++) {
        hb_fs_info_t info;
        if (hb_fs_stat(places[k], &info) != 0) continue;
        io_ctx_t cx = {places[k], err, errcap};
        cJSON *root = NULL;
        if (io_load_json(&cx, places[k], &root) != HB_OK) {
            /* There, but it cannot come back: say so rather than skip it. */
            snprintf(rpath, cap, "%s", places[k]);
            return -1;
        }
        const cJSON *v = io_get(root, "of");
        if (!v) v = io_get(root, "recover_of");
        bool mine = cJSON_IsString(v) && strcmp(v->valuestring, of) == 0;
        cJSON_Delete(root);
        if (mine) {
            snprintf(rpath, cap, "%s", places[k]);
            return 1;
        }
    }
    return 0;
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
