/* surface_audit.c - plays many AI battles of a surface map and counts what
 * the AI does with its kit: moves by mode, attacks by kind (ranged, thrown,
 * melee, bare hands, martial arts, nonlethal, two weapons, cones and
 * blasts), switches, doors, the flee responses and soak it takes, and who
 * wins. Issue 31 asks where the kit is used and where it is not, and that
 * nothing the text forbids happens: a shot from melee with a weapon that is
 * not Handheld, a shot or throw without Assault in a turn with a move, an
 * attack on a foe its side cannot know of (each such row must read 0).
 *
 *   surface_audit [--seeds N] [--first S] [--markdown] MAP
 *
 * Each battle is played as `hexbattle simulate MAP --seed S` plays it (every
 * side by the ruleset's AI, at most 100 rounds), seeds S..S+N-1 (1..200 by
 * default). One JSON object, or with --markdown a table. A command of the
 * AI's that the rules refuse is a fault: exit status 1 when any was, or when
 * a forbidden row is not 0; 2 for bad input; 0 otherwise. `make
 * surface-audit` runs it over 200 seeds of maps/relay_outpost.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_play.h"
#include "rules/surface/surface.h"

/* The rows of the table. */
enum {
    R_MOVE = 0, R_SPRINT, R_RETREAT, R_FLEE,
    R_RANGED, R_THROWN, R_MELEE, R_UNARMED, R_MARTIAL, R_NONLETHAL, R_TWO, R_BLAST, R_CONE,
    R_SWITCH, R_DOOR, R_HELD,
    R_X_FLEE, R_X_SOAK,
    R_BAD_MELEE, R_BAD_MOVED, R_BAD_UNKNOWN,
    R_COUNT
};

/* The first row that must read 0. */
#define R_FORBIDDEN R_BAD_MELEE

static const char *const ROW_NAMES[R_COUNT] = {
    "move", "sprint", "retreat", "flee",
    "attack: ranged weapon", "attack: thrown weapon", "attack: melee weapon", "attack: bare hands",
    "...of which martial arts", "...of which nonlethal", "attack: two weapons at once",
    "attack: blast or area ray", "attack: cone",
    "switch weapons", "open or shut a door", "end the turn with an action kept",
    "reaction: flee response", "reaction: soak thrown",
    "forbidden: not Handheld, fired in melee", "forbidden: no Assault, fired after a move",
    "forbidden: attack on a foe its side cannot know of",
};

typedef struct {
    long rows[R_COUNT];
    audit_tally_t t;
} audit_t;

static void inspect_attack(audit_t *au, battle_t *b, int a, const cmd_t *c)
{
    const sf_state_t *s = sf_cst(b);
    const weapon_t *w = battle_weapon(b, a, c->weapon);
    sf_wtags_t tg;
    sf_wtags_read(w, &tg);
    bool club = w && (c->arg & SF_ARG_NONLETHAL) && !tg.nonlethal && !tg.blunt;
    int row = !w ? R_UNARMED : club || w->cls == WPN_MELEE ? R_MELEE
                                : w->cls == WPN_THROWN     ? R_THROWN
                                                           : R_RANGED;
    au->rows[row]++;
    if (c->arg & SF_ARG_MARTIAL) au->rows[R_MARTIAL]++;
    if (c->arg & SF_ARG_NONLETHAL) au->rows[R_NONLETHAL]++;
    if (c->weapon2 >= 0) au->rows[R_TWO]++;
    if (tg.cone > 0) au->rows[R_CONE]++;
    else if (tg.blast > 0 || tg.area_ray > 0) au->rows[R_BLAST]++;
    if (row == R_RANGED || row == R_THROWN) {
        if (!tg.handheld && sf_in_melee(b, a)) au->rows[R_BAD_MELEE]++;
        if (!tg.assault && s->u[a].moved) au->rows[R_BAD_MOVED]++;
    }
    if (tg.cone <= 0 && c->target >= 0 && !sf_side_knows(b, a, c->target, NULL))
        au->rows[R_BAD_UNKNOWN]++;
}

static void inspect(battle_t *b, int a, const cmd_t *c, void *ctx)
{
    audit_t *au = ctx;
    switch (c->kind) {
    case CMD_MOVE:
        au->rows[c->arg == SF_SPRINT ? R_SPRINT : c->arg == SF_RETREAT ? R_RETREAT
                 : c->arg == SF_FLEE ? R_FLEE : R_MOVE]++;
        break;
    case CMD_ENGAGE: inspect_attack(au, b, a, c); break;
    case CMD_SWITCH: au->rows[R_SWITCH]++; break;
    case CMD_USE: au->rows[R_DOOR]++; break;
    case CMD_END:
        if (sf_cst(b)->u[a].left > 0) au->rows[R_HELD]++;
        break;
    default: break;
    }
}

/* The reactions taken, read from the battle's log: flee responses, and the
 * soak rolls (each is a roll named for it). */
static void reactions(const battle_t *b, void *ctx)
{
    audit_t *au = ctx;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_REACTION && strcmp(e->name, "flee_response") == 0)
            au->rows[R_X_FLEE]++;
        if (e->type == EV_DAMAGE && (e->opt & EV_OPT_SOAKED)) au->rows[R_X_SOAK]++;
    }
}

int main(int argc, char **argv)
{
    audit_args_t args;
    if (audit_parse_args(argc, argv, "surface_audit", "MAP", 1, &args)) return 2;
    const char *path = args.paths[0];
    static audit_t au;
    audit_play_t ap = {.tool = "surface_audit", .ruleset = "surface", .max_rounds = 100,
                       .inspect = inspect, .finished = reactions, .ctx = &au};
    if (audit_run(&ap, path, args.first, args.seeds, &au.t)) return 2;
    audit_print_counts(&au.t, path, args.seeds, args.first, ROW_NAMES, au.rows, R_COUNT,
                       args.markdown);
    long forbidden = 0;
    for (int r = R_FORBIDDEN; r < R_COUNT; r++) forbidden += au.rows[r];
    if (forbidden) fprintf(stderr, "surface_audit: %ld commands the rules forbid\n", forbidden);
    return au.t.refused || forbidden ? 1 : 0;
}
