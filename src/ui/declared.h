/* declared.h - attacks declared and waiting for their phase to land (a side
 * that declares one member at a time and resolves together, as scars does):
 * the play window draws a line from each declarer to its target with the odds
 * as they stand now, worked out afresh every frame (predict_cmd), so a later
 * declaration that changes them (an ally stepping into the line of fire)
 * shows at once. Read from the log and the command list, whatever the
 * ruleset's id: an EV_DECLARE of an attack since the phase opened, by a
 * player-controlled combatant (the AI's stay unseen until they land). */
#ifndef HB_UI_DECLARED_H
#define HB_UI_DECLARED_H

#include "../rules/predict.h"
#include "draw.h"
#include "play_ui.h"

#define UI_DECLARED_MAX 32

typedef struct {
    cmd_t cmd;      /* the declared attack, as it was given */
    bool odds;      /* pred holds its odds now */
    predict_t pred;
} ui_declared_t;

/* The declared attacks of battle b still to land, oldest first; returns the
 * count, writing at most cap. */
int ui_declared(const battle_t *b, ui_declared_t *out, int cap);
/* Draw them: a line from declarer to target and a label with the odds, put
 * where it covers no token or name the frame drew (clip: the map area). */
void ui_declared_draw(const pui_t *p, ui_draw_t *d, const ui_camera_t *cam, SDL_Rect clip, int px);

#endif
