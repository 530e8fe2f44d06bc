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

#include "audit_play.h"

#define MAX_ACTIONS 64

typedef struct {
    char id[EV_NAME_MAX]; /* an event's name, whole: a cut one would never match again */
    long uses, interrupts, battles_used, battles_carried;
} row_t;

typedef struct {
    row_t row[MAX_ACTIONS];
    int n;
    audit_tally_t t;
} audit_t;

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
static void count(const battle_t *b, void *ctx)
{
    audit_t *au = ctx;
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

static void print_json(const char *path, const audit_t *au, long seeds, long first)
{
    printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,\"actions\":{", path, seeds, first);
    for (int k = 0; k < au->n; k++) {
        const row_t *r = &au->row[k];
        printf("%s\"%s\":{\"uses\":%ld,\"interrupts\":%ld,\"battles_used\":%ld,"
               "\"battles_carried\":%ld}",
               k ? "," : "", r->id, r->uses, r->interrupts, r->battles_used, r->battles_carried);
    }
    printf("},");
    audit_print_wins_json(&au->t);
    printf(",\"no_winner\":%ld,\"rounds_mean\":%.2f}\n", au->t.none,
           (double)au->t.rounds / (double)au->t.battles);
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
               r->battles_used, r->battles_carried, (double)r->uses / (double)au->t.battles);
    }
    printf("\nWins:");
    for (int sd = 0; sd < au->t.n_sides; sd++)
        printf("%s %s %.1f%%", sd ? "," : "", au->t.side_name[sd],
               100.0 * (double)au->t.wins[sd] / (double)au->t.battles);
    printf("; no winner %ld; %.1f rounds per battle.\n", au->t.none,
           (double)au->t.rounds / (double)au->t.battles);
}

int main(int argc, char **argv)
{
    audit_args_t args;
    if (audit_parse_args(argc, argv, "activation_audit", "MAP", 1, &args)) return 2;
    const char *path = args.paths[0];
    static audit_t au;
    audit_play_t ap = {.tool = "activation_audit", .ruleset = "activation", .max_rounds = 100,
                       .finished = count, .ctx = &au};
    /* 2: the map would not load; 1: a battle broke. */
    int rc = audit_run(&ap, path, args.first, args.seeds, &au.t);
    if (rc)
        return rc;
    if (args.markdown)
        print_markdown(path, &au, args.seeds, args.first);
    else
        print_json(path, &au, args.seeds, args.first);
    return 0;
}
