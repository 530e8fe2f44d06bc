/* test_share_protocol.c - the players' server (src/share) over real
 * loopback sockets: every refused message (malformed JSON, wrong secret or
 * token, another player's combatant, out of turn, a hidden or unknown id, a
 * referee's call, a 1 MB body) gets an error status and leaves the battle
 * exactly as it was; a page's stream carries nothing of a hidden enemy;
 * connections are capped; stopping closes every one. The server runs in
 * this thread (share_pump) while the test's sockets wait, every wait
 * bounded in time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vision.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "rules/play.h"
#include "share/share.h"
#include "share_client.h"
#include "tmp_fixture.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    play_t p;
    share_t *s;
    int applied; /* commands the host carried out */
    share_client_t c;
} fx_t;

static const battle_t *fx_battle(void *ctx)
{
    return ((fx_t *)ctx)->p.b;
}

static battle_status_t fx_apply(void *ctx, const cmd_t *c, bool *queued, char *msg, size_t cap)
{
    fx_t *f = ctx;
    (void)msg;
    (void)cap;
    *queued = false;
    f->applied++;
    return play_apply(&f->p, c);
}

static void fx_serve(void *ctx)
{
    share_pump(((fx_t *)ctx)->s, 1);
}

static battle_status_t fx_die(void *ctx, int value, char *msg, size_t cap)
{
    fx_t *f = ctx;
    (void)msg;
    (void)cap;
    f->applied++;
    return play_enter_die(&f->p, value);
}

/* The battle on ridge_ambush, the players' side rolling physical dice when
 * manual is set, shared on loopback with at most max_conns connections. */
static fx_t *fx_open_dice(int max_conns, bool manual)
{
    fx_t *f = calloc(1, sizeof *f);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/ridge_ambush.json", data_dir());
    assert_int_equal(map_load(path, data_dir(), &f->m, &f->db, err, sizeof err), HB_OK);
    battle_opts_t o = {.seed = 1};
    if (manual) {
        board_t *bd = board_create(f->m);
        o.manual_sides = vision_side_mask(bd, "players");
        board_destroy(bd);
    }
    battle_status_t st = play_start(&f->p, f->m, f->db, NULL, &o);
    assert_int_equal(st, manual ? BATTLE_NEED_DICE : BATTLE_OK);
    share_host_t h = {.ctx = f, .battle = fx_battle, .apply = fx_apply, .enter_die = fx_die};
    share_opts_t so = {.port = 0, .loopback = true, .max_conns = max_conns};
    f->s = share_start(&h, &so, err, sizeof err);
    if (!f->s) fprintf(stderr, "%s\n", err);
    assert_non_null(f->s);
    share_publish(f->s);
    f->c = (share_client_t){.port = share_port(f->s), .serve = fx_serve, .ctx = f};
    return f;
}

static fx_t *fx_open(int max_conns)
{
    return fx_open_dice(max_conns, false);
}

static void fx_close(fx_t *f)
{
    share_stop(f->s);
    play_end(&f->p);
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    free(f);
}

static hb_sock_t dial(fx_t *f)
{
    hb_sock_t fd = sc_dial(&f->c);
    assert_true(fd != HB_NET_NONE);
    return fd;
}

static void put(fx_t *f, hb_sock_t fd, const char *buf, size_t len)
{
    sc_put(&f->c, fd, buf, len);
}

static size_t take(fx_t *f, hb_sock_t fd, char *out, size_t cap, const char *until)
{
    return sc_take(&f->c, fd, out, cap, until);
}

static int request(fx_t *f, const char *method, const char *path, const char *data, size_t len,
                   char *body, size_t cap)
{
    return sc_request(&f->c, method, path, data, len, body, cap);
}

static int post(fx_t *f, const char *path, const char *json, char *body, size_t cap)
{
    return sc_post(&f->c, path, json, body, cap);
}

/* What must not change when a message is refused. */
typedef struct {
    int cmds, log;
    hex_t pos[MAP_MAX_COMBATANTS];
    int hp[MAP_MAX_COMBATANTS];
} snap_t;

static snap_t snap(const fx_t *f)
{
    snap_t s;
    memset(&s, 0, sizeof s);
    const battle_t *b = f->p.b;
    s.cmds = b->cmds.n;
    s.log = b->log.n;
    for (int i = 0; i < b->n; i++) {
        s.pos[i] = b->board->pos[i];
        s.hp[i] = b->u[i].hp;
    }
    return s;
}

static void same(const fx_t *f, const snap_t *a)
{
    snap_t b = snap(f);
    assert_memory_equal(a, &b, sizeof b);
}

/* Join id with the secret; the token into tok. */
static void join(fx_t *f, const char *id, char *tok)
{
    assert_true(sc_join(&f->c, share_secret(f->s), id, tok));
}

static void test_secret_gates_everything(void **state)
{
    (void)state;
    fx_t *f = fx_open(0);
    char body[8192], path[200];
    assert_int_equal(strlen(share_secret(f->s)), SHARE_SECRET_HEX);
    assert_int_equal(request(f, "GET", "/api/lobby", NULL, 0, body, sizeof body), 403);
    assert_null(strstr(body, "Kara"));
    assert_int_equal(request(f, "GET", "/api/lobby?k=00000000000000000000000000000000", NULL, 0,
                             body, sizeof body),
                     403);
    assert_null(strstr(body, "Kara"));
    /* One digit off is as wrong as all of them. */
    char near[SHARE_SECRET_HEX + 1];
    snprintf(near, sizeof near, "%s", share_secret(f->s));
    near[SHARE_SECRET_HEX - 1] = near[SHARE_SECRET_HEX - 1] == '0' ? '1' : '0';
    snprintf(path, sizeof path, "/api/lobby?k=%s", near);
    assert_int_equal(request(f, "GET", path, NULL, 0, body, sizeof body), 403);
    /* The page itself carries no battle data, so anyone may have it. */
    assert_int_equal(request(f, "GET", "/", NULL, 0, body, sizeof body), 200);
    assert_null(strstr(body, "Kara"));
    /* With the secret: the player side's combatants, and no enemy. */
    snprintf(path, sizeof path, "/api/lobby?k=%s", share_secret(f->s));
    assert_int_equal(request(f, "GET", path, NULL, 0, body, sizeof body), 200);
    assert_non_null(strstr(body, "\"kara\""));
    assert_null(strstr(body, "\"boss\""));
    /* Joining: wrong secret, an enemy, a taken one. */
    snap_t before = snap(f);
    assert_int_equal(post(f, "/api/join", "{\"k\":\"nope\",\"id\":\"kara\"}", body, sizeof body), 403);
    char msg[200];
    snprintf(msg, sizeof msg, "{\"k\":\"%s\",\"id\":\"boss\"}", share_secret(f->s));
    assert_int_equal(post(f, "/api/join", msg, body, sizeof body), 400);
    char tok[SHARE_SECRET_HEX + 1];
    join(f, "kara", tok);
    snprintf(msg, sizeof msg, "{\"k\":\"%s\",\"id\":\"kara\"}", share_secret(f->s));
    assert_int_equal(post(f, "/api/join", msg, body, sizeof body), 409);
    same(f, &before);
    fx_close(f);
}

static void test_refused_messages_change_nothing(void **state)
{
    (void)state;
    fx_t *f = fx_open(0);
    char kara[SHARE_SECRET_HEX + 1], dren[SHARE_SECRET_HEX + 1], msg[600], body[4096];
    join(f, "kara", kara);
    join(f, "dren", dren);
    snap_t before = snap(f);
    long refused = share_refused(f->s);
    struct {
        const char *what;
        const char *fmt; /* %s: a token */
        const char *tok;
        int status;
    } bad[] = {
        {"malformed", "{\"t\":\"%s\",\"cmd\":{\"cmd\":", kara, 400},
        {"not an object", "[\"%s\"]", kara, 400},
        {"wrong token", "{\"t\":\"%s0\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"kara\"}}", kara, 403},
        {"no token", "{\"cmd\":{\"cmd\":\"end\",\"actor\":\"kara\"}}%s", "", 403},
        {"another player's", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"dren\"}}", kara, 409},
        {"an enemy", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"hound1\"}}", kara, 409},
        {"out of turn", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"dren\"}}", dren, 409},
        {"out of turn move", "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[5,12]}}", dren, 409},
        {"unknown id", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"engage\",\"actor\":\"kara\",\"target\":\"ghost\"}}", kara, 409},
        {"hidden id", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"engage\",\"actor\":\"kara\",\"target\":\"boss\"}}", kara, 409},
        {"referee's call", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"telegraph\",\"actor\":\"kara\"}}", kara, 409},
        {"reaction answers", "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"kara\",\"reactions\":[1]}}", kara, 409},
        {"off the map", "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[99,2]}}", kara, 409},
        {"out of reach", "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[23,0]}}", kara, 409},
        {"bad mode", "{\"t\":\"%s\",\"move\":{\"mode\":7,\"to\":[3,11]}}", kara, 409},
        {"both", "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[3,11]},\"cmd\":{\"cmd\":\"end\",\"actor\":\"kara\"}}", kara, 409},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(msg, sizeof msg, bad[k].fmt, bad[k].tok);
        int st = post(f, "/api/cmd", msg, body, sizeof body);
        if (st != bad[k].status) fprintf(stderr, "%s: %d %s\n", bad[k].what, st, body);
        assert_int_equal(st, bad[k].status);
        assert_non_null(strstr(body, "\"error\""));
        /* A hidden enemy's id reads as no id at all. */
        assert_null(strstr(body, "boss"));
        same(f, &before);
    }
    /* A 1 MB message, well formed but far too long. */
    size_t big = 1u << 20;
    char *huge = malloc(big + 1);
    int n = snprintf(huge, big, "{\"t\":\"%s\",\"pad\":\"", kara);
    memset(huge + n, 'a', big - (size_t)n - 3);
    memcpy(huge + big - 3, "\"}", 3);
    assert_int_equal(request(f, "POST", "/api/cmd", huge, big - 1, body, sizeof body), 413);
    free(huge);
    same(f, &before);
    assert_int_equal(f->applied, 0);
    assert_int_equal(share_refused(f->s) - refused, (long)(sizeof bad / sizeof bad[0]) + 1);
    /* The one that is allowed: Kara's own move on her turn. */
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[3,11]}}", kara);
    assert_int_equal(post(f, "/api/cmd", msg, body, sizeof body), 200);
    assert_int_equal(f->applied, 1);
    assert_int_equal(f->p.b->cmds.n, before.cmds + 1);
    cell_t at = hex_to_cell(f->m->layout, f->p.b->board->pos[0]);
    assert_int_equal(at.col, 3);
    assert_int_equal(at.row, 11);
    fx_close(f);
}

static void test_stream_names_no_hidden_enemy(void **state)
{
    (void)state;
    fx_t *f = fx_open(0);
    char kara[SHARE_SECRET_HEX + 1], path[200];
    join(f, "kara", kara);
    hb_sock_t fd = dial(f);
    snprintf(path, sizeof path,
             "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", kara);
    put(f, fd, path, strlen(path));
    char *ans = malloc(SHARE_ANSWER_MAX);
    take(f, fd, ans, SHARE_ANSWER_MAX, "\n\n");
    assert_non_null(strstr(ans, "text/event-stream"));
    assert_non_null(strstr(ans, "data: {\"type\":\"state\""));
    assert_non_null(strstr(ans, "\"kara\""));
    /* The boss waits in the walled house, out of the players' sight. */
    assert_null(strstr(ans, "\"boss\""));
    assert_null(strstr(ans, "Raider Boss"));
    /* A move reaches the stream as a new picture. */
    char msg[200], body[1024];
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[3,11]}}", kara);
    assert_int_equal(post(f, "/api/cmd", msg, body, sizeof body), 200);
    take(f, fd, ans, SHARE_ANSWER_MAX, "\"at\":[3,11]");
    assert_non_null(strstr(ans, "\"at\":[3,11]"));
    free(ans);
    hb_net_close(fd);
    fx_close(f);
}

static void test_connections_capped_and_closed_on_stop(void **state)
{
    (void)state;
    fx_t *f = fx_open(3);
    char kara[SHARE_SECRET_HEX + 1];
    join(f, "kara", kara);
    /* Three streams fill the cap. */
    hb_sock_t fd[3];
    char req[200], buf[8192];
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", kara);
    for (int k = 0; k < 3; k++) {
        fd[k] = dial(f);
        put(f, fd[k], req, strlen(req));
        take(f, fd[k], buf, sizeof buf, "\n\n");
        assert_non_null(strstr(buf, "data: "));
    }
    assert_int_equal(share_pages(f->s), 3);
    /* A fourth connection is closed without an answer. */
    hb_sock_t extra = dial(f);
    put(f, extra, req, strlen(req));
    assert_int_equal(take(f, extra, buf, sizeof buf, NULL), 0);
    hb_net_close(extra);
    /* Stopping closes every stream: each reads the end. */
    share_stop(f->s);
    f->s = NULL;
    for (int k = 0; k < 3; k++) {
        char c;
        double end = sc_now() + SHARE_WAIT_S;
        long long r = -1;
        /* What was sent before the stop may still be read first. */
        while (sc_now() < end) {
            r = hb_net_recv(fd[k], &c, 1);
            if (r == 0 || r < -1) break; /* the end, or a reset */
        }
        assert_true(r == 0 || r < -1);
        hb_net_close(fd[k]);
    }
    fx_close(f);
}

/* The players roll real dice: the waiting die shows on its roller's page
 * alone, and only that page may give it, a face of the die. */
static void test_dice_from_the_rollers_page(void **state)
{
    (void)state;
    fx_t *f = fx_open_dice(0, true);
    const battle_t *b = f->p.b;
    assert_true(b->needing);
    int who = b->need.who;
    assert_true(who >= 0 && battle_is_player(b, who));
    int other = -1;
    for (int i = 0; i < b->n && other < 0; i++)
        if (i != who && battle_is_player(b, i)) other = i;
    char tok[SHARE_SECRET_HEX + 1], tok2[SHARE_SECRET_HEX + 1], msg[200], body[8192];
    join(f, f->m->combatants[who].id, tok);
    join(f, f->m->combatants[other].id, tok2);
    snap_t before = snap(f);
    /* Not a face, not a number, not the roller: refused, nothing entered. */
    const char *bad[] = {"{\"t\":\"%s\",\"value\":0}", "{\"t\":\"%s\",\"value\":99}",
                         "{\"t\":\"%s\",\"value\":\"6\"}", "{\"t\":\"%s\",\"value\":2.5}"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(msg, sizeof msg, bad[k], tok);
        assert_int_equal(post(f, "/api/die", msg, body, sizeof body), 400);
    }
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"value\":1}", tok2);
    assert_int_equal(post(f, "/api/die", msg, body, sizeof body), 409);
    assert_int_equal(f->applied, 0);
    same(f, &before);
    /* The prompt is in the roller's picture only. */
    hb_sock_t fd = dial(f);
    char req[200], *ans = malloc(SHARE_ANSWER_MAX);
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tok);
    put(f, fd, req, strlen(req));
    take(f, fd, ans, SHARE_ANSWER_MAX, "\n\n");
    assert_non_null(strstr(ans, "\"die\":{\"sides\":"));
    hb_net_close(fd);
    fd = dial(f);
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tok2);
    put(f, fd, req, strlen(req));
    take(f, fd, ans, SHARE_ANSWER_MAX, "\n\n");
    assert_non_null(strstr(ans, "data: "));
    assert_null(strstr(ans, "\"die\":"));
    hb_net_close(fd);
    free(ans);
    /* The roller gives it: the battle goes on with that die. */
    int entered = f->p.b->dice.n_entered;
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"value\":%d}", tok, f->p.b->need.sides);
    assert_int_equal(post(f, "/api/die", msg, body, sizeof body), 200);
    assert_int_equal(f->applied, 1);
    assert_int_equal(f->p.b->dice.n_entered, entered + 1);
    fx_close(f);
}

/* A raider behind a wall, within the scout's walk but out of its side's
 * sight: the reach the page gets and the path a move takes are worked out
 * as if its hex were empty, so they never show where it stands. */
static void test_reach_keeps_hidden_hexes_secret(void **state)
{
    (void)state;
    char dir[512], path[700], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "share-reach"));
    snprintf(path, sizeof path, "%s/wall.json", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("{\"format\":\"hexbattle-map\",\"version\":1,\"name\":\"Wall\",\"ruleset\":\"xhalem\","
          "\"grid\":{\"orientation\":\"pointy\",\"stagger\":\"odd\",\"cols\":8,\"rows\":3,"
          "\"feet_per_hex\":5},\"terrain\":{\"legend\":{\".\":\"open\",\"#\":\"wall\"},"
          "\"rows\":[\"..#.....\",\"..#.....\",\"........\"]},"
          "\"factions\":{\"players\":\"player\",\"raiders\":\"architect\"},"
          "\"combatants\":[{\"id\":\"p\",\"name\":\"Pip\",\"faction\":\"players\",\"at\":[0,0],"
          "\"template\":\"scout\"},{\"id\":\"e\",\"name\":\"Lurker\",\"faction\":\"raiders\","
          "\"at\":[3,0],\"template\":\"brute\"}]}",
          fp);
    fclose(fp);
    fx_t *f = calloc(1, sizeof *f);
    assert_int_equal(map_load(path, data_dir(), &f->m, &f->db, err, sizeof err), HB_OK);
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
    share_host_t h = {.ctx = f, .battle = fx_battle, .apply = fx_apply, .enter_die = fx_die};
    share_opts_t so = {.loopback = true};
    f->s = share_start(&h, &so, err, sizeof err);
    assert_non_null(f->s);
    f->c = (share_client_t){.port = share_port(f->s), .serve = fx_serve, .ctx = f};
    share_publish(f->s);
    /* Whoever acts first, Pip's picture names no Lurker. */
    char tok[SHARE_SECRET_HEX + 1], req[200], *ans = malloc(SHARE_ANSWER_MAX);
    join(f, "p", tok);
    hb_sock_t fd = dial(f);
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tok);
    put(f, fd, req, strlen(req));
    /* The raiders may act first (the AI is not playing here): end their turns. */
    for (int guard = 0; guard < 8; guard++) {
        int act[MAP_MAX_COMBATANTS];
        int n = play_actors(&f->p, act, MAP_MAX_COMBATANTS);
        if (n < 1 || battle_is_player(f->p.b, act[0])) break;
        cmd_t end = cmd_make(CMD_END, act[0]);
        play_apply(&f->p, &end);
        share_publish(f->s);
    }
    take(f, fd, ans, SHARE_ANSWER_MAX, "\"reach\"");
    assert_non_null(strstr(ans, "\"reach\""));
    assert_null(strstr(ans, "Lurker"));
    assert_null(strstr(ans, "\"e\""));
    /* Its hex is in the reach, as an empty one would be. */
    assert_non_null(strstr(strstr(ans, "\"reach\""), "[3,0]"));
    /* And a move there is found a path, then refused by the rules alone. */
    char msg[200], body[1024];
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[3,0]}}", tok);
    snap_t before = snap(f);
    int st = post(f, "/api/cmd", msg, body, sizeof body);
    assert_int_equal(st, 409);
    assert_null(strstr(body, "out of reach"));
    assert_int_equal(f->applied, 1);
    same(f, &before);
    free(ans);
    hb_net_close(fd);
    fx_close(f);
    tmp_dir_remove(dir);
}

/* A page's hello: its seat token and number, "" / 0 when refused. */
static int hello(fx_t *f, char *seat)
{
    char msg[200], body[1024];
    snprintf(msg, sizeof msg, "{\"k\":\"%s\"}", share_secret(f->s));
    if (post(f, "/api/hello", msg, body, sizeof body) != 200) return 0;
    const char *t = strstr(body, "\"seat\":\"");
    const char *n = strstr(body, "\"page\":");
    assert_non_null(t);
    assert_non_null(n);
    snprintf(seat, SHARE_SECRET_HEX + 1, "%s", t + 8);
    return atoi(n + 7);
}

/* The lobby as page seat sees it; the token the referee gave it into tok
 * ("" none). */
static void lobby_as(fx_t *f, const char *seat, char *body, size_t cap, char *tok)
{
    char path[200];
    snprintf(path, sizeof path, "/api/lobby?k=%s&s=%s", share_secret(f->s), seat);
    assert_int_equal(request(f, "GET", path, NULL, 0, body, cap), 200);
    const char *t = strstr(body, "\"token\":\"");
    tok[0] = '\0';
    if (t) snprintf(tok, SHARE_SECRET_HEX + 1, "%s", t + 9);
}

/* The referee gives a combatant to a page, moves it to another and frees
 * it: each time the page that lost it is refused with its old token and
 * its stream ends, the page that got it learns its token from the lobby,
 * and the battle is untouched. Enemies and unknown pages are refused. */
static void test_referee_assigns_pages(void **state)
{
    (void)state;
    fx_t *f = fx_open(0);
    char s1[SHARE_SECRET_HEX + 1], s2[SHARE_SECRET_HEX + 1], body[8192], tok[SHARE_SECRET_HEX + 1];
    int p1 = hello(f, s1), p2 = hello(f, s2);
    assert_true(p1 > 0 && p2 > 0 && p1 != p2);
    /* Without the secret no seat, and the lobby names nothing of a seat. */
    assert_int_equal(post(f, "/api/hello", "{\"k\":\"nope\"}", body, sizeof body), 403);
    share_seat_t seats[SHARE_SEATS_MAX];
    assert_int_equal(share_seats(f->s, seats, SHARE_SEATS_MAX), 2);
    assert_true(seats[0].live && seats[1].live);
    assert_int_equal(seats[0].number, p1);
    const battle_t *b = f->p.b;
    int kara = board_find(b->board, "kara"), boss = board_find(b->board, "boss");
    snap_t before = snap(f);

    assert_false(share_assign(f->s, boss, p1)); /* not a player's */
    assert_false(share_assign(f->s, kara, 999)); /* no such page */
    assert_int_equal(share_holder(f->s, kara), 0);
    lobby_as(f, s1, body, sizeof body, tok);
    assert_string_equal(tok, "");

    /* To page 1: it learns Kara's token and may watch her. */
    assert_true(share_assign(f->s, kara, p1));
    assert_int_equal(share_holder(f->s, kara), p1);
    lobby_as(f, s1, body, sizeof body, tok);
    assert_non_null(strstr(body, "\"you\":{\"id\":\"kara\""));
    assert_int_equal(strlen(tok), SHARE_SECRET_HEX);
    char first[SHARE_SECRET_HEX + 1];
    snprintf(first, sizeof first, "%s", tok);
    lobby_as(f, s2, body, sizeof body, tok);
    assert_string_equal(tok, ""); /* page 2 gets nothing of it */
    assert_non_null(strstr(body, "\"taken\":true"));
    hb_sock_t fd = dial(f);
    char req[200];
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", first);
    put(f, fd, req, strlen(req));
    char *ans = malloc(SHARE_ANSWER_MAX);
    take(f, fd, ans, SHARE_ANSWER_MAX, "\n\n");
    assert_non_null(strstr(ans, "data: {\"type\":\"state\""));

    /* To page 2: page 1's token is refused and its stream ends. */
    assert_true(share_assign(f->s, kara, p2));
    assert_int_equal(share_holder(f->s, kara), p2);
    /* The stream ends: its last chunk (HTTP/1.1 chunked, size zero). */
    take(f, fd, ans, SHARE_ANSWER_MAX, "0\r\n\r\n");
    assert_non_null(strstr(ans, "0\r\n\r\n"));
    hb_net_close(fd);
    char msg[200];
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"cmd\":{\"cmd\":\"end\",\"actor\":\"kara\"}}", first);
    assert_int_equal(post(f, "/api/cmd", msg, body, sizeof body), 403);
    snprintf(req, sizeof req, "/api/events?t=%s", first);
    assert_int_equal(request(f, "GET", req, NULL, 0, body, sizeof body), 403);
    lobby_as(f, s1, body, sizeof body, tok);
    assert_string_equal(tok, "");
    lobby_as(f, s2, body, sizeof body, tok);
    assert_int_equal(strlen(tok), SHARE_SECRET_HEX);
    assert_string_not_equal(tok, first);

    /* A page holds one combatant: Dren to page 2 frees Kara. */
    int dren = board_find(b->board, "dren");
    assert_true(share_assign(f->s, dren, p2));
    assert_int_equal(share_holder(f->s, dren), p2);
    assert_int_equal(share_holder(f->s, kara), 0);

    /* Freed: the lobby offers Dren again and any page may join him. */
    assert_true(share_assign(f->s, dren, 0));
    assert_int_equal(share_holder(f->s, dren), 0);
    lobby_as(f, s2, body, sizeof body, tok);
    assert_string_equal(tok, "");
    assert_null(strstr(body, "\"taken\":true"));
    snprintf(msg, sizeof msg, "{\"k\":\"%s\",\"id\":\"dren\",\"s\":\"%s\"}", share_secret(f->s), s1);
    assert_int_equal(post(f, "/api/join", msg, body, sizeof body), 200);
    assert_int_equal(share_holder(f->s, dren), p1);
    /* A join naming an unknown page is refused. */
    snprintf(msg, sizeof msg, "{\"k\":\"%s\",\"id\":\"kara\",\"s\":\"%s\"}", share_secret(f->s),
             "0123456789abcdef0123456789abcdef");
    assert_int_equal(post(f, "/api/join", msg, body, sizeof body), 403);
    same(f, &before);
    free(ans);
    fx_close(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_secret_gates_everything),
        cmocka_unit_test(test_refused_messages_change_nothing),
        cmocka_unit_test(test_stream_names_no_hidden_enemy),
        cmocka_unit_test(test_connections_capped_and_closed_on_stop),
        cmocka_unit_test(test_dice_from_the_rollers_page),
        cmocka_unit_test(test_reach_keeps_hidden_hexes_secret),
        cmocka_unit_test(test_referee_assigns_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
