/* save.c - saved battles (see save.h and docs/saves.md). */
#include "save.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../core/board.h"
#include "cmd_json.h"
#include "io_json.h"
#include "platform/platform.h"

/* Largest value accepted for a hand-entered die: above any die a ruleset
 * rolls, and small enough that no sum of them can overflow. Each value is
 * checked against the die it fed once the battle is rebuilt. */
#define SAVE_DIE_MAX 1000
/* Most commands or dice one save may hold (a long battle has a few thousand). */
#define SAVE_LIST_MAX 1000000
/* The ranges of a save's state numbers (docs/saves.md, "Ranges"): a round
 * takes at least one command, a rules revision is a small counter, and a
 * combatant's hit points never drop below 0 in any ruleset nor rise above
 * its map hp (IO_HP_MAX) or the stat some rulesets read them from
 * (IO_VALUE_MAX, smaller). */
#define SAVE_ROUND_MAX SAVE_LIST_MAX
#define SAVE_REVISION_MAX 1000000
#define SAVE_HP_MIN 0
#define SAVE_HP_MAX IO_HP_MAX

/* ---- writing ---- */

/* Attach item under key (or to an array when key is NULL); on failure free
 * it and clear *ok, so the caller checks once at the end. */
static cJSON *attach(cJSON *parent, const char *key, cJSON *item, bool *ok)
{
    if (!item || !parent || !*ok) {
        cJSON_Delete(item);
        *ok = false;
        return NULL;
    }
    bool done = key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item);
    if (!done) {
        cJSON_Delete(item);
        *ok = false;
        return NULL;
    }
    return item;
}

static void put_u64(cJSON *o, const char *key, uint64_t v, bool hex, bool *ok)
{
    char buf[32];
    if (hex)
        snprintf(buf, sizeof buf, "%016" PRIx64, v);
    else
        snprintf(buf, sizeof buf, "%" PRIu64, v);
    attach(o, key, cJSON_CreateString(buf), ok);
}

/* Side mask as a list of side names (the board's table). */
static void put_sides(cJSON *o, const char *key, const board_t *b, unsigned mask, bool *ok)
{
    cJSON *arr = attach(o, key, cJSON_CreateArray(), ok);
    for (int s = 0; s < b->n_sides && s < 32; s++)
        if ((mask >> s) & 1u) attach(arr, NULL, cJSON_CreateString(b->side_name[s]), ok);
}

char *save_to_json(const play_t *p, const save_table_t *table, const char *map_file)
{
    const battle_t *b = p->b;
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    attach(root, "format", cJSON_CreateString(SAVE_FORMAT), &ok);
    attach(root, "version", cJSON_CreateNumber(1), &ok);
    /* Which rules it was played under: another revision is replayed under
     * the current rules with a note (save_compat.c). */
    attach(root, "written_by", cJSON_CreateString("hexbattle " HB_VERSION), &ok);
    attach(root, "rules_revision", cJSON_CreateNumber(p->rs ? p->rs->revision : 0), &ok);
    if (map_file && *map_file) attach(root, "map_file", cJSON_CreateString(map_file), &ok);

    /* The map as its own format-1 document, parsed back so the save stays one
     * readable JSON object rather than a string of escaped JSON. */
    char *mtext = map_to_json(b->src_map);
    cJSON *mj = mtext ? cJSON_Parse(mtext) : NULL;
    free(mtext);
    attach(root, "map", mj, &ok);

    put_u64(root, "seed", b->opts.seed, false, &ok);
    cJSON *o = attach(root, "options", cJSON_CreateObject(), &ok);
    attach(o, "max_rounds", cJSON_CreateNumber(b->opts.max_rounds), &ok);
    attach(o, "manual_all", cJSON_CreateBool(b->opts.manual_all), &ok);
    if (ok) put_sides(o, "manual_sides", b->board, b->opts.manual_sides, &ok);
    attach(o, "group_initiative", cJSON_CreateBool(b->opts.group_initiative), &ok);
    if (ok) put_sides(o, "decline_sides", b->board, b->opts.decline_sides, &ok);
    if (ok) put_sides(o, "ask_sides", b->board, b->opts.ask_sides, &ok);

    cJSON *dice = attach(root, "dice", cJSON_CreateArray(), &ok);
    for (int k = 0; ok && k < b->dice.n_entered; k++)
        attach(dice, NULL, cJSON_CreateNumber(b->dice.entered[k]), &ok);
    cJSON *cmds = attach(root, "commands", cJSON_CreateArray(), &ok);
    for (int k = 0; ok && k < b->cmds.n; k++)
        attach(cmds, NULL, cmd_to_json(b->src_map, &b->cmds.c[k]), &ok);
    if (p->pending) attach(root, "pending", cmd_to_json(b->src_map, &p->pending_cmd), &ok);
    attach(root, "stopped", cJSON_CreateBool(b->stopped), &ok);

    cJSON *st = attach(root, "state", cJSON_CreateObject(), &ok);
    attach(st, "round", cJSON_CreateNumber(b->round), &ok);
    attach(st, "over", cJSON_CreateBool(b->over), &ok);
    if (b->over && b->winner >= 0 && b->winner < b->board->n_sides)
        attach(st, "winner", cJSON_CreateString(b->board->side_name[b->winner]), &ok);
    else
        attach(st, "winner", cJSON_CreateNull(), &ok);
    cJSON *list = attach(st, "combatants", cJSON_CreateArray(), &ok);
    for (int i = 0; ok && i < b->n; i++) {
        cJSON *c = attach(list, NULL, cJSON_CreateObject(), &ok);
        attach(c, "id", cJSON_CreateString(b->src_map->combatants[i].id), &ok);
        attach(c, "hp", cJSON_CreateNumber(b->u[i].hp), &ok);
        attach(c, "out", cJSON_CreateBool(b->u[i].out), &ok);
    }

    if (table) {
        cJSON *t = attach(root, "table", cJSON_CreateObject(), &ok);
        if (ok) put_sides(t, "physical_sides", b->board, table->phys_sides, &ok);
        if (table->has_rng) {
            cJSON *r = attach(t, "rng", cJSON_CreateArray(), &ok);
            for (int k = 0; k < 4; k++)
                put_u64(r, NULL, table->rng.s[k], true, &ok);
        }
    }

    return io_print_owned(root, ok);
}

int save_write(const char *path, const play_t *p, const save_table_t *table, const char *map_file,
               bool keep_bak, char *err, size_t errcap)
{
    char *text = save_to_json(p, table, map_file);
    if (!text) {
        if (err && errcap) snprintf(err, errcap, "%s: cannot write: out of memory", path);
        return HB_ERR_OTHER;
    }
    int rc = hb_write_atomic(path, text, strlen(text), keep_bak, err, errcap);
    free(text);
    return rc;
}

/* ---- reading ---- */

/* A whole unsigned decimal (or 16-digit hex) string into *out. */
static bool parse_u64(const char *s, bool hex, uint64_t *out)
{
    if (!s || !*s || strlen(s) > 20) return false;
    for (const char *c = s; *c; c++) {
        bool digit = *c >= '0' && *c <= '9';
        bool hexd = (*c >= 'a' && *c <= 'f') || (*c >= 'A' && *c <= 'F');
        if (!digit && !(hex && hexd)) return false;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno || *end) return false;
    *out = (uint64_t)v;
    return true;
}

static int want_u64(io_ctx_t *cx, const cJSON *v, const char *path, bool hex, uint64_t *out)
{
    if (!cJSON_IsString(v))
        return io_fail(cx, path, "expected a string of %s digits, found %s",
                       hex ? "hexadecimal" : "decimal", io_type_name(v));
    if (!parse_u64(v->valuestring, hex, out))
        return io_fail(cx, path, "expected a whole number 0..2^64-1 in %s digits",
                       hex ? "hexadecimal" : "decimal");
    return HB_OK;
}

/* A list of side names of board b into a bit mask. */
static int want_sides(io_ctx_t *cx, const cJSON *v, const char *path, const board_t *b,
                      unsigned *mask)
{
    int rc = io_want_array(cx, v, path);
    if (rc) return rc;
    *mask = 0;
    char p[IO_PATH_MAX];
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        io_path_index(p, sizeof p, path, i);
        if (!cJSON_IsString(e))
            return io_fail(cx, p, "expected a side name, found %s", io_type_name(e));
        int s = 0;
        while (s < b->n_sides && strcmp(b->side_name[s], e->valuestring) != 0)
            s++;
        if (s == b->n_sides || s >= 32)
            return io_fail(cx, p, "no side \"%.40s\" on this map", e->valuestring);
        *mask |= 1u << s;
    }
    return HB_OK;
}

/* Optional boolean member. */
static int opt_bool(io_ctx_t *cx, const cJSON *o, const char *path, const char *key, bool *out)
{
    const cJSON *v = io_get(o, key);
    if (!v) return HB_OK;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, key);
    return io_want_bool(cx, v, p, out);
}

/* Optional side list member. */
static int opt_sides(io_ctx_t *cx, const cJSON *o, const char *path, const char *key,
                     const board_t *b, unsigned *mask)
{
    const cJSON *v = io_get(o, key);
    if (!v) return HB_OK;
    char p[IO_PATH_MAX];
    io_path_key(p, sizeof p, path, key);
    return want_sides(cx, v, p, b, mask);
}

/* The embedded map: its messages point into the save ("map.terrain..."). */
static int read_map(io_ctx_t *cx, const cJSON *root, const char *data_dir, save_t *s)
{
    return io_load_member_map(cx, root, "map", data_dir, &s->map, &s->db);
}

static int read_options(io_ctx_t *cx, const cJSON *root, const board_t *b, save_t *s)
{
    const cJSON *v, *o;
    int rc = io_require(cx, root, "", "seed", &v);
    if (!rc) rc = want_u64(cx, v, "seed", false, &s->opts.seed);
    if (rc) return rc;
    if (!(o = io_get(root, "options"))) return HB_OK;
    if ((rc = io_want_object(cx, o, "options"))) return rc;
    if ((v = io_get(o, "max_rounds")) &&
        (rc = io_want_int(cx, v, "options.max_rounds", 0, 100000, &s->opts.max_rounds)))
        return rc;
    if ((rc = opt_bool(cx, o, "options", "manual_all", &s->opts.manual_all)) ||
        (rc = opt_bool(cx, o, "options", "group_initiative", &s->opts.group_initiative)) ||
        (rc = opt_sides(cx, o, "options", "manual_sides", b, &s->opts.manual_sides)) ||
        (rc = opt_sides(cx, o, "options", "decline_sides", b, &s->opts.decline_sides)) ||
        (rc = opt_sides(cx, o, "options", "ask_sides", b, &s->opts.ask_sides)))
        return rc;
    return HB_OK;
}

static int read_dice(io_ctx_t *cx, const cJSON *root, save_t *s)
{
    const cJSON *v = io_get(root, "dice");
    if (!v) return HB_OK;
    int rc = io_want_array(cx, v, "dice");
    if (rc) return rc;
    int n = cJSON_GetArraySize(v);
    if (n > SAVE_LIST_MAX) return io_fail(cx, "dice", "%d values; at most %d", n, SAVE_LIST_MAX);
    s->dice = malloc(sizeof *s->dice * (size_t)(n ? n : 1));
    if (!s->dice) return io_fail_other(cx, "out of memory");
    char p[IO_PATH_MAX];
    for (const cJSON *e = v->child; e; e = e->next) {
        io_path_index(p, sizeof p, "dice", s->n_dice);
        if ((rc = io_want_int(cx, e, p, 1, SAVE_DIE_MAX, &s->dice[s->n_dice]))) return rc;
        s->n_dice++;
    }
    return HB_OK;
}

/* One command object at PATH. */
static int read_cmd(io_ctx_t *cx, const cJSON *v, const char *path, const map_t *m, cmd_t *out)
{
    char why[160];
    if (!cmd_from_json(v, m, out, why, sizeof why)) return io_fail(cx, path, "%s", why);
    return HB_OK;
}

static int read_cmds(io_ctx_t *cx, const cJSON *root, save_t *s)
{
    const cJSON *v;
    int rc = io_require(cx, root, "", "commands", &v);
    if (!rc) rc = io_want_array(cx, v, "commands");
    if (rc) return rc;
    int n = cJSON_GetArraySize(v);
    if (n > SAVE_LIST_MAX)
        return io_fail(cx, "commands", "%d commands; at most %d", n, SAVE_LIST_MAX);
    s->cmds = malloc(sizeof *s->cmds * (size_t)(n ? n : 1));
    if (!s->cmds) return io_fail_other(cx, "out of memory");
    char p[IO_PATH_MAX];
    for (const cJSON *e = v->child; e; e = e->next) {
        io_path_index(p, sizeof p, "commands", s->n_cmds);
        if ((rc = read_cmd(cx, e, p, s->map, &s->cmds[s->n_cmds]))) return rc;
        s->n_cmds++;
    }
    if ((v = io_get(root, "pending"))) {
        if ((rc = read_cmd(cx, v, "pending", s->map, &s->pending))) return rc;
        s->has_pending = true;
    }
    return opt_bool(cx, root, "", "stopped", &s->stopped);
}

static int read_state(io_ctx_t *cx, const cJSON *root, const board_t *b, save_t *s)
{
    const cJSON *st, *v;
    int rc = io_require(cx, root, "", "state", &st);
    if (!rc) rc = io_want_object(cx, st, "state");
    if (!rc) rc = io_require(cx, st, "state", "round", &v);
    if (!rc) rc = io_want_int(cx, v, "state.round", 0, SAVE_ROUND_MAX, &s->round);
    if (!rc) rc = io_require(cx, st, "state", "over", &v);
    if (!rc) rc = io_want_bool(cx, v, "state.over", &s->over);
    if (rc) return rc;
    if ((v = io_get(st, "winner")) && !cJSON_IsNull(v)) {
        unsigned mask = 0;
        cJSON *one = cJSON_CreateArray();
        cJSON *copy = cJSON_Duplicate(v, true);
        if (!one || !copy || !cJSON_AddItemToArray(one, copy)) {
            cJSON_Delete(one);
            cJSON_Delete(copy);
            return io_fail_other(cx, "out of memory");
        }
        rc = want_sides(cx, one, "state.winner", b, &mask);
        cJSON_Delete(one);
        if (rc) {
            /* The message names state.winner[0]; the value is not a list. */
            char *bracket = strstr(cx->err, "state.winner[0]");
            if (bracket) memmove(bracket + 12, bracket + 15, strlen(bracket + 15) + 1);
            return rc;
        }
        hb_strlcpy(s->winner, v->valuestring, sizeof s->winner);
    }
    const cJSON *list;
    if ((rc = io_require(cx, st, "state", "combatants", &list)) ||
        (rc = io_want_array(cx, list, "state.combatants")))
        return rc;
    int n = s->map->n_combatants;
    if (cJSON_GetArraySize(list) != n)
        return io_fail(cx, "state.combatants", "expected %d combatants (the map's), found %d", n,
                       cJSON_GetArraySize(list));
    s->hp = calloc((size_t)(n ? n : 1), sizeof *s->hp);
    s->out = calloc((size_t)(n ? n : 1), sizeof *s->out);
    if (!s->hp || !s->out) return io_fail_other(cx, "out of memory");
    char p[IO_PATH_MAX], q[IO_PATH_MAX];
    int i = 0;
    for (const cJSON *c = list->child; c; c = c->next, i++) {
        io_path_index(p, sizeof p, "state.combatants", i);
        if ((rc = io_want_object(cx, c, p))) return rc;
        char id[MAP_ID_MAX];
        if ((rc = io_require(cx, c, p, "id", &v))) return rc;
        io_path_key(q, sizeof q, p, "id");
        if ((rc = io_want_id(cx, v, q, id, sizeof id))) return rc;
        if (strcmp(id, s->map->combatants[i].id) != 0)
            return io_fail(cx, q, "expected \"%s\" (the map's combatant %d), found \"%s\"",
                           s->map->combatants[i].id, i, id);
        if ((rc = io_require(cx, c, p, "hp", &v))) return rc;
        io_path_key(q, sizeof q, p, "hp");
        if ((rc = io_want_int(cx, v, q, SAVE_HP_MIN, SAVE_HP_MAX, &s->hp[i]))) return rc;
        if ((rc = opt_bool(cx, c, p, "out", &s->out[i]))) return rc;
    }
    return HB_OK;
}

static int read_table(io_ctx_t *cx, const cJSON *root, const board_t *b, save_t *s)
{
    const cJSON *t = io_get(root, "table");
    if (!t) return HB_OK;
    int rc = io_want_object(cx, t, "table");
    if (!rc) rc = opt_sides(cx, t, "table", "physical_sides", b, &s->table.phys_sides);
    if (rc) return rc;
    const cJSON *r = io_get(t, "rng");
    if (!r) return HB_OK;
    if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != 4)
        return io_fail(cx, "table.rng", "expected 4 hexadecimal strings");
    char p[IO_PATH_MAX];
    int k = 0;
    uint64_t any = 0;
    for (const cJSON *e = r->child; e; e = e->next, k++) {
        io_path_index(p, sizeof p, "table.rng", k);
        if ((rc = want_u64(cx, e, p, true, &s->table.rng.s[k]))) return rc;
        any |= s->table.rng.s[k];
    }
    /* xoshiro256** never leaves the all-zero state once in it. */
    if (!any) return io_fail(cx, "table.rng", "the generator state cannot be all zero");
    s->table.has_rng = true;
    return HB_OK;
}

static int read_save(io_ctx_t *cx, const cJSON *root, const char *data_dir, save_t *s)
{
    int rc = io_check_header(cx, root, SAVE_FORMAT);
    if (rc) return rc;
    const cJSON *v;
    s->rules_revision = SAVE_RULES_UNKNOWN;
    if ((v = io_get(root, "rules_revision")) &&
        (rc = io_want_int(cx, v, "rules_revision", 0, SAVE_REVISION_MAX, &s->rules_revision)))
        return rc;
    if ((v = io_get(root, "map_file")) &&
        (rc = io_want_string(cx, v, "map_file", s->map_file, sizeof s->map_file, true)))
        return rc;
    if ((rc = read_map(cx, root, data_dir, s))) return rc;
    /* Side names come from the board, in the order the battle numbers them. */
    board_t *b = board_create(s->map);
    if (!b) return io_fail_other(cx, "out of memory");
    rc = read_options(cx, root, b, s);
    if (!rc) rc = read_dice(cx, root, s);
    if (!rc) rc = read_cmds(cx, root, s);
    if (!rc) rc = read_state(cx, root, b, s);
    if (!rc) rc = read_table(cx, root, b, s);
    board_destroy(b);
    return rc;
}

int save_load_mem(const char *text, size_t len, const char *name, const char *data_dir,
                  save_t **out, char *err, size_t errcap)
{
    *out = NULL;
    save_t *s = calloc(1, sizeof *s);
    io_ctx_t cx = {.file = name ? name : "(save)", .err = err, .errcap = errcap};
    if (!s) return io_fail_other(&cx, "out of memory");
    hb_strlcpy(s->file, cx.file, sizeof s->file);
    cx.file = s->file;
    if (len > HB_FILE_MAX) {
        save_free(s);
        return io_fail(&cx, "", "over the %u MiB limit", HB_FILE_MAX / (1024u * 1024u));
    }
    if (!data_dir) data_dir = hb_data_dir();
    cJSON *root = NULL;
    int rc = io_parse(&cx, text, len, &root);
    if (!rc) rc = read_save(&cx, root, data_dir, s);
    cJSON_Delete(root);
    if (rc) {
        save_free(s);
        return rc;
    }
    *out = s;
    return HB_OK;
}

int save_load(const char *path, const char *data_dir, save_t **out, char *err, size_t errcap)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = hb_read_file(path, HB_FILE_MAX, &text, &len, err, errcap);
    if (rc) return rc;
    rc = save_load_mem(text, len, path, data_dir, out, err, errcap);
    free(text);
    return rc;
}

void save_free(save_t *s)
{
    if (!s) return;
    free(s->dice);
    free(s->cmds);
    free(s->hp);
    free(s->out);
    tmpl_db_destroy(s->db);
    map_destroy(s->map);
    free(s);
}

/* ---- rebuilding ---- */

/* Every hand-entered value must be a face of the die it fed: walk the roll
 * events, which hold the manual dice in the order they were taken. */
static int check_faces(io_ctx_t *cx, const save_t *s, const battle_t *b)
{
    int ev = 0, used = 0;
    if (save_faces_ok(s, b, &ev, &used)) return HB_OK;
    const event_t *e = &b->log.ev[ev];
    int d = 0;
    while (d + 1 < e->n_dice && e->dice[d] >= 1 && e->dice[d] <= e->sides)
        d++;
    char p[IO_PATH_MAX];
    io_path_index(p, sizeof p, "dice", used);
    return io_fail(cx, p, "%d is not a face of the d%d rolled for %s", e->dice[d], e->sides,
                   e->name);
}

/* The rebuilt battle against the summary in the file. */
static int check_state(io_ctx_t *cx, const save_t *s, const battle_t *b);

int save_check_state(const save_t *s, const battle_t *b, char *err, size_t errcap)
{
    io_ctx_t cx = {.file = s->file, .err = err, .errcap = errcap};
    return check_state(&cx, s, b);
}

static int check_state(io_ctx_t *cx, const save_t *s, const battle_t *b)
{
    if (b->round != s->round)
        return io_fail(cx, "state.round", "the rebuilt battle is in round %d, the save says %d",
                       b->round, s->round);
    if (b->over != s->over)
        return io_fail(cx, "state.over", "the rebuilt battle is %s, the save says it is %s",
                       b->over ? "over" : "going on", s->over ? "over" : "going on");
    const char *w = b->over && b->winner >= 0 && b->winner < b->board->n_sides
                        ? b->board->side_name[b->winner]
                        : "";
    if (strcmp(w, s->winner) != 0)
        return io_fail(cx, "state.winner", "the rebuilt battle was won by %s, the save says %s",
                       *w ? w : "nobody", s->winner[0] ? s->winner : "nobody");
    for (int i = 0; i < b->n; i++) {
        char p[IO_PATH_MAX], q[IO_PATH_MAX];
        io_path_index(p, sizeof p, "state.combatants", i);
        if (b->u[i].hp != s->hp[i]) {
            io_path_key(q, sizeof q, p, "hp");
            return io_fail(cx, q, "the rebuilt battle gives %s %d HP, the save says %d",
                           b->src_map->combatants[i].id, b->u[i].hp, s->hp[i]);
        }
        if (b->u[i].out != s->out[i]) {
            io_path_key(q, sizeof q, p, "out");
            return io_fail(cx, q, "the rebuilt battle has %s %s, the save says %s",
                           b->src_map->combatants[i].id, b->u[i].out ? "out" : "fighting",
                           s->out[i] ? "out" : "fighting");
        }
    }
    return HB_OK;
}

static const char *status_why(battle_status_t st)
{
    switch (st) {
    case BATTLE_ILLEGAL:
        return "not allowed at this point of the battle";
    case BATTLE_NEED_DICE:
        return "needs a die the save does not hold";
    case BATTLE_OVER:
        return "comes after the end of the battle";
    case BATTLE_ERROR:
        return "breaks a limit of the ruleset (a roll of too many dice...)";
    default:
        return "out of memory";
    }
}

int save_rebuild_exact(const save_t *s, play_t *p, char *err, size_t errcap)
{
    io_ctx_t cx = {.file = s->file, .err = err, .errcap = errcap};
    memset(p, 0, sizeof *p);
    battle_status_t st = play_start(p, s->map, s->db, NULL, &s->opts);
    if (st == BATTLE_ILLEGAL || st == BATTLE_NOMEM || st == BATTLE_ERROR || !p->b) {
        if (p->b) play_end(p);
        return st == BATTLE_NOMEM  ? io_fail_other(&cx, "out of memory")
               : st == BATTLE_ERROR ? io_fail(&cx, "map.ruleset", "%s", p->error)
                                    : io_fail(&cx, "map.ruleset", "this ruleset cannot be played");
    }
    battle_t *b = p->b;
    /* The values for a pending command are entered one by one below, so each
     * is checked against the die the battle asks for. */
    int upfront = s->n_dice;
    for (int k = 0; k < upfront; k++)
        if (!dice_enter(&b->dice, s->dice[k])) {
            play_end(p);
            return io_fail_other(&cx, "out of memory");
        }
    st = play_rebuild(p);
    if (st == BATTLE_NOMEM) {
        play_end(p);
        return io_fail_other(&cx, "out of memory");
    }
    if (st == BATTLE_NEED_DICE && (s->n_cmds > 0 || s->has_pending)) {
        play_end(p);
        return io_fail(&cx, "dice", "too few values for the setup (%d given)", s->n_dice);
    }
    char path[IO_PATH_MAX];
    for (int k = 0; k < s->n_cmds; k++) {
        st = play_apply(p, &s->cmds[k]);
        if (st != BATTLE_OK) {
            io_path_index(path, sizeof path, "commands", k);
            char why[BATTLE_FAULT_MAX];
            hb_strlcpy(why, st == BATTLE_ERROR ? p->error : status_why(st), sizeof why);
            play_end(p);
            return st == BATTLE_NOMEM ? io_fail_other(&cx, "out of memory")
                                      : io_fail(&cx, path, "%s", why);
        }
    }
    if (s->has_pending) {
        int left = b->dice.n_entered - b->dice.cursor;
        int first = b->dice.cursor;
        b->dice.n_entered = b->dice.cursor;
        st = play_apply(p, &s->pending);
        if (st != BATTLE_NEED_DICE) {
            play_end(p);
            return io_fail(&cx, "pending", "%s",
                           st == BATTLE_OK ? "needs no dice, so it belongs in \"commands\""
                                           : status_why(st));
        }
        for (int k = 0; k < left; k++) {
            io_path_index(path, sizeof path, "dice", first + k);
            int v = s->dice[first + k];
            int sides = b->need.sides;
            st = play_enter_die(p, v);
            if (st == BATTLE_ILLEGAL && v > sides) {
                play_end(p);
                return io_fail(&cx, path, "%d is not a face of the d%d the pending command rolls",
                               v, sides);
            }
            if (st != BATTLE_NEED_DICE) {
                play_end(p);
                return io_fail(&cx, path, "the pending command %s with this value",
                               st == BATTLE_OK ? "would go on" : "is refused");
            }
        }
    } else if (b->dice.cursor < b->dice.n_entered && !p->setup_pending) {
        io_path_index(path, sizeof path, "dice", b->dice.cursor);
        play_end(p);
        return io_fail(&cx, path, "entered but never used by the battle");
    }
    int rc = check_faces(&cx, s, b);
    if (!rc && s->stopped && !b->over) play_stop(p);
    if (!rc) rc = check_state(&cx, s, b);
    if (rc) play_end(p);
    return rc;
}

/* ---- autosave ---- */

bool save_autosave_dir(char *out, size_t cap)
{
    return hb_plat_user_dir(HB_USER_DATA, out, cap);
}

bool save_autosave_path(const char *dir, int k, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/autosave-%d.json", dir, k);
    return n > 0 && (size_t)n < cap;
}

int save_autosave_shift(const char *dir, char *err, size_t errcap)
{
    char from[SAVE_PATH_MAX], to[SAVE_PATH_MAX];
    for (int k = SAVE_AUTOSAVES - 1; k >= 1; k--) {
        if (!save_autosave_path(dir, k, from, sizeof from) ||
            !save_autosave_path(dir, k + 1, to, sizeof to)) {
            snprintf(err, errcap, "%s: cannot write: folder name too long", dir);
            return HB_ERR_OTHER;
        }
        /* A rename is atomic, so each slot always holds a whole save; a
         * missing slot (the first autosaves) is fine. */
        if (hb_rename(from, to) != 0 && errno != ENOENT) {
            snprintf(err, errcap, "%s: cannot write: %s (moving the older autosaves down)", to,
                     strerror(errno));
            return HB_ERR_OTHER;
        }
    }
    return HB_OK;
}

int save_autosave(const char *dir, const play_t *p, const save_table_t *table, const char *map_file,
                  char *err, size_t errcap)
{
    char to[SAVE_PATH_MAX];
    if (!save_autosave_path(dir, 1, to, sizeof to)) {
        snprintf(err, errcap, "%s: cannot write: folder name too long", dir);
        return HB_ERR_OTHER;
    }
    if (!hb_make_dirs(dir, 0777)) {
        snprintf(err, errcap, "%s: cannot write: %s (creating the autosave folder)", to,
                 strerror(errno));
        return HB_ERR_OTHER;
    }
    /* The new save is written whole first; only then do the older slots
     * move down, so a failed write (a full disk) loses no autosave. */
    char *text = save_to_json(p, table, map_file);
    if (!text) {
        snprintf(err, errcap, "%s: cannot write: out of memory", to);
        return HB_ERR_OTHER;
    }
    hb_pending_t pend;
    int rc = hb_write_begin(to, text, strlen(text), &pend, err, errcap);
    free(text);
    if (rc == HB_OK) rc = save_autosave_shift(dir, err, errcap);
    if (rc == HB_OK) return hb_write_commit(&pend, false, err, errcap);
    hb_write_abort(&pend);
    return rc;
}
