/* vision.c - fog of war from the combined sight of several sides (see vision.h). */
#include "vision.h"

#include <stdlib.h>
#include <string.h>

static inline bool bit_get(const uint64_t *w, int i)
{
    return (w[i >> 6] >> (i & 63)) & 1u;
}
vision_t *vision_create(const map_t *m)
{
    vision_t *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->cols = m->cols;
    v->rows = m->rows;
    v->ncells = m->cols * m->rows;
    v->n_words = (v->ncells + 63) / 64;
    v->visible = calloc((size_t)v->n_words, sizeof *v->visible);
    v->seen = calloc((size_t)v->n_words, sizeof *v->seen);
    if (!v->visible || !v->seen || !fov_scratch_init(&v->fov, m)) {
        vision_destroy(v);
        return NULL;
    }
    return v;
}

void vision_destroy(vision_t *v)
{
    if (!v) return;
    free(v->visible);
    free(v->seen);
    fov_scratch_free(&v->fov);
    free(v);
}

void vision_clear(vision_t *v)
{
    memset(v->visible, 0, sizeof *v->visible * (size_t)v->n_words);
    memset(v->seen, 0, sizeof *v->seen * (size_t)v->n_words);
}

void vision_update(vision_t *v, const board_t *b, unsigned sides)
{
    memset(v->visible, 0, sizeof *v->visible * (size_t)v->n_words);
    const map_t *m = b->map;
    if (m->cols != v->cols || m->rows != v->rows) return;
    for (int i = 0; i < b->n; i++) {
        if (!b->present[i] || b->side[i] < 0 || b->side[i] >= 32) continue;
        if (!((sides >> b->side[i]) & 1u)) continue;
        hex_t eye = b->pos[i];
        /* Two viewers on one hex see the same; the second adds nothing. */
        bool dup = false;
        for (int k = 0; k < i && !dup; k++)
            dup = b->present[k] && hex_eq(b->pos[k], eye) && ((sides >> b->side[k]) & 1u);
        if (dup) continue;
        int lo, hi;
        fov_cells(b, eye, v->visible, &lo, &hi, &v->fov);
    }
    for (int w = 0; w < v->n_words; w++)
        v->seen[w] |= v->visible[w];
}

vis_state_t vision_state(const vision_t *v, cell_t c)
{
    if (c.col < 0 || c.row < 0 || c.col >= v->cols || c.row >= v->rows) return VIS_UNSEEN;
    int i = c.row * v->cols + c.col;
    if (bit_get(v->visible, i)) return VIS_VISIBLE;
    return bit_get(v->seen, i) ? VIS_REMEMBERED : VIS_UNSEEN;
}

bool vision_visible(const vision_t *v, cell_t c)
{
    return vision_state(v, c) == VIS_VISIBLE;
}

unsigned vision_player_sides(const board_t *b)
{
    unsigned mask = 0;
    for (int s = 0; s < b->n_sides && s < 32; s++)
        if (map_faction_is_player(b->map, b->side_name[s])) mask |= 1u << s;
    return mask;
}

unsigned vision_side_mask(const board_t *b, const char *faction)
{
    for (int s = 0; s < b->n_sides && s < 32; s++)
        if (strcmp(b->side_name[s], faction) == 0) return 1u << s;
    return 0;
}

bool vision_sees_combatant(const vision_t *v, const board_t *b, unsigned sides, int i)
{
    if (i < 0 || i >= b->n || !b->present[i]) return false;
    if (b->side[i] >= 0 && b->side[i] < 32 && ((sides >> b->side[i]) & 1u)) return true;
    int c = board_cell_index(b, b->pos[i]);
    return c >= 0 && c < v->ncells && bit_get(v->visible, c);
}

int vision_count_visible(const vision_t *v)
{
    int n = 0;
    for (int c = 0; c < v->ncells; c++)
        n += bit_get(v->visible, c);
    return n;
}
