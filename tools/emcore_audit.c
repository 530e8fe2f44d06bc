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

#include "io/fileio.h"
#include "io/map_io.h"
#include "core/trigger.h"
#include "rules/emcore/emcore.h"
#include "rules/play.h"

#define MAX_ROUNDS 100

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
    long battles, rounds, wins[MAP_MAX_FACTIONS], none, refused;
    int n_sides;
    char side_name[MAP_MAX_FACTIONS][MAP_ID_MAX];
} audit_t;

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static void inspect(const battle_t *b, int a, const cmd_t *c, audit_t *au)
{
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
static void reactions(const battle_t *b, audit_t *au)
{
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

/* One battle played as play_auto plays it, every AI command counted. */
static int battle(play_t *p, audit_t *au)
{
    battle_t *b = p->b;
    int actors[MAP_MAX_COMBATANTS];
    int guard = 0, last = -1;
    while (!b->over) {
        if (b->round > MAX_ROUNDS) {
            play_stop(p);
            break;
        }
        int n = play_actors(p, actors, MAP_MAX_COMBATANTS);
        if (n <= 0) {
            play_stop(p);
            break;
        }
        int a = actors[0];
        if (a != last) {
            last = a;
            guard = 0;
        }
        cmd_t c;
        b->frozen++;
        p->rs->ai(b, a, &c);
        b->frozen--;
        if (b->fault[0])
            return 1;
        inspect(b, a, &c, au);
        battle_status_t st = play_apply(p, &c);
        if (st == BATTLE_ILLEGAL)
            au->refused++;
        if (st == BATTLE_ILLEGAL || ++guard > 64) {
            cmd_t end = cmd_make(CMD_END, a);
            st = play_apply(p, &end);
            guard = 0;
            if (st == BATTLE_ILLEGAL) {
                play_stop(p);
                break;
            }
        }
        if (st != BATTLE_OK && st != BATTLE_OVER)
            return 1;
    }
    reactions(b, au);
    au->battles++;
    au->rounds += b->round;
    if (b->winner >= 0 && b->winner < MAP_MAX_FACTIONS)
        au->wins[b->winner]++;
    else
        au->none++;
    au->n_sides = b->board->n_sides;
    for (int sd = 0; sd < au->n_sides && sd < MAP_MAX_FACTIONS; sd++)
        snprintf(au->side_name[sd], sizeof au->side_name[sd], "%s", b->board->side_name[sd]);
    return 0;
}

static void print_json(const audit_t *au, const char *path, long seeds, long first)
{
    printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,\"counts\":{", path, seeds, first);
    for (int r = 0; r < R_COUNT; r++)
        printf("%s\"%s\":%ld", r ? "," : "", ROW_NAMES[r], au->rows[r]);
    printf("},\"wins\":{");
    for (int sd = 0; sd < au->n_sides; sd++)
        printf("%s\"%s\":%.3f", sd ? "," : "", au->side_name[sd],
               (double)au->wins[sd] / (double)au->battles);
    printf("},\"no_winner\":%ld,\"rounds_mean\":%.2f,\"refused\":%ld}\n", au->none,
           (double)au->rounds / (double)au->battles, au->refused);
}

static void print_markdown(const audit_t *au, const char *path, long seeds, long first)
{
    const char *s = strrchr(path, '/');
    printf("| %s, %ld seeds from %ld | count | per battle |\n|---|---:|---:|\n", s ? s + 1 : path,
           seeds, first);
    for (int r = 0; r < R_COUNT; r++)
        printf("| %s | %ld | %.2f |\n", ROW_NAMES[r], au->rows[r],
               (double)au->rows[r] / (double)au->battles);
    for (int sd = 0; sd < au->n_sides; sd++)
        printf("| *%s win* | %ld | %.1f%% |\n", au->side_name[sd], au->wins[sd],
               100.0 * (double)au->wins[sd] / (double)au->battles);
    printf("| *no winner* | %ld | |\n| *rounds per battle (mean)* | | %.1f |\n"
           "| *commands refused* | %ld | |\n",
           au->none, (double)au->rounds / (double)au->battles, au->refused);
}

int main(int argc, char **argv)
{
    long seeds = 200, first = 1;
    bool md = false;
    const char *path = NULL;
    const char *usage = "usage: emcore_audit [--seeds N] [--first S] [--markdown] MAP\n";
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "--seeds") == 0 || strcmp(argv[i], "--first") == 0) && i + 1 < argc) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < (argv[i][2] == 's' ? 1 : 0)) {
                fprintf(stderr, "emcore_audit: %s needs a whole number, not '%s'\n", argv[i],
                        argv[i + 1]);
                return 2;
            }
            if (argv[i][2] == 's')
                seeds = v;
            else
                first = v;
            i++;
        } else if (strcmp(argv[i], "--markdown") == 0) {
            md = true;
        } else if (argv[i][0] == '-' || path) {
            fputs(usage, stderr);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fputs(usage, stderr);
        return 2;
    }
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    if (map_load(path, data_dir(), &m, &db, err, sizeof err) != HB_OK) {
        fprintf(stderr, "emcore_audit: %s\n", err);
        return 2;
    }
    if (strcmp(m->ruleset, "emcore") != 0) {
        fprintf(stderr, "emcore_audit: %s: ruleset: expected emcore, found %s\n", path, m->ruleset);
        map_destroy(m);
        tmpl_db_destroy(db);
        return 2;
    }
    static audit_t au;
    int rc = 0;
    for (long s = first; s < first + seeds && !rc; s++) {
        play_t p;
        memset(&p, 0, sizeof p);
        battle_opts_t opts = {.seed = (uint64_t)s, .max_rounds = MAX_ROUNDS};
        if (play_start(&p, m, db, NULL, &opts) != BATTLE_OK) {
            fprintf(stderr, "emcore_audit: %s: seed %ld: the battle did not start\n", path, s);
            rc = 2;
        } else if (battle(&p, &au)) {
            fprintf(stderr, "emcore_audit: %s: seed %ld: %s\n", path, s,
                    p.error[0] ? p.error : "the battle stopped");
            rc = 2;
        }
        play_end(&p);
    }
    map_destroy(m);
    tmpl_db_destroy(db);
    if (rc)
        return rc;
    if (md)
        print_markdown(&au, path, seeds, first);
    else
        print_json(&au, path, seeds, first);
    return au.refused ? 1 : 0;
}
