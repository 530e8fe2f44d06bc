/* common.c - what several command-line entry points share (app.h): loading
 * the map they are given, and printing a JSON answer. */
#include <stdio.h>

#include "app.h"
#include "io/fileio.h"

int app_load_map(const char *path, map_t **m, tmpl_db_t **db)
{
    char err[HB_ERR_MAX];
    int rc = map_load(path, hb_data_dir(), m, db, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "hexbattle: %s\n", err);
    /* A map read with a warning (a Tiled tile naming no terrain): one line,
     * on stderr, so an answer on stdout stays clean. */
    if (rc == HB_OK && (*m)->art && (*m)->art->warn[0])
        fprintf(stderr, "hexbattle: %s: %s\n", path, (*m)->art->warn);
    return rc;
}

int app_print_json(cJSON *j)
{
    char *s = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!s) {
        fprintf(stderr, "hexbattle: out of memory\n");
        return 1;
    }
    puts(s);
    cJSON_free(s);
    return 0;
}
