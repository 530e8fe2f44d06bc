/* share.h - the players' server: the battle on each player's own device
 * over the local network (docs/sharing.md).
 *
 * One HTTP server (libmicrohttpd, no HTTP code of ours) serves the page in
 * assets/share/ from memory, a small JSON API and one server-sent-events
 * stream per page. It runs in the owner's thread: share_pump serves what is
 * ready (waiting at most wait_ms), so the play window calls it once a frame
 * with 0 and `hexbattle serve` with a few milliseconds; the battle is only
 * ever touched from that thread, so nothing is locked.
 *
 * What leaves is built by share_wire.c from the projector's side view. The
 * join address carries a 128-bit secret from the OS's generator: without it
 * the API answers 403 and names nothing. Joining a combatant gives the page
 * a token of its own; a page commands only that combatant, only on its
 * turn, only with an action the rules list. Every message is read with a
 * size cap and checked; a refused one gets an error reply and changes
 * nothing. Connections are capped; share_stop closes them all.
 */
#ifndef HB_SHARE_H
#define HB_SHARE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/battle.h"

#define SHARE_SECRET_HEX 32 /* 128 bits as hex digits */
#define SHARE_CONN_MAX 32   /* most connections at once (pages, streams, requests) */
#define SHARE_URL_MAX 128
#define SHARE_SEATS_MAX 32  /* pages known at once (each a "Page N") */

typedef struct share share_t;

/* The owner of the battle, as the server sees it. */
typedef struct {
    void *ctx;
    /* The battle as it stands now. */
    const battle_t *(*battle)(void *ctx);
    /* Carry out a command a page sent (already checked against the rules'
     * legal list) through the owner's own command path, so undo and saves
     * see it as any other: BATTLE_OK (or NEED_DICE and the like) when taken,
     * BATTLE_ILLEGAL when refused; *queued set when it waits for the
     * referee's approval instead. msg (may stay "") says why. */
    battle_status_t (*apply)(void *ctx, const cmd_t *c, bool *queued, char *msg, size_t cap);
    /* Give the physical die the battle waits for (a roll of a page's own
     * combatant, already checked to be a face of the die): BATTLE_ILLEGAL
     * when refused. May be NULL: pages cannot enter dice. */
    battle_status_t (*enter_die)(void *ctx, int value, char *msg, size_t cap);
} share_host_t;

typedef struct {
    int port;      /* 0: any free port */
    bool loopback; /* listen on 127.0.0.1 only (tests, the bench) */
    int max_conns; /* 0: SHARE_CONN_MAX */
} share_opts_t;

/* Was this build made with the players' server (CMake's HB_SHARE)? When not,
 * share_start always fails, saying sharing is unavailable (share_off.c). */
bool share_available(void);
/* Start serving; NULL with err filled when the port cannot be had, the
 * page's files cannot be read or the OS gives no random secret. */
share_t *share_start(const share_host_t *host, const share_opts_t *o, char *err, size_t errcap);
/* Stop: every connection closed, everything freed (NULL is fine). */
void share_stop(share_t *s);
/* The port it listens on. */
int share_port(const share_t *s);
/* The secret, as SHARE_SECRET_HEX hex digits. */
const char *share_secret(const share_t *s);
/* The join address: http://ADDRESS:PORT/?k=SECRET, with the machine's
 * local-network address (127.0.0.1 when loopback or none). */
void share_url(const share_t *s, char *out, size_t cap);
/* Serve whatever is ready, waiting up to wait_ms for something (0: not at all). */
void share_pump(share_t *s, int wait_ms);
/* Look at the battle again: when it changed, each page gets its new picture
 * (queued here, sent by share_pump). Cheap when nothing changed. */
void share_publish(share_t *s);
/* A page that said hello (POST /api/hello): the referee may give it a
 * combatant. */
typedef struct {
    int number;  /* shown as "Page N" on the page and in the play window */
    int player;  /* the combatant it holds, -1 none */
    bool live;   /* called in the last few seconds, or watches its combatant */
} share_seat_t;

/* The pages known, by number (at most cap): how many. */
int share_seats(const share_t *s, share_seat_t *out, int cap);
/* Give player-side combatant who to page number `page` (0: free it): the
 * page that held it loses it (its stream ends and it is back in the
 * lobby), and a combatant the page held before is freed; the page learns
 * its combatant on its next call. False (nothing changed) when who is no
 * player's combatant or there is no such page. */
bool share_assign(share_t *s, int who, int page);
/* The page number holding combatant who: 0 when free, -1 when joined by a
 * client that said no hello. */
int share_holder(const share_t *s, int who);

/* Live event streams (pages watching). */
int share_pages(const share_t *s);
/* Commands taken from pages so far, and refused. */
long share_taken(const share_t *s);
long share_refused(const share_t *s);

#endif
