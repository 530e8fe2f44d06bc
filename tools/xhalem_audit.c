/* xhalem_audit.c - plays many AI battles of xhalem maps and counts what the
 * AI does: how often each kind of command is used (engagements split into
 * melee, ranged and thrown), and the checks of issue 16 on fair play.
 *
 *   xhalem_audit [--seeds N] [--first S] [--markdown] MAP...
 *
 * Each battle is played as `hexbattle simulate MAP --seed S` plays it (every
 * side by the ruleset's AI, at most 100 rounds), seeds S..S+N-1 (1..200 by
 * default). Every AI command is looked at just before it is applied, from the
 * battle as it stands then:
 * - an engagement, grapple, shove or assist aimed at a foe hidden from the
 *   actor's whole side (ruleset_t.hidden_from) is a fault: unfair play;
 * - a move that ends beside such a foe, where no foe the side knows is
 *   within reach or range of any weapon the mover carries, is a fault:
 *   walking up to an undetected hider;
 * - an engagement at disadvantage because someone stands in deep water is
 *   counted, and any with either side standing in the sample maps' wading
 *   water (the river) that the water made harder is a fault.
 * One JSON object per map (or, with --markdown, one table of every map).
 * Exit status 1 when any fault was found, 2 for bad input, 0 otherwise.
 * `make xhalem-audit` runs it over 200 seeds of every bundled xhalem map.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_play.h"
#include "rules/xhalem.h"

/* Rows of the table: the command kinds, with engage split by weapon class
 * and shove by what it aims at (arg 0 knock down, 1 push). */
enum { ROW_MELEE = CMD_COUNT, ROW_RANGED, ROW_THROWN, ROW_KNOCK, ROW_PUSH, ROW_COUNT };

typedef struct {
    const char *path;
    long rows[ROW_COUNT];
    long hidden_target, hidden_approach, river, river_dis, river_dis_depth, deep_dis;
    audit_tally_t t;
} audit_t;

static const char *row_name(int r)
{
    switch (r) {
    case ROW_MELEE: return "engage (melee)";
    case ROW_RANGED: return "engage (ranged)";
    case ROW_THROWN: return "engage (thrown)";
    case ROW_KNOCK: return "shove (knock down)";
    case ROW_PUSH: return "shove (push)";
    default: return cmd_kind_name((cmd_kind_t)r);
    }
}

static bool hidden_from_side(const battle_t *b, int who, int side)
{
    const ruleset_t *rs = b->rules;
    return rs->hidden_from && rs->hidden_from(b, who, side);
}

static depth_t depth_at(const battle_t *b, int i)
{
    if (b->u[i].cond & XC_FLYING) return DEPTH_NONE;
    return map_terrain_at(b->map, hex_to_cell(b->map->layout, b->board->pos[i]))->depth;
}

/* Does i stand in the sample maps' river (the built-in "water")? */
static bool in_river(const battle_t *b, int i)
{
    if (b->u[i].cond & XC_FLYING) return false;
    const terrain_t *t = map_terrain_at(b->map, hex_to_cell(b->map->layout, b->board->pos[i]));
    return strcmp(t->name, "water") == 0;
}

/* A foe within `hexes` of h that a's side knows (known true) or does not. */
static bool foe_near(const battle_t *b, int a, hex_t h, int hexes, bool known)
{
    int side = b->board->side[a];
    for (int e = 0; e < b->n; e++) {
        if (!battle_active(b, e) || board_allies(b->board, a, e)) continue;
        if (hex_distance(h, b->board->pos[e]) > hexes) continue;
        if (hidden_from_side(b, e, side) != known) return true;
    }
    return false;
}

/* Hexes from h to the nearest foe a's side knows of (a large number: none). */
static int known_foe_distance(const battle_t *b, int a, hex_t h)
{
    int side = b->board->side[a], best = 1 << 20;
    for (int e = 0; e < b->n; e++) {
        if (!battle_active(b, e) || board_allies(b->board, a, e) || hidden_from_side(b, e, side))
            continue;
        int d = hex_distance(h, b->board->pos[e]);
        if (d < best) best = d;
    }
    return best;
}

/* Hexes a can strike to from where it stands: its reach, or the range of
 * any weapon it carries. */
static int strike_hexes(const battle_t *b, int a)
{
    int ft = b->prof[a].reach_ft;
    for (int w = 0; w < b->u[a].n_weapons; w++) {
        const weapon_t *wp = b->u[a].weapon[w];
        int r = wp->cls == WPN_MELEE ? wp->reach_ft : wp->range_ft;
        if (r > ft) ft = r;
    }
    return geom_ft_to_hexes(b->map, ft);
}

static void inspect(battle_t *b, int a, const cmd_t *c, void *ctx)
{
    audit_t *au = ctx;
    int row = c->kind;
    int side = b->board->side[a];
    if (c->kind == CMD_ENGAGE) {
        const weapon_t *w = battle_weapon(b, a, c->weapon);
        row = !w || w->cls == WPN_MELEE ? ROW_MELEE : w->cls == WPN_THROWN ? ROW_THROWN : ROW_RANGED;
    }
    if (c->kind == CMD_SHOVE) row = c->arg ? ROW_PUSH : ROW_KNOCK;
    if (row >= 0 && row < ROW_COUNT) au->rows[row]++;
    bool aimed = c->kind == CMD_ENGAGE || c->kind == CMD_GRAPPLE || c->kind == CMD_SHOVE ||
                 c->kind == CMD_ASSIST;
    if (aimed && c->target >= 0 && c->target < b->n && hidden_from_side(b, c->target, side))
        au->hidden_target++;
    if (c->kind == CMD_MOVE && c->n_path > 0) {
        hex_t end = hex_from_cell(b->map->layout, c->path[c->n_path - 1]);
        /* Beside a foe the side has not found, with none it knows of
         * that a could strike from there, and no nearer to any foe it
         * knows of than it started: it went for the hidden one (a move on
         * toward a known foe that stops beside a hider is a stumble, not a
         * cheat). */
        if (foe_near(b, a, end, 1, false) && !foe_near(b, a, end, strike_hexes(b, a), true) &&
            known_foe_distance(b, a, end) >= known_foe_distance(b, a, b->board->pos[a])) {
            au->hidden_approach++;
            if (getenv("HB_AUDIT_VERBOSE"))
                fprintf(stderr, "round %d: %s moves to (%d,%d) beside a foe hidden from its side\n",
                        b->round, b->map->combatants[a].id, c->path[c->n_path - 1].col,
                        c->path[c->n_path - 1].row);
        }
    }
    if (c->kind == CMD_ENGAGE && c->target >= 0 && c->target < b->n) {
        const weapon_t *w = battle_weapon(b, a, c->weapon);
        xh_engage_t g;
        bool river = in_river(b, a) || in_river(b, c->target);
        au->river += river;
        if (xhalem_engage_shape(b, a, c->target, w, false, false, &g) && g.atk_keep < 0) {
            /* At disadvantage: was someone immersed (the only way terrain
             * gives it)? In the river's wading water that is a fault. */
            bool deep = depth_at(b, a) == DEPTH_DEEP || depth_at(b, c->target) == DEPTH_DEEP;
            au->deep_dis += deep;
            au->river_dis += river;
            au->river_dis_depth += deep && river;
        }
    }
}

static long faults(const audit_t *au)
{
    return au->hidden_target + au->hidden_approach + au->river_dis_depth;
}

static void print_json(const audit_t *au, long seeds, long first)
{
    printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,\"commands\":{", au->path, seeds,
           first);
    bool any = false;
    for (int r = 0; r < ROW_COUNT; r++) {
        if (r == CMD_ENGAGE || !au->rows[r]) continue;
        printf("%s\"%s\":%ld", any ? "," : "", row_name(r), au->rows[r]);
        any = true;
    }
    printf("},");
    audit_print_wins_json(&au->t);
    printf(",\"rounds_mean\":%.2f,\"target_hidden_from_side\":%ld,"
           "\"move_up_to_undetected\":%ld,\"engagements_in_river\":%ld,"
           "\"in_river_at_disadvantage\":%ld,\"disadvantage_from_river_depth\":%ld,"
           "\"disadvantage_with_deep_water\":%ld,\"refused\":%ld}\n",
           (double)au->t.rounds / (double)au->t.battles, au->hidden_target, au->hidden_approach,
           au->river, au->river_dis, au->river_dis_depth, au->deep_dis, au->t.refused);
}

static void print_markdown(const audit_t *au, int n, long seeds, long first)
{
    printf("| command (%ld seeds from %ld) |", seeds, first);
    for (int k = 0; k < n; k++) {
        const char *s = strrchr(au[k].path, '/');
        printf(" %s |", s ? s + 1 : au[k].path);
    }
    printf("\n|---|");
    for (int k = 0; k < n; k++) printf("---:|");
    printf("\n");
    for (int r = 0; r < ROW_COUNT; r++) {
        long tot = 0;
        for (int k = 0; k < n; k++) tot += au[k].rows[r];
        if (r == CMD_ENGAGE || !tot) continue;
        printf("| %s |", row_name(r));
        for (int k = 0; k < n; k++) printf(" %ld |", au[k].rows[r]);
        printf("\n");
    }
    static const char *const checks[] = {
        "aimed at a foe hidden from the side", "moves up to an undetected foe",
        "engagements in or into the river", "...of them at disadvantage (any cause)",
        "...at disadvantage because of the water", "commands refused",
        "rounds per battle (mean)"};
    for (int q = 0; q < 7; q++) {
        printf("| *%s* |", checks[q]);
        for (int k = 0; k < n; k++) {
            const audit_t *x = &au[k];
            long v[] = {x->hidden_target, x->hidden_approach, x->river, x->river_dis,
                        x->river_dis_depth, x->t.refused};
            if (q < 6)
                printf(" %ld |", v[q]);
            else
                printf(" %.1f |", (double)x->t.rounds / (double)x->t.battles);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    audit_args_t args;
    if (audit_parse_args(argc, argv, "xhalem_audit", "MAP...", AUDIT_MAX_MAPS, &args)) return 2;
    static audit_t au[AUDIT_MAX_MAPS];
    long bad = 0;
    for (int k = 0; k < args.n_paths; k++) {
        au[k].path = args.paths[k];
        audit_play_t ap = {.tool = "xhalem_audit", .ruleset = "xhalem", .max_rounds = 100,
                           .inspect = inspect, .ctx = &au[k]};
        if (audit_run(&ap, args.paths[k], args.first, args.seeds, &au[k].t)) return 2;
        if (!args.markdown) print_json(&au[k], args.seeds, args.first);
        bad += faults(&au[k]);
    }
    if (args.markdown) print_markdown(au, args.n_paths, args.seeds, args.first);
    return bad ? 1 : 0;
}
