/* audit_play.h - what the AI audit tools (tools/xhalem_audit.c and its
 * siblings) share: reading the command line, loading the map, playing each
 * seed's battle the way `hexbattle simulate` does (play_auto's loop) with
 * every AI command shown to the tool before it is applied, and the tally of
 * wins and rounds.
 *
 * A tool keeps its own counters and report: it passes them as `ctx` and
 * looks at the battle through the callbacks.
 */
#ifndef HB_AUDIT_PLAY_H
#define HB_AUDIT_PLAY_H

#include <stdbool.h>

#include "io/map_io.h"
#include "rules/play.h"

#define AUDIT_MAX_MAPS 16

/* Who won how often, and how long the battles took. */
typedef struct {
    long battles, rounds, wins[MAP_MAX_FACTIONS], none, refused;
    int n_sides;
    char side_name[MAP_MAX_FACTIONS][MAP_ID_MAX];
} audit_tally_t;

typedef struct {
    const char *tool;    /* "xhalem_audit": the start of every message */
    const char *ruleset; /* the ruleset the map must name */
    int max_rounds;   /* a battle stops after this many rounds */
    /* Called with each AI command just before it is applied (may be NULL);
     * b is the battle as it stands then. */
    void (*inspect)(battle_t *b, int a, const cmd_t *c, void *ctx);
    /* Called when the rules refused command c of a (may be NULL), before
     * a's turn is ended. */
    void (*refused)(const battle_t *b, int a, const cmd_t *c, void *ctx);
    /* Called once a battle is over, before it is freed (may be NULL): the
     * place to read its log. */
    void (*finished)(const battle_t *b, void *ctx);
    void *ctx;
} audit_play_t;

/* The command line `TOOL [--seeds N] [--first S] [--markdown] MAP...`. */
typedef struct {
    long seeds, first; /* 200 and 1 unless given */
    bool markdown;
    const char *paths[AUDIT_MAX_MAPS];
    int n_paths;
} audit_args_t;

/* Read argv into out, taking at most max_paths maps (1..AUDIT_MAX_MAPS).
 * On a bad argument or no map, print a message (usage names the maps, as
 * "MAP" or "MAP...") and return 2; 0 otherwise. */
int audit_parse_args(int argc, char **argv, const char *tool, const char *usage_maps,
                     int max_paths, audit_args_t *out);

/* Load the map at path and its templates (from $HEXBATTLE_DATA or the
 * source tree's data/), which must be of ruleset ap->ruleset, and play seeds
 * first..first+seeds-1 of it, the AI on every side, adding each battle to t.
 * 0; 2 with a message when the map would not load or is of another ruleset;
 * 1 with a message when a battle did not start or broke. */
int audit_run(const audit_play_t *ap, const char *path, long first, long seeds,
              audit_tally_t *t);

/* Print the win rate of each side as JSON, "wins":{"SIDE":0.500,...}. */
void audit_print_wins_json(const audit_tally_t *t);

/* Print a tally of n named counts (names[r], rows[r]) over the battles of t,
 * played on the map at path from seed first: one line of JSON, or with
 * markdown a table of each count, its rate per battle and each side's wins. */
void audit_print_counts(const audit_tally_t *t, const char *path, long seeds, long first,
                        const char *const *names, const long *rows, int n, bool markdown);

#endif
