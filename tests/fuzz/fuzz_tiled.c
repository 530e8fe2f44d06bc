/* fuzz_tiled.c - libFuzzer target: a Tiled map from a stranger
 * (tiled_load_mem), read as .tmx when it starts with '<', else as .tmj.
 *
 * Beyond "no crash, no leak, no UB": a refusal names the file, and an
 * accepted map written back as a Tiled map of the same format reads again
 * into the same map (the round trip the converter promises). External
 * tilesets are looked up beside the name, in a folder that does not exist,
 * so the fuzzer never reads files. */
#include <stdint.h>

#include "fuzz_common.h"
#include "io/map_io.h"
#include "io/tiled.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_copy(data, size);
    if (!text) return 0;
    bool xml = size > 0 && data[0] == '<';
    const char *name = xml ? "/nonexistent/fuzz.tmx" : "/nonexistent/fuzz.tmj";
    char err[HB_ERR_MAX], note[TILED_NOTE_MAX];
    err[0] = '\0';
    map_t *m = NULL;
    int rc = tiled_load_mem(text, size, name, fuzz_data_dir(), &m, NULL, note, sizeof note, err,
                            sizeof err);
    free(text);
    if (rc != HB_OK) {
        FUZZ_CHECK(rc == HB_ERR_INPUT || rc == HB_ERR_OTHER);
        FUZZ_CHECK(m == NULL);
        FUZZ_CHECK(fuzz_err_ok(err, sizeof err, name));
        return 0;
    }
    FUZZ_CHECK(m != NULL && m->cols > 0 && m->rows > 0);
    char *want = map_to_json(m);
    char *tiled = tiled_to_text(m, xml ? TILED_TMX : TILED_TMJ, NULL);
    FUZZ_CHECK(want != NULL && tiled != NULL);
    map_t *again = NULL;
    rc = tiled_load_mem(tiled, strlen(tiled), name, fuzz_data_dir(), &again, NULL, NULL, 0, err,
                        sizeof err);
    if (rc != HB_OK) fprintf(stderr, "reload of a written Tiled map failed: %s\n", err);
    FUZZ_CHECK(rc == HB_OK);
    char *got = map_to_json(again);
    FUZZ_CHECK(got != NULL && strcmp(got, want) == 0);
    free(got);
    free(tiled);
    free(want);
    map_destroy(again);
    map_destroy(m);
    return 0;
}
