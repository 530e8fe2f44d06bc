/* test_ui_stable_keys.c - an action keeps its key for the whole battle
 * (issue 34, item 8): whatever the turn, an undo (Ctrl+Z) or a wait for
 * physical dice did, the main bar gives the same action of the same
 * combatant the same key. Every bundled map is played through the play
 * window's event handler with SDL events: Ctrl+Z every few player commands,
 * and in a second run with the referee's side rolling physical dice (P);
 * every key the bar shows is checked against the one that action showed
 * first. */
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

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

/* One action of one combatant and the key it showed first. */
typedef struct {
    int actor;
    pui_action_t a;
} seen_t;

#define MAX_SEEN 4096

typedef struct {
    seen_t seen[MAX_SEEN];
    int n_seen;
    int checks, again, moved, undos;
} keys_t;

static bool same(const pui_action_t *x, const pui_action_t *y)
{
    return x->kind == y->kind && x->act == y->act && x->weapon == y->weapon &&
           x->weapon2 == y->weapon2 && x->arg == y->arg && x->group == y->group;
}

/* Check every key of the main bar against the first one its action showed. */
static void check_bar(const pui_t *p, keys_t *k)
{
    if (p->sub != PUI_GROUP_NONE || !p->user_turn) return;
    for (int i = 0; i < p->n_bar; i++) {
        const pui_action_t *a = &p->bar[i];
        int found = -1;
        for (int s = 0; s < k->n_seen && found < 0; s++)
            if (k->seen[s].actor == p->actor && same(&k->seen[s].a, a)) found = s;
        k->checks++;
        if (found < 0) {
            assert_true(k->n_seen < MAX_SEEN);
            k->seen[k->n_seen++] = (seen_t){p->actor, *a};
            continue;
        }
        k->again++;
        if (k->seen[found].a.key != a->key) {
            printf("# %s of #%d: key %c, first %c\n", a->label, p->actor, a->key ? a->key : '-',
                   k->seen[found].a.key ? k->seen[found].a.key : '-');
            k->moved++;
        }
    }
}

/* Play map `name` with the rules' AI choosing the referee's commands,
 * Ctrl+Z after every third; with `physical`, the referee's side rolls
 * physical dice (typed in as the rules ask). */
static void play_map(const char *name, bool physical, keys_t *k)
{
    fx_game_t f;
    memset(k, 0, sizeof *k);
    fx_game_open(&f, name, 5, 1280, 800);
    pui_t *p = f.p;
    bool toggled = !physical;
    int given = 0, die = 0;
    for (int guard = 0; guard < 1500 && given < 40 && !pui_battle(p)->over; guard++) {
        anim_snap(&p->anim);
        check_bar(p, k);
        if (pui_needs_die(p)) {
            pui_enter_die(p, 1 + die++ % pui_battle(p)->need.sides);
            continue;
        }
        if (pui_needs_answer(p)) {
            pui_answer(p, 0);
            continue;
        }
        if (!p->user_turn) {
            pui_tick(p, PUI_AI_PAUSE + 0.01);
            continue;
        }
        if (!toggled) {
            fx_key(&f.st, SDLK_p, KMOD_NONE); /* the actor's side rolls physical dice */
            toggled = true;
            continue;
        }
        if (given % 3 == 2 && k->undos < given / 3) {
            int n = pui_battle(p)->cmds.n;
            fx_key(&f.st, SDLK_z, KMOD_LCTRL);
            k->undos++;
            if (pui_battle(p)->cmds.n < n) continue;
        }
        cmd_t c;
        p->play.rs->ai(p->play.b, p->actor, &c);
        pui_give(p, &c);
        given++;
    }
    check_bar(p, k);
    printf("# %s%s: %d keys checked, %d seen again, %d undos, %d moved\n", name,
           physical ? " (physical dice)" : "", k->checks, k->again, k->undos, k->moved);
    fx_game_close(&f);
}

static void test_keys_stay_with_their_action(void **state)
{
    (void)state;
    static const char *maps[] = {"ridge_ambush.json", "foundry_breach.json", "river_crossing.json",
                                 "salt_flats.json",   "relay_outpost.json",  "shattered_lane.json"};
    static keys_t k;
    int again = 0, moved = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        for (int phys = 0; phys < 2; phys++) {
            play_map(maps[i], phys, &k);
            assert_true(k.again > 0);
            assert_true(k.undos > 0);
            again += k.again;
            moved += k.moved;
        }
    assert_true(again > 100);
    assert_int_equal(moved, 0);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_stay_with_their_action),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
