/* share.c - the players' server over libmicrohttpd (see share.h). */
#include "share.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <microhttpd.h>

#include "io/fileio.h"
#include "platform/platform.h"
#include "share_wire.h"

#define KEEPALIVE_S 15.0 /* a comment line on a quiet stream, so nothing times it out */
#define IDLE_TIMEOUT_S 120
#define ASSET_MAX (1u << 20)
#define SEAT_LIVE_S 6.0  /* a page in the lobby calls every 1.5 s */
#define SEAT_IDLE_S 60.0 /* a seat holding nothing and silent this long may be reused */

/* The page's files, read once at start and served from memory. */
static const struct {
    const char *url, *file, *type;
} ASSETS[] = {
    {"/", "index.html", "text/html; charset=utf-8"},
    {"/index.html", "index.html", "text/html; charset=utf-8"},
    {"/share.js", "share.js", "text/javascript; charset=utf-8"},
    {"/share.css", "share.css", "text/css; charset=utf-8"},
};
#define N_ASSETS (sizeof ASSETS / sizeof ASSETS[0])

typedef struct {
    bool joined;
    char token[SHARE_SECRET_HEX + 1];
    char *state; /* the last picture built for it (NULL: none yet) */
    long seq;    /* bumped with every new picture */
    long gen;    /* bumped when its token is taken back: older streams end */
    int seat;    /* the page's seat holding it (index), -1 none */
} player_t;

/* A page that said hello: the referee can give it a combatant. */
typedef struct {
    bool used;
    char token[SHARE_SECRET_HEX + 1];
    int number; /* "Page N", never reused while sharing */
    int player; /* the combatant it holds, -1 none */
    double seen; /* its last call */
} seat_t;

typedef struct stream {
    share_t *s;
    int player;
    long gen;           /* its player's gen when it opened */
    long sent;          /* seq of the picture last queued on it */
    char *buf;          /* what is being written */
    size_t len, off;
    double last;        /* when it last wrote */
    bool live;          /* in s->streams */
    struct MHD_Connection *con;
    bool suspended;     /* waiting (off MHD's loop) for a picture or the keepalive */
} stream_t;

/* One request's body, read up to SHARE_MSG_MAX bytes. */
typedef struct {
    char body[SHARE_MSG_MAX + 1];
    size_t len;
    bool too_big;
} request_t;

struct share {
    share_host_t host;
    struct MHD_Daemon *d;
    int port;
    bool loopback;
    char secret[SHARE_SECRET_HEX + 1];
    char *asset[N_ASSETS];
    size_t asset_len[N_ASSETS];
    player_t players[MAP_MAX_COMBATANTS];
    share_eye_t eyes[MAP_MAX_FACTIONS];
    const battle_t *eyes_for; /* the battle the eyes were made for */
    int eyes_n;               /* its combatant count */
    seat_t seats[SHARE_SEATS_MAX];
    int next_seat_number;
    stream_t *streams[SHARE_CONN_MAX];
    int n_streams;
    int max_conns;
    uint64_t fp; /* fingerprint of the battle at the last publish */
    path_search_t *ps;
    int ps_cells;
    long taken, refused;
    bool net; /* hb_net_start said yes: hb_net_end at the stop */
};

static double now_s(void)
{
    return hb_plat_now_ms() / 1e3;
}

bool share_available(void)
{
    return true;
}

static bool make_token(char out[SHARE_SECRET_HEX + 1])
{
    unsigned char raw[SHARE_SECRET_HEX / 2];
    if (!hb_plat_random(raw, sizeof raw)) return false;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return true;
}

/* Compare a given secret with ours without stopping at the first difference. */
static bool same_secret(const char *given, const char *ours)
{
    if (!given) return false;
    size_t n = strlen(given);
    unsigned diff = n != SHARE_SECRET_HEX;
    for (size_t i = 0; i < SHARE_SECRET_HEX; i++)
        diff |= (unsigned)(unsigned char)(i < n ? given[i] : 0) ^ (unsigned char)ours[i];
    return diff == 0;
}

/* The joined player with this token, or -1. */
static int player_of(const share_t *s, const char *token)
{
    int found = -1;
    for (int i = 0; i < MAP_MAX_COMBATANTS; i++)
        if (s->players[i].joined && same_secret(token, s->players[i].token)) found = i;
    return found;
}

/* ---- pictures -------------------------------------------------------- */

#define FNV_BASIS 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * FNV_PRIME;
}

/* What a picture is made of, folded into a number: the log and command
 * counts, the newest event, where everyone stands and how they are. */
static uint64_t fingerprint(const battle_t *b)
{
    uint64_t h = mix(FNV_BASIS, (uint64_t)b->log.n);
    h = mix(h, (uint64_t)b->cmds.n);
    h = mix(h, (uint64_t)b->round * 2 + (b->over ? 1 : 0));
    if (b->log.n > 0) {
        const event_t *e = &b->log.ev[b->log.n - 1];
        h = mix(h, (uint64_t)e->type);
        h = mix(h, (uint64_t)(uint32_t)e->who << 32 | (uint32_t)e->target);
        h = mix(h, (uint64_t)(uint32_t)e->to.col << 32 | (uint32_t)e->to.row);
        h = mix(h, (uint64_t)(uint32_t)e->amount << 32 | (uint32_t)e->total);
    }
    for (int i = 0; i < b->n; i++) {
        h = mix(h, (uint64_t)(uint32_t)b->board->pos[i].q << 32 | (uint32_t)b->board->pos[i].r);
        h = mix(h, (uint64_t)(uint32_t)b->u[i].hp << 32 | b->u[i].cond);
        h = mix(h, (uint64_t)b->board->present[i]);
    }
    return h | 1;
}

/* Make the eyes (one per board side) for battle b when they are not for it. */
static bool ensure_eyes(share_t *s, const battle_t *b)
{
    if (s->eyes_for == b && s->eyes_n == b->n) return true;
    for (int k = 0; k < MAP_MAX_FACTIONS; k++)
        share_eye_free(&s->eyes[k]);
    s->eyes_for = NULL;
    for (int k = 0; k < b->board->n_sides && k < MAP_MAX_FACTIONS; k++)
        if (!share_eye_init(&s->eyes[k], b, 1u << k)) return false;
    int cells = b->map->cols * b->map->rows;
    if (s->ps_cells != cells) {
        path_search_destroy(s->ps);
        s->ps = path_search_create(cells);
        s->ps_cells = s->ps ? cells : 0;
        if (!s->ps) return false;
    }
    s->eyes_for = b;
    s->eyes_n = b->n;
    return true;
}

static share_eye_t *eye_of(share_t *s, const battle_t *b, int i)
{
    int side = b->board->side[i];
    return side >= 0 && side < MAP_MAX_FACTIONS ? &s->eyes[side] : NULL;
}

/* Give player i the picture made of its side's part (side) and its own;
 * true when it differs from the last one. */
static bool picture_with(share_t *s, const battle_t *b, int i, const char *side)
{
    share_eye_t *e = eye_of(s, b, i);
    char *me = e ? share_me_json(b, e, i) : NULL;
    char *st = me ? share_state_join(side, me) : NULL;
    free(me);
    if (!st) return false;
    player_t *p = &s->players[i];
    if (p->state && strcmp(p->state, st) == 0) {
        free(st);
        return false;
    }
    free(p->state);
    p->state = st;
    p->seq++;
    return true;
}

/* Build player i's picture alone (a page just joined). */
static bool picture(share_t *s, const battle_t *b, int i)
{
    share_eye_t *e = eye_of(s, b, i);
    if (!e) return false;
    share_eye_update(e, b);
    char *side = share_side_json(b, e);
    bool changed = side && picture_with(s, b, i, side);
    free(side);
    return changed;
}

void share_publish(share_t *s)
{
    if (!s) return;
    const battle_t *b = s->host.battle(s->host.ctx);
    if (!b || !ensure_eyes(s, b)) return;
    uint64_t fp = fingerprint(b);
    if (fp == s->fp) return;
    s->fp = fp;
    /* Each side's part once, for all of its pages. */
    for (int side = 0; side < b->board->n_sides && side < MAP_MAX_FACTIONS; side++) {
        char *text = NULL;
        for (int i = 0; i < b->n && i < MAP_MAX_COMBATANTS; i++) {
            if (!s->players[i].joined || b->board->side[i] != side) continue;
            if (!text) {
                share_eye_update(&s->eyes[side], b);
                text = share_side_json(b, &s->eyes[side]);
                if (!text) break;
            }
            picture_with(s, b, i, text);
        }
        free(text);
    }
}

/* ---- streams ----------------------------------------------------------- */

static void stream_drop(share_t *s, stream_t *st)
{
    for (int k = 0; k < s->n_streams; k++)
        if (s->streams[k] == st) {
            s->streams[k] = s->streams[--s->n_streams];
            break;
        }
    st->live = false;
}

static void stream_free(void *cls)
{
    stream_t *st = cls;
    if (st->live) stream_drop(st->s, st);
    free(st->buf);
    free(st);
}

/* The event stream of one page: the newest picture of its player whenever
 * there is one it has not had, a comment now and then to keep it open. */
static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    stream_t *st = cls;
    share_t *s = st->s;
    if (!st->live) return MHD_CONTENT_READER_END_OF_STREAM;
    player_t *p = &s->players[st->player];
    if (!p->joined || p->gen != st->gen) return MHD_CONTENT_READER_END_OF_STREAM;
    if (st->off >= st->len) {
        free(st->buf);
        st->buf = NULL;
        st->len = st->off = 0;
        if (p->state && p->seq != st->sent) {
            size_t n = strlen(p->state) + 48;
            st->buf = malloc(n);
            if (!st->buf) return 0;
            st->len = (size_t)snprintf(st->buf, n, "id: %ld\ndata: %s\n\n", p->seq, p->state);
            st->sent = p->seq;
        } else if (now_s() - st->last > KEEPALIVE_S) {
            st->buf = malloc(16);
            if (!st->buf) return 0;
            st->len = (size_t)snprintf(st->buf, 16, ": ping\n\n");
        } else {
            /* Nothing now: off the loop until share_pump has something. */
            MHD_suspend_connection(st->con);
            st->suspended = true;
            return 0;
        }
    }
    size_t n = st->len - st->off < max ? st->len - st->off : max;
    memcpy(out, st->buf + st->off, n);
    st->off += n;
    st->last = now_s();
    return (ssize_t)n;
}

/* ---- replies ----------------------------------------------------------- */

static void common_headers(struct MHD_Response *r, const char *type)
{
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self'; img-src 'self' data:; "
                            "connect-src 'self'; frame-ancestors 'none'");
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type,
                             const char *body, size_t len, bool copy)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)body, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    common_headers(r, type);
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

/* {"error": why} with status code. */
static enum MHD_Result reply_error(share_t *s, struct MHD_Connection *c, unsigned code,
                                   const char *why)
{
    s->refused++;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "error", why);
    char *t = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    if (!t) return MHD_NO;
    enum MHD_Result ok = reply(c, code, "application/json", t, strlen(t), true);
    free(t);
    return ok;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, char *text)
{
    if (!text) return MHD_NO;
    enum MHD_Result ok = reply(c, MHD_HTTP_OK, "application/json", text, strlen(text), true);
    free(text);
    return ok;
}

/* ---- seats: the pages, and who holds which combatant -------------------- */

/* The seat with this token (NULL: none), marked seen. */
static seat_t *seat_of(share_t *s, const char *token)
{
    seat_t *found = NULL;
    for (int k = 0; k < SHARE_SEATS_MAX; k++)
        if (s->seats[k].used && same_secret(token, s->seats[k].token)) found = &s->seats[k];
    if (found) found->seen = now_s();
    return found;
}

/* Take combatant who's token back: its streams end, its seat holds nothing. */
static void release(share_t *s, int who)
{
    player_t *p = &s->players[who];
    if (p->seat >= 0 && p->seat < SHARE_SEATS_MAX) s->seats[p->seat].player = -1;
    p->seat = -1;
    if (!p->joined) return;
    p->joined = false;
    p->gen++;
    memset(p->token, 0, sizeof p->token);
    free(p->state);
    p->state = NULL;
}

/* Give combatant who a new token, held by seat (index, -1 none): a page
 * holds one combatant at a time. False when no random token is had. */
static bool give(share_t *s, const battle_t *b, int who, int seat)
{
    release(s, who);
    if (seat >= 0 && s->seats[seat].player >= 0) release(s, s->seats[seat].player);
    player_t *p = &s->players[who];
    if (!make_token(p->token)) return false;
    p->joined = true;
    p->seat = seat;
    if (seat >= 0) s->seats[seat].player = who;
    picture(s, b, who);
    return true;
}

/* Does the seat's combatant have a stream open? */
static bool seat_watching(const share_t *s, const seat_t *t)
{
    if (t->player < 0) return false;
    const player_t *p = &s->players[t->player];
    for (int k = 0; k < s->n_streams; k++)
        if (s->streams[k]->player == t->player && s->streams[k]->gen == p->gen && p->joined) return true;
    return false;
}

int share_seats(const share_t *s, share_seat_t *out, int cap)
{
    if (!s) return 0;
    double now = now_s();
    int n = 0;
    /* By number: seats are taken in rising numbers, but reused ones are not
     * in order, so pick the next smallest each time. */
    int last = 0;
    while (n < cap) {
        const seat_t *best = NULL;
        for (int k = 0; k < SHARE_SEATS_MAX; k++) {
            const seat_t *t = &s->seats[k];
            if (t->used && t->number > last && (!best || t->number < best->number)) best = t;
        }
        if (!best) break;
        out[n].number = best->number;
        out[n].player = best->player;
        out[n].live = now - best->seen < SEAT_LIVE_S || seat_watching(s, best);
        last = best->number;
        n++;
    }
    return n;
}

bool share_assign(share_t *s, int who, int page)
{
    if (!s) return false;
    const battle_t *b = s->host.battle(s->host.ctx);
    if (!b || who >= MAP_MAX_COMBATANTS || !share_joinable(b, who) || !ensure_eyes(s, b)) return false;
    if (page == 0) {
        release(s, who);
        return true;
    }
    for (int k = 0; k < SHARE_SEATS_MAX; k++)
        if (s->seats[k].used && s->seats[k].number == page) return give(s, b, who, k);
    return false;
}

int share_holder(const share_t *s, int who)
{
    if (!s || who < 0 || who >= MAP_MAX_COMBATANTS || !s->players[who].joined) return 0;
    int seat = s->players[who].seat;
    return seat >= 0 && seat < SHARE_SEATS_MAX ? s->seats[seat].number : -1;
}

/* ---- the API ----------------------------------------------------------- */

/* POST /api/hello {"k": secret, "s"?: seat}: the page's seat (the same one
 * again when s is still known), {"seat": token, "page": number}. */
static enum MHD_Result api_hello(share_t *s, struct MHD_Connection *c, const cJSON *msg)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(msg, "k");
    if (!same_secret(cJSON_IsString(k) ? k->valuestring : NULL, s->secret))
        return reply_error(s, c, MHD_HTTP_FORBIDDEN, "wrong secret");
    const cJSON *old = cJSON_GetObjectItemCaseSensitive(msg, "s");
    seat_t *t = cJSON_IsString(old) ? seat_of(s, old->valuestring) : NULL;
    if (!t) {
        double now = now_s();
        for (int i = 0; i < SHARE_SEATS_MAX && !t; i++)
            if (!s->seats[i].used) t = &s->seats[i];
        for (int i = 0; i < SHARE_SEATS_MAX && !t; i++)
            if (s->seats[i].player < 0 && now - s->seats[i].seen > SEAT_IDLE_S) t = &s->seats[i];
        if (!t) return reply_error(s, c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many pages");
        if (!make_token(t->token))
            return reply_error(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no random token");
        t->used = true;
        t->number = ++s->next_seat_number;
        t->player = -1;
        t->seen = now;
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "seat", t->token);
    cJSON_AddNumberToObject(j, "page", t->number);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return reply_json(c, text);
}

/* The lobby, and for a page with a seat its number and the combatant the
 * referee gave it ("you": {"id", "token"}). */
static char *lobby_for(share_t *s, const battle_t *b, const char *seat)
{
    bool taken[MAP_MAX_COMBATANTS];
    for (int i = 0; i < MAP_MAX_COMBATANTS; i++)
        taken[i] = s->players[i].joined;
    char *text = share_lobby_json(b, taken);
    seat_t *t = seat ? seat_of(s, seat) : NULL;
    if (!text || !t) return text;
    cJSON *j = cJSON_Parse(text);
    free(text);
    if (!j) return NULL;
    cJSON_AddNumberToObject(j, "page", t->number);
    if (t->player >= 0 && t->player < b->n && s->players[t->player].joined) {
        cJSON *you = cJSON_AddObjectToObject(j, "you");
        cJSON_AddStringToObject(you, "id", b->map->combatants[t->player].id);
        cJSON_AddStringToObject(you, "token", s->players[t->player].token);
    }
    text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text;
}

/* POST /api/join {"k": secret, "id": combatant}: a token for that combatant. */
static enum MHD_Result api_join(share_t *s, struct MHD_Connection *c, const cJSON *msg)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(msg, "k");
    if (!same_secret(cJSON_IsString(k) ? k->valuestring : NULL, s->secret))
        return reply_error(s, c, MHD_HTTP_FORBIDDEN, "wrong secret");
    const battle_t *b = s->host.battle(s->host.ctx);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    int who = -1;
    for (int i = 0; i < b->n && cJSON_IsString(id); i++)
        if (share_joinable(b, i) && strcmp(b->map->combatants[i].id, id->valuestring) == 0) who = i;
    if (who < 0) return reply_error(s, c, MHD_HTTP_BAD_REQUEST, "id: not a player's combatant");
    if (who >= MAP_MAX_COMBATANTS || s->players[who].joined)
        return reply_error(s, c, MHD_HTTP_CONFLICT, "id: already taken");
    const cJSON *sj = cJSON_GetObjectItemCaseSensitive(msg, "s");
    int seat = -1;
    if (sj) {
        seat_t *t = cJSON_IsString(sj) ? seat_of(s, sj->valuestring) : NULL;
        if (!t) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "s: unknown page");
        seat = (int)(t - s->seats);
    }
    if (!ensure_eyes(s, b)) return reply_error(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    player_t *p = &s->players[who];
    if (!give(s, b, who, seat))
        return reply_error(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no random token");
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "token", p->token);
    cJSON_AddStringToObject(j, "id", b->map->combatants[who].id);
    char *t = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return reply_json(c, t);
}

/* POST /api/cmd {"t": token, "cmd": {...}} or {"t", "move": {"mode", "to"}}. */
static enum MHD_Result api_cmd(share_t *s, struct MHD_Connection *c, const cJSON *msg)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "t");
    int me = player_of(s, cJSON_IsString(t) ? t->valuestring : NULL);
    if (me < 0) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "unknown token");
    const battle_t *b = s->host.battle(s->host.ctx);
    if (!ensure_eyes(s, b)) return reply_error(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    share_eye_t *e = eye_of(s, b, me);
    share_eye_update(e, b);
    cmd_t cmd;
    char err[200];
    if (!share_read_cmd(b, e, me, msg, s->ps, &cmd, err, sizeof err))
        return reply_error(s, c, MHD_HTTP_CONFLICT, err);
    bool queued = false;
    char why[200] = "";
    battle_status_t st = s->host.apply(s->host.ctx, &cmd, &queued, why, sizeof why);
    if (st == BATTLE_ILLEGAL || st == BATTLE_ERROR || st == BATTLE_NOMEM)
        return reply_error(s, c, MHD_HTTP_CONFLICT, why[0] ? why : "refused by the rules");
    s->taken++;
    share_publish(s);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "ok", true);
    cJSON_AddBoolToObject(j, "queued", queued);
    if (why[0]) cJSON_AddStringToObject(j, "note", why);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return reply_json(c, text);
}

/* POST /api/die {"t": token, "value": n}: the physical die the battle waits
 * for from the page's own combatant. */
static enum MHD_Result api_die(share_t *s, struct MHD_Connection *c, const cJSON *msg)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "t");
    int me = player_of(s, cJSON_IsString(t) ? t->valuestring : NULL);
    if (me < 0) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "unknown token");
    const battle_t *b = s->host.battle(s->host.ctx);
    const dice_request_t *die = share_die_for(b, me);
    if (!die || !s->host.enter_die)
        return reply_error(s, c, MHD_HTTP_CONFLICT, "no roll of yours is waiting");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, "value");
    if (!cJSON_IsNumber(v) || v->valuedouble != (int)v->valuedouble || v->valuedouble < 1 ||
        v->valuedouble > die->sides)
        return reply_error(s, c, MHD_HTTP_BAD_REQUEST, "value: not a face of the die");
    char why[200] = "";
    if (s->host.enter_die(s->host.ctx, (int)v->valuedouble, why, sizeof why) == BATTLE_ILLEGAL)
        return reply_error(s, c, MHD_HTTP_CONFLICT, why[0] ? why : "refused");
    s->taken++;
    share_publish(s);
    return reply_json(c, strdup("{\"ok\":true}"));
}

/* GET /api/events?t=token: the page's stream of pictures. */
static enum MHD_Result api_events(share_t *s, struct MHD_Connection *c)
{
    const char *tok = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "t");
    int me = player_of(s, tok);
    if (me < 0) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "unknown token");
    if (s->n_streams >= SHARE_CONN_MAX)
        return reply_error(s, c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many pages");
    stream_t *st = calloc(1, sizeof *st);
    if (!st) return MHD_NO;
    st->s = s;
    st->con = c;
    st->player = me;
    st->gen = s->players[me].gen;
    st->sent = -1;
    st->last = now_s();
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 8192, stream_read, st, stream_free);
    if (!r) {
        free(st);
        return MHD_NO;
    }
    st->live = true;
    s->streams[s->n_streams++] = st;
    common_headers(r, "text/event-stream");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* Does a POST come from our own page (no Origin, or one naming our Host)? */
static bool same_origin(struct MHD_Connection *c)
{
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!origin) return true;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!host) return false;
    char want[300];
    snprintf(want, sizeof want, "http://%s", host);
    return strcmp(origin, want) == 0;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    share_t *s = cls;
    bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (post) {
        request_t *rq = *con_cls;
        if (!rq) {
            rq = calloc(1, sizeof *rq);
            if (!rq) return MHD_NO;
            *con_cls = rq;
            return MHD_YES;
        }
        if (*upload_size > 0) {
            /* Past the cap the rest is read and dropped; the reply says why. */
            if (!rq->too_big && rq->len + *upload_size <= SHARE_MSG_MAX) {
                memcpy(rq->body + rq->len, upload, *upload_size);
                rq->len += *upload_size;
            } else {
                rq->too_big = true;
            }
            *upload_size = 0;
            return MHD_YES;
        }
        if (rq->too_big) return reply_error(s, c, MHD_HTTP_CONTENT_TOO_LARGE, "message too large");
        if (!same_origin(c)) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "another site's page");
        rq->body[rq->len] = '\0';
        cJSON *msg = cJSON_ParseWithLength(rq->body, rq->len);
        if (!cJSON_IsObject(msg)) {
            cJSON_Delete(msg);
            return reply_error(s, c, MHD_HTTP_BAD_REQUEST, "malformed JSON");
        }
        enum MHD_Result ok;
        if (strcmp(url, "/api/join") == 0)
            ok = api_join(s, c, msg);
        else if (strcmp(url, "/api/hello") == 0)
            ok = api_hello(s, c, msg);
        else if (strcmp(url, "/api/cmd") == 0)
            ok = api_cmd(s, c, msg);
        else if (strcmp(url, "/api/die") == 0)
            ok = api_die(s, c, msg);
        else
            ok = reply_error(s, c, MHD_HTTP_NOT_FOUND, "no such call");
        cJSON_Delete(msg);
        return ok;
    }
    if (!get) return reply_error(s, c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET or POST");
    for (size_t k = 0; k < N_ASSETS; k++)
        if (strcmp(url, ASSETS[k].url) == 0)
            return reply(c, MHD_HTTP_OK, ASSETS[k].type, s->asset[k], s->asset_len[k], false);
    if (strcmp(url, "/api/lobby") == 0) {
        const char *k = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "k");
        if (!same_secret(k, s->secret)) return reply_error(s, c, MHD_HTTP_FORBIDDEN, "wrong secret");
        const battle_t *b = s->host.battle(s->host.ctx);
        return reply_json(c, lobby_for(s, b, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "s")));
    }
    if (strcmp(url, "/api/events") == 0) return api_events(s, c);
    return reply_error(s, c, MHD_HTTP_NOT_FOUND, "not found");
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
                    enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    free(*con_cls);
    *con_cls = NULL;
}

/* ---- start and stop ------------------------------------------------------ */

static bool load_assets(share_t *s, char *err, size_t errcap)
{
    for (size_t k = 0; k < N_ASSETS; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/share/%s", hb_assets_dir(), ASSETS[k].file);
        char *text = NULL;
        size_t len = 0;
        if (hb_read_file(path, ASSET_MAX, &text, &len, err, errcap) != HB_OK) return false;
        s->asset[k] = text;
        s->asset_len[k] = len;
    }
    return true;
}

share_t *share_start(const share_host_t *host, const share_opts_t *o, char *err, size_t errcap)
{
    share_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    s->host = *host;
    s->loopback = o->loopback;
    for (int i = 0; i < MAP_MAX_COMBATANTS; i++)
        s->players[i].seat = -1;
    s->max_conns = o->max_conns > 0 && o->max_conns < SHARE_CONN_MAX ? o->max_conns : SHARE_CONN_MAX;
    if (!make_token(s->secret)) {
        snprintf(err, errcap, "sharing: the system gives no random numbers for the secret");
        share_stop(s);
        return NULL;
    }
    if (!load_assets(s, err, errcap)) {
        share_stop(s);
        return NULL;
    }
    if (!hb_net_start()) {
        snprintf(err, errcap, "sharing: the system's network is not available");
        share_stop(s);
        return NULL;
    }
    s->net = true;
    /* The address to listen on, in the struct sockaddr that microhttpd.h
     * declares (it includes the system's socket header itself). */
    hb_net_addr_t addr;
    hb_net_addr_ipv4(&addr, o->loopback, o->port);
    s->d = MHD_start_daemon(MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
                            (struct sockaddr *)addr.u.bytes, MHD_OPTION_CONNECTION_LIMIT,
                            (unsigned)s->max_conns, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                            (unsigned)s->max_conns, MHD_OPTION_CONNECTION_TIMEOUT,
                            (unsigned)IDLE_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                            (size_t)(32 * 1024), MHD_OPTION_NOTIFY_COMPLETED, on_done, s,
                            MHD_OPTION_END);
    if (!s->d) {
        snprintf(err, errcap, "sharing: cannot listen on port %d (in use, or not allowed)",
                 o->port);
        share_stop(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : o->port;
    const battle_t *b = host->battle(host->ctx);
    if (b && !ensure_eyes(s, b)) {
        snprintf(err, errcap, "out of memory");
        share_stop(s);
        return NULL;
    }
    return s;
}

void share_stop(share_t *s)
{
    if (!s) return;
    /* Streams end first (a suspended one back on the loop, as MHD wants
     * before it stops), so the daemon's last run finds nothing to write. */
    for (int k = 0; k < s->n_streams; k++) {
        stream_t *st = s->streams[k];
        st->live = false;
        if (st->suspended) MHD_resume_connection(st->con);
        st->suspended = false;
    }
    s->n_streams = 0;
    if (s->d) MHD_stop_daemon(s->d);
    if (s->net) hb_net_end();
    for (size_t k = 0; k < N_ASSETS; k++)
        free(s->asset[k]);
    for (int i = 0; i < MAP_MAX_COMBATANTS; i++)
        free(s->players[i].state);
    for (int k = 0; k < MAP_MAX_FACTIONS; k++)
        share_eye_free(&s->eyes[k]);
    path_search_destroy(s->ps);
    free(s);
}

int share_port(const share_t *s)
{
    return s->port;
}

const char *share_secret(const share_t *s)
{
    return s->secret;
}

void share_url(const share_t *s, char *out, size_t cap)
{
    char ip[64] = "127.0.0.1";
    if (!s->loopback) hb_plat_lan_address(ip, sizeof ip);
    snprintf(out, cap, "http://%s:%d/?k=%s", ip, s->port, s->secret);
}

void share_pump(share_t *s, int wait_ms)
{
    if (!s || !s->d) return;
    /* Streams with a new picture, or quiet too long, go back on the loop. */
    double now = 0;
    for (int k = 0; k < s->n_streams; k++) {
        stream_t *st = s->streams[k];
        if (!st->suspended) continue;
        if (now == 0) now = now_s();
        const player_t *p = &s->players[st->player];
        if (p->seq != st->sent || p->gen != st->gen || !p->joined || now - st->last > KEEPALIVE_S) {
            MHD_resume_connection(st->con);
            st->suspended = false;
        }
    }
    if (wait_ms > 0)
        MHD_run_wait(s->d, wait_ms);
    else
        MHD_run(s->d);
}

int share_pages(const share_t *s)
{
    return s ? s->n_streams : 0;
}

long share_taken(const share_t *s)
{
    return s ? s->taken : 0;
}

long share_refused(const share_t *s)
{
    return s ? s->refused : 0;
}
