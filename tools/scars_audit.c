/* scars_audit.c - plays many AI battles of a scars map and checks what the AI
 * declares against issue 22's standards, printing one JSON object.
 *
 *   scars_audit MAP [SEEDS [FIRST_SEED]]      (SEEDS 1000, FIRST_SEED 1 by default)
 *
 * Every AI command is looked at just before it is applied, from the battle as
 * it stands then:
 * - a second move (the action spent moving) whose path one move could have
 *   covered (its cost within the first move's budget) is a fault;
 * - a shot declared at a target the attacker will not see from where its
 *   declared path ends is a fault;
 * - for the record: second moves made while an attack was open (a foe in a
 *   weapon's band, in sight, from a hex one move away), attacks pooled on a
 *   target an ally already attacks while another foe was open, dual attacks
 *   made and possible, retreats, commands the rules refused, shots that did
 *   not land, and the win rate of each side.
 * Exit status 1 when any fault was found, 2 for bad input, 0 otherwise.
 * `make scars-audit` runs it over 1,000 seeds of maps/salt_flats.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_play.h"
#include "io/cmd_json.h"
#include "rules/scars.h"

typedef struct {
    long decls, second_moves, second_covered, second_with_attack;
    long shots, shots_unseen, shots_unlanded;
    long pooled, pooled_with_other;
    long duals, dual_open;
    long retreats, fled, refused_hamstrung;
    audit_tally_t t;
} audit_t;

/* Cost in feet of walking path[0..n) from where i stands (terrain only). */
static int walk_cost(const battle_t *b, const cell_t *path, int n)
{
    int cost = 0;
    for (int k = 0; k < n; k++)
        cost += map_terrain_at(b->map, path[k])->move * b->map->feet_per_hex;
    return cost;
}

/* Could a attack foe t with weapon w standing at h (in its band, in sight)? */
static bool open_from(const battle_t *b, hex_t h, int t, const weapon_t *w)
{
    return hex_distance(h, b->board->pos[t]) <= scars_weapon_band(b, w) &&
           sight_clear(b->board, h, b->board->pos[t]);
}

/* Is some foe of a other than `but` (-1: any) open to an attack this phase:
 * from its hex or from a hex one move away, with some weapon it carries? */
static bool attack_open(battle_t *b, int a, int but)
{
    int n = geom_reach(b->board, a, b->prof[a].speed_ft, b->prof[a].interval_ft, b->ps, b->reach,
                       b->ncells);
    if (n > b->ncells) n = b->ncells;
    for (int t = 0; t < b->n; t++) {
        if (t == but || !scars_fighting(b, t) || board_allies(b->board, a, t)) continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            if (w < 0 && b->u[a].n_weapons > 0) continue;
            const weapon_t *wp = battle_weapon(b, a, w);
            if (open_from(b, b->board->pos[a], t, wp)) return true;
            for (int k = 0; k < n; k++)
                if (open_from(b, hex_from_cell(b->map->layout, b->reach[k].at), t, wp)) return true;
        }
    }
    return false;
}

/* Could a strike t with two weapons at once from where it stands? */
static bool dual_open(const battle_t *b, int a, int t)
{
    for (int w = 0; w < b->u[a].n_weapons; w++)
        for (int w2 = w + 1; w2 < b->u[a].n_weapons; w2++)
            if (scars_dual_ok(b, a, w, w2) &&
                open_from(b, b->board->pos[a], t, battle_weapon(b, a, w)) &&
                open_from(b, b->board->pos[a], t, battle_weapon(b, a, w2)))
                return true;
    return false;
}

/* Allies of a already declared against t this phase. */
static int allies_on(const battle_t *b, int a, int t)
{
    const sc_state_t *s = b->rs;
    int n = 0;
    for (int j = 0; j < b->n; j++)
        n += j != a && s->decl[j].set && s->decl[j].act == CMD_ENGAGE && s->decl[j].target == t &&
             board_allies(b->board, a, j);
    return n;
}

static void inspect(battle_t *b, int a, const cmd_t *c, void *ctx)
{
    audit_t *au = ctx;
    if (c->kind != CMD_DECLARE) return;
    au->decls++;
    if (c->act == CMD_MOVE) {
        au->second_moves++;
        if (walk_cost(b, c->path, c->n_path) <= b->prof[a].speed_ft) au->second_covered++;
        if (attack_open(b, a, -1)) au->second_with_attack++;
    } else if (c->act == CMD_ENGAGE && c->target >= 0) {
        au->shots++;
        hex_t end = c->n_path > 0 ? hex_from_cell(b->map->layout, c->path[c->n_path - 1])
                                  : b->board->pos[a];
        if (!sight_clear(b->board, end, b->board->pos[c->target])) au->shots_unseen++;
        if (c->weapon2 >= 0) au->duals++;
        if (dual_open(b, a, c->target)) au->dual_open++;
        if (allies_on(b, a, c->target) > 0) {
            au->pooled++;
            if (attack_open(b, a, c->target)) au->pooled_with_other++;
        }
    } else if (c->act == CMD_RETREAT) {
        au->retreats++;
    }
}

/* A command the rules refused: shown with HB_AUDIT_VERBOSE set. */
static void refused(const battle_t *b, int a, const cmd_t *c, void *ctx)
{
    audit_t *au = ctx;
    if (getenv("HB_AUDIT_VERBOSE")) {
        cJSON *j = cmd_to_json(b->map, c);
        char *t = j ? cJSON_PrintUnformatted(j) : NULL;
        fprintf(stderr, "refused (round %d): %s\n", b->round, t ? t : "?");
        cJSON_free(t);
        cJSON_Delete(j);
    }
    if (b->u[a].cond & SC_HAMSTRUNG) au->refused_hamstrung++;
}

/* Read a finished battle's log: attacks that missed, combatants that fled. */
static void finished(const battle_t *b, void *ctx)
{
    audit_t *au = ctx;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        au->shots_unlanded += e->type == EV_ATTACK && !e->hit;
        au->fled += e->type == EV_FLED;
    }
}

static void print_json(const audit_t *au, const char *path, long seeds, long first)
{
    const audit_tally_t *t = &au->t;
    printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,", path, seeds, first);
    audit_print_wins_json(t);
    printf(",\"none\":%.3f,\"rounds_mean\":%.2f,", (double)t->none / (double)t->battles,
           (double)t->rounds / (double)t->battles);
    printf("\"declarations\":%ld,\"second_moves\":%ld,\"second_move_one_move_covers\":%ld,"
           "\"second_move_while_attack_open\":%ld,",
           au->decls, au->second_moves, au->second_covered, au->second_with_attack);
    printf("\"shots\":%ld,\"shots_at_unseen\":%ld,\"attacks_not_landing\":%ld,", au->shots,
           au->shots_unseen, au->shots_unlanded);
    printf("\"pooled\":%ld,\"pooled_with_other_open\":%ld,\"duals\":%ld,\"dual_open\":%ld,",
           au->pooled, au->pooled_with_other, au->duals, au->dual_open);
    printf("\"retreats\":%ld,\"fled\":%ld,\"refused\":%ld,\"refused_hamstrung\":%ld}\n",
           au->retreats, au->fled, t->refused, au->refused_hamstrung);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: scars_audit MAP [SEEDS [FIRST_SEED]]\n");
        return 2;
    }
    long seeds = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    long first = argc > 3 ? strtol(argv[3], NULL, 10) : 1;
    if (seeds <= 0) {
        fprintf(stderr, "scars_audit: SEEDS must be a positive number, not '%s'\n", argv[2]);
        return 2;
    }
    static audit_t au;
    audit_play_t ap = {.tool = "scars_audit", .ruleset = "scars", .max_rounds = 50,
                       .inspect = inspect, .refused = refused, .finished = finished, .ctx = &au};
    if (audit_run(&ap, argv[1], first, seeds, &au.t)) return 2;
    print_json(&au, argv[1], seeds, first);
    return au.second_covered || au.shots_unseen ? 1 : 0;
}
