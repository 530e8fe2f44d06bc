/* test_ui_monkey.c - a seeded, reproducible randomized UI test: thousands of
 * random but valid inputs (every key of the help screen, clicks and drags on
 * hexes, tokens, buttons and die faces, the wheel, window resizes, undo,
 * overlays, the saved-battles menu, saves into a temporary folder, physical
 * dice) given to the real play window (session.h) on every bundled map (the
 * maps/ folder), with
 * and without the projector, and to the map editor with its play-tests.
 *
 * It asserts nothing about the battle: it is there for the sanitizers. In the
 * ASan build any invalid read, leak or undefined behaviour stops it with a
 * report; in the plain build it must simply come through. The same seed
 * gives the same inputs, so a report can be replayed:
 *
 *   HB_MONKEY_SEED=N HB_MONKEY_EVENTS=E HB_MONKEY_ONLY=play:ridge_ambush \
 *       HB_MONKEY_TRACE=1 build-asan/tests/test_ui_monkey
 *
 * HB_MONKEY_EVENTS sets the inputs per mode and map (default MONKEY_EVENTS);
 * `make monkey` runs many more. MONKEY_SEEDS keeps seeds worth keeping: the
 * first reproduced the read of freed memory after a take-back with an
 * overlay on (issue 17). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/editor.h"
#include "ui/session.h"

#define MONKEY_EVENTS 1500 /* inputs per mode and map in `make test` */
#define VIEW_W 640
#define VIEW_H 400

/* Seeds the suite always runs. 2: on ridge_ambush, the Ctrl+Z of input 51
 * freed the battle's map under the overlay set, and the next frame with an
 * overlay on read it (issue 17: checked with the set made to keep the
 * battle's map again). Other seeds met the same read sooner, after an
 * action's dice rebuilt the battle. */
static const uint64_t MONKEY_SEEDS[] = {2};

#define MAX_MAPS 32

/* ---- a tiny generator of our own, so the inputs depend on the seed only -- */

typedef struct {
    uint64_t s;
} mk_rng_t;

static uint64_t mk_next(mk_rng_t *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int mk_int(mk_rng_t *r, int n)
{
    return n > 0 ? (int)(mk_next(r) % (uint64_t)n) : 0;
}

static bool mk_chance(mk_rng_t *r, int percent)
{
    return mk_int(r, 100) < percent;
}

typedef struct {
    mk_rng_t r;
    char tmp[512];     /* the temporary folder: saves, autosaves, settings */
    bool trace;        /* print every input */
    long inputs;       /* given so far in this run */
    int sessions;      /* play windows opened */
    int frames;        /* frames stepped */
    int overlay_draws; /* frames stepped with an overlay on */
    int die_entries;   /* physical dice typed or clicked */
    int saves, undos;
} monkey_t;

static void trace(monkey_t *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void trace(monkey_t *k, const char *fmt, ...)
{
    if (!k->trace) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "monkey %ld: ", k->inputs);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

/* Should this mode and map run (HB_MONKEY_ONLY=mode:map picks one)? */
static bool wanted(const char *mode, const char *map)
{
    const char *only = getenv("HB_MONKEY_ONLY");
    if (!only || !*only) return true;
    char want[128];
    snprintf(want, sizeof want, "%.20s:%.60s", mode, map);
    return strcmp(only, want) == 0 || strcmp(only, mode) == 0;
}

/* ---- synthetic SDL events ---------------------------------------------- */

static SDL_Event ev_key(Uint32 win, SDL_Keycode sym, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = win;
    e.key.keysym.sym = sym;
    e.key.keysym.mod = mod;
    return e;
}

static SDL_Event ev_motion(Uint32 win, int x, int y, Uint32 state)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.windowID = win;
    e.motion.x = x;
    e.motion.y = y;
    e.motion.state = state;
    return e;
}

static SDL_Event ev_button(Uint32 win, bool down, Uint8 button, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.windowID = win;
    e.button.button = button;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    return e;
}

static SDL_Event ev_wheel(Uint32 win, int notches, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.windowID = win;
    e.wheel.y = notches;
    e.wheel.preciseY = (float)notches;
    e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
#if SDL_VERSION_ATLEAST(2, 26, 0)
    e.wheel.mouseX = x;
    e.wheel.mouseY = y;
#else
    (void)x;
    (void)y;
#endif
    return e;
}

static SDL_Event ev_text(Uint32 win, const char *t)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_TEXTINPUT;
    e.text.windowID = win;
    hb_strlcpy(e.text.text, t, sizeof e.text.text);
    return e;
}

static SDL_Event ev_window(Uint32 win, Uint8 what, int w, int h)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_WINDOWEVENT;
    e.window.windowID = win;
    e.window.event = what;
    e.window.data1 = w;
    e.window.data2 = h;
    return e;
}

/* ---- the play window ---------------------------------------------------- */

/* Every key the play screen's help lists, with the modifiers it names. */
typedef struct {
    SDL_Keycode k;
    Uint16 mod;
    int weight;
} mk_key_t;

static const mk_key_t PLAY_KEYS[] = {
    {SDLK_1, 0, 6},           {SDLK_2, 0, 5},         {SDLK_3, 0, 4},
    {SDLK_4, 0, 3},           {SDLK_5, 0, 3},         {SDLK_6, 0, 2},
    {SDLK_7, 0, 2},           {SDLK_8, 0, 2},         {SDLK_9, 0, 2},
    {SDLK_0, 0, 2},           {SDLK_g, 0, 1},         {SDLK_j, 0, 1},
    {SDLK_k, 0, 1},           {SDLK_l, 0, 1},         {SDLK_m, 0, 1},
    {SDLK_n, 0, 1},           {SDLK_b, 0, 1},         {SDLK_v, 0, 1},
    {SDLK_x, 0, 1},           {SDLK_y, 0, 1},         {SDLK_u, 0, 1},
    {SDLK_i, 0, 1},           {SDLK_h, 0, 1},         {SDLK_r, 0, 1},
    {SDLK_t, 0, 1},           {SDLK_z, 0, 1},         {SDLK_TAB, 0, 4},
    {SDLK_RETURN, 0, 6},      {SDLK_KP_ENTER, 0, 1},  {SDLK_ESCAPE, 0, 4},
    {SDLK_e, 0, 5},           {SDLK_SPACE, 0, 5},     {SDLK_z, KMOD_LCTRL, 5},
    {SDLK_BACKSPACE, 0, 2},   {SDLK_s, KMOD_LCTRL, 2}, {SDLK_o, KMOD_LCTRL, 2},
    {SDLK_p, 0, 2},           {SDLK_LEFTBRACKET, 0, 1}, {SDLK_RIGHTBRACKET, 0, 2},
    {SDLK_c, 0, 1},           {SDLK_SLASH, KMOD_LSHIFT, 1}, {SDLK_F1, 0, 1},
    {SDLK_LEFT, 0, 1},        {SDLK_RIGHT, 0, 1},     {SDLK_UP, 0, 1},
    {SDLK_DOWN, 0, 1},        {SDLK_w, 0, 1},         {SDLK_a, 0, 1},
    {SDLK_s, 0, 1},           {SDLK_d, 0, 1},         {SDLK_EQUALS, 0, 1},
    {SDLK_MINUS, 0, 1},       {SDLK_f, 0, 1},         {SDLK_HOME, 0, 1},
    {SDLK_F5, 0, 5},          {SDLK_F6, 0, 4},        {SDLK_F7, 0, 4},
    {SDLK_F8, 0, 4},          {SDLK_F9, 0, 4},        {SDLK_F2, 0, 1},
    {SDLK_F10, 0, 3},         {SDLK_F11, 0, 1},       {SDLK_f, KMOD_LCTRL, 1},
    {SDLK_p, KMOD_LCTRL, 1},  {SDLK_r, KMOD_LCTRL, 1}, {SDLK_l, KMOD_LCTRL, 1},
    {SDLK_k, KMOD_LCTRL, 1},  {SDLK_LEFT, KMOD_LCTRL, 1}, {SDLK_EQUALS, KMOD_LCTRL, 1},
    {SDLK_MINUS, KMOD_LCTRL, 1}, {SDLK_0, KMOD_LCTRL, 1}, {SDLK_RETURN, KMOD_LCTRL, 1},
    {SDLK_PAGEUP, KMOD_LCTRL, 1}, {SDLK_LEFTBRACKET, KMOD_LCTRL, 1}, {SDLK_q, 0, 1},
};

static const mk_key_t *pick_key(mk_rng_t *r, const mk_key_t *keys, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += keys[i].weight;
    int x = mk_int(r, total);
    for (int i = 0; i < n; i++) {
        if (x < keys[i].weight) return &keys[i];
        x -= keys[i].weight;
    }
    return &keys[n - 1];
}

/* Screen point (window points) of cell c's centre in the play window. */
static SDL_Point cell_point(const ui_session_t *s, cell_t c)
{
    vec2_t p = ui_cam_to_screen(&s->st.cam, ui_cell_center(s->st.map, c));
    double k = s->st.px_per_pt > 0 ? s->st.px_per_pt : 1.0;
    return (SDL_Point){(int)lround(p.x / k), (int)lround(p.y / k)};
}

/* A cell worth pointing at: mostly tokens and hexes near them. */
static cell_t pick_cell(monkey_t *k, const ui_session_t *s)
{
    const battle_t *b = pui_battle(s->play);
    const map_t *m = b->map;
    if (mk_chance(&k->r, 45) && b->n > 0) {
        int i = mk_int(&k->r, b->n);
        hex_t h = b->board->pos[i];
        if (mk_chance(&k->r, 50)) h = hex_neighbor(h, mk_int(&k->r, HEX_DIRS));
        if (mk_chance(&k->r, 30))
            h = hex_add(h, (hex_t){mk_int(&k->r, 9) - 4, mk_int(&k->r, 9) - 4});
        return hex_to_cell(m->layout, h);
    }
    return (cell_t){mk_int(&k->r, m->cols + 2) - 1, mk_int(&k->r, m->rows + 2) - 1};
}

static void give(monkey_t *k, ui_session_t *s, SDL_Event e)
{
    (void)k;
    ui_session_event(s, &e);
}

/* A left click at (x, y), Shift held while it happens when shift is set. */
static void click(monkey_t *k, ui_session_t *s, Uint32 win, int x, int y, bool shift)
{
    if (shift) SDL_SetModState(KMOD_LSHIFT);
    give(k, s, ev_motion(win, x, y, 0));
    give(k, s, ev_button(win, true, SDL_BUTTON_LEFT, x, y));
    give(k, s, ev_button(win, false, SDL_BUTTON_LEFT, x, y));
    if (shift) SDL_SetModState(KMOD_NONE);
}

/* One random input to a play window. */
static void play_input(monkey_t *k, ui_session_t *s)
{
    Uint32 win = SDL_GetWindowID(s->win);
    pui_t *p = s->play;
    int ww = 1, wh = 1;
    SDL_GetWindowSize(s->win, &ww, &wh);
    int roll = mk_int(&k->r, 100);
    k->inputs++;
    /* A die awaited is usually answered, by typing or a click on a face. */
    if (pui_needs_die(p) && roll < 60) {
        int sides = pui_battle(p)->need.sides;
        int v = 1 + mk_int(&k->r, sides > 0 ? sides : 6);
        if (mk_chance(&k->r, 10)) v = sides + 1 + mk_int(&k->r, 5); /* a value too high */
        k->die_entries++;
        if (mk_chance(&k->r, 50) && v <= 20) {
            SDL_Rect f = hud_face_rect(&s->hud, v);
            trace(k, "die face %d", v);
            click(k, s, win, f.x + f.w / 2, f.y + f.h / 2, false);
            return;
        }
        char num[16];
        snprintf(num, sizeof num, "%d", v);
        trace(k, "die typed %s", num);
        for (const char *c = num; *c; c++)
            give(k, s, ev_key(win, SDLK_0 + (*c - '0'), 0));
        give(k, s, ev_key(win, SDLK_RETURN, 0));
        return;
    }
    if (roll < 24) {
        SDL_Point pt = cell_point(s, pick_cell(k, s));
        trace(k, "hover %d,%d", pt.x, pt.y);
        give(k, s, ev_motion(win, pt.x, pt.y, 0));
    } else if (roll < 42) {
        cell_t c = pick_cell(k, s);
        SDL_Point pt = cell_point(s, c);
        bool shift = mk_chance(&k->r, 15);
        trace(k, "click cell %d,%d%s", c.col, c.row, shift ? " with shift" : "");
        click(k, s, win, pt.x, pt.y, shift);
    } else if (roll < 52) {
        /* The action bar, a die face, the panels or the menu's rows. */
        SDL_Rect r;
        if (p->n_bar > 0 && mk_chance(&k->r, 70))
            r = hud_button_rect(&s->hud, mk_int(&k->r, p->n_bar));
        else if (s->menu.open && s->menu.n_rows > 0)
            r = s->menu.row[mk_int(&k->r, s->menu.n_rows)];
        else
            r = (SDL_Rect){mk_int(&k->r, ww), mk_int(&k->r, wh), 1, 1};
        trace(k, "click at %d,%d", r.x + r.w / 2, r.y + r.h / 2);
        click(k, s, win, r.x + r.w / 2, r.y + r.h / 2, false);
    } else if (roll < 57) {
        /* A drag with the left button: from a token to a hex. */
        SDL_Point a = cell_point(s, pick_cell(k, s)), b = cell_point(s, pick_cell(k, s));
        Uint8 button = mk_chance(&k->r, 50) ? SDL_BUTTON_LEFT
                       : mk_chance(&k->r, 50) ? SDL_BUTTON_RIGHT
                                              : SDL_BUTTON_MIDDLE;
        trace(k, "drag %d from %d,%d to %d,%d", button, a.x, a.y, b.x, b.y);
        give(k, s, ev_motion(win, a.x, a.y, 0));
        give(k, s, ev_button(win, true, button, a.x, a.y));
        int steps = 1 + mk_int(&k->r, 4);
        for (int i = 1; i <= steps; i++) {
            give(k, s, ev_motion(win, a.x + (b.x - a.x) * i / steps, a.y + (b.y - a.y) * i / steps,
                                 SDL_BUTTON(button)));
            ui_session_frame(s, 0.02);
        }
        give(k, s, ev_button(win, false, button, b.x, b.y));
    } else if (roll < 61) {
        int x = mk_int(&k->r, ww), y = mk_int(&k->r, wh);
        int n = mk_int(&k->r, 5) - 2;
        trace(k, "wheel %d at %d,%d", n, x, y);
        give(k, s, ev_motion(win, x, y, 0));
        give(k, s, ev_wheel(win, n ? n : 1, x, y));
    } else if (roll < 62) {
        int w = 480 + mk_int(&k->r, 1500), h = 360 + mk_int(&k->r, 800);
        trace(k, "resize %dx%d", w, h);
        SDL_SetWindowSize(s->win, w, h);
        give(k, s, ev_window(win, SDL_WINDOWEVENT_SIZE_CHANGED, w, h));
    } else if (roll < 63) {
        trace(k, "leave and come back");
        give(k, s, ev_window(win, SDL_WINDOWEVENT_LEAVE, 0, 0));
        give(k, s, ev_text(win, "?"));
    } else if (roll < 64 && s->proj.win) {
        /* Input on the projector window itself. */
        Uint32 pw = SDL_GetWindowID(s->proj.win);
        int x = mk_int(&k->r, 600), y = mk_int(&k->r, 400);
        trace(k, "projector input at %d,%d", x, y);
        give(k, s, ev_motion(pw, x, y, 0));
        give(k, s, ev_button(pw, true, SDL_BUTTON_LEFT, x, y));
        give(k, s, ev_motion(pw, x + 20, y + 10, SDL_BUTTON_LMASK));
        give(k, s, ev_button(pw, false, SDL_BUTTON_LEFT, x + 20, y + 10));
        give(k, s, ev_wheel(pw, 1, x, y));
    } else {
        const mk_key_t *key =
            pick_key(&k->r, PLAY_KEYS, (int)(sizeof PLAY_KEYS / sizeof PLAY_KEYS[0]));
        /* Quitting is rare, or little else would happen. */
        if (key->k == SDLK_q && key->mod == 0 && !mk_chance(&k->r, 20)) key = &PLAY_KEYS[0];
        trace(k, "key %s%s", key->mod & KMOD_CTRL ? "Ctrl+" : key->mod & KMOD_SHIFT ? "Shift+" : "",
              SDL_GetKeyName(key->k));
        if (key->k == SDLK_z && (key->mod & KMOD_CTRL)) k->undos++;
        if (key->k == SDLK_s && (key->mod & KMOD_CTRL)) k->saves++;
        give(k, s, ev_key(win, key->k, key->mod));
        if (key->k == SDLK_SLASH) give(k, s, ev_text(win, "?"));
    }
}

/* Step the session by one frame of a random length, now and then long enough
 * for the AI to take its turn. */
static void play_frames(monkey_t *k, ui_session_t *s)
{
    int n = mk_chance(&k->r, 8) ? 4 + mk_int(&k->r, 12) : 1;
    for (int i = 0; i < n && !ui_session_done(s); i++) {
        bool overlay = s->st.overlay_on != 0;
        ui_session_frame(s, n > 1 ? 0.1 : 0.005 + mk_int(&k->r, 100) / 1000.0);
        k->overlay_draws += overlay;
        k->frames++;
    }
}

/* Open a play window: a new battle on map m, or the save or map the referee
 * picked (pick), or now and then a battle saved here, resumed or replayed.
 * *held keeps a save loaded here alive while its window is open. */
static bool open_play(monkey_t *k, ui_session_t *s, const map_t *m, const tmpl_db_t *db,
                      const char *name, bool project, const ui_next_t *pick, save_t **held)
{
    char map_path[700], save_path[760];
    snprintf(map_path, sizeof map_path, "%s/%s.json", k->tmp, name);
    snprintf(save_path, sizeof save_path, "%s/%s.battle.json", k->tmp, name);
    ui_session_args_t a = {.map = m,
                           .db = db,
                           .map_path = map_path,
                           .project = project,
                           .allow_maps = true,
                           .seed = mk_next(&k->r) % 100000,
                           .w = VIEW_W,
                           .h = VIEW_H};
    char err[HB_ERR_MAX];
    if (pick && pick->save) {
        a.map = pick->save->map;
        a.db = pick->save->db;
        a.save = pick->save;
        a.save_path = pick->path;
        a.replay = mk_chance(&k->r, 30);
    } else if (pick && pick->map) {
        a.map = pick->map;
        a.db = pick->db;
        a.map_path = map_path; /* saves still go into the folder */
    } else if (mk_chance(&k->r, 30)) {
        save_t *sv = NULL;
        if (save_load(save_path, data_dir(), &sv, err, sizeof err) == HB_OK) {
            *held = sv;
            a.map = sv->map;
            a.db = sv->db;
            a.save = sv;
            a.save_path = save_path;
            a.replay = mk_chance(&k->r, 40);
        }
    }
    trace(k, "open %s%s%s", name, a.save ? (a.replay ? " (replay)" : " (resume)") : "",
          project ? " with the projector" : "");
    if (!ui_session_open(s, &a, err, sizeof err)) {
        fprintf(stderr, "monkey: cannot open the play window on %s: %s\n", name, err);
        return false;
    }
    k->sessions++;
    /* Animations at eight times the speed: the AI's turns come sooner, and
     * the frames go to the inputs rather than to watching. */
    for (int i = 0; i < 3; i++) {
        SDL_Event e = ev_key(SDL_GetWindowID(s->win), SDLK_RIGHTBRACKET, 0);
        ui_session_event(s, &e);
    }
    return true;
}

/* N random inputs to play windows on map m; a window the referee closes (Q,
 * or a battle or map picked from Ctrl+O) is opened again, on the pick. */
static void run_play(monkey_t *k, const map_t *m, const tmpl_db_t *db, const char *name,
                     bool project, long n)
{
    ui_next_t pick;
    memset(&pick, 0, sizeof pick);
    save_t *held = NULL;
    ui_session_t s;
    bool open = open_play(k, &s, m, db, name, project, NULL, &held);
    assert_true(open);
    for (long i = 0; i < n; i++) {
        play_input(k, &s);
        play_frames(k, &s);
        if (!ui_session_done(&s)) continue;
        ui_next_t next = s.next;
        memset(&s.next, 0, sizeof s.next);
        ui_session_close(&s);
        ui_next_free(&pick);
        save_free(held);
        held = NULL;
        pick = next; /* "New map" opens the editor in the app; here the map again */
        open = open_play(k, &s, m, db, name, project && mk_chance(&k->r, 70), &pick, &held);
        assert_true(open);
    }
    ui_session_close(&s);
    ui_next_free(&s.next);
    ui_next_free(&pick);
    save_free(held);
}

/* ---- the editor --------------------------------------------------------- */

static const mk_key_t EDIT_KEYS[] = {
    {SDLK_v, 0, 2},          {SDLK_b, 0, 3},          {SDLK_l, 0, 2},
    {SDLK_f, 0, 2},          {SDLK_e, 0, 2},          {SDLK_i, 0, 1},
    {SDLK_u, 0, 3},          {SDLK_1, 0, 1},          {SDLK_2, 0, 1},
    {SDLK_3, 0, 1},          {SDLK_LEFTBRACKET, 0, 1}, {SDLK_RIGHTBRACKET, 0, 1},
    {SDLK_UP, 0, 1},         {SDLK_DOWN, 0, 1},       {SDLK_SLASH, 0, 1},
    {SDLK_DELETE, 0, 1},     {SDLK_BACKSPACE, 0, 1},  {SDLK_n, 0, 1},
    {SDLK_g, 0, 1},          {SDLK_k, 0, 1},          {SDLK_p, 0, 1},
    {SDLK_m, 0, 1},          {SDLK_r, 0, 1},          {SDLK_h, 0, 1},
    {SDLK_o, 0, 1},          {SDLK_o, KMOD_LSHIFT, 1}, {SDLK_t, 0, 1},
    {SDLK_HOME, 0, 1},       {SDLK_EQUALS, 0, 1},     {SDLK_MINUS, 0, 1},
    {SDLK_F5, 0, 2},         {SDLK_ESCAPE, 0, 2},     {SDLK_RETURN, 0, 3},
    {SDLK_z, KMOD_LCTRL, 4}, {SDLK_z, KMOD_LCTRL | KMOD_LSHIFT, 2}, {SDLK_y, KMOD_LCTRL, 1},
    {SDLK_s, KMOD_LCTRL, 1}, {SDLK_s, KMOD_LCTRL | KMOD_LSHIFT, 1}, {SDLK_r, KMOD_LCTRL, 1},
    {SDLK_n, KMOD_LCTRL, 1}, {SDLK_q, 0, 1},          {SDLK_F11, 0, 1},
};

/* Text for the editor's prompts: plausible answers and a few wrong ones. */
static const char *const EDIT_TEXT[] = {
    "30x20", "8x6 c", "12x40 br", "Grimtooth", "hp=5", "speed=40", "hp=", "players",
    "raiders", "xhalem", "scars", "15", "5", "bog 2 light false #556b2f", "x", "",
    "24x16 open", "6x6 brush", "scout", "grunt",
};

typedef struct {
    SDL_Window *win;
    SDL_Renderer *ren;
    ui_draw_t *d;
} ed_view_t;

static bool ed_view_open(ed_view_t *v, ed_state_t *s)
{
    char err[HB_ERR_MAX];
    memset(v, 0, sizeof *v);
    v->win = SDL_CreateWindow("monkey editor", 0, 0, VIEW_W + 200, VIEW_H, SDL_WINDOW_RESIZABLE);
    if (v->win) v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
    if (v->ren) v->d = ui_draw_create(v->ren, s->map, err, sizeof err);
    if (!v->d) return false;
    SDL_GetRendererOutputSize(v->ren, &s->view_w, &s->view_h);
    ed_fit(s);
    return true;
}

static void ed_view_close(ed_view_t *v)
{
    ui_draw_destroy(v->d);
    if (v->ren) SDL_DestroyRenderer(v->ren);
    if (v->win) SDL_DestroyWindow(v->win);
    memset(v, 0, sizeof *v);
}

static SDL_Point ed_cell_point(const ed_state_t *s, cell_t c)
{
    vec2_t p = ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
    return (SDL_Point){(int)lround(p.x), (int)lround(p.y)};
}

static void ed_input(monkey_t *k, ed_state_t *s, Uint32 win)
{
    int roll = mk_int(&k->r, 100);
    k->inputs++;
    const map_t *m = s->map;
    cell_t c = {mk_int(&k->r, m->cols + 2) - 1, mk_int(&k->r, m->rows + 2) - 1};
    if (m->n_combatants > 0 && mk_chance(&k->r, 30))
        c = m->combatants[mk_int(&k->r, m->n_combatants)].at;
    SDL_Point pt = ed_cell_point(s, c);
    SDL_Event e;
    if (s->prompt != ED_PROMPT_NONE && s->prompt != ED_PROMPT_QUIT && roll < 50) {
        /* Answer the prompt; a file name only ever points into the folder. */
        char text[600];
        if (s->prompt == ED_PROMPT_SAVE_AS) {
            for (size_t i = strlen(s->input); i > 0; i--) {
                e = ev_key(win, SDLK_BACKSPACE, 0);
                ed_handle_event(s, &e);
            }
            snprintf(text, sizeof text, "%s/edited_%d.json", k->tmp, mk_int(&k->r, 3));
        } else {
            snprintf(text, sizeof text, "%s",
                     EDIT_TEXT[mk_int(&k->r, (int)(sizeof EDIT_TEXT / sizeof EDIT_TEXT[0]))]);
        }
        trace(k, "editor types '%s'", text);
        for (size_t at = 0; text[at];) {
            char piece[SDL_TEXTINPUTEVENT_TEXT_SIZE];
            size_t n = strlen(text + at);
            if (n > sizeof piece - 1) n = sizeof piece - 1;
            memcpy(piece, text + at, n);
            piece[n] = 0;
            e = ev_text(win, piece);
            ed_handle_event(s, &e);
            at += n;
        }
        e = ev_key(win, SDLK_RETURN, 0);
        ed_handle_event(s, &e);
        return;
    }
    if (roll < 25) {
        trace(k, "editor hover %d,%d", pt.x, pt.y);
        e = ev_motion(win, pt.x, pt.y, 0);
        ed_handle_event(s, &e);
    } else if (roll < 45) {
        /* A press, a drag over a few hexes (a brush stroke, a line, a unit
         * moved) and a release. */
        cell_t to = {c.col + mk_int(&k->r, 7) - 3, c.row + mk_int(&k->r, 7) - 3};
        SDL_Point q = ed_cell_point(s, to);
        Uint8 button = mk_chance(&k->r, 85) ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT;
        trace(k, "editor drag %d from %d,%d to %d,%d", button, pt.x, pt.y, q.x, q.y);
        e = ev_motion(win, pt.x, pt.y, 0);
        ed_handle_event(s, &e);
        e = ev_button(win, true, button, pt.x, pt.y);
        ed_handle_event(s, &e);
        for (int i = 1; i <= 3; i++) {
            e = ev_motion(win, pt.x + (q.x - pt.x) * i / 3, pt.y + (q.y - pt.y) * i / 3,
                          SDL_BUTTON(button));
            ed_handle_event(s, &e);
        }
        e = ev_button(win, false, button, q.x, q.y);
        ed_handle_event(s, &e);
    } else if (roll < 55) {
        /* The palette and the side panel. */
        int x = mk_chance(&k->r, 50) ? mk_int(&k->r, ED_PALETTE_W)
                                     : s->view_w - ED_PANEL_W + mk_int(&k->r, ED_PANEL_W);
        int y = mk_int(&k->r, s->view_h);
        trace(k, "editor panel click %d,%d", x, y);
        e = ev_button(win, true, SDL_BUTTON_LEFT, x, y);
        ed_handle_event(s, &e);
        e = ev_button(win, false, SDL_BUTTON_LEFT, x, y);
        ed_handle_event(s, &e);
    } else if (roll < 60) {
        trace(k, "editor wheel");
        e = ev_wheel(win, mk_chance(&k->r, 50) ? 1 : -1, pt.x, pt.y);
        ed_handle_event(s, &e);
    } else if (roll < 61) {
        int w = 700 + mk_int(&k->r, 1200), h = 480 + mk_int(&k->r, 600);
        trace(k, "editor resize %dx%d", w, h);
        s->view_w = w;
        s->view_h = h;
        e = ev_window(win, SDL_WINDOWEVENT_SIZE_CHANGED, w, h);
        ed_handle_event(s, &e);
    } else {
        const mk_key_t *key =
            pick_key(&k->r, EDIT_KEYS, (int)(sizeof EDIT_KEYS / sizeof EDIT_KEYS[0]));
        if (key->k == SDLK_q && !mk_chance(&k->r, 25)) key = &EDIT_KEYS[0];
        trace(k, "editor key %s%s", key->mod & KMOD_CTRL ? "Ctrl+" : "", SDL_GetKeyName(key->k));
        if (key->k == SDLK_s && (key->mod & KMOD_CTRL)) k->saves++;
        if (key->k == SDLK_z && (key->mod & KMOD_CTRL)) k->undos++;
        e = ev_key(win, key->k, key->mod);
        ed_handle_event(s, &e);
        if (key->k >= 32 && key->k < 127 && !(key->mod & KMOD_CTRL)) {
            char t[2] = {(char)key->k, 0};
            e = ev_text(win, t);
            ed_handle_event(s, &e); /* SDL sends a printable key as text too */
        }
        if (s->prompt == ED_PROMPT_QUIT && mk_chance(&k->r, 50)) {
            e = ev_key(win, mk_chance(&k->r, 50) ? SDLK_d : SDLK_ESCAPE, 0);
            ed_handle_event(s, &e);
        }
    }
}

/* The editor on a copy of map m, saving into the folder; F5 play-tests the
 * edited map in a play window for a while, then returns, as `hexbattle edit`
 * does. */
static void run_editor(monkey_t *k, const map_t *m, const tmpl_db_t *db, const char *name, long n)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s.json", k->tmp, name);
    map_t *em = map_clone(m);
    assert_non_null(em);
    ed_state_t s;
    ed_init(&s, em, db, path, VIEW_W + 200, VIEW_H);
    ed_view_t v;
    assert_true(ed_view_open(&v, &s));
    Uint32 win = SDL_GetWindowID(v.win);
    for (long i = 0; i < n; i++) {
        ed_input(k, &s, win);
        if (s.dirty_frame || mk_chance(&k->r, 10)) {
            ed_draw(v.d, &s);
            s.dirty_frame = false;
        }
        if (s.want_play) {
            s.want_play = false;
            map_t *pm = map_clone(s.map);
            assert_non_null(pm);
            ui_session_t ps;
            save_t *held = NULL;
            char pname[64];
            snprintf(pname, sizeof pname, "%s_playtest", name);
            /* A map the edits left unplayable is refused, as in the app. */
            if (open_play(k, &ps, pm, s.db, pname, false, NULL, &held)) {
                ps.allow_maps = false; /* a play-test's picker offers only saves */
                for (int j = 0; j < 60 && !ui_session_done(&ps); j++) {
                    play_input(k, &ps);
                    play_frames(k, &ps);
                }
                ui_next_free(&ps.next);
                ui_session_close(&ps);
            }
            save_free(held);
            map_destroy(pm);
        }
        if (s.quit) {
            /* Closed: open the editor again on the map as it was left. */
            s.quit = false;
            trace(k, "editor reopened");
        }
    }
    ed_view_close(&v);
    ed_free(&s);
    map_destroy(em);
}

/* ---- the runs ----------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The bundled maps (the .json files of maps/, saves left out), by name,
 * without ".json". */
static int bundled_maps(char names[MAX_MAPS][64])
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../maps", data_dir());
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < MAX_MAPS) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || len >= 64 || strcmp(e->d_name + len - 5, ".json") != 0 ||
            strstr(e->d_name, ".battle.json"))
            continue;
        memcpy(names[n], e->d_name, len - 5);
        names[n++][len - 5] = '\0';
    }
    if (d) closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    return n;
}

typedef enum { MODE_PLAY = 0, MODE_PROJECT, MODE_EDIT } mk_mode_t;
static const char *const MODE_NAMES[] = {"play", "project", "edit"};

static void run_mode(mk_mode_t mode)
{
    long n = env_long("HB_MONKEY_EVENTS", MONKEY_EVENTS);
    long env_seed = env_long("HB_MONKEY_SEED", -1);
    int n_seeds = env_seed >= 0 ? 1 : (int)(sizeof MONKEY_SEEDS / sizeof MONKEY_SEEDS[0]);
    char maps[MAX_MAPS][64];
    int n_maps = bundled_maps(maps);
    assert_true(n_maps >= 3);
    for (int mi = 0; mi < n_maps; mi++) {
        if (!wanted(MODE_NAMES[mode], maps[mi])) continue;
        for (int si = 0; si < n_seeds; si++) {
            uint64_t seed = env_seed >= 0 ? (uint64_t)env_seed : MONKEY_SEEDS[si];
            monkey_t k;
            memset(&k, 0, sizeof k);
            /* Each mode and map has inputs of its own from the one seed (by
             * the map's name, so a new map changes no other map's run). */
            uint64_t name_hash = 1469598103934665603ull;
            for (const char *c = maps[mi]; *c; c++)
                name_hash = (name_hash ^ (unsigned char)*c) * 1099511628211ull;
            k.r.s = seed * 1000003ull + (uint64_t)mode * 101 + name_hash;
            k.trace = env_long("HB_MONKEY_TRACE", 0) != 0;
            assert_true(tmp_dir_make(k.tmp, sizeof k.tmp, "monkey"));
            /* Autosaves and projector settings go to the folder too. */
            setenv("XDG_DATA_HOME", k.tmp, 1);
            setenv("XDG_CONFIG_HOME", k.tmp, 1);
            setenv("HOME", k.tmp, 1);
            char path[1024], err[HB_ERR_MAX];
            snprintf(path, sizeof path, "%.900s/../maps/%.60s.json", data_dir(), maps[mi]);
            map_t *m = NULL;
            tmpl_db_t *db = NULL;
            assert_int_equal(map_load(path, data_dir(), &m, &db, err, sizeof err), HB_OK);
            assert_true(ui_video_open(err, sizeof err));
            if (mode == MODE_EDIT)
                run_editor(&k, m, db, maps[mi], n);
            else
                run_play(&k, m, db, maps[mi], mode == MODE_PROJECT, n);
            ui_video_close();
            printf("monkey %s %s seed %llu: %ld inputs, %d windows, %d frames (%d with "
                   "overlays), %d dice, %d undos, %d saves\n",
                   MODE_NAMES[mode], maps[mi], (unsigned long long)seed, k.inputs, k.sessions,
                   k.frames, k.overlay_draws, k.die_entries, k.undos, k.saves);
            tmpl_db_destroy(db);
            map_destroy(m);
            tmp_dir_remove(k.tmp);
        }
    }
}

static void test_monkey_play(void **state)
{
    (void)state;
    run_mode(MODE_PLAY);
}

static void test_monkey_project(void **state)
{
    (void)state;
    run_mode(MODE_PROJECT);
}

static void test_monkey_edit(void **state)
{
    (void)state;
    run_mode(MODE_EDIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monkey_play),
        cmocka_unit_test(test_monkey_project),
        cmocka_unit_test(test_monkey_edit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
