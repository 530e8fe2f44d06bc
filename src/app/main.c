/* main.c - hexbattle's command line (DESIGN.md "Command line"): parses the
 * arguments, loads what they name, and hands off to the query, render,
 * simulate and window entry points. Only this layer decides to exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app.h"
#include "core/args.h"
#include "core/board.h"
#include "core/geom.h"
#include "core/say.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/tiled.h"
#include "platform/platform.h"
#include "rules/play.h"
#include "rules/ruleset.h"
#include "ui/stop.h"
#include "ui/ui.h"

#define DEFAULT_MAP "ridge_ambush.json"
#define EXIT_BAD 2
#define EXIT_FAIL 1

/* The command line as DESIGN.md gives it (a contract: tests/cli/help.sh), then notes. */
static const char USAGE[] =
    "usage:\n"
    "hexbattle [MAP]                              play MAP (default: the bundled sample "
    "battle)\n"
    "hexbattle edit [MAP]                         editor mode (new map when MAP is absent)\n"
    "hexbattle project [MAP]                      table projection: player view, fullscreen\n"
    "hexbattle render MAP --out F.png [--size WxH] [--overlay KIND[:ARGS]]... [--view "
    "FACTION] [--hex-mm MM --dpi N]\n"
    "hexbattle resume SAVE                        go on with a saved battle\n"
    "hexbattle replay SAVE [--events]             play a saved battle back (or print its "
    "event log)\n"
    "hexbattle query MAP distance C,R C,R         {\"hexes\":n,\"feet\":n}\n"
    "hexbattle query MAP los C,R C,R              "
    "{\"visible\":bool,\"cover\":\"none|light|heavy|total\",\"hexes\":n}\n"
    "hexbattle query MAP reach ID [--dash]        "
    "{\"id\":s,\"budget_ft\":n,\"hexes\":[{\"at\":[c,r],\"cost_ft\":n},...]}\n"
    "hexbattle query MAP path ID C,R              "
    "{\"reachable\":bool,\"cost_ft\":n,\"path\":[[c,r],...]}\n"
    "hexbattle query MAP threat ID                "
    "{\"id\":s,\"reach_ft\":n,\"hexes\":[[c,r],...]}\n"
    "hexbattle query MAP flanking ATTACKER TARGET {\"flanking\":bool,\"partners\":[id,...]}\n"
    "hexbattle query MAP reach ID --mode M        the same, for one move mode of the "
    "ruleset\n"
    "hexbattle simulate MAP --seed N [--max-rounds R] [--save F]   JSON Lines events; last "
    "line {\"event\":\"end\",...}\n"
    "hexbattle odds MAP|SAVE [--runs N] [--seed S] [--threads T]   "
    "{\"runs\":n,\"sides\":{S:{\"win\":p,\"ci\":[lo,hi]}},\"none\":p,\"rounds\":{\"mean\":x,"
    "\"sd\":x},\"defeated\":{ID:p},\"ms\":n}\n"
    "hexbattle convert IN OUT                     map formats by extension: .json "
    "(hexbattle), .tmj, .tmx (Tiled)\n"
    "hexbattle serve MAP|SAVE [--port N]          share the battle with players' devices on the "
    "local network\n"
    "hexbattle bench [--quick]                    performance figures as JSON\n"
    "hexbattle --help | --version\n"
    "\n"
    "`resume` without SAVE goes on with the newest autosave; `replay --events` prints\n"
    "the saved battle's event log; `simulate --save` also writes the battle as a save.\n"
    "Every command that takes a MAP also takes a Tiled .tmj or .tmx hex map.\n"
    "Cells are C,R: column and row counted from 0, as in the map file.\n"
    "Exit status: 0 ok, 2 bad input (the message names the file and the JSON path), 1 "
    "other.\n";

/* Report a usage error and return the bad-input status. */
static int bad_usage(const char *fmt, const char *arg)
{
    hb_eprintf("hexbattle: ");
    hb_eprintf(fmt, arg);
    fprintf(stderr, "\nTry 'hexbattle --help'.\n");
    return EXIT_BAD;
}

/* Parse a cell argument that must lie on map m; prints the error itself. */
static bool cell_arg(const map_t *m, const char *s, cell_t *out)
{
    if (!args_parse_cell(s, out)) {
        hb_eprintf("hexbattle: '%s' is not a cell; expected C,R such as 3,4\n", s);
        return false;
    }
    if (!map_in_bounds(m, *out)) {
        hb_eprintf("hexbattle: cell %d,%d is off the %dx%d map\n", out->col, out->row, m->cols,
                   m->rows);
        return false;
    }
    return true;
}

/* Combatant index for an id argument; prints the error itself. */
static int combatant_arg(const map_t *m, const char *id)
{
    int i = map_find_combatant(m, id);
    if (i < 0) {
        hb_eprintf("hexbattle: no combatant '%s' on map '%s'; ids:", id, m->name);
        for (int k = 0; k < m->n_combatants; k++)
            hb_eprintf(" %s", m->combatants[k].id);
        fprintf(stderr, "\n");
    }
    return i;
}

static cJSON *cell_json(cell_t c)
{
    int v[2] = {c.col, c.row};
    return cJSON_CreateIntArray(v, 2);
}

static int query_distance(const map_t *m, char **args, int n)
{
    cell_t a, b;
    if (n != 2) return bad_usage("%s", "query distance takes two cells: C,R C,R");
    if (!cell_arg(m, args[0], &a) || !cell_arg(m, args[1], &b)) return EXIT_BAD;
    int d = hex_distance(hex_from_cell(m->layout, a), hex_from_cell(m->layout, b));
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "hexes", d);
    cJSON_AddNumberToObject(j, "feet", d * m->feet_per_hex);
    return app_print_json(j);
}

static int query_los(const map_t *m, const board_t *b, char **args, int n)
{
    cell_t a, c;
    if (n != 2) return bad_usage("%s", "query los takes two cells: C,R C,R");
    if (!cell_arg(m, args[0], &a) || !cell_arg(m, args[1], &c)) return EXIT_BAD;
    sight_t s = sight_trace(b, hex_from_cell(m->layout, a), hex_from_cell(m->layout, c));
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "visible", s.visible);
    cJSON_AddStringToObject(j, "cover", map_cover_name(s.cover));
    cJSON_AddNumberToObject(j, "hexes", s.hexes);
    return app_print_json(j);
}

/* The reach answer: {"id", "budget_ft", "hexes": [{"at", "cost_ft"}...]}. */
static int emit_reach(const map_t *m, int i, int budget, const geom_reach_t *out, int k)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "id", m->combatants[i].id);
    cJSON_AddNumberToObject(j, "budget_ft", budget);
    cJSON *hexes = cJSON_AddArrayToObject(j, "hexes");
    for (int h = 0; h < k; h++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "at", cell_json(out[h].at));
        cJSON_AddNumberToObject(e, "cost_ft", out[h].cost_ft);
        cJSON_AddItemToArray(hexes, e);
    }
    return app_print_json(j);
}

/* reach ID --mode M: the battle as it begins (seed 1), and the ruleset's own
 * cost and budget for that mode; a mode i cannot use now reaches nothing. */
static int query_reach_mode(const map_t *m, const tmpl_db_t *db, const ruleset_t *rs, int i,
                            const char *mode_name, path_search_t *ps, geom_reach_t *out,
                            int ncells)
{
    int mode = ruleset_move_mode(rs, mode_name);
    if (mode < 0 || !rs->move_cost) {
        hb_eprintf("hexbattle: ruleset %s has no move mode '%s'; modes:", rs->id, mode_name);
        for (int k = 0; k < rs->n_move_modes; k++)
            hb_eprintf(" %s", rs->move_modes[k]);
        fprintf(stderr, "\n");
        return EXIT_BAD;
    }
    play_t p;
    battle_opts_t opts = {.seed = 1};
    battle_status_t st = play_start(&p, m, db, rs, &opts);
    if (st != BATTLE_OK) {
        hb_eprintf("hexbattle: the battle cannot start: %s\n", st == BATTLE_ERROR ? p.error
                                                               : st == BATTLE_NOMEM
                                                                   ? "out of memory"
                                                                   : "refused");
        play_end(&p);
        return EXIT_FAIL;
    }
    move_cost_t mv;
    int budget = 0, k = 0;
    if (battle_active(p.b, i) && rs->move_cost(p.b, i, mode, &mv)) {
        budget = mv.budget_ft;
        k = geom_reach_mode(&mv, ps, out, ncells);
    }
    int rc = emit_reach(m, i, budget, out, k < ncells ? k : ncells);
    play_end(&p);
    return rc;
}

static int query_reach(const map_t *m, const tmpl_db_t *db, const ruleset_t *rs, const board_t *b,
                       const geo_profile_t *prof, char **args, int n)
{
    bool dash = n == 2 && strcmp(args[1], "--dash") == 0;
    bool mode = n == 3 && strcmp(args[1], "--mode") == 0;
    if (n < 1 || n > 3 || (n == 2 && !dash) || (n == 3 && !mode))
        return bad_usage("%s", "query reach takes an id and optionally --dash or --mode M");
    int i = combatant_arg(m, args[0]);
    if (i < 0) return EXIT_BAD;
    int budget = dash ? prof[i].dash_ft : prof[i].speed_ft;
    int ncells = m->cols * m->rows;
    path_search_t *ps = path_search_create(ncells);
    geom_reach_t *out = malloc(sizeof *out * (size_t)ncells);
    if (!ps || !out) {
        path_search_destroy(ps);
        free(out);
        hb_eprintf("hexbattle: out of memory\n");
        return EXIT_FAIL;
    }
    int rc;
    if (mode) {
        rc = query_reach_mode(m, db, rs, i, args[2], ps, out, ncells);
    } else {
        int k = geom_reach(b, i, budget, prof[i].interval_ft, ps, out, ncells);
        rc = emit_reach(m, i, budget, out, k < ncells ? k : ncells);
    }
    path_search_destroy(ps);
    free(out);
    return rc;
}

static int query_path(const map_t *m, const board_t *b, const geo_profile_t *prof, char **args,
                      int n)
{
    cell_t goal;
    if (n != 2) return bad_usage("%s", "query path takes an id and a cell: ID C,R");
    int i = combatant_arg(m, args[0]);
    if (i < 0 || !cell_arg(m, args[1], &goal)) return EXIT_BAD;
    int ncells = m->cols * m->rows;
    path_search_t *ps = path_search_create(ncells);
    cell_t *path = malloc(sizeof *path * (size_t)ncells);
    if (!ps || !path) {
        path_search_destroy(ps);
        free(path);
        hb_eprintf("hexbattle: out of memory\n");
        return EXIT_FAIL;
    }
    int cost = 0, len = 0;
    bool ok = geom_path(b, i, goal, prof[i].interval_ft, ps, &cost, path, ncells, &len);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "reachable", ok);
    cJSON_AddNumberToObject(j, "cost_ft", ok ? cost : 0);
    cJSON *arr = cJSON_AddArrayToObject(j, "path");
    for (int k = 0; ok && k < len; k++)
        cJSON_AddItemToArray(arr, cell_json(path[k]));
    path_search_destroy(ps);
    free(path);
    return app_print_json(j);
}

static int query_threat(const map_t *m, const board_t *b, const geo_profile_t *prof, char **args,
                        int n)
{
    if (n != 1) return bad_usage("%s", "query threat takes one id");
    int i = combatant_arg(m, args[0]);
    if (i < 0) return EXIT_BAD;
    int ncells = m->cols * m->rows;
    hex_t *hx = malloc(sizeof *hx * (size_t)ncells);
    if (!hx) {
        hb_eprintf("hexbattle: out of memory\n");
        return EXIT_FAIL;
    }
    int k = geom_threat(b, i, prof[i].reach_ft, hx, ncells);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "id", m->combatants[i].id);
    cJSON_AddNumberToObject(j, "reach_ft", prof[i].reach_ft);
    cJSON *arr = cJSON_AddArrayToObject(j, "hexes");
    for (int h = 0; h < k && h < ncells; h++)
        cJSON_AddItemToArray(arr, cell_json(hex_to_cell(m->layout, hx[h])));
    free(hx);
    return app_print_json(j);
}

static int query_flanking(const map_t *m, const board_t *b, const geo_profile_t *prof, char **args,
                          int n)
{
    if (n != 2) return bad_usage("%s", "query flanking takes two ids: ATTACKER TARGET");
    int a = combatant_arg(m, args[0]);
    if (a < 0) return EXIT_BAD;
    int t = combatant_arg(m, args[1]);
    if (t < 0) return EXIT_BAD;
    if (a == t) {
        hb_eprintf("hexbattle: a combatant cannot flank itself\n");
        return EXIT_BAD;
    }
    int partners[MAP_MAX_COMBATANTS];
    int k = geom_flank_partners(b, prof, a, t, partners, MAP_MAX_COMBATANTS);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "flanking", k > 0);
    cJSON *arr = cJSON_AddArrayToObject(j, "partners");
    for (int p = 0; p < k && p < MAP_MAX_COMBATANTS; p++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(m->combatants[partners[p]].id));
    return app_print_json(j);
}

/* hexbattle query MAP WHAT ARGS... */
static int cmd_query(int argc, char **argv)
{
    if (argc < 3)
        return bad_usage("%s", "query needs a map and a question (distance, los, reach, path, "
                               "threat, flanking)");
    const char *what = argv[2];
    static const char *const KNOWN[] = {"distance", "los", "reach", "path", "threat", "flanking"};
    bool known = false;
    for (size_t k = 0; k < sizeof KNOWN / sizeof KNOWN[0]; k++)
        known = known || strcmp(what, KNOWN[k]) == 0;
    if (!known)
        return bad_usage("unknown query '%s' (distance, los, reach, path, threat, flanking)", what);

    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = app_load_map(argv[1], &m, &db);
    if (rc != HB_OK) return rc;
    const ruleset_t *rs = ruleset_find(m->ruleset);
    board_t *b = board_create(m);
    geo_profile_t *prof = calloc((size_t)(m->n_combatants + 1), sizeof *prof);
    if (!rs || !b || !prof) {
        hb_eprintf("hexbattle: %s\n", rs ? "out of memory" : "unknown ruleset");
        rc = EXIT_FAIL;
    } else {
        ruleset_profiles(rs, b, db, prof);
        char **args = argv + 3;
        int n = argc - 3;
        if (strcmp(what, "distance") == 0)
            rc = query_distance(m, args, n);
        else if (strcmp(what, "los") == 0)
            rc = query_los(m, b, args, n);
        else if (strcmp(what, "reach") == 0)
            rc = query_reach(m, db, rs, b, prof, args, n);
        else if (strcmp(what, "path") == 0)
            rc = query_path(m, b, prof, args, n);
        else if (strcmp(what, "threat") == 0)
            rc = query_threat(m, b, prof, args, n);
        else
            rc = query_flanking(m, b, prof, args, n);
    }
    free(prof);
    board_destroy(b);
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}

/* A positive number of millimetres, such as 25.4. */
static bool parse_mm(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0.0) || v > 1000.0)
        return false;
    *out = v;
    return true;
}

/* hexbattle render MAP --out F.png [--size WxH] [--overlay K]... [--view F] [--hex-mm MM --dpi N] */
static int cmd_render(int argc, char **argv)
{
    const char *map_path = NULL, *out = NULL;
    ui_render_opts_t opts = {.w = 1280, .h = 720};
    bool have_mm = false, have_dpi = false;
    char err[HB_ERR_MAX];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] == '-' && a[1] == '-' && !v)
            return bad_usage("render: option '%s' needs a value", a);
        if (strcmp(a, "--out") == 0) {
            out = argv[++i];
        } else if (strcmp(a, "--size") == 0) {
            char extra;
            if (sscanf(v, "%dx%d%c", &opts.w, &opts.h, &extra) != 2 || opts.w < 16 ||
                opts.h < 16 || opts.w > 16384 || opts.h > 16384)
                return bad_usage("--size '%s': expected WxH such as 1280x720 (16..16384)", v);
            i++;
        } else if (strcmp(a, "--overlay") == 0) {
            if (opts.n_overlays == UI_MAX_OVERLAYS)
                return bad_usage("render: at most %s overlays", "16");
            if (!args_parse_overlay(v, &opts.overlays[opts.n_overlays], err, sizeof err)) {
                hb_eprintf("hexbattle: --%s\n", err);
                fputs("Try 'hexbattle --help'.\n", stderr);
                return EXIT_BAD;
            }
            opts.n_overlays++;
            i++;
        } else if (strcmp(a, "--view") == 0) {
            opts.view_faction = argv[++i];
        } else if (strcmp(a, "--hex-mm") == 0) {
            if (!parse_mm(v, &opts.hex_mm))
                return bad_usage("--hex-mm '%s': expected millimetres such as 25.4", v);
            have_mm = true;
            i++;
        } else if (strcmp(a, "--dpi") == 0) {
            if (!args_parse_int(v, &opts.dpi) || opts.dpi < 10 || opts.dpi > 4800)
                return bad_usage("--dpi '%s': expected dots per inch such as 300 (10..4800)", v);
            have_dpi = true;
            i++;
        } else if (a[0] == '-') {
            return bad_usage("render: unknown option '%s'", a);
        } else if (!map_path) {
            map_path = a;
        } else {
            return bad_usage("render: unexpected argument '%s'", a);
        }
    }
    if (!map_path || !out)
        return bad_usage("%s", "render needs a map and --out F.png");
    if (have_mm != have_dpi)
        return bad_usage("%s", "render: --hex-mm and --dpi go together");
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = app_load_map(map_path, &m, &db);
    if (rc != HB_OK)
        return rc;
    rc = ui_render_png_opts(m, db, &opts, out, err, sizeof err);
    if (rc != 0) hb_eprintf("hexbattle: render: %s\n", err);
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}

/* hexbattle convert IN OUT: a map from one format to another, by the names'
 * extensions. A Tiled layer hexbattle does not read is named on stderr. */
static int cmd_convert(int argc, char **argv)
{
    if (argc != 3) return bad_usage("%s", "convert takes a map and where to write it: IN OUT");
    const char *in = argv[1], *out = argv[2];
    size_t n = strlen(out);
    /* "-": the hexbattle map on standard output. */
    bool json = (n > 5 && strcmp(out + n - 5, ".json") == 0) || strcmp(out, "-") == 0;
    if (!json && tiled_format_of(out) == TILED_NONE)
        return bad_usage("convert: '%s' must end in .json, .tmj or .tmx, or be - (standard output)",
                         out);
    char err[HB_ERR_MAX], note[TILED_NOTE_MAX] = "";
    map_t *m = NULL;
    int rc = tiled_format_of(in) != TILED_NONE
                 ? tiled_load(in, hb_data_dir(), &m, NULL, note, sizeof note, err, sizeof err)
                 : map_load(in, hb_data_dir(), &m, NULL, err, sizeof err);
    if (rc != HB_OK) {
        hb_eprintf("hexbattle: %s\n", err);
        return rc;
    }
    if (note[0]) hb_eprintf("hexbattle: %s: %s\n", in, note);
    if (m->art && m->art->warn[0]) hb_eprintf("hexbattle: %s: %s\n", in, m->art->warn);
    /* What the other format cannot hold is said, not lost in silence. */
    if (m->art && m->art->gids)
        hb_eprintf("hexbattle: %s: the tiles' pictures are not written, only the terrain "
                   "they name\n",
                   out);
    if (m->art && m->art->bg[0] && !json)
        hb_eprintf("hexbattle: %s: the background picture is not written to a Tiled map\n", out);
    rc = map_save(m, out, err, sizeof err);
    if (rc != HB_OK) {
        hb_eprintf("hexbattle: %s\n", err);
        rc = EXIT_FAIL;
    }
    map_destroy(m);
    return rc;
}

/* The bundled default battle, next to the data folder. */
static const char *default_map_path(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/../maps/" DEFAULT_MAP, hb_data_dir());
    return path;
}

/* hexbattle [MAP]: the play window. */
static int cmd_play(const char *map_path)
{
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    int rc = app_load_map(map_path, &m, &db);
    if (rc != HB_OK) return rc;
    char err[HB_ERR_MAX];
    ui_stop_install();
    if (ui_run_window(m, db, map_path, err, sizeof err) != 0) {
        hb_eprintf("hexbattle: %s\n", err);
        rc = EXIT_FAIL;
    }
    tmpl_db_destroy(db);
    map_destroy(m);
    return rc;
}

static int run(int argc, char **argv)
{
    if (argc < 2) return cmd_play(default_map_path());
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("hexbattle %s\n", HB_VERSION);
        return 0;
    }
    if (strcmp(cmd, "query") == 0) return cmd_query(argc - 1, argv + 1);
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 1, argv + 1);
    if (strcmp(cmd, "simulate") == 0) return app_simulate(argc - 1, argv + 1);
    if (strcmp(cmd, "project") == 0) return app_project(argc - 1, argv + 1);
    if (strcmp(cmd, "odds") == 0) return app_odds(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return app_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "convert") == 0) return cmd_convert(argc - 1, argv + 1);
    if (strcmp(cmd, "edit") == 0) return app_edit(argc - 1, argv + 1);
    if (strcmp(cmd, "resume") == 0) return app_resume(argc - 1, argv + 1);
    if (strcmp(cmd, "replay") == 0) return app_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0) return app_serve(argc - 1, argv + 1);
    if (cmd[0] == '-') return bad_usage("unknown option '%s'", cmd);
    if (argc > 2) return bad_usage("unexpected argument '%s'", argv[2]);
    /* A bare word that names no file is more likely a mistyped command. */
    if (!strchr(cmd, '/') && !strchr(cmd, '.') && hb_fs_stat(cmd, NULL) != 0)
        return bad_usage("'%s' is neither a command nor a map file; the commands are "
                         "render, query, simulate, odds, convert, bench, edit, project, resume "
                         "and replay",
                         cmd);
    return cmd_play(cmd);
}

int main(int argc, char **argv)
{
    hb_set_argv0(argv[0]);
    int rc = run(argc, argv);
    /* A window stopped by SIGTERM, SIGHUP or SIGINT has written its
     * recovery copy; the process now ends by that signal. */
    ui_stop_exit();
    return rc;
}
