/* ruler.c - the ruler (ruler.h). */
#include "ruler.h"

#include <stdio.h>

#include "../core/sight.h"

void ui_ruler_toggle(ui_ruler_t *r)
{
    bool on = !r->on;
    *r = (ui_ruler_t){.on = on};
}

void ui_ruler_click(ui_ruler_t *r, cell_t c)
{
    if (!r->on) return;
    if (!r->has_a || r->fixed) {
        r->has_a = true;
        r->fixed = false;
        r->a = c;
    } else {
        r->fixed = true;
        r->b = c;
    }
}

bool ui_ruler_ends(const ui_ruler_t *r, bool hover_on, cell_t hover, cell_t *a, cell_t *b)
{
    if (!r->on || !r->has_a) return false;
    *a = r->a;
    if (r->fixed)
        *b = r->b;
    else if (hover_on)
        *b = hover;
    else
        return false;
    return true;
}

bool ui_ruler_measure(const battle_t *b, cell_t a, cell_t e, ui_ruler_measure_t *out)
{
    const map_t *m = b->map;
    if (!map_in_bounds(m, a) || !map_in_bounds(m, e)) return false;
    hex_t ha = hex_from_cell(m->layout, a), he = hex_from_cell(m->layout, e);
    sight_t s = sight_trace(b->board, ha, he);
    out->hexes = hex_distance(ha, he);
    out->feet = out->hexes * m->feet_per_hex;
    out->visible = s.visible;
    out->cover = s.visible ? s.cover : COVER_TOTAL;
    return true;
}

const char *ui_ruler_text(const ui_ruler_measure_t *m, char *buf, size_t cap)
{
    if (!m->visible)
        snprintf(buf, cap, "%d ft, %d hex%s; sight blocked", m->feet, m->hexes,
                 m->hexes == 1 ? "" : "es");
    else
        snprintf(buf, cap, "%d ft, %d hex%s; in sight, %s cover", m->feet, m->hexes,
                 m->hexes == 1 ? "" : "es", m->cover == COVER_NONE ? "no" : map_cover_name(m->cover));
    return buf;
}
