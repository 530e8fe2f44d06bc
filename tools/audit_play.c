/* audit_play.c - the command line, map loading, play loop and tally shared by
 * the AI audit tools (audit_play.h). */
#include "audit_play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

int audit_parse_args(int argc, char **argv, const char *tool, const char *usage_maps,
                     int max_paths, audit_args_t *out)
{
    memset(out, 0, sizeof *out);
    out->seeds = 200;
    out->first = 1;
    if (max_paths > AUDIT_MAX_MAPS) max_paths = AUDIT_MAX_MAPS;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "--seeds") == 0 || strcmp(argv[i], "--first") == 0) && i + 1 < argc) {
            bool seeds = argv[i][2] == 's';
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || end == argv[i + 1] || v < (seeds ? 1 : 0)) {
                fprintf(stderr, "%s: %s needs a whole number, not '%s'\n", tool, argv[i],
                        argv[i + 1]);
                return 2;
            }
            if (seeds)
                out->seeds = v;
            else
                out->first = v;
            i++;
        } else if (strcmp(argv[i], "--markdown") == 0) {
            out->markdown = true;
        } else if (argv[i][0] == '-' || out->n_paths == max_paths) {
            out->n_paths = 0;
            break;
        } else {
            out->paths[out->n_paths++] = argv[i];
        }
    }
    if (out->n_paths == 0) {
        fprintf(stderr, "usage: %s [--seeds N] [--first S] [--markdown] %s\n", tool, usage_maps);
        return 2;
    }
    return 0;
}

static int load_map(const char *tool, const char *path, const char *ruleset, map_t **m,
                    tmpl_db_t **db)
{
    char err[HB_ERR_MAX];
    *m = NULL;
    *db = NULL;
    if (map_load(path, data_dir(), m, db, err, sizeof err) != HB_OK) {
        fprintf(stderr, "%s: %s\n", tool, err);
        return 2;
    }
    if (strcmp((*m)->ruleset, ruleset) != 0) {
        fprintf(stderr, "%s: %s: ruleset: expected %s, found %s\n", tool, path, ruleset,
                (*m)->ruleset);
        map_destroy(*m);
        tmpl_db_destroy(*db);
        *m = NULL;
        *db = NULL;
        return 2;
    }
    return 0;
}

/* One battle played as play_auto plays it, every AI command shown to the
 * tool first: 0, or 1 when the battle broke. */
static int play_one(play_t *p, const audit_play_t *ap, audit_tally_t *t)
{
    battle_t *b = p->b;
    int actors[MAP_MAX_COMBATANTS];
    int guard = 0, last = -1;
    while (!b->over) {
        if (b->round > ap->max_rounds) {
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
        /* The AI only looks: a roll from it is a fault. */
        b->frozen++;
        p->rs->ai(b, a, &c);
        b->frozen--;
        if (b->fault[0]) return 1;
        if (ap->inspect) ap->inspect(b, a, &c, ap->ctx);
        battle_status_t st = play_apply(p, &c);
        if (st == BATTLE_ILLEGAL) {
            t->refused++;
            if (ap->refused) ap->refused(b, a, &c, ap->ctx);
        }
        /* A refused command or a stuck AI ends the turn; a refused END
         * stops the battle. */
        if (st == BATTLE_ILLEGAL || ++guard > 64) {
            cmd_t end = cmd_make(CMD_END, a);
            st = play_apply(p, &end);
            guard = 0;
            if (st == BATTLE_ILLEGAL) {
                play_stop(p);
                break;
            }
        }
        if (st != BATTLE_OK && st != BATTLE_OVER) return 1;
    }
    if (ap->finished) ap->finished(b, ap->ctx);
    t->battles++;
    t->rounds += b->round;
    if (b->winner >= 0 && b->winner < MAP_MAX_FACTIONS)
        t->wins[b->winner]++;
    else
        t->none++;
    t->n_sides = b->board->n_sides;
    for (int sd = 0; sd < t->n_sides && sd < MAP_MAX_FACTIONS; sd++)
        snprintf(t->side_name[sd], sizeof t->side_name[sd], "%s", b->board->side_name[sd]);
    return 0;
}

int audit_run(const audit_play_t *ap, const char *path, long first, long seeds,
              audit_tally_t *t)
{
    map_t *m;
    tmpl_db_t *db;
    if (load_map(ap->tool, path, ap->ruleset, &m, &db)) return 2;
    int rc = 0;
    for (long s = first; s < first + seeds && rc == 0; s++) {
        play_t p;
        memset(&p, 0, sizeof p);
        battle_opts_t opts = {.seed = (uint64_t)s, .max_rounds = ap->max_rounds};
        if (play_start(&p, m, db, NULL, &opts) != BATTLE_OK) {
            fprintf(stderr, "%s: %s: seed %ld: the battle did not start\n", ap->tool, path, s);
            rc = 1;
        } else if (play_one(&p, ap, t)) {
            fprintf(stderr, "%s: %s: seed %ld: %s\n", ap->tool, path, s,
                    p.error[0]    ? p.error
                    : p.b->fault[0] ? p.b->fault
                                    : "the battle stopped");
            rc = 1;
        }
        play_end(&p);
    }
    map_destroy(m);
    tmpl_db_destroy(db);
    return rc;
}

void audit_print_wins_json(const audit_tally_t *t)
{
    printf("\"wins\":{");
    for (int sd = 0; sd < t->n_sides; sd++)
        printf("%s\"%s\":%.3f", sd ? "," : "", t->side_name[sd],
               (double)t->wins[sd] / (double)t->battles);
    printf("}");
}

void audit_print_counts(const audit_tally_t *t, const char *path, long seeds, long first,
                        const char *const *names, const long *rows, int n, bool markdown)
{
    double battles = (double)t->battles;
    if (!markdown) {
        printf("{\"map\":\"%s\",\"seeds\":%ld,\"first_seed\":%ld,\"counts\":{", path, seeds,
               first);
        for (int r = 0; r < n; r++)
            printf("%s\"%s\":%ld", r ? "," : "", names[r], rows[r]);
        printf("},");
        audit_print_wins_json(t);
        printf(",\"no_winner\":%ld,\"rounds_mean\":%.2f,\"refused\":%ld}\n", t->none,
               (double)t->rounds / battles, t->refused);
        return;
    }
    const char *s = strrchr(path, '/');
    printf("| %s, %ld seeds from %ld | count | per battle |\n|---|---:|---:|\n", s ? s + 1 : path,
           seeds, first);
    for (int r = 0; r < n; r++)
        printf("| %s | %ld | %.2f |\n", names[r], rows[r], (double)rows[r] / battles);
    for (int sd = 0; sd < t->n_sides; sd++)
        printf("| *%s win* | %ld | %.1f%% |\n", t->side_name[sd], t->wins[sd],
               100.0 * (double)t->wins[sd] / battles);
    printf("| *no winner* | %ld | |\n| *rounds per battle (mean)* | | %.1f |\n"
           "| *commands refused* | %ld | |\n",
           t->none, (double)t->rounds / battles, t->refused);
}
