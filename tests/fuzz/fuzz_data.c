/* fuzz_data.c - libFuzzer target: a ruleset's weapons.json and
 * templates.json (tmpl_db_load_mem).
 *
 * Input layout: WEAPONS "\n---\n" TEMPLATES. Without the separator the whole
 * input is the templates file and the weapons are the shipped ones, so the
 * fuzzer also explores templates that name real weapons. The ruleset is
 * "scars" or "surface" when the input mentions it, else "xhalem", so every
 * shipped ruleset's files make useful seeds. */
#include <stdint.h>

#include "fuzz_common.h"
#include "io/map_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char SEP[] = "\n---\n";

/* The shipped weapons of ruleset rs, read once (a leak-free static cache:
 * the fuzzer process owns it until exit). */
static const char *shipped_weapons(const char *rs, size_t *len)
{
    static char *cache[3];
    static size_t cache_len[3];
    int k = strcmp(rs, "scars") == 0 ? 1 : strcmp(rs, "surface") == 0 ? 2 : 0;
    if (!cache[k]) {
        char path[4096], err[HB_ERR_MAX];
        snprintf(path, sizeof path, "%s/%s/weapons.json", fuzz_data_dir(), rs);
        if (hb_read_file(path, HB_FILE_MAX, &cache[k], &cache_len[k], err, sizeof err)) {
            fprintf(stderr, "fuzz_data: %s\n", err);
            abort();
        }
    }
    *len = cache_len[k];
    return cache[k];
}

/* memmem without _GNU_SOURCE. */
static const unsigned char *find(const unsigned char *h, size_t hn, const char *n, size_t nn)
{
    for (size_t i = 0; i + nn <= hn; i++)
        if (memcmp(h + i, n, nn) == 0) return h + i;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *rs = find(data, size, "\"scars\"", 7)     ? "scars"
                     : find(data, size, "\"surface\"", 9) ? "surface"
                                                          : "xhalem";
    const unsigned char *sep = find(data, size, SEP, sizeof SEP - 1);
    char *w, *t;
    size_t wlen, tlen;
    if (sep) {
        wlen = (size_t)(sep - data);
        tlen = size - wlen - (sizeof SEP - 1);
        w = fuzz_copy(data, wlen);
        t = fuzz_copy(sep + sizeof SEP - 1, tlen);
    } else {
        const char *real = shipped_weapons(rs, &wlen);
        w = fuzz_copy((const unsigned char *)real, wlen);
        tlen = size;
        t = fuzz_copy(data, size);
    }
    if (!w || !t) {
        free(w);
        free(t);
        return 0;
    }
    char err[HB_ERR_MAX];
    err[0] = '\0';
    tmpl_db_t *db = NULL;
    int rc = tmpl_db_load_mem(rs, w, wlen, "weapons.json", t, tlen, "templates.json", &db, err,
                              sizeof err);
    free(w);
    free(t);
    if (rc != HB_OK) {
        FUZZ_CHECK(db == NULL);
        FUZZ_CHECK(fuzz_err_ok(err, sizeof err, "weapons.json") ||
                   fuzz_err_ok(err, sizeof err, "templates.json"));
        return 0;
    }
    FUZZ_CHECK(db != NULL);
    FUZZ_CHECK(db->n_weapons >= 0 && db->n_weapons <= WEAPON_MAX);
    FUZZ_CHECK(db->n_templates >= 0 && db->n_templates <= TMPL_MAX);
    for (int i = 0; i < db->n_weapons; i++) {
        const weapon_t *wp = &db->weapons[i];
        FUZZ_CHECK(wp->dice_n >= 1 && wp->dice_n <= 100);
        FUZZ_CHECK(wp->dice_sides >= 2 && wp->dice_sides <= 1000);
        FUZZ_CHECK(wp->dice_bonus >= 0 && wp->dice_bonus <= 1000);
        FUZZ_CHECK(tmpl_find_weapon(db, wp->id) == wp);
    }
    /* A template may only name weapons that exist: the rules look them up. */
    for (int i = 0; i < db->n_templates; i++) {
        const tmpl_t *tp = &db->templates[i];
        FUZZ_CHECK(tp->hp >= 1);
        for (int k = 0; k < tp->n_weapons; k++)
            FUZZ_CHECK(tmpl_find_weapon(db, tp->weapons[k]) != NULL);
    }
    tmpl_db_destroy(db);
    return 0;
}
