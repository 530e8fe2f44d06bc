/* share_wire.h - what the players' server sends and what it reads, with no
 * sockets: the per-side picture of the battle as JSON, and the checks a
 * page's command passes before it reaches the rules.
 *
 * Every byte that leaves for a page is built here from a side view
 * (io/side_view.h, the projector's own code): hexes never seen carry no
 * terrain, combatants the side may not see are not named anywhere (not in
 * the tracker, not in the log, not as a target), enemies' health and
 * secret rolls are left out. The server (share.c) only moves these strings.
 */
#ifndef HB_SHARE_WIRE_H
#define HB_SHARE_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/battle.h"
#include "core/path.h"
#include "io/side_view.h"

/* Longest message a page may send, in bytes; a longer one is refused whole. */
#define SHARE_MSG_MAX 4096
/* Most log lines one picture carries (the newest). */
#define SHARE_LOG_LINES 40

/* One side's view kept up to date with the battle. */
typedef struct {
    unsigned sides; /* the board side mask it sees for */
    vision_t *vis;
    side_fog_cache_t cache;
    side_view_t view;
    side_view_keys_t keys;
} share_eye_t;

/* An eye for the sides in mask SIDES of battle b; false on OOM (then free it). */
bool share_eye_init(share_eye_t *e, const battle_t *b, unsigned sides);
/* Free what share_eye_init made (a zeroed one is fine). */
void share_eye_free(share_eye_t *e);
/* Bring the eye up to date with b: true when its view changed. */
bool share_eye_update(share_eye_t *e, const battle_t *b);

/* The picture of battle b that eye e allows, for the page of combatant me
 * (its card, its legal actions and where it may move when it may act now),
 * as a JSON text (caller frees); NULL on OOM. The same battle gives the same
 * text, so a page is sent a picture only when its text changed. */
char *share_state_json(const battle_t *b, const share_eye_t *e, int me);

/* The same picture in two parts, so the pages of one side share the costly
 * one: the side's (map, combatants, turn, tracker, log) as a JSON object
 * text, and me's card as the text of the "me" object (NULL when me is no
 * combatant); share_state_join makes the picture of them. Callers free. */
char *share_side_json(const battle_t *b, const share_eye_t *e);
char *share_me_json(const battle_t *b, const share_eye_t *e, int me);
char *share_state_join(const char *side, const char *me);

/* The lobby for a page that has the secret: the map's name and the
 * player-side combatants, each marked taken or free (taken[i], may be
 * NULL). Only player-side combatants are named. Caller frees; NULL on OOM. */
char *share_lobby_json(const battle_t *b, const bool *taken);

/* May combatant i be joined from a page (on a player-controlled side)? */
bool share_joinable(const battle_t *b, int i);

/* Turn a page's command object (msg's "cmd", or "move": {"mode", "to":
 * [col, row]}) into a command for combatant me, checking its meaning: the
 * actor is me, me may act now, it is no referee's call and carries no
 * reaction answers, a target is one its side sees, a move's hex is one it
 * may reach (the path is found here, as the laptop finds it). ps is scratch
 * for the path search (path_search_create for the map). True with out set,
 * or false with a one-line reason in err. The rules still judge it when it
 * is applied. */
bool share_read_cmd(const battle_t *b, const share_eye_t *e, int me, const cJSON *msg,
                    path_search_t *ps, cmd_t *out, char *err, size_t errcap);

/* The physical die the battle waits for from combatant me's own hands
 * (its side rolls real dice), or NULL: only then does its page show the
 * prompt, and only then may it answer. */
const dice_request_t *share_die_for(const battle_t *b, int me);

#endif
