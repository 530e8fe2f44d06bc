/* menu.c - the "open" menu and map picker (see menu.h). */
#include "menu.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/fileio.h"
#include "../platform/platform.h"
#include "../io/recover.h"
#include "../io/map_io.h"

static const char SUFFIX[] = ".battle.json";

static bool listed(const smenu_t *m, const char *path)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->e[i].path, path) == 0) return true;
    return false;
}

/* Describe the save at path; false when there is no such file. */
static bool describe(smenu_entry_t *e, const char *path, const char *title)
{
    hb_fs_info_t st;
    if (hb_fs_stat(path, &st) != 0 || st.kind != HB_FS_REGULAR) return false;
    memset(e, 0, sizeof *e);
    hb_strlcpy(e->path, path, sizeof e->path);
    hb_strlcpy(e->title, title, sizeof e->title);
    e->mtime = (time_t)(st.mtime_ns / 1000000000);
    char when[32] = "";
    struct tm tm;
    if (localtime_r(&e->mtime, &tm)) strftime(when, sizeof when, "%d %b %H:%M", &tm);
    save_t *s = NULL;
    char err[HB_ERR_MAX];
    if (save_load(path, NULL, &s, err, sizeof err) != HB_OK) {
        /* Listed all the same, so the referee sees why it will not open. */
        snprintf(e->detail, sizeof e->detail, "cannot be opened: %.150s", err);
        return true;
    }
    e->ok = true;
    const char *name = s->map && s->map->name[0] ? s->map->name : "untitled map";
    if (s->over)
        snprintf(e->detail, sizeof e->detail, "%.80s, round %d, %s%.40s, %s", name, s->round,
                 s->winner[0] ? "won by " : "no winner", s->winner, when);
    else
        snprintf(e->detail, sizeof e->detail, "%.80s, round %d, %s", name, s->round, when);
    save_free(s);
    return true;
}

static void add(smenu_t *m, const char *path, const char *title)
{
    if (!path || !*path || m->n >= SMENU_MAX || listed(m, path)) return;
    if (describe(&m->e[m->n], path, title)) m->n++;
}

/* Describe the map at path: its name, size and ruleset, or why it will not
 * load; false when there is no such file. */
static bool describe_map(smenu_entry_t *e, const char *path, const char *title)
{
    hb_fs_info_t st;
    if (hb_fs_stat(path, &st) != 0 || st.kind != HB_FS_REGULAR) return false;
    memset(e, 0, sizeof *e);
    e->kind = SMENU_MAP;
    hb_strlcpy(e->path, path, sizeof e->path);
    e->mtime = (time_t)(st.mtime_ns / 1000000000);
    map_t *m = NULL;
    char err[HB_ERR_MAX];
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (map_load(path, NULL, &m, NULL, err, sizeof err) != HB_OK) {
        snprintf(e->title, sizeof e->title, "%.20s: %.40s", title, base);
        snprintf(e->detail, sizeof e->detail, "cannot be opened: %.150s", err);
        return true;
    }
    e->ok = true;
    snprintf(e->title, sizeof e->title, "%.20s: %.40s", title, m->name[0] ? m->name : base);
    snprintf(e->detail, sizeof e->detail, "%.60s, %dx%d hexes, %s, %d combatants", base, m->cols,
             m->rows, m->ruleset, m->n_combatants);
    map_destroy(m);
    return true;
}

/* A save or a map file: saves end in .battle.json or are autosaves. */
static bool is_save_name(const char *path)
{
    size_t n = strlen(path), ls = sizeof SUFFIX - 1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return (n > ls && strcmp(path + n - ls, SUFFIX) == 0) || strncmp(base, "autosave-", 9) == 0;
}

static void add_map(smenu_t *m, const char *path, const char *title)
{
    if (!path || !*path || m->n >= SMENU_MAX || listed(m, path)) return;
    if (describe_map(&m->e[m->n], path, title)) m->n++;
}

static int newest_first(const void *a, const void *b)
{
    const smenu_entry_t *x = a, *y = b;
    if (x->mtime != y->mtime) return x->mtime < y->mtime ? 1 : -1;
    return strcmp(x->path, y->path);
}

/* The saved battles in map_path's folder, newest first after what is listed. */
static void add_folder(smenu_t *m, const char *map_path)
{
    if (!map_path || !*map_path) return;
    char dir[SAVE_PATH_MAX];
    hb_strlcpy(dir, map_path, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        hb_strlcpy(dir, ".", sizeof dir);
    hb_dir_t *d = hb_dir_open(dir);
    if (!d) return;
    int first = m->n;
    const char *name;
    size_t ls = sizeof SUFFIX - 1;
    while ((name = hb_dir_next(d)) && m->n < SMENU_MAX) {
        size_t n = strlen(name);
        if (n <= ls || strcmp(name + n - ls, SUFFIX) != 0) continue;
        char path[SAVE_PATH_MAX];
        int k = strcmp(dir, "/") == 0 ? snprintf(path, sizeof path, "/%s", name)
                                      : snprintf(path, sizeof path, "%s/%s", dir, name);
        if (k > 0 && (size_t)k < sizeof path) add(m, path, "Saved battle");
    }
    hb_dir_close(d);
    qsort(m->e + first, (size_t)(m->n - first), sizeof m->e[0], newest_first);
}

/* The saves smenu_scan lists, after what m holds already. */
static void add_saves(smenu_t *m, const char *save_path, const char *autosave_dir,
                      const char *map_path)
{
    add(m, save_path, "This battle's save");
    char rpath[SAVE_PATH_MAX];
    if (save_path && *save_path && recover_path(save_path, rpath, sizeof rpath))
        add(m, rpath, "Interrupted battle (kept when the window was stopped)");
    for (int k = 1; autosave_dir && *autosave_dir && k <= SAVE_AUTOSAVES; k++) {
        char path[SAVE_PATH_MAX], title[32];
        if (!save_autosave_path(autosave_dir, k, path, sizeof path)) continue;
        snprintf(title, sizeof title, "Autosave %d%s", k, k == 1 ? " (newest)" : "");
        add(m, path, title);
    }
    add_folder(m, map_path);
}

void smenu_scan(smenu_t *m, const char *save_path, const char *autosave_dir, const char *map_path)
{
    memset(m, 0, sizeof *m);
    add_saves(m, save_path, autosave_dir, map_path);
    m->open = true;
}

void smenu_offer(smenu_t *m, const char *rpath)
{
    memset(m, 0, sizeof *m);
    add(m, rpath, "Interrupted battle (kept when the window was stopped)");
    m->open = m->n > 0;
    m->recovery = m->open;
}

void smenu_offer_resume(smenu_t *m, const char *save_path)
{
    memset(m, 0, sizeof *m);
    add(m, save_path, "This map's saved battle");
    m->open = m->n > 0;
    m->resume = m->open;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const smenu_entry_t *)a)->path, ((const smenu_entry_t *)b)->path);
}

/* The maps in dir (*.json that are not saves, *.tmj, *.tmx), by file name. */
static void add_map_folder(smenu_t *m, const char *dir)
{
    hb_dir_t *d = dir && *dir ? hb_dir_open(dir) : NULL;
    if (!d) return;
    int first = m->n;
    const char *name;
    while ((name = hb_dir_next(d)) && m->n < SMENU_MAX - 1) {
        size_t n = strlen(name);
        bool json = n > 5 && strcmp(name + n - 5, ".json") == 0;
        bool tiled = n > 4 && (strcmp(name + n - 4, ".tmj") == 0 ||
                               strcmp(name + n - 4, ".tmx") == 0);
        if ((!json && !tiled) || is_save_name(name) || strstr(name, ".recover."))
            continue;
        char path[SAVE_PATH_MAX], real[PATH_MAX];
        int k = snprintf(path, sizeof path, "%s/%s", dir, name);
        if (k <= 0 || (size_t)k >= sizeof path) continue;
        /* The recent list holds real paths: the same file is listed once. */
        add_map(m, hb_fs_real_path(path, real, sizeof real) == 0 ? real : path, "Bundled map");
    }
    hb_dir_close(d);
    qsort(m->e + first, (size_t)(m->n - first), sizeof m->e[0], by_path);
}

void smenu_scan_picker(smenu_t *m, const recent_t *recent, const char *save_path,
                       const char *autosave_dir, const char *map_path, const char *maps_dir)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; recent && i < recent->n; i++) {
        if (is_save_name(recent->path[i]))
            add(m, recent->path[i], "Recent battle");
        else
            add_map(m, recent->path[i], "Recent map");
    }
    add_saves(m, save_path, autosave_dir, map_path);
    add_map_folder(m, maps_dir);
    if (m->n < SMENU_MAX) {
        smenu_entry_t *e = &m->e[m->n++];
        memset(e, 0, sizeof *e);
        e->kind = SMENU_NEW_MAP;
        e->ok = true;
        hb_strlcpy(e->title, "New map", sizeof e->title);
        hb_strlcpy(e->detail, "a blank map in the editor (F5 there play-tests it)",
                   sizeof e->detail);
    }
    m->maps = true;
    m->open = true;
}

int smenu_try_load_map(const char *path, map_t **out, tmpl_db_t **db, char *msg, size_t cap)
{
    char err[HB_ERR_MAX];
    int rc = map_load(path, NULL, out, db, err, sizeof err);
    if (rc != HB_OK) snprintf(msg, cap, "Not opened: %s", err);
    return rc;
}

static int pick(smenu_t *m, int i)
{
    if (i < 0 || i >= m->n) return SMENU_NONE;
    m->sel = i;
    return i;
}

int smenu_key(smenu_t *m, SDL_Keycode k)
{
    if (!m->open) return SMENU_NONE;
    switch (k) {
    case SDLK_ESCAPE:
        m->open = false;
        return SMENU_CLOSE;
    case SDLK_UP:
    case SDLK_w:
        if (m->sel > 0) m->sel--;
        return SMENU_NONE;
    case SDLK_DOWN:
    case SDLK_s:
        if (m->sel + 1 < m->n) m->sel++;
        return SMENU_NONE;
    case SDLK_HOME:
        m->sel = 0;
        return SMENU_NONE;
    case SDLK_END:
        m->sel = m->n > 0 ? m->n - 1 : 0;
        return SMENU_NONE;
    case SDLK_PAGEUP:
        m->sel = m->sel > 5 ? m->sel - 5 : 0;
        return SMENU_NONE;
    case SDLK_PAGEDOWN:
        m->sel = m->sel + 5 < m->n ? m->sel + 5 : (m->n > 0 ? m->n - 1 : 0);
        return SMENU_NONE;
    case SDLK_n:
        /* N: the new map, wherever it is in the list. */
        for (int i = 0; i < m->n; i++)
            if (m->e[i].kind == SMENU_NEW_MAP) return pick(m, i);
        return SMENU_NONE;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        return pick(m, m->sel);
    default:
        /* 1..9 pick the numbered row directly. */
        if (k >= SDLK_1 && k <= SDLK_9) return pick(m, (int)(k - SDLK_1));

        return SMENU_NONE;
    }
}

int smenu_click(smenu_t *m, int x, int y)
{
    if (!m->open) return SMENU_NONE;
    SDL_Point pt = {x, y};
    for (int i = 0; i < m->n_rows && m->first + i < m->n; i++)
        if (SDL_PointInRect(&pt, &m->row[i])) return pick(m, m->first + i);
    /* A click beside the list closes it; one in the panel's margins does not. */
    if (m->n_rows > 0) {
        SDL_Rect all = m->row[0];
        SDL_UnionRect(&all, &m->row[m->n_rows - 1], &all);
        int pad = all.h / (m->n_rows > 0 ? m->n_rows : 1);
        SDL_Rect panel = {all.x - pad, all.y - 2 * pad, all.w + 2 * pad, all.h + 4 * pad};
        if (SDL_PointInRect(&pt, &panel)) return SMENU_NONE;
    }
    m->open = false;
    return SMENU_CLOSE;
}

int smenu_try_load(const char *path, save_t **out, char *msg, size_t cap)
{
    *out = NULL;
    save_t *s = NULL;
    char err[HB_ERR_MAX];
    int rc = save_load(path, NULL, &s, err, sizeof err);
    if (rc == HB_OK) {
        save_adopt_pictures(s, path); /* the map's tiles or picture, when still there */
        play_t p;
        rc = save_rebuild(s, &p, err, sizeof err);
        if (rc == HB_OK) play_end(&p);
    }
    if (rc != HB_OK) {
        snprintf(msg, cap, "Not opened: %s", err);
        save_free(s);
        return rc;
    }
    *out = s;
    return HB_OK;
}

void smenu_draw(smenu_t *m, SDL_Renderer *r, ui_text_t *t, int w, int h, double px_per_pt)
{
    if (!m->open) return;
    int px = ui_text_quantize((int)lround(15 * px_per_pt));
    int small = ui_text_quantize((int)lround(12 * px_per_pt));
    int row_h = px + small + px / 2 + 8;
    int pw = w * 4 / 5 > 900 * px_per_pt ? (int)(900 * px_per_pt) : w * 4 / 5;
    int shown = m->n > 0 ? m->n : 1;
    int ph = row_h * shown + 4 * px + 16;
    if (ph > h - 20) ph = h - 20;
    SDL_Rect panel = {(w - pw) / 2, (h - ph) / 2, pw, ph};
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 140);
    SDL_Rect screen = {0, 0, w, h};
    SDL_RenderFillRect(r, &screen);
    SDL_SetRenderDrawColor(r, 22, 25, 31, 245);
    SDL_RenderFillRect(r, &panel);
    SDL_SetRenderDrawColor(r, 120, 130, 150, 255);
    SDL_RenderDrawRect(r, &panel);

    SDL_Color ink = {238, 238, 230, 255}, dim = {170, 175, 185, 255}, bad = {235, 150, 120, 255};
    int x = panel.x + px, y = panel.y + px / 2;
    ui_text_draw(t,
                 m->recovery ? "Restore the interrupted battle?"
                 : m->resume ? "Resume the saved battle of this map?"
                 : m->maps   ? "Open a map or a saved battle"
                             : "Open a saved battle",
                 px, true, ink, x, y);
    y += px + px / 2;
    m->n_rows = 0;
    if (m->n == 0) {
        ui_text_draw(t, "No saved battles yet: Ctrl+S saves this one; autosaves come at each turn.",
                     small, false, dim, x, y);
    }
    /* Scroll so the chosen row shows. */
    int fits = (panel.y + panel.h - px - y) / row_h;
    if (fits < 1) fits = 1;
    if (m->sel < m->first) m->first = m->sel;
    if (m->sel >= m->first + fits) m->first = m->sel - fits + 1;
    if (m->first < 0) m->first = 0;
    for (int i = m->first; i < m->n && y + row_h <= panel.y + panel.h - px; i++) {
        SDL_Rect row = {panel.x + px / 2, y, panel.w - px, row_h - 4};
        if (i == m->sel) {
            SDL_SetRenderDrawColor(r, 52, 84, 130, 255);
            SDL_RenderFillRect(r, &row);
        }
        char head[96];
        snprintf(head, sizeof head, "%d. %s", i + 1, m->e[i].title);
        ui_text_draw(t, head, px, true, ink, x, y + 3);
        ui_text_draw(t, m->e[i].detail, small, false, m->e[i].ok ? dim : bad, x + px,
                     y + 3 + px + 2);
        m->row[m->n_rows++] = row;
        y += row_h;
    }
    ui_text_draw(t,
                 m->recovery ? "Enter restores it (it becomes the newest autosave), Esc starts a "
                               "new battle and keeps it for Ctrl+O."
                 : m->resume ? "Enter resumes it, Esc starts a new battle (Ctrl+S would then "
                               "save over it; Ctrl+O still lists it)."
                 : m->maps   ? "Up/Down or 1-9 choose, N new map, Enter opens, Esc closes. The "
                               "battle on screen is autosaved first."
                             : "Up/Down or 1-9 choose, Enter opens, Esc closes. The battle on "
                               "screen is autosaved first.",
                 small, false, dim, x, panel.y + panel.h - small - px / 2);
}
