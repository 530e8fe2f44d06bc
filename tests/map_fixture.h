/* map_fixture.h - maps and combatants built in code for the geometry tests.
 *
 * A map is drawn as text rows; each character of the legend string stands for
 * one standard terrain type and becomes that type's index, in legend order:
 *   .  open    1x, no cover        ,  brush   2x, light
 *   ^  rubble  2x, heavy           ~  water   2x, no cover
 *   #  wall    impassable, total, blocks sight
 *   f  fog     1x, no cover of its own, blocks sight
 */
#ifndef HB_TEST_MAP_FIXTURE_H
#define HB_TEST_MAP_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/map.h"

static inline void fx_add_type(map_t *m, const char *name, int move, cover_t cover, bool blocks)
{
    terrain_t *t = &m->types[m->n_types++];
    memset(t, 0, sizeof *t);
    strcpy(t->name, name);
    t->move = move;
    t->cover = cover;
    t->blocks_sight = blocks;
}

/* A cols x rows map of 5-ft hexes whose types are the legend's characters;
 * text (rows strings of cols characters) may be NULL for all legend[0]. */
static inline map_t *fx_map(hex_layout_t lay, int cols, int rows, const char *legend,
                            const char *const *text)
{
    map_t *m = map_create(cols, rows);
    assert_non_null(m);
    m->layout = lay;
    m->feet_per_hex = 5;
    for (const char *ch = legend; *ch; ch++) {
        switch (*ch) {
        case '.':
            fx_add_type(m, "open", 1, COVER_NONE, false);
            break;
        case ',':
            fx_add_type(m, "brush", 2, COVER_LIGHT, false);
            break;
        case '^':
            fx_add_type(m, "rubble", 2, COVER_HEAVY, false);
            break;
        case '~':
            fx_add_type(m, "water", 2, COVER_NONE, false);
            break;
        case '#':
            fx_add_type(m, "wall", 0, COVER_TOTAL, true);
            break;
        case 'f':
            fx_add_type(m, "fog", 1, COVER_NONE, true);
            break;
        default:
            fail_msg("map fixture: no standard type for '%c'", *ch);
        }
    }
    for (int r = 0; text && r < rows; r++) {
        assert_int_equal((int)strlen(text[r]), cols);
        for (int c = 0; c < cols; c++) {
            const char *p = strchr(legend, text[r][c]);
            assert_non_null(p);
            m->cells[r * cols + c] = (uint8_t)(p - legend);
        }
    }
    return m;
}

/* Append a default combatant (medium creature, 30 ft) at (col,row); returns its index. */
static inline int fx_add_unit(map_t *m, const char *id, const char *faction, int col, int row)
{
    m->combatants = realloc(m->combatants, sizeof *m->combatants * (size_t)(m->n_combatants + 1));
    assert_non_null(m->combatants);
    map_combatant_t *c = &m->combatants[m->n_combatants];
    memset(c, 0, sizeof *c);
    strcpy(c->id, id);
    strcpy(c->faction, faction);
    c->at = (cell_t){col, row};
    c->speed_ft = 30;
    return m->n_combatants++;
}

/* A board over a fresh fx_map; fx_board_free frees both. */
static inline board_t *fx_board(hex_layout_t lay, int cols, int rows, const char *legend,
                                const char *const *text)
{
    board_t *b = board_create(fx_map(lay, cols, rows, legend, text));
    assert_non_null(b);
    return b;
}

static inline void fx_board_free(board_t *b)
{
    map_t *m = (map_t *)b->map;
    board_destroy(b);
    map_destroy(m);
}

#endif
