/* editor.c - the map editor window (see editor.h). */
#include "editor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <SDL_ttf.h>

#include "../core/say.h"
#include "../io/map_io.h"
#include "../io/recent.h"
#include "../io/tiled.h"
#include "../rules/ruleset.h"
#include "stop.h"
#include "window.h"

static const char *const TOOL_NAMES[] = {
    "select/move", "brush", "line", "flood fill", "eraser", "eyedropper", "place combatant"};

void ed_message(ed_state_t *s, const char *fmt, ...)
{
    if (s->n_msg == ED_MSG_MAX) {
        memmove(s->msg[0], s->msg[1], sizeof s->msg[0] * (ED_MSG_MAX - 1));
        s->n_msg--;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg[s->n_msg++], sizeof s->msg[0], fmt, ap);
    va_end(ap);
    s->dirty_frame = true;
}

void ed_fit(ed_state_t *s)
{
    int w = s->view_w - ED_PALETTE_W - ED_PANEL_W;
    if (w < 80) w = s->view_w;
    int x0 = w == s->view_w ? 0 : ED_PALETTE_W;
    ui_cam_fit(&s->cam, ui_map_bounds(s->map), w, s->view_h, 16.0);
    s->cam.x -= x0 / s->cam.zoom;
    s->fitted = true;
    s->dirty_frame = true;
}

/* The zoom's floor and the pan's limit in the map's area between the
 * palette and the panel, as in the play window (ui_cam_clamp). */
static void ed_clamp(ed_state_t *s)
{
    int w = s->view_w - ED_PALETTE_W - ED_PANEL_W;
    if (w < 80) w = s->view_w;
    int x0 = w == s->view_w ? 0 : ED_PALETTE_W;
    ui_cam_clamp(&s->cam, ui_map_bounds(s->map), x0, 0, w, s->view_h, UI_ZOOM_FLOOR);
}

/* What the referee calls the two kinds of faction. */
static const char *control_words(bool player)
{
    return player ? "played at this laptop" : "played by the AI";
}

int ed_template_rows(const ed_state_t *s)
{
    /* Below the list: the map block (8 lines) and room for 4 message lines. */
    int rows = (s->view_h - 300 - 8 - 12 * 18) / ED_ROW_H;
    return rows < 2 ? 2 : rows > 12 ? 12 : rows;
}

bool ed_recover(ed_state_t *s, const char *why, char *msg, size_t cap)
{
    bool written = false;
    char where[HB_ERR_MAX];
    if (!ed_write_recovery(s, &written, where, sizeof where)) {
        snprintf(msg, cap, "%s; the unsaved map could not be kept either: %s", why, where);
        return false;
    }
    if (!written) {
        snprintf(msg, cap, "%s; the map had no unsaved changes", why);
        return false;
    }
    snprintf(msg, cap, "%s; the unsaved edits are kept in %s (hexbattle edit %s offers them back)",
             why, where, s->path[0] ? s->path : "");
    return true;
}

void ed_init(ed_state_t *s, map_t *m, const tmpl_db_t *db, const char *path, int view_w, int view_h)
{
    memset(s, 0, sizeof *s);
    s->map = m;
    s->db = db;
    edit_history_init(&s->hist);
    if (path) hb_strlcpy(s->path, path, sizeof s->path);
    hb_file_stamp(s->path, &s->disk);
    s->view_w = view_w;
    s->view_h = view_h;
    s->tool = ED_SELECT; /* a stray first click paints nothing */
    s->brush = 1;
    s->type = map_find_type(m, "wall");
    if (s->type < 0) s->type = 0;
    s->selected = -1;
    s->drag_unit = -1;
    s->tmpl_sel = db && db->n_templates ? 0 : -1;
    s->art_colours = true; /* terrain is what is edited: shown over the map's pictures */
    if (m->art && m->art->warn[0]) ed_message(s, "warning: %s", m->art->warn);
    hb_strlcpy(s->faction, "raiders", sizeof s->faction);
    edit_group_init(&s->stroke);
    ed_fit(s);
}

void ed_free(ed_state_t *s)
{
    recover_map_free(&s->recover);
    tmpl_db_destroy(s->own_db);
    s->own_db = NULL;
    edit_free(&s->stroke);
    edit_history_free(&s->hist);
}

/* Templates follow the map's ruleset, which an edit, undo or redo may change. */
static void sync_db(ed_state_t *s)
{
    if (s->db && strcmp(s->db->ruleset, s->map->ruleset) == 0) return;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    if (tmpl_db_load(hb_data_dir(), s->map->ruleset, &db, err, sizeof err) != 0) {
        ed_message(s, "no templates: %s", err);
        return;
    }
    tmpl_db_destroy(s->own_db);
    s->own_db = db;
    s->db = db;
    s->tmpl_sel = ed_template_match(s, 0) ? 0 : -1;
}

/* Do edit e through the history, reporting a refusal. */
static bool run_edit(ed_state_t *s, edit_t *e, const char *what)
{
    if (edit_is_noop(e)) {
        edit_free(e);
        return false;
    }
    if (!edit_do(&s->hist, s->map, e)) {
        ed_message(s, "cannot %s here", what);
        return false;
    }
    if (s->selected >= s->map->n_combatants) s->selected = -1;
    s->play_warned = false;
    s->dirty_frame = true;
    sync_db(s);
    return true;
}

/* Apply e, built against the map as it is now, and keep its inverse in group
 * g; on failure the map is as before and e is freed. */
static bool group_step(map_t *m, edit_t *g, bool built, edit_t *e)
{
    if (!built) return false;
    if (!edit_apply(m, e)) {
        edit_free(e);
        return false;
    }
    if (!edit_group_push(g, e)) {
        edit_apply(m, e); /* e now holds the inverse: put the map back */
        edit_free(e);
        return false;
    }
    return true;
}

/* Start over on a cols x rows map of terrain FILL, as one undoable step: the
 * combatants go, the map shrinks to one hex of FILL and grows back filled. */
static bool blank_map(ed_state_t *s, int cols, int rows, int fill)
{
    map_t *m = s->map;
    edit_t g, e;
    edit_group_init(&g);
    const edit_anchor_t tl = {0, 0};
    bool ok = true;
    for (int i = m->n_combatants - 1; ok && i >= 0; i--)
        ok = group_step(m, &g, edit_unit_del(m, i, &e), &e);
    ok = ok && group_step(m, &g, edit_resize(m, 1, 1, tl, fill, &e), &e);
    ok = ok && group_step(m, &g, edit_paint(m, (cell_t){0, 0}, 1, fill, &e), &e);
    ok = ok && group_step(m, &g, edit_resize(m, cols, rows, tl, fill, &e), &e);
    if (!ok || !edit_record(&s->hist, &g)) {
        edit_apply(m, &g); /* the group holds the inverses: this undoes the steps taken */
        edit_free(&g);
        return false;
    }
    s->selected = -1;
    s->play_warned = false;
    s->dirty_frame = true;
    return true;
}

bool ed_undo(ed_state_t *s)
{
    bool ok = edit_undo(&s->hist, s->map);
    if (ok && s->selected >= s->map->n_combatants) s->selected = -1;
    if (ok && s->type >= s->map->n_types) s->type = 0;
    if (ok) sync_db(s);
    s->dirty_frame = true;
    return ok;
}

bool ed_redo(ed_state_t *s)
{
    bool ok = edit_redo(&s->hist, s->map);
    if (ok) sync_db(s);
    s->dirty_frame = true;
    return ok;
}

void ed_offer_recovery(ed_state_t *s, const char *rpath)
{
    char err[HB_ERR_MAX];
    recover_map_free(&s->recover);
    if (recover_load_map(rpath, NULL, &s->recover, err, sizeof err) != HB_OK) {
        ed_message(s, "recovery copy not usable: %s", err);
        return;
    }
    hb_strlcpy(s->recover_file, rpath, sizeof s->recover_file);
    char when[32] = "an earlier session";
    time_t t = (time_t)s->recover.written;
    struct tm tm;
    if (t > 0 && localtime_r(&t, &tm)) strftime(when, sizeof when, "%d %b %H:%M", &tm);
    const edit_history_t *h = &s->recover.hist;
    snprintf(s->recover_label, sizeof s->recover_label,
             "Unsaved edits (%d undo step%s) from %s were kept when the editor was stopped.",
             h->pos, h->pos == 1 ? "" : "s", when);
    s->prompt = ED_PROMPT_RECOVER;
    s->dirty_frame = true;
}

bool ed_restore_recovery(ed_state_t *s)
{
    if (!s->recover.map) return false;
    /* The copy keeps no Tiled tiles and names a battle-map picture from the
     * recovery folder: both come back from the map it is a copy of. */
    map_adopt_pictures(s->recover.map, s->recover.of, s->recover_file);
    map_t mine = *s->map;
    *s->map = *s->recover.map;
    *s->recover.map = mine; /* freed with the rest of the copy below */
    edit_history_free(&s->hist);
    s->hist = s->recover.hist;
    edit_history_init(&s->recover.hist);
    tmpl_db_destroy(s->own_db);
    s->own_db = s->recover.db;
    s->db = s->own_db;
    s->recover.db = NULL;
    recover_map_free(&s->recover);
    remove(s->recover_file);
    s->selected = -1;
    if (s->type >= s->map->n_types) s->type = 0;
    s->tmpl_sel = ed_template_match(s, 0) ? 0 : -1;
    sync_db(s);
    ed_fit(s);
    ed_message(s, "restored the unsaved edits (Ctrl+Z undoes them)");
    return true;
}

bool ed_write_recovery(const ed_state_t *s, bool *written, char *err, size_t errcap)
{
    *written = false;
    if (!edit_history_dirty(&s->hist)) return true;
    char rpath[SAVE_PATH_MAX];
    bool no_history = false;
    if (recover_write_map_any(s->path, s->map, &s->hist, rpath, sizeof rpath, &no_history, err,
                              errcap) != HB_OK)
        return false;
    /* The copy's path goes back in err for the caller's message, cut to fit
     * (a bounded copy: snprintf here warns at -O3 that it may truncate). */
    if (errcap > 0) {
        const char *tail = no_history ? " (without the undo history, too large to keep)" : "";
        size_t n = strlen(rpath), t = strlen(tail);
        if (n >= errcap) n = errcap - 1;
        memcpy(err, rpath, n);
        if (t > errcap - 1 - n) t = errcap - 1 - n;
        memcpy(err + n, tail, t);
        err[n + t] = '\0';
    }
    *written = true;
    return true;
}

void ed_keep_edits(const ed_state_t *s)
{
    char msg[HB_ERR_MAX];
    bool written = false;
    if (!ed_write_recovery(s, &written, msg, sizeof msg))
        hb_eprintf("hexbattle: unsaved edits lost: %s\n", msg);
    else if (written)
        hb_eprintf("hexbattle: stopped; unsaved edits kept in %s\n", msg);
}

void ed_last_words(void *ctx)
{
    ed_keep_edits(ctx);
}

/* Write the map to PATH; on success it becomes the editor's file. */
static bool save_to(ed_state_t *s, const char *path)
{
    char err[HB_ERR_MAX];
    bool same = strcmp(path, s->path) == 0;
    if (same && s->map->art && s->map->art->gids && tiled_format_of(path) != TILED_NONE) {
        /* A Tiled map with its own pictures: the files keep them, and gain
         * only the terrains chosen for tiles (edit_align.c). */
        ed_tile_choices_settle(s);
        if (tiled_save_tile_terrain(s->map->art, path, err, sizeof err) != HB_OK) {
            ed_message(s, "save failed: %s", err);
            return false;
        }
        s->map->art->n_choices = 0;
        hb_file_stamp(s->path, &s->disk);
        edit_history_mark_saved(&s->hist);
        ed_message(s, "saved the tiles' terrain into %s (and its tilesets)", s->path);
        ed_message(s, "warning: a Tiled map with pictures keeps the rest as Tiled made it; "
                      "Ctrl+Shift+S to a .json keeps other edits");
        return true;
    }
    if (map_save(s->map, path, err, sizeof err) != 0) {
        ed_message(s, "save failed: %s", err);
        return false;
    }
    if (!same) hb_strlcpy(s->path, path, sizeof s->path);
    hb_file_stamp(s->path, &s->disk);
    edit_history_mark_saved(&s->hist);
    s->art_moved = false;
    ed_message(s, "saved %s", s->path);
    if (s->map->art && s->map->art->gids)
        ed_message(s, "warning: the tiles' pictures were not written, only their terrain (the "
                      "file before is %s.bak)", s->path);
    return true;
}

bool ed_save(ed_state_t *s)
{
    if (!s->path[0]) {
        ed_start_save_as(s); /* the maps folder and a free name, on screen */
        return false;
    }
    /* Another editor (or program) wrote the file since: ask before the last
     * save silently wins. */
    hb_stamp_t now;
    hb_file_stamp(s->path, &now);
    if (!hb_stamp_same(&now, &s->disk)) {
        s->prompt = ED_PROMPT_OVERWRITE;
        ed_message(s, "%s changed on disk since it was opened here", s->path);
        return false;
    }
    return save_to(s, s->path);
}

static bool matches(const tmpl_t *t, const char *q)
{
    if (!q[0]) return true;
    /* Case-insensitive substring over id and name. */
    size_t n = strlen(q);
    for (const char *p = t->id; *p; p++)
        if (strncasecmp(p, q, n) == 0) return true;
    for (const char *p = t->name; *p; p++)
        if (strncasecmp(p, q, n) == 0) return true;
    return false;
}

const tmpl_t *ed_template_match(const ed_state_t *s, int i)
{
    if (!s->db || i < 0) return NULL;
    for (int k = 0; k < s->db->n_templates; k++)
        if (matches(&s->db->templates[k], s->search) && i-- == 0) return &s->db->templates[k];
    return NULL;
}

/* ---- clicks on the map ---- */

static void place_unit(ed_state_t *s, cell_t at)
{
    const tmpl_t *t = ed_template_match(s, s->tmpl_sel);
    char id[MAP_ID_MAX];
    edit_unique_id(s->map, t ? t->id : s->faction, id);
    map_combatant_t u;
    edit_unit_from_template(t, id, s->faction, at, &u);
    edit_unique_name(s->map, -1, &u);
    edit_t e;
    if (!edit_unit_add(s->map, &u, &e)) {
        ed_message(s, "cannot place a combatant on %d,%d", at.col, at.row);
        return;
    }
    if (run_edit(s, &e, "place a combatant")) {
        s->selected = s->map->n_combatants - 1;
        ed_message(s, "placed %s (%s) at %d,%d", id, s->faction, at.col, at.row);
    }
}

/* Paint the brush from the last dab to c: motion events skip cells when the
 * mouse moves fast, and a stroke must not come out dotted. */
static void dab(ed_state_t *s, cell_t c)
{
    edit_t e;
    int type = s->type;
    if (s->tool == ED_ERASER) {
        type = map_find_type(s->map, "open");
        if (type < 0) type = 0;
    }
    cell_t from = s->stroke.u.group.n > 0 ? s->stroke_last : c;
    if (!edit_line(s->map, from, c, s->brush, type, &e)) return;
    s->stroke_last = c;
    if (edit_is_noop(&e) || !edit_apply(s->map, &e)) {
        edit_free(&e);
        return;
    }
    edit_group_push(&s->stroke, &e);
    s->dirty_frame = true;
}

static void end_stroke(ed_state_t *s)
{
    if (!s->stroke_on) return;
    s->stroke_on = false;
    if (s->stroke.u.group.n > 0) {
        edit_record(&s->hist, &s->stroke);
        s->play_warned = false;
    } else {
        edit_free(&s->stroke);
    }
    edit_group_init(&s->stroke);
}

static void map_press(ed_state_t *s, cell_t c)
{
    int unit = edit_unit_at(s->map, c);
    edit_t e;
    switch (s->tool) {
    case ED_BRUSH:
    case ED_ERASER:
        s->stroke_on = true;
        s->stroke_last = c;
        dab(s, c);
        break;
    case ED_LINE:
        s->line_on = true;
        s->line_from = c;
        break;
    case ED_FILL:
        if (edit_flood(s->map, c, s->type, &e)) run_edit(s, &e, "fill");
        break;
    case ED_PICK:
        s->type = s->map->cells[map_index(s->map, c)];
        s->tool = ED_BRUSH;
        ed_message(s, "picked %s", s->map->types[s->type].name);
        break;
    case ED_UNIT:
        if (unit >= 0) {
            s->selected = unit;
            s->drag_unit = unit;
        } else {
            place_unit(s, c);
        }
        break;
    case ED_SELECT:
        s->selected = unit;
        s->drag_unit = unit;
        break;
    }
    s->dirty_frame = true;
}

static void map_release(ed_state_t *s, cell_t c, bool on_map)
{
    end_stroke(s);
    edit_t e;
    if (s->line_on) {
        s->line_on = false;
        if (on_map && edit_line(s->map, s->line_from, c, s->brush, s->type, &e))
            run_edit(s, &e, "draw a line");
    }
    if (s->drag_unit >= 0) {
        int u = s->drag_unit;
        s->drag_unit = -1;
        cell_t at = s->map->combatants[u].at;
        if (on_map && (at.col != c.col || at.row != c.row)) {
            if (edit_unit_move(s->map, u, c, &e))
                run_edit(s, &e, "move there");
            else
                ed_message(s, "cannot move to %d,%d: taken or off the map", c.col, c.row);
        }
    }
    s->dirty_frame = true;
}

/* ---- prompts ---- */

static void start_prompt(ed_state_t *s, ed_prompt_t p, const char *initial)
{
    s->prompt = p;
    s->skip_text = 0;
    hb_strlcpy(s->input, initial ? initial : "", sizeof s->input);
    s->dirty_frame = true;
}

static bool parse_anchor(const char *a, edit_anchor_t *out)
{
    static const char *const NAMES[3][3] = {{"tl", "t", "tr"}, {"l", "c", "r"}, {"bl", "b", "br"}};
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++)
            if (strcmp(a, NAMES[y][x]) == 0) {
                *out = (edit_anchor_t){x, y};
                return true;
            }
    return false;
}

/* "name move cover blocks #rrggbb" into a new terrain type. */
static bool parse_type(const char *in, terrain_t *t)
{
    char name[MAP_ID_MAX], cover[16], blocks[8], color[16];
    int move;
    memset(t, 0, sizeof *t);
    if (sscanf(in, "%31s %d %15s %7s %15s", name, &move, cover, blocks, color) != 5) return false;
    int cv = map_cover_parse(cover);
    unsigned rgb;
    if (cv < 0 || move < 0 || move > 2 || color[0] != '#' || sscanf(color + 1, "%6x", &rgb) != 1)
        return false;
    hb_strlcpy(t->name, name, sizeof t->name);
    t->move = move;
    t->cover = (cover_t)cv;
    t->blocks_sight = blocks[0] == 'y' || blocks[0] == 't';
    t->color = rgb;
    return true;
}

static void unit_change(ed_state_t *s, map_combatant_t *u, const char *what)
{
    edit_t e;
    if (edit_unit_set(s->map, s->selected, u, &e)) run_edit(s, &e, what);
}

static void submit_prompt(ed_state_t *s)
{
    ed_prompt_t p = s->prompt;
    const char *in = s->input;
    s->prompt = ED_PROMPT_NONE;
    edit_t e;
    map_combatant_t u;
    edit_props_t props;
    hb_strlcpy(props.name, s->map->name, sizeof props.name);
    hb_strlcpy(props.ruleset, s->map->ruleset, sizeof props.ruleset);
    props.feet_per_hex = s->map->feet_per_hex;
    bool has_sel = s->selected >= 0 && s->selected < s->map->n_combatants;
    if (has_sel) u = s->map->combatants[s->selected];

    switch (p) {
    case ED_PROMPT_SAVE_AS:
        if (!in[0]) return;
        /* The editor's file changes only once the save worked. */
        char dest[SAVE_PATH_MAX];
        if (!ed_resolve_save_path(in, dest, sizeof dest)) return;
        if (strcmp(dest, s->path) == 0)
            ed_save(s);
        else
            save_to(s, dest);
        break;
    case ED_PROMPT_SEARCH:
        s->tmpl_sel = ed_template_match(s, 0) ? 0 : -1;
        s->tool = ED_UNIT;
        break;
    case ED_PROMPT_NAME:
        if (!has_sel || !in[0]) return;
        hb_strlcpy(u.name, in, sizeof u.name);
        u.given |= GIVEN_NAME;
        unit_change(s, &u, "rename");
        break;
    case ED_PROMPT_FACTION:
        if (!in[0]) return;
        hb_strlcpy(s->faction, in, sizeof s->faction);
        if (!has_sel) return;
        hb_strlcpy(u.faction, in, sizeof u.faction);
        unit_change(s, &u, "change faction");
        break;
    case ED_PROMPT_STAT: {
        char key[MAP_ID_MAX];
        const char *eq = strchr(in, '=');
        if (!has_sel || !eq || eq == in || (size_t)(eq - in) >= sizeof key) {
            ed_message(s, "stat override: type key=value (key= removes it)");
            return;
        }
        memcpy(key, in, (size_t)(eq - in));
        key[eq - in] = '\0';
        bool remove = eq[1] == '\0';
        char *end;
        long v = remove ? 0 : strtol(eq + 1, &end, 10);
        if (!remove && (*end || v < -100000 || v > 100000)) {
            ed_message(s, "stat value must be a whole number");
            return;
        }
        if (edit_stat_put(&u, key, (int)v, remove)) unit_change(s, &u, "set the stat");
        break;
    }
    case ED_PROMPT_MAP_NAME:
        hb_strlcpy(props.name, in, sizeof props.name);
        if (edit_props(s->map, &props, &e)) run_edit(s, &e, "rename the map");
        break;
    case ED_PROMPT_RULESET:
        if (!ruleset_find(in)) {
            ed_message(s, "no ruleset '%s'", in);
            return;
        }
        hb_strlcpy(props.ruleset, in, sizeof props.ruleset);
        if (edit_props(s->map, &props, &e)) run_edit(s, &e, "set the ruleset");
        break;
    case ED_PROMPT_FEET: {
        props.feet_per_hex = atoi(in);
        if (edit_props(s->map, &props, &e))
            run_edit(s, &e, "set feet per hex");
        else
            ed_message(s, "feet per hex must be 1..1000");
        break;
    }
    case ED_PROMPT_RESIZE: {
        int cols, rows;
        char anchor[8] = "tl";
        edit_anchor_t a = {0, 0};
        int n = sscanf(in, "%dx%d %7s", &cols, &rows, anchor);
        if (n < 2 || !parse_anchor(anchor, &a) ||
            !edit_resize(s->map, cols, rows, a,
                         map_find_type(s->map, "open") < 0 ? 0 : map_find_type(s->map, "open"),
                         &e)) {
            ed_message(s, "resize: type COLSxROWS and an anchor (tl t tr l c r bl b br)");
            return;
        }
        ed_roster_t *had = ed_roster_keep(s->map);
        if (run_edit(s, &e, "resize")) ed_fit(s);
        ed_roster_lost(s, had, "the resize");
        break;
    }
    case ED_PROMPT_NEW_TYPE: {
        terrain_t t;
        if (!parse_type(in, &t) || !edit_type_add(s->map, &t, &e)) {
            ed_message(s, "new type: name move(0-2) cover(none..total) blocks(y/n) #rrggbb");
            return;
        }
        if (run_edit(s, &e, "add the type")) s->type = s->map->n_types - 1;
        break;
    }
    case ED_PROMPT_NEW_MAP: {
        int cols, rows;
        char name[MAP_ID_MAX] = "open";
        int n = sscanf(in, "%dx%d %31s", &cols, &rows, name);
        int fill = map_find_type(s->map, name);
        if (n < 2 || fill < 0 || cols < 1 || rows < 1 || cols > MAP_MAX_DIM || rows > MAP_MAX_DIM ||
            !blank_map(s, cols, rows, fill)) {
            ed_message(s, "new map: type COLSxROWS and a terrain, e.g. 24x16 open");
            return;
        }
        ed_message(s, "new %dx%d map of %s (Ctrl+Z brings the old one back)", cols, rows, name);
        ed_fit(s);
        break;
    }
    case ED_PROMPT_QUIT:
    case ED_PROMPT_RECOVER:
    case ED_PROMPT_OVERWRITE:
    case ED_PROMPT_NONE:
        break;
    }
    s->dirty_frame = true;
}

static void play_request(ed_state_t *s)
{
    char out[ED_MSG_MAX][160];
    int n = edit_check(s->map, s->db, out, ED_MSG_MAX - 1);
    if (n > 0 && !s->play_warned) {
        for (int i = 0; i < n && i < ED_MSG_MAX - 1; i++)
            ed_message(s, "warning: %s", out[i]);
        ed_message(s, "press F5 again to play anyway");
        s->play_warned = true;
        return;
    }
    s->want_play = true;
}

static void layout_change(ed_state_t *s, bool orient)
{
    hex_layout_t lay = s->map->layout;
    if (orient)
        lay.orient = lay.orient == HEX_POINTY ? HEX_FLAT : HEX_POINTY;
    else
        lay.stagger = lay.stagger == HEX_ODD ? HEX_EVEN : HEX_ODD;
    int open = map_find_type(s->map, "open");
    edit_t e;
    if (edit_layout(s->map, lay, open < 0 ? 0 : open, &e) && run_edit(s, &e, "change the layout"))
        ed_fit(s);
}

static void key_prompt(ed_state_t *s, SDL_Keycode k)
{
    if (s->prompt == ED_PROMPT_RECOVER) {
        if (k == SDLK_r) {
            s->prompt = ED_PROMPT_NONE;
            ed_restore_recovery(s);
        } else if (k == SDLK_d) {
            s->prompt = ED_PROMPT_NONE;
            recover_map_free(&s->recover);
            remove(s->recover_file);
            ed_message(s, "discarded the recovery copy");
        } else if (k == SDLK_ESCAPE) {
            s->prompt = ED_PROMPT_NONE;
            recover_map_free(&s->recover);
            ed_message(s, "the recovery copy is kept: %s", s->recover_file);
        }
        s->dirty_frame = true;
        return;
    }
    if (s->prompt == ED_PROMPT_OVERWRITE) {
        if (k == SDLK_y || k == SDLK_RETURN || k == SDLK_KP_ENTER) {
            s->prompt = ED_PROMPT_NONE;
            save_to(s, s->path);
        } else if (k == SDLK_n || k == SDLK_ESCAPE) {
            s->prompt = ED_PROMPT_NONE;
            ed_message(s, "not saved: %s is left as the other program wrote it", s->path);
        }
        s->dirty_frame = true;
        return;
    }
    if (s->prompt == ED_PROMPT_QUIT) {
        ui_quit_t q = ui_quit_choice(k);
        if (q == UI_QUIT_SAVE) {
            s->prompt = ED_PROMPT_NONE;
            if (ed_save(s)) s->quit = true;
        } else if (q == UI_QUIT_DISCARD) {
            s->quit = true;
        } else if (q == UI_QUIT_STAY) {
            s->prompt = ED_PROMPT_NONE;
        }
        s->dirty_frame = true;
        return;
    }
    size_t n = strlen(s->input);
    if (k == SDLK_ESCAPE) {
        s->prompt = ED_PROMPT_NONE;
    } else if (k == SDLK_RETURN || k == SDLK_KP_ENTER) {
        submit_prompt(s);
    } else if (k == SDLK_BACKSPACE && n > 0) {
        s->input[n - 1] = '\0';
        if (s->prompt == ED_PROMPT_SEARCH) hb_strlcpy(s->search, s->input, sizeof s->search);
    }
    s->dirty_frame = true;
}

static void key_down(ed_state_t *s, const SDL_KeyboardEvent *ke)
{
    SDL_Keycode k = ke->keysym.sym;
    bool ctrl = (ke->keysym.mod & KMOD_CTRL) != 0, shift = (ke->keysym.mod & KMOD_SHIFT) != 0;
    if (s->prompt != ED_PROMPT_NONE) {
        key_prompt(s, k);
        return;
    }
    bool sel = s->selected >= 0 && s->selected < s->map->n_combatants;
    ed_prompt_t before = s->prompt;
    if (ctrl) {
        /* Undo under a half-made stroke would swap cells beneath its dabs. */
        end_stroke(s);
        s->line_on = false;
        if (k == SDLK_z && !shift) {
            if (!ed_undo(s)) ed_message(s, "nothing to undo");
        } else if ((k == SDLK_z && shift) || k == SDLK_y) {
            if (!ed_redo(s)) ed_message(s, "nothing to redo");
        } else if (k == SDLK_s && shift) {
            ed_start_save_as(s);
        } else if (k == SDLK_s) {
            ed_save(s);
        } else if (k == SDLK_r) {
            start_prompt(s, ED_PROMPT_RESIZE, NULL);
        } else if (k == SDLK_n) {
            start_prompt(s, ED_PROMPT_NEW_MAP, NULL);
        }
        s->dirty_frame = true;
        return;
    }
    if (ed_align_key(s, k)) {
        s->dirty_frame = true;
        return;
    }
    switch (k) {
    case SDLK_v:
        s->tool = ED_SELECT;
        break;
    case SDLK_b:
        s->tool = ED_BRUSH;
        break;
    case SDLK_l:
        s->tool = ED_LINE;
        break;
    case SDLK_f:
        s->tool = ED_FILL;
        break;
    case SDLK_e:
        s->tool = ED_ERASER;
        break;
    case SDLK_i:
        s->tool = ED_PICK;
        break;
    case SDLK_u:
        s->tool = ED_UNIT;
        break;
    case SDLK_1:
    case SDLK_2:
    case SDLK_3:
        s->brush = (int)(k - SDLK_0);
        break;
    case SDLK_LEFTBRACKET:
        s->type = (s->type + s->map->n_types - 1) % s->map->n_types;
        break;
    case SDLK_RIGHTBRACKET:
        s->type = (s->type + 1) % s->map->n_types;
        break;
    case SDLK_UP:
        if (s->tmpl_sel > 0) s->tmpl_sel--;
        break;
    case SDLK_DOWN:
        if (ed_template_match(s, s->tmpl_sel + 1)) s->tmpl_sel++;
        break;
    case SDLK_SLASH:
        start_prompt(s, ED_PROMPT_SEARCH, s->search);
        break;
    case SDLK_DELETE:
    case SDLK_BACKSPACE:
        if (sel) {
            edit_t e;
            if (edit_unit_del(s->map, s->selected, &e) && run_edit(s, &e, "delete"))
                s->selected = -1;
        }
        break;
    case SDLK_n:
        if (sel) start_prompt(s, ED_PROMPT_NAME, s->map->combatants[s->selected].name);
        break;
    case SDLK_g:
        if (shift) {
            /* Shift+G: the map's group initiative option (like Architect
             * combatants share one roll), on or off; undoable like any edit. */
            int on = 0;
            bool now = !(map_option(s->map, "group_initiative", &on) && on);
            edit_t e;
            if (edit_option_set(s->map, "group_initiative", now, true, !now, &e) &&
                run_edit(s, &e, "group initiative"))
                ed_message(s, "group initiative %s", now ? "on" : "off");
            break;
        }
        start_prompt(s, ED_PROMPT_FACTION,
                     sel ? s->map->combatants[s->selected].faction : s->faction);
        break;
    case SDLK_k:
        if (sel) start_prompt(s, ED_PROMPT_STAT, NULL);
        break;
    case SDLK_p: {
        const char *f = sel ? s->map->combatants[s->selected].faction : s->faction;
        edit_t e;
        bool now = !map_faction_is_player(s->map, f);
        if (edit_faction_set(s->map, f, now, &e) && run_edit(s, &e, "set the faction"))
            ed_message(s, "faction %s: %s", f, control_words(now));
        break;
    }
    case SDLK_m:
        start_prompt(s, ED_PROMPT_MAP_NAME, s->map->name);
        break;
    case SDLK_r:
        start_prompt(s, ED_PROMPT_RULESET, s->map->ruleset);
        break;
    case SDLK_h: {
        char buf[16];
        snprintf(buf, sizeof buf, "%d", s->map->feet_per_hex);
        start_prompt(s, ED_PROMPT_FEET, buf);
        break;
    }
    case SDLK_o:
        layout_change(s, !shift);
        break;
    case SDLK_t:
        start_prompt(s, ED_PROMPT_NEW_TYPE, NULL);
        break;
    case SDLK_HOME:
        ed_fit(s);
        break;
    case SDLK_F11:
        s->toggle_fullscreen = true;
        break;
    case SDLK_EQUALS:
    case SDLK_PLUS:
        ui_cam_zoom_at(&s->cam, (vec2_t){s->view_w / 2.0, s->view_h / 2.0}, 1.25);
        ed_clamp(s);
        s->fitted = false;
        break;
    case SDLK_MINUS:
        ui_cam_zoom_at(&s->cam, (vec2_t){s->view_w / 2.0, s->view_h / 2.0}, 0.8);
        ed_clamp(s);
        s->fitted = false;
        break;
    case SDLK_F5:
    case SDLK_TAB:
        play_request(s);
        break;
    case SDLK_ESCAPE:
        s->tool = ED_SELECT;
        s->selected = -1;
        break;
    case SDLK_q:
        if (edit_history_dirty(&s->hist) || s->art_moved)
            s->prompt = ED_PROMPT_QUIT;
        else
            s->quit = true;
        break;
    default:
        break;
    }
    /* SDL sends the key that opened a prompt as text too; it is not input. */
    if (before == ED_PROMPT_NONE && s->prompt != ED_PROMPT_NONE && k >= 32 && k < 127)
        s->skip_text = (char)k;
    s->dirty_frame = true;
}

/* Cell under screen point (x, y); false when off the map or over a panel. */
static bool cell_at(const ed_state_t *s, double x, double y, cell_t *c)
{
    vec2_t w = ui_cam_to_world(&s->cam, (vec2_t){x, y});
    bool on = ui_pick_cell(s->map, w, c);
    return on && x >= ED_PALETTE_W && x < s->view_w - ED_PANEL_W;
}

void ed_handle_event(ed_state_t *s, const SDL_Event *e)
{
    cell_t c;
    switch (e->type) {
    case SDL_QUIT:
        if (edit_history_dirty(&s->hist) || s->art_moved)
            s->prompt = ED_PROMPT_QUIT;
        else
            s->quit = true;
        s->dirty_frame = true;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED && e->window.data1 > 0 &&
            e->window.data2 > 0) {
            /* The panels keep their width; a fitted map is fitted again. */
            s->view_w = e->window.data1;
            s->view_h = e->window.data2;
            if (s->fitted) ed_fit(s);
        }
        s->dirty_frame = true;
        break;
    case SDL_KEYDOWN:
        key_down(s, &e->key);
        break;
    case SDL_TEXTINPUT:
        if (s->skip_text && e->text.text[0] == s->skip_text && !e->text.text[1]) {
            s->skip_text = 0;
            break;
        }
        s->skip_text = 0;
        if (s->prompt != ED_PROMPT_NONE && s->prompt != ED_PROMPT_QUIT &&
            s->prompt != ED_PROMPT_RECOVER && s->prompt != ED_PROMPT_OVERWRITE) {
            size_t n = strlen(s->input), add = strlen(e->text.text);
            if (n + add < sizeof s->input) memcpy(s->input + n, e->text.text, add + 1);
            if (s->prompt == ED_PROMPT_SEARCH) {
                hb_strlcpy(s->search, s->input, sizeof s->search);
                s->tmpl_sel = ed_template_match(s, 0) ? 0 : -1;
            }
            s->dirty_frame = true;
        }
        break;
    case SDL_MOUSEMOTION: {
        double dx = e->motion.x - s->mouse_x, dy = e->motion.y - s->mouse_y;
        s->mouse_x = e->motion.x;
        s->mouse_y = e->motion.y;
        if (s->pan_button) {
            ui_cam_pan(&s->cam, -dx, -dy);
            ed_clamp(s);
            s->fitted = false;
        }
        s->hover_on_map = cell_at(s, s->mouse_x, s->mouse_y, &s->hover);
        if (s->stroke_on && s->hover_on_map) dab(s, s->hover);
        s->dirty_frame = true;
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        s->mouse_x = e->button.x;
        s->mouse_y = e->button.y;
        if (e->button.button != SDL_BUTTON_LEFT) {
            s->pan_button = e->button.button;
            break;
        }
        if (s->prompt != ED_PROMPT_NONE) break;
        if (e->button.x < ED_PALETTE_W) {
            int row = (e->button.y - 40) / ED_ROW_H;
            if (row >= 0 && row < s->map->n_types) {
                s->type = row;
                if (s->tool != ED_LINE && s->tool != ED_FILL) s->tool = ED_BRUSH;
            }
        } else if (e->button.x >= s->view_w - ED_PANEL_W) {
            /* Template list rows start at a fixed place in the panel. */
            int row = (e->button.y - 300) / ED_ROW_H;
            if (row >= 0 && row < ed_template_rows(s) && ed_template_match(s, row)) {
                s->tmpl_sel = row;
                s->tool = ED_UNIT;
            }
        } else if (ed_align_click(s, e->button.x, e->button.y)) {
            ;
        } else if (cell_at(s, e->button.x, e->button.y, &c)) {
            map_press(s, c);
        }
        s->dirty_frame = true;
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button != SDL_BUTTON_LEFT) {
            if (e->button.button == s->pan_button) s->pan_button = 0;
            break;
        }
        {
            bool on = cell_at(s, e->button.x, e->button.y, &c);
            map_release(s, c, on);
        }
        break;
    case SDL_MOUSEWHEEL:
        if (e->wheel.y)
        {
            ui_cam_zoom_at(&s->cam, (vec2_t){s->mouse_x, s->mouse_y},
                           pow(1.15, e->wheel.y > 0 ? 1 : -1));
            ed_clamp(s);
            s->fitted = false;
        }
        s->dirty_frame = true;
        break;
    default:
        break;
    }
}

/* ---- drawing ---- */

static const SDL_Color INK = {235, 235, 228, 255};
static const SDL_Color DIM = {160, 165, 170, 255};
static const SDL_Color WARN = {255, 190, 90, 255};

static int text(ui_draw_t *d, const char *str, int x, int y, SDL_Color c, bool bold)
{
    ui_text_draw(ui_draw_text(d), str, 14, bold, c, x, y);
    return y + 18;
}

static void outline_cell(SDL_Renderer *r, const ed_state_t *s, cell_t c, SDL_Color col)
{
    vec2_t w = ui_cell_center(s->map, c);
    SDL_SetRenderDrawColor(r, col.r, col.g, col.b, 255);
    for (int k = 0; k < 2; k++) {
        SDL_FPoint pts[7];
        for (int i = 0; i <= 6; i++) {
            vec2_t o = hex_corner(s->map->layout.orient, 0.9 - 0.08 * k, i % 6);
            vec2_t p = ui_cam_to_screen(&s->cam, (vec2_t){w.x + o.x, w.y + o.y});
            pts[i] = (SDL_FPoint){(float)p.x, (float)p.y};
        }
        SDL_RenderDrawLinesF(r, pts, 7);
    }
}

static const char *prompt_label(ed_prompt_t p)
{
    switch (p) {
    case ED_PROMPT_SAVE_AS:
        return "Save the map as (a bare name goes into the maps folder):";
    case ED_PROMPT_SEARCH:
        return "Search templates:";
    case ED_PROMPT_NAME:
        return "Combatant name:";
    case ED_PROMPT_FACTION:
        return "Faction (P: played at this laptop / by the AI):";
    case ED_PROMPT_STAT:
        return "Stat override key=value (key= removes):";
    case ED_PROMPT_MAP_NAME:
        return "Map name:";
    case ED_PROMPT_RULESET:
        return "Ruleset (xhalem, scars...):";
    case ED_PROMPT_FEET:
        return "Feet per hex:";
    case ED_PROMPT_RESIZE:
        return "Resize COLSxROWS anchor (tl t tr l c r bl b br):";
    case ED_PROMPT_NEW_TYPE:
        return "New terrain: name move cover blocks(y/n) #rrggbb";
    case ED_PROMPT_NEW_MAP:
        return "New map COLSxROWS terrain (e.g. 24x16 open):";
    case ED_PROMPT_QUIT:
        return "There are edits since the last save. Quit?";
    case ED_PROMPT_OVERWRITE:
        return "The file changed on disk since it was opened. Y: overwrite it, Esc: do not save";
    default:
        return "";
    }
}

void ed_draw(ui_draw_t *d, const ed_state_t *s)
{
    SDL_Renderer *r = ui_draw_renderer(d);
    ui_frame_opts_t opts = {.hover = s->hover_on_map, .hover_cell = s->hover};
    ui_draw_set_terrain_overlay(d, s->art_colours);
    ui_draw_map(d, s->map, &s->cam, s->view_w, s->view_h, &opts);
    if (s->selected >= 0 && s->selected < s->map->n_combatants)
        outline_cell(r, s, s->map->combatants[s->selected].at, (SDL_Color){255, 230, 60, 255});
    if (s->line_on) outline_cell(r, s, s->line_from, (SDL_Color){255, 255, 255, 255});

    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    /* Palette: every terrain type, built-in and the map's own. */
    SDL_SetRenderDrawColor(r, 20, 22, 28, 235);
    SDL_RenderFillRect(r, &(SDL_Rect){0, 0, ED_PALETTE_W, s->view_h});
    text(d, "Terrain  [ ]", 8, 12, INK, true);
    for (int i = 0; i < s->map->n_types; i++) {
        const terrain_t *t = &s->map->types[i];
        int y = 40 + i * ED_ROW_H;
        if (i == s->type) {
            SDL_SetRenderDrawColor(r, 70, 80, 110, 255);
            SDL_RenderFillRect(r, &(SDL_Rect){2, y - 1, ED_PALETTE_W - 4, ED_ROW_H});
        }
        SDL_SetRenderDrawColor(r, (t->color >> 16) & 255, (t->color >> 8) & 255, t->color & 255,
                               255);
        SDL_RenderFillRect(r, &(SDL_Rect){8, y + 2, 16, 16});
        char label[96];
        snprintf(label, sizeof label, "%s%s%s", t->name, t->texture[0] ? " *" : "",
                 t->in_map && !t->builtin ? " (map)" : "");
        text(d, label, 32, y + 1, i == s->type ? INK : DIM, false);
    }

    /* Side panel: tool, selection, templates, map properties, messages. */
    int x = s->view_w - ED_PANEL_W + 10;
    SDL_SetRenderDrawColor(r, 20, 22, 28, 235);
    SDL_RenderFillRect(r, &(SDL_Rect){s->view_w - ED_PANEL_W, 0, ED_PANEL_W, s->view_h});
    char buf[MAP_PATH_MAX + 64];
    int y = 10;
    snprintf(buf, sizeof buf, "Tool: %s  brush %d", TOOL_NAMES[s->tool], s->brush);
    y = text(d, buf, x, y, INK, true);
    y = text(d, "V sel B brush L line F fill E erase", x, y, DIM, false);
    y = text(d, "I pick U place 1-3 radius", x, y, DIM, false);
    y += 6;
    if (s->selected >= 0 && s->selected < s->map->n_combatants) {
        const map_combatant_t *u = &s->map->combatants[s->selected];
        snprintf(buf, sizeof buf, "%s  \"%s\"", u->id, u->name);
        y = text(d, buf, x, y, INK, true);
        snprintf(buf, sizeof buf, "faction %s:", u->faction);
        y = text(d, buf, x, y, INK, false);
        snprintf(buf, sizeof buf, "  %s (P)", control_words(map_faction_is_player(s->map, u->faction)));
        y = text(d, buf, x, y, INK, false);
        snprintf(buf, sizeof buf, "template %s  at %d,%d",
                 u->template_name[0] ? u->template_name : "-", u->at.col, u->at.row);
        y = text(d, buf, x, y, INK, false);
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; i < u->n_stats && n < sizeof buf - 40; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s=%d ", u->stats[i].key,
                                  u->stats[i].value);
        y = text(d, n ? buf : "no stat overrides", x, y, DIM, false);
        y = text(d, "N name G faction K stat Del", x, y, DIM, false);
    } else {
        snprintf(buf, sizeof buf, "new combatants join: %s (G)", s->faction);
        y = text(d, buf, x, y, INK, false);
        snprintf(buf, sizeof buf, "  %s (P)", control_words(map_faction_is_player(s->map, s->faction)));
        y = text(d, buf, x, y, INK, false);
        y = text(d, "click a combatant to select it", x, y, DIM, false);
    }
    snprintf(buf, sizeof buf, "Templates (/ search): %s", s->search);
    text(d, buf, x, 278, INK, true);
    int rows = ed_template_rows(s);
    for (int i = 0; i < rows; i++) {
        const tmpl_t *t = ed_template_match(s, i);
        if (!t) break;
        snprintf(buf, sizeof buf, "%s %s", i == s->tmpl_sel ? ">" : " ", t->name);
        text(d, buf, x, 300 + i * ED_ROW_H, i == s->tmpl_sel ? INK : DIM, false);
    }
    y = 300 + rows * ED_ROW_H + 8;
    snprintf(buf, sizeof buf, "Map: %s%s", s->map->name[0] ? s->map->name : "(untitled)",
             edit_history_dirty(&s->hist) ? " *" : "");
    y = text(d, buf, x, y, INK, true);
    snprintf(buf, sizeof buf, "%dx%d %s %s, %d ft/hex, %s", s->map->cols, s->map->rows,
             s->map->layout.orient == HEX_FLAT ? "flat" : "pointy",
             s->map->layout.stagger == HEX_EVEN ? "even" : "odd", s->map->feet_per_hex,
             s->map->ruleset);
    y = text(d, buf, x, y, INK, false);
    y = text(d, "M name R ruleset H ft O/Shift+O layout", x, y, DIM, false);
    {
        int on = 0;
        snprintf(buf, sizeof buf, "group initiative: %s (Shift+G)",
                 map_option(s->map, "group_initiative", &on) && on ? "on" : "off");
        y = text(d, buf, x, y, DIM, false);
    }
    y = text(d, "Ctrl+R resize T new terrain", x, y, DIM, false);
    y = text(d, "Ctrl+N new map", x, y, DIM, false);
    y = text(d, "Ctrl+Z undo Ctrl+Y redo Ctrl+S save", x, y, DIM, false);
    y = text(d, "F5 play-test  F11 fullscreen  Q quit", x, y, DIM, false);
    snprintf(buf, sizeof buf, "undo %d / redo %d", s->hist.pos, s->hist.n - s->hist.pos);
    y = text(d, buf, x, y, DIM, false);
    y += 6;
    /* Long messages wrap at a fixed width: the panel is fixed too. */
    enum { WRAP = 38 };
    for (int i = 0; i < s->n_msg; i++) {
        SDL_Color c = strncmp(s->msg[i], "warning", 7) == 0 ? WARN : INK;
        for (size_t off = 0, len = strlen(s->msg[i]); off < len; off += WRAP) {
            char part[WRAP + 1];
            hb_strlcpy(part, s->msg[i] + off, sizeof part);
            y = text(d, part, x, y, c, false);
        }
    }

    /* A resize, a new map or an undo may have shrunk the map under the
     * cursor since the hover was picked. */
    if (s->hover_on_map && map_in_bounds(s->map, s->hover)) {
        const terrain_t *t = map_terrain_at(s->map, s->hover);
        int u = edit_unit_at(s->map, s->hover);
        snprintf(buf, sizeof buf, "%d,%d  %s (move %d, cover %s)%s%s", s->hover.col, s->hover.row,
                 t->name, t->move, map_cover_name(t->cover), u >= 0 ? "  " : "",
                 u >= 0 ? s->map->combatants[u].name : "");
        SDL_SetRenderDrawColor(r, 14, 16, 20, 215);
        SDL_RenderFillRect(r, &(SDL_Rect){ED_PALETTE_W, s->view_h - 26,
                                          s->view_w - ED_PALETTE_W - ED_PANEL_W, 26});
        text(d, buf, ED_PALETTE_W + 8, s->view_h - 22, INK, false);
    }
    if (s->prompt == ED_PROMPT_QUIT) {
        /* The play window's question, word for word and key for key. */
        ui_draw_quit_question(d, s->view_w, s->view_h, 1.0, prompt_label(s->prompt),
                              UI_QUIT_KEYS);
    } else if (s->prompt != ED_PROMPT_NONE) {
        int w = s->view_w - ED_PALETTE_W - ED_PANEL_W - 40;
        SDL_Rect box = {ED_PALETTE_W + 20, s->view_h / 2 - 40, w > 200 ? w : 200, 70};
        SDL_SetRenderDrawColor(r, 30, 34, 46, 245);
        SDL_RenderFillRect(r, &box);
        SDL_SetRenderDrawColor(r, 200, 200, 210, 255);
        SDL_RenderDrawRect(r, &box);
        bool recover = s->prompt == ED_PROMPT_RECOVER;
        text(d, recover ? s->recover_label : prompt_label(s->prompt), box.x + 10, box.y + 10, INK,
             true);
        if (recover)
            text(d, "R: restore them   D: discard the copy   Esc: keep it for later", box.x + 10,
                 box.y + 38, INK, false);
        else if (s->prompt != ED_PROMPT_OVERWRITE) {
            snprintf(buf, sizeof buf, "%s_", s->input);
            text(d, buf, box.x + 10, box.y + 38, INK, false);
        }
    }
}

/* ---- the window loop ---- */

ed_run_t ed_run_window(ed_state_t *s, char *err, size_t errcap)
{
    if (!ui_video_open(err, errcap)) return ED_RUN_ERROR;
    ed_run_t rc = ED_RUN_ERROR;
    SDL_Renderer *ren = NULL;
    ui_draw_t *d = NULL;
    /* As large as wanted where the screen has room, else 90 % of it. */
    int w, h;
    ui_window_size_for(0, ED_WANT_W, ED_WANT_H, &w, &h);
    SDL_Window *win = SDL_CreateWindow("hexbattle editor", SDL_WINDOWPOS_CENTERED,
                                       SDL_WINDOWPOS_CENTERED, w, h, SDL_WINDOW_RESIZABLE);
    if (!win) {
        snprintf(err, errcap, "cannot open the editor window: %s", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, ED_PALETTE_W + ED_PANEL_W + 160, 480);
    /* Windows' log-off or shutdown: caught as a stop, as in the play window;
     * when it ends before the loop came round, the edits are kept there and
     * then (src/ui/stop.h). */
    ui_stop_watch(win, ed_last_words, s);
    ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!ren) ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!ren) {
        snprintf(err, errcap, "cannot create a renderer: %s", SDL_GetError());
        goto done;
    }
    d = ui_draw_create(ren, s->map, err, errcap);
    if (!d) goto done;
    if (ui_draw_art_warning(d)) ed_message(s, "warning: %s", ui_draw_art_warning(d));
    s->opens++;
    SDL_GetRendererOutputSize(ren, &s->view_w, &s->view_h);
    ed_fit(s);
    SDL_StartTextInput();
    s->quit = s->want_play = false;
    /* HEXBATTLE_QUIT_AFTER_MS=N leaves N ms after opening, as the play
     * window does, for scripted runs. */
    const char *quit_env = getenv("HEXBATTLE_QUIT_AFTER_MS");
    long quit_ms = quit_env && *quit_env ? strtol(quit_env, NULL, 10) : 0;
    Uint64 quit_at = quit_ms > 0 ? SDL_GetTicks64() + (Uint64)quit_ms : 0;
    while (!s->quit && !s->want_play && !ui_stop_signal()) {
        if (quit_at && SDL_GetTicks64() >= quit_at) break;
        if (s->dirty_frame) {
            char title[MAP_NAME_MAX + MAP_PATH_MAX + 32];
            snprintf(title, sizeof title, "hexbattle editor - %s%s",
                     s->path[0] ? s->path : "(new map)", edit_history_dirty(&s->hist) ? " *" : "");
            SDL_SetWindowTitle(win, title);
            ed_draw(d, s);
            SDL_RenderPresent(ren);
            s->dirty_frame = false;
        }
        SDL_Event e;
        /* A stop signal cuts the wait short; the timeout bounds it anyway. */
        if (!SDL_WaitEventTimeout(&e, quit_at ? 50 : 100)) continue;
        do {
            ed_handle_event(s, &e);
            if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                /* The drawable may differ from the event's points. */
                SDL_GetRendererOutputSize(ren, &s->view_w, &s->view_h);
                if (s->fitted) ed_fit(s);
            }
            if (s->toggle_fullscreen) {
                s->toggle_fullscreen = false;
                ui_toggle_fullscreen(win);
                s->dirty_frame = true;
            }
        } while (!s->quit && !s->want_play && SDL_PollEvent(&e));
    }
    SDL_StopTextInput();
    rc = s->want_play ? ED_RUN_PLAY : ED_RUN_QUIT;
done:
    ui_draw_destroy(d);
    if (ren) SDL_DestroyRenderer(ren);
    ui_stop_unwatch(win);
    if (win) SDL_DestroyWindow(win);
    ui_video_close();
    return rc;
}
