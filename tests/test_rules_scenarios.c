/* test_rules_scenarios.c - runs every JSON file in tests/scenarios: a map (inline or
 * a path), a seed, the dice entered by hand, the commands, and the events that
 * must follow, in order, each a partial object (only the keys given are
 * compared). See tests/scenarios/README.md for the format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/cmd_json.h"
#include "io/event_json.h"
#include "io/map_io.h"
#include "rules/play.h"

#define MAX_SCENARIOS 512
#define PATH_CAP 1024

static char g_src_dir[PATH_CAP / 2]; /* tests/ (from __FILE__) */

static void set_src_dir(void)
{
    hb_strlcpy(g_src_dir, __FILE__, sizeof g_src_dir);
    char *slash = strrchr(g_src_dir, '/');
    if (slash)
        *slash = '\0';
    else
        hb_strlcpy(g_src_dir, ".", sizeof g_src_dir);
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

/* Does every key of `want` appear in `got` with a matching value? Objects
 * match partially and recursively; anything else must be equal. */
static bool partial_match(const cJSON *want, const cJSON *got)
{
    if (!got) return false;
    if (cJSON_IsObject(want)) {
        if (!cJSON_IsObject(got)) return false;
        const cJSON *k;
        cJSON_ArrayForEach(k, want)
        {
            if (!partial_match(k, cJSON_GetObjectItemCaseSensitive(got, k->string))) return false;
        }
        return true;
    }
    return cJSON_Compare(want, got, true);
}

typedef struct {
    char err[2048];
    play_t p;
    map_t *m;
    tmpl_db_t *db;
    cJSON **ev; /* the log as JSON */
    int n_ev;
} run_t;

static bool failf(run_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
    return false;
}

static void run_free(run_t *r)
{
    for (int k = 0; k < r->n_ev; k++)
        cJSON_Delete(r->ev[k]);
    free(r->ev);
    if (r->p.b) play_end(&r->p);
    tmpl_db_destroy(r->db);
    map_destroy(r->m);
}

/* Feed entered dice while the battle waits for them. */
static battle_status_t feed(run_t *r, battle_status_t st, const cJSON *dice, int *next,
                            bool *short_)
{
    int n = cJSON_GetArraySize(dice);
    while (st == BATTLE_NEED_DICE) {
        if (*next >= n) {
            *short_ = true;
            return st;
        }
        const cJSON *d = cJSON_GetArrayItem(dice, (*next)++);
        st = play_enter_die(&r->p, cJSON_IsNumber(d) ? d->valueint : 0);
    }
    return st;
}

static const char *status_name(battle_status_t st)
{
    static const char *const N[] = {"ok",    "need_dice", "illegal",
                                    "over",  "nomem",     "need_reaction"};
    return st >= 0 && st <= BATTLE_NEED_REACTION ? N[st] : "?";
}

/* Command k is {"ai": ID}: the ruleset's AI chooses every command of ID's
 * turn, which must be under way, until the turn passes or the battle ends.
 * Each must be accepted; the dice come from the list as for any command. */
static bool ai_turn(run_t *r, const char *id, const cJSON *dice, int *next, bool *short_, int k)
{
    battle_t *b = r->p.b;
    int who = -1;
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->map->combatants[i].id, id) == 0) who = i;
    if (who < 0) return failf(r, "command %d: no combatant '%s'", k, id);
    int actors[MAP_MAX_COMBATANTS];
    if (play_actors(&r->p, actors, MAP_MAX_COMBATANTS) <= 0 || actors[0] != who)
        return failf(r, "command %d: it is not %s's turn", k, id);
    for (int step = 0; step < 64; step++) {
        if (b->over || play_actors(&r->p, actors, MAP_MAX_COMBATANTS) <= 0 || actors[0] != who)
            return true;
        cmd_t c;
        b->frozen++;
        r->p.rs->ai(b, who, &c);
        b->frozen--;
        battle_status_t st = feed(r, play_apply(&r->p, &c), dice, next, short_);
        if (*short_)
            return failf(r, "command %d (the AI's %s) wants a d%d for '%s' but the dice ran out",
                         k, cmd_kind_name(c.kind), b->need.sides, b->need.why);
        if (st != BATTLE_OK && st != BATTLE_OVER)
            return failf(r, "command %d: the AI's %s was answered %s", k, cmd_kind_name(c.kind),
                         status_name(st));
    }
    return failf(r, "command %d: the AI did not end %s's turn in 64 commands", k, id);
}

/* Play scenario `sc` (parsed JSON; dir: where relative map paths start).
 * True when every expectation holds, else false with r->err saying why. */
static bool run_scenario(run_t *r, const cJSON *sc, const char *dir)
{
    memset(r, 0, sizeof *r);
    char derr[512], data_dir[PATH_CAP];
    if (snprintf(data_dir, sizeof data_dir, "%s/../data", g_src_dir) >= (int)sizeof data_dir)
        return failf(r, "source path too long");
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(sc, "map");
    int rc;
    if (cJSON_IsString(map)) {
        char path[PATH_CAP];
        if (snprintf(path, sizeof path, "%s/%s", dir, map->valuestring) >= (int)sizeof path)
            return failf(r, "map path too long");
        rc = map_load(path, data_dir, &r->m, &r->db, derr, sizeof derr);
    } else if (cJSON_IsObject(map)) {
        char *text = cJSON_PrintUnformatted(map);
        if (!text) return failf(r, "out of memory");
        rc = map_load_mem(text, strlen(text), "inline map", data_dir, &r->m, &r->db, derr,
                          sizeof derr);
        free(text);
    } else {
        return failf(r, "\"map\" must be a path or a map object");
    }
    if (rc != 0) return failf(r, "map: %s", derr);

    const cJSON *dice = cJSON_GetObjectItemCaseSensitive(sc, "dice");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(sc, "seed");
    battle_opts_t o = {.seed = cJSON_IsNumber(seed) ? (uint64_t)seed->valuedouble : 1,
                       .manual_all = cJSON_IsArray(dice)};
    const cJSON *gi = cJSON_GetObjectItemCaseSensitive(sc, "group_initiative");
    o.group_initiative = cJSON_IsTrue(gi);
    int next = 0;
    bool short_ = false;
    battle_status_t st = play_start(&r->p, r->m, r->db, NULL, &o);
    if (st == BATTLE_ILLEGAL || st == BATTLE_NOMEM)
        return failf(r, "the battle cannot start (%s)", status_name(st));
    /* Factions that want each of their reactions put to them; the answers
     * travel in each command's "reactions". Setup never reacts, so setting
     * this after the start changes nothing before the first command. */
    const cJSON *ask = cJSON_GetObjectItemCaseSensitive(sc, "ask");
    const cJSON *fv;
    cJSON_ArrayForEach(fv, ask)
    {
        int side = -1;
        for (int sd = 0; cJSON_IsString(fv) && sd < r->p.b->board->n_sides; sd++)
            if (strcmp(r->p.b->board->side_name[sd], fv->valuestring) == 0) side = sd;
        if (side < 0 || side >= 32) return failf(r, "\"ask\": no faction %s", fv->valuestring);
        r->p.b->opts.ask_sides |= 1u << side;
    }
    st = feed(r, st, dice, &next, &short_);
    if (short_)
        return failf(r, "setup wants a d%d for '%s' but the dice ran out", r->p.b->need.sides,
                     r->p.b->need.why);

    const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(sc, "commands");
    int k = 0;
    const cJSON *cv;
    cJSON_ArrayForEach(cv, cmds)
    {
        k++;
        const cJSON *ai = cJSON_GetObjectItemCaseSensitive(cv, "ai");
        if (cJSON_IsString(ai)) {
            /* The ruleset's AI plays that combatant's whole turn from here. */
            if (!ai_turn(r, ai->valuestring, dice, &next, &short_, k)) return false;
            continue;
        }
        cmd_t c;
        char cerr[256];
        if (!cmd_from_json(cv, r->m, &c, cerr, sizeof cerr))
            return failf(r, "command %d: %s", k, cerr);
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(cv, "expect");
        const char *want_st = cJSON_IsString(want) ? want->valuestring : "ok";
        st = feed(r, play_apply(&r->p, &c), dice, &next, &short_);
        if (short_)
            return failf(r, "command %d wants a d%d for '%s' but the dice ran out", k,
                         r->p.b->need.sides, r->p.b->need.why);
        const char *got = status_name(st);
        /* A command that ends the battle is still an accepted one. */
        if (strcmp(got, want_st) != 0 && !(st == BATTLE_OVER && strcmp(want_st, "ok") == 0) &&
            !(st == BATTLE_OK && r->p.b->over && strcmp(want_st, "over") == 0))
            return failf(r, "command %d: status %s, expected %s", k, got, want_st);
    }
    if (cJSON_IsArray(dice) && next != cJSON_GetArraySize(dice))
        return failf(r, "only %d of %d entered dice were used", next, cJSON_GetArraySize(dice));

    battle_t *b = r->p.b;
    r->n_ev = b->log.n;
    r->ev = calloc((size_t)(r->n_ev ? r->n_ev : 1), sizeof *r->ev);
    if (!r->ev) return failf(r, "out of memory");
    for (int e = 0; e < b->log.n; e++)
        if (!(r->ev[e] = event_to_json_in(b, &b->log.ev[e]))) return failf(r, "out of memory");

    /* Expected events: in order, each after the previous match. */
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(sc, "expect");
    int from = 0, idx = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, exp)
    {
        idx++;
        int hit = -1;
        for (int e = from; e < r->n_ev && hit < 0; e++)
            if (partial_match(ev, r->ev[e])) hit = e;
        if (hit < 0) {
            char *w = cJSON_PrintUnformatted(ev);
            failf(r, "expected event %d not found after event %d: %s", idx, from - 1, w ? w : "?");
            free(w);
            return false;
        }
        from = hit + 1;
    }
    const cJSON *absent = cJSON_GetObjectItemCaseSensitive(sc, "absent");
    cJSON_ArrayForEach(ev, absent)
    {
        for (int e = 0; e < r->n_ev; e++)
            if (partial_match(ev, r->ev[e])) {
                char *w = cJSON_PrintUnformatted(ev);
                failf(r, "event %d should not happen: %s", e, w ? w : "?");
                free(w);
                return false;
            }
    }
    const cJSON *winner = cJSON_GetObjectItemCaseSensitive(sc, "winner");
    if (cJSON_IsString(winner)) {
        const char *name = b->winner >= 0 ? b->board->side_name[b->winner] : "none";
        if (!b->over || strcmp(name, winner->valuestring) != 0)
            return failf(r, "winner %s (over: %d), expected %s", name, b->over,
                         winner->valuestring);
    }
    return true;
}

static void dump(const run_t *r)
{
    for (int e = 0; e < r->n_ev; e++) {
        char *line = cJSON_PrintUnformatted(r->ev[e]);
        fprintf(stderr, "  %3d %s\n", e, line ? line : "?");
        free(line);
    }
}

static cJSON *load_scenario(const char *path)
{
    size_t len = 0;
    char *text = read_text(path, &len);
    if (!text) return NULL;
    cJSON *sc = cJSON_ParseWithLength(text, len);
    free(text);
    return sc;
}

static char g_dir[PATH_CAP];

static void test_scenario(void **state)
{
    const char *name = *state;
    char path[PATH_CAP * 2];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    cJSON *sc = load_scenario(path);
    if (!sc) fail_msg("%s: cannot read or parse", name);
    run_t r;
    bool ok = run_scenario(&r, sc, g_dir);
    if (ok && getenv("HB_SCENARIO_DUMP"))
        dump(&r); /* for writing a new scenario: see the whole log */
    if (!ok) {
        dump(&r);
        char msg[sizeof r.err];
        hb_strlcpy(msg, r.err, sizeof msg);
        run_free(&r);
        cJSON_Delete(sc);
        fail_msg("%s: %s", name, msg);
    }
    run_free(&r);
    cJSON_Delete(sc);
}

/* The runner itself must fail when an expectation is wrong: every scenario
 * with expectations, with its last expected event's first number or string
 * changed, must no longer pass. */
static void test_runner_catches_wrong_expectations(void **state)
{
    (void)state;
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    int checked = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 6 || strcmp(de->d_name + n - 5, ".json") != 0) continue;
        char path[PATH_CAP * 2];
        snprintf(path, sizeof path, "%s/%s", g_dir, de->d_name);
        cJSON *sc = load_scenario(path);
        assert_non_null(sc);
        cJSON *exp = cJSON_GetObjectItemCaseSensitive(sc, "expect");
        int ne = cJSON_GetArraySize(exp);
        cJSON *last = ne > 0 ? cJSON_GetArrayItem(exp, ne - 1) : NULL;
        cJSON *field = NULL, *f;
        cJSON_ArrayForEach(f, last)
        {
            if (!field && (cJSON_IsNumber(f) || (cJSON_IsString(f) && strcmp(f->string, "event"))))
                field = f;
        }
        if (field) {
            if (cJSON_IsNumber(field))
                cJSON_SetNumberValue(field, field->valuedouble + 1000);
            else
                cJSON_SetValuestring(field, "no-such-value");
            run_t r;
            bool ok = run_scenario(&r, sc, g_dir);
            run_free(&r);
            if (ok) fail_msg("%s still passes with a wrong expectation", de->d_name);
            checked++;
        }
        cJSON_Delete(sc);
    }
    closedir(d);
    assert_true(checked >= 10);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    set_src_dir();
    snprintf(g_dir, sizeof g_dir, "%s/scenarios", g_src_dir);
    static char *names[MAX_SCENARIOS];
    int n = 0;
    DIR *d = opendir(g_dir);
    if (!d) {
        fprintf(stderr, "no scenario folder at %s\n", g_dir);
        return 1;
    }
    struct dirent *de;
    while ((de = readdir(d)) && n < MAX_SCENARIOS) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    struct CMUnitTest *tests = calloc((size_t)n + 1, sizeof *tests);
    if (!tests) return 1;
    for (int k = 0; k < n; k++) {
        tests[k] = (struct CMUnitTest)cmocka_unit_test_prestate(test_scenario, names[k]);
        tests[k].name = names[k];
    }
    tests[n] = (struct CMUnitTest)cmocka_unit_test(test_runner_catches_wrong_expectations);
    int rc = _cmocka_run_group_tests("scenarios", tests, (size_t)n + 1, NULL, NULL);
    for (int k = 0; k < n; k++)
        free(names[k]);
    free(tests);
    return rc;
}
