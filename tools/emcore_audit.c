/* emcore_audit.c - plays many AI battles of an emcore map and counts what the
 * AI does with its kit: every command kind (moves split by mode, attacks by
 * kind, readied actions by what they hold), the reactions it takes, and who
 * wins. Issue 14 asks that the AI show running, evading and nocking on the
 * sample map, and that the map stay near an even fight.
 *
 *   emcore_audit [--seeds N] [--first S] [--markdown] MAP
 *
 * Each battle is played as `hexbattle simulate MAP --seed S` plays it (every
 * side by the ruleset's AI, at most 100 rounds), seeds S..S+N-1 (1..200 by
 * default). One JSON object, or with --markdown a table. A command of the
 * AI's that the rules refuse is a fault: exit status 1 when any was, 2 for
 * bad input, 0 otherwise. `make emcore-audit` runs it over 200 seeds of
 * maps/river_crossing.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_play.h"
#include "core/trigger.h"
#include "rules/emcore/emcore.h"

/* The rows of the table. */
enum {
    R_FIGHT = 0, R_GUARD, R_DISENGAGE,
    R_HASTY, R_RUN, R_CHARGE, R_FORCED,
    R_HASTY_SHOT, R_OPPORTUNITY, R_AIMED_FIRE,
    R_COMMIT, R_NOCK, R_COVER, R_EVADE, R_STAND,
    R_READY_BLOW, R_READY_SHOT, R_READY_MOVE, R_READY_MOMENT,
    R_X_DODGE, R_X_DODGE_WILL, R_X_OPPORTUNITY, R_X_OPP_WILL, R_X_READIED, R_X_READIED_MOVE,
    R_COUNT
};

static const char *const ROW_NAMES[R_COUNT] = {
    "declare fight", "declare guard", "declare disengage",
    "move hasty", "move run", "move charge", "move forced (Willpower)",
    "hasty shot or throw", "opportunity attack (in its slot)", "aimed shot or spell fired",
    "commit (aim)", "nock", "take cover", "evade", "get up",
    "ready a blow", "ready a shot or spell", "ready a move", "...readied for a moment",
    "reaction: dodge", "reaction: dodge (Willpower)", "reaction: opportunity",
    "reaction: opportunity (Willpower)", "reaction: readied blow or shot", "reaction: readied move",
};

typedef struct {
    long rows[R_COUNT];
    audit_tally_t t;
} audit_t;

static void inspect(battle_t *b, int a, const cmd_t *c, void *ctx)
{
    audit_t *au = ctx;
    const em_state_t *s = em_cst(b);
    const weapon_t *w = battle_weapon(b, a, c->weapon);
    int row = -1;
    switch (c->kind) {
    case CMD_DECLARE:
        row = c->act == CMD_DISENGAGE ? R_DISENGAGE : c->target < 0 ? R_GUARD : R_FIGHT;
        break;
    case CMD_MOVE:
        row = c->arg == EM_RUN ? R_RUN : c->arg == EM_CHARGE ? R_CHARGE
            : c->arg == EM_FORCED ? R_FORCED : R_HASTY;
        break;
    case CMD_ENGAGE:
        row = s->phase == EP_COMMITMENT ? R_AIMED_FIRE
            : em_is_ranged(w) && !em_melee_reaches(b, a, c->target, w) ? R_HASTY_SHOT
                                                                       : R_OPPORTUNITY;
        break;
    case CMD_COMMIT: row = R_COMMIT; break;
    case CMD_NOCK: row = R_NOCK; break;
    case CMD_COVER: row = R_COVER; break;
    case CMD_EVADE: row = R_EVADE; break;
    case CMD_STAND: row = R_STAND; break;
    case CMD_STANDBY:
        row = c->act == CMD_MOVE ? R_READY_MOVE : em_is_ranged(w) && !em_is_melee(w) ? R_READY_SHOT
                                                                                 : R_READY_BLOW;
        if (c->arg >= TRIG_COUNT)
            au->rows[R_READY_MOMENT]++;
        break;
    default: break;
    }
    if (row >= 0)
        au->rows[row]++;
}

/* The reactions taken, read from the battle's log. */
static void reactions(const battle_t *b, void *ctx)
{
    audit_t *au = ctx;
    static const char *const KINDS[] = {"dodge", "dodge_willpower", "opportunity",
                                        "opportunity_willpower", "readied", "readied_move"};
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type != EV_REACTION)
            continue;
        for (int q = 0; q < 6; q++)
            if (strcmp(e->name, KINDS[q]) == 0)
                au->rows[R_X_DODGE + q]++;
    }
}

int main(int argc, char **argv)
{
    audit_args_t args;
    if (audit_parse_args(argc, argv, "emcore_audit", "MAP", 1, &args)) return 2;
    const char *path = args.paths[0];
    static audit_t au;
    audit_play_t ap = {.tool = "emcore_audit", .ruleset = "emcore", .max_rounds = 100,
                       .inspect = inspect, .finished = reactions, .ctx = &au};
    if (audit_run(&ap, path, args.first, args.seeds, &au.t))
        return 2;
    audit_print_counts(&au.t, path, args.seeds, args.first, ROW_NAMES, au.rows, R_COUNT,
                       args.markdown);
    return au.t.refused ? 1 : 0;
}
