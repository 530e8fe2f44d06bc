/* battle.c - battle state, rolls and the event log plumbing (see battle.h). */
#include "battle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

battle_t *battle_create(const map_t *m, const tmpl_db_t *db, const battle_opts_t *opts,
                        const char *const *stat_names, int n_stats, size_t rs_size)
{
    if (n_stats < 0 || n_stats > UNIT_MAX_STATS)
        return NULL; /* refused, never cut short (play_start says why) */
    battle_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->src_map = m;
    b->db = db;
    b->opts = *opts;
    b->stat_names = stat_names;
    b->n_stats = n_stats;
    b->rs_size = rs_size;
    b->n = m->n_combatants;
    b->ncells = m->cols * m->rows;
    size_t n1 = (size_t)(b->n > 0 ? b->n : 1);
    size_t nc = (size_t)b->ncells;
    dice_init(&b->dice, opts->seed);
    b->dice.manual_sides = opts->manual_sides;
    b->dice.manual_all = opts->manual_all;
    b->u = calloc(n1, sizeof *b->u);
    b->prof = calloc(n1, sizeof *b->prof);
    b->rs = calloc(1, rs_size ? rs_size : 1);
    b->ps = path_search_create(b->ncells);
    b->reach = malloc(nc * sizeof *b->reach);
    b->path = malloc(nc * sizeof *b->path);
    b->hexes = malloc(nc * sizeof *b->hexes);
    if (!b->u || !b->prof || !b->rs || !b->ps || !b->reach || !b->path || !b->hexes) {
        battle_destroy(b);
        return NULL;
    }
    return b;
}

void battle_destroy(battle_t *b)
{
    if (!b)
        return;
    board_destroy(b->board);
    map_destroy(b->map);
    free(b->u);
    free(b->prof);
    free(b->rs);
    path_search_destroy(b->ps);
    free(b->reach);
    free(b->path);
    free(b->hexes);
    dice_free(&b->dice);
    event_log_free(&b->log);
    cmd_log_free(&b->cmds);
    free(b);
}

/* A combatant's stat as given: the map's explicit value, else its
 * template's; false when neither gives it. */
static bool given_stat(const battle_t *b, const map_combatant_t *c, const char *key, int *out)
{
    if (map_combatant_stat(c, key, out))
        return true;
    const tmpl_t *t = c->template_name[0] ? tmpl_find(b->db, c->template_name) : NULL;
    return t && stat_get(t->stats, t->n_stats, key, out);
}

/* A combatant's stat: the map's explicit value, else its template's, else 0. */
static int resolve_stat(const battle_t *b, const map_combatant_t *c, const char *key)
{
    int v = 0;
    return given_stat(b, c, key, &v) ? v : 0;
}

bool battle_stat_given(const battle_t *b, int i, const char *key)
{
    int v;
    return i >= 0 && i < b->n && given_stat(b, &b->src_map->combatants[i], key, &v);
}

bool battle_reset(battle_t *b)
{
    board_destroy(b->board);
    map_destroy(b->map);
    b->board = NULL;
    b->map = map_clone(b->src_map);
    if (!b->map)
        return false;
    b->board = board_create(b->map);
    if (!b->board)
        return false;
    for (int i = 0; i < b->n; i++) {
        const map_combatant_t *c = &b->map->combatants[i];
        unit_t *u = &b->u[i];
        memset(u, 0, sizeof *u);
        u->hp = c->hp;
        u->hp_max = c->hp_max > 0 ? c->hp_max : c->hp;
        for (int s = 0; s < b->n_stats; s++)
            u->stat[s] = u->stat_max[s] = resolve_stat(b, c, b->stat_names[s]);
        for (int w = 0; w < c->n_weapons; w++) {
            const weapon_t *wp = tmpl_find_weapon(b->db, c->weapons[w]);
            if (wp)
                u->weapon[u->n_weapons++] = wp;
        }
        u->equipped = u->n_weapons ? 0 : -1;
    }
    memset(b->rs, 0, b->rs_size ? b->rs_size : 1);
    event_clear(&b->log);
    dice_rewind(&b->dice);
    b->round = 0;
    b->over = false;
    b->stopped = false;
    b->winner = -1;
    b->needing = false;
    b->asking = false;
    b->fault[0] = 0;
    b->cmd = NULL;
    b->asked = 0;
    b->frozen = 0;
    return true;
}

void battle_emit(battle_t *b, const event_t *e)
{
    if (!event_push(&b->log, e))
        b->oom = true;
}

void battle_emit_action(battle_t *b, int who, const char *name, int target, bool ok)
{
    event_t e = event_make(EV_ACTION);
    e.who = who;
    e.target = target;
    e.hit = ok;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

void battle_emit_condition(battle_t *b, int who, const char *name, bool on)
{
    event_t e = event_make(EV_CONDITION);
    e.who = who;
    e.on = on;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

void battle_emit_stat(battle_t *b, int who, const char *name, int value)
{
    event_t e = event_make(EV_STAT);
    e.who = who;
    e.value = value;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

void battle_emit_change(battle_t *b, int who, const char *name, int from, int value)
{
    event_t e = event_make(EV_STAT);
    e.who = who;
    e.value = value;
    e.amount = from;
    e.opt |= EV_OPT_FROM;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

battle_status_t battle_status(const battle_t *b)
{
    if (b->needing)
        return BATTLE_NEED_DICE;
    if (b->asking)
        return BATTLE_NEED_REACTION;
    if (b->fault[0])
        return BATTLE_ERROR;
    return BATTLE_OK;
}

void battle_fault(battle_t *b, const char *fmt, ...)
{
    if (battle_halted(b))
        return; /* the first mark stands; this one would come again after it */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->fault, sizeof b->fault, fmt, ap);
    va_end(ap);
    if (!b->fault[0])
        hb_strlcpy(b->fault, "fault", sizeof b->fault);
}

int battle_roll_spec_side(battle_t *b, int who, int side, const roll_spec_t *s, const char *why,
                          event_t *out)
{
    event_t e = event_make(EV_ROLL);
    e.who = who;
    e.side = side;
    hb_strlcpy(e.name, why, sizeof e.name);
    char bad[96];
    if (b->frozen > 0 || !roll_check(s, bad, sizeof bad)) {
        /* Fail loudly: no dice thrown, no clamp; the command is refused. */
        if (b->frozen > 0)
            battle_fault(b, "a roll for '%s' from code that must not roll (AI, legal list, odds)",
                         why);
        else
            battle_fault(b, "a roll for '%s': %s", why, bad);
        e.total = s->mod;
        if (out)
            *out = e;
        return e.total;
    }
    e.spec = *s;
    e.sides = s->sides;
    e.n_dice = s->n;
    e.mod = s->mod;
    for (int k = 0; k < s->n; k++) {
        if (battle_halted(b)) {
            e.dice[k] = 1; /* a stand-in: the command will be applied again */
            continue;
        }
        if (!dice_take(&b->dice, side, s->sides, &e.dice[k])) {
            b->needing = true;
            b->need = (dice_request_t){.who = who,
                                       .sides = s->sides,
                                       .index = k,
                                       .count = s->n,
                                       .keep = s->keep,
                                       .mod = s->mod,
                                       .spec = *s};
            hb_strlcpy(b->need.why, why, sizeof b->need.why);
            e.dice[k] = 1;
        }
    }
    roll_result_t r;
    roll_read(s, e.dice, &r);
    e.kept_n = r.kept_n;
    memcpy(e.kept, r.kept, sizeof(int) * (size_t)r.kept_n);
    e.total = r.total;
    e.successes = r.successes;
    battle_emit(b, &e);
    if (out)
        *out = e;
    return e.total;
}

int battle_roll_spec(battle_t *b, int who, const roll_spec_t *s, const char *why, event_t *out)
{
    int side = who >= 0 && who < b->n ? b->board->side[who] : -1;
    return battle_roll_spec_side(b, who, side, s, why, out);
}

int battle_roll_side(battle_t *b, int who, int side, int n, int sides, int keep, int mod,
                     const char *why, event_t *out)
{
    roll_spec_t s = roll_plain(n, sides, keep, mod);
    return battle_roll_spec_side(b, who, side, &s, why, out);
}

int battle_roll(battle_t *b, int who, int n, int sides, int keep, int mod, const char *why,
                event_t *out)
{
    roll_spec_t s = roll_plain(n, sides, keep, mod);
    return battle_roll_spec(b, who, &s, why, out);
}

int battle_stat_slot(const battle_t *b, const char *name)
{
    for (int s = 0; s < b->n_stats; s++)
        if (strcmp(b->stat_names[s], name) == 0)
            return s;
    return -1;
}

const weapon_t *battle_weapon(const battle_t *b, int i, int w)
{
    if (i < 0 || i >= b->n || w < 0 || w >= b->u[i].n_weapons)
        return NULL;
    return b->u[i].weapon[w];
}

int battle_weapon_tag(const weapon_t *w, const char *key)
{
    int v = 0;
    if (w && stat_get(w->tags, w->n_tags, key, &v))
        return v;
    return 0;
}

int battle_side_count(const battle_t *b, int side)
{
    int k = 0;
    for (int i = 0; i < b->n; i++)
        k += !b->u[i].out && b->board->side[i] == side;
    return k;
}

void battle_remove(battle_t *b, int i)
{
    b->u[i].out = true;
    if (b->board->present[i])
        board_remove(b->board, i);
}

void battle_step(battle_t *b, int i, hex_t h)
{
    event_t e = event_make(EV_MOVE_STEP);
    e.who = i;
    e.from = hex_to_cell(b->map->layout, b->board->pos[i]);
    e.to = hex_to_cell(b->map->layout, h);
    board_t *bd = b->board;
    int idx = board_cell_index(bd, h);
    if (idx >= 0 && bd->occ[idx] >= 0 && bd->occ[idx] != i) {
        /* Passing through an ally: the hex stays the ally's. */
        int old = board_cell_index(bd, bd->pos[i]);
        if (old >= 0 && bd->occ[old] == i)
            bd->occ[old] = -1;
        bd->pos[i] = h;
    } else {
        board_place(bd, i, h);
    }
    battle_emit(b, &e);
}

bool battle_is_player(const battle_t *b, int i)
{
    return map_faction_is_player(b->map, b->map->combatants[i].faction);
}

bool battle_round_end(battle_t *b)
{
    event_t e = event_make(EV_ROUND_END);
    e.value = b->round;
    battle_emit(b, &e);
    if (b->opts.max_rounds > 0 && b->round >= b->opts.max_rounds) {
        b->stopped = true;
        return false;
    }
    b->round++;
    return true;
}

int battle_table_choice(battle_t *b, int reactor, const char *kind, int trigger, int n,
                        const char *const *labels)
{
    if (battle_halted(b))
        return 0; /* the command is applied again once the mark is answered */
    if (n < 1 || n > REACT_CHOICES_MAX) {
        battle_fault(b, "a reaction '%s' with %d options (1 to %d are allowed)", kind, n,
                     REACT_CHOICES_MAX);
        return 0;
    }
    unsigned side = (unsigned)b->board->side[reactor];
    if (side < 32 && (b->opts.decline_sides & (1u << side)))
        return 0; /* the table's standing choice: let every reaction pass */
    if (side >= 32 || !(b->opts.ask_sides & (1u << side)) || !b->cmd)
        return -1;
    int k = b->asked++;
    if (k >= CMD_ANSWERS_MAX)
        return -1; /* more than one command can hold answers for: the policy */
    if (k < b->cmd->n_answers) {
        int a = b->cmd->answer[k];
        if (a >= n)
            battle_fault(b, "answer %d to a reaction '%s' of %d options", a, kind, n);
        return a < n ? a : 0;
    }
    if (b->replaying)
        return -1;
    b->asking = true;
    b->ask = (react_request_t){.who = reactor, .trigger = trigger, .n = n};
    hb_strlcpy(b->ask.kind, kind, sizeof b->ask.kind);
    for (int o = 0; o < n; o++)
        hb_strlcpy(b->ask.labels[o], labels && labels[o] ? labels[o] : o ? "take it" : "let it pass",
                   sizeof b->ask.labels[o]);
    return 0;
}

bool battle_table_asks(const battle_t *b, int reactor)
{
    unsigned side = (unsigned)b->board->side[reactor];
    return side < 32 && (b->opts.ask_sides & (1u << side)) &&
           !(b->opts.decline_sides & (1u << side)) && b->cmd && !battle_halted(b);
}

bool battle_ask_reaction(battle_t *b, int reactor, const char *kind, int trigger)
{
    int k = battle_table_choice(b, reactor, kind, trigger, 2, NULL);
    return k < 0 || k != 0;
}

void battle_ask_order(battle_t *b, int who, const char *label)
{
    react_request_t *q = &b->ask;
    if (!b->asking || q->n_order >= REACT_ORDER_MAX) return;
    q->order_who[q->n_order] = who;
    hb_strlcpy(q->order_labels[q->n_order], label ? label : "", sizeof q->order_labels[0]);
    q->n_order++;
}

int battle_last_side(const battle_t *b)
{
    int alive = -1, sides = 0;
    for (int sd = 0; sd < b->board->n_sides; sd++)
        if (battle_side_count(b, sd) > 0) {
            alive = sd;
            sides++;
        }
    if (sides == 0)
        return -1;
    return sides == 1 ? alive : -2;
}
