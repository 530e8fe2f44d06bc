/* event_json.h - events as JSON (one object per event, JSON Lines on output).
 *
 * Combatants are named by their map ids and cells as [col, row], so a line
 * reads on its own. The wire names are event_type_name's.
 */
#ifndef HB_EVENT_JSON_H
#define HB_EVENT_JSON_H

#include <cjson/cJSON.h>

#include "../core/battle.h"
#include "../core/board.h"
#include "../core/event.h"

/* The event as a new cJSON object (caller deletes); NULL on OOM. Side
 * indices are named through b's side table. */
cJSON *event_to_json(const board_t *b, const event_t *e);
/* The event as one line of JSON text without the newline (caller frees with
 * free()); NULL on OOM. */
char *event_to_line(const board_t *b, const event_t *e);
/* The same for an event of battle b's log: the `end` event also lists the
 * ammunition used (`ammo_used`: id, weapon, rounds), as the ruleset counts
 * it (ruleset_t.ammo_used) with the battle as it stands. */
cJSON *event_to_json_in(const battle_t *b, const event_t *e);
char *event_to_line_in(const battle_t *b, const event_t *e);

#endif
