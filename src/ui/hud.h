/* hud.h - the play screen around and over the map: initiative tracker, action
 * bar with tooltips, dice log, physical-dice prompt, help, the end screen, and
 * the map marks of a turn (reach, path, targets, odds, animation effects).
 *
 * The layout gives each panel its own strip and hands the rest to the map, so
 * a panel never covers the map's fitted view. The HUD reads the play state and
 * turns clicks on its panels into play_ui calls; it never touches the battle.
 */
#ifndef HB_UI_HUD_H
#define HB_UI_HUD_H

#include <stdbool.h>

#include <SDL.h>

#include "calls.h"
#include "card.h"
#include "odds_panel.h"
#include "play_ui.h"
#include "ruler.h"
#include "shapes.h"
#include "token_menu.h"
#include "window.h"

typedef struct {
    SDL_Rect map;     /* free area for the map */
    SDL_Rect tracker; /* initiative order, left */
    SDL_Rect log;     /* dice log, right */
    SDL_Rect bar;     /* action bar (or the dice prompt), bottom */
    SDL_Rect status;  /* message line under the bar */
    int px;           /* body text size in pixels */
    int line;         /* line height in pixels */
    int btn_w, btn_h; /* action button size */
} hud_layout_t;

/* A side panel's place below HUD_FOLD_W points of width (item 11 of issue
 * 34: the map dominates a small window): folded away unless asked for. */
#define HUD_FOLD_W 1280
typedef enum { HUD_PANEL_AUTO = 0, HUD_PANEL_SHOWN, HUD_PANEL_FOLDED } hud_panel_t;

typedef struct hud {
    pui_t *p;
    hud_layout_t lay;
    hud_panel_t want_tracker, want_side; /* Ctrl+1, Ctrl+2: the referee's choice */
    int hover_btn;         /* action button under the cursor, -1 none */
    bool hover_status;     /* the cursor on the status line (its tooltip when cut) */
    bool help_by_key;      /* the last key press toggled the help */
    ui_token_pose_t *pose; /* animated poses plus lunges, one per combatant */
    shape_buf_t sb;        /* scratch for batched map marks */
    ui_calls_t calls;      /* the referee's calls (F3) */
    ui_odds_t odds;        /* the odds panel (O): src/ui/odds_panel.h */
    ui_ruler_t ruler;      /* Ctrl+M: src/ui/ruler.h */
    ui_card_t card;        /* the card shown (hovered token, else the selection) */
    SDL_Rect side;         /* where the card and the overlay legend were drawn */
    ui_token_menu_t menu;  /* a right-click on a token: src/ui/token_menu.h */
    /* What the last frame drew of each token (its box with its bars, its
     * name) and through which camera: the menu keeps off them. */
    ui_token_drawn_t drawn[MAP_MAX_COMBATANTS];
    int n_drawn;
    ui_camera_t drawn_cam;
    /* A right press that stays put (no pan) opens a token's menu on release. */
    bool right_down;
    int right_x, right_y;
    /* The actor's token held with the left button: past a few pixels it is
     * dragged (the path preview follows), and the release moves it there. */
    bool drag_armed, dragging;
    int drag_x, drag_y;
    /* The telegraphed intentions the last frame marked on the map (scars'
     * telegraph, as the projector shows it) and their banner's box. */
    int n_intents;
    SDL_Rect banner;
    /* With the tracker folded: the answers declared to a reaction asked,
     * in the order they resolve, over the map (w 0: none shown). */
    SDL_Rect resolves;
    SDL_Rect odds_box; /* where the odds panel (O) was drawn, w 0: closed */
    /* The gauge bars past HP the last frame stacked under each token; w 0
     * when they collapsed to the HP bar (a stack taller than the token's
     * radius would cover the neighbour below). */
    SDL_Rect gauge_box[MAP_MAX_COMBATANTS];
} hud_t;

#define HUD_INTENTS_MAX 32 /* most telegraphed intentions marked on the laptop's map */

/* Panels for a w x h drawable at px_per_pt pixels per point. */
void hud_layout(hud_layout_t *l, int w, int h, double px_per_pt);
/* The same with each side panel as asked: AUTO folds it away on a window
 * narrower than HUD_FOLD_W points, SHOWN and FOLDED hold whatever the width. */
void hud_layout_panels(hud_layout_t *l, int w, int h, double px_per_pt, hud_panel_t tracker,
                       hud_panel_t side);
/* A HUD over play state p; false on OOM. */
bool hud_init(hud_t *h, pui_t *p);
/* Free the HUD's scratch. */
void hud_free(hud_t *h);
/* Screen rectangle of action button i. */
SDL_Rect hud_button_rect(const hud_t *h, int i);
/* Screen rectangle of option i of the reaction put to the table. */
SDL_Rect hud_answer_rect(const hud_t *h, int i);
/* Screen rectangle of die face v (1..sides) in the physical-dice prompt. */
SDL_Rect hud_face_rect(const hud_t *h, int v);
/* Handle an input event before the map view does; true when it was used. */
bool hud_pre_event(hud_t *h, ui_state_t *s, const SDL_Event *e);
/* Follow up an event the map view saw (hover, path preview); true to redraw. */
bool hud_post_event(hud_t *h, ui_state_t *s, const SDL_Event *e);
/* Token poses to draw this frame (animation with lunges applied). */
const ui_token_pose_t *hud_poses(hud_t *h);
/* The marks that lie on the ground, under the tokens and their names: reach
 * shading, the telegraphed hexes, the previewed path (the window draws them
 * after the overlays and before the tokens). */
void hud_draw_ground(hud_t *h, ui_draw_t *d, const ui_state_t *s);
/* Draw the map marks, the panels and any overlay screen (after the map). */
void hud_draw(hud_t *h, ui_draw_t *d, const ui_state_t *s);
/* The colour of a gauge's bar (ruleset.h gauge_t): HP-like gauges go from
 * red to green, load (heat) from amber to red, pools are blue. */
SDL_Color hud_gauge_color(const gauge_t *g);
/* One dice log line for roll event e ("Kara engage: 2d20 [14 7] keep 14 +3 = 17"). */
void hud_roll_text(const pui_t *p, const event_t *e, char *buf, size_t cap);

/* The tracker's condition text for combatant i: "paralyzed", "prone, grappled";
 * once off the board only "down" or "fled". Returns buf. */
const char *hud_tracker_conditions(const battle_t *b, int i, char *buf, size_t cap);

/* What the battle log lists: every roll, and what happened between them. */
/* With the ruler on: what it measures now onto the status line. */
void hud_ruler_status(hud_t *h, const ui_state_t *s);
/* s shortened with "..." to fit maxw pixels at px (regular face) into out;
 * returns out. Buttons show it so; their tooltip has the whole label. */
const char *hud_fit_text(ui_draw_t *d, const char *s, int px, int maxw, char *out, size_t cap);

typedef enum { HUD_LOG_NONE = 0, HUD_LOG_ROLL, HUD_LOG_STORY, HUD_LOG_ROUND } hud_log_kind_t;
/* Whether and how event e is listed, without formatting it. */
hud_log_kind_t hud_log_kind(const event_t *e);
/* The log line for e ("Skitterling assists against Kara", "Boss takes 5, 12 HP
 * left", or a roll as hud_roll_text); HUD_LOG_NONE (buf empty) when e is bookkeeping. */
hud_log_kind_t hud_log_text(const pui_t *p, const event_t *e, char *buf, size_t cap);

#endif
