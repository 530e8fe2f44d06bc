/* tiled_xml.c - a Tiled XML file (.tmx map or .tsx tileset) read with expat
 * into the shape of Tiled's JSON format (.tmj / .tsj), so one reader
 * (tiled_read.c) serves both formats. See tiled_internal.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "tiled_internal.h"

#define XML_DEPTH_MAX 32

typedef struct {
    cJSON *root;      /* the map or tileset object being built */
    cJSON *stack[XML_DEPTH_MAX];
    char tag[XML_DEPTH_MAX][16];
    int depth;
    cJSON *text_into; /* a <data> or <property> whose text is being gathered */
    char *text;
    size_t text_len, text_cap;
    bool failed;
    char why[200];
    XML_Parser parser;
} xml_ctx_t;

static void fail(xml_ctx_t *x, const char *fmt, const char *arg)
{
    if (x->failed) return;
    x->failed = true;
    snprintf(x->why, sizeof x->why, fmt, arg);
    XML_StopParser(x->parser, XML_FALSE);
}

/* Attributes Tiled writes as numbers (everything else stays a string). */
static bool numeric_attr(const char *name)
{
    static const char *const NUM[] = {
        "width",     "height",  "tilewidth", "tileheight", "hexsidelength", "firstgid", "id",
        "x",         "y",       "rotation",  "gid",        "tilecount",     "columns",  "spacing",
        "margin",    "opacity", "nextlayerid", "nextobjectid", "compressionlevel",
        "offsetx",   "offsety"};
    for (size_t i = 0; i < sizeof NUM / sizeof NUM[0]; i++)
        if (strcmp(name, NUM[i]) == 0) return true;
    return false;
}

/* Add attribute NAME=VALUE to object o, as Tiled's JSON would have it. */
static bool add_attr(xml_ctx_t *x, cJSON *o, const char *name, const char *value)
{
    if (cJSON_GetObjectItemCaseSensitive(o, name)) {
        fail(x, "attribute '%s' given twice", name);
        return false;
    }
    cJSON *v;
    if (numeric_attr(name)) {
        char *end;
        double d = strtod(value, &end);
        if (end == value || *end) {
            fail(x, "attribute '%s' is not a number", name);
            return false;
        }
        v = cJSON_CreateNumber(d);
    } else if (strcmp(name, "infinite") == 0 || strcmp(name, "visible") == 0) {
        v = cJSON_CreateBool(strcmp(value, "0") != 0 && strcmp(value, "false") != 0);
    } else {
        v = cJSON_CreateString(value);
    }
    if (!v || !cJSON_AddItemToObject(o, name, v)) {
        cJSON_Delete(v);
        fail(x, "%s", "out of memory");
        return false;
    }
    return true;
}

static cJSON *add_attrs(xml_ctx_t *x, cJSON *o, const char **attr)
{
    for (int i = 0; o && attr[i] && attr[i + 1]; i += 2)
        if (!add_attr(x, o, attr[i], attr[i + 1])) return NULL;
    return o;
}

/* Array member KEY of o, made when missing. */
static cJSON *array_of(cJSON *o, const char *key)
{
    cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!a) a = cJSON_AddArrayToObject(o, key);
    return cJSON_IsArray(a) ? a : NULL;
}

/* A new object of the given "type" appended to parent's KEY array. */
static cJSON *child(xml_ctx_t *x, cJSON *parent, const char *key, const char *type,
                    const char **attr)
{
    cJSON *list = parent ? array_of(parent, key) : NULL;
    cJSON *o = cJSON_CreateObject();
    if (!list || !o || !cJSON_AddItemToArray(list, o)) {
        cJSON_Delete(o);
        fail(x, "%s", "out of memory");
        return NULL;
    }
    if (type && !cJSON_AddStringToObject(o, "type", type)) {
        fail(x, "%s", "out of memory");
        return NULL;
    }
    return add_attrs(x, o, attr);
}

/* A property's value as its type says, as Tiled's JSON has it: int and
 * float as numbers, bool as true or false. */
static void type_value(xml_ctx_t *x, cJSON *p)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");
    if (!cJSON_IsString(type) || !cJSON_IsString(v)) return;
    const char *t = type->valuestring, *s = v->valuestring;
    cJSON *typed = NULL;
    if (strcmp(t, "int") == 0 || strcmp(t, "float") == 0 || strcmp(t, "object") == 0) {
        char *end;
        double d = strtod(s, &end);
        if (end == s || *end) {
            fail(x, "property value '%.40s' is not a number", s);
            return;
        }
        typed = cJSON_CreateNumber(d);
    } else if (strcmp(t, "bool") == 0) {
        if (strcmp(s, "true") && strcmp(s, "false")) {
            fail(x, "property value '%.40s' is not true or false", s);
            return;
        }
        typed = cJSON_CreateBool(strcmp(s, "true") == 0);
    } else {
        return;
    }
    if (!typed || !cJSON_ReplaceItemInObjectCaseSensitive(p, "value", typed)) {
        cJSON_Delete(typed);
        fail(x, "%s", "out of memory");
    }
}

static void start(void *ud, const char *el, const char **attr)
{
    xml_ctx_t *x = ud;
    if (x->failed) return;
    if (x->depth >= XML_DEPTH_MAX) {
        fail(x, "elements nested deeper than %s", "32");
        return;
    }
    cJSON *parent = x->depth > 0 ? x->stack[x->depth - 1] : NULL;
    const char *ptag = x->depth > 0 ? x->tag[x->depth - 1] : "";
    cJSON *o = NULL;
    if (x->depth > 0 && !parent) {
        /* Inside an element hexbattle does not read: skip the whole subtree. */
    } else if (x->depth == 0) {
        if (strcmp(el, "map") != 0 && strcmp(el, "tileset") != 0) {
            fail(x, "the root element is <%s>, not <map> or <tileset>", el);
            return;
        }
        x->root = cJSON_CreateObject(); /* freed by the caller, whatever happens next */
        if (!x->root) {
            fail(x, "%s", "out of memory");
            return;
        }
        o = add_attrs(x, x->root, attr);
        if (!o) return;
    } else if (strcmp(el, "properties") == 0) {
        o = parent ? array_of(parent, "properties") : NULL;
    } else if (strcmp(el, "property") == 0 && strcmp(ptag, "properties") == 0) {
        /* parent is the properties array itself. */
        o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(parent, o)) {
            cJSON_Delete(o);
            fail(x, "%s", "out of memory");
            return;
        }
        if (!add_attrs(x, o, attr)) return;
        type_value(x, o);
        /* A multi-line string keeps its value in the element's text. */
        if (o && !cJSON_GetObjectItemCaseSensitive(o, "value")) x->text_into = o;
    } else if (strcmp(el, "tileset") == 0 && strcmp(ptag, "map") == 0) {
        o = child(x, parent, "tilesets", NULL, attr);
    } else if (strcmp(el, "tile") == 0 && (strcmp(ptag, "tileset") == 0)) {
        o = child(x, parent, "tiles", NULL, attr);
    } else if (strcmp(el, "tile") == 0 && strcmp(ptag, "data") == 0) {
        /* <data> without an encoding: one <tile gid=".."/> per cell. */
        const char *gid = "0";
        for (int i = 0; attr[i] && attr[i + 1]; i += 2)
            if (strcmp(attr[i], "gid") == 0) gid = attr[i + 1];
        char *end;
        double d = strtod(gid, &end);
        cJSON *arr = array_of(parent, "data");
        if (end == gid || *end || !arr || !cJSON_AddItemToArray(arr, cJSON_CreateNumber(d))) {
            fail(x, "a <tile> in <data> has a bad gid '%s'", gid);
            return;
        }
        o = parent;
    } else if (strcmp(el, "image") == 0 &&
               (strcmp(ptag, "tile") == 0 || strcmp(ptag, "tileset") == 0 ||
                strcmp(ptag, "imagelayer") == 0)) {
        /* <image source width height> is "image", "imagewidth", "imageheight". */
        for (int i = 0; attr[i] && attr[i + 1]; i += 2) {
            const char *key = strcmp(attr[i], "source") == 0   ? "image"
                              : strcmp(attr[i], "width") == 0  ? "imagewidth"
                              : strcmp(attr[i], "height") == 0 ? "imageheight"
                                                               : NULL;
            if (!key) continue;
            if (key[5] == '\0') {
                if (!add_attr(x, parent, key, attr[i + 1])) return;
            } else {
                char *end;
                double d = strtod(attr[i + 1], &end);
                if (end == attr[i + 1] || *end) {
                    fail(x, "<image> %s is not a number", attr[i]);
                    return;
                }
                if (!cJSON_AddNumberToObject(parent, key, d)) fail(x, "%s", "out of memory");
            }
        }
        o = parent;
    } else if (strcmp(el, "tileoffset") == 0 && strcmp(ptag, "tileset") == 0) {
        o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToObject(parent, "tileoffset", o)) {
            cJSON_Delete(o);
            fail(x, "%s", "out of memory");
            return;
        }
        if (!add_attrs(x, o, attr)) return;
    } else if ((strcmp(el, "layer") == 0 || strcmp(el, "objectgroup") == 0 ||
                strcmp(el, "imagelayer") == 0 || strcmp(el, "group") == 0) &&
               (strcmp(ptag, "map") == 0 || strcmp(ptag, "group") == 0)) {
        const char *type = el[0] == 'l' ? "tilelayer" : el[0] == 'o' ? "objectgroup" : el;
        o = child(x, parent, "layers", type, attr);
    } else if (strcmp(el, "data") == 0 && strcmp(ptag, "layer") == 0) {
        o = add_attrs(x, parent, attr); /* encoding, compression go on the layer */
        x->text_into = parent;
    } else if (strcmp(el, "object") == 0 && strcmp(ptag, "objectgroup") == 0) {
        o = child(x, parent, "objects", NULL, attr);
    } else if ((strcmp(el, "point") == 0 || strcmp(el, "ellipse") == 0) &&
               strcmp(ptag, "object") == 0) {
        if (!cJSON_AddBoolToObject(parent, el, true)) fail(x, "%s", "out of memory");
        o = parent;
    } else {
        /* Anything else (chunks, text, polygons, animations...) is kept out of
         * the tree: hexbattle does not read it. */
        o = NULL;
    }
    if (x->failed) return;
    x->stack[x->depth] = o;
    snprintf(x->tag[x->depth], sizeof x->tag[0], "%s", el);
    x->depth++;
}

static void end(void *ud, const char *el)
{
    xml_ctx_t *x = ud;
    (void)el;
    if (x->failed || x->depth == 0) return;
    x->depth--;
    cJSON *o = x->stack[x->depth];
    if (!x->text_into || o != x->text_into) return;
    const char *key = strcmp(x->tag[x->depth], "data") == 0 ? "data" : "value";
    if (strcmp(key, "data") == 0 && cJSON_GetObjectItemCaseSensitive(o, "data")) {
        /* <tile> children already made the array. */
    } else if (!cJSON_AddStringToObject(o, key, x->text ? x->text : "")) {
        fail(x, "%s", "out of memory");
    }
    x->text_into = NULL;
    x->text_len = 0;
    if (x->text) x->text[0] = '\0';
}

static void chars(void *ud, const XML_Char *s, int len)
{
    xml_ctx_t *x = ud;
    if (x->failed || !x->text_into || len <= 0) return;
    if (x->text_len + (size_t)len + 1 > x->text_cap) {
        size_t cap = x->text_cap ? x->text_cap * 2 : 4096;
        while (cap < x->text_len + (size_t)len + 1)
            cap *= 2;
        if (cap > TILED_FILE_MAX) {
            fail(x, "%s", "element text over the size limit");
            return;
        }
        char *t = realloc(x->text, cap);
        if (!t) {
            fail(x, "%s", "out of memory");
            return;
        }
        x->text = t;
        x->text_cap = cap;
    }
    memcpy(x->text + x->text_len, s, (size_t)len);
    x->text_len += (size_t)len;
    x->text[x->text_len] = '\0';
}

/* No external entities and no DTD tricks: Tiled files never use them. */
static void no_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                       const XML_Char *pubid, int has_internal)
{
    (void)name;
    (void)sysid;
    (void)pubid;
    (void)has_internal;
    fail(ud, "%s", "a DOCTYPE is not allowed in a Tiled file");
}

int tiled_xml_parse(io_ctx_t *cx, const char *text, size_t len, cJSON **out)
{
    *out = NULL;
    xml_ctx_t x;
    memset(&x, 0, sizeof x);
    x.parser = XML_ParserCreate("UTF-8");
    if (!x.parser) return io_fail_other(cx, "out of memory");
    XML_SetUserData(x.parser, &x);
    XML_SetElementHandler(x.parser, start, end);
    XML_SetCharacterDataHandler(x.parser, chars);
    XML_SetStartDoctypeDeclHandler(x.parser, no_doctype);
    enum XML_Status st = len > (size_t)INT32_MAX ? XML_STATUS_ERROR
                                                 : XML_Parse(x.parser, text, (int)len, XML_TRUE);
    int rc = HB_OK;
    if (x.failed) {
        rc = io_fail(cx, "", "line %lu: %s", (unsigned long)XML_GetCurrentLineNumber(x.parser),
                     x.why);
    } else if (st != XML_STATUS_OK) {
        rc = io_fail(cx, "", "not well-formed XML at line %lu, column %lu: %s",
                     (unsigned long)XML_GetCurrentLineNumber(x.parser),
                     (unsigned long)XML_GetCurrentColumnNumber(x.parser) + 1,
                     XML_ErrorString(XML_GetErrorCode(x.parser)));
    } else if (!x.root) {
        rc = io_fail(cx, "", "no <map> element");
    }
    XML_ParserFree(x.parser);
    free(x.text);
    if (rc != HB_OK) {
        cJSON_Delete(x.root);
        return rc;
    }
    *out = x.root;
    return HB_OK;
}
