/* io_json.c - checked reads of cJSON values with precise messages (see io_json.h). */
#include "io_json.h"

#include "../core/say.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void io_escape_controls(char *s, size_t cap)
{
    hb_escape_controls(s, cap);
}

int io_fail(io_ctx_t *cx, const char *path, const char *fmt, ...)
{
    if (!cx->err || cx->errcap == 0) return HB_ERR_INPUT;
    int n = snprintf(cx->err, cx->errcap, "%s: %s: ", cx->file, (path && *path) ? path : "(root)");
    if (n < 0) n = 0;
    if ((size_t)n < cx->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(cx->err + n, cx->errcap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    /* The message echoes the input: an ESC in an id must not reach a terminal raw. */
    io_escape_controls(cx->err, cx->errcap);
    return HB_ERR_INPUT;
}

int io_fail_other(io_ctx_t *cx, const char *reason)
{
    if (cx->err && cx->errcap) {
        snprintf(cx->err, cx->errcap, "%s: %s", cx->file, reason);
        io_escape_controls(cx->err, cx->errcap);
    }
    return HB_ERR_OTHER;
}

/* 1-based line and column (in bytes) of offset pos. */
static void line_col(const char *text, size_t pos, int *line, int *col)
{
    int l = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos; i++)
        if (text[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *col = (int)(pos - start) + 1;
}

static bool is_json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int io_parse(io_ctx_t *cx, const char *text, size_t len, cJSON **out)
{
    *out = NULL;
    int rc = io_json_strict_text(cx, text, len);
    if (rc) return rc;
    const char *end = NULL;
    /* Our own trailing check below, because cJSON's needs a NUL inside len. */
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    size_t pos = (end && end >= text && end <= text + len) ? (size_t)(end - text) : 0;
    int line, col;
    if (!root) {
        size_t tail = 0;
        while (tail < len && is_json_space(text[tail]))
            tail++;
        if (tail == len) return io_fail(cx, "", "invalid JSON: the file is empty");
        line_col(text, pos, &line, &col);
        return io_fail(cx, "", "invalid JSON at line %d, column %d", line, col);
    }
    while (pos < len && is_json_space(text[pos]))
        pos++;
    if (pos < len) {
        cJSON_Delete(root);
        line_col(text, pos, &line, &col);
        return io_fail(cx, "",
                       "invalid JSON at line %d, column %d: text after the end of the document",
                       line, col);
    }
    if ((rc = io_json_strict_tree(cx, root))) {
        cJSON_Delete(root);
        return rc;
    }
    *out = root;
    return HB_OK;
}

static bool is_plain_name(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

/* Append one character to out (bounded); keeps out NUL-terminated. */
static void put(char *out, size_t cap, size_t *n, const char *piece)
{
    for (; *piece && *n + 1 < cap; piece++)
        out[(*n)++] = *piece;
    out[*n < cap ? *n : cap - 1] = '\0';
}

void io_path_key(char *out, size_t cap, const char *parent, const char *key)
{
    if (cap == 0) return;
    size_t n = 0;
    out[0] = '\0';
    put(out, cap, &n, parent);
    if (is_plain_name(key)) {
        if (*parent) put(out, cap, &n, ".");
        put(out, cap, &n, key);
        return;
    }
    /* Odd keys (punctuation, spaces) are quoted so the message stays readable. */
    put(out, cap, &n, "[\"");
    for (const unsigned char *k = (const unsigned char *)key; *k; k++) {
        char piece[8];
        if (*k == '"' || *k == '\\')
            snprintf(piece, sizeof piece, "\\%c", *k);
        else if (*k < 0x20 || *k >= 0x7f)
            snprintf(piece, sizeof piece, "\\x%02x", *k);
        else
            snprintf(piece, sizeof piece, "%c", *k);
        put(out, cap, &n, piece);
    }
    put(out, cap, &n, "\"]");
}

void io_path_index(char *out, size_t cap, const char *parent, int i)
{
    if (cap == 0) return;
    snprintf(out, cap, "%s[%d]", parent, i);
}

const char *io_type_name(const cJSON *v)
{
    if (!v) return "nothing";
    if (cJSON_IsString(v)) return "string";
    if (cJSON_IsNumber(v)) return "number";
    if (cJSON_IsBool(v)) return "boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "array";
    if (cJSON_IsObject(v)) return "object";
    return "an unknown value";
}

const cJSON *io_get(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

int io_require(io_ctx_t *cx, const cJSON *obj, const char *path, const char *key, const cJSON **out)
{
    *out = io_get(obj, key);
    if (*out) return HB_OK;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, key);
    return io_fail(cx, p, "required but missing");
}

int io_want_object(io_ctx_t *cx, const cJSON *v, const char *path)
{
    if (cJSON_IsObject(v)) return HB_OK;
    return io_fail(cx, path, "expected an object, found %s", io_type_name(v));
}

int io_want_array(io_ctx_t *cx, const cJSON *v, const char *path)
{
    if (cJSON_IsArray(v)) return HB_OK;
    return io_fail(cx, path, "expected an array, found %s", io_type_name(v));
}

int io_want_int(io_ctx_t *cx, const cJSON *v, const char *path, int lo, int hi, int *out)
{
    if (!cJSON_IsNumber(v))
        return io_fail(cx, path, "expected an integer, found %s", io_type_name(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d)) return io_fail(cx, path, "expected an integer, found %g", d);
    if (d < (double)lo || d > (double)hi) {
        if (hi == INT_MAX)
            return io_fail(cx, path, "expected an integer of at least %d, found %.0f", lo, d);
        return io_fail(cx, path, "expected an integer from %d to %d, found %.0f", lo, hi, d);
    }
    *out = (int)d;
    return HB_OK;
}

int io_want_enum(io_ctx_t *cx, const cJSON *v, const char *path, const char *const *names, int n,
                 int *out)
{
    for (int i = 0; i < n && cJSON_IsString(v); i++)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = i;
            return HB_OK;
        }
    char choices[256] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof choices; i++)
        used += (size_t)snprintf(choices + used, sizeof choices - used, "%s\"%s\"",
                                 i == 0 ? "" : (i == n - 1 ? " or " : ", "), names[i]);
    if (cJSON_IsString(v))
        return io_fail(cx, path, "expected %s, found \"%.40s\"", choices, v->valuestring);
    return io_fail(cx, path, "expected %s, found %s", choices, io_type_name(v));
}

int io_want_bool(io_ctx_t *cx, const cJSON *v, const char *path, bool *out)
{
    if (!cJSON_IsBool(v))
        return io_fail(cx, path, "expected true or false, found %s", io_type_name(v));
    *out = cJSON_IsTrue(v);
    return HB_OK;
}

int io_want_string(io_ctx_t *cx, const cJSON *v, const char *path, char *dst, size_t cap,
                   bool allow_empty)
{
    if (!cJSON_IsString(v) || !v->valuestring)
        return io_fail(cx, path, "expected a string, found %s", io_type_name(v));
    size_t n = strlen(v->valuestring);
    if (n == 0 && !allow_empty) return io_fail(cx, path, "must not be empty");
    if (n >= cap) return io_fail(cx, path, "longer than %zu characters", cap - 1);
    memcpy(dst, v->valuestring, n + 1);
    return HB_OK;
}

bool io_is_id(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

int io_want_key_id(io_ctx_t *cx, const char *key, const char *path, size_t cap)
{
    if (!io_is_id(key))
        return io_fail(cx, path, "'%s' is not a valid name (letters, digits, '_' and '-')", key);
    if (strlen(key) >= cap) return io_fail(cx, path, "name longer than %zu characters", cap - 1);
    return HB_OK;
}

int io_want_id(io_ctx_t *cx, const cJSON *v, const char *path, char *dst, size_t cap)
{
    int rc = io_want_string(cx, v, path, dst, cap, false);
    if (rc) return rc;
    if (!io_is_id(dst))
        return io_fail(cx, path, "'%s' is not a valid id (letters, digits, '_' and '-')", dst);
    return HB_OK;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "#rrggbb" -> 0xRRGGBB; false when malformed. */
static bool parse_color(const char *s, uint32_t *out)
{
    if (strlen(s) != 7 || s[0] != '#') return false;
    uint32_t c = 0;
    for (int i = 1; i < 7; i++) {
        int d = hex_digit(s[i]);
        if (d < 0) return false;
        c = c << 4 | (uint32_t)d;
    }
    *out = c;
    return true;
}

int io_terrain_fields(io_ctx_t *cx, const cJSON *obj, const char *path, terrain_t *t,
                      bool require_all)
{
    int rc = io_want_object(cx, obj, path);
    if (rc) return rc;
    char p[IO_PATH_MAX];
    const cJSON *v;

    io_path_key(p, sizeof p, path, "move");
    if ((v = io_get(obj, "move"))) {
        int move;
        if ((rc = io_want_int(cx, v, p, INT_MIN, INT_MAX, &move))) return rc;
        if (move < 0 || move > 2)
            return io_fail(cx, p, "expected 1 (open), 2 (difficult) or 0 (impassable), found %d",
                           move);
        t->move = move;
    } else if (require_all) {
        return io_fail(cx, p, "required but missing");
    }

    io_path_key(p, sizeof p, path, "cover");
    if ((v = io_get(obj, "cover"))) {
        char name[32];
        if ((rc = io_want_string(cx, v, p, name, sizeof name, true)))
            return io_fail(cx, p, "expected \"none\", \"light\", \"heavy\" or \"total\"");
        int cover = map_cover_parse(name);
        if (cover < 0)
            return io_fail(cx, p, "unknown cover '%s' (none, light, heavy or total)", name);
        t->cover = (cover_t)cover;
    } else if (require_all) {
        return io_fail(cx, p, "required but missing");
    }

    io_path_key(p, sizeof p, path, "blocks_sight");
    if ((v = io_get(obj, "blocks_sight")) && (rc = io_want_bool(cx, v, p, &t->blocks_sight)))
        return rc;

    io_path_key(p, sizeof p, path, "color");
    if ((v = io_get(obj, "color"))) {
        char text[16];
        uint32_t color;
        if (!cJSON_IsString(v))
            return io_fail(cx, p, "expected a colour \"#rrggbb\", found %s", io_type_name(v));
        if (io_want_string(cx, v, p, text, sizeof text, true) || !parse_color(text, &color))
            return io_fail(cx, p, "expected a colour \"#rrggbb\", found \"%.40s\"", v->valuestring);
        t->color = color;
    } else if (require_all) {
        return io_fail(cx, p, "required but missing");
    }

    io_path_key(p, sizeof p, path, "texture");
    if ((v = io_get(obj, "texture")) &&
        ((rc = io_want_string(cx, v, p, t->texture, sizeof t->texture, true)) ||
         (rc = io_want_inside(cx, p, t->texture, "assets/"))))
        return rc;

    io_path_key(p, sizeof p, path, "opens_to");
    if ((v = io_get(obj, "opens_to")) &&
        (rc = io_want_string(cx, v, p, t->opens_to, sizeof t->opens_to, true)))
        return rc;

    io_path_key(p, sizeof p, path, "depth");
    if ((v = io_get(obj, "depth"))) {
        static const char *const DEPTHS[] = {"none", "partial", "deep"};
        int depth = DEPTH_NONE; /* set by io_want_enum on success; -O3 cannot tell */
        if ((rc = io_want_enum(cx, v, p, DEPTHS, 3, &depth))) return rc;
        t->depth = (depth_t)depth;
    }
    return HB_OK;
}

int io_stats(io_ctx_t *cx, const cJSON *v, const char *path, stat_kv_t *kv, int cap, int *n)
{
    return io_int_table(cx, v, path, kv, cap, n, "stats");
}

int io_int_table(io_ctx_t *cx, const cJSON *v, const char *path, stat_kv_t *kv, int cap, int *n,
                 const char *what)
{
    int rc = io_want_object(cx, v, path);
    if (rc) return rc;
    *n = 0;
    char p[IO_PATH_MAX];
    for (const cJSON *s = v->child; s; s = s->next) {
        io_path_key(p, sizeof p, path, s->string);
        if (*n >= cap) return io_fail(cx, p, "more than %d %s", cap, what);
        if ((rc = io_want_key_id(cx, s->string, p, MAP_ID_MAX))) return rc;
        for (int i = 0; i < *n; i++)
            if (strcmp(kv[i].key, s->string) == 0) return io_fail(cx, p, "given twice");
        if ((rc = io_want_int(cx, s, p, -IO_VALUE_MAX, IO_VALUE_MAX, &kv[*n].value))) return rc;
        hb_strlcpy(kv[*n].key, s->string, MAP_ID_MAX);
        (*n)++;
    }
    return HB_OK;
}

int io_weapon_list(io_ctx_t *cx, const cJSON *v, const char *path, const tmpl_db_t *db,
                   char (*out)[MAP_ID_MAX], int *n)
{
    int rc = io_want_array(cx, v, path);
    if (rc) return rc;
    int count = cJSON_GetArraySize(v);
    if (count > MAP_MAX_WEAPONS)
        return io_fail(cx, path, "%d weapons; at most %d are allowed", count, MAP_MAX_WEAPONS);
    char p[IO_PATH_MAX];
    int i = 0;
    for (const cJSON *w = v->child; w; w = w->next, i++) {
        io_path_index(p, sizeof p, path, i);
        if ((rc = io_want_id(cx, w, p, out[i], MAP_ID_MAX))) return rc;
        if (!tmpl_find_weapon(db, out[i]))
            return io_fail(cx, p, "no weapon '%s' in ruleset %s", out[i], db->ruleset);
    }
    *n = i;
    return HB_OK;
}

int io_kind(io_ctx_t *cx, const cJSON *v, const char *path, ckind_t *out)
{
    char name[32];
    if (!cJSON_IsString(v))
        return io_fail(cx, path, "expected \"creature\" or \"machine\", found %s", io_type_name(v));
    if (io_want_string(cx, v, path, name, sizeof name, true) == HB_OK) {
        if (strcmp(name, "creature") == 0) {
            *out = KIND_CREATURE;
            return HB_OK;
        }
        if (strcmp(name, "machine") == 0) {
            *out = KIND_MACHINE;
            return HB_OK;
        }
    }
    return io_fail(cx, path, "unknown kind '%.40s' (creature or machine)", v->valuestring);
}

int io_size(io_ctx_t *cx, const cJSON *v, const char *path, csize_t *out)
{
    if (!cJSON_IsString(v))
        return io_fail(cx, path, "expected a size name, found %s", io_type_name(v));
    int s = map_size_parse(v->valuestring);
    if (s < 0)
        return io_fail(cx, path,
                       "unknown size '%.40s' (tiny, small, medium, large, extra_large, giant, "
                       "behemoth or gargantuan)",
                       v->valuestring);
    *out = (csize_t)s;
    return HB_OK;
}

int io_check_size(io_ctx_t *cx, const char *path, ckind_t kind, csize_t size)
{
    if (map_size_valid(kind, size)) return HB_OK;
    if (kind == KIND_MACHINE)
        return io_fail(cx, path,
                       "a machine cannot be %s (machines are small, medium, large or gargantuan)",
                       map_size_name(size));
    return io_fail(cx, path, "a creature cannot be %s (creatures are tiny to behemoth)",
                   map_size_name(size));
}

int io_load_json(io_ctx_t *cx, const char *path, cJSON **out)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = hb_read_file(path, HB_FILE_MAX, &text, &len, cx->err, cx->errcap);
    if (rc) return rc;
    rc = io_parse(cx, text, len, out);
    free(text);
    return rc;
}

int io_check_header(io_ctx_t *cx, const cJSON *root, const char *format)
{
    int rc = io_want_object(cx, root, "");
    if (rc) return rc;
    const cJSON *v;
    if ((rc = io_require(cx, root, "", "format", &v))) return rc;
    if (!cJSON_IsString(v) || strcmp(v->valuestring, format) != 0) {
        if (cJSON_IsString(v)) {
            /* Say what the file is when it is one of ours, of another kind. */
            const char *hint = "";
            if (strcmp(v->valuestring, "hexbattle-map") == 0)
                hint = " (this is a map: play it with 'hexbattle MAP', edit it with 'hexbattle "
                       "edit MAP')";
            else if (strcmp(v->valuestring, "hexbattle-save") == 0)
                hint = " (this is a saved battle: go on with 'hexbattle resume SAVE' or watch it "
                       "with 'hexbattle replay SAVE')";
            return io_fail(cx, "format", "expected \"%s\", found \"%.60s\"%s", format,
                           v->valuestring, hint);
        }
        return io_fail(cx, "format", "expected \"%s\", found %s", format, io_type_name(v));
    }
    int version;
    if ((rc = io_require(cx, root, "", "version", &v)) ||
        (rc = io_want_int(cx, v, "version", INT_MIN, INT_MAX, &version)))
        return rc;
    if (version != 1)
        return io_fail(cx, "version", "this program reads version 1, found %d", version);
    return HB_OK;
}

char *io_print_owned(cJSON *root, bool ok)
{
    char *printed = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!printed) return NULL;
    /* cJSON's allocator may differ from malloc: copy out, then free its copy. */
    size_t n = strlen(printed);
    char *text = malloc(n + 2);
    if (text) {
        memcpy(text, printed, n);
        text[n] = '\n';
        text[n + 1] = '\0';
    }
    cJSON_free(printed);
    return text;
}

bool io_safe_relative(const char *rel)
{
    if (!*rel || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':')) return false;
    for (const char *s = rel; *s;) {
        size_t len = strcspn(s, "/\\");
        if (len == 2 && s[0] == '.' && s[1] == '.') return false;
        s += len + (s[len] ? 1 : 0);
    }
    return true;
}

int io_want_inside(io_ctx_t *cx, const char *p, const char *s, const char *where)
{
    if (!*s || io_safe_relative(s)) return HB_OK;
    return io_fail(cx, p, "'%.80s' must be a relative path inside %s (no '..', no absolute path)",
                   s, where);
}
