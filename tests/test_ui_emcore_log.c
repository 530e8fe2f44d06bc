/* test_ui_emcore_log.c - the battle log reads an emcore roll whose 1s
 * outweigh its successes the way the rules say it: no successes and a
 * botch (E1: a roll's successes are never below 0; a negative net is a
 * botch), never "-1 successes"; and the tracker names a condition in
 * words. Played at the river crossing through the play screen, the AI
 * choosing every side's commands.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui_bundled_fixture.h"

/* The first roll of p's battle from log index *from on that counts
 * successes and nets below zero, or NULL; *from moves past what was read. */
static const event_t *net_botch(const pui_t *p, int *from)
{
    const battle_t *b = p->play.b;
    for (; *from < b->log.n; (*from)++) {
        const event_t *e = &b->log.ev[*from];
        if (e->type == EV_ROLL && e->spec.count_at > 0 && e->successes < 0) return e;
    }
    return NULL;
}

/* The tracker and card name conditions in words, as the log does ("target
 * of opportunity", never "target_of_opportunity"): how many combatants of
 * p's battle are marked a target of opportunity now. */
static int conditions_worded(const pui_t *p)
{
    const battle_t *b = p->play.b;
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        char conds[160];
        hud_tracker_conditions(b, i, conds, sizeof conds);
        assert_null(strchr(conds, '_'));
        n += strstr(conds, "target of opportunity") != NULL;
    }
    return n;
}

static void test_net_botch_reads_as_a_botch(void **state)
{
    (void)state;
    int botches = 0, counted = 0, worded = 0, running = 0;
    for (uint64_t seed = 1; seed <= 12 && (botches < 3 || worded == 0); seed++) {
        fx_t f;
        fx_open(&f, "river_crossing", seed);
        pui_t *p = f.p;
        int seen = 0;
        for (int step = 0; step < 1500 && !p->play.b->over; step++) {
            pui_run_ai(p, 1);
            worded += conditions_worded(p);
            if (p->play.b->over) break;
            if (!p->user_turn) continue;
            cmd_t c;
            p->play.rs->ai(p->play.b, p->actor, &c);
            if (pui_give(p, &c) != BATTLE_OK) break;
            worded += conditions_worded(p);
        }
        const battle_t *b = p->play.b;
        for (int k = 0; k < b->log.n; k++) {
            const event_t *ev = &b->log.ev[k];
            counted += ev->type == EV_ROLL && ev->spec.count_at > 0;
            /* A runner's mark reads as English: "X is running", never "X is ran". */
            if (ev->type == EV_CONDITION && strcmp(ev->name, "running") == 0) {
                char text[256];
                hud_log_text(p, ev, text, sizeof text);
                if (!strstr(text, ev->on ? " is running" : " is no longer running"))
                    fail_msg("seed %d: \"%s\"", (int)seed, text);
                running++;
            }
        }
        const event_t *e;
        while ((e = net_botch(p, &seen)) != NULL) {
            char line[256], want[48];
            hud_roll_text(p, e, line, sizeof line);
            snprintf(want, sizeof want, "0 successes, a botch (net %d)", e->successes);
            if (!strstr(line, want)) fail_msg("seed %d: \"%s\" lacks \"%s\"", (int)seed, line, want);
            assert_null(strstr(line, "= -"));
            /* The log panel's line is the same text. */
            char panel[256];
            assert_int_equal(hud_log_text(p, e, panel, sizeof panel), HUD_LOG_ROLL);
            assert_string_equal(panel, line);
            botches++;
            seen++;
        }
        fx_close(&f);
    }
    assert_true(counted > 0);
    assert_true(botches > 0); /* 1s outweighing the successes happen in a few battles */
    assert_true(worded > 0);  /* runners were marked */
    assert_true(running > 0); /* ... and the log said so in words */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_net_botch_reads_as_a_botch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
