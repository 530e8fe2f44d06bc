/* fog.h - the player view: what the drawing leaves out so that a projected
 * or rendered map shows only what a table of players may see.
 *
 * A view (io/side_view.h, shared with the players' server) is built from a
 * vision (fog: visible, remembered, unseen cells) and says per combatant
 * whether it is drawn and whether its health is. The drawer (draw.c) applies it: unseen hexes dark, remembered ones dimmed,
 * unseen or undetected enemies left out, enemy HP bars left out, and large,
 * high-contrast labels for reading across a table.
 */
#ifndef HB_UI_FOG_H
#define HB_UI_FOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/battle.h"
#include "../core/vision.h"
#include "../io/side_view.h"
#include "anim.h"

/* The player view itself lives below the UI (io/side_view.h), where the
 * players' server takes it from too; the drawing code knows it by these
 * names. */
enum {
    UI_SHOW_NONE = SIDE_SHOW_NONE,
    UI_SHOW_NO_HP = SIDE_SHOW_NO_HP,
    UI_SHOW_ALL = SIDE_SHOW_ALL,
};
typedef side_view_t ui_view_t;
typedef side_fog_cache_t ui_fog_cache_t;
typedef side_map_view_t ui_player_view_t;

static inline void ui_view_build(ui_view_t *v, const vision_t *vis, const board_t *bd,
                                 const battle_t *b, unsigned sides, bool big_labels)
{
    side_view_build(v, vis, bd, b, sides, big_labels);
}
static inline bool ui_view_stealthed(const battle_t *b, int i, unsigned sides)
{
    return side_view_stealthed(b, i, sides);
}
static inline bool ui_fog_cache_init(ui_fog_cache_t *c, const board_t *bd, unsigned sides)
{
    return side_fog_cache_init(c, bd, sides);
}
static inline void ui_fog_cache_free(ui_fog_cache_t *c)
{
    side_fog_cache_free(c);
}
static inline void ui_fog_update(ui_fog_cache_t *c, vision_t *v, const board_t *bd)
{
    side_fog_update(c, v, bd);
}
static inline int ui_player_view_make(ui_player_view_t *pv, const map_t *m, const char *faction,
                                      bool big_labels, char *err, size_t errcap)
{
    return side_map_view_make(pv, m, faction, big_labels, err, errcap);
}
static inline void ui_player_view_free(ui_player_view_t *pv)
{
    side_map_view_free(pv);
}

/* How the player view shows one animation effect. */
enum {
    UI_FX_HIDE = 0,     /* left out: it would give away a combatant the players cannot see */
    UI_FX_SHOW = 1,     /* drawn as in the referee's window */
    UI_FX_NO_AMOUNT = 2 /* a damage number on an enemy: drawn as a plain "hit", no amount */
};
/* What view v (NULL: the referee's, everything) does with effect f: a tracer
 * needs both ends in view; flashes, blast rings and numbers need the one hit
 * in view; damage amounts show only on the viewing sides' own combatants, so
 * the table cannot count down an enemy's health (docs/projection.md). */
int ui_view_fx(const ui_view_t *v, const anim_fx_t *f);

#endif
