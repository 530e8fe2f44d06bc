/* edit_align.c - the editor's part in a map's own pictures (editor.h):
 * F12 shows the terrain colours over the pictures or not; X picks a tile of
 * the map's tilesets (click a hex showing it) and gives it the palette's
 * terrain, on every hex showing that tile, written with Ctrl+S as the
 * tile's `terrain` property where Tiled keeps it (tiled_save_tile_terrain);
 * and A lays the
 * grid on the hexes printed on the battle-map picture. Click the centre of
 * a printed hex, type how many hexes away the second one is (a straight
 * line of hexes: along a row of pointy hexes, down a column of flat ones),
 * click its centre: the picture's offset and scale are set so that the
 * first click is the centre of the hex it fell in and the two lie that
 * many hexes apart (art_align). Ctrl+S saves them with the map. */
#include <stdio.h>
#include <string.h>

#include "editor.h"

static bool has_picture(const ed_state_t *s)
{
    return s->map->art && s->map->art->bg[0];
}

static void say_second(ed_state_t *s)
{
    ed_message(s, "align: now click the centre of the hex %d away in a line (type a number to "
                  "change it; Esc stops)",
               s->align_n);
}

bool ed_align_key(ed_state_t *s, SDL_Keycode k)
{
    if (k == SDLK_F12 && s->map->art) {
        s->art_colours = !s->art_colours;
        ed_message(s, "terrain colours %s", s->art_colours ? "over the pictures" : "off");
        return true;
    }
    if (k == SDLK_x && !s->align) {
        if (!s->map->art || !s->map->art->gids) {
            ed_message(s, "tiles: the map has no tileset pictures (a Tiled map's, docs/tiled.md)");
            return true;
        }
        s->tile_pick = true;
        ed_message(s, "tiles: click a hex showing the tile to give the terrain '%s' ([ ] change it)",
                   s->map->types[s->type].name);
        return true;
    }
    if (k == SDLK_ESCAPE && s->tile_pick) {
        s->tile_pick = false;
        ed_message(s, "tiles: stopped");
        return true;
    }
    if (k == SDLK_a && !s->align) {
        if (!has_picture(s)) {
            ed_message(s, "align: the map has no background picture (docs/map-format.md)");
            return true;
        }
        s->align = 1;
        s->align_n = 0;
        ed_message(s, "align: click the centre of a hex printed on the picture");
        return true;
    }
    if (!s->align) return false;
    if (k == SDLK_ESCAPE) {
        s->align = 0;
        ed_message(s, "align: stopped");
        return true;
    }
    if (s->align == 2 && k >= SDLK_0 && k <= SDLK_9) {
        int n = s->align_typed ? s->align_n * 10 + (int)(k - SDLK_0) : (int)(k - SDLK_0);
        s->align_n = n > 999 ? 999 : n;
        s->align_typed = true;
        say_second(s);
        return true;
    }
    return false;
}

/* Give the tile at cell c the palette's terrain: every hex showing it
 * painted (one undo step), the choice kept for the save. */
static void tile_terrain(ed_state_t *s, cell_t c)
{
    map_t *m = s->map;
    map_art_t *a = m->art;
    if (a->cols != m->cols || a->rows != m->rows) {
        ed_message(s, "tiles: the map was resized; its tiles are no longer where they were");
        return;
    }
    uint32_t gid = a->gids[map_index(m, c)] & ART_GID_MASK;
    if (!gid) {
        ed_message(s, "tiles: no tile on this hex");
        return;
    }
    const char *name = m->types[s->type].name;
    /* Every choice is kept (an undo may bring back an earlier one); the
     * save writes those the hexes still show (ed_tile_choices_settle). */
    int k = 0;
    while (k < a->n_choices &&
           (a->choices[k].gid != gid || strcmp(a->choices[k].terrain, name) != 0))
        k++;
    if (k == ART_MAX_CHOICES) { /* full: drop the choices no hex shows now */
        ed_tile_choices_settle(s);
        k = a->n_choices;
    }
    if (k == ART_MAX_CHOICES) {
        ed_message(s, "tiles: at most %d tiles per save", ART_MAX_CHOICES);
        return;
    }
    a->choices[k].gid = gid;
    snprintf(a->choices[k].terrain, sizeof a->choices[k].terrain, "%s", name);
    if (k == a->n_choices) a->n_choices++;
    edit_t g;
    edit_group_init(&g);
    int n = 0;
    for (int i = 0; i < m->cols * m->rows; i++) {
        if ((a->gids[i] & ART_GID_MASK) != gid) continue;
        edit_t e;
        if (edit_paint(m, map_cell_of(m, i), 1, s->type, &e) && !edit_group_push(&g, &e)) break;
        n++;
    }
    if (!edit_do(&s->hist, m, &g)) edit_free(&g);
    s->tile_pick = false;
    ed_message(s, "tiles: gid %u is '%s' on %d hexes; Ctrl+S writes it into the Tiled file", gid,
               name, n);
}

void ed_tile_choices_settle(ed_state_t *s)
{
    map_t *m = s->map;
    map_art_t *a = m->art;
    if (!a) return;
    if (!a->gids || a->cols != m->cols || a->rows != m->rows) {
        a->n_choices = 0; /* no tiles where they were: nothing to write */
        return;
    }
    art_choice_t keep[ART_MAX_CHOICES];
    int out = 0;
    for (int k = 0; k < a->n_choices; k++) {
        uint32_t gid = a->choices[k].gid;
        bool done = false;
        for (int j = 0; j < k && !done; j++)
            done = a->choices[j].gid == gid; /* weighed at its first choice */
        if (done) continue;
        /* The terrain every hex showing the tile has now, if one. */
        int now = -1;
        bool one = true;
        for (int i = 0; i < m->cols * m->rows && one; i++) {
            if ((a->gids[i] & ART_GID_MASK) != gid) continue;
            if (now < 0) now = m->cells[i];
            else one = m->cells[i] == now;
        }
        if (!one || now < 0) continue;
        for (int j = k; j < a->n_choices; j++)
            if (a->choices[j].gid == gid && strcmp(a->choices[j].terrain, m->types[now].name) == 0) {
                keep[out++] = a->choices[j];
                break;
            }
    }
    memcpy(a->choices, keep, (size_t)out * sizeof keep[0]);
    a->n_choices = out;
}

bool ed_align_click(ed_state_t *s, double x, double y)
{
    if (s->tile_pick && s->map->art && s->map->art->gids) {
        cell_t c;
        if (ui_pick_cell(s->map, ui_cam_to_world(&s->cam, (vec2_t){x, y}), &c)) tile_terrain(s, c);
        return true;
    }
    if (!s->align || !has_picture(s)) return false;
    map_art_t *a = s->map->art;
    vec2_t w = ui_cam_to_world(&s->cam, (vec2_t){x, y});
    vec2_t q = art_bg_pixel(a, s->map->layout, w);
    cell_t c;
    if (s->align == 1) {
        if (!ui_pick_cell(s->map, w, &c)) {
            ed_message(s, "align: click inside the map");
            return true;
        }
        s->align_c1 = c;
        s->align_q1 = q;
        s->align = 2;
        s->align_n = 5;
        s->align_typed = false;
        say_second(s);
        return true;
    }
    if (!art_align(a, s->map->layout, s->align_c1, s->align_q1, q, s->align_n)) {
        ed_message(s, "align: the two clicks must be apart, the hexes at least 1 apart");
        return true;
    }
    s->align = 0;
    s->art_moved = true;
    ed_message(s, "align: the grid lies on the picture (offset %.1f, %.1f; %.2f px a hex); "
                  "Ctrl+S saves it",
               a->bg_ox, a->bg_oy, a->bg_sx);
    return true;
}
