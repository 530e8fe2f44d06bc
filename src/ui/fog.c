/* fog.c - building the player view (see fog.h). */
#include "fog.h"

#include <stdio.h>
#include <string.h>

#include "../rules/ruleset.h"

bool ui_view_stealthed(const battle_t *b, int i, unsigned sides)
{
    const ruleset_t *rs = b ? (const ruleset_t *)b->rules : NULL;
    if (!rs || !rs->hidden_from || i < 0 || i >= b->n) return false;
    const board_t *bd = b->board;
    int own = bd->side[i];
    if (own >= 0 && own < 32 && ((sides >> own) & 1u)) return false; /* a side knows its own */
    /* The table shares what its sides know: hidden only if hidden from each. */
    bool any = false;
    for (int s = 0; s < bd->n_sides && s < 32; s++) {
        if (!((sides >> s) & 1u)) continue;
        any = true;
        if (!rs->hidden_from(b, i, s)) return false;
    }
    return any;
}

void ui_view_build(ui_view_t *v, const vision_t *vis, const board_t *bd, const battle_t *b,
                   unsigned sides, bool big_labels)
{
    v->vis = vis;
    v->sides = sides;
    v->big_labels = big_labels;
    v->n = bd->n < MAP_MAX_COMBATANTS ? bd->n : MAP_MAX_COMBATANTS;
    for (int i = 0; i < v->n; i++) {
        int s = bd->side[i];
        bool own = s >= 0 && s < 32 && ((sides >> s) & 1u);
        if (own) {
            v->show[i] = UI_SHOW_ALL;
            continue;
        }
        /* Judged by the hex, not by presence: a defeated enemy in sight may
         * still fade out on the table. */
        int c = board_cell_index(bd, bd->pos[i]);
        bool in_sight = !vis || (c >= 0 && vision_visible(vis, map_cell_of(bd->map, c)));
        v->show[i] = in_sight && !ui_view_stealthed(b, i, sides) ? UI_SHOW_NO_HP : UI_SHOW_NONE;
    }
}

/* Does map m name FACTION, in its factions object or on a combatant? */
static bool faction_known(const map_t *m, const char *faction)
{
    for (int i = 0; i < m->n_factions; i++)
        if (strcmp(m->factions[i].name, faction) == 0) return true;
    for (int i = 0; i < m->n_combatants; i++)
        if (strcmp(m->combatants[i].faction, faction) == 0) return true;
    return false;
}

int ui_player_view_make(ui_player_view_t *pv, const map_t *m, const char *faction, bool big_labels,
                        char *err, size_t errcap)
{
    memset(pv, 0, sizeof *pv);
    if (!faction_known(m, faction)) {
        int n = snprintf(err, errcap, "--view: no faction '%s' on map '%s'; factions:", faction,
                         m->name);
        /* List what there is, each name once, so the fix is obvious. */
        for (int i = 0; i < m->n_combatants && n > 0 && (size_t)n < errcap; i++) {
            bool dup = false;
            for (int k = 0; k < i && !dup; k++)
                dup = strcmp(m->combatants[k].faction, m->combatants[i].faction) == 0;
            if (!dup) n += snprintf(err + n, errcap - (size_t)n, " %s", m->combatants[i].faction);
        }
        return 2;
    }
    pv->board = board_create(m);
    pv->vis = vision_create(m);
    if (!pv->board || !pv->vis) {
        ui_player_view_free(pv);
        snprintf(err, errcap, "out of memory");
        return 1;
    }
    unsigned sides = vision_side_mask(pv->board, faction); /* 0: nobody there sees anything */
    vision_update(pv->vis, pv->board, sides);
    ui_view_build(&pv->view, pv->vis, pv->board, NULL, sides, big_labels);
    return 0;
}

void ui_player_view_free(ui_player_view_t *pv)
{
    vision_destroy(pv->vis);
    board_destroy(pv->board);
    pv->vis = NULL;
    pv->board = NULL;
}
