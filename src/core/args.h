/* args.h - parsing of the small text values the command line and the UI take:
 * integers, cells "C,R" and overlay specs "KIND:ARGS" (DESIGN.md). */
#ifndef HB_ARGS_H
#define HB_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "hex.h"
#include "map.h"

typedef enum {
    OVERLAY_REACH = 0, /* reach:ID */
    OVERLAY_THREAT,    /* threat:ID */
    OVERLAY_FLANKING,  /* flanking:A,T */
    OVERLAY_RANGE,     /* range:ID[,WEAPON] */
    OVERLAY_LOS,       /* los:ID[,C,R] */
    OVERLAY_AREA,      /* area:ID,WEAPON,C,R */
    OVERLAY_KIND_COUNT
} overlay_kind_t;

typedef struct {
    overlay_kind_t kind;
    char id[MAP_ID_MAX];    /* the combatant (A for flanking) */
    char other[MAP_ID_MAX]; /* flanking: the target T; range, area: the weapon ("" if none) */
    bool has_cell;          /* los, area: a target hex was given */
    cell_t cell;
} overlay_spec_t;

/* A decimal int filling the whole string, within int range. */
bool args_parse_int(const char *s, int *out);
/* "C,R" with two decimal ints and nothing else. */
bool args_parse_cell(const char *s, cell_t *out);
/* "KIND:ARGS" into out; on failure err says what was expected. */
bool args_parse_overlay(const char *s, overlay_spec_t *out, char *err, size_t errcap);
/* The kind's name as written on the command line ("reach"...). */
const char *args_overlay_kind_name(overlay_kind_t k);

#endif
