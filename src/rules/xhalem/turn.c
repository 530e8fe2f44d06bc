/* turn.c - xhalem initiative, turns and rounds, and the ruleset table.
 */
#include "xh_int.h"

static const char *const STAT_NAMES[XS_COUNT] = {
    [XS_AGILITY] = "agility",
    [XS_STRENGTH] = "strength",
    [XS_EVASION] = "evasion",
    [XS_STEALTH] = "stealth",
    [XS_PERCEPTION] = "perception",
    [XS_INVESTIGATION] = "investigation",
    [XS_ENGINE] = "engine",
    [XS_SYSTEMS] = "systems",
    [XS_HULL] = "hull",
    [XS_REACTOR] = "reactor",
    [XS_SCANNERS] = "scanners",
    [XS_CLOAK] = "cloak",
    [XS_DUAL_STRIKE] = "dual_strike",
    [XS_DUAL_WEAPON] = "dual_weapon",
    [XS_AQUATIC] = "aquatic",
    [XS_TELEPORT] = "teleport",
};

static const char *const MOVE_MODES[XM_COUNT] = {
    [XM_WALK] = "walk", [XM_FLY] = "fly", [XM_DASH] = "dash"};

/* Order idx[0..n) by key[] descending, ties kept in map order. */
static void sort_by_key(int *idx, int n, const int *key)
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i - 1;
        while (j >= 0 && (key[idx[j]] < key[v] || (key[idx[j]] == key[v] && idx[j] > v))) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = v;
    }
}

/* Settle the order of a run of equal initiative (RULINGS: initiative ties). */
/* Settle the order of a run of equal initiative (RULINGS: initiative ties).
 * scored: the run was already ordered by score, so only a re-roll is left;
 * a run of players left tied by a mixed re-roll goes to the score first. */
static void break_tie(battle_t *b, int *run, int n, int depth, bool scored)
{
    if (n < 2 || depth > 8) return; /* after eight re-rolls, map order is as fair as anything */
    int players = 0;
    for (int k = 0; k < n; k++)
        players += battle_is_player(b, run[k]);
    int *key = st(b)->tiekey;
    if (players == 0) return; /* the Architect orders its own: map order by default */
    bool by_score = players == n && !scored;
    if (by_score) {
        /* Players: the higher Engine / Evasion goes first. */
        for (int k = 0; k < n; k++)
            key[run[k]] = evade_bonus(b, run[k]);
    } else {
        for (int k = 0; k < n; k++)
            key[run[k]] = battle_roll(b, run[k], 1, 20, 0, evade_bonus(b, run[k]),
                                      "initiative re-roll", NULL);
    }
    sort_by_key(run, n, key);
    int keys[NMAX];
    for (int k = 0; k < n; k++)
        keys[k] = key[run[k]];
    for (int a = 0; a < n;) {
        int z = a + 1;
        while (z < n && keys[z] == keys[a])
            z++;
        break_tie(b, run + a, z - a, depth + 1, scored || by_score);
        a = z;
    }
}

static void roll_initiative(battle_t *b)
{
    xh_state_t *s = st(b);
    /* Group initiative: a battle option, or the map's ("options":
     * {"group_initiative": true}), set in the editor too. */
    int on = 0;
    bool group = b->opts.group_initiative || (map_option(b->map, "group_initiative", &on) && on);
    int n = 0;
    int *order = s->order;
    bool rolled[NMAX];
    memset(rolled, 0, sizeof rolled);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i) || rolled[i]) continue;
        int total = battle_roll(b, i, 1, 20, 0, evade_bonus(b, i), "initiative", NULL);
        s->score[i] = total;
        rolled[i] = true;
        order[n++] = i;
        if (!group || battle_is_player(b, i)) continue;
        /* Optional: like Architect combatants (same side and template) share the roll. */
        for (int j = i + 1; j < b->n; j++) {
            if (rolled[j] || !battle_active(b, j) || battle_is_player(b, j) ||
                !board_allies(b->board, i, j) ||
                strcmp(mc(b, i)->template_name, mc(b, j)->template_name) != 0 ||
                !mc(b, i)->template_name[0])
                continue;
            s->score[j] = total - evade_bonus(b, i) + evade_bonus(b, j);
            rolled[j] = true;
            order[n++] = j;
        }
    }
    sort_by_key(order, n, s->score);
    for (int a = 0; a < n;) {
        int z = a + 1;
        while (z < n && s->score[order[z]] == s->score[order[a]])
            z++;
        break_tie(b, order + a, z - a, 0, false);
        a = z;
    }
    s->n_order = n;
    for (int k = 0; k < n; k++) {
        event_t e = event_make(EV_INITIATIVE);
        e.who = order[k];
        e.total = s->score[order[k]];
        e.value = k + 1;
        battle_emit(b, &e);
    }
}

static void start_turn(battle_t *b, int i)
{
    xh_state_t *s = st(b);
    s->actor = i;
    memset(&s->turn, 0, sizeof s->turn);
    memset(s->engaged_by_mover, 0, sizeof(s->engaged_by_mover[0]) * (size_t)b->n);
    /* What i set up on its last turn runs out now. */
    s->standby[i] = 0;
    for (int t = 0; t < b->n; t++)
        if (s->assist_on[t] == i + 1) {
            s->assist_on[t] = s->assist_for[t] = 0;
            xh_set_cond(b, t, XC_DISTRACTED, "distracted", false);
        }
    event_t e = event_make(EV_TURN_START);
    e.who = i;
    e.value = b->round;
    battle_emit(b, &e);
    if (has(b, i, XC_PRONE)) {
        /* Standing up costs half the move. */
        s->turn.moved_ft = xh_mode_speed(b, i) / 2;
        xh_set_cond(b, i, XC_PRONE, "prone", false);
    }
}

/* Hand the turn to the next combatant still standing; close rounds as they pass. */
void xh_next_turn(battle_t *b)
{
    xh_state_t *s = st(b);
    /* A held move may use only what this turn's movement left over. */
    if (s->actor >= 0 && s->standby[s->actor]) s->sb_move_ft[s->actor] = xhalem_move_left(b);
    event_t e = event_make(EV_TURN_END);
    e.who = s->actor;
    e.value = b->round;
    battle_emit(b, &e);
    for (int guard = 0; guard < 2 * s->n_order + 2; guard++) {
        s->cur++;
        if (s->cur >= s->n_order) {
            s->cur = 0;
            if (!battle_round_end(b)) {
                s->actor = -1;
                return;
            }
            memset(s->reaction_used, 0, sizeof(s->reaction_used[0]) * (size_t)b->n);
        }
        int i = s->order[s->cur];
        /* A mount with a rider acts on the rider's turn (shared initiative). */
        if (battle_active(b, i) && rider_on(b, i) < 0) {
            start_turn(b, i);
            return;
        }
    }
    s->actor = -1;
}

static void xhalem_setup(battle_t *b)
{
    xh_state_t *s = st(b);
    s->actor = -1;
    for (int i = 0; i < b->n; i++) {
        s->sb_target[i] = -1;
        /* A machine starts with its first two weapons in hand. */
        s->mhand[i] = (unsigned short)(b->u[i].n_weapons >= 2 ? 3 : b->u[i].n_weapons);
        b->prof[i].reach_ft = xhalem_reach(b, i);
        /* A combatant without hit points is already out. */
        if (b->u[i].hp <= 0) battle_remove(b, i);
    }
    roll_initiative(b);
    b->round = 1;
    s->cur = 0;
    for (; s->cur < s->n_order; s->cur++)
        if (battle_active(b, s->order[s->cur])) {
            start_turn(b, s->order[s->cur]);
            break;
        }
}

static int xhalem_actors(const battle_t *b, int *out, int cap)
{
    const xh_state_t *s = cst(b);
    if (b->over || s->actor < 0 || cap < 1) return 0;
    out[0] = s->actor;
    return 1;
}

const ruleset_t ruleset_xhalem = {
    .id = "xhalem",
    .title = "Xha'lem: mechs and creatures",
    .geo_profile = xhalem_geo_profile,
    .stat_names = STAT_NAMES,
    .n_stats = XS_COUNT,
    .state_size = sizeof(xh_state_t),
    .setup = xhalem_setup,
    .actors = xhalem_actors,
    .move_modes = MOVE_MODES,
    .n_move_modes = XM_COUNT,
    .move_cost = xhalem_move_cost,
    .legal = xhalem_legal,
    .apply = xhalem_apply,
    .react = xhalem_react,
    .ai = xhalem_ai,
    .winner = battle_last_side,
    .hidden_from = xhalem_hidden_from,
    .predict = xh_predict,
    .bands = xh_bands,
    .describe = xh_describe,
};
