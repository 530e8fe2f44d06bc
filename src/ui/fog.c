/* fog.c - how the player view shows the animation effects (see fog.h). */
#include "fog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/ruleset.h"

/* Is combatant i (-1: nobody in particular) drawn in view v? */
static bool fx_party_shown(const ui_view_t *v, int i)
{
    return i < 0 || (i < v->n && v->show[i] != UI_SHOW_NONE);
}

int ui_view_fx(const ui_view_t *v, const anim_fx_t *f)
{
    if (!v) return UI_FX_SHOW;
    switch (f->kind) {
    case FX_TRACER:
        /* Either end alone would point at the hidden one. */
        return fx_party_shown(v, f->who) && fx_party_shown(v, f->target) ? UI_FX_SHOW : UI_FX_HIDE;
    case FX_LUNGE:
        return fx_party_shown(v, f->who) ? UI_FX_SHOW : UI_FX_HIDE;
    case FX_NUMBER:
        if (!fx_party_shown(v, f->target)) return UI_FX_HIDE;
        return f->target >= 0 && v->show[f->target] == UI_SHOW_ALL ? UI_FX_SHOW : UI_FX_NO_AMOUNT;
    case FX_HIT:
    case FX_MISS:
    case FX_AREA:
    default:
        /* Drawn where the target stands (an area where it struck): a player
         * shot from the dark still sees the hit land, but nothing says where
         * it came from. */
        return fx_party_shown(v, f->target) ? UI_FX_SHOW : UI_FX_HIDE;
    }
}

