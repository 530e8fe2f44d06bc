/* tiled_write.c - a hexbattle map as a Tiled hex map, .tmj or .tmx (tiled.h).
 *
 * The map is first written as hexbattle's own JSON (map_to_json: only what
 * the author set, with a legend character for every terrain in use), and
 * that document is laid out the way Tiled 1.8 writes a map: one embedded
 * tileset with a tile per terrain type, a "terrain" tile layer and a
 * "combatants" object layer of points, the rest as map properties. The same
 * tree is then printed as JSON or as XML, so both formats say the same. The
 * tileset's picture, NAME.tiles.png beside the map, shows each type's hex as
 * hexbattle draws it (tiled_tiles.c). */
/* PATH_MAX from <limits.h>. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/printf_attr.h"
#include "../core/say.h"
#include "map_io.h"
#include "png.h"
#include "tiled_internal.h"

/* The tEXt "Software" value of a tileset picture hexbattle wrote. */
#define TILED_PICTURE_MARK "hexbattle tileset"

/* Tile sizes that make regular hexes: 64 across the flats, 74 corner to corner. */
#define HEX_FLATS 64
#define HEX_CORNERS 74
#define HEX_SIDE 37

typedef struct {
    bool ok;
} wctx_t;

static cJSON *add(wctx_t *w, cJSON *parent, const char *key, cJSON *item)
{
    bool done = item && parent &&
                (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (!done) {
        cJSON_Delete(item);
        w->ok = false;
        return NULL;
    }
    return item;
}

static void add_prop(wctx_t *w, cJSON *props, const char *name, const char *type, cJSON *value)
{
    cJSON *p = add(w, props, NULL, cJSON_CreateObject());
    add(w, p, "name", cJSON_CreateString(name));
    add(w, p, "type", cJSON_CreateString(type));
    add(w, p, "value", value);
}

/* "#rrggbb" as Tiled's "#ffrrggbb". */
static cJSON *tiled_color(const char *rgb)
{
    char c[10] = "#ff";
    if (strlen(rgb) == 7) memcpy(c + 3, rgb + 1, 7);
    return cJSON_CreateString(c);
}

/* The tileset's next tile, for terrain type t (its definition when the map
 * gives one); its picture is the next one in the tileset's image. */
static void put_tile(wctx_t *w, cJSON *tiles, tiled_tiles_t *tl, const terrain_t *t, char legend,
                     const cJSON *def)
{
    cJSON *tile = add(w, tiles, NULL, cJSON_CreateObject());
    add(w, tile, "id", cJSON_CreateNumber(tl->n));
    add(w, tile, "type", cJSON_CreateString(t->name));
    tl->types[tl->n++] = t;
    cJSON *props = add(w, tile, "properties", cJSON_CreateArray());
    add_prop(w, props, "terrain", "string", cJSON_CreateString(t->name));
    if (legend) {
        char s[2] = {legend, '\0'};
        add_prop(w, props, "legend", "string", cJSON_CreateString(s));
    }
    if (!def) return;
    const cJSON *v;
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "move")))
        add_prop(w, props, "move", "int", cJSON_CreateNumber(v->valuedouble));
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "cover")))
        add_prop(w, props, "cover", "string", cJSON_CreateString(v->valuestring));
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "blocks_sight")))
        add_prop(w, props, "blocks_sight", "bool", cJSON_CreateBool(cJSON_IsTrue(v)));
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "color")))
        add_prop(w, props, "color", "color", tiled_color(v->valuestring));
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "texture")))
        add_prop(w, props, "texture", "string", cJSON_CreateString(v->valuestring));
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "opens_to")))
        add_prop(w, props, "opens_to", "string", cJSON_CreateString(v->valuestring));
}

/* Combatant c (hexbattle JSON) as a point object at its hex's centre. */
static void put_object(wctx_t *w, cJSON *objects, int id, const cJSON *c, const tiled_geo_t *g)
{
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(c, "at");
    int col = cJSON_GetArrayItem(at, 0) ? cJSON_GetArrayItem(at, 0)->valueint : 0;
    int row = cJSON_GetArrayItem(at, 1) ? cJSON_GetArrayItem(at, 1)->valueint : 0;
    double x, y;
    tiled_cell_center(g, col, row, &x, &y);
    cJSON *o = add(w, objects, NULL, cJSON_CreateObject());
    const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");
    add(w, o, "height", cJSON_CreateNumber(0));
    add(w, o, "id", cJSON_CreateNumber(id));
    add(w, o, "name", cJSON_CreateString(cJSON_IsString(cid) ? cid->valuestring : ""));
    add(w, o, "point", cJSON_CreateTrue());
    cJSON *props = add(w, o, "properties", cJSON_CreateArray());
    const cJSON *v;
    cJSON_ArrayForEach(v, c)
    {
        const char *k = v->string;
        if (strcmp(k, "at") == 0) continue;
        if (strcmp(k, "weapons") == 0) {
            char list[512] = "";
            size_t used = 0;
            const cJSON *wp;
            cJSON_ArrayForEach(wp, v)
            {
                int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                                 wp->valuestring);
                if (n > 0 && (size_t)n < sizeof list - used) used += (size_t)n;
            }
            add_prop(w, props, "weapons", "string", cJSON_CreateString(list));
        } else if (strcmp(k, "stats") == 0) {
            const cJSON *s;
            char order[MAP_MAX_STATS * (MAP_ID_MAX + 2)] = "";
            size_t used = 0;
            cJSON_ArrayForEach(s, v)
            {
                char name[MAP_ID_MAX + 8];
                snprintf(name, sizeof name, "stat.%s", s->string);
                add_prop(w, props, name, "int", cJSON_CreateNumber(s->valuedouble));
                int n = snprintf(order + used, sizeof order - used, "%s%s", used ? "," : "",
                                 s->string);
                if (n > 0 && (size_t)n < sizeof order - used) used += (size_t)n;
            }
            /* Tiled sorts properties by name: the order comes back from here. */
            if (cJSON_GetArraySize(v) > 1)
                add_prop(w, props, "stat_order", "string", cJSON_CreateString(order));
        } else if (cJSON_IsNumber(v)) {
            add_prop(w, props, k, "int", cJSON_CreateNumber(v->valuedouble));
        } else if (cJSON_IsString(v)) {
            add_prop(w, props, k, "string", cJSON_CreateString(v->valuestring));
        }
    }
    add(w, o, "rotation", cJSON_CreateNumber(0));
    add(w, o, "type", cJSON_CreateString(""));
    add(w, o, "visible", cJSON_CreateTrue());
    add(w, o, "width", cJSON_CreateNumber(0));
    add(w, o, "x", cJSON_CreateNumber(x));
    add(w, o, "y", cJSON_CreateNumber(y));
}

/* The file name of the tileset picture of a map written to out_path: NAME.tiles.png
 * for NAME.tmx or NAME.tmj, in the same folder; with the folder (the file to
 * write) or without (what the map names). */
static void tiles_name(const char *out_path, bool with_folder, char *name, size_t cap)
{
    const char *path = out_path ? out_path : "map.tmx";
    const char *base = with_folder ? path : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && (strcmp(base + n - 4, ".tmx") == 0 || strcmp(base + n - 4, ".tmj") == 0)) n -= 4;
    snprintf(name, cap, "%.*s.tiles.png", (int)n, base);
}

/* The Tiled tree of map m (its tiles in tiles_of), or NULL on OOM. */
static cJSON *tiled_tree(const map_t *m, const char *out_path, tiled_tiles_t *tiles_of)
{
    char *text = map_to_json(m);
    cJSON *hb = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!hb) return NULL;
    wctx_t w = {.ok = true};
    tiled_geo_t g = {.stagger_x = m->layout.orient == HEX_FLAT,
                     .stagger_even = m->layout.stagger == HEX_EVEN,
                     .side = HEX_SIDE};
    g.tw = g.stagger_x ? HEX_CORNERS : HEX_FLATS;
    g.th = g.stagger_x ? HEX_FLATS : HEX_CORNERS;
    *tiles_of = (tiled_tiles_t){.tw = (int)g.tw, .th = (int)g.th, .side = HEX_SIDE, .flat = g.stagger_x};
    const cJSON *legend = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(hb, "terrain"), "legend");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(hb, "terrain"), "rows");
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(hb, "terrain_types");
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(hb, "combatants");

    cJSON *root = cJSON_CreateObject();
    add(&w, root, "compressionlevel", cJSON_CreateNumber(-1));
    add(&w, root, "height", cJSON_CreateNumber(m->rows));
    add(&w, root, "hexsidelength", cJSON_CreateNumber(HEX_SIDE));
    add(&w, root, "infinite", cJSON_CreateFalse());
    cJSON *layers = add(&w, root, "layers", cJSON_CreateArray());
    add(&w, root, "nextlayerid", cJSON_CreateNumber(3));
    add(&w, root, "nextobjectid", cJSON_CreateNumber(cJSON_GetArraySize(units) + 1));
    add(&w, root, "orientation", cJSON_CreateString("hexagonal"));
    cJSON *props = add(&w, root, "properties", cJSON_CreateArray());
    add(&w, root, "renderorder", cJSON_CreateString("right-down"));
    add(&w, root, "staggeraxis", cJSON_CreateString(g.stagger_x ? "x" : "y"));
    add(&w, root, "staggerindex", cJSON_CreateString(g.stagger_even ? "even" : "odd"));
    add(&w, root, "tiledversion", cJSON_CreateString("1.8.2"));
    add(&w, root, "tileheight", cJSON_CreateNumber(g.th));
    cJSON *tilesets = add(&w, root, "tilesets", cJSON_CreateArray());
    add(&w, root, "tilewidth", cJSON_CreateNumber(g.tw));
    add(&w, root, "type", cJSON_CreateString("map"));
    add(&w, root, "version", cJSON_CreateString("1.8"));
    add(&w, root, "width", cJSON_CreateNumber(m->cols));

    /* Map properties, and the legend in its order. */
    char order[MAP_MAX_LEGEND + MAP_MAX_TERRAIN + 1] = "";
    size_t n_order = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, legend) if (n_order + 1 < sizeof order) order[n_order++] = e->string[0];
    order[n_order] = '\0';
    add_prop(&w, props, "feet_per_hex", "int", cJSON_CreateNumber(m->feet_per_hex));
    add_prop(&w, props, "legend", "string", cJSON_CreateString(order));
    add_prop(&w, props, "name", "string", cJSON_CreateString(m->name));
    add_prop(&w, props, "ruleset", "string", cJSON_CreateString(m->ruleset));
    const cJSON *opts = cJSON_GetObjectItemCaseSensitive(hb, "options");
    if (opts) {
        /* Rule options (docs/map-format.md) as the map file's own JSON object. */
        char *json = cJSON_PrintUnformatted(opts);
        if (!json) w.ok = false;
        add_prop(&w, props, "options", "string", cJSON_CreateString(json ? json : "{}"));
        cJSON_free(json);
    }
    const cJSON *fac = cJSON_GetObjectItemCaseSensitive(hb, "factions");
    if (fac) {
        /* NAME=control pairs read easily in Tiled; a faction with scores
         * (docs/map-format.md) needs the map file's own JSON object. */
        bool plain = true;
        cJSON_ArrayForEach(e, fac) plain = plain && cJSON_IsString(e);
        char f[MAP_MAX_FACTIONS * (MAP_ID_MAX + 12)] = "";
        char *json = plain ? NULL : cJSON_PrintUnformatted(fac);
        size_t used = 0;
        cJSON_ArrayForEach(e, fac)
        {
            if (!plain) break;
            int k = snprintf(f + used, sizeof f - used, "%s%s=%s", used ? ", " : "", e->string,
                             e->valuestring);
            if (k > 0 && (size_t)k < sizeof f - used) used += (size_t)k;
        }
        if (!plain && !json) w.ok = false;
        add_prop(&w, props, "factions", "string", cJSON_CreateString(json ? json : f));
        cJSON_free(json);
    }

    /* The tileset: a tile per terrain type (its first legend character), then
     * one for each further character of a type. gid_of[c]: the gid of char c. */
    cJSON *ts = add(&w, tilesets, NULL, cJSON_CreateObject());
    cJSON *columns = add(&w, ts, "columns", cJSON_CreateNumber(0));
    add(&w, ts, "firstgid", cJSON_CreateNumber(1));
    char picture[PATH_MAX];
    tiles_name(out_path, false, picture, sizeof picture);
    add(&w, ts, "image", cJSON_CreateString(picture));
    add(&w, ts, "imageheight", cJSON_CreateNumber(g.th));
    cJSON *image_w = add(&w, ts, "imagewidth", cJSON_CreateNumber(0));
    add(&w, ts, "margin", cJSON_CreateNumber(0));
    add(&w, ts, "name", cJSON_CreateString("hexbattle terrain"));
    add(&w, ts, "spacing", cJSON_CreateNumber(0));
    cJSON *tiles = cJSON_CreateArray();
    int gid_of[256] = {0};
    bool char_done[256] = {false};
    int n_tiles = 0;
    for (int i = 0; i < m->n_types; i++) {
        const terrain_t *t = &m->types[i];
        char first = 0;
        cJSON_ArrayForEach(e, legend) if (!first && strcmp(e->valuestring, t->name) == 0) first =
            e->string[0];
        const cJSON *def = cJSON_GetObjectItemCaseSensitive(defs, t->name);
        put_tile(&w, tiles, tiles_of, t, first, def);
        n_tiles++;
        if (first) {
            gid_of[(unsigned char)first] = n_tiles;
            char_done[(unsigned char)first] = true;
        }
    }
    cJSON_ArrayForEach(e, legend)
    {
        unsigned char c = (unsigned char)e->string[0];
        if (char_done[c]) continue;
        int ti = map_find_type(m, e->valuestring);
        if (ti < 0) continue;
        put_tile(&w, tiles, tiles_of, &m->types[ti], (char)c, NULL);
        gid_of[c] = ++n_tiles;
        char_done[c] = true;
    }
    if (columns) cJSON_SetNumberValue(columns, n_tiles);
    if (image_w) cJSON_SetNumberValue(image_w, n_tiles * g.tw);
    add(&w, ts, "tilecount", cJSON_CreateNumber(n_tiles));
    add(&w, ts, "tileheight", cJSON_CreateNumber(g.th));
    add(&w, ts, "tiles", tiles);
    add(&w, ts, "tilewidth", cJSON_CreateNumber(g.tw));

    /* The terrain layer, cell by cell through the legend characters. */
    cJSON *tl = add(&w, layers, NULL, cJSON_CreateObject());
    cJSON *data = add(&w, tl, "data", cJSON_CreateArray());
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        for (const char *s = row->valuestring; *s; s++)
            add(&w, data, NULL, cJSON_CreateNumber(gid_of[(unsigned char)*s]));
    }
    add(&w, tl, "height", cJSON_CreateNumber(m->rows));
    add(&w, tl, "id", cJSON_CreateNumber(1));
    add(&w, tl, "name", cJSON_CreateString("terrain"));
    add(&w, tl, "opacity", cJSON_CreateNumber(1));
    add(&w, tl, "type", cJSON_CreateString("tilelayer"));
    add(&w, tl, "visible", cJSON_CreateTrue());
    add(&w, tl, "width", cJSON_CreateNumber(m->cols));
    add(&w, tl, "x", cJSON_CreateNumber(0));
    add(&w, tl, "y", cJSON_CreateNumber(0));

    cJSON *ol = add(&w, layers, NULL, cJSON_CreateObject());
    add(&w, ol, "draworder", cJSON_CreateString("topdown"));
    add(&w, ol, "id", cJSON_CreateNumber(2));
    add(&w, ol, "name", cJSON_CreateString("combatants"));
    cJSON *objects = add(&w, ol, "objects", cJSON_CreateArray());
    int k = 0;
    cJSON_ArrayForEach(e, units) put_object(&w, objects, ++k, e, &g);
    add(&w, ol, "opacity", cJSON_CreateNumber(1));
    add(&w, ol, "type", cJSON_CreateString("objectgroup"));
    add(&w, ol, "visible", cJSON_CreateTrue());
    add(&w, ol, "x", cJSON_CreateNumber(0));
    add(&w, ol, "y", cJSON_CreateNumber(0));
    cJSON_Delete(hb);
    if (!w.ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* ---- XML ---- */

typedef struct {
    char *s;
    size_t n, cap;
    bool ok;
} buf_t;

static void out(buf_t *b, const char *fmt, ...)
{
    if (!b->ok) return;
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0 || b->n + (size_t)k + 1 > TILED_FILE_MAX) {
        b->ok = false;
        va_end(ap2);
        return;
    }
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->ok = false;
            va_end(ap2);
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap2);
    va_end(ap2);
    b->n += (size_t)k;
}

/* s with XML's five special characters escaped. */
static void esc(buf_t *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': out(b, "&amp;"); break;
        case '<': out(b, "&lt;"); break;
        case '>': out(b, "&gt;"); break;
        case '"': out(b, "&quot;"); break;
        case '\'': out(b, "&apos;"); break;
        default: out(b, "%c", *s); break;
        }
    }
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* Attribute k of o, if present, as Tiled writes it. */
static void attr(buf_t *b, const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    if (!v) return;
    out(b, " %s=\"", k);
    if (cJSON_IsString(v))
        esc(b, v->valuestring);
    else if (cJSON_IsBool(v))
        out(b, "%d", cJSON_IsTrue(v) ? 1 : 0);
    else
        out(b, "%.10g", v->valuedouble);
    out(b, "\"");
}

static void xml_props(buf_t *b, const cJSON *o, const char *ind)
{
    const cJSON *props = get(o, "properties");
    if (!cJSON_GetArraySize(props)) return;
    out(b, "%s<properties>\n", ind);
    const cJSON *p;
    cJSON_ArrayForEach(p, props)
    {
        const cJSON *type = get(p, "type"), *v = get(p, "value");
        out(b, "%s <property", ind);
        attr(b, p, "name");
        if (cJSON_IsString(type) && strcmp(type->valuestring, "string") != 0) attr(b, p, "type");
        out(b, " value=\"");
        if (cJSON_IsString(v))
            esc(b, v->valuestring);
        else if (cJSON_IsBool(v))
            out(b, "%s", cJSON_IsTrue(v) ? "true" : "false");
        else
            out(b, "%.10g", v ? v->valuedouble : 0.0);
        out(b, "\"/>\n");
    }
    out(b, "%s</properties>\n", ind);
}

static char *to_xml(const cJSON *t)
{
    buf_t b = {.ok = true};
    out(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map");
    static const char *const MAP_ATTRS[] = {
        "version",       "tiledversion", "orientation", "renderorder",  "width",
        "height",        "tilewidth",    "tileheight",  "infinite",     "hexsidelength",
        "staggeraxis",   "staggerindex", "nextlayerid", "nextobjectid"};
    for (size_t i = 0; i < sizeof MAP_ATTRS / sizeof MAP_ATTRS[0]; i++)
        attr(&b, t, MAP_ATTRS[i]);
    out(&b, ">\n");
    xml_props(&b, t, " ");
    const cJSON *ts;
    cJSON_ArrayForEach(ts, get(t, "tilesets"))
    {
        out(&b, " <tileset");
        static const char *const TS[] = {"firstgid", "name",      "tilewidth",
                                         "tileheight", "tilecount", "columns"};
        for (size_t i = 0; i < sizeof TS / sizeof TS[0]; i++)
            attr(&b, ts, TS[i]);
        out(&b, ">\n");
        const cJSON *picture = get(ts, "image");
        if (cJSON_IsString(picture)) {
            out(&b, "  <image source=\"");
            esc(&b, picture->valuestring);
            out(&b, "\" width=\"%d\" height=\"%d\"/>\n", get(ts, "imagewidth")->valueint,
                get(ts, "imageheight")->valueint);
        }
        const cJSON *tile;
        cJSON_ArrayForEach(tile, get(ts, "tiles"))
        {
            out(&b, "  <tile");
            attr(&b, tile, "id");
            attr(&b, tile, "type");
            out(&b, ">\n");
            xml_props(&b, tile, "   ");
            out(&b, "  </tile>\n");
        }
        out(&b, " </tileset>\n");
    }
    const cJSON *l;
    cJSON_ArrayForEach(l, get(t, "layers"))
    {
        const cJSON *type = get(l, "type");
        if (cJSON_IsString(type) && strcmp(type->valuestring, "tilelayer") == 0) {
            out(&b, " <layer");
            attr(&b, l, "id");
            attr(&b, l, "name");
            attr(&b, l, "width");
            attr(&b, l, "height");
            out(&b, ">\n  <data encoding=\"csv\">\n");
            int w = get(l, "width") ? get(l, "width")->valueint : 1, i = 0;
            int n = cJSON_GetArraySize(get(l, "data"));
            const cJSON *g;
            cJSON_ArrayForEach(g, get(l, "data"))
            {
                out(&b, "%d%s", g->valueint, i + 1 == n ? "\n" : ",");
                if (++i % w == 0 && i < n) out(&b, "\n");
            }
            out(&b, "</data>\n </layer>\n");
        } else {
            out(&b, " <objectgroup");
            attr(&b, l, "id");
            attr(&b, l, "name");
            out(&b, ">\n");
            const cJSON *o;
            cJSON_ArrayForEach(o, get(l, "objects"))
            {
                out(&b, "  <object");
                attr(&b, o, "id");
                attr(&b, o, "name");
                attr(&b, o, "x");
                attr(&b, o, "y");
                out(&b, ">\n");
                xml_props(&b, o, "   ");
                out(&b, "   <point/>\n  </object>\n");
            }
            out(&b, " </objectgroup>\n");
        }
    }
    out(&b, "</map>\n");
    if (!b.ok) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* Map m as Tiled text, its tiles in tl. */
static char *to_text(const map_t *m, tiled_format_t fmt, const char *out_path, tiled_tiles_t *tl)
{
    cJSON *t = tiled_tree(m, out_path, tl);
    if (!t) return NULL;
    char *text = NULL;
    if (fmt == TILED_TMX) {
        text = to_xml(t);
    } else {
        char *s = cJSON_Print(t);
        if (s) {
            /* cJSON's own allocator may differ from free(): copy out. */
            size_t n = strlen(s);
            text = malloc(n + 2);
            if (text) {
                memcpy(text, s, n);
                text[n] = '\n';
                text[n + 1] = '\0';
            }
            cJSON_free(s);
        }
    }
    cJSON_Delete(t);
    return text;
}

char *tiled_to_text(const map_t *m, tiled_format_t fmt, const char *out_path)
{
    tiled_tiles_t tl;
    return to_text(m, fmt, out_path, &tl);
}

/* A refused save: "PATH: not saved: WHY" (HB_ERR_OTHER). */
static int refuse(char *err, size_t errcap, const char *path, const char *fmt, ...)
    HB_PRINTF(4, 5)
    ;

static int refuse(char *err, size_t errcap, const char *path, const char *fmt, ...)
{
    int k = snprintf(err, errcap, "%s: not saved: ", path);
    if (k >= 0 && (size_t)k < errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errcap - (size_t)k, fmt, ap);
        va_end(ap);
    }
    hb_escape_controls(err, errcap); /* the path and layer names come from the user */
    return HB_ERR_OTHER;
}

/* May a save replace the picture at PATH with png? Yes when there is none,
 * when hexbattle wrote it (its mark), or when it holds these very bytes. */
static bool picture_ours(const char *path, const unsigned char *png, size_t len)
{
    hb_stamp_t st;
    hb_file_stamp(path, &st);
    if (!st.exists) return true;
    char *old = NULL, err[HB_ERR_MAX];
    size_t n = 0;
    if (hb_read_file(path, HB_FILE_MAX, &old, &n, err, sizeof err) != HB_OK) return false;
    bool ours = png_has_text((const unsigned char *)old, n, "Software", TILED_PICTURE_MARK) ||
                (n == len && memcmp(old, png, n) == 0);
    free(old);
    return ours;
}

int tiled_save(const map_t *m, const char *path, char *err, size_t errcap)
{
    tiled_format_t f = tiled_format_of(path);
    tiled_tiles_t tl;
    char *text = f == TILED_NONE ? NULL : to_text(m, f, path, &tl);
    size_t png_len = 0;
    unsigned char *png = text ? tiled_tiles_png(&tl, &png_len) : NULL;
    if (!png) {
        free(text);
        snprintf(err, errcap, "%s: cannot save: %s", path,
                 f == TILED_NONE ? "not a .tmj or .tmx name" : "out of memory or a corrupt map");
        return HB_ERR_OTHER;
    }
    char picture[PATH_MAX];
    tiles_name(path, true, picture, sizeof picture);
    /* The picture says it is hexbattle's, so a later save knows it may go. */
    char why[TILED_NOTE_MAX];
    int rc = HB_OK;
    if (!png_add_text(&png, &png_len, "Software", TILED_PICTURE_MARK)) rc = HB_ERR_OTHER;
    if (rc != HB_OK)
        snprintf(err, errcap, "%s: cannot save: out of memory", path);
    else if (tiled_foreign_layers(path, why, sizeof why))
        /* What hexbattle does not read is not dropped without a word. */
        rc = refuse(err, errcap, path,
                    "it holds %s; a save would lose them: save under another "
                    "name",
                    why + strlen("dropped "));
    else if (!picture_ours(picture, png, png_len))
        rc = refuse(err, errcap, path,
                    "its tileset picture %s was not written by hexbattle; "
                    "move it away or save under another name",
                    picture);
    if (rc != HB_OK) {
        free(png);
        free(text);
        return rc;
    }
    /* Both files are written whole before either is renamed into place; the
     * picture goes first, so the map never names a picture that is not there.
     * The old picture is kept as .bak, like the map. */
    hb_pending_t pic, map;
    rc = hb_write_begin(picture, png, png_len, &pic, err, errcap);
    free(png);
    if (rc == HB_OK) {
        rc = hb_write_begin(path, text, strlen(text), &map, err, errcap);
        if (rc != HB_OK) hb_write_abort(&pic);
    }
    free(text);
    if (rc != HB_OK) return rc;
    if ((rc = hb_write_commit(&pic, true, err, errcap)) != HB_OK) {
        hb_write_abort(&map);
        return rc;
    }
    return hb_write_commit(&map, true, err, errcap);
}
