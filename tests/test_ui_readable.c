/* test_ui_readable.c - the play window reads at a table (issue 17 item 5), on
 * every bundled map at 1280x720 and 1920x1080, the map fitted and every
 * overlay on: each token carries initials no smaller than UI_INITIALS_MIN_PX
 * and no two tokens of a map carry the same ones; a name is drawn where it
 * covers no other token and no other name, and most tokens get theirs; the
 * overlay legend and the card stay off the map. Each frame is written under
 * build/ to look at (test_ui_readable_NAME_WxH.png in the test's folder). */
#include <dirent.h>
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
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/overlay.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

static int setup(void **state)
{
    (void)state;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    TTF_Quit();
    SDL_Quit();
    return 0;
}

/* Draw map m's battle (seed 1) at w x h with every overlay on for the actor
 * and check what was drawn; returns the names drawn, *tokens the tokens. */
static int check_frame(const map_t *m, const tmpl_db_t *db, const char *name, int w, int h,
                       int *tokens)
{
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 1), BATTLE_OK);
    hud_t hud;
    assert_true(hud_init(&hud, p));
    ui_state_t st;
    fx_state_fit(&st, &hud, m, w, h);
    st.overlay = ui_overlay_create(m);
    assert_non_null(st.overlay);
    ui_overlay_use_db(st.overlay, db);
    for (SDL_Keycode k = SDLK_F5; k <= SDLK_F9; k++) fx_key(&st, k, 0);
    const battle_t *b = pui_battle(p);
    int who = p->actor >= 0 ? p->actor : 0;
    fx_hover_cell(&st, hex_to_cell(m->layout, b->board->pos[who]));

    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    anim_snap(&p->anim);
    ui_window_draw(d, &st);
    char png[512];
    snprintf(png, sizeof png, "test_ui_readable_%s_%dx%d.png", name, w, h);
    assert_int_equal(IMG_SavePNG(surf, png), 0);

    /* The side panel (card and legend) is off the map. */
    assert_true(ui_overlay_legend_rows(st.overlay) > 0);
    assert_true(hud.side.w > 0);
    assert_false(SDL_HasIntersection(&hud.side, &hud.lay.map));

    ui_token_drawn_t t[MAP_MAX_COMBATANTS];
    int n = m->n_combatants, names = 0, drawn = 0;
    for (int i = 0; i < n; i++) {
        bool on = ui_draw_token_drawn(d, i, &t[i]);
        assert_true(on || !battle_active(b, i));
        if (!on) {
            t[i].token.w = t[i].label.w = 0;
            continue;
        }
        drawn++;
        if (!m->combatants[i].token[0]) {
            if (t[i].initials_px < UI_INITIALS_MIN_PX)
                fail_msg("%s %dx%d: %s's initials '%s' are %d px", name, w, h,
                         m->combatants[i].name, t[i].mark, t[i].initials_px);
        }
        names += t[i].label.w > 0;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n && t[i].label.w > 0; j++) {
            if (j == i) continue;
            if (t[j].token.w > 0 && SDL_HasIntersection(&t[i].label, &t[j].token))
                fail_msg("%s %dx%d: %s's name covers %s", name, w, h, m->combatants[i].name,
                         m->combatants[j].name);
            if (t[j].label.w > 0 && SDL_HasIntersection(&t[i].label, &t[j].label))
                fail_msg("%s %dx%d: the names of %s and %s overlap", name, w, h,
                         m->combatants[i].name, m->combatants[j].name);
        }
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    ui_overlay_destroy(st.overlay);
    hud_free(&hud);
    pui_free(p);
    free(p);
    *tokens = drawn;
    return names;
}

static void test_every_bundled_map_reads(void **state)
{
    (void)state;
    char dir[512], data[512], path[1024], err[512];
    snprintf(dir, sizeof dir, "%s/../../maps", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int maps = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
        /* Initials unique per map. */
        char marks[MAP_MAX_COMBATANTS][UI_MARK_MAX];
        for (int i = 0; i < m->n_combatants; i++) {
            ui_token_mark(m, i, marks[i]);
            for (int j = 0; j < i; j++)
                if (strcmp(marks[i], marks[j]) == 0)
                    fail_msg("%s: %s and %s both read '%s'", de->d_name, m->combatants[i].name,
                             m->combatants[j].name, marks[i]);
        }
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
        static const int SIZES[2][2] = {{1280, 720}, {1920, 1080}};
        for (int k = 0; k < 2; k++) {
            int tokens = 0;
            int names = check_frame(m, db, name, SIZES[k][0], SIZES[k][1], &tokens);
            print_message("%s %dx%d: %d of %d names drawn\n", name, SIZES[k][0], SIZES[k][1],
                          names, tokens);
            /* Most tokens keep their name; a crowded spot may drop a few
             * (the card and the tracker name them). */
            assert_true(names * 4 >= tokens * 3);
        }
        tmpl_db_destroy(db);
        map_destroy(m);
        maps++;
    }
    closedir(dp);
    assert_true(maps >= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_bundled_map_reads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
