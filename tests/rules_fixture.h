/* rules_fixture.h - small maps, combatants and weapons built in code for the
 * rules tests, and a driver that feeds hand-entered dice so each rule test
 * knows every die. Included by tests/test_*.c after <cmocka.h>. */
#ifndef HB_RULES_FIXTURE_H
#define HB_RULES_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/battle.h"
#include "io/event_json.h"
#include "rules/play.h"

/* A rules test's battle: its map, its data and the driver over them. */
typedef struct {
    map_t *m;
    tmpl_db_t *db;
    play_t p;
} fx_t;

static inline void fx_free(fx_t *f)
{
    play_end(&f->p);
    map_destroy(f->m);
    free(f->db);
}

/* Terrain types every fixture map has, in this order. */
enum { T_OPEN = 0, T_WALL, T_BRUSH, T_RUBBLE, T_WATER, T_DOOR, T_DOOR_OPEN, T_COUNT };

static inline void fx_type(map_t *m, const char *name, int move, cover_t cover, bool blocks,
                    const char *opens)
{
    terrain_t *t = &m->types[m->n_types++];
    memset(t, 0, sizeof *t);
    hb_strlcpy(t->name, name, sizeof t->name);
    t->move = move;
    t->cover = cover;
    t->blocks_sight = blocks;
    hb_strlcpy(t->opens_to, opens, sizeof t->opens_to);
}

/* A pointy odd-r map; rows are strings of . # , ^ ~ D (NULL rows: all open). */
static inline map_t *fx_map(int cols, int rows, const char *ruleset, const char *const *text)
{
    map_t *m = map_create(cols, rows);
    assert_non_null(m);
    hb_strlcpy(m->ruleset, ruleset, sizeof m->ruleset);
    hb_strlcpy(m->name, "fixture", sizeof m->name);
    fx_type(m, "open", 1, COVER_NONE, false, "");
    fx_type(m, "wall", 0, COVER_TOTAL, true, "");
    fx_type(m, "brush", 2, COVER_LIGHT, false, "");
    fx_type(m, "rubble", 2, COVER_HEAVY, false, "");
    fx_type(m, "water", 2, COVER_NONE, false, "");
    fx_type(m, "door", 0, COVER_TOTAL, true, "door_open");
    fx_type(m, "door_open", 1, COVER_NONE, false, "");
    for (int r = 0; text && r < rows; r++)
        for (int c = 0; c < cols && text[r][c]; c++) {
            const char *k = strchr(".#,^~D", text[r][c]);
            m->cells[r * cols + c] = (uint8_t)(k ? k - ".#,^~D" : 0);
        }
    return m;
}

/* Add a combatant; stats is "key=value,key=value", weapons "id,id". Returns its index. */
static inline int fx_add(map_t *m, const char *id, const char *faction, int col, int row, ckind_t kind,
                  csize_t size, int hp, int speed, const char *weapons, const char *stats)
{
    map_combatant_t *p = realloc(m->combatants, sizeof *p * (size_t)(m->n_combatants + 1));
    assert_non_null(p);
    m->combatants = p;
    map_combatant_t *c = &p[m->n_combatants];
    memset(c, 0, sizeof *c);
    hb_strlcpy(c->id, id, sizeof c->id);
    hb_strlcpy(c->name, id, sizeof c->name);
    hb_strlcpy(c->faction, faction, sizeof c->faction);
    c->at = (cell_t){col, row};
    c->kind = kind;
    c->size = size;
    c->hp = c->hp_max = hp;
    c->speed_ft = speed;
    char buf[256];
    hb_strlcpy(buf, weapons ? weapons : "", sizeof buf);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        hb_strlcpy(c->weapons[c->n_weapons++], tok, MAP_ID_MAX);
    hb_strlcpy(buf, stats ? stats : "", sizeof buf);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        hb_strlcpy(c->stats[c->n_stats].key, tok, MAP_ID_MAX);
        c->stats[c->n_stats++].value = atoi(eq + 1);
    }
    return m->n_combatants++;
}

static inline tmpl_db_t *fx_db(const char *ruleset)
{
    tmpl_db_t *db = calloc(1, sizeof *db);
    assert_non_null(db);
    hb_strlcpy(db->ruleset, ruleset, sizeof db->ruleset);
    return db;
}

/* Add a weapon: damage NdS+B; tags "key=value,...". */
static inline void fx_weapon(tmpl_db_t *db, const char *id, weapon_class_t cls, bool energy, int reach,
                      int range, int n, int sides, int bonus, const char *tags)
{
    weapon_t *w = &db->weapons[db->n_weapons++];
    memset(w, 0, sizeof *w);
    hb_strlcpy(w->id, id, sizeof w->id);
    hb_strlcpy(w->name, id, sizeof w->name);
    w->cls = cls;
    w->energy = energy;
    w->reach_ft = reach;
    w->range_ft = range;
    w->dice_n = n;
    w->dice_sides = sides;
    w->dice_bonus = bonus;
    char buf[128];
    hb_strlcpy(buf, tags ? tags : "", sizeof buf);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        hb_strlcpy(w->tags[w->n_tags].key, tok, MAP_ID_MAX);
        w->tags[w->n_tags++].value = atoi(eq + 1);
    }
}

/* Feed entered dice while the battle waits; fails the test if the list runs
 * out or is not used up. Returns the final status. */
static inline battle_status_t fx_feed(play_t *p, battle_status_t st, const int *dice, int n)
{
    int k = 0;
    while (st == BATTLE_NEED_DICE) {
        if (k >= n)
            fail_msg("battle wants another d%d for '%s' (die %d of %d)", p->b->need.sides,
                     p->b->need.why, p->b->need.index + 1, p->b->need.count);
        st = play_enter_die(p, dice[k++]);
    }
    if (k != n)
        fail_msg("only %d of %d entered dice were used", k, n);
    return st;
}

/* Start with every die entered by hand: the initiative dice come from `dice`. */
static inline void fx_start(play_t *p, const map_t *m, const tmpl_db_t *db, const int *dice, int n)
{
    battle_opts_t o = {.seed = 1, .manual_all = true};
    battle_status_t st = play_start(p, m, db, NULL, &o);
    assert_int_equal(fx_feed(p, st, dice, n), BATTLE_OK);
}

/* Start on dice from `seed` (none by hand, so no rebuild undoes a change a
 * test makes to the battle) and end turns until combatant `who` may act;
 * fails the test when it has not in eight turns. */
static inline void fx_start_until(fx_t *f, int who, uint64_t seed)
{
    battle_opts_t o = {.seed = seed};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
    for (int guard = 0; guard < 8; guard++) {
        int act[8];
        int n = play_actors(&f->p, act, 8);
        assert_true(n > 0);
        for (int k = 0; k < n; k++)
            if (act[k] == who)
                return;
        cmd_t end = cmd_make(CMD_END, act[0]);
        assert_int_equal(play_apply(&f->p, &end), BATTLE_OK);
    }
    fail_msg("combatant %d never got to act", who);
}

/* Apply c feeding dice; returns the status. */
static inline battle_status_t fx_do(play_t *p, cmd_t c, const int *dice, int n)
{
    return fx_feed(p, play_apply(p, &c), dice, n);
}

#define FX_DICE(...) ((const int[]){__VA_ARGS__}), (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int))
#define FX_NO_DICE NULL, 0

/* Index of the first event at or after `from` whose JSON line contains every
 * one of the NULL-terminated fragments, or -1. */
static inline int fx_find(const battle_t *b, int from, const char *const *frags)
{
    for (int k = from; k < b->log.n; k++) {
        char *line = event_to_line(b->board, &b->log.ev[k]);
        assert_non_null(line);
        bool all = true;
        for (int f = 0; frags[f] && all; f++)
            all = strstr(line, frags[f]) != NULL;
        free(line);
        if (all)
            return k;
    }
    return -1;
}
#define FX_FIND(b, from, ...) fx_find((b), (from), (const char *const[]){__VA_ARGS__, NULL})

/* The whole log as JSON Lines, the bytes simulate prints (malloc'd). */
static inline char *fx_log_text(const battle_t *b)
{
    size_t cap = 4096, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (int k = 0; k < b->log.n; k++) {
        char *line = event_to_line(b->board, &b->log.ev[k]);
        assert_non_null(line);
        size_t len = strlen(line);
        while (n + len + 2 > cap) {
            cap *= 2;
            out = realloc(out, cap);
            assert_non_null(out);
        }
        memcpy(out + n, line, len);
        n += len;
        out[n++] = '\n';
        out[n] = '\0';
        free(line);
    }
    return out;
}

/* Print the log (for a failing test's context). */
static inline void fx_dump(const battle_t *b)
{
    for (int k = 0; k < b->log.n; k++) {
        char *line = event_to_line(b->board, &b->log.ev[k]);
        fprintf(stderr, "  %3d %s\n", k, line ? line : "?");
        free(line);
    }
}

/* Move command along cells given as col,row pairs. */
static inline cmd_t fx_move(int actor, int n, const int *cr)
{
    cmd_t c = cmd_make(CMD_MOVE, actor);
    for (int k = 0; k < n; k++)
        c.path[c.n_path++] = (cell_t){cr[2 * k], cr[2 * k + 1]};
    return c;
}
#define FX_PATH(actor, ...) fx_move((actor), (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int) / 2), (const int[]){__VA_ARGS__})

static inline cmd_t fx_engage(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = t;
    c.weapon = w;
    return c;
}

/* A declared engagement (the rulesets that declare first, resolve later). */
static inline cmd_t fx_declare(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.act = CMD_ENGAGE;
    c.target = t;
    c.weapon = w;
    return c;
}

#endif
