/* bench_scars.c - scars_round_512_ms of `hexbattle bench` (issue 30; see
 * bench.h): whole rounds of the scars AI on a 1024x1024 map with 512
 * combatants, every one of them declaring through the AI and every phase
 * resolved. The map is generated here from a fixed seed: the terrain mix of
 * bench_map, and the crew and raiders of maps/salt_flats.json (its templates
 * and factions) repeated over it on open hexes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "bench.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "rules/ruleset.h"

#define SIDE 1024
#define UNITS 512
#define ROUNDS 3 /* the first rounds: the sides far apart, then closing */

static int terrain_named(const map_t *m, const char *name)
{
    int t = map_find_type(m, name);
    return t < 0 ? 0 : t;
}

/* The big map: salt flats' rules, terrain types and factions, its
 * combatants in turn on free open hexes. NULL on failure. */
static map_t *scars_map(const map_t *src)
{
    if (src->n_combatants < 1) return NULL;
    map_t *m = map_create(SIDE, SIDE);
    if (!m) return NULL;
    hb_strlcpy(m->name, "scars bench", sizeof m->name);
    hb_strlcpy(m->ruleset, src->ruleset, sizeof m->ruleset);
    m->layout = src->layout;
    m->feet_per_hex = src->feet_per_hex;
    memcpy(m->types, src->types, sizeof m->types);
    m->n_types = src->n_types;
    memcpy(m->factions, src->factions, sizeof m->factions);
    m->n_factions = src->n_factions;
    m->factions_given = src->factions_given;
    int open = terrain_named(m, "open"), wall = terrain_named(m, "wall");
    int rough[3] = {terrain_named(m, "brush"), terrain_named(m, "rubble"),
                    terrain_named(m, "water")};
    uint64_t s = 30;
    for (int k = 0; k < SIDE * SIDE; k++) {
        uint32_t r = bench_rand(&s) % 100;
        m->cells[k] = (uint8_t)(r < 5 ? wall : r < 25 ? rough[r % 3] : open);
    }
    m->combatants = calloc(UNITS, sizeof *m->combatants);
    if (!m->combatants) {
        map_destroy(m);
        return NULL;
    }
    for (int i = 0; i < UNITS; i++) {
        map_combatant_t *c = &m->combatants[i];
        *c = src->combatants[i % src->n_combatants];
        snprintf(c->id, sizeof c->id, "u%d", i);
        snprintf(c->name, sizeof c->name, "Unit %d", i);
        for (;;) { /* a free open hex (a cell takes one combatant: mark it) */
            int idx = (int)(bench_rand(&s) % (uint32_t)(SIDE * SIDE));
            if (m->cells[idx] != open) continue;
            m->cells[idx] = (uint8_t)wall;
            c->at = map_cell_of(m, idx);
            break;
        }
    }
    for (int i = 0; i < UNITS; i++)
        m->cells[map_index(m, m->combatants[i].at)] = (uint8_t)open;
    m->n_combatants = UNITS;
    return m;
}

/* CPU time of this thread in milliseconds (the machine may be shared). */
static double thread_ms(void)
{
    return hb_plat_thread_cpu_ms();
}

/* The slowest of the first ROUNDS rounds, as play_auto plays them. */
static bool play_rounds(const map_t *m, const tmpl_db_t *db, double *worst)
{
    const ruleset_t *rs = ruleset_find(m->ruleset);
    play_t p;
    memset(&p, 0, sizeof p);
    battle_opts_t o = {.seed = 30, .max_rounds = 0};
    bool ok = rs && play_start(&p, m, db, rs, &o) == BATTLE_OK;
    int actors[MAP_MAX_COMBATANTS];
    *worst = 0.0;
    for (int round = 1; ok && round <= ROUNDS && !p.b->over; round++) {
        double t0 = thread_ms();
        int guard = 0, last = -1;
        while (ok && !p.b->over && p.b->round == round) {
            if (play_actors(&p, actors, MAP_MAX_COMBATANTS) <= 0) {
                ok = false;
                break;
            }
            if (actors[0] != last) {
                last = actors[0];
                guard = 0;
            }
            cmd_t c;
            p.b->frozen++;
            rs->ai(p.b, actors[0], &c);
            p.b->frozen--;
            battle_status_t st = play_apply(&p, &c);
            if (st == BATTLE_ILLEGAL || ++guard > 64) {
                cmd_t end = cmd_make(CMD_END, actors[0]);
                st = play_apply(&p, &end);
                guard = 0;
            }
            ok = st == BATTLE_OK || st == BATTLE_OVER;
        }
        double ms = thread_ms() - t0;
        *worst = ms > *worst ? ms : *worst;
    }
    if (p.b) play_end(&p);
    return ok;
}

bool bench_scars(double *round_ms)
{
    char path[4096], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/salt_flats.json", hb_data_dir());
    map_t *src = NULL, *big = NULL;
    tmpl_db_t *db = NULL;
    bool ok = map_load(path, hb_data_dir(), &src, &db, err, sizeof err) == HB_OK;
    if (!ok)
        fprintf(stderr, "hexbattle: bench: %s\n", err);
    big = ok ? scars_map(src) : NULL;
    ok = big && play_rounds(big, db, round_ms);
    map_destroy(big);
    tmpl_db_destroy(db);
    map_destroy(src);
    return ok;
}
