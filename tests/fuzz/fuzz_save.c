/* fuzz_save.c - libFuzzer target: a saved battle from a stranger
 * (save_load_mem, then save_rebuild).
 *
 * Beyond "no crash, no leak, no UB" it checks what saves promise: a refusal
 * names the file; a save that rebuilds saves again to text that loads and
 * rebuilds to the same event log, the same state and the same text. */
#include <stdint.h>

#include "fuzz_common.h"
#include "io/save.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Do two battles hold the same events? */
static int same_log(const battle_t *a, const battle_t *b)
{
    if (a->log.n != b->log.n) return 0;
    for (int k = 0; k < a->log.n; k++)
        if (memcmp(&a->log.ev[k], &b->log.ev[k], sizeof a->log.ev[k]) != 0) return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_copy(data, size);
    if (!text) return 0;
    char err[HB_ERR_MAX];
    err[0] = '\0';
    save_t *s = NULL;
    int rc = save_load_mem(text, size, "fuzz.json", fuzz_data_dir(), &s, err, sizeof err);
    free(text);
    if (rc != HB_OK) {
        FUZZ_CHECK(rc == HB_ERR_INPUT || rc == HB_ERR_OTHER);
        FUZZ_CHECK(s == NULL);
        /* A broken data folder is named by its own file; anything else by ours. */
        FUZZ_CHECK(rc == HB_ERR_OTHER || fuzz_err_ok(err, sizeof err, "fuzz.json") ||
                   strstr(err, fuzz_data_dir()) == err);
        return 0;
    }
    play_t p;
    rc = save_rebuild(s, &p, err, sizeof err);
    if (rc != HB_OK) {
        FUZZ_CHECK(rc == HB_ERR_INPUT || rc == HB_ERR_OTHER);
        FUZZ_CHECK(p.b == NULL);
        FUZZ_CHECK(fuzz_err_ok(err, sizeof err, "fuzz.json"));
        save_free(s);
        return 0;
    }
    save_table_t t = s->table;
    char *again = save_to_json(&p, &t, s->map_file);
    FUZZ_CHECK(again != NULL);
    save_t *s2 = NULL;
    rc = save_load_mem(again, strlen(again), "again.json", fuzz_data_dir(), &s2, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "reload of a saved battle failed: %s\n", err);
    FUZZ_CHECK(rc == HB_OK);
    play_t q;
    rc = save_rebuild(s2, &q, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "rebuild of a saved battle failed: %s\n", err);
    FUZZ_CHECK(rc == HB_OK);
    FUZZ_CHECK(same_log(p.b, q.b));
    FUZZ_CHECK(q.b->round == p.b->round && q.b->over == p.b->over && q.pending == p.pending);
    char *third = save_to_json(&q, &t, s2->map_file);
    FUZZ_CHECK(third != NULL && strcmp(again, third) == 0);
    free(third);
    free(again);
    play_end(&q);
    save_free(s2);
    play_end(&p);
    save_free(s);
    return 0;
}
