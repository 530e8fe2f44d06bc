/* condlog.h - a combatant's current conditions, read from the event log.
 *
 * Every ruleset announces its conditions as `condition` events, turned on and
 * off by name, so reading them back from the log works for any ruleset
 * without knowing its condition bits (xhalem's hidden or prone, scars'
 * critical or scar:hamstrung alike). The initiative tracker shows these.
 */
#ifndef HB_CONDLOG_H
#define HB_CONDLOG_H

#include <stddef.h>

#include "event.h"

/* The most conditions tracked at once for one combatant; one turned on while
 * that many are on is left out. */
#define CONDLOG_MAX 16

/* Names of the conditions combatant `who` has now: each turned on by a
 * condition event and not turned off since, in the order first turned on.
 * Writes at most cap pointers (into the log's events: valid until the log
 * changes) and returns how many it wrote. No allocation. */
int condlog_current(const event_log_t *log, int who, const char **out, int cap);
/* The same as one line, "critical, scar:hamstrung"; "" for none. Returns buf. */
const char *condlog_text(const event_log_t *log, int who, char *buf, size_t cap);

#endif
