/* test_map_io.c - map files, terrain and ruleset data: golden good maps load
 * with the right values, every bad map is refused with the exact message,
 * saves round-trip and keep a backup, and the shipped data files are sound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/edit.h"
#include "io/map_io.h"
#include <sys/resource.h>

#include "core/vision.h"
#include "text_fixture.h"
#include "tmp_fixture.h"

#ifndef HB_TEST_DATA
#error "HB_TEST_DATA must name tests/data"
#endif

/* ---- helpers ---- */

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return (d && *d) ? d : HB_SOURCE_DIR "/data";
}

static void good_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/good/%s", HB_TEST_DATA, name);
}

/* Load a golden good map; fails the test with the loader's message otherwise. */
static map_t *load_good(const char *name, tmpl_db_t **db)
{
    char path[1024], err[HB_ERR_MAX] = "";
    good_path(path, sizeof path, name);
    map_t *m = NULL;
    int rc = map_load(path, data_dir(), &m, db, err, sizeof err);
    if (rc != HB_OK) fail_msg("%s did not load: %s", name, err);
    assert_non_null(m);
    return m;
}

static char *make_tmpdir(void)
{
    char *dir = malloc(64);
    assert_non_null(dir);
    assert_true(tmp_dir_make(dir, 64, "map_io"));
    return dir;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path)
{
    char *text = NULL, err[HB_ERR_MAX];
    size_t len;
    if (hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err) != HB_OK)
        fail_msg("cannot read %s: %s", path, err);
    return text;
}

static void assert_combatants_equal(const map_combatant_t *a, const map_combatant_t *b)
{
    assert_string_equal(a->id, b->id);
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->faction, b->faction);
    assert_string_equal(a->template_name, b->template_name);
    assert_int_equal(a->at.col, b->at.col);
    assert_int_equal(a->at.row, b->at.row);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->speed_ft, b->speed_ft);
    assert_int_equal(a->fly_ft, b->fly_ft);
    assert_int_equal(a->hp, b->hp);
    assert_int_equal(a->hp_max, b->hp_max);
    assert_int_equal(a->reach_ft, b->reach_ft);
    assert_string_equal(a->token, b->token);
    assert_int_equal(a->n_weapons, b->n_weapons);
    for (int i = 0; i < a->n_weapons; i++)
        assert_string_equal(a->weapons[i], b->weapons[i]);
    assert_int_equal(a->n_stats, b->n_stats);
    for (int i = 0; i < a->n_stats; i++) {
        assert_string_equal(a->stats[i].key, b->stats[i].key);
        assert_int_equal(a->stats[i].value, b->stats[i].value);
    }
    assert_int_equal(a->given, b->given);
}

/* Everything but the legend, which a save may extend. */
static void assert_maps_equal_but_legend(const map_t *a, const map_t *b)
{
    assert_int_equal(a->version, b->version);
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->ruleset, b->ruleset);
    assert_int_equal(a->layout.orient, b->layout.orient);
    assert_int_equal(a->layout.stagger, b->layout.stagger);
    assert_int_equal(a->cols, b->cols);
    assert_int_equal(a->rows, b->rows);
    assert_int_equal(a->feet_per_hex, b->feet_per_hex);
    assert_int_equal(a->n_types, b->n_types);
    for (int i = 0; i < a->n_types; i++) {
        const terrain_t *s = &a->types[i], *t = &b->types[i];
        assert_string_equal(s->name, t->name);
        assert_int_equal(s->move, t->move);
        assert_int_equal(s->cover, t->cover);
        assert_int_equal(s->blocks_sight, t->blocks_sight);
        assert_int_equal(s->color, t->color);
        assert_string_equal(s->texture, t->texture);
        assert_string_equal(s->opens_to, t->opens_to);
        assert_int_equal(s->builtin, t->builtin);
        assert_int_equal(s->in_map, t->in_map);
    }
    assert_memory_equal(a->cells, b->cells, (size_t)a->cols * (size_t)a->rows);
    assert_int_equal(a->n_combatants, b->n_combatants);
    for (int i = 0; i < a->n_combatants; i++)
        assert_combatants_equal(&a->combatants[i], &b->combatants[i]);
    assert_int_equal(a->factions_given, b->factions_given);
    assert_int_equal(a->n_factions, b->n_factions);
    for (int i = 0; i < a->n_factions; i++) {
        assert_string_equal(a->factions[i].name, b->factions[i].name);
        assert_int_equal(a->factions[i].player, b->factions[i].player);
        assert_int_equal(a->factions[i].n_values, b->factions[i].n_values);
        assert_int_equal(a->n_options, b->n_options);
        assert_int_equal(a->options_bool, b->options_bool);
        for (int k = 0; k < a->factions[i].n_values; k++) {
            assert_string_equal(a->factions[i].values[k].key, b->factions[i].values[k].key);
            assert_int_equal(a->factions[i].values[k].value, b->factions[i].values[k].value);
        }
    }
}

static void assert_maps_equal(const map_t *a, const map_t *b)
{
    assert_maps_equal_but_legend(a, b);
    assert_int_equal(a->n_legend, b->n_legend);
    for (int i = 0; i < a->n_legend; i++) {
        assert_int_equal(a->legend_ch[i], b->legend_ch[i]);
        assert_int_equal(a->legend_type[i], b->legend_type[i]);
    }
}

static int type_at(const map_t *m, int col, int row, const char *expect_name)
{
    const terrain_t *t = map_terrain_at(m, (cell_t){col, row});
    assert_string_equal(t->name, expect_name);
    return t->move;
}

static const map_combatant_t *combatant(const map_t *m, const char *id)
{
    int i = map_find_combatant(m, id);
    if (i < 0) fail_msg("no combatant %s", id);
    return &m->combatants[i];
}

/* ---- good maps ---- */

static void test_pointy_header_and_grid(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    assert_int_equal(m->version, 1);
    assert_string_equal(m->name, "Golden Pointy");
    assert_string_equal(m->ruleset, "xhalem");
    assert_int_equal(m->layout.orient, HEX_POINTY);
    assert_int_equal(m->layout.stagger, HEX_ODD);
    assert_int_equal(m->cols, 8);
    assert_int_equal(m->rows, 6);
    assert_int_equal(m->feet_per_hex, 5);
    assert_int_equal(m->n_combatants, 6);
    map_destroy(m);
}

static void test_terrain_types_add_and_override(void **state)
{
    (void)state;
    terrain_t builtin[MAP_MAX_TERRAIN];
    int nb = 0;
    char err[HB_ERR_MAX];
    assert_int_equal(
        terrain_load_builtin(data_dir(), builtin, MAP_MAX_TERRAIN, &nb, err, sizeof err), HB_OK);
    map_t *m = load_good("pointy_xhalem.json", NULL);
    /* bog, gate, gate_open are new; water overrides the built-in in place. */
    assert_int_equal(m->n_types, nb + 3);
    int water = map_find_type(m, "water");
    int builtin_water = -1;
    for (int i = 0; i < nb; i++)
        if (!strcmp(builtin[i].name, "water")) builtin_water = i;
    assert_true(builtin_water >= 0);
    assert_int_equal(water, builtin_water);
    assert_true(m->types[water].in_map);
    assert_true(m->types[water].builtin);
    assert_int_equal(m->types[water].move, 0);
    assert_int_equal(m->types[water].cover, COVER_LIGHT);
    assert_int_equal(m->types[water].color, 0x1030a0);
    assert_string_equal(m->types[water].texture, "textures/water.png");

    int bog = map_find_type(m, "bog");
    assert_true(bog >= nb);
    assert_true(m->types[bog].in_map);
    assert_false(m->types[bog].builtin);
    assert_int_equal(m->types[bog].move, 2);
    assert_int_equal(m->types[bog].color, 0x556b2f);

    int gate = map_find_type(m, "gate");
    assert_string_equal(m->types[gate].opens_to, "gate_open");
    assert_true(m->types[gate].blocks_sight);
    assert_int_equal(m->types[gate].cover, COVER_TOTAL);
    /* Upper-case hex digits are accepted. */
    assert_int_equal(m->types[map_find_type(m, "gate_open")].color, 0xa08060);

    /* Built-ins the map does not mention are unchanged and not in_map. */
    int wall = map_find_type(m, "wall");
    assert_false(m->types[wall].in_map);
    assert_int_equal(m->types[wall].move, builtin[wall].move);
    map_destroy(m);
}

static void test_terrain_cells(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    assert_int_equal(type_at(m, 0, 0, "open"), 1);
    assert_int_equal(type_at(m, 2, 0, "brush"), 2);
    assert_int_equal(type_at(m, 6, 0, "wall"), 0);
    assert_int_equal(type_at(m, 1, 1, "bog"), 2);
    assert_int_equal(type_at(m, 2, 2, "water"), 0);
    assert_int_equal(type_at(m, 6, 2, "gate"), 0);
    assert_int_equal(type_at(m, 6, 4, "gate_open"), 1);
    assert_int_equal(type_at(m, 7, 5, "road"), 1);
    assert_int_equal(m->n_legend, 8);
    map_destroy(m);
}

static void test_template_defaults(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_good("pointy_xhalem.json", &db);
    assert_non_null(db);
    const tmpl_t *t = tmpl_find(db, "scout");
    assert_non_null(t);
    const map_combatant_t *c = combatant(m, "kara");
    assert_string_equal(c->template_name, "scout");
    assert_string_equal(c->name, t->name);
    assert_string_equal(c->name, "Ridge Scout");
    assert_int_equal(c->kind, t->kind);
    assert_int_equal(c->size, SIZE_MEDIUM);
    assert_int_equal(c->speed_ft, t->speed_ft);
    assert_int_equal(c->hp, t->hp);
    assert_int_equal(c->hp_max, t->hp);
    assert_int_equal(c->n_weapons, t->n_weapons);
    assert_true(c->n_weapons > 0);
    for (int i = 0; i < c->n_weapons; i++)
        assert_string_equal(c->weapons[i], t->weapons[i]);
    assert_int_equal(c->given, 0);
    assert_int_equal(c->n_stats, 0);
    assert_string_equal(c->faction, "players");
    assert_int_equal(c->at.col, 0);
    assert_int_equal(c->at.row, 0);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_template_overrides(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_good("pointy_xhalem.json", &db);
    const tmpl_t *t = tmpl_find(db, "brute");
    const map_combatant_t *c = combatant(m, "dren");
    assert_string_equal(c->name, "Dren Holt");
    assert_int_equal(c->hp, 40);
    assert_int_equal(c->hp_max, 40);
    assert_int_equal(c->speed_ft, 20);
    assert_int_not_equal(t->speed_ft, 20);
    assert_int_equal(c->given, GIVEN_NAME | GIVEN_HP | GIVEN_SPEED);
    /* Stats hold only the file's overrides; the template keeps the rest. */
    int v = 0;
    assert_int_equal(c->n_stats, 2);
    assert_true(map_combatant_stat(c, "strength", &v));
    assert_int_equal(v, 5);
    assert_true(map_combatant_stat(c, "evasion", &v));
    assert_int_equal(v, -1);
    assert_false(map_combatant_stat(c, "agility", &v));
    assert_int_equal(c->n_weapons, t->n_weapons);
    assert_string_equal(c->weapons[0], t->weapons[0]);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_no_template_defaults(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    const map_combatant_t *c = combatant(m, "plain");
    assert_string_equal(c->name, "plain");
    assert_string_equal(c->template_name, "");
    assert_int_equal(c->kind, KIND_CREATURE);
    assert_int_equal(c->size, SIZE_MEDIUM);
    assert_int_equal(c->speed_ft, 30);
    assert_int_equal(c->hp, 10);
    assert_int_equal(c->hp_max, 10);
    assert_int_equal(c->n_weapons, 0);
    assert_int_equal(c->reach_ft, 0);
    assert_int_equal(c->fly_ft, 0);
    assert_string_equal(c->token, "");
    assert_int_equal(c->given, 0);
    map_destroy(m);
}

static void test_no_template_overrides(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    const map_combatant_t *c = combatant(m, "bigmech");
    assert_int_equal(c->kind, KIND_MACHINE);
    assert_int_equal(c->size, SIZE_GARGANTUAN);
    assert_int_equal(c->speed_ft, 525);
    assert_int_equal(c->reach_ft, 150);
    assert_int_equal(c->fly_ft, 0);
    assert_int_equal(c->hp, 10);
    assert_int_equal(c->n_weapons, 2);
    assert_string_equal(c->weapons[0], "sunspear_battery");
    assert_string_equal(c->weapons[1], "crushing_stomp");
    assert_string_equal(c->token, "tokens/bigmech.png");
    assert_int_equal(c->given, GIVEN_KIND | GIVEN_SIZE | GIVEN_SPEED | GIVEN_REACH | GIVEN_FLY |
                                   GIVEN_WEAPONS | GIVEN_TOKEN);
    map_destroy(m);
}

static void test_overrides_on_machine_template(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_good("pointy_xhalem.json", &db);
    const tmpl_t *t = tmpl_find(db, "wasp");
    const map_combatant_t *c = combatant(m, "wasp-2");
    assert_int_equal(c->kind, KIND_MACHINE);
    assert_int_equal(t->size, SIZE_SMALL);
    assert_int_equal(c->size, SIZE_MEDIUM);
    /* An explicit empty list disarms it, and is remembered as given. */
    assert_int_equal(c->n_weapons, 0);
    assert_true(t->n_weapons > 0);
    assert_int_equal(c->given, GIVEN_NAME | GIVEN_WEAPONS | GIVEN_SIZE);
    assert_int_equal(c->speed_ft, t->speed_ft);
    assert_int_equal(c->fly_ft, t->fly_ft);

    const map_combatant_t *h = combatant(m, "hound_1");
    assert_int_equal(h->size, SIZE_LARGE);
    assert_int_equal(h->reach_ft, 10);
    assert_string_equal(h->token, "");
    assert_int_equal(h->given, GIVEN_KIND | GIVEN_REACH | GIVEN_TOKEN);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_factions(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    assert_true(m->factions_given);
    assert_int_equal(m->n_factions, 3);
    assert_true(map_faction_is_player(m, "players"));
    assert_false(map_faction_is_player(m, "raiders")); /* "referee" = architect */
    assert_true(map_faction_is_player(m, "allies"));
    assert_false(map_faction_is_player(m, "strangers"));
    map_destroy(m);
}

static void test_flat_scars_map(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_good("flat_scars.json", &db);
    assert_string_equal(m->name, "Golden Flat \"Salt\" Run");
    assert_string_equal(m->ruleset, "scars");
    assert_string_equal(db->ruleset, "scars");
    assert_int_equal(m->layout.orient, HEX_FLAT);
    assert_int_equal(m->layout.stagger, HEX_EVEN);
    assert_int_equal(m->feet_per_hex, 15);
    assert_false(m->factions_given);
    assert_true(map_faction_is_player(m, "players"));
    assert_false(map_faction_is_player(m, "crew"));
    type_at(m, 3, 0, "chasm");
    type_at(m, 3, 1, "door");
    type_at(m, 2, 2, "door_open");

    const map_combatant_t *pack = combatant(m, "pack");
    int v = 0;
    const tmpl_t *t = tmpl_find(db, pack->template_name);
    assert_non_null(t);
    assert_true(stat_get(t->stats, t->n_stats, "detachment", &v));
    assert_int_equal(v, 1);
    assert_int_equal(pack->n_stats, 0);

    const map_combatant_t *vex = combatant(m, "vex");
    assert_true(map_combatant_stat(vex, "str", &v));
    assert_int_equal(v, 14);
    assert_true(map_combatant_stat(vex, "armor", &v));
    assert_int_equal(v, 2);
    assert_int_equal(vex->n_weapons, 2);
    assert_string_equal(vex->weapons[1], "frag_charge");

    const map_combatant_t *tiny = combatant(m, "tiny");
    assert_int_equal(tiny->size, SIZE_TINY);
    assert_int_equal(tiny->hp, 2);
    assert_int_equal(tiny->speed_ft, 15);
    assert_int_equal(tiny->given, GIVEN_SIZE | GIVEN_HP | GIVEN_SPEED);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_minimal_map_defaults(void **state)
{
    (void)state;
    map_t *m = load_good("minimal.json", NULL);
    assert_string_equal(m->ruleset, "xhalem");
    assert_string_equal(m->name, "");
    assert_int_equal(m->feet_per_hex, 5);
    assert_int_equal(m->layout.stagger, HEX_EVEN);
    assert_int_equal(m->n_combatants, 0);
    assert_null(m->combatants);
    assert_false(m->factions_given);
    type_at(m, 0, 0, "open");
    map_destroy(m);
}

static void test_sample_maps_load(void **state)
{
    (void)state;
    const char *dir = HB_SOURCE_DIR "/maps";
    DIR *d = opendir(dir);
    if (!d) skip();
    int loaded = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[2048], err[HB_ERR_MAX] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        map_t *m = NULL;
        int rc = map_load(path, data_dir(), &m, NULL, err, sizeof err);
        if (rc != HB_OK) fail_msg("%s", err);
        assert_true(m->n_combatants > 0);
        map_destroy(m);
        loaded++;
    }
    closedir(d);
    assert_true(loaded > 0);
}

/* ---- refusals ---- */

typedef struct {
    const char *file;
    const char *msg; /* what follows "PATH: " */
    bool prefix;     /* the message may go on (lists that grow with the project) */
} bad_case_t;

static const bad_case_t BAD[] = {
    {"format.json", "format: expected \"hexbattle-map\", found \"hexbattle-mop\"", false},
    {"version.json", "version: this program reads version 1, found 2", false},
    {"root_array.json", "(root): expected an object, found array", false},
    {"ruleset_unknown.json", "ruleset: unknown ruleset 'chess' (known: xhalem, scars", true},
    {"ruleset_number.json", "ruleset: expected a string, found number", false},
    {"name_too_long.json", "name: longer than 95 characters", false},
    {"grid_missing.json", "grid: required but missing", false},
    {"grid_cols_string.json", "grid.cols: expected an integer, found string", false},
    {"grid_cols_fraction.json", "grid.cols: expected an integer, found 6.5", false},
    {"grid_cols_too_big.json", "grid.cols: expected an integer from 1 to 1024, found 2000", false},
    {"grid_rows_zero.json", "grid.rows: expected an integer from 1 to 1024, found 0", false},
    {"grid_orientation.json",
     "grid.orientation: expected \"pointy\" or \"flat\", found \"diagonal\"", false},
    {"grid_stagger.json", "grid.stagger: expected \"odd\" or \"even\", found number", false},
    {"grid_feet_zero.json", "grid.feet_per_hex: expected an integer from 1 to 1000, found 0",
     false},
    {"terrain_missing.json", "terrain: required but missing", false},
    {"terrain_rows_count.json", "terrain.rows: expected 4 rows (grid.rows), found 3", false},
    {"terrain_row_length.json", "terrain.rows[2]: expected 6 characters, found 5", false},
    {"terrain_row_number.json", "terrain.rows[1]: expected a string, found number", false},
    {"terrain_char_unknown.json", "terrain.rows[1]: column 3: 'x' is not in the legend", false},
    {"legend_key_long.json", "terrain.legend.ab: legend keys must be exactly one character", false},
    {"legend_key_empty.json", "terrain.legend[\"\"]: legend keys must be exactly one character",
     false},
    {"legend_key_twice.json", "terrain.legend[\".\"]: given twice", false},
    {"legend_unknown_type.json", "terrain.legend.b: unknown terrain type 'bogg'", false},
    {"legend_not_object.json", "terrain.legend: expected an object, found array", false},
    {"legend_too_many.json", "terrain.legend[\"`\"]: more than 64 legend entries", false},
    {"types_not_object.json", "terrain_types: expected an object, found array", false},
    {"type_move.json",
     "terrain_types.bog.move: expected 1 (open), 2 (difficult) or 0 (impassable), found 3", false},
    {"type_cover.json",
     "terrain_types.bog.cover: unknown cover 'medium' (none, light, heavy or total)", false},
    {"type_color.json", "terrain_types.bog.color: expected a colour \"#rrggbb\", found \"#12345\"",
     false},
    {"type_color_name.json",
     "terrain_types.bog.color: expected a colour \"#rrggbb\", found \"green\"", false},
    {"type_color_missing.json", "terrain_types.bog.color: required but missing", false},
    {"type_blocks_sight.json",
     "terrain_types.bog.blocks_sight: expected true or false, found string", false},
    {"type_opens_to.json", "terrain_types.gate.opens_to: unknown terrain type 'gate_open'", false},
    {"combatants_object.json", "combatants: expected an array, found object", false},
    {"combatant_not_object.json", "combatants[1]: expected an object, found string", false},
    {"combatant_id_missing.json", "combatants[1].id: required but missing", false},
    {"combatant_id_chars.json",
     "combatants[0].id: 'kara voss' is not a valid id (letters, digits, '_' and '-')", false},
    {"combatant_id_duplicate.json", "combatants[2].id: duplicate id 'kara' (also combatants[0])",
     false},
    {"combatant_faction_missing.json", "combatants[2].faction: required but missing", false},
    {"combatant_at_off_map.json", "combatants[2].at: (6, 1) is off the 6x4 map", false},
    {"combatant_at_negative.json",
     "combatants[2].at[1]: expected an integer from 0 to 1023, found -1", false},
    {"combatant_at_shape.json", "combatants[0].at: expected [col, row], found an array of 3 values",
     false},
    {"combatant_at_string.json", "combatants[0].at[1]: expected an integer, found string", false},
    {"combatant_stacked.json", "combatants[2].at: 'dren' and 'skit' both stand on (1, 0)", false},
    {"combatant_impassable.json", "combatants[2].at: (3, 3) is impassable terrain (wall)", false},
    {"combatant_template_unknown.json",
     "combatants[1].template: no template 'brutee' in ruleset xhalem", false},
    {"combatant_weapon_unknown.json",
     "combatants[0].weapons[1]: no weapon 'laser_sword' in ruleset xhalem", false},
    {"combatant_weapons_too_many.json", "combatants[0].weapons: 13 weapons; at most 12 are allowed",
     false},
    {"combatant_machine_giant.json",
     "combatants[2].size: a machine cannot be giant (machines are small, medium, large or "
     "gargantuan)",
     false},
    {"combatant_creature_gargantuan.json",
     "combatants[0].size: a creature cannot be gargantuan (creatures are tiny to behemoth)", false},
    {"combatant_kind_breaks_template.json",
     "combatants[2].kind: a creature cannot be gargantuan (creatures are tiny to behemoth)", false},
    {"combatant_size_unknown.json",
     "combatants[0].size: unknown size 'huge' (tiny, small, medium, large, extra_large, giant, "
     "behemoth or gargantuan)",
     false},
    {"combatant_kind_unknown.json",
     "combatants[0].kind: unknown kind 'robot' (creature or machine)", false},
    {"combatant_hp_zero.json", "combatants[1].hp: expected an integer from 1 to 100000, found 0",
     false},
    {"combatant_speed_negative.json",
     "combatants[1].speed: expected an integer from 0 to 10000, found -5", false},
    /* Numbers the rules would overflow on (issue 30): each has a range. */
    {"combatant_speed_huge.json",
     "combatants[1].speed: expected an integer from 0 to 10000, found 2147483647", false},
    {"combatant_hp_huge.json",
     "combatants[1].hp: expected an integer from 1 to 100000, found 2147483647", false},
    {"combatant_stat_huge.json",
     "combatants[0].stats.agility: expected an integer from -10000 to 10000, found -2147483648",
     false},
    {"combatant_stat_string.json", "combatants[0].stats.agility: expected an integer, found string",
     false},
    {"combatant_name_number.json", "combatants[0].name: expected a string, found number", false},
    {"combatant_stats_too_many.json", "combatants[0].stats.s24: more than 24 stats", false},
    {"factions_too_many.json", "factions.side16: more than 16 factions", false},
    {"combatants_too_many.json", "combatants: 513 combatants; at most 512 are allowed", false},
    {"factions_value.json",
     "factions.raiders: expected \"player\", \"architect\" or \"referee\", found \"npc\"", false},
    {"factions_array.json", "factions: expected an object, found array", false},
    {"factions_control_missing.json", "factions.raiders.control: required but missing", false},
    {"options_not_object.json", "options: expected an object, found array", false},
    {"options_value_string.json",
     "options.group_initiative: expected true, false or an integer, found string", false},
    {"options_too_many.json", "options.o8: more than 8 options", false},
    {"factions_control_bad.json",
     "factions.raiders.control: expected \"player\", \"architect\" or \"referee\", found \"npc\"",
     false},
    {"factions_morale_string.json", "factions.raiders.morale: expected an integer, found string",
     false},
    {"factions_morale_high.json",
     "factions.raiders.morale: expected an integer from 0 to 12, found 13", false},
    {"factions_scores_too_many.json", "factions.raiders.s8: more than 8 faction scores", false},
    {"json_broken.json", "(root): invalid JSON at line 5, column 3", false},
    {"json_trailing.json",
     "(root): invalid JSON at line 2, column 1: text after the end of the document", false},
    {"json_empty.json", "(root): invalid JSON: the file is empty", false},
    {"json_truncated.json", "(root): invalid JSON at line 11, column 6", false},
    {"json_deep.json",
     "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
     "[0][0]: nested deeper than 32 levels (line 1, column 33)",
     false},
    /* Strict JSON: what cJSON alone would let through. */
    {"json_nul_between.json", "(root): a NUL byte in the file (line 5, column 1)", false},
    {"json_nul_in_string.json", "name: a NUL byte inside a string (line 4, column 15)", false},
    {"json_nul_escape.json", "name: a NUL (\\u0000) inside a string (line 4, column 15)", false},
    {"json_control_outside.json",
     "(root): control character 0x0c outside a string (line 5, column 1)", false},
    {"json_control_in_string.json",
     "terrain.rows[0]: control character 0x09 inside a string (write it escaped) (line 28, "
     "column 12)",
     false},
    {"json_utf8_invalid.json", "name: invalid UTF-8 inside a string (line 4, column 16)", false},
    {"json_utf8_overlong.json", "name: invalid UTF-8 inside a string (line 4, column 16)", false},
    {"json_utf8_surrogate.json",
     "combatants[2].id: invalid UTF-8 inside a string (line 54, column 16)", false},
    {"json_key_twice.json", "terrain_types.bog.move: given twice", false},
    {"json_int_overflow.json",
     "grid.cols: number 4294967302 is out of range (-2147483648..2147483647) (line 9, column 13)",
     false},
    {"json_number_huge.json",
     "combatants[1].at[0]: number 1e309 is out of range (-2147483648..2147483647) (line 48, "
     "column 9)",
     false},
    {"json_nested_deep.json", "combatants[2].notes.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a", true},
};

static void test_bad_file(void **state)
{
    const bad_case_t *bc = *state;
    char path[1024], expect[1600], err[HB_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/bad/%s", HB_TEST_DATA, bc->file);
    snprintf(expect, sizeof expect, "%s: %s", path, bc->msg);
    map_t *m = (map_t *)&err; /* must be reset to NULL */
    tmpl_db_t *db = (tmpl_db_t *)&err;
    int rc = map_load(path, data_dir(), &m, &db, err, sizeof err);
    assert_int_equal(rc, HB_ERR_INPUT);
    assert_null(m);
    assert_null(db);
    if (bc->prefix)
        assert_memory_equal(err, expect, strlen(expect));
    else
        assert_string_equal(err, expect);
}

static void test_bad_types_too_many(void **state)
{
    (void)state;
    terrain_t builtin[MAP_MAX_TERRAIN];
    int nb = 0;
    char err[HB_ERR_MAX], path[1024], expect[1600];
    assert_int_equal(
        terrain_load_builtin(data_dir(), builtin, MAP_MAX_TERRAIN, &nb, err, sizeof err), HB_OK);
    /* The map adds bog, then t00, t01, ...: the first one past the limit is refused. */
    int first_refused = MAP_MAX_TERRAIN - nb - 1;
    snprintf(path, sizeof path, "%s/bad/types_too_many.json", HB_TEST_DATA);
    snprintf(expect, sizeof expect, "%s: terrain_types.t%02d: more than %d terrain types", path,
             first_refused, MAP_MAX_TERRAIN);
    map_t *m = NULL;
    assert_int_equal(map_load(path, data_dir(), &m, NULL, err, sizeof err), HB_ERR_INPUT);
    assert_null(m);
    assert_string_equal(err, expect);
}

static void test_bad_base_is_good(void **state)
{
    /* The bad files each change one thing in this map, so it must itself load. */
    (void)state;
    map_t *m = load_good("bad_base.json", NULL);
    assert_int_equal(m->n_combatants, 3);
    map_destroy(m);
}

static void test_missing_file(void **state)
{
    (void)state;
    char path[1024], expect[1100], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/bad/no_such_map.json", HB_TEST_DATA);
    snprintf(expect, sizeof expect, "%s: %s", path, strerror(ENOENT));
    map_t *m = NULL;
    assert_int_equal(map_load(path, data_dir(), &m, NULL, err, sizeof err), HB_ERR_INPUT);
    assert_null(m);
    assert_string_equal(err, expect);
}

static void test_oversize_map_refused(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[1024], expect[1200], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/huge.json", dir);
    /* A sparse file: 17 MiB long but costs no disk, and it is not JSON at all,
     * so only a size check made before parsing can give this message. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)HB_FILE_MAX + 1024 * 1024), 0);
    close(fd);
    snprintf(expect, sizeof expect, "%s: file is %u bytes, over the 16 MiB limit", path,
             HB_FILE_MAX + 1024u * 1024u);
    map_t *m = NULL;
    assert_int_equal(map_load(path, data_dir(), &m, NULL, err, sizeof err), HB_ERR_INPUT);
    assert_null(m);
    assert_string_equal(err, expect);
    tmp_dir_remove(dir);
    free(dir);
}

static void test_load_mem_is_bounded(void **state)
{
    (void)state;
    /* Only len bytes count: the garbage after them must never be read. */
    const char *ok = "{\"format\":\"hexbattle-map\",\"version\":1,\"grid\":{\"orientation\":"
                     "\"flat\",\"stagger\":\"odd\",\"cols\":2,\"rows\":1},\"terrain\":{\"legend\":"
                     "{\".\":\"open\",\"#\":\"wall\"},\"rows\":[\".#\"]}}";
    size_t len = strlen(ok);
    char *buf = malloc(len + 8);
    assert_non_null(buf);
    memcpy(buf, ok, len);
    memcpy(buf + len, "GARBAGE", 8);
    map_t *m = NULL;
    char err[HB_ERR_MAX] = "";
    assert_int_equal(map_load_mem(buf, len, "inline.json", data_dir(), &m, NULL, err, sizeof err),
                     HB_OK);
    assert_int_equal(m->cols, 2);
    type_at(m, 1, 0, "wall");
    map_destroy(m);
    /* With the garbage counted in, the same text is refused, and named as given. */
    assert_int_equal(
        map_load_mem(buf, len + 7, "inline.json", data_dir(), &m, NULL, err, sizeof err),
        HB_ERR_INPUT);
    assert_null(m);
    assert_non_null(strstr(err, "inline.json: (root): invalid JSON at line 1, column"));
    free(buf);
}

/* A fixed-seed generator so the mutation test is repeatable. */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_mutated_maps_never_crash(void **state)
{
    (void)state;
    char path[1024];
    good_path(path, sizeof path, "pointy_xhalem.json");
    char *orig = slurp(path);
    size_t len = strlen(orig);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    static const char NOISE[] = "{}[]\",:0123456789-.eE tfnrux#\\";
    uint32_t seed = 12345;
    int refused = 0, accepted = 0;
    for (int round = 0; round < 1500; round++) {
        memcpy(buf, orig, len + 1);
        size_t use = len;
        int edits = 1 + (int)(lcg(&seed) % 3);
        for (int k = 0; k < edits; k++)
            buf[lcg(&seed) % len] = NOISE[lcg(&seed) % (sizeof NOISE - 1)];
        if (round % 5 == 0) use = lcg(&seed) % len; /* a truncated file too */
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        char err[HB_ERR_MAX] = "";
        int rc = map_load_mem(buf, use, "fuzz.json", data_dir(), &m, &db, err, sizeof err);
        if (rc == HB_OK) {
            assert_non_null(m);
            assert_non_null(db);
            accepted++;
        } else {
            assert_int_equal(rc, HB_ERR_INPUT);
            assert_null(m);
            assert_null(db);
            /* Every refusal names the file and a JSON path. */
            assert_memory_equal(err, "fuzz.json: ", 11);
            assert_non_null(strchr(err + 11, ':'));
            refused++;
        }
        map_destroy(m);
        tmpl_db_destroy(db);
    }
    assert_true(refused > 0);
    free(buf);
    free(orig);
}

/* ---- saving ---- */

static void round_trip(const char *name)
{
    char *dir = make_tmpdir();
    char path[1024], err[HB_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/saved.json", dir);
    map_t *a = load_good(name, NULL);
    assert_int_equal(map_save(a, path, err, sizeof err), HB_OK);
    map_t *b = NULL;
    if (map_load(path, data_dir(), &b, NULL, err, sizeof err) != HB_OK)
        fail_msg("reload failed: %s", err);
    assert_maps_equal(a, b);
    /* And the saved text is a fixed point: saving b gives the same bytes. */
    char *ta = map_to_json(a), *tb = map_to_json(b);
    assert_string_equal(ta, tb);
    free(ta);
    free(tb);
    map_destroy(a);
    map_destroy(b);
    tmp_dir_remove(dir);
    free(dir);
}

static void test_round_trip_pointy(void **state)
{
    (void)state;
    round_trip("pointy_xhalem.json");
}

static void test_round_trip_flat(void **state)
{
    (void)state;
    round_trip("flat_scars.json");
}

static void test_round_trip_minimal(void **state)
{
    (void)state;
    round_trip("minimal.json");
}

/* Factions as objects (G8): control plus side-level scores such as morale,
 * beside the plain strings of version 1. Written back in the object form
 * only where a score is given; the editor's control switch keeps the
 * scores. */
/* Rule options: a boolean and a number, read, kept in their form and written
 * back the same. */
static void test_map_options(void **state)
{
    (void)state;
    map_t *m = load_good("map_options.json", NULL);
    int v = 0;
    assert_true(map_option(m, "group_initiative", &v));
    assert_int_equal(v, 1);
    assert_true(map_option(m, "warmup_rounds", &v));
    assert_int_equal(v, 2);
    assert_false(map_option(m, "nothing", &v));
    char *text = map_to_json(m);
    assert_non_null(strstr(text, "\"group_initiative\":\ttrue"));
    assert_non_null(strstr(text, "\"warmup_rounds\":\t2"));
    free(text);
    map_destroy(m);
    round_trip("map_options.json");
}

static void test_faction_objects(void **state)
{
    (void)state;
    map_t *m = load_good("faction_objects.json", NULL);
    assert_int_equal(m->n_factions, 3);
    assert_true(map_faction_is_player(m, "players"));
    assert_false(map_faction_is_player(m, "raiders"));
    assert_true(map_faction_is_player(m, "allies"));
    int v = 0;
    assert_true(map_faction_value(m, "raiders", "morale", &v));
    assert_int_equal(v, 9);
    assert_true(map_faction_value(m, "raiders", "supply", &v));
    assert_int_equal(v, -2);
    assert_false(map_faction_value(m, "players", "morale", &v));
    assert_false(map_faction_value(m, "nobody", "morale", &v));
    char *text = map_to_json(m);
    assert_non_null(strstr(text, "\"raiders\":\t{"));
    assert_non_null(strstr(text, "\"control\":\t\"architect\""));
    assert_non_null(strstr(text, "\"morale\":\t9"));
    assert_non_null(strstr(text, "\"allies\":\t\"player\""));
    free(text);
    edit_t e;
    assert_true(edit_faction_set(m, "raiders", true, &e));
    assert_true(edit_apply(m, &e));
    assert_true(map_faction_is_player(m, "raiders"));
    assert_true(map_faction_value(m, "raiders", "morale", &v));
    assert_int_equal(v, 9);
    assert_true(edit_apply(m, &e)); /* undo */
    assert_false(map_faction_is_player(m, "raiders"));
    edit_free(&e);
    map_destroy(m);
    round_trip("faction_objects.json");
}

static void test_round_trip_after_edits(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[1024], err[HB_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/edited.json", dir);
    map_t *a = load_good("pointy_xhalem.json", NULL);
    /* Paint a type the legend lacks, move someone, and set a new field. */
    int forest = map_find_type(a, "forest");
    assert_true(forest >= 0);
    a->cells[map_index(a, (cell_t){5, 5})] = (uint8_t)forest;
    int k = map_find_combatant(a, "plain");
    a->combatants[k].at = (cell_t){3, 5};
    a->combatants[k].speed_ft = 45;
    a->combatants[k].given |= GIVEN_SPEED;
    assert_int_equal(map_save(a, path, err, sizeof err), HB_OK);
    map_t *b = NULL;
    if (map_load(path, data_dir(), &b, NULL, err, sizeof err) != HB_OK)
        fail_msg("reload failed: %s", err);
    assert_maps_equal_but_legend(a, b);
    assert_int_equal(b->n_legend, a->n_legend + 1);
    assert_int_equal(b->legend_type[b->n_legend - 1], forest);
    type_at(b, 5, 5, "forest");
    assert_int_equal(b->combatants[k].speed_ft, 45);
    map_destroy(a);
    map_destroy(b);
    tmp_dir_remove(dir);
    free(dir);
}

static const cJSON *saved_combatant(const cJSON *root, const char *id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "combatants"))
    {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "id");
        if (cJSON_IsString(v) && !strcmp(v->valuestring, id)) return c;
    }
    fail_msg("no %s in saved JSON", id);
    return NULL;
}

static int count_keys(const cJSON *o)
{
    int n = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, o) n++;
    return n;
}

static void test_save_writes_only_given_fields(void **state)
{
    (void)state;
    map_t *m = load_good("pointy_xhalem.json", NULL);
    char *text = map_to_json(m);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    const cJSON *kara = saved_combatant(root, "kara");
    assert_int_equal(count_keys(kara), 4); /* id, faction, at, template */
    assert_null(cJSON_GetObjectItemCaseSensitive(kara, "hp"));
    assert_null(cJSON_GetObjectItemCaseSensitive(kara, "name"));
    const cJSON *dren = saved_combatant(root, "dren");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(dren, "hp")->valueint, 40);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(dren, "name")->valuestring, "Dren Holt");
    assert_null(cJSON_GetObjectItemCaseSensitive(dren, "weapons"));
    assert_null(cJSON_GetObjectItemCaseSensitive(dren, "kind"));
    const cJSON *plain = saved_combatant(root, "plain");
    assert_null(cJSON_GetObjectItemCaseSensitive(plain, "template"));
    assert_int_equal(count_keys(plain), 3);
    /* Only the map's own terrain types are written, built-ins are not. */
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "terrain_types");
    assert_int_equal(count_keys(types), 4);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(types, "water"));
    assert_null(cJSON_GetObjectItemCaseSensitive(types, "wall"));
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "factions");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(f, "raiders")->valuestring, "architect");
    cJSON_Delete(root);
    free(text);
    map_destroy(m);
}

static void test_save_keeps_bak(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[1024], bak[1100], err[HB_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/battle.json", dir);
    snprintf(bak, sizeof bak, "%s.bak", path);
    write_text(path, "the old version\n");
    map_t *m = load_good("flat_scars.json", NULL);
    assert_int_equal(map_save(m, path, err, sizeof err), HB_OK);
    char *kept = slurp(bak);
    assert_string_equal(kept, "the old version\n");
    free(kept);
    char *first = slurp(path);
    char *expect = map_to_json(m);
    assert_string_equal(first, expect);
    free(expect);
    /* A second save keeps the first save as the backup. */
    m->combatants[0].hp_max = m->combatants[0].hp = 7;
    m->combatants[0].given |= GIVEN_HP;
    assert_int_equal(map_save(m, path, err, sizeof err), HB_OK);
    kept = slurp(bak);
    assert_string_equal(kept, first);
    free(kept);
    free(first);
    assert_int_equal(tmp_dir_count(dir), 2); /* no temporary files left */
    map_destroy(m);
    tmp_dir_remove(dir);
    free(dir);
}

static void test_failed_save_leaves_target(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[1024], bakdir[1100], inside[1200], err[HB_ERR_MAX] = "";
    map_t *m = load_good("minimal.json", NULL);

    /* The parent is a regular file: nothing can be created there. */
    char parent_file[512];
    snprintf(parent_file, sizeof parent_file, "%s/plain_file", dir);
    write_text(parent_file, "x");
    snprintf(path, sizeof path, "%s/map.json", parent_file);
    assert_int_equal(map_save(m, path, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, path));
#ifdef _WIN32
    /* Windows says the path is not found (make test-windows). */
    assert_non_null(strstr(err, strerror(ENOENT)));
#else
    assert_non_null(strstr(err, strerror(ENOTDIR)));
#endif

    /* A missing folder. */
    snprintf(path, sizeof path, "%s/no_such_dir/map.json", dir);
    assert_int_equal(map_save(m, path, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, strerror(ENOENT)));

    /* The backup cannot be replaced (a non-empty folder is in the way), so the
     * save must fail with the target exactly as it was. */
    snprintf(path, sizeof path, "%s/keep.json", dir);
    write_text(path, "precious\n");
    snprintf(bakdir, sizeof bakdir, "%s.bak", path);
    assert_int_equal(mkdir(bakdir, 0755), 0);
    snprintf(inside, sizeof inside, "%s/blocker", bakdir);
    write_text(inside, "y");
    assert_int_equal(map_save(m, path, err, sizeof err), HB_ERR_OTHER);
    char *now = slurp(path);
    assert_string_equal(now, "precious\n");
    free(now);
    assert_int_equal(tmp_dir_count(dir), 3); /* plain_file, keep.json, keep.json.bak */
    map_destroy(m);
    tmp_dir_remove(dir);
    free(dir);
}

/* ---- shipped data ---- */

static void test_data_terrain(void **state)
{
    (void)state;
    terrain_t t[MAP_MAX_TERRAIN];
    int n = 0;
    char err[HB_ERR_MAX] = "";
    if (terrain_load_builtin(data_dir(), t, MAP_MAX_TERRAIN, &n, err, sizeof err) != HB_OK)
        fail_msg("%s", err);
    struct {
        const char *name;
        int move;
        cover_t cover;
        bool blocks;
    } want[] = {
        {"open", 1, COVER_NONE, false},      {"brush", 2, COVER_LIGHT, false},
        {"rubble", 2, COVER_HEAVY, false},   {"water", 2, COVER_NONE, false},
        {"wall", 0, COVER_TOTAL, true},      {"door", 0, COVER_TOTAL, true},
        {"door_open", 1, COVER_NONE, false},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(t[i].name, want[w].name)) found = i;
        if (found < 0) fail_msg("terrain.json lacks %s", want[w].name);
        assert_int_equal(t[found].move, want[w].move);
        assert_int_equal(t[found].cover, want[w].cover);
        assert_int_equal(t[found].blocks_sight, want[w].blocks);
        assert_true(t[found].builtin);
        assert_false(t[found].in_map);
    }
    /* type 0 is what a new map is filled with: it must be walkable. */
    assert_string_equal(t[0].name, "open");
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            assert_int_not_equal(t[i].color, t[k].color);
}

static void test_data_xhalem(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX] = "";
    if (tmpl_db_load(data_dir(), "xhalem", &db, err, sizeof err) != HB_OK) fail_msg("%s", err);
    struct {
        const char *id;
        ckind_t kind;
        csize_t size;
    } want[] = {
        {"scout", KIND_CREATURE, SIZE_MEDIUM},
        {"brute", KIND_CREATURE, SIZE_MEDIUM},
        {"skitter", KIND_CREATURE, SIZE_SMALL},
        {"dust_hound", KIND_CREATURE, SIZE_LARGE},
        {"ridgeback", KIND_CREATURE, SIZE_EXTRA_LARGE},
        {"colossus", KIND_CREATURE, SIZE_GIANT},
        {"wasp", KIND_MACHINE, SIZE_SMALL},
        {"lancer", KIND_MACHINE, SIZE_MEDIUM},
        {"bulwark", KIND_MACHINE, SIZE_LARGE},
        {"ravager", KIND_MACHINE, SIZE_MEDIUM},
        {"longshot", KIND_MACHINE, SIZE_LARGE},
        {"leviathan", KIND_MACHINE, SIZE_GARGANTUAN},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const tmpl_t *t = tmpl_find(db, want[w].id);
        if (!t) fail_msg("xhalem lacks template %s", want[w].id);
        assert_int_equal(t->kind, want[w].kind);
        assert_int_equal(t->size, want[w].size);
    }
    static const char *const CREATURE_STATS[] = {"agility", "strength",   "evasion",
                                                 "stealth", "perception", "investigation"};
    static const char *const MACHINE_STATS[] = {"engine", "systems", "hull", "reactor", "scanners"};
    int creatures = 0, machines = 0;
    for (int i = 0; i < db->n_templates; i++) {
        const tmpl_t *t = &db->templates[i];
        assert_true(map_size_valid(t->kind, t->size));
        assert_true(t->n_weapons > 0);
        for (int k = 0; k < t->n_weapons; k++)
            assert_non_null(tmpl_find_weapon(db, t->weapons[k]));
        int v;
        if (t->kind == KIND_CREATURE) {
            creatures++;
            assert_in_range(t->hp, 10, 60);
            for (size_t s = 0; s < 6; s++) {
                if (!stat_get(t->stats, t->n_stats, CREATURE_STATS[s], &v))
                    fail_msg("%s lacks %s", t->id, CREATURE_STATS[s]);
                assert_true(v >= -1 && v <= 5);
            }
        } else {
            machines++;
            assert_in_range(t->hp, 30, 120);
            /* 25 mech hexes of 15 ft; gargantuan machines 35 hexes. */
            assert_int_equal(t->speed_ft, t->size == SIZE_GARGANTUAN ? 525 : 375);
            for (size_t s = 0; s < 5; s++) {
                if (!stat_get(t->stats, t->n_stats, MACHINE_STATS[s], &v))
                    fail_msg("%s lacks %s", t->id, MACHINE_STATS[s]);
                assert_in_range(v, 0, 5);
            }
            /* Machine melee reach is counted in mech hexes: at least 5 of them. */
            for (int k = 0; k < t->n_weapons; k++) {
                const weapon_t *w = tmpl_find_weapon(db, t->weapons[k]);
                if (w->cls == WPN_MELEE) assert_true(w->reach_ft >= 75);
            }
        }
    }
    assert_true(creatures >= 6);
    assert_true(machines >= 6);
    bool melee = false, energy = false, conventional = false, thrown = false;
    for (int i = 0; i < db->n_weapons; i++) {
        const weapon_t *w = &db->weapons[i];
        melee |= w->cls == WPN_MELEE && w->reach_ft == 5;
        energy |= w->cls == WPN_RANGED && w->energy;
        conventional |= w->cls == WPN_RANGED && !w->energy;
        thrown |= w->cls == WPN_THROWN;
        if (w->cls != WPN_MELEE) assert_true(w->range_ft > 0);
        assert_true(w->dice_n >= 1 && w->dice_sides >= 2);
    }
    assert_true(melee && energy && conventional && thrown);
    const weapon_t *blade = tmpl_find_weapon(db, "ravager_chainblade");
    assert_non_null(blade);
    assert_int_equal(blade->dice_n, 3);
    assert_int_equal(blade->dice_sides, 6);
    assert_int_equal(blade->dice_bonus, 2);
    tmpl_db_destroy(db);
}

static void test_data_scars(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX] = "";
    if (tmpl_db_load(data_dir(), "scars", &db, err, sizeof err) != HB_OK) fail_msg("%s", err);
    static const char *const IDS[] = {"trooper", "sniper", "medic",
                                      "brute",   "raider", "raider_pack"};
    for (size_t i = 0; i < sizeof IDS / sizeof IDS[0]; i++)
        if (!tmpl_find(db, IDS[i])) fail_msg("scars lacks template %s", IDS[i]);
    for (int i = 0; i < db->n_templates; i++) {
        const tmpl_t *t = &db->templates[i];
        int v;
        static const char *const ABILITY[] = {"str", "dex", "wil"};
        for (int k = 0; k < 3; k++) {
            assert_true(stat_get(t->stats, t->n_stats, ABILITY[k], &v));
            assert_in_range(v, 3, 18);
        }
        assert_true(stat_get(t->stats, t->n_stats, "armor", &v));
        assert_in_range(v, 0, 3);
        assert_true(stat_get(t->stats, t->n_stats, "hp", &v));
        assert_in_range(v, 2, 12);
        assert_int_equal(v, t->hp);
        for (int k = 0; k < t->n_weapons; k++)
            assert_non_null(tmpl_find_weapon(db, t->weapons[k]));
    }
    int v = 0;
    const tmpl_t *pack = tmpl_find(db, "raider_pack");
    assert_true(stat_get(pack->stats, pack->n_stats, "detachment", &v));
    assert_int_equal(v, 1);
    bool blast = false;
    for (int i = 0; i < db->n_weapons; i++) {
        const weapon_t *w = &db->weapons[i];
        assert_int_equal(w->dice_n, 1);
        assert_true(w->dice_sides >= 4 && w->dice_sides <= 12 && w->dice_sides % 2 == 0);
        if (w->cls != WPN_MELEE)
            assert_true(w->range_ft == 5 || w->range_ft == 50 || w->range_ft == 100);
        blast |= stat_get(w->tags, w->n_tags, "blast", &v) && v == 1;
    }
    assert_true(blast);
    tmpl_db_destroy(db);
}

static void test_data_refusals(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char sub[1100], path[1200], expect[1400], err[HB_ERR_MAX] = "";
    /* A door that opens to nothing. */
    snprintf(path, sizeof path, "%s/terrain.json", dir);
    write_text(path, "{\"format\":\"hexbattle-terrain\",\"version\":1,\"types\":{"
                     "\"open\":{\"move\":1,\"cover\":\"none\",\"color\":\"#00ff00\"},"
                     "\"door\":{\"move\":0,\"cover\":\"total\",\"blocks_sight\":true,"
                     "\"color\":\"#884400\",\"opens_to\":\"ajar\"}}}");
    terrain_t t[MAP_MAX_TERRAIN];
    int n = 5;
    assert_int_equal(terrain_load_builtin(dir, t, MAP_MAX_TERRAIN, &n, err, sizeof err),
                     HB_ERR_INPUT);
    snprintf(expect, sizeof expect, "%s: types.door.opens_to: unknown terrain type 'ajar'", path);
    assert_string_equal(err, expect);
    assert_int_equal(n, 0);

    /* A template carrying a weapon the ruleset does not have. */
    snprintf(sub, sizeof sub, "%s/toy", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof path, "%s/weapons.json", sub);
    write_text(path, "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                     "\"stick\":{\"name\":\"Stick\",\"class\":\"melee\",\"damage\":\"1d4\"},"
                     "\"sling\":{\"name\":\"Sling\",\"class\":\"thrown\",\"range\":30,"
                     "\"damage\":\"1d4+1\"}}}");
    snprintf(path, sizeof path, "%s/templates.json", sub);
    write_text(path, "{\"format\":\"hexbattle-templates\",\"version\":1,\"ruleset\":\"toy\","
                     "\"templates\":{\"imp\":{\"name\":\"Imp\",\"kind\":\"creature\",\"size\":"
                     "\"tiny\",\"speed\":20,\"hp\":3,\"weapons\":[\"stick\",\"wand\"]}}}");
    tmpl_db_t *db = (tmpl_db_t *)&n;
    assert_int_equal(tmpl_db_load(dir, "toy", &db, err, sizeof err), HB_ERR_INPUT);
    assert_null(db);
    snprintf(expect, sizeof expect, "%s: templates.imp.weapons[1]: no weapon 'wand' in ruleset toy",
             path);
    assert_string_equal(err, expect);

    /* With the weapon fixed it loads, and "1d4+1" is read as dice plus bonus. */
    write_text(path, "{\"format\":\"hexbattle-templates\",\"version\":1,\"ruleset\":\"toy\","
                     "\"templates\":{\"imp\":{\"name\":\"Imp\",\"kind\":\"creature\",\"size\":"
                     "\"tiny\",\"speed\":20,\"hp\":3,\"weapons\":[\"stick\",\"sling\"]}}}");
    assert_int_equal(tmpl_db_load(dir, "toy", &db, err, sizeof err), HB_OK);
    const weapon_t *sling = tmpl_find_weapon(db, "sling");
    assert_int_equal(sling->cls, WPN_THROWN);
    assert_int_equal(sling->dice_n, 1);
    assert_int_equal(sling->dice_sides, 4);
    assert_int_equal(sling->dice_bonus, 1);
    assert_int_equal(tmpl_find(db, "imp")->size, SIZE_TINY);
    tmpl_db_destroy(db);

    /* Bad dice. */
    snprintf(path, sizeof path, "%s/weapons.json", sub);
    write_text(path, "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                     "\"stick\":{\"name\":\"Stick\",\"class\":\"melee\",\"damage\":\"d4\"}}}");
    assert_int_equal(tmpl_db_load(dir, "toy", &db, err, sizeof err), HB_ERR_INPUT);
    snprintf(expect, sizeof expect,
             "%s: weapons.stick.damage: expected dice such as \"2d6\" or \"1d8+2\", or a flat "
             "\"+2\" or \"0\"",
             path);
    assert_string_equal(err, expect);

    /* A ruleset name cannot climb out of the data folder. */
    assert_int_equal(tmpl_db_load(dir, "../toy", &db, err, sizeof err), HB_ERR_INPUT);
    assert_null(db);
    assert_string_equal(err, "../toy: (root): not a valid ruleset name");
    tmp_dir_remove(dir);
    free(dir);
}

static char *patched(const char *text, const char *from, const char *to, size_t *len)
{
    char *out = text_patch(text, from, to, true, len);
    assert_non_null(out);
    return out;
}

/* Strict JSON in the data files (weapons, templates, terrain): each case is
 * refused with the file and the path, as in a map. */
static void test_data_strict_json(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/xhalem/weapons.json", data_dir());
    char *weapons = slurp(path);
    snprintf(path, sizeof path, "%s/xhalem/templates.json", data_dir());
    char *templates = slurp(path);
    static const struct {
        bool in_weapons;
        const char *from, *to, *want;
    } CASES[] = {
        {true, "\"weapons\": {", "\"weapons\":@{", "weapons.json: weapons: a NUL byte in the file"},
        {false, "\"Ridge Scout\"", "\"Ridge@Scout\"",
         "templates.json: templates.scout.name: a NUL byte inside a string"},
        {false, "\"templates\": {", "\"templates\":\x1b{",
         "templates.json: templates: control character 0x1b outside a string"},
        {true, "\"Hook Knife\"", "\"Hook\rKnife\"",
         "weapons.json: weapons.hook_knife.name: control character 0x0d inside a string"},
        {false, "\"Ridge Scout\"", "\"Ridge \xf5\x80\x80\x80 Scout\"",
         "templates.json: templates.scout.name: invalid UTF-8 inside a string"},
        {true, "\"reach\": 5,", "\"reach\": 5, \"reach\": 10,",
         "weapons.json: weapons.hook_knife.reach: given twice"},
        {false, "\"speed\": 30,", "\"speed\": 3000000000,",
         "templates.json: templates.scout.speed: number 3000000000 is out of range"},
        {false, "\"hp\": 18,", "\"hp\": 18e99,",
         "templates.json: templates.scout.hp: number 18e99 is out of range"},
        {true, "\"damage\": \"1d6\"",
         "\"damage\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
         "weapons.json: weapons.hook_knife.damage[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
         "[0][0][0][0][0][0][0][0][0][0][0][0][0]: nested deeper than 32 levels"},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        size_t wlen = strlen(weapons), tlen = strlen(templates);
        char *w = CASES[k].in_weapons ? patched(weapons, CASES[k].from, CASES[k].to, &wlen) : NULL;
        char *t = CASES[k].in_weapons ? NULL : patched(templates, CASES[k].from, CASES[k].to, &tlen);
        tmpl_db_t *db = NULL;
        char err[HB_ERR_MAX] = "";
        int rc = tmpl_db_load_mem("xhalem", w ? w : weapons, wlen, "weapons.json",
                                  t ? t : templates, tlen, "templates.json", &db, err, sizeof err);
        if (strncmp(err, CASES[k].want, strlen(CASES[k].want)) != 0)
            fail_msg("case %zu: wanted '%s', got '%s'", k, CASES[k].want, err);
        assert_int_equal(rc, HB_ERR_INPUT);
        assert_null(db);
        free(w);
        free(t);
    }
    free(weapons);
    free(templates);

    /* terrain.json, read from a data folder. */
    char *dir = make_tmpdir(), file[1100], err[HB_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/terrain.json", data_dir());
    char *terrain = slurp(path);
    size_t len;
    char *bad = patched(terrain, "\"open\":", "\"open\": {}, \"open\":", &len);
    snprintf(file, sizeof file, "%s/terrain.json", dir);
    write_text(file, bad);
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    assert_int_equal(terrain_load_builtin(dir, types, MAP_MAX_TERRAIN, &n, err, sizeof err),
                     HB_ERR_INPUT);
    char want[1300];
    snprintf(want, sizeof want, "%s: types.open: given twice", file);
    assert_string_equal(err, want);
    free(bad);
    free(terrain);
    tmp_dir_remove(dir);
    free(dir);
}

/* The largest map there may be, 1024 x 1024 hexes with 400 combatants,
 * loads (with its board and a player view) in well under 200 MB; one hex
 * more a side is refused by the loader with the limit, before any of it is
 * built. */
static void test_largest_map(void **state)
{
    (void)state;
    const int N = MAP_MAX_DIM;
    size_t cap = (size_t)N * (N + 8) + 64 * 1024;
    char *text = malloc(cap);
    assert_non_null(text);
    int k = snprintf(text, cap,
                     "{\"format\":\"hexbattle-map\",\"version\":1,\"ruleset\":\"xhalem\","
                     "\"grid\":{\"orientation\":\"pointy\",\"stagger\":\"odd\",\"cols\":%d,"
                     "\"rows\":%d},\"terrain\":{\"legend\":{\".\":\"open\",\"#\":\"wall\"},"
                     "\"rows\":[",
                     N, N);
    for (int r = 0; r < N; r++) {
        text[k++] = r ? ',' : ' ';
        text[k++] = '"';
        for (int c = 0; c < N; c++)
            text[k++] = (c * 7 + r * 13) % 23 == 0 ? '#' : '.';
        text[k++] = '"';
    }
    k += snprintf(text + k, cap - (size_t)k, "]},\"combatants\":[");
    for (int i = 0; i < 400; i++) {
        int col = 1 + (i * 37) % 1000, row = 2 + (i * 53) % 1000;
        if ((col * 7 + row * 13) % 23 == 0) col++; /* not on a wall */
        k += snprintf(text + k, cap - (size_t)k,
                      "%s{\"id\":\"u%d\",\"faction\":\"%s\",\"at\":[%d,%d],\"template\":\"scout\"}",
                      i ? "," : "", i, i % 2 ? "raiders" : "players", col, row);
    }
    k += snprintf(text + k, cap - (size_t)k, "]}");
    map_t *m = NULL;
    char err[HB_ERR_MAX];
    int rc = map_load_mem(text, (size_t)k, "huge.json", data_dir(), &m, NULL, err, sizeof err);
    if (rc != HB_OK) fail_msg("%s", err);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    assert_non_null(b);
    assert_non_null(v);
    vision_update(v, b, vision_player_sides(b));
    assert_true(vision_count_visible(v) > 0);
    struct rusage ru;
    assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
    assert_true(ru.ru_maxrss < 200 * 1024); /* kilobytes */
    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
    /* One more column: refused, naming the limit. */
    char *at = strstr(text, "\"cols\":1024");
    assert_non_null(at);
    memcpy(at, "\"cols\":1025", 11);
    rc = map_load_mem(text, (size_t)k, "huge.json", data_dir(), &m, NULL, err, sizeof err);
    assert_int_equal(rc, HB_ERR_INPUT);
    assert_string_equal(err,
                        "huge.json: grid.cols: expected an integer from 1 to 1024, found 1025");
    free(text);
}

/* Damage with no dice ("+2", "0") loads as a flat amount; malformed dice,
 * too many tags and too many weapons on a template are refused with the
 * file and the JSON path, never cut short. */
static void test_data_flat_damage_and_limits(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char sub[1100], wpath[1200], tpath[1200], expect[1400], err[HB_ERR_MAX] = "";
    snprintf(sub, sizeof sub, "%s/toy", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(wpath, sizeof wpath, "%s/weapons.json", sub);
    snprintf(tpath, sizeof tpath, "%s/templates.json", sub);
    write_text(tpath, "{\"format\":\"hexbattle-templates\",\"version\":1,\"ruleset\":\"toy\","
                      "\"templates\":{}}");
    write_text(wpath, "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                      "\"fist\":{\"name\":\"Fist\",\"class\":\"melee\",\"damage\":\"+2\"},"
                      "\"feint\":{\"name\":\"Feint\",\"class\":\"melee\",\"damage\":\"0\"},"
                      "\"club\":{\"name\":\"Club\",\"class\":\"melee\",\"damage\":\"3\"}}}");
    tmpl_db_t *db = NULL;
    assert_int_equal(tmpl_db_load(dir, "toy", &db, err, sizeof err), HB_OK);
    const weapon_t *fist = tmpl_find_weapon(db, "fist");
    assert_int_equal(fist->dice_n, 0);
    assert_int_equal(fist->dice_sides, 0);
    assert_int_equal(fist->dice_bonus, 2);
    assert_int_equal(tmpl_find_weapon(db, "feint")->dice_bonus, 0);
    assert_int_equal(tmpl_find_weapon(db, "feint")->dice_n, 0);
    assert_int_equal(tmpl_find_weapon(db, "club")->dice_bonus, 3);
    tmpl_db_destroy(db);

    static const char *const BAD_DICE[] = {"+", "2d6+", "1d1", "-2", "d6", "0d6", "+2d6", "1d6+2+1",
                                           "1001", ""};
    for (size_t k = 0; k < sizeof BAD_DICE / sizeof BAD_DICE[0]; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                 "\"stick\":{\"name\":\"Stick\",\"class\":\"melee\",\"damage\":\"%s\"}}}",
                 BAD_DICE[k]);
        write_text(wpath, text);
        db = NULL;
        assert_int_equal(tmpl_db_load(dir, "toy", &db, err, sizeof err), HB_ERR_INPUT);
        assert_null(db);
        snprintf(expect, sizeof expect, "%s: weapons.stick.damage: expected dice", wpath);
        assert_memory_equal(err, expect, strlen(expect));
    }

    /* Sixteen tags fit; a seventeenth is refused by name. */
    char tags[1024] = "", text[2048];
    for (int k = 0; k <= WEAPON_MAX_TAGS; k++) {
        char one[32];
        snprintf(one, sizeof one, "%s\"t%d\":%d", k ? "," : "", k, k);
        strcat(tags, one);
        snprintf(text, sizeof text,
                 "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                 "\"stick\":{\"name\":\"Stick\",\"class\":\"melee\",\"damage\":\"1d4\","
                 "\"tags\":{%s}}}}",
                 tags);
        write_text(wpath, text);
        db = NULL;
        int rc = tmpl_db_load(dir, "toy", &db, err, sizeof err);
        if (k < WEAPON_MAX_TAGS) {
            assert_int_equal(rc, HB_OK);
            assert_int_equal(tmpl_find_weapon(db, "stick")->n_tags, k + 1);
            tmpl_db_destroy(db);
        } else {
            assert_int_equal(rc, HB_ERR_INPUT);
            snprintf(expect, sizeof expect, "%s: weapons.stick.tags.t16: more than 16 tags", wpath);
            assert_string_equal(err, expect);
        }
    }

    /* Twelve weapons on a template fit; thirteen are refused. */
    write_text(wpath, "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{"
                      "\"stick\":{\"name\":\"Stick\",\"class\":\"melee\",\"damage\":\"1d4\"}}}");
    for (int count = MAP_MAX_WEAPONS; count <= MAP_MAX_WEAPONS + 1; count++) {
        char list[512] = "";
        for (int k = 0; k < count; k++)
            strcat(list, k ? ",\"stick\"" : "\"stick\"");
        snprintf(text, sizeof text,
                 "{\"format\":\"hexbattle-templates\",\"version\":1,\"ruleset\":\"toy\","
                 "\"templates\":{\"imp\":{\"name\":\"Imp\",\"kind\":\"creature\",\"size\":"
                 "\"tiny\",\"speed\":20,\"hp\":3,\"weapons\":[%s]}}}",
                 list);
        write_text(tpath, text);
        db = NULL;
        int rc = tmpl_db_load(dir, "toy", &db, err, sizeof err);
        if (count == MAP_MAX_WEAPONS) {
            assert_int_equal(rc, HB_OK);
            assert_int_equal(tmpl_find(db, "imp")->n_weapons, MAP_MAX_WEAPONS);
            tmpl_db_destroy(db);
        } else {
            assert_int_equal(rc, HB_ERR_INPUT);
            snprintf(expect, sizeof expect,
                     "%s: templates.imp.weapons: 13 weapons; at most 12 are allowed", tpath);
            assert_string_equal(err, expect);
        }
    }
    tmp_dir_remove(dir);
    free(dir);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_pointy_header_and_grid),
        cmocka_unit_test(test_terrain_types_add_and_override),
        cmocka_unit_test(test_terrain_cells),
        cmocka_unit_test(test_template_defaults),
        cmocka_unit_test(test_template_overrides),
        cmocka_unit_test(test_no_template_defaults),
        cmocka_unit_test(test_no_template_overrides),
        cmocka_unit_test(test_overrides_on_machine_template),
        cmocka_unit_test(test_factions),
        cmocka_unit_test(test_flat_scars_map),
        cmocka_unit_test(test_minimal_map_defaults),
        cmocka_unit_test(test_sample_maps_load),
        cmocka_unit_test(test_bad_types_too_many),
        cmocka_unit_test(test_data_flat_damage_and_limits),
        cmocka_unit_test(test_bad_base_is_good),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_oversize_map_refused),
        cmocka_unit_test(test_load_mem_is_bounded),
        cmocka_unit_test(test_mutated_maps_never_crash),
        cmocka_unit_test(test_round_trip_pointy),
        cmocka_unit_test(test_round_trip_flat),
        cmocka_unit_test(test_faction_objects),
        cmocka_unit_test(test_map_options),
        cmocka_unit_test(test_round_trip_minimal),
        cmocka_unit_test(test_round_trip_after_edits),
        cmocka_unit_test(test_save_writes_only_given_fields),
        cmocka_unit_test(test_save_keeps_bak),
        cmocka_unit_test(test_failed_save_leaves_target),
        cmocka_unit_test(test_data_terrain),
        cmocka_unit_test(test_data_xhalem),
        cmocka_unit_test(test_data_scars),
        cmocka_unit_test(test_data_refusals),
        cmocka_unit_test(test_data_strict_json),
        cmocka_unit_test(test_largest_map),
    };
    enum { N_FIXED = sizeof fixed / sizeof fixed[0], N_BAD = sizeof BAD / sizeof BAD[0] };
    /* One named test per bad file, so a failure says which file. */
    static struct CMUnitTest all[N_FIXED + N_BAD];
    memcpy(all, fixed, sizeof fixed);
    for (int i = 0; i < N_BAD; i++)
        all[N_FIXED + i] = (struct CMUnitTest){
            .name = BAD[i].file, .test_func = test_bad_file, .initial_state = (void *)&BAD[i]};
    return _cmocka_run_group_tests("map_io", all, N_FIXED + N_BAD, NULL, NULL);
}
