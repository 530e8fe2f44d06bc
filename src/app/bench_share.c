/* bench_share.c - the players' server's figures of `hexbattle bench`
 * (bench.h): SHARE_BENCH_PAGES pages watch a shared battle over loopback,
 * as phones at the table would. A command is applied to the battle (then
 * taken back, as Ctrl+Z does), and
 * - share_latency_ms: from the command applied to its picture read in full
 *   by every page (median and p99);
 * - share_frame_cost_ms: what the play window's frame pays for sharing
 *   (share_publish + share_pump with no wait), averaged over frames of
 *   which one in FRAME_EVERY carries a command, as a battle at play does.
 * Everything runs in this thread, the server included, so the latency holds
 * the server's whole work: the pictures built, written and read. */
#include "bench.h"

#ifndef HB_NO_SHARE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/geom.h"
#include "core/path.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "share/share.h"

#define WAIT_MS 5000.0 /* longest wait for one answer */
#define FRAME_EVERY 10
#define BUF_MAX (1 << 20)

typedef struct {
    play_t p;
    share_t *s;
} rig_t;

static const battle_t *rig_battle(void *ctx)
{
    return ((rig_t *)ctx)->p.b;
}

static battle_status_t rig_apply(void *ctx, const cmd_t *c, bool *queued, char *msg, size_t cap)
{
    (void)msg;
    (void)cap;
    *queued = false;
    return play_apply(&((rig_t *)ctx)->p, c);
}

static hb_sock_t dial(const rig_t *g)
{
    return hb_net_dial_loopback(share_port(g->s));
}

/* Send text on fd, serving meanwhile. */
static bool put(rig_t *g, hb_sock_t fd, const char *t)
{
    size_t off = 0, len = strlen(t);
    double end = bench_now_ms() + WAIT_MS;
    while (off < len && bench_now_ms() < end) {
        long long k = hb_net_send(fd, t + off, len - off);
        if (k > 0) off += (size_t)k;
        share_pump(g->s, 0);
    }
    return off == len;
}

/* A page's pending bytes: how many whole events ("\n\n") it has read. */
typedef struct {
    hb_sock_t fd;
    char tail[2]; /* the last two bytes read, for an end split across reads */
    long events;
} page_t;

static void drain(page_t *pg, char *buf)
{
    for (;;) {
        long long k = hb_net_recv(pg->fd, buf, BUF_MAX);
        if (k <= 0) return;
        for (long long i = 0; i < k; i++) {
            if (buf[i] == '\n' && pg->tail[1] == '\n') pg->events++;
            pg->tail[0] = pg->tail[1];
            pg->tail[1] = buf[i];
        }
    }
}

/* Join combatant id through the API; the token into tok. */
static bool join(rig_t *g, const char *id, char *tok, char *buf)
{
    hb_sock_t fd = dial(g);
    if (fd == HB_NET_NONE) return false;
    char body[200], req[512];
    snprintf(body, sizeof body, "{\"k\":\"%s\",\"id\":\"%s\"}", share_secret(g->s), id);
    snprintf(req, sizeof req,
             "POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
             "Content-Length: %zu\r\n\r\n%s",
             strlen(body), body);
    bool ok = put(g, fd, req);
    size_t n = 0;
    double end = bench_now_ms() + WAIT_MS;
    while (ok && bench_now_ms() < end) {
        share_pump(g->s, 1);
        long long k = hb_net_recv(fd, buf + n, BUF_MAX - 1 - n);
        if (k > 0) n += (size_t)k;
        else if (k == 0 || k < -1) break;
    }
    hb_net_close(fd);
    buf[n] = '\0';
    const char *t = strstr(buf, "\"token\":\"");
    if (!t) return false;
    snprintf(tok, SHARE_SECRET_HEX + 1, "%s", t + 9);
    return true;
}

/* Serve and read until every page has at least want[k] events. */
static bool until_all(rig_t *g, page_t *pg, const long *want, char *buf)
{
    double end = bench_now_ms() + WAIT_MS;
    while (bench_now_ms() < end) {
        share_pump(g->s, 0);
        bool all = true;
        for (int k = 0; k < SHARE_BENCH_PAGES; k++) {
            drain(&pg[k], buf);
            if (pg[k].events < want[k]) all = false;
        }
        if (all) return true;
    }
    return false;
}

/* A move for the first acting combatant: to the first hex its first move
 * mode reaches, by the cheapest path (as a page's tap gives it). */
static bool a_move(const battle_t *b, path_search_t *ps, geom_reach_t *reach, cmd_t *out)
{
    int act[MAP_MAX_COMBATANTS];
    const ruleset_t *rs = b->rules;
    int n = rs->actors(b, act, MAP_MAX_COMBATANTS);
    int ncells = b->map->cols * b->map->rows;
    for (int k = 0; k < n; k++) {
        cmd_t legal[64];
        int nl = rs->legal((battle_t *)b, act[k], legal, 64);
        for (int j = 0; j < nl && j < 64; j++) {
            move_cost_t mc;
            if (legal[j].kind != CMD_MOVE || !rs->move_cost ||
                !rs->move_cost(b, act[k], legal[j].arg, &mc))
                continue;
            if (geom_reach_mode(&mc, ps, reach, ncells) < 1) continue;
            cell_t path[CMD_PATH_MAX + 1];
            int cost = 0, len = 0;
            if (!geom_path_mode(&mc, reach[0].at, ps, &cost, path, CMD_PATH_MAX + 1, &len) ||
                len < 2)
                continue;
            *out = legal[j];
            out->n_path = len - 1;
            memcpy(out->path, path + 1, sizeof out->path[0] * (size_t)out->n_path);
            return true;
        }
    }
    return false;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bool bench_share(int rounds, const map_t *m, const tmpl_db_t *db, bench_share_t *out)
{
    memset(out, 0, sizeof *out);
    rig_t g;
    memset(&g, 0, sizeof g);
    battle_opts_t o = {.seed = 1};
    if (play_start(&g.p, m, db, NULL, &o) != BATTLE_OK) {
        play_end(&g.p);
        return false;
    }
    char err[300];
    bool net = hb_net_start(); /* the pages' own sockets */
    share_host_t h = {.ctx = &g, .battle = rig_battle, .apply = rig_apply};
    share_opts_t so = {.loopback = true};
    g.s = share_start(&h, &so, err, sizeof err);
    char *buf = malloc(BUF_MAX);
    int ncells = m->cols * m->rows;
    path_search_t *ps = path_search_create(ncells);
    geom_reach_t *reach = malloc(sizeof *reach * (size_t)ncells);
    double *lat = calloc((size_t)(rounds > 0 ? rounds : 1), sizeof *lat);
    page_t pg[SHARE_BENCH_PAGES];
    memset(pg, 0, sizeof pg);
    for (int k = 0; k < SHARE_BENCH_PAGES; k++)
        pg[k].fd = HB_NET_NONE;
    bool ok = net && g.s && buf && lat && ps && reach;
    /* Every player-side combatant joined, the pages spread over them. */
    char tok[MAP_MAX_COMBATANTS][SHARE_SECRET_HEX + 1];
    int nj = 0;
    for (int i = 0; ok && i < g.p.b->n; i++)
        if (battle_is_player(g.p.b, i) && join(&g, m->combatants[i].id, tok[nj], buf)) nj++;
    ok = ok && nj > 0;
    long want[SHARE_BENCH_PAGES];
    for (int k = 0; ok && k < SHARE_BENCH_PAGES; k++) {
        pg[k].fd = dial(&g);
        char req[256];
        snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                 tok[k % nj]);
        ok = pg[k].fd != HB_NET_NONE && put(&g, pg[k].fd, req);
        want[k] = 1;
    }
    ok = ok && until_all(&g, pg, want, buf);
    /* The latency: a move, then its undo, each timed to the last page. */
    int n_lat = 0;
    for (int r = 0; ok && r < rounds; r++) {
        cmd_t c;
        if (!a_move(g.p.b, ps, reach, &c)) {
            ok = false;
            break;
        }
        share_pump(g.s, 0);
        for (int k = 0; k < SHARE_BENCH_PAGES; k++)
            drain(&pg[k], buf), want[k] = pg[k].events + 1;
        double t0 = bench_now_ms();
        if (play_apply(&g.p, &c) != BATTLE_OK) {
            ok = false;
            break;
        }
        share_publish(g.s);
        ok = until_all(&g, pg, want, buf);
        lat[n_lat++] = bench_now_ms() - t0;
        play_undo(&g.p);
        share_publish(g.s);
        for (int k = 0; k < SHARE_BENCH_PAGES; k++)
            want[k]++;
        ok = ok && until_all(&g, pg, want, buf);
    }
    /* The frame cost: frames of publish + pump, a command every FRAME_EVERY. */
    double spent = 0;
    int frames = rounds * FRAME_EVERY;
    for (int f = 0; ok && f < frames; f++) {
        if (f % FRAME_EVERY == 0) {
            cmd_t c;
            if ((f / FRAME_EVERY) % 2 == 0) {
                if (a_move(g.p.b, ps, reach, &c)) play_apply(&g.p, &c);
            } else {
                play_undo(&g.p);
            }
        }
        double t0 = bench_now_ms();
        share_publish(g.s);
        share_pump(g.s, 0);
        spent += bench_now_ms() - t0;
        for (int k = 0; k < SHARE_BENCH_PAGES; k++)
            drain(&pg[k], buf); /* the phones read, outside the laptop's frame */
    }
    if (ok && n_lat > 0) {
        qsort(lat, (size_t)n_lat, sizeof *lat, cmp);
        out->latency_median_ms = lat[n_lat / 2];
        int p99 = (int)((n_lat - 1) * 0.99 + 0.5);
        out->latency_p99_ms = lat[p99];
        out->frame_cost_ms = frames > 0 ? spent / frames : 0;
    }
    for (int k = 0; k < SHARE_BENCH_PAGES; k++)
        if (pg[k].fd != HB_NET_NONE) hb_net_close(pg[k].fd);
    share_stop(g.s);
    if (net) hb_net_end();
    play_end(&g.p);
    free(buf);
    free(lat);
    free(reach);
    path_search_destroy(ps);
    return ok && n_lat > 0;
}
#else
/* No players' server in this build (HB_SHARE=OFF): nothing to measure. */
bool bench_share(int rounds, const map_t *m, const tmpl_db_t *db, bench_share_t *out)
{
    (void)rounds;
    (void)m;
    (void)db;
    (void)out;
    return false;
}
#endif
