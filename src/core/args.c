/* args.c - text argument parsing (see args.h). */
#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool args_parse_int(const char *s, int *out)
{
    if (!s || !*s) return false;
    /* strtol would accept leading blanks and '+'; a cell written by a person or
     * a script never needs them, and refusing them keeps the syntax exact. */
    if (!(s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))) return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < INT_MIN || v > INT_MAX) return false;
    *out = (int)v;
    return true;
}

/* Split s at the first comma into a and b (each at most cap bytes). */
static bool split2(const char *s, char *a, char *b, size_t cap)
{
    const char *comma = strchr(s, ',');
    if (!comma) return false;
    size_t la = (size_t)(comma - s), lb = strlen(comma + 1);
    if (la >= cap || lb >= cap) return false;
    memcpy(a, s, la);
    a[la] = '\0';
    memcpy(b, comma + 1, lb + 1);
    return true;
}

bool args_parse_cell(const char *s, cell_t *out)
{
    char a[32], b[32];
    if (!s || !split2(s, a, b, sizeof a)) return false;
    cell_t c;
    if (!args_parse_int(a, &c.col) || !args_parse_int(b, &c.row)) return false;
    *out = c;
    return true;
}

static const char *const KIND_NAMES[OVERLAY_KIND_COUNT] = {"reach", "threat", "flanking", "range",
                                                           "los",   "area"};

const char *args_overlay_kind_name(overlay_kind_t k)
{
    return (k >= 0 && k < OVERLAY_KIND_COUNT) ? KIND_NAMES[k] : "?";
}

/* An id as the map allows it: 1..MAP_ID_MAX-1 of [A-Za-z0-9_-]. */
static bool valid_id(const char *s, size_t len)
{
    if (len == 0 || len >= MAP_ID_MAX) return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

static bool fail(char *err, size_t errcap, const char *s, const char *want)
{
    snprintf(err, errcap, "overlay '%s': expected %s", s, want);
    return false;
}

bool args_parse_overlay(const char *s, overlay_spec_t *out, char *err, size_t errcap)
{
    static const char ANY[] =
        "reach:ID, threat:ID, flanking:A,T, range:ID[,WEAPON], los:ID[,C,R] or area:ID,WEAPON,C,R";
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon) return fail(err, errcap, s ? s : "", ANY);
    size_t klen = (size_t)(colon - s);
    int kind = -1;
    for (int k = 0; k < OVERLAY_KIND_COUNT; k++)
        if (strlen(KIND_NAMES[k]) == klen && strncmp(s, KIND_NAMES[k], klen) == 0) kind = k;
    if (kind < 0) return fail(err, errcap, s, ANY);

    overlay_spec_t o;
    memset(&o, 0, sizeof o);
    o.kind = (overlay_kind_t)kind;
    const char *args = colon + 1;
    const char *comma = strchr(args, ',');
    size_t first = comma ? (size_t)(comma - args) : strlen(args);
    if (!valid_id(args, first)) return fail(err, errcap, s, "a combatant id after the colon");
    memcpy(o.id, args, first);
    o.id[first] = '\0';
    const char *rest = comma ? comma + 1 : NULL;

    switch (o.kind) {
    case OVERLAY_REACH:
    case OVERLAY_THREAT:
        if (rest) return fail(err, errcap, s, "a single combatant id");
        break;
    case OVERLAY_FLANKING:
        if (!rest || !valid_id(rest, strlen(rest)))
            return fail(err, errcap, s, "flanking:ATTACKER,TARGET");
        memcpy(o.other, rest, strlen(rest) + 1);
        break;
    case OVERLAY_RANGE:
        if (rest) {
            if (!valid_id(rest, strlen(rest)))
                return fail(err, errcap, s, "range:ID or range:ID,WEAPON");
            memcpy(o.other, rest, strlen(rest) + 1);
        }
        break;
    case OVERLAY_LOS:
        if (rest) {
            if (!args_parse_cell(rest, &o.cell))
                return fail(err, errcap, s, "los:ID or los:ID,C,R");
            o.has_cell = true;
        }
        break;
    case OVERLAY_AREA: {
        const char *cell = rest ? strchr(rest, ',') : NULL;
        if (!cell || !valid_id(rest, (size_t)(cell - rest)) || !args_parse_cell(cell + 1, &o.cell))
            return fail(err, errcap, s, "area:ID,WEAPON,C,R");
        memcpy(o.other, rest, (size_t)(cell - rest));
        o.other[cell - rest] = '\0';
        o.has_cell = true;
        break;
    }
    default:
        return fail(err, errcap, s, ANY);
    }
    *out = o;
    return true;
}
