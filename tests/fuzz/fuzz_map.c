/* fuzz_map.c - libFuzzer target: a map file from a stranger (map_load_mem).
 *
 * Beyond "no crash, no leak, no UB", it checks what the loader promises:
 * a refusal names the file, and an accepted map saves to JSON that loads
 * again into the same JSON (so a saved map can always be reopened). */
#include <stdint.h>

#include "fuzz_common.h"
#include "io/map_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_copy(data, size);
    if (!text) return 0;
    char err[HB_ERR_MAX];
    err[0] = '\0';
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = map_load_mem(text, size, "fuzz.json", fuzz_data_dir(), &m, &db, err, sizeof err);
    free(text);
    if (rc != HB_OK) {
        FUZZ_CHECK(rc == HB_ERR_INPUT || rc == HB_ERR_OTHER);
        FUZZ_CHECK(m == NULL && db == NULL);
        FUZZ_CHECK(fuzz_err_ok(err, sizeof err, "fuzz.json"));
        return 0;
    }
    FUZZ_CHECK(m != NULL && db != NULL);
    FUZZ_CHECK(m->cols > 0 && m->rows > 0);
    FUZZ_CHECK(m->n_combatants >= 0 && m->n_combatants <= MAP_MAX_COMBATANTS);
    for (int i = 0; i < m->n_combatants; i++)
        FUZZ_CHECK(map_in_bounds(m, m->combatants[i].at));

    char *json = map_to_json(m);
    FUZZ_CHECK(json != NULL);
    map_t *again = NULL;
    rc = map_load_mem(json, strlen(json), "saved.json", fuzz_data_dir(), &again, NULL, err,
                      sizeof err);
    if (rc != HB_OK) fprintf(stderr, "reload of a saved map failed: %s\n", err);
    FUZZ_CHECK(rc == HB_OK);
    char *json2 = map_to_json(again);
    FUZZ_CHECK(json2 != NULL && strcmp(json, json2) == 0);
    free(json2);
    free(json);
    map_destroy(again);
    map_destroy(m);
    tmpl_db_destroy(db);
    return 0;
}
