/* common.c - what several command-line entry points share (app.h): loading
 * the map they are given, and printing a JSON answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "core/say.h"
#include "io/fileio.h"
#include "io/save.h"

int app_load_map(const char *path, map_t **m, tmpl_db_t **db)
{
    char err[HB_ERR_MAX];
    int rc = map_load(path, hb_data_dir(), m, db, err, sizeof err);
    if (rc != HB_OK) hb_eprintf("hexbattle: %s\n", err);
    /* A map read with a warning (a Tiled tile naming no terrain): one line,
     * on stderr, so an answer on stdout stays clean. */
    if (rc == HB_OK && (*m)->art && (*m)->art->warn[0])
        hb_eprintf("hexbattle: %s: %s\n", path, (*m)->art->warn);
    return rc;
}

int app_print_json(cJSON *j)
{
    char *s = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!s) {
        hb_eprintf("hexbattle: out of memory\n");
        return 1;
    }
    puts(s);
    cJSON_free(s);
    return 0;
}

/* Is the JSON file at path a saved battle (rather than a map)? */
bool app_is_save(const char *path)
{
    char *text = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    if (hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err) != HB_OK) return false;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "format");
    bool save = cJSON_IsString(f) && strcmp(f->valuestring, SAVE_FORMAT) == 0;
    cJSON_Delete(root);
    return save;
}
