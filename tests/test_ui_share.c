/* test_ui_share.c - sharing from the play window (ui/share_panel.h) under
 * SDL's dummy driver, with a page played by loopback sockets: Ctrl+L starts
 * the server and shows the address and QR code; a page's move goes through
 * the laptop's command path, so Ctrl+Z takes it back; with Ctrl+A a page's
 * command waits for Enter (Esc refuses it); Ctrl+L again closes every page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>

#include "io/map_io.h"
#include "share_client.h"
#include "tmp_fixture.h"
#include "ui/session.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    ui_session_t s;
    char tmp[512];
    char map_path[700];
    share_client_t c;
} fx_t;

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* What the window does between events: one frame (which serves the pages). */
static void frame(void *ctx)
{
    fx_t *f = ctx;
    ui_session_frame(&f->s, 0.016);
}

static fx_t *open_ridge(void)
{
    fx_t *f = calloc(1, sizeof *f);
    assert_true(tmp_dir_make(f->tmp, sizeof f->tmp, "share"));
    setenv("XDG_DATA_HOME", f->tmp, 1);
    setenv("XDG_CONFIG_HOME", f->tmp, 1);
    setenv("HEXBATTLE_SHARE_BIND", "loopback", 1);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/ridge_ambush.json", data_dir());
    assert_int_equal(map_load(path, data_dir(), &f->m, &f->db, err, sizeof err), HB_OK);
    snprintf(f->map_path, sizeof f->map_path, "%s/ridge_ambush.json", f->tmp);
    assert_true(ui_video_open(err, sizeof err));
    ui_session_args_t a = {
        .map = f->m, .db = f->db, .map_path = f->map_path, .seed = 1, .w = 1280, .h = 720};
    assert_true(ui_session_open(&f->s, &a, err, sizeof err));
    f->c = (share_client_t){.serve = frame, .ctx = f};
    return f;
}

static void close_fx(fx_t *f)
{
    ui_session_close(&f->s);
    ui_next_free(&f->s.next);
    ui_video_close();
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->tmp);
    free(f);
}

static void key(fx_t *f, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = SDL_GetWindowID(f->s.win);
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ui_session_event(&f->s, &e);
}

static const battle_t *battle(const fx_t *f)
{
    return pui_battle(f->s.play);
}

static cell_t kara_at(const fx_t *f)
{
    return hex_to_cell(f->m->layout, battle(f)->board->pos[0]);
}

/* Kara's page asks to move her to (3, 11); returns the status. */
static int move_kara(fx_t *f, const char *tok, char *body, size_t cap)
{
    char msg[200];
    snprintf(msg, sizeof msg, "{\"t\":\"%s\",\"move\":{\"mode\":0,\"to\":[3,11]}}", tok);
    return sc_post(&f->c, "/api/cmd", msg, body, cap);
}

static void test_ctrl_l_shares_and_pages_act_through_the_laptop(void **state)
{
    (void)state;
    fx_t *f = open_ridge();
    frame(f);
    assert_false(ui_share_on(&f->s.share));
    key(f, SDLK_l, KMOD_LCTRL);
    assert_true(ui_share_on(&f->s.share));
    assert_non_null(f->s.share.qr); /* the address as a QR code */
    assert_non_null(strstr(f->s.play->msg, "http://127.0.0.1:"));
    f->c.port = share_port(f->s.share.srv);
    frame(f);

    /* Look at it: the panel drawn in the play window. */
    const char *shot = getenv("HB_SHARE_SHOT");
    if (shot) {
        f->s.st.dirty = true;
        frame(f);
        SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, f->s.dw, f->s.dh, 32, SDL_PIXELFORMAT_ARGB8888);
        SDL_RenderReadPixels(f->s.ren, NULL, SDL_PIXELFORMAT_ARGB8888, surf->pixels, surf->pitch);
        IMG_SavePNG(surf, shot);
        SDL_FreeSurface(surf);
    }

    char tok[33], body[4096];
    assert_true(sc_join(&f->c, share_secret(f->s.share.srv), "kara", tok));
    int cmds = battle(f)->cmds.n;
    cell_t start = kara_at(f);
    assert_int_equal(move_kara(f, tok, body, sizeof body), 200);
    assert_int_equal(battle(f)->cmds.n, cmds + 1);
    assert_int_equal(kara_at(f).col, 3);
    assert_int_equal(kara_at(f).row, 11);
    /* The laptop's Ctrl+Z takes the page's move back. */
    key(f, SDLK_z, KMOD_LCTRL);
    assert_int_equal(battle(f)->cmds.n, cmds);
    assert_int_equal(kara_at(f).col, start.col);
    assert_int_equal(kara_at(f).row, start.row);

    /* Ctrl+A: a page's command waits for the referee. */
    key(f, SDLK_a, KMOD_LCTRL);
    assert_true(f->s.share.approve);
    assert_int_equal(move_kara(f, tok, body, sizeof body), 200);
    assert_non_null(strstr(body, "\"queued\":true"));
    assert_true(f->s.share.pending);
    assert_int_equal(battle(f)->cmds.n, cmds);
    key(f, SDLK_ESCAPE, 0); /* refused */
    assert_false(f->s.share.pending);
    assert_int_equal(battle(f)->cmds.n, cmds);
    assert_int_equal(move_kara(f, tok, body, sizeof body), 200);
    key(f, SDLK_RETURN, 0); /* allowed */
    assert_int_equal(battle(f)->cmds.n, cmds + 1);
    assert_int_equal(kara_at(f).row, 11);

    /* Ctrl+L again: sharing stops and the page's stream ends. */
    hb_sock_t fd = sc_dial(&f->c);
    assert_true(fd != HB_NET_NONE);
    char req[200], *ans = malloc(SHARE_ANSWER_MAX);
    snprintf(req, sizeof req, "GET /api/events?t=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tok);
    sc_put(&f->c, fd, req, strlen(req));
    sc_take(&f->c, fd, ans, SHARE_ANSWER_MAX, "\n\n");
    assert_non_null(strstr(ans, "data: "));
    key(f, SDLK_l, KMOD_LCTRL);
    assert_false(ui_share_on(&f->s.share));
    assert_int_equal(sc_take(&f->c, fd, ans, SHARE_ANSWER_MAX, NULL), 0); /* closed */
    free(ans);
    hb_net_close(fd);
    close_fx(f);
}

/* A page's hello: its seat token into seat, its page number. */
static int hello(fx_t *f, char *seat)
{
    char msg[200], body[1024];
    snprintf(msg, sizeof msg, "{\"k\":\"%s\"}", share_secret(f->s.share.srv));
    assert_int_equal(sc_post(&f->c, "/api/hello", msg, body, sizeof body), 200);
    const char *t = strstr(body, "\"seat\":\"");
    const char *n = strstr(body, "\"page\":");
    assert_non_null(t);
    assert_non_null(n);
    snprintf(seat, 33, "%s", t + 8);
    return atoi(n + 7);
}

/* Does page seat's lobby carry the combatant the referee gave it? */
static bool page_holds(fx_t *f, const char *seat, const char *id)
{
    char path[200], body[8192], want[80];
    snprintf(path, sizeof path, "/api/lobby?k=%s&s=%s", share_secret(f->s.share.srv), seat);
    assert_int_equal(sc_request(&f->c, "GET", path, NULL, 0, body, sizeof body), 200);
    snprintf(want, sizeof want, "\"you\":{\"id\":\"%s\",\"token\":\"", id);
    return strstr(body, want) != NULL;
}

/* Ctrl+J gives the selected combatant to the next open page, then the
 * next, then frees it; Ctrl+Shift+J frees it at once; an enemy is refused. */
static void test_ctrl_j_gives_combatants_to_pages(void **state)
{
    (void)state;
    fx_t *f = open_ridge();
    frame(f);
    key(f, SDLK_l, KMOD_LCTRL);
    assert_true(ui_share_on(&f->s.share));
    f->c.port = share_port(f->s.share.srv);
    share_t *srv = f->s.share.srv;
    const battle_t *b = battle(f);
    int kara = board_find(b->board, "kara"), boss = board_find(b->board, "boss");
    char s1[33], s2[33];
    int p1 = hello(f, s1), p2 = hello(f, s2);
    frame(f);

    f->s.play->sel = kara;
    key(f, SDLK_j, KMOD_LCTRL);
    assert_int_equal(share_holder(srv, kara), p1);
    assert_non_null(strstr(f->s.play->msg, "Page"));
    assert_true(page_holds(f, s1, "kara"));
    assert_false(page_holds(f, s2, "kara"));
    /* The panel names who plays whom (HB_SHARE_SHOT_J: a picture of it). */
    f->s.st.dirty = true;
    frame(f);
    const char *shot = getenv("HB_SHARE_SHOT_J");
    if (shot) {
        SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, f->s.dw, f->s.dh, 32, SDL_PIXELFORMAT_ARGB8888);
        SDL_RenderReadPixels(f->s.ren, NULL, SDL_PIXELFORMAT_ARGB8888, surf->pixels, surf->pitch);
        IMG_SavePNG(surf, shot);
        SDL_FreeSurface(surf);
    }

    key(f, SDLK_j, KMOD_LCTRL);
    assert_int_equal(share_holder(srv, kara), p2);
    assert_false(page_holds(f, s1, "kara"));
    assert_true(page_holds(f, s2, "kara"));
    key(f, SDLK_j, KMOD_LCTRL); /* past the last page: free */
    assert_int_equal(share_holder(srv, kara), 0);
    assert_false(page_holds(f, s2, "kara"));
    key(f, SDLK_j, KMOD_LCTRL);
    assert_int_equal(share_holder(srv, kara), p1);
    key(f, SDLK_j, KMOD_LCTRL | KMOD_LSHIFT);
    assert_int_equal(share_holder(srv, kara), 0);

    f->s.play->sel = boss;
    key(f, SDLK_j, KMOD_LCTRL);
    assert_int_equal(share_holder(srv, boss), 0);
    assert_non_null(strstr(f->s.play->msg, "not on a players' side"));
    close_fx(f);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, called by SDL2main's
 * main, and wants that shape. */
int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctrl_l_shares_and_pages_act_through_the_laptop),
        cmocka_unit_test(test_ctrl_j_gives_combatants_to_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
