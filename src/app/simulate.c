/* simulate.c - hexbattle simulate MAP --seed N [--max-rounds R] [--save FILE]:
 * every side played by the ruleset's AI, the event log printed as JSON Lines.
 * The same map and seed always print the same bytes. --save also writes the
 * finished battle as a save (docs/saves.md), so `replay FILE --events` can be
 * checked against what was printed. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "core/say.h"
#include "io/event_json.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/save.h"
#include "rules/play.h"

#define EXIT_BAD 2
#define EXIT_FAIL 1
#define DEFAULT_MAX_ROUNDS 100

static int usage(const char *why, const char *arg)
{
    hb_eprintf("hexbattle: simulate: ");
    hb_eprintf(why, arg);
    fprintf(stderr, "\nusage: hexbattle simulate MAP --seed N [--max-rounds R] [--save FILE]\n");
    return EXIT_BAD;
}

/* A whole-string unsigned decimal. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

int app_simulate(int argc, char **argv)
{
    const char *map_path = NULL, *save_path = NULL;
    uint64_t seed = 0, rounds = DEFAULT_MAX_ROUNDS;
    bool have_seed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--seed") == 0) {
            if (!parse_u64(v, &seed))
                return usage("--seed needs a whole number 0..2^64-1, got '%s'", v ? v : "");
            have_seed = true;
            i++;
        } else if (strcmp(a, "--max-rounds") == 0) {
            if (!parse_u64(v, &rounds) || rounds < 1 || rounds > 100000)
                return usage("--max-rounds needs a whole number 1..100000, got '%s'", v ? v : "");
            i++;
        } else if (strcmp(a, "--save") == 0) {
            if (!v || !*v) return usage("%s", "--save needs a file name");
            save_path = v;
            i++;
        } else if (a[0] == '-') {
            return usage("unknown option '%s'", a);
        } else if (!map_path) {
            map_path = a;
        } else {
            return usage("unexpected argument '%s'", a);
        }
    }
    if (!map_path)
        return usage("%s", "needs a map");
    if (!have_seed)
        return usage("%s", "needs --seed N");

    char err[HB_ERR_MAX];
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = app_load_map(map_path, &m, &db);
    if (rc != HB_OK) return rc;
    const ruleset_t *rs = ruleset_find(m->ruleset);
    if (!rs || !rs->setup) {
        hb_eprintf("hexbattle: %s: ruleset: '%s' cannot be simulated\n", map_path, m->ruleset);
        tmpl_db_destroy(db);
        map_destroy(m);
        return EXIT_BAD;
    }
    battle_opts_t opts = {.seed = seed, .max_rounds = (int)rounds};
    play_t p;
    battle_status_t st = play_start(&p, m, db, rs, &opts);
    if (st == BATTLE_OK)
        st = play_auto(&p, (int)rounds);
    if (st != BATTLE_OK) {
        hb_eprintf("hexbattle: simulate: %s\n", st == BATTLE_NOMEM ? "out of memory"
                                                : st == BATTLE_ERROR
                                                    ? p.error
                                                    : "the battle could not be played");
        rc = EXIT_FAIL;
    } else {
        for (int k = 0; k < p.b->log.n && rc == 0; k++) {
            char *line = event_to_line_in(p.b, &p.b->log.ev[k]);
            if (!line) {
                hb_eprintf("hexbattle: out of memory\n");
                rc = EXIT_FAIL;
                break;
            }
            fputs(line, stdout);
            fputc('\n', stdout);
            free(line);
        }
        /* A failed save (full or read-only disk) leaves any old file whole;
         * it is a failure of the run, not bad input. */
        if (rc == 0 && save_path &&
            save_write(save_path, &p, NULL, map_path, true, err, sizeof err) != HB_OK) {
            hb_eprintf("hexbattle: %s\n", err);
            rc = EXIT_FAIL;
        }
    }
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}
