/* projector.h - the table projection: a second window showing the player view.
 *
 * The referee keeps the play window on the laptop; the projector window goes
 * fullscreen on another display (or stays a plain window when there is only
 * one) and shows the battle as the player factions see it: fog from their
 * combined sight, no undetected enemies, no enemy HP, no HUD (so no AI plans
 * and no secret rolls), large labels; the gauges the players may see and the
 * NPC intentions the referee telegraphed to them. Hexes are drawn at a physical size from
 * the display's DPI or a calibration bar, kept per display in the config
 * file. The view turns in steps of 90 degrees and is panned and zoomed from
 * the laptop (Ctrl + keys) or locked to follow the action.
 */
#ifndef HB_UI_PROJECTOR_H
#define HB_UI_PROJECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include <SDL.h>

#include "../core/battle.h"
#include "../core/vision.h"
#include "../io/config.h"
#include "../io/map_io.h"
#include "../rules/ruleset.h"
#include "anim.h"
#include "camera.h"
#include "draw.h"
#include "fog.h"
#include "shapes.h"

#define PROJ_WINDOWED_W 960 /* the projector window with a single display */
#define PROJ_WINDOWED_H 600

/* What the player view was last built from (io/side_view.h). */
typedef side_view_keys_t ui_view_keys_t;

typedef struct {
    const map_t *map; /* the map the projector was made for (borrowed) */
    SDL_Window *win;
    SDL_Renderer *ren;
    ui_draw_t *d;
    SDL_Texture *target; /* the map drawn unrotated, then turned onto the window */
    int tw, th;          /* target size */
    int out_w, out_h;    /* drawable size of the window */
    int display;         /* SDL display index it is on */
    bool fullscreen;
    char display_name[CONFIG_NAME_MAX];
    int mode_w, mode_h;  /* the display's resolution (the config key) */
    double reported_dpi; /* what SDL says, 0 when it cannot */

    config_t cfg;
    char cfg_path[1024];
    bool have_cfg_path;
    display_cfg_t set; /* this display's settings */

    ui_camera_t cam; /* in the unrotated target's frame */
    bool follow;     /* keep the action in the middle */
    bool calibrating;
    double bar_px; /* calibration bar length in drawable pixels */
    bool dragging;

    vision_t *vis; /* fog for the player factions */
    ui_view_t view;
    ui_view_keys_t keys; /* what the fog and the view were last worked out from */
    ui_fog_cache_t fog;  /* each viewer's sight, so a step traces only the one who moved */
    bool dirty;
    bool start_pending; /* the next frame picks the starting view (start_view) */
    char msg[200];   /* last notice for the referee */
    shape_buf_t fx; /* attack effects' triangles, room for PROJ_FX_VERTS made on open */
    /* Where the last frame put each combatant's stack of gauge bars, in
     * canvas pixels (w 0: none): over its token, or beside it where that
     * covers no other token, name or stack. */
    SDL_Rect bars[MAP_MAX_COMBATANTS];
} ui_projector_t;

/* Room for every effect at once (ANIM_MAX_FX rings of 28 segments), so a
 * frame allocates nothing. */
#define PROJ_FX_VERTS (ANIM_MAX_FX * 28 * 6)

/* A closed projector for map m. */
void ui_projector_init(ui_projector_t *p, const map_t *m);
/* Which display the projector should use: the first one that is not the
 * referee's when there are several, else the referee's own. */
int ui_projector_pick_display(int n_displays, int referee_display);
/* Open the window on DISPLAY (-1: pick one away from referee_display).
 * False with err filled when SDL cannot. */
bool ui_projector_open(ui_projector_t *p, int display, int referee_display, char *err,
                       size_t errcap);
/* Close the window, keeping the settings (a closed one is fine). */
void ui_projector_close(ui_projector_t *p);
/* Close and free everything (the struct is the caller's). */
void ui_projector_free(ui_projector_t *p);
/* Is the window open? */
static inline bool ui_projector_is_open(const ui_projector_t *p)
{
    return p->win != NULL;
}

/* How the projector's first view was chosen. */
typedef enum {
    PROJ_START_MAP = 0, /* the whole map at true scale */
    PROJ_START_PLAYERS, /* the player factions' combatants at true scale */
    PROJ_START_FIT,     /* neither fits at true scale: the whole map, smaller */
} ui_proj_start_t;

/* The starting view: the whole map at the true scale when it fits, else the
 * player tokens at the true scale, else the whole map fitted (smaller than
 * true scale). The open window's first frame calls this. */
ui_proj_start_t ui_projector_start_view(ui_projector_t *p, const battle_t *b);
/* F (Ctrl+F on the laptop): show the whole map, leaving the true scale and
 * the follow lock. */
void ui_projector_fit_map(ui_projector_t *p);

/* DPI in use: the calibrated one, else the reported one, else 96. */
double ui_projector_dpi(const ui_projector_t *p);
/* Zoom that shows hexes at the set size on this display. */
double ui_projector_true_zoom(const ui_projector_t *p);
/* Turn a pan of (dx, dy) on the projected picture into the unrotated
 * target's frame, for a view turned by rotation degrees clockwise. */
vec2_t ui_projector_unrotate(int rotation, double dx, double dy);

/* Route one SDL event: the projector window's own events, the referee's
 * controls (F2 or Ctrl+P toggles the projector; Ctrl + keys steer it) and
 * the main window's close button. Returns true when the event was used and
 * the play window must not see it. *quit is set when the main window closes. */
bool ui_projector_route(ui_projector_t *p, const SDL_Event *e, Uint32 main_window, int main_display,
                        bool *quit);
/* Laptop controls with Ctrl held: arrows pan, +/- zoom, 0 true scale, F fit
 * the map, R turn, L follow, K calibration, [ ] calibration bar, Enter save,
 * PageUp/PageDown hex size, D next display, F11 fullscreen. True when used. */
bool ui_projector_control_key(ui_projector_t *p, SDL_Keycode k, int main_display);
/* Show battle b (poses may be NULL) on the projector, if open: fog from the
 * player factions, the action followed when locked, and the attack effects fx
 * (n_fx of them, may be NULL) that the player view allows (ui_view_fx).
 * Draws only when something changed or animating is true. */
void ui_projector_frame(ui_projector_t *p, const battle_t *b, const ui_token_pose_t *poses,
                        const anim_fx_t *fx, int n_fx, int focus, bool animating, double dt);
/* Draw the effects fx that view allows over a picture drawn with camera cam,
 * big enough to read across a table. Returns how many were drawn. Needs the
 * vertex room of an open projector. */
int ui_projector_draw_fx(ui_projector_t *p, const ui_view_t *view, const anim_fx_t *fx, int n_fx,
                         const ui_camera_t *cam);
/* The telegraphed intentions of b (the ruleset's intents hook) that view
 * (NULL: the referee's, everything) lets the table see: only those of
 * combatants it draws; a target it does not draw becomes -1 and a hex out of
 * sight is dropped, so a telegraph never gives away a position. Returns the
 * count, writing at most cap. */
int ui_projector_intents(const battle_t *b, const ui_view_t *view, intent_t *out, int cap);
/* Combatant i's gauges (the ruleset's gauges hook) that view lets the table
 * see: every one of the viewing sides' own combatants, only those the
 * ruleset marks GAUGE_SEEN_ALL of another drawn combatant, none of one it
 * does not draw. Returns the count, writing at most cap. */
int ui_projector_gauges(const battle_t *b, const ui_view_t *view, int i, gauge_t *out, int cap);
/* Draw, over a picture of b drawn with camera cam on a w x h canvas, what the
 * table sees beyond the tokens: the gauges the player view allows; each
 * telegraphed intention (a ring on who, an arrow to its target or hex) and
 * each delayed action still to land (its hexes in sight; telegraph.h), with a
 * banner naming them at the top; and, once it is over, who won. Returns how
 * many telegraphs (intentions and delayed actions) were drawn.
 * Needs the vertex room of an open projector. */
int ui_projector_draw_marks(ui_projector_t *p, const battle_t *b, const ui_view_t *view,
                            const ui_token_pose_t *poses, const ui_camera_t *cam, int w, int h);
/* Draw the player view of b onto renderer r (w x h) with camera cam: what the
 * projector shows before turning. The view must be up to date. */
void ui_projector_draw_view(ui_draw_t *d, const battle_t *b, const ui_view_t *view,
                            const ui_token_pose_t *poses, const ui_camera_t *cam, int w, int h);
/* Bring the fog and the filters of view up to date with battle b for its
 * player factions; true when anything changed since *keys. With a cache
 * (may be NULL: every viewer traced each time) the fog traces only the
 * viewers who moved; the cache is (re)made here when it does not fit b. */
bool ui_projector_update_view(vision_t *vis, ui_view_t *view, const battle_t *b,
                              ui_view_keys_t *keys, ui_fog_cache_t *cache);

/* hexbattle project: the play window with the projector open (window.c). */
int ui_run_project(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap);

#endif
