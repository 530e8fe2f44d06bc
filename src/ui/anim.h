/* anim.h - the battle's event log played back as animation, at the UI's pace.
 *
 * The player reads events after a cursor and turns them into beats (a token
 * gliding one hex, a lunge, a tracer) and short-lived effects (flashes,
 * floating numbers, the hexes an area strikes). It never changes the battle: when the log is
 * rebuilt shorter (undo) or the referee skips, it snaps to the true state.
 * Plain data and no SDL calls, so tests can step it with fixed times.
 */
#ifndef HB_UI_ANIM_H
#define HB_UI_ANIM_H

#include <stdbool.h>

#include "../core/battle.h"
#include "draw.h"

#define ANIM_MAX_FX 64

typedef enum { FX_HIT = 0, FX_MISS, FX_NUMBER, FX_TRACER, FX_AREA, FX_LUNGE } anim_fx_kind_t;

/* One short-lived decoration; positions are world units. */
typedef struct {
    anim_fx_kind_t kind;
    vec2_t a, b;      /* where (and, for a tracer or lunge, towards) */
    int value;        /* the number shown (damage) */
    int who, target;  /* combatants it is about (-1 none): the player view
                       * leaves out what would give away a hidden one */
    double age, life; /* seconds */
    /* FX_AREA: the centres of the hexes an `area` event strikes (recomputed
     * with core/area.h from the event) and their orientation. The points live
     * in the anim_t that made the effect, valid while the effect lives. */
    const vec2_t *pts;
    int n_pts;
    hex_orient_t orient;
} anim_fx_t;

typedef struct {
    const battle_t *b;
    ui_token_pose_t *pose; /* one per combatant: what the board shows now */
    vec2_t *from;          /* where the current glide started */
    int n;
    int cursor;    /* next event of b->log to play */
    int beat;      /* event being played, -1 when idle */
    double t, dur; /* progress through the current beat, seconds */
    double speed;  /* 1 normal; higher is faster */
    anim_fx_t fx[ANIM_MAX_FX];
    int n_fx;
    int focus; /* combatant the latest beat is about (-1 none), for the camera */
    vec2_t *area_pts; /* hex centres of the live FX_AREA effects */
    int area_n, area_cap;
    hex_t *area_hex;  /* scratch for area_hexes */
    int area_hex_cap;
} anim_t;

/* Start showing battle b as it stands now (nothing to play). False on OOM. */
bool anim_init(anim_t *a, const battle_t *b);
/* Free what anim_init allocated. */
void anim_free(anim_t *a);
/* Jump to the true state: every event played, every effect gone. */
void anim_snap(anim_t *a);
/* Advance by dt seconds of wall time (scaled by speed); returns true while
 * anything still moves (so the window keeps drawing). */
bool anim_step(anim_t *a, double dt);
/* Is a beat playing or waiting in the log? */
bool anim_busy(const anim_t *a);
/* Multiply the speed by factor, kept within 0.25..8. */
void anim_speed(anim_t *a, double factor);

#endif
