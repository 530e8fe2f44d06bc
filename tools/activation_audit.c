/* activation_audit.c - plays many AI battles of an activation map and counts
 * which actions the AI uses (issue 15: Slam, Scatter, Toxin Dart).
 *
 *   activation_audit [--seeds N] [--first S] [--markdown] MAP
 *
 * Each battle is played as `hexbattle simulate MAP --seed S` plays it (every
 * side by the ruleset's AI, at most 100 rounds), seeds S..S+N-1 (1..200 by
 * default). The log is then read: an action is used when it is declared at
 * once (an own action or an interrupt), or when a telegraph of it lands
 * ([Delay X], Hold!). For each action of the map's combatants: the uses,
 * those made as interrupts (outside the user's own activation), the battles
 * with at least one use, and the battles in which a combatant carrying it
 * was on the field; then the win rate of each side and the rounds per
 * battle. One JSON object, or with --markdown the table of
 * docs/rules-activation.md. `make activation-audit` runs it over 200 seeds
 * of maps/shattered_lane.json. Exit status 2 for bad input, 1 when a battle
 * broke, 0 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/map_io.h"
#include "rules/play.h"

#define MAX_ROUNDS 100
#define MAX_ACTIONS 64

typedef struct {
    char id[MAP_ID_MAX];
    long uses, interrupts, battles_used, battles_carried;
} row_t;

typedef struct {
    row_t row[MAX_ACTIONS];
    int n;
    long battles, rounds, wins[MAP_MAX_FACTIONS], none;
    int n_sides;
    char side_name[MAP_MAX_FACTIONS][MAP_ID_MAX];
} audit_t;

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static row_t *row_of(audit_t *au, const char *id)
{
    for (int k = 0; k < au->n; k++)
        if (strcmp(au->row[k].id, id) == 0) return &au->row[k];
    if (au->n == MAX_ACTIONS) return NULL;
    row_t *r = &au->row[au->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", id);
    return r;
}

/* Read one finished battle's log into the counts. */
static void count(const battle_t *b, audit_t *au)
{
    bool used[MAX_ACTIONS] = {false}, carried[MAX_ACTIONS] = {false};
    /* Every action some combatant carries, and Grab and Struggle, which all
     * may use. */
    row_t *r;
    if ((r = row_of(au, "grab"))) carried[r - au->row] = true;
    if ((r = row_of(au, "struggle"))) carried[r - au->row] = true;
    for (int i = 0; i < b->n; i++)
        for (int w = 0; w < b->map->combatants[i].n_weapons; w++)
            if ((r = row_of(au, b->map->combatants[i].weapons[w]))) carried[r - au->row] = true;
    int actor = -1;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_TURN_START) actor = e->who;
        /* A move action (Dash) and a free Guard are announced as actions,
         * not declared. */
        bool moved = e->type == EV_ACTION && e->hit && k > 0 &&
                     !(b->log.ev[k - 1].type == EV_DECLARE &&
                       strcmp(b->log.ev[k - 1].name, e->name) == 0);
        if (moved) {
            for (int q = 0; q < au->n; q++)
                if (strcmp(au->row[q].id, e->name) == 0 && carried[q]) {
                    au->row[q].uses++;
                    au->row[q].interrupts += e->who != actor;
                    used[q] = true;
                }
            continue;
        }
        if (e->type != EV_DECLARE) continue;
        /* A telegraph counts once, as it lands (its countdown is announced too). */
        if ((e->opt & EV_OPT_VALUE) && e->value != 0) continue;
        if (!(r = row_of(au, e->name))) continue;
        r->uses++;
        if (!(e->opt & EV_OPT_VALUE) && e->who != actor) r->interrupts++;
        used[r - au->row] = true;
    }
    for (int k = 0; k < au->n; k++) {
        au->row[k].battles_used += used[k];
        au->row[k].battles_carried += carried[k];
    }
}

static int battle(const map_t *m, const tmpl_db_t *db, uint64_t seed, audit_t *au)
{
    play_t p;
    memset(&p, 0, sizeof p);
    battle_opts_t o = {.seed = seed, .max_rounds = MAX_ROUNDS};
    battle_status_t st = play_start(&p, m, db, NULL, &o);
    if (st == BATTLE_OK) st = play_auto(&p, MAX_ROUNDS);
    if (st != BATTLE_OK && st != BATTLE_OVER) {
        fprintf(stderr, "activation_audit: seed %llu stopped (status %d)\n",
                (unsigned long long)seed, (int)st);
        play_end(&p);
        return 1;
    }
    const battle_t *b = p.b;
    count(b, au);
    au->battles++;
    au->rounds += b->round;
    if (b->winner >= 0 && b->winner < MAP_MAX_FACTIONS)
        au->wins[b->winner]++;
    else
        au->none++;
    au->n_sides = b->board->n_sides;
    for (int sd = 0; sd < au->n_sides && sd < MAP_MAX_FACTIONS; sd++)
        snprintf(au->side_name[sd], sizeof au->side_name[sd], "%s", b->board->side_name[sd]);
    play_end(&p);
    return 0;
}

static void print_json(const char *path, const audit_t *au, long seeds, long first)
{
    printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,\"actions\":{", path, seeds, first);
    for (int k = 0; k < au->n; k++) {
        const row_t *r = &au->row[k];
        printf("%s\"%s\":{\"uses\":%ld,\"interrupts\":%ld,\"battles_used\":%ld,"
               "\"battles_carried\":%ld}",
               k ? "," : "", r->id, r->uses, r->interrupts, r->battles_used, r->battles_carried);
    }
    printf("},\"wins\":{");
    for (int sd = 0; sd < au->n_sides; sd++)
        printf("%s\"%s\":%.3f", sd ? "," : "", au->side_name[sd],
               (double)au->wins[sd] / (double)au->battles);
    printf("},\"no_winner\":%ld,\"rounds_mean\":%.2f}\n", au->none,
           (double)au->rounds / (double)au->battles);
}

static void print_markdown(const char *path, const audit_t *au, long seeds, long first)
{
    const char *s = strrchr(path, '/');
    printf("| action (%s, %ld seeds from %ld) | uses | as interrupts | battles used in | "
           "uses per battle |\n|---|---:|---:|---:|---:|\n",
           s ? s + 1 : path, seeds, first);
    for (int k = 0; k < au->n; k++) {
        const row_t *r = &au->row[k];
        printf("| %s | %ld | %ld | %ld of %ld | %.2f |\n", r->id, r->uses, r->interrupts,
               r->battles_used, r->battles_carried, (double)r->uses / (double)au->battles);
    }
    printf("\nWins:");
    for (int sd = 0; sd < au->n_sides; sd++)
        printf("%s %s %.1f%%", sd ? "," : "", au->side_name[sd],
               100.0 * (double)au->wins[sd] / (double)au->battles);
    printf("; no winner %ld; %.1f rounds per battle.\n", au->none,
           (double)au->rounds / (double)au->battles);
}

int main(int argc, char **argv)
{
    long seeds = 200, first = 1;
    bool md = false;
    const char *path = NULL;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--seeds") == 0 && k + 1 < argc) {
            seeds = strtol(argv[++k], NULL, 10);
        } else if (strcmp(argv[k], "--first") == 0 && k + 1 < argc) {
            first = strtol(argv[++k], NULL, 10);
        } else if (strcmp(argv[k], "--markdown") == 0) {
            md = true;
        } else if (argv[k][0] == '-' || path) {
            fprintf(stderr, "usage: activation_audit [--seeds N] [--first S] [--markdown] MAP\n");
            return 2;
        } else {
            path = argv[k];
        }
    }
    if (!path || seeds < 1 || first < 0) {
        fprintf(stderr, "usage: activation_audit [--seeds N] [--first S] [--markdown] MAP\n");
        return 2;
    }
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    char err[512];
    if (map_load(path, data_dir(), &m, &db, err, sizeof err) != 0) {
        fprintf(stderr, "activation_audit: %s\n", err);
        return 2;
    }
    audit_t *au = calloc(1, sizeof *au);
    int rc = au ? 0 : 1;
    for (long s = first; rc == 0 && s < first + seeds; s++) rc = battle(m, db, (uint64_t)s, au);
    if (rc == 0) {
        if (md)
            print_markdown(path, au, seeds, first);
        else
            print_json(path, au, seeds, first);
    }
    free(au);
    map_destroy(m);
    free(db);
    return rc;
}
