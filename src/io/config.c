/* config.c - per-display settings file (see config.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../core/map.h"
#include "../core/scale.h"
#include "io_json.h"
#include "platform/platform.h"

#define FORMAT "hexbattle-displays"

void config_init(config_t *c)
{
    memset(c, 0, sizeof *c);
}

int config_path(char *out, size_t cap)
{
    char dir[4096];
    if (!hb_plat_user_dir(HB_USER_CONFIG, dir, sizeof dir)) return HB_ERR_OTHER;
    int n = snprintf(out, cap, "%s/displays.json", dir);
    return n > 0 && (size_t)n < cap ? HB_OK : HB_ERR_OTHER;
}

/* A finite number in lo..hi at PATH. */
static int want_number(io_ctx_t *cx, const cJSON *v, const char *path, double lo, double hi,
                       double *out)
{
    if (!cJSON_IsNumber(v))
        return io_fail(cx, path, "expected a number, found %s", io_type_name(v));
    double x = v->valuedouble;
    if (!isfinite(x) || x < lo || x > hi)
        return io_fail(cx, path, "expected a number from %g to %g, found %g", lo, hi, x);
    *out = x;
    return HB_OK;
}

static int read_display(io_ctx_t *cx, const cJSON *o, const char *path, display_cfg_t *d)
{
    char p[IO_PATH_MAX];
    const cJSON *v;
    int rc = io_want_object(cx, o, path);
    if (rc) return rc;
    memset(d, 0, sizeof *d);
    io_path_key(p, sizeof p, path, "name");
    if ((rc = io_require(cx, o, path, "name", &v)) ||
        (rc = io_want_string(cx, v, p, d->name, sizeof d->name, false)))
        return rc;
    io_path_key(p, sizeof p, path, "width");
    if ((rc = io_require(cx, o, path, "width", &v)) ||
        (rc = io_want_int(cx, v, p, 1, 65535, &d->w)))
        return rc;
    io_path_key(p, sizeof p, path, "height");
    if ((rc = io_require(cx, o, path, "height", &v)) ||
        (rc = io_want_int(cx, v, p, 1, 65535, &d->h)))
        return rc;
    d->hex_mm = SCALE_DEFAULT_HEX_MM;
    if ((v = io_get(o, "hex_mm"))) {
        io_path_key(p, sizeof p, path, "hex_mm");
        if ((rc = want_number(cx, v, p, 1.0, 1000.0, &d->hex_mm))) return rc;
    }
    if ((v = io_get(o, "dpi"))) {
        io_path_key(p, sizeof p, path, "dpi");
        if ((rc = want_number(cx, v, p, 0.0, 10000.0, &d->dpi))) return rc;
        if (d->dpi > 0.0 && d->dpi < 1.0)
            return io_fail(cx, p, "expected 0 (use the reported DPI) or at least 1, found %g",
                           d->dpi);
    }
    if ((v = io_get(o, "rotation"))) {
        io_path_key(p, sizeof p, path, "rotation");
        if ((rc = io_want_int(cx, v, p, 0, 270, &d->rotation))) return rc;
        if (d->rotation % 90 != 0)
            return io_fail(cx, p, "expected 0, 90, 180 or 270, found %d", d->rotation);
    }
    return HB_OK;
}

static int parse(io_ctx_t *cx, const cJSON *root, config_t *c)
{
    int rc = io_want_object(cx, root, "");
    if (rc) return rc;
    if ((rc = io_check_header(cx, root, FORMAT))) return rc;
    const cJSON *arr;
    if ((rc = io_require(cx, root, "", "displays", &arr)) ||
        (rc = io_want_array(cx, arr, "displays")))
        return rc;
    int i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, arr)
    {
        char p[IO_PATH_MAX];
        io_path_index(p, sizeof p, "displays", i);
        if (c->n == CONFIG_MAX_DISPLAYS)
            return io_fail(cx, p, "more than %d displays", CONFIG_MAX_DISPLAYS);
        display_cfg_t d;
        if ((rc = read_display(cx, o, p, &d))) return rc;
        if (config_find(c, d.name, d.w, d.h))
            return io_fail(cx, p, "display '%s' at %dx%d is listed twice", d.name, d.w, d.h);
        c->d[c->n++] = d;
        i++;
    }
    return HB_OK;
}

int config_load(const char *path, config_t *c, char *err, size_t errcap)
{
    config_init(c);
    if (hb_fs_stat(path, NULL) != 0 && errno == ENOENT) return HB_OK; /* first run: nothing kept yet */
    io_ctx_t cx = {path, err, errcap};
    cJSON *root = NULL;
    int rc = io_load_json(&cx, path, &root);
    if (rc == HB_OK) rc = parse(&cx, root, c);
    cJSON_Delete(root);
    if (rc != HB_OK) {
        config_init(c);
        return HB_ERR_INPUT;
    }
    return HB_OK;
}

char *config_to_json(const config_t *c)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    cJSON_AddStringToObject(root, "format", FORMAT);
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON *arr = cJSON_AddArrayToObject(root, "displays");
    for (int i = 0; arr && i < c->n; i++) {
        const display_cfg_t *d = &c->d[i];
        cJSON *o = cJSON_CreateObject();
        if (!o) break;
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddNumberToObject(o, "width", d->w);
        cJSON_AddNumberToObject(o, "height", d->h);
        cJSON_AddNumberToObject(o, "hex_mm", d->hex_mm);
        cJSON_AddNumberToObject(o, "dpi", d->dpi);
        cJSON_AddNumberToObject(o, "rotation", d->rotation);
        cJSON_AddItemToArray(arr, o);
    }
    char *s = cJSON_Print(root);
    cJSON_Delete(root);
    return s;
}

/* mkdir -p of the folder holding PATH. */
static bool make_parent(const char *path)
{
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return false;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return true;
    *slash = '\0';
    return hb_make_dirs(dir, 0700);
}

int config_save(const char *path, const config_t *c, char *err, size_t errcap)
{
    if (!make_parent(path)) {
        snprintf(err, errcap, "%s: cannot write: %s (making its folder)", path, strerror(errno));
        return HB_ERR_OTHER;
    }
    char *s = config_to_json(c);
    if (!s) {
        snprintf(err, errcap, "%s: cannot write: out of memory", path);
        return HB_ERR_OTHER;
    }
    int rc = hb_write_atomic(path, s, strlen(s), false, err, errcap);
    cJSON_free(s);
    return rc;
}

display_cfg_t *config_find(config_t *c, const char *name, int w, int h)
{
    for (int i = 0; i < c->n; i++)
        if (c->d[i].w == w && c->d[i].h == h && strcmp(c->d[i].name, name) == 0) return &c->d[i];
    return NULL;
}

display_cfg_t *config_get(config_t *c, const char *name, int w, int h)
{
    display_cfg_t *d = config_find(c, name, w, h);
    if (d || c->n == CONFIG_MAX_DISPLAYS) return d;
    d = &c->d[c->n++];
    memset(d, 0, sizeof *d);
    hb_strlcpy(d->name, name, sizeof d->name);
    d->w = w;
    d->h = h;
    d->hex_mm = SCALE_DEFAULT_HEX_MM;
    return d;
}
