/* recent.c - recently opened maps and saves (recent.h). */
#include "recent.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../core/say.h"
#include "../platform/platform.h"
#include "fileio.h"
#include "map_io.h"
#include "save.h"

#define RECENT_FILE_MAX (256u * 1024u)

bool recent_file(char *out, size_t cap)
{
    char dir[RECENT_PATH_MAX];
    if (!save_autosave_dir(dir, sizeof dir)) return false;
    int n = snprintf(out, cap, "%s/recent.json", dir);
    return n > 0 && (size_t)n < cap;
}

void recent_load(const char *file, recent_t *r)
{
    memset(r, 0, sizeof *r);
    char *text = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    if (!file || hb_read_file(file, RECENT_FILE_MAX, &text, &len, err, sizeof err) != HB_OK)
        return;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "recent");
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        if (r->n >= RECENT_MAX) break;
        if (cJSON_IsString(e) && hb_fs_is_absolute(e->valuestring) &&
            hb_strlcpy(r->path[r->n], e->valuestring, RECENT_PATH_MAX))
            r->n++;
    }
    cJSON_Delete(root);
}

/* PATH made absolute against the working folder (the file need not exist). */
static bool absolute(const char *path, char *out, size_t cap)
{
    return hb_fs_absolute(path, out, cap) == 0;
}

static int recent_add_unescaped(const char *file, const char *path, char *err, size_t errcap)
{
    char abs_path[RECENT_PATH_MAX];
    if (!path || !*path || !absolute(path, abs_path, sizeof abs_path)) {
        snprintf(err, errcap, "%s: cannot name the file to remember", file);
        return HB_ERR_OTHER;
    }
    recent_t r;
    recent_load(file, &r);
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "recent");
    bool ok = list && cJSON_AddItemToArray(list, cJSON_CreateString(abs_path));
    for (int i = 0, kept = 1; ok && i < r.n && kept < RECENT_MAX; i++) {
        if (strcmp(r.path[i], abs_path) == 0) continue;
        ok = cJSON_AddItemToArray(list, cJSON_CreateString(r.path[i]));
        kept++;
    }
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        snprintf(err, errcap, "%s: out of memory", file);
        return HB_ERR_OTHER;
    }
    char dir[RECENT_PATH_MAX];
    hb_strlcpy(dir, file, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) *slash = '\0';
    int rc = HB_ERR_OTHER;
    if (!slash || hb_make_dirs(dir, 0777))
        rc = hb_write_atomic(file, text, strlen(text), false, err, errcap);
    else
        snprintf(err, errcap, "%s: cannot write: %s (making its folder)", file, strerror(errno));
    free(text);
    return rc;
}

/* The message names what the user gave: its control characters are shown. */
int recent_add(const char *file, const char *path, char *err, size_t errcap)
{
    int rc = recent_add_unescaped(file, path, err, errcap);
    if (rc != HB_OK) hb_escape_controls(err, errcap);
    return rc;
}
