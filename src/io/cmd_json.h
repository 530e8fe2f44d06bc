/* cmd_json.h - commands as JSON, for scenario files, saves and replays.
 *
 * A command is an object naming combatants by their map ids and cells as
 * [col, row]:
 *   {"cmd": "engage", "actor": "kara", "target": "vex", "weapon": "hook_knife"}
 *   {"cmd": "move", "actor": "kara", "path": [[4, 3], [5, 3]]}
 *   {"cmd": "declare", "actor": "a", "act": "engage", "target": "b", "path": [...]}
 * Optional keys: target, weapon and weapon2 (an index into the actor's
 * weapons or a weapon id it carries; -1 or "unarmed" for none; -2 or "grab"
 * for the built-in Grab of a ruleset that has one), arg (integer),
 * act (a command name), at ([col, row]), path, and reactions (the table's
 * answers to the reactions it was asked about while the command played, in
 * order: the option chosen, 0 to let it pass; false and true read as 0 and
 * 1, and 0 and 1 are written so, as saves have always had them). Absent keys keep cmd_make's
 * defaults; cmd_to_json writes every field that differs from them, so a
 * command read back from its JSON is the same command.
 */
#ifndef HB_CMD_JSON_H
#define HB_CMD_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "../core/cmd.h"
#include "../core/map.h"

/* Read command object v against map m's combatants into *out. Returns true,
 * or false with a one-line reason in err. */
bool cmd_from_json(const cJSON *v, const map_t *m, cmd_t *out, char *err, size_t errcap);
/* The command as a new cJSON object in the same form (caller deletes); NULL on OOM. */
cJSON *cmd_to_json(const map_t *m, const cmd_t *c);

#endif
