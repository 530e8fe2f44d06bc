/* odds.c - hexbattle odds MAP|SAVE [--runs N] [--seed S] [--threads T]: the
 * battle played out N times from its start (a map) or from where it stands
 * (a save) with the AI on every side, and the outcomes as one line of JSON
 * (docs/odds.md). The same seed and runs give the same answer whatever the
 * thread count; only "ms" changes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app.h"
#include "core/board.h"
#include "core/say.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/odds_pool.h"
#include "io/save.h"
#include "platform/platform.h"


#define EXIT_BAD 2
#define EXIT_FAIL 1
#define DEFAULT_RUNS 1000
#define DEFAULT_SEED 1

static int usage(const char *why, const char *arg)
{
    hb_eprintf("hexbattle: odds: ");
    hb_eprintf(why, arg);
    fprintf(stderr, "\nusage: hexbattle odds MAP|SAVE [--runs N] [--seed S] [--threads T]\n");
    return EXIT_BAD;
}

/* A whole-string unsigned decimal no larger than max. */
static bool parse_num(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max) return false;
    *out = (uint64_t)v;
    return true;
}

/* x to 4 decimals, so the printed numbers do not carry float noise. */
static double dec4(double x)
{
    return round(x * 1e4) / 1e4;
}

/* The answer line: shares of the runs played, sides and ids named as the
 * board and the map name them. */
static cJSON *answer(const odds_progress_t *pr, const board_t *bd, const map_t *m)
{
    const odds_tally_t *t = &pr->tally;
    long n = odds_played(t);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "runs", (double)n);
    cJSON *sides = cJSON_AddObjectToObject(j, "sides");
    for (int s = 0; s < bd->n_sides; s++) {
        double lo, hi, p = odds_share(t->win[s], n, &lo, &hi);
        cJSON *o = cJSON_AddObjectToObject(sides, bd->side_name[s]);
        cJSON_AddNumberToObject(o, "win", dec4(p));
        double ci[2] = {dec4(lo), dec4(hi)};
        cJSON_AddItemToObject(o, "ci", cJSON_CreateDoubleArray(ci, 2));
    }
    double lo, hi;
    cJSON_AddNumberToObject(j, "none", dec4(odds_share(t->none, n, &lo, &hi)));
    double mean, sd;
    odds_rounds(t, &mean, &sd);
    cJSON *r = cJSON_AddObjectToObject(j, "rounds");
    cJSON_AddNumberToObject(r, "mean", dec4(mean));
    cJSON_AddNumberToObject(r, "sd", dec4(sd));
    cJSON *d = cJSON_AddObjectToObject(j, "defeated");
    for (int i = 0; i < m->n_combatants && i < t->n; i++)
        cJSON_AddNumberToObject(d, m->combatants[i].id, dec4(odds_share(t->out[i], n, &lo, &hi)));
    cJSON_AddNumberToObject(j, "ms", round(pr->ms));
    return j;
}

/* Play the runs on a pool, watching it: on a terminal, stderr shows how many
 * runs are done; Ctrl+C (or SIGTERM, SIGHUP) drops the job, joins the
 * threads, says how far it came, and the process ends by that signal. False
 * on OOM or when the threads cannot start. */
static bool run_watched(const odds_base_t *base, uint64_t seed, long runs, int threads,
                        odds_progress_t *pr)
{
    odds_pool_t *pool = odds_pool_create(threads);
    if (!pool) return false;
    if (!odds_pool_start(pool, 0, base, NULL, seed, runs)) {
        odds_pool_destroy(pool);
        return false;
    }
    bool tty = hb_fs_is_terminal(2);
    hb_plat_stop_install();
    double shown = hb_plat_now_ms();
    while (odds_pool_busy(pool, 0)) {
        if (hb_plat_stop_caught()) {
            odds_pool_read(pool, 0, pr);
            odds_pool_destroy(pool);
            fprintf(stderr, "%shexbattle: odds: stopped after %ld of %ld runs\n",
                    tty ? "\r\033[K" : "", pr->tally.runs, runs);
            hb_plat_stop_exit();
            return false;
        }
        if (tty && hb_plat_now_ms() - shown >= 250) {
            odds_pool_read(pool, 0, pr);
            fprintf(stderr, "\rhexbattle: odds: %ld of %ld runs", pr->tally.runs, runs);
            fflush(stderr);
            shown = hb_plat_now_ms();
        }
        hb_plat_sleep_ms(10);
    }
    odds_pool_read(pool, 0, pr);
    odds_pool_destroy(pool);
    if (tty) fputs("\r\033[K", stderr);
    return true;
}

/* Run the job and print its line; the exit status. */
static int run_and_print(const odds_base_t *base, const board_t *bd, uint64_t seed, long runs,
                         int threads)
{
    odds_progress_t pr;
    if (!run_watched(base, seed, runs, threads, &pr)) {
        hb_eprintf("hexbattle: odds: out of memory or no threads\n");
        return EXIT_FAIL;
    }
    if (pr.first_failure >= 0) {
        hb_eprintf("hexbattle: odds: run %d (seed %llu) could not be played: %s\n",
                   pr.first_failure, (unsigned long long)odds_run_seed(seed, pr.first_failure),
                   pr.error[0]                    ? pr.error
                   : pr.failure == BATTLE_NOMEM   ? "out of memory"
                   : pr.failure == BATTLE_ILLEGAL ? "the battle does not rebuild"
                                                  : "the rules refused it");
        return EXIT_FAIL;
    }
    if (app_print_json(answer(&pr, bd, base->map)) != 0) return EXIT_FAIL;
    return fflush(stdout) == 0 ? 0 : EXIT_FAIL;
}

/* From a map's first moment. */
static int odds_map(const char *path, uint64_t seed, long runs, int threads)
{
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = app_load_map(path, &m, &db);
    if (rc != HB_OK) return rc;
    const ruleset_t *rs = ruleset_find(m->ruleset);
    board_t *bd = board_create(m);
    if (!rs || !rs->setup) {
        hb_eprintf("hexbattle: %s: ruleset: '%s' cannot be played\n", path, m->ruleset);
        rc = EXIT_BAD;
    } else if (!bd) {
        hb_eprintf("hexbattle: out of memory\n");
        rc = EXIT_FAIL;
    } else {
        odds_base_t base = {.map = m, .db = db, .rs = rs, .from_start = true};
        rc = run_and_print(&base, bd, seed, runs, threads);
    }
    board_destroy(bd);
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}

/* From where a saved battle stands. */
static int odds_save(const char *path, uint64_t seed, long runs, int threads)
{
    char err[HB_ERR_MAX];
    save_t *s = NULL;
    play_t p;
    memset(&p, 0, sizeof p);
    save_note_t note;
    int rc = save_load(path, NULL, &s, err, sizeof err);
    if (rc == HB_OK) rc = save_rebuild_ex(s, &p, &note, err, sizeof err);
    if (rc != HB_OK) {
        hb_eprintf("hexbattle: %s\n", err);
        save_free(s);
        return rc;
    }
    /* A save of other rules is played on from where today's rules take it. */
    if (note.text[0]) hb_eprintf("hexbattle: note: %s\n", note.text);
    odds_base_t base = odds_base_of(&p);
    rc = run_and_print(&base, p.b->board, seed, runs, threads);
    play_end(&p);
    save_free(s);
    return rc;
}

int app_odds(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t seed = DEFAULT_SEED, runs = DEFAULT_RUNS, threads = (uint64_t)odds_cpu_count();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--runs") == 0) {
            if (!parse_num(v, ODDS_MAX_RUNS, &runs) || runs < 1)
                return usage("--runs needs a whole number 1..1000000, got '%s'", v ? v : "");
            i++;
        } else if (strcmp(a, "--seed") == 0) {
            if (!parse_num(v, UINT64_MAX, &seed))
                return usage("--seed needs a whole number 0..2^64-1, got '%s'", v ? v : "");
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            if (!parse_num(v, ODDS_MAX_THREADS, &threads) || threads < 1)
                return usage("--threads needs a whole number 1..64, got '%s'", v ? v : "");
            i++;
        } else if (a[0] == '-') {
            return usage("unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else {
            return usage("unexpected argument '%s'", a);
        }
    }
    if (!path) return usage("%s", "needs a map or a saved battle");
    /* More threads than processors only cost memory (a battle each): the
     * answer is the same on any number, so the count is capped, and said. */
    uint64_t cores = (uint64_t)odds_cpu_count();
    if (threads > cores) {
        hb_eprintf("hexbattle: odds: --threads %llu capped at the %llu processors there are\n",
                   (unsigned long long)threads, (unsigned long long)cores);
        threads = cores;
    }
    if (app_is_save(path)) return odds_save(path, seed, (long)runs, (int)threads);
    return odds_map(path, seed, (long)runs, (int)threads);
}
