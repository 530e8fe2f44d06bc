/* json_strict.c - what cJSON lets through and hexbattle does not (io_json.h).
 *
 * cJSON skips a NUL between tokens as white space, takes raw control
 * characters and any bytes inside strings, keeps the first of two equal keys
 * and saturates numbers that do not fit. A file that leans on any of that is
 * not the file its author meant, so it is refused with the JSON path where
 * it happens. The scan below walks the text once, keeping just enough of the
 * structure to name that path; a plain syntax error is left to cJSON, whose
 * message gives the line and column.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_json.h"

/* One open object or array on the way down to the current value. */
typedef struct {
    bool object;
    int index;    /* arrays: the element being read */
    char key[64]; /* objects: the member being read (escapes taken as written) */
} frame_t;

typedef struct {
    io_ctx_t *cx;
    const unsigned char *s;
    size_t len, pos;
    frame_t st[IO_JSON_DEPTH_MAX];
    int depth;
} scan_t;

/* The path of the value being read, as the loaders print it. */
static void path_now(const scan_t *sc, char *out, size_t cap)
{
    char a[IO_PATH_MAX], b[IO_PATH_MAX];
    a[0] = '\0';
    for (int i = 0; i < sc->depth; i++) {
        const frame_t *f = &sc->st[i];
        if (f->object) {
            if (!f->key[0]) break; /* between members: the object itself */
            io_path_key(b, sizeof b, a, f->key);
        } else {
            io_path_index(b, sizeof b, a, f->index);
        }
        memcpy(a, b, sizeof a);
    }
    snprintf(out, cap, "%s", a);
}

/* Line and column (1-based, in bytes) of offset pos. */
static void where(const scan_t *sc, size_t pos, int *line, int *col)
{
    int l = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos && i < sc->len; i++)
        if (sc->s[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *col = (int)(pos - start) + 1;
}

/* Refuse at sc->pos with "PATH: WHAT (line L, column C)". */
static int refuse(scan_t *sc, const char *what)
{
    char p[IO_PATH_MAX];
    int line, col;
    path_now(sc, p, sizeof p);
    where(sc, sc->pos, &line, &col);
    return io_fail(sc->cx, p, "%s (line %d, column %d)", what, line, col);
}

/* Length of the UTF-8 sequence at s[0..n), 0 when it is not one: no
 * overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t k;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        k = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else
        return 0;
    if (n < k) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return k;
}

static void skip_space(scan_t *sc)
{
    while (sc->pos < sc->len) {
        unsigned char c = sc->s[sc->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
        sc->pos++;
    }
}

/* A string starting at its quote; its text (escapes as written, cut to
 * cap-1 bytes) into key when key is not NULL. 1: a refusal was written;
 * -1: a syntax error for cJSON; 0: fine. */
static int scan_string(scan_t *sc, char *key, size_t cap)
{
    size_t n = 0;
    sc->pos++; /* the opening quote */
    while (sc->pos < sc->len) {
        unsigned char c = sc->s[sc->pos];
        if (c == '"') {
            sc->pos++;
            if (key) key[n] = '\0';
            return 0;
        }
        if (c == 0) return refuse(sc, "a NUL byte inside a string"), 1;
        if (c < 0x20) {
            char why[80];
            snprintf(why, sizeof why, "control character 0x%02x inside a string (write it escaped)",
                     c);
            return refuse(sc, why), 1;
        }
        size_t k = 1;
        if (c == '\\') {
            if (sc->pos + 1 >= sc->len) return -1;
            k = 2;
            /* An escaped NUL would end the text where cJSON stores it, so
             * the rest of the string would be lost without a word. */
            if (sc->pos + 6 <= sc->len && memcmp(sc->s + sc->pos + 1, "u0000", 5) == 0)
                return refuse(sc, "a NUL (\\u0000) inside a string"), 1;
        } else if (c >= 0x80 && !(k = utf8_len(sc->s + sc->pos, sc->len - sc->pos))) {
            return refuse(sc, "invalid UTF-8 inside a string"), 1;
        }
        for (size_t i = 0; i < k && key && n + 1 < cap; i++)
            key[n++] = (char)sc->s[sc->pos + i];
        sc->pos += k;
    }
    return -1; /* unterminated: cJSON says where */
}

/* A number token: an integer must fit an int, and no number may be so large
 * that it cannot stand for one. */
static int scan_number(scan_t *sc)
{
    size_t start = sc->pos;
    bool integer = true;
    while (sc->pos < sc->len) {
        unsigned char c = sc->s[sc->pos];
        if (c == '.' || c == 'e' || c == 'E')
            integer = false;
        else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9')))
            break;
        sc->pos++;
    }
    char buf[64];
    size_t n = sc->pos - start;
    if (n >= sizeof buf) {
        /* Longer than any int or any sensible fraction. */
        sc->pos = start;
        return refuse(sc, integer ? "integer too large (an int holds -2147483648..2147483647)"
                                  : "number too long"),
               1;
    }
    memcpy(buf, sc->s + start, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    bool bad;
    if (integer) {
        long long v = strtoll(buf, &end, 10);
        bad = errno == ERANGE || v < INT_MIN || v > INT_MAX;
    } else {
        double d = strtod(buf, &end);
        bad = !isfinite(d) || d < (double)INT_MIN || d > (double)INT_MAX;
    }
    if (end == buf) return -1; /* "-" alone: a syntax error */
    if (bad) {
        sc->pos = start;
        char why[120];
        snprintf(why, sizeof why, "number %.24s%s is out of range (-2147483648..2147483647)", buf,
                 n > 24 ? "..." : "");
        return refuse(sc, why), 1;
    }
    return 0;
}

/* Walk the whole text. 1: refused; 0: nothing wrong found (syntax errors
 * included: cJSON reports those). */
static int scan(scan_t *sc)
{
    /* Bytes cJSON would skip or choke on: a NUL anywhere, control
     * characters between tokens. */
    for (;;) {
        skip_space(sc);
        if (sc->pos >= sc->len) return 0;
        unsigned char c = sc->s[sc->pos];
        frame_t *top = sc->depth > 0 ? &sc->st[sc->depth - 1] : NULL;
        if (c == 0) return refuse(sc, "a NUL byte in the file");
        if (c < 0x20) {
            char why[64];
            snprintf(why, sizeof why, "control character 0x%02x outside a string", c);
            return refuse(sc, why);
        }
        if (c >= 0x80) {
            if (!utf8_len(sc->s + sc->pos, sc->len - sc->pos)) return refuse(sc, "invalid UTF-8");
            return 0; /* a syntax error */
        }
        int rc = 0;
        switch (c) {
        case '{':
        case '[':
            if (sc->depth == IO_JSON_DEPTH_MAX) {
                char why[64];
                snprintf(why, sizeof why, "nested deeper than %d levels", IO_JSON_DEPTH_MAX);
                return refuse(sc, why);
            }
            sc->st[sc->depth++] = (frame_t){.object = c == '{'};
            sc->pos++;
            break;
        case '}':
        case ']':
            if (!top) return 0;
            sc->depth--;
            sc->pos++;
            break;
        case ',':
            if (!top) return 0;
            if (top->object)
                top->key[0] = '\0';
            else
                top->index++;
            sc->pos++;
            break;
        case ':':
            sc->pos++;
            break;
        case '"':
            /* In an object, a string right after '{' or ',' is a key. */
            if (top && top->object && !top->key[0]) {
                rc = scan_string(sc, top->key, sizeof top->key);
                /* An empty key: keep a mark so the path still reads. */
                if (rc == 0 && !top->key[0]) snprintf(top->key, sizeof top->key, "%s", " ");
            } else {
                rc = scan_string(sc, NULL, 0);
            }
            break;
        default:
            if (c == '-' || (c >= '0' && c <= '9')) {
                rc = scan_number(sc);
            } else if (c >= 'a' && c <= 'z') {
                while (sc->pos < sc->len && sc->s[sc->pos] >= 'a' && sc->s[sc->pos] <= 'z')
                    sc->pos++;
            } else {
                return 0; /* a syntax error */
            }
        }
        if (rc) return rc > 0 ? 1 : 0;
    }
}

/* Does object o name a member twice? Its path and the name go to the
 * message. Objects in real files are small; big ones are sorted. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_keys(io_ctx_t *cx, const cJSON *v, const char *path, int depth)
{
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) return HB_OK;
    if (depth > IO_JSON_DEPTH_MAX) return io_fail(cx, path, "nested too deep");
    char p[IO_PATH_MAX];
    if (cJSON_IsObject(v)) {
        int n = 0;
        for (const cJSON *c = v->child; c; c = c->next)
            n++;
        const char *dup = NULL;
        if (n <= 16) {
            for (const cJSON *a = v->child; a && !dup; a = a->next)
                for (const cJSON *b = a->next; b && !dup; b = b->next)
                    if (strcmp(a->string, b->string) == 0) dup = a->string;
        } else {
            const char **keys = malloc(sizeof *keys * (size_t)n);
            if (!keys) return io_fail_other(cx, "out of memory");
            int k = 0;
            for (const cJSON *c = v->child; c; c = c->next)
                keys[k++] = c->string;
            qsort(keys, (size_t)n, sizeof *keys, cmp_str);
            for (int i = 1; i < n && !dup; i++)
                if (strcmp(keys[i - 1], keys[i]) == 0) dup = keys[i];
            free(keys);
        }
        if (dup) {
            io_path_key(p, sizeof p, path, dup);
            return io_fail(cx, p, "given twice");
        }
    }
    int i = 0;
    for (const cJSON *c = v->child; c; c = c->next, i++) {
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c)) continue;
        if (cJSON_IsObject(v))
            io_path_key(p, sizeof p, path, c->string);
        else
            io_path_index(p, sizeof p, path, i);
        int rc = check_keys(cx, c, p, depth + 1);
        if (rc) return rc;
    }
    return HB_OK;
}

int io_json_strict_text(io_ctx_t *cx, const char *text, size_t len)
{
    scan_t sc = {.cx = cx, .s = (const unsigned char *)text, .len = len};
    return scan(&sc) ? HB_ERR_INPUT : HB_OK;
}

int io_json_strict_tree(io_ctx_t *cx, const cJSON *root)
{
    return check_keys(cx, root, "", 1);
}
