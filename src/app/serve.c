/* serve.c - hexbattle serve MAP|SAVE [--port N]: the battle shared with the
 * players' devices on the local network, with no window (docs/sharing.md).
 *
 * The first line on stdout is the join address, secret included; then the
 * battle's events as JSON Lines (the referee's log, as simulate prints it) as
 * they happen. Pages act
 * for the player-side combatants; the built-in AI plays every other side, a
 * command at a time with a pause between, so the pages can follow. Serves
 * until SIGINT or SIGTERM, then closes every connection and exits 0.
 * HEXBATTLE_SHARE_BIND=loopback listens on 127.0.0.1 only (the tests). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "core/say.h"
#include "io/event_json.h"
#include "io/fileio.h"
#include "io/save.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "share/share.h"

#define EXIT_BAD 2
#define EXIT_FAIL 1
#define SERVE_SEED 1
#define AI_PAUSE_S 0.4 /* between two AI commands */
#define PUMP_MS 10     /* longest wait for the network per loop */

static int usage(const char *why, const char *arg)
{
    hb_eprintf("hexbattle: serve: ");
    hb_eprintf(why, arg);
    fprintf(stderr, "\nusage: hexbattle serve MAP|SAVE [--port N]\n");
    return EXIT_BAD;
}

static const battle_t *host_battle(void *ctx)
{
    return ((play_t *)ctx)->b;
}

static battle_status_t host_apply(void *ctx, const cmd_t *c, bool *queued, char *msg, size_t cap)
{
    play_t *p = ctx;
    *queued = false;
    battle_status_t st = play_apply(p, c);
    if (st == BATTLE_ERROR) snprintf(msg, cap, "%s", p->error);
    if (st == BATTLE_NEED_DICE || st == BATTLE_NEED_REACTION)
        snprintf(msg, cap, "waiting for the table");
    return st;
}

static battle_status_t host_die(void *ctx, int value, char *msg, size_t cap)
{
    play_t *p = ctx;
    battle_status_t st = play_enter_die(p, value);
    if (st == BATTLE_ERROR) snprintf(msg, cap, "%s", p->error);
    return st;
}

static double now_s(void)
{
    return hb_plat_now_ms() / 1e3;
}

/* One AI command for the first acting combatant no player commands; false
 * when a player's combatant is to act (or nobody). */
static bool ai_step(play_t *p, int *guard)
{
    battle_t *b = p->b;
    if (b->over || p->pending || b->needing || b->asking) return false;
    int act[MAP_MAX_COMBATANTS];
    int n = play_actors(p, act, MAP_MAX_COMBATANTS);
    if (n == 0) {
        play_stop(p); /* nobody can act: the rules have run dry */
        return true;
    }
    int who = -1;
    for (int k = 0; k < n && who < 0; k++)
        if (!battle_is_player(b, act[k])) who = act[k];
    if (who < 0) return false;
    cmd_t c;
    p->rs->ai(b, who, &c);
    battle_status_t st = play_apply(p, &c);
    if (st == BATTLE_ILLEGAL || ++*guard > 48) {
        /* A stuck AI would spin for ever; ending its turn always moves on. */
        cmd_t end = cmd_make(CMD_END, who);
        if (play_apply(p, &end) == BATTLE_ILLEGAL) play_stop(p);
        *guard = 0;
    } else if (st == BATTLE_OK) {
        /* its turn goes on, or passed */
    }
    return true;
}

/* Print the events of b from *printed on as JSON Lines. */
static void print_events(const battle_t *b, int *printed)
{
    if (*printed > b->log.n) *printed = b->log.n;
    for (; *printed < b->log.n; ++*printed) {
        char *line = event_to_line(b->board, &b->log.ev[*printed]);
        if (line) printf("%s\n", line);
        free(line);
    }
    fflush(stdout);
}

/* Load MAP or SAVE into p; m, db or s hold what p borrows. */
static int load(const char *path, play_t *p, map_t **m, tmpl_db_t **db, save_t **s)
{
    char err[HB_ERR_MAX];
    if (app_is_save(path)) {
        save_note_t note;
        int rc = save_load(path, NULL, s, err, sizeof err);
        if (rc == HB_OK) rc = save_rebuild_ex(*s, p, &note, err, sizeof err);
        if (rc != HB_OK) {
            hb_eprintf("hexbattle: %s\n", err);
            return rc;
        }
        if (note.text[0]) hb_eprintf("hexbattle: note: %s\n", note.text);
        return 0;
    }
    int rc = app_load_map(path, m, db);
    if (rc != HB_OK) return rc;
    const ruleset_t *rs = ruleset_find((*m)->ruleset);
    if (!rs || !rs->setup) {
        hb_eprintf("hexbattle: %s: ruleset: '%s' cannot be played\n", path, (*m)->ruleset);
        return EXIT_BAD;
    }
    battle_opts_t opts = {.seed = SERVE_SEED};
    battle_status_t st = play_start(p, *m, *db, rs, &opts);
    if (st != BATTLE_OK) {
        hb_eprintf("hexbattle: serve: the battle cannot start: %s\n", st == BATTLE_ERROR ? p->error
                                                                      : st == BATTLE_NOMEM
                                                                          ? "out of memory"
                                                                          : "refused");
        return EXIT_FAIL;
    }
    return 0;
}

int app_serve(int argc, char **argv)
{
    const char *path = NULL;
    long port = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0) {
            if (i + 1 >= argc) return usage("%s", "--port needs a number");
            char *end;
            errno = 0;
            port = strtol(argv[++i], &end, 10);
            if (errno || *end || end == argv[i] || port < 0 || port > 65535)
                return usage("--port: '%s' is not a port (0-65535; 0: any free one)", argv[i]);
        } else if (argv[i][0] == '-') {
            return usage("unknown option '%s'", argv[i]);
        } else if (path) {
            return usage("takes one map or save, not also '%s'", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path) return usage("%s", "needs a map or a saved battle");
    if (!share_available()) {
        char err[300];
        share_start(NULL, NULL, err, sizeof err);
        fprintf(stderr, "hexbattle: serve: %s\n", err);
        return EXIT_FAIL;
    }
    play_t p;
    memset(&p, 0, sizeof p);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    save_t *s = NULL;
    int rc = load(path, &p, &m, &db, &s);
    const char *bind = getenv("HEXBATTLE_SHARE_BIND");
    share_opts_t o = {.port = (int)port, .loopback = bind && strcmp(bind, "loopback") == 0};
    share_host_t host = {
        .ctx = &p, .battle = host_battle, .apply = host_apply, .enter_die = host_die};
    share_t *sh = NULL;
    if (rc == 0) {
        char err[300];
        sh = share_start(&host, &o, err, sizeof err);
        if (!sh) {
            hb_eprintf("hexbattle: %s\n", err);
            rc = EXIT_FAIL;
        }
    }
    if (rc == 0) {
        hb_plat_stop_install(); /* Ctrl+C, a closed terminal, a logout */
        char url[SHARE_URL_MAX];
        share_url(sh, url, sizeof url);
        printf("%s\n", url);
        fflush(stdout);
        hb_eprintf("hexbattle: serving %s on port %d; Ctrl+C stops\n", path, share_port(sh));
        double next_ai = now_s() + AI_PAUSE_S;
        int guard = 0, printed = 0;
        share_publish(sh);
        print_events(p.b, &printed);
        while (!hb_plat_stop_caught()) {
            share_pump(sh, PUMP_MS);
            if (now_s() >= next_ai) {
                if (ai_step(&p, &guard)) next_ai = now_s() + AI_PAUSE_S;
            }
            share_publish(sh);
            print_events(p.b, &printed);
        }
        share_stop(sh);
        /* A stop is how serve ends: exit 0, not by the signal again (main's
         * ui_stop_exit). */
        hb_plat_stop_clear();
        hb_eprintf("hexbattle: sharing stopped\n");
    }
    play_end(&p);
    save_free(s);
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}
