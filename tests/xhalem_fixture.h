/* xhalem_fixture.h - what the Xha'lem suites share (test_xhalem.c,
 * test_xhalem_actions.c): the weapons they fight with, an open map, event
 * counting, a duel on hand-entered dice, every die a 10, and the AI's
 * choice. */
#ifndef HB_TEST_XHALEM_FIXTURE_H
#define HB_TEST_XHALEM_FIXTURE_H

#include "rules_fixture.h"
#include "rules/predict.h"
#include "rules/xhalem.h"

static inline tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = fx_db("xhalem");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "pike", WPN_MELEE, false, 10, 0, 1, 8, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 30, 1, 10, 0, NULL);
    fx_weapon(db, "laser", WPN_RANGED, true, 0, 30, 1, 10, 0, NULL);
    fx_weapon(db, "javelin", WPN_THROWN, false, 0, 20, 1, 6, 0, NULL);
    fx_weapon(db, "mech_fist", WPN_MELEE, false, 0, 0, 2, 6, 0, NULL);
    fx_weapon(db, "mech_gun", WPN_RANGED, false, 0, 300, 1, 10, 0, NULL);
    fx_weapon(db, "mech_beam", WPN_RANGED, true, 0, 300, 1, 10, 0, NULL);
    fx_weapon(db, "torch", WPN_MELEE, false, 5, 0, 1, 6, 0, "fire=1");
    fx_weapon(db, "shock", WPN_MELEE, true, 5, 0, 1, 6, 0, "electric=1");
    return db;
}

static const char *const OPEN8[] = {"........", "........", "........", "........"};

/* Creature stat string helpers. */
#define CRE "agility=2,strength=1,evasion=3"

static inline int count_type(const battle_t *b, ev_type_t t)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++)
        n += b->log.ev[k].type == t;
    return n;
}

static const event_t *last_of(const battle_t *b, ev_type_t t)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == t)
            return &b->log.ev[k];
    return NULL;
}

/* A duel: a (players) at (1,1), t (raiders) at (2,1); a goes first. */
static inline void duel(fx_t *f, const char *a_stats, const char *t_stats)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife,rifle", a_stats);
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", t_stats);
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

/* Apply c entering 10 (or the top face of a smaller die) for every die it asks
 * for: for tests about state, not numbers. */
static inline battle_status_t do_tens(play_t *p, cmd_t c)
{
    battle_status_t st = play_apply(p, &c);
    for (int k = 0; st == BATTLE_NEED_DICE && k < 64; k++)
        st = play_enter_die(p, p->b->need.sides < 10 ? p->b->need.sides : 10);
    return st;
}

static inline cmd_t ai_choice(fx_t *f, int actor)
{
    const ruleset_t *rs = f->p.b->rules;
    cmd_t c;
    rs->ai(f->p.b, actor, &c);
    return c;
}

#endif
