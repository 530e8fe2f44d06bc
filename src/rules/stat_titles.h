/* stat_titles.h - the words a table uses for each ruleset's stats and
 * gauges ("Vulnerability" for surface's vln, "Power points" for
 * activation's pp), for the screens to show instead of template keys. */
#ifndef HB_RULES_STAT_TITLES_H
#define HB_RULES_STAT_TITLES_H

#include <stddef.h>

/* The display name of stat `name` in ruleset `ruleset` (its id): the
 * ruleset's own word when it has one, else the name with its underscores
 * as spaces and a capital first letter. Written into buf; returns buf. */
const char *rules_stat_title(const char *ruleset, const char *name, char *buf, size_t cap);

#endif
