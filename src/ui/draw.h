/* draw.h - drawing the battle map: terrain, grid, hover, tokens and labels.
 *
 * Shared by the play window and the headless PNG render. A drawer owns what
 * drawing needs across frames - vertex and index arrays, terrain and token
 * textures, the text cache - so a frame allocates nothing once warmed up.
 * It only reads the map.
 */
#ifndef HB_UI_DRAW_H
#define HB_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "../core/event.h"
#include "../core/map.h"
#include "camera.h"
#include "text.h"

typedef struct ui_draw ui_draw_t;

/* How one token is shown this frame: animation laid over the true state. */
typedef struct {
    vec2_t world; /* centre in world units */
    float hp;     /* HP the bar shows (eases toward the true value) */
    float alpha;  /* 1 opaque, 0 not drawn (defeated tokens fade) */
    int bars;     /* gauge bars drawn under the HP bar by the caller (names go below) */
} ui_token_pose_t;

/* What a frame shows beyond the map itself. */
typedef struct {
    bool hover; /* highlight hover_cell */
    cell_t hover_cell;
    const ui_token_pose_t *poses; /* one per combatant, or NULL: map cells and HP */
    const struct side_view *view;  /* player view (fog.h): fog and filters; NULL = referee */
    const event_log_t *log;       /* the battle's log: condition markers on tokens (or NULL) */
    bool tokens_later; /* ui_draw_map leaves the tokens to ui_draw_tokens, so what is
                        * drawn in between (overlays) lies under them */
} ui_frame_opts_t;

#define UI_COND_MARKS 6 /* condition markers shown on one token at most */

/* Condition markers for combatant who: two letters per condition it has now
 * (condlog; "hidden" -> "Hi", "scar:hamstrung" -> "Ha"), and a palette hue
 * per name, so the same condition looks the same on every token. Returns the
 * count, writing at most cap. */
int ui_cond_marks(const event_log_t *log, int who, char out[][3], uint8_t *hue, int cap);

/* Folder holding fonts/ and textures/. */
const char *ui_assets_dir(void);

/* A drawer for renderer r and map m (its terrain textures are loaded now);
 * NULL with err filled when the fonts cannot be read. */
ui_draw_t *ui_draw_create(SDL_Renderer *r, const map_t *m, char *err, size_t errcap);
/* Free the drawer and everything it loaded (NULL is fine). */
void ui_draw_destroy(ui_draw_t *d);
/* Draw map m through camera cam onto the whole w x h target: background,
 * terrain, grid, hover, tokens. Does not present. */
void ui_draw_map(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const ui_frame_opts_t *opts);
/* The static layer (background, terrain, grid) is cached in a target
 * texture and redrawn only when the map's grid, cells or terrain types, the
 * camera or w x h differ from the frame it was drawn for (compared in full
 * every frame). When only the camera's position changed, by whole pixels,
 * on the software renderer, the cached picture is shifted and only the
 * strips that came into view are drawn. on false: draw it afresh every
 * frame (tests, the bench's cold frames). On by default. */
void ui_draw_cache_static(ui_draw_t *d, bool on);
/* How many times the static layer has been drawn in full rather than
 * copied or shifted. */
int ui_draw_static_redraws(const ui_draw_t *d);
/* How many times the cached static layer has been shifted by a pan, with
 * only the strips that came into view drawn. */
int ui_draw_static_shifts(const ui_draw_t *d);
/* The tokens alone, as ui_draw_map draws them last (opts as given to it). */
void ui_draw_tokens(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                    const ui_frame_opts_t *opts);
/* The drawer's text cache, for HUD text drawn around the map. */
ui_text_t *ui_draw_text(ui_draw_t *d);
/* The renderer the drawer draws with. */
SDL_Renderer *ui_draw_renderer(ui_draw_t *d);
/* Hexes filled by the last ui_draw_map (visible ones only). */
int ui_draw_last_hexes(const ui_draw_t *d);

#define UI_MARK_MAX 5 /* a token mark and its terminator */

/* Token colour of FACTION on map m: cool hues for player factions, warm hues
 * for Architect ones, distinct per faction in order of first appearance. */
SDL_Color ui_faction_color(const map_t *m, const char *faction);
/* One or two capital initials of name ("Kara Voss" -> "KV", "dren" -> "Dr"). */
void ui_initials(const char *name, char out[3]);
/* The mark on combatant i's token on map m: its initials, unless another
 * combatant's are the same ("Dren Holt" and "Dust Hound"); then the first two
 * letters of its name ("Dr", "Du"); if those clash too, its first letter and
 * its place among the namesakes ("R1", "R2"). */
void ui_token_mark(const map_t *m, int i, char out[UI_MARK_MAX]);
/* RGB colour of an HP fraction: green when full, yellow at half, red near 0. */
SDL_Color ui_hp_color(int hp, int hp_max);
/* A token's radius in hex radii for a body of size s (HP bar and gauges sit
 * under it). */
double ui_token_radius(csize_t s);

#define UI_TOKEN_MIN_PX 11.0  /* least token radius on screen, in pixels (zoom allowing) */
#define UI_INITIALS_MIN_PX 10 /* least text size of a token's initials */
/* A token's radius in screen pixels at zoom (pixels per hex radius): its
 * size's, but never under UI_TOKEN_MIN_PX while the hex holds it. */
double ui_token_screen_radius(csize_t s, double zoom);
/* Text size of the initials `mark` on a token of radius r pixels; 0: none. */
int ui_token_initials_px(double r, const char *mark);
/* Where a name label w x h goes beside token box tok (below_y: the top of
 * the spot under it): under it, else above, right, left, at the first spot
 * that covers none of boxes[0..n_boxes) but boxes[self] and no label in
 * placed[0..n_placed) (w 0 entries are skipped). False: nowhere clear. */
bool ui_place_label(int w, int h, SDL_Rect tok, int below_y, const SDL_Rect *boxes, int n_boxes,
                    int self, const SDL_Rect *placed, int n_placed, SDL_Rect *out);

/* What the last frame drew of one token, in screen pixels. */
typedef struct {
    bool on;         /* drawn at all */
    SDL_Rect token;  /* the token's box (disc or plate with its rim) */
    SDL_Rect label;  /* its name (w 0: not drawn: no clear spot, or too small) */
    int initials_px; /* text size of its initials (0: none; an image token) */
    char mark[UI_MARK_MAX];
} ui_token_drawn_t;
/* Token i as the last ui_draw_map drew it; false when it was not drawn. */
bool ui_draw_token_drawn(const ui_draw_t *d, int i, ui_token_drawn_t *out);
/* The boxes of every token and name the last frame drew (what a label drawn
 * later must not cover): returns the count, writing at most cap. */
int ui_draw_taken_boxes(const ui_draw_t *d, SDL_Rect *out, int cap);

#endif
