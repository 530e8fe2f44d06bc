/* board.c - positions, occupancy and sides (see board.h). */
#include "board.h"

#include <stdlib.h>
#include <string.h>

/* Index of faction name in the board's side table, adding it when new. */
static int side_of(board_t *b, const char *faction)
{
    for (int s = 0; s < b->n_sides; s++)
        if (strcmp(b->side_name[s], faction) == 0)
            return s;
    if (b->n_sides == MAP_MAX_FACTIONS)
        return MAP_MAX_FACTIONS - 1; /* the loader caps factions; never split a side silently */
    hb_strlcpy(b->side_name[b->n_sides], faction, MAP_ID_MAX);
    return b->n_sides++;
}

board_t *board_create(const map_t *m)
{
    board_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    size_t ncells = (size_t)m->cols * (size_t)m->rows;
    size_t n = m->n_combatants > 0 ? (size_t)m->n_combatants : 0;
    b->map = m;
    b->n = (int)n;
    /* calloc(0) may return NULL, so allocate at least one of each. */
    b->pos = calloc(n ? n : 1, sizeof *b->pos);
    b->present = calloc(n ? n : 1, sizeof *b->present);
    b->side = calloc(n ? n : 1, sizeof *b->side);
    b->occ = malloc(ncells * sizeof *b->occ);
    if (!b->pos || !b->present || !b->side || !b->occ) {
        board_destroy(b);
        return NULL;
    }
    for (size_t c = 0; c < ncells; c++)
        b->occ[c] = -1;
    for (int i = 0; i < b->n; i++) {
        const map_combatant_t *mc = &m->combatants[i];
        b->pos[i] = hex_from_cell(m->layout, mc->at);
        b->present[i] = true;
        b->side[i] = side_of(b, mc->faction);
        /* The first combatant claimed for a cell keeps it; loaders reject doubles. */
        int idx = board_cell_index(b, b->pos[i]);
        if (idx >= 0 && b->occ[idx] < 0)
            b->occ[idx] = (int16_t)i;
    }
    return b;
}

void board_destroy(board_t *b)
{
    if (!b)
        return;
    free(b->pos);
    free(b->present);
    free(b->side);
    free(b->occ);
    free(b);
}

hex_t board_hex_of(const board_t *b, int idx)
{
    return hex_from_cell(b->map->layout, map_cell_of(b->map, idx));
}

void board_place(board_t *b, int i, hex_t h)
{
    int old = board_cell_index(b, b->pos[i]);
    if (old >= 0 && b->occ[old] == i)
        b->occ[old] = -1;
    b->pos[i] = h;
    /* Only combatants on the board hold cells, so removed ones stay invisible. */
    int idx = board_cell_index(b, h);
    if (idx >= 0 && b->present[i])
        b->occ[idx] = (int16_t)i;
}

board_trial_t board_try(board_t *b, int i, hex_t h)
{
    board_trial_t t = {.who = i, .pos = b->pos[i], .from = board_cell_index(b, b->pos[i]),
                       .to = board_cell_index(b, h)};
    t.from_occ = t.from >= 0 ? b->occ[t.from] : -1;
    t.to_occ = t.to >= 0 ? b->occ[t.to] : -1;
    board_place(b, i, h);
    return t;
}

void board_untry(board_t *b, const board_trial_t *t)
{
    if (t->to >= 0)
        b->occ[t->to] = (int16_t)t->to_occ;
    if (t->from >= 0)
        b->occ[t->from] = (int16_t)t->from_occ;
    b->pos[t->who] = t->pos;
}

void board_remove(board_t *b, int i)
{
    int idx = board_cell_index(b, b->pos[i]);
    if (idx >= 0 && b->occ[idx] == i)
        b->occ[idx] = -1;
    b->present[i] = false;
}

int board_find(const board_t *b, const char *id)
{
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->map->combatants[i].id, id) == 0)
            return i;
    return -1;
}
