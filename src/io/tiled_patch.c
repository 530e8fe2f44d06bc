/* tiled_patch.c - the terrains chosen for tiles in the editor written into
 * the Tiled files themselves (tiled.h): each as the tile's `terrain`
 * property in the tileset that holds the tile - the map file for a tileset
 * it holds, else the tileset's own .tsx or .tsj file - and nothing else of
 * those files changed. JSON files are read whole with cJSON and written back
 * as Tiled writes them; XML files get the property put into their text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "io_json.h"
#include "map_io.h"
#include "picture.h"
#include "tiled.h"

/* The `terrain` property of tile object t set to terrain, added when missing. */
static bool json_tile_terrain(cJSON *t, const char *terrain)
{
    cJSON *props = cJSON_GetObjectItemCaseSensitive(t, "properties");
    if (!props) props = cJSON_AddArrayToObject(t, "properties");
    if (!cJSON_IsArray(props)) return false;
    cJSON *p;
    cJSON_ArrayForEach(p, props)
    {
        cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, "terrain") == 0) {
            cJSON_DeleteItemFromObjectCaseSensitive(p, "value");
            cJSON_DeleteItemFromObjectCaseSensitive(p, "type");
            return cJSON_AddStringToObject(p, "type", "string") &&
                   cJSON_AddStringToObject(p, "value", terrain);
        }
    }
    p = cJSON_CreateObject();
    if (!p || !cJSON_AddItemToArray(props, p)) {
        cJSON_Delete(p);
        return false;
    }
    return cJSON_AddStringToObject(p, "name", "terrain") &&
           cJSON_AddStringToObject(p, "type", "string") && cJSON_AddStringToObject(p, "value", terrain);
}

/* In tileset object ts, tile id's terrain. */
static bool json_set(cJSON *ts, int id, const char *terrain)
{
    cJSON *tiles = cJSON_GetObjectItemCaseSensitive(ts, "tiles");
    if (!tiles) tiles = cJSON_AddArrayToObject(ts, "tiles");
    if (!cJSON_IsArray(tiles)) return false;
    cJSON *t;
    cJSON_ArrayForEach(t, tiles)
    {
        cJSON *i = cJSON_GetObjectItemCaseSensitive(t, "id");
        if (cJSON_IsNumber(i) && i->valueint == id) return json_tile_terrain(t, terrain);
    }
    t = cJSON_CreateObject();
    if (!t || !cJSON_AddItemToArray(tiles, t)) {
        cJSON_Delete(t);
        return false;
    }
    return cJSON_AddNumberToObject(t, "id", id) && json_tile_terrain(t, terrain);
}

/* Text s with [at, at + cut) replaced by ins; malloc'd. */
static char *splice(const char *s, size_t at, size_t cut, const char *ins)
{
    size_t n = strlen(s), k = strlen(ins);
    char *o = malloc(n - cut + k + 1);
    if (!o) return NULL;
    memcpy(o, s, at);
    memcpy(o + at, ins, k);
    memcpy(o + at + k, s + at + cut, n - at - cut + 1);
    return o;
}

/* In XML text, within the tileset element [from, to), tile id's terrain. */
static char *xml_set(const char *text, size_t from, size_t to, int id, const char *terrain)
{
    char prop[160], tag[40];
    snprintf(prop, sizeof prop, "<property name=\"terrain\" value=\"%s\"/>", terrain);
    snprintf(tag, sizeof tag, "<tile id=\"%d\"", id);
    const char *t = NULL;
    for (const char *s = text + from; (s = strstr(s, tag)) && (size_t)(s - text) < to; s++) {
        char c = s[strlen(tag)];
        if (c == ' ' || c == '>' || c == '/') {
            t = s;
            break;
        }
    }
    if (!t) { /* no such tile yet: one before the tileset's end */
        char ins[300];
        snprintf(ins, sizeof ins, " <tile id=\"%d\">\n   <properties>\n    %s\n   </properties>\n  </tile>\n ",
                 id, prop);
        return splice(text, to, 0, ins);
    }
    const char *gt = strchr(t, '>');
    if (!gt) return NULL;
    if (gt[-1] == '/') { /* <tile id="3" type="x"/> */
        char ins[300];
        snprintf(ins, sizeof ins, "><properties><property name=\"terrain\" value=\"%s\"/></properties></tile>",
                 terrain);
        return splice(text, (size_t)(gt - 1 - text), 2, ins);
    }
    const char *end = strstr(gt, "</tile>");
    if (!end) return NULL;
    const char *props = strstr(gt, "<properties>");
    if (props && props < end) {
        const char *old = strstr(props, "<property name=\"terrain\"");
        if (old && old < end) {
            const char *close = strstr(old, "/>");
            if (!close || close > end) return NULL;
            return splice(text, (size_t)(old - text), (size_t)(close + 2 - old), prop);
        }
        const char *after = props + strlen("<properties>");
        return splice(text, (size_t)(after - text), 0, prop);
    }
    char ins[300];
    snprintf(ins, sizeof ins, "<properties>%s</properties>", prop);
    return splice(text, (size_t)(gt + 1 - text), 0, ins);
}

/* The tileset element of firstgid first (first 0: the root <tileset>) in XML text. */
static bool xml_find_set(const char *text, uint32_t first, size_t *from, size_t *to)
{
    char want[48];
    snprintf(want, sizeof want, "firstgid=\"%u\"", (unsigned)first);
    for (const char *s = text; (s = strstr(s, "<tileset")); s++) {
        const char *gt = strchr(s, '>');
        if (!gt) return false;
        if (first) {
            const char *f = strstr(s, want);
            if (!f || f > gt) continue;
        }
        if (gt[-1] == '/') return false; /* an external one: not here */
        const char *end = strstr(gt, "</tileset>");
        if (!end) return false;
        *from = (size_t)(gt + 1 - text);
        *to = (size_t)(end - text);
        return true;
    }
    return false;
}

/* Write the choices that belong to FILE (the tileset of firstgid first in
 * it, first 0 for a tileset file). */
static int patch_file(const map_art_t *a, const char *file, const art_set_t *set, uint32_t first,
                      char *err, size_t errcap)
{
    char *text = NULL;
    size_t len = 0;
    int rc = hb_read_file(file, HB_FILE_MAX, &text, &len, err, errcap);
    if (rc) return rc;
    size_t n = strlen(file);
    bool json = n > 4 && (strcmp(file + n - 4, ".tmj") == 0 || strcmp(file + n - 4, ".tsj") == 0 ||
                          strcmp(file + n - 5, ".json") == 0);
    char *out = NULL;
    if (json) {
        cJSON *root = cJSON_Parse(text);
        cJSON *ts = root;
        if (root && first) {
            ts = NULL;
            cJSON *t;
            cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(root, "tilesets"))
            {
                cJSON *f = cJSON_GetObjectItemCaseSensitive(t, "firstgid");
                if (cJSON_IsNumber(f) && (uint32_t)f->valuedouble == first) ts = t;
            }
        }
        bool ok = ts != NULL;
        for (int i = 0; ok && i < a->n_choices; i++)
            if (art_set_of(a, a->choices[i].gid) == set)
                ok = json_set(ts, (int)((a->choices[i].gid & ART_GID_MASK) - set->firstgid),
                              a->choices[i].terrain);
        out = ok ? cJSON_Print(root) : NULL;
        cJSON_Delete(root);
    } else {
        out = text;
        text = NULL;
        for (int i = 0; out && i < a->n_choices; i++) {
            if (art_set_of(a, a->choices[i].gid) != set) continue;
            size_t from, to;
            char *next = xml_find_set(out, first, &from, &to)
                             ? xml_set(out, from, to,
                                       (int)((a->choices[i].gid & ART_GID_MASK) - set->firstgid),
                                       a->choices[i].terrain)
                             : NULL;
            free(out);
            out = next;
        }
    }
    free(text);
    if (!out) {
        snprintf(err, errcap, "%s: cannot find the tileset to write the tiles' terrain into", file);
        return HB_ERR_INPUT;
    }
    rc = hb_write_atomic(file, out, strlen(out), true, err, errcap);
    if (json)
        cJSON_free(out);
    else
        free(out);
    return rc;
}

int tiled_save_tile_terrain(const map_art_t *a, const char *map_path, char *err, size_t errcap)
{
    for (int i = 0; i < a->n_choices; i++)
        if (!io_is_id(a->choices[i].terrain) || !art_set_of(a, a->choices[i].gid)) {
            snprintf(err, errcap, "%s: tile gid %u: no such tile or terrain", map_path,
                     (unsigned)a->choices[i].gid);
            return HB_ERR_INPUT;
        }
    for (int s = 0; s < a->n_sets; s++) {
        const art_set_t *set = &a->sets[s];
        bool any = false;
        for (int i = 0; i < a->n_choices && !any; i++)
            any = art_set_of(a, a->choices[i].gid) == set;
        if (!any) continue;
        int rc;
        if (set->source[0]) {
            char dir[ART_DIR_MAX], file[ART_DIR_MAX + ART_PATH_MAX + 2];
            hb_dir_of(map_path, dir, sizeof dir);
            snprintf(file, sizeof file, "%s%s%s", dir, dir[0] ? "/" : "", set->source);
            rc = patch_file(a, file, set, 0, err, errcap);
        } else {
            rc = patch_file(a, map_path, set, set->firstgid, err, errcap);
        }
        if (rc) return rc;
    }
    return HB_OK;
}
