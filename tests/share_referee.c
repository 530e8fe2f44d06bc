/* share_referee.c - the referee's side of tests/share_referee.py: a play
 * window on ridge_ambush under SDL's dummy video driver, shared with Ctrl+L,
 * whose keys the script sends through stdin as lines:
 *   give ID   select combatant ID and press Ctrl+J (the next open page)
 *   free ID   select combatant ID and press Ctrl+Shift+J
 *   quit      close the window
 * It prints the join address as its first line, then the window's status
 * message after each key, and frames the window (serving the pages) every
 * 10 ms meanwhile. Exits 0 on quit or end of input, 1 on any fault, and on
 * its own after 120 s so a lost script leaves nothing running.
 * Usage: share_referee DATA_DIR MAP */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <SDL.h>

#include "io/map_io.h"
#include "ui/session.h"

#define LIFE_S 120.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void key(ui_session_t *s, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = SDL_GetWindowID(s->win);
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ui_session_event(s, &e);
}

/* One line of the script: false on quit. */
static bool command(ui_session_t *s, const char *line)
{
    char verb[16] = "", id[64] = "";
    if (sscanf(line, "%15s %63s", verb, id) < 1 || strcmp(verb, "quit") == 0) return false;
    const battle_t *b = pui_battle(s->play);
    int who = board_find(b->board, id);
    if (who < 0) {
        printf("no combatant %s\n", id);
    } else {
        s->play->sel = who;
        key(s, SDLK_j, strcmp(verb, "free") == 0 ? KMOD_LCTRL | KMOD_LSHIFT : KMOD_LCTRL);
        ui_session_frame(s, 0.016); /* the message reaches the status line */
        printf("%s\n", s->play->msg);
    }
    fflush(stdout);
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: share_referee DATA_DIR MAP\n");
        return 2;
    }
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    setenv("HEXBATTLE_SHARE_BIND", "loopback", 1);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    if (map_load(argv[2], argv[1], &m, &db, err, sizeof err) != HB_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (!ui_video_open(err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ui_session_t s;
    ui_session_args_t a = {.map = m, .db = db, .seed = 1, .w = 1280, .h = 720};
    if (!ui_session_open(&s, &a, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ui_session_frame(&s, 0.016);
    key(&s, SDLK_l, KMOD_LCTRL);
    int rc = 1;
    if (ui_share_on(&s.share)) {
        printf("%s\n", s.share.url);
        fflush(stdout);
        rc = 0;
        char line[256];
        size_t n = 0;
        double end = now_s() + LIFE_S;
        bool going = true;
        while (going && now_s() < end) {
            ui_session_frame(&s, 0.01);
            struct pollfd p = {.fd = 0, .events = POLLIN};
            if (poll(&p, 1, 10) <= 0) continue;
            char c;
            ssize_t k = read(0, &c, 1);
            if (k <= 0) break; /* end of input */
            if (c != '\n' && n + 1 < sizeof line) {
                line[n++] = c;
                continue;
            }
            line[n] = '\0';
            n = 0;
            going = command(&s, line);
        }
    } else {
        fprintf(stderr, "sharing did not start: %s\n", s.play->msg);
    }
    ui_session_close(&s);
    ui_next_free(&s.next);
    ui_video_close();
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}
