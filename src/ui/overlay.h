/* overlay.h - the map overlays of DESIGN.md (reach, threat, flanking, range,
 * los), the move preview of the play window, and their legend.
 *
 * An overlay set keeps a copy of a map (and a board of its own on it) and
 * turns specs into marks: translucent hex fills, hex-edge contours, centre dots, lines
 * between hex centres, warning markers and text badges. Marks are computed
 * once when a spec is added and kept, so a frame only draws them; drawing is
 * a handful of batched SDL_RenderGeometry calls plus the legend text.
 */
#ifndef HB_UI_OVERLAY_H
#define HB_UI_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "../core/args.h"
#include "../core/battle.h"
#include "../core/board.h"
#include "../core/geom.h"
#include "../core/map.h"
#include "../core/tmpl.h"
#include "camera.h"
#include "text.h"

/* Palette entries. RGB values come from the Okabe-Ito set, whose hues stay
 * apart under the common colour-vision deficiencies; the reach bands are one
 * hue in steps of lightness, which reads as an order without needing hue. */
typedef enum {
    UI_OV_REACH_1 = 0, /* cheapest third of the normal move */
    UI_OV_REACH_2,
    UI_OV_REACH_3,     /* dearest third of the normal move */
    UI_OV_DASH,        /* beyond speed, within the dash budget */
    UI_OV_THREAT,      /* threat zone (also enemies' zones in a move preview) */
    UI_OV_PROVOKE,     /* a path step that leaves an enemy's zone */
    UI_OV_PATH,        /* move preview path */
    UI_OV_FLANK_SPOT,  /* where an ally of A would flank T */
    UI_OV_FLANK_PAIR,  /* a line between existing flanking partners */
    UI_OV_RANGE_IN,    /* xhalem: within range; scars: close */
    UI_OV_RANGE_MID,   /* scars: nearby */
    UI_OV_RANGE_OUT,   /* xhalem: beyond range (disadvantage, half damage); scars: distant */
    UI_OV_SEEN,        /* a hex the combatant can see */
    UI_OV_SIGHT_PLUS,  /* hexes of the +e sight line */
    UI_OV_SIGHT_MINUS, /* hexes only the -e sight line crosses */
    UI_OV_COVER_NONE,  /* cover badges */
    UI_OV_COVER_LIGHT,
    UI_OV_COVER_HEAVY,
    UI_OV_COVER_TOTAL,
    UI_OV_AREA,        /* hexes an area weapon would strike */
    UI_OV_COLOR_COUNT
} ui_ov_color_t;

/* How a fill mark is drawn. */
typedef enum {
    UI_OV_FILL = 0, /* translucent whole-hex fill */
    UI_OV_EDGE,     /* contour on the hex's edges that border a different band */
    UI_OV_DOT,      /* a dot at the hex centre */
} ui_ov_style_t;

typedef struct ui_overlay ui_overlay_t;

/* Opaque RGB of a palette entry. */
SDL_Color ui_overlay_color(ui_ov_color_t c);
/* Alpha a fill of that entry is drawn with. */
Uint8 ui_overlay_alpha(ui_ov_color_t c);

/* An empty overlay set for map m, using the map's ruleset for reach, speed
 * and flanking lengths; NULL on OOM. The set works on a copy of m; only
 * ui_overlay_sync reads m again, so m must outlive the set only where that
 * is called. */
ui_overlay_t *ui_overlay_create(const map_t *m);
/* Free the set (NULL is fine). */
void ui_overlay_destroy(ui_overlay_t *o);
/* Forget every mark and legend entry (keeps the scratch memory). */
void ui_overlay_clear(ui_overlay_t *o);
/* Re-read terrain and combatant positions from the map given at creation
 * after they changed; clears marks. */
void ui_overlay_sync(ui_overlay_t *o);
/* Check SPEC against the map and db without adding it: 0, or 2 with err
 * saying which id, weapon or hex the map lacks. db may be NULL (then a
 * weapon named in a range spec cannot be found). */
int ui_overlay_check(const ui_overlay_t *o, const tmpl_db_t *db, const overlay_spec_t *spec,
                     char *err, size_t errcap);
/* Compute SPEC's marks and legend rows and add them: 0, or 2 as for check. */
int ui_overlay_add(ui_overlay_t *o, const tmpl_db_t *db, const overlay_spec_t *spec, char *err,
                   size_t errcap);
/* Move preview for combatant WHO to GOAL: the path, its cost (a badge), the
 * enemies' threat zones and a warning where a step leaves one. Returns false
 * (adding nothing) when GOAL cannot be reached within the dash budget. */
bool ui_overlay_preview(ui_overlay_t *o, int who, cell_t goal, int *cost_ft);
/* Weapon data for range overlays built by ui_overlay_window (may be NULL);
 * the reaches are worked out again with the weapons in hand. */
void ui_overlay_use_db(ui_overlay_t *o, const tmpl_db_t *db);
/* Lengths of a battle under way (battle_t.prof: a weapon switched changes a
 * reach) for the next ui_overlay_window calls; NULL: the map's own. */
void ui_overlay_use_profiles(ui_overlay_t *o, const geo_profile_t *prof);
/* Where the legend box goes (top-left corner, pixels); default (0, 0). */
void ui_overlay_legend_at(ui_overlay_t *o, int x, int y);
/* The play window's overlays, rebuilt from scratch: terrain, positions and
 * lengths copied from battle b as it stands (NULL: the map's, as synced), the
 * kinds whose bit (1 << overlay_kind_t) is in mask, all for combatant who.
 * Nothing of b is kept after the call, so the battle may be rebuilt freely
 * between calls. The hovered hex picks the rest: a reachable one gets the move
 * preview, the combatant standing on it is the flanking target, and it ends
 * the sight line (no hover: every hex seen). A battle on another map than
 * the set's shows nothing. */
void ui_overlay_window(ui_overlay_t *o, const battle_t *b, unsigned mask, int who, bool hover_on,
                       cell_t hover);
/* Draw every mark through camera cam onto a w x h target, the badges too
 * when with_badges is set, then the legend box when legend is set and there
 * are rows (text may be NULL: no text drawn). */
void ui_overlay_draw(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text, const ui_camera_t *cam,
                     int w, int h, bool legend, bool with_badges);
/* The badges alone ("blocked: total" at the sight line's end), each beside
 * its hex at a spot that covers none of the boxes avoid[0..n_avoid) (the
 * tokens as drawn), else above it and faded. */
void ui_overlay_draw_badges(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text,
                            const ui_camera_t *cam, const SDL_Rect *avoid, int n_avoid);

/* Draw only the legend box, its top-left corner at (x, y), at most maxw
 * wide (longer rows are clipped), text px high: the play window puts it in
 * its side panel, off the map. Returns the box's height (0: no rows). */
int ui_overlay_draw_legend(ui_overlay_t *o, SDL_Renderer *r, ui_text_t *text, int x, int y,
                           int maxw, int px);

/* The topmost hex mark on CELL and its style; -1 when the cell has none. */
int ui_overlay_mark_at(const ui_overlay_t *o, cell_t cell, ui_ov_style_t *style);
/* Cells of the provoke warnings held; returns the count, writing at most cap. */
int ui_overlay_warnings(const ui_overlay_t *o, cell_t *out, int cap);
/* Lines held (sight, flanking pairs, path steps, area aim): line k's ends
 * into *a and *b and its colour returned; the count when k is out of range
 * (then a and b are untouched). */
int ui_overlay_line(const ui_overlay_t *o, int k, cell_t *a, cell_t *b, ui_ov_color_t *color);
/* Marks of any kind held (hex marks, lines, markers, badges). */
int ui_overlay_count(const ui_overlay_t *o);
/* Legend rows held; row k's text into buf (may be NULL) and colour returned. */
int ui_overlay_legend_rows(const ui_overlay_t *o);
ui_ov_color_t ui_overlay_legend_row(const ui_overlay_t *o, int k, char *buf, size_t cap);
/* Screen box of the last legend drawn (w == 0 when none). */
SDL_Rect ui_overlay_legend_box(const ui_overlay_t *o);

#endif
