/* hud_internal.h - private to the play screen's HUD files: hud.c (layout,
 * events, drawing helpers), hud_map.c (marks on the map, the ruler),
 * hud_log.c (the battle log) and hud_panels.c (tracker, card, bar, help,
 * banner). Each lends the others the colours and functions below. */
#ifndef HB_UI_HUD_INTERNAL_H
#define HB_UI_HUD_INTERNAL_H

#include "hud.h"

/* Okabe-Ito hues: they stay apart for the common colour-blindnesses. */
static const SDL_Color C_REACH = {86, 180, 233, 105};
static const SDL_Color C_PATH = {240, 228, 66, 255};
static const SDL_Color C_TARGET = {230, 159, 0, 255};
static const SDL_Color C_BAD = {213, 94, 0, 255};
static const SDL_Color C_INK = {235, 235, 228, 255};
static const SDL_Color C_DIM = {160, 164, 170, 255};
static const SDL_Color C_STORY = {150, 200, 235, 255};
static const SDL_Color C_HEAD = {86, 180, 233, 255};
static const SDL_Color C_PANEL = {20, 23, 29, 238};
static const SDL_Color C_DICE = {230, 159, 0, 255}; /* physical dice in the tracker */

/* ---- hud.c ---- */

/* (x, y) inside r. */
bool hud_in_rect(const SDL_Rect *r, int x, int y);
/* Gauge bars under combatant i's HP bar: k0 is where they start in g (1 when
 * the first gauge is the HP the map draws). */
int hud_token_gauges(const hud_t *h, int i, gauge_t *g, int *k0);
/* Cell c's hex at `scale` of its size, filled into the shape buffer. */
void hud_hex_fill(hud_t *h, const ui_state_t *s, cell_t c, double scale, SDL_Color col);
/* Draw s at (x, y); returns its width. */
int hud_text(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y);
/* The width s would take. */
int hud_text_w(ui_draw_t *d, const char *s, int px, bool bold);
/* s in lines of whole words no wider than maxw (a word longer than that cut
 * with "..."), line_h apart from (x, y); drawn only when draw. Returns the
 * lines. */
int hud_text_wrap(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y,
                  int maxw, int line_h, bool draw);
/* Fill rc in c. */
void hud_fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c);
/* Cell c's centre on screen. */
vec2_t hud_cell_screen(const ui_state_t *s, cell_t c);

/* ---- hud_map.c ---- */

/* Reach, path, targets and the other marks over the tokens. */
void hud_draw_marks(hud_t *h, ui_draw_t *d, const ui_state_t *s);
/* The ruler's line and reading. */
void hud_draw_ruler(hud_t *h, ui_draw_t *d, const ui_state_t *s);
/* The ruler's mouse and key handling; true when it took e. */
bool hud_ruler_event(hud_t *h, ui_state_t *s, const SDL_Event *e);

/* ---- hud_log.c ---- */

/* The battle log from y0 down to the bottom of the right panel. */
void hud_draw_log(hud_t *h, ui_draw_t *d, int y0);

#endif
