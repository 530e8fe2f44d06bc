/* stat_titles.c - each ruleset's words for its stats (see stat_titles.h).
 * The keys are the template keys of the rulesets' stat tables (their
 * stat_names) and of the stats their events report. */
#include "stat_titles.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *key, *title;
} title_t;

/* surface: vulnerability, soak dice (n dice of d sides, less against heat). */
static const title_t SURFACE[] = {
    {"combat_bonus", "Combat bonus"},
    {"vln", "Vulnerability"},
    {"armor_hp", "Armour"},
    {"soak_n", "Soak dice"},
    {"soak_d", "Soak die"},
    {"soak_heat", "Soak vs heat"},
    {"soak2_n", "Second soak dice"},
    {"soak2_d", "Second soak die"},
    {"soak2_heat", "Second soak vs heat"},
    {"vent", "Vent"},
    {"sensor", "Sensors"},
    {"save_area", "Save vs area"},
    {"save_stun", "Save vs stun"},
    {"save_beam", "Save vs beam"},
    {"save_homing", "Save vs homing"},
    {"martial", "Martial arts die"},
    {"nonlethal", "Nonlethal damage"},
    {NULL, NULL},
};

static const title_t ACTIVATION[] = {
    {"spd", "Speed"},
    {"acc", "Accuracy stages"},
    {"eva", "Evasion stages"},
    {"atk", "Attack"},
    {"def", "Defence"},
    {"spatk", "Special attack"},
    {"spdef", "Special defence"},
    {"pp", "Power points"},
    {"wc", "Weight class"},
    {"av", "Delay to the next turn"},
    {"range_plus", "Range bonus"},
    {"range_pct", "Range percent"},
    {NULL, NULL},
};

static const title_t SCARS[] = {
    {"str", "STR"}, {"dex", "DEX"}, {"wil", "WIL"}, {"armor", "Armour"}, {NULL, NULL},
};

static const title_t EMCORE[] = {
    {"initiative_bonus", "Initiative bonus"},
    {NULL, NULL},
};

static const struct {
    const char *id;
    const title_t *t;
} RULESETS[] = {
    {"surface", SURFACE},
    {"activation", ACTIVATION},
    {"scars", SCARS},
    {"emcore", EMCORE},
};

const char *rules_stat_title(const char *ruleset, const char *name, char *buf, size_t cap)
{
    if (!cap) return buf;
    for (size_t r = 0; ruleset && r < sizeof RULESETS / sizeof RULESETS[0]; r++) {
        if (strcmp(RULESETS[r].id, ruleset) != 0) continue;
        for (const title_t *t = RULESETS[r].t; t->key; t++)
            if (strcmp(t->key, name) == 0) {
                snprintf(buf, cap, "%s", t->title);
                return buf;
            }
    }
    size_t n = 0;
    for (; name[n] && n + 1 < cap; n++)
        buf[n] = name[n] == '_' ? ' ' : name[n];
    buf[n] = '\0';
    if (n) buf[0] = (char)toupper((unsigned char)buf[0]);
    return buf;
}
