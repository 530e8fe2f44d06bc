/* ai.c - emcore's built-in AI. It weighs every contest by the exact odds of
 * the pools (present.c), never rolls, and in the Immediate phase decides
 * from what it may know: where everyone stands and how hurt they are, never
 * what the other side has declared. See docs/rules-emcore.md, "The AI". */
#include <string.h>

#include "../../core/trigger.h"
#include "emcore.h"

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }

/* Wounds i can still take before it is out. */
static int left(const battle_t *b, int i) { return b->u[i].hp; }

/* How much a wound on t is worth: more the closer it is to falling. */
static double wound_value(const battle_t *b, int t, double wounds)
{
    int l = left(b, t);
    if (l <= 0)
        return 0.0;
    double v = wounds < l ? wounds : l;
    return v * (1.0 + 1.0 / l);
}

/* ---- reactions ---------------------------------------------------------------- */

/* Wounds a's attack on i with weapon wi, of this kind, would do on average
 * when it lands undodged: the pools it rolls, against no defence. */
static double landed_wounds(const battle_t *b, int i, int a, int wi, em_attack_kind_t kind,
                            bool ranged)
{
    const weapon_t *w = battle_weapon(b, a, wi);
    em_odds_t o = em_odds(em_aspect_dice(b, a, em_attack_aspect(w, ranged)),
                          em_attack_mode(b, i, w, kind, ranged), 0, 0,
                          em_base_damage(b, a, w, kind, ranged), em_soak_dice(b, i));
    return o.p_win > 0.0 ? o.wounds / o.p_win : 0.0;
}

/* The same for the attack a is making on i now: the one em_offer_dodge
 * noted (a hasty, aimed, readied or opportunity attack, or a blow in the
 * Immediate phase), priced as it will roll; else the hardest a could
 * strike i with in this phase. */
static double hit_wounds(const battle_t *b, int i, int a)
{
    const em_state_t *s = em_cst(b);
    if (s->inc_attacker == a)
        return landed_wounds(b, i, a, s->inc_weapon, (em_attack_kind_t)s->inc_kind,
                             s->inc_ranged != 0);
    double best = 0.0;
    for (int w = -1; w < b->u[a].n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        double v = 0.0;
        if (w >= 0 && em_shot_reaches(b, a, i, wp))
            v = landed_wounds(b, i, a, w, em_phase(b) == EP_COMMITMENT ? EK_COMMITTED : EK_HASTY,
                              true);
        if ((w < 0 || em_is_melee(wp)) && em_melee_reaches(b, a, i, wp)) {
            double m = landed_wounds(b, i, a, w, em_phase(b) == EP_IMMEDIATE ? EK_FIGHT : EK_READIED,
                                     false);
            v = m > v ? m : v;
        }
        best = v > best ? v : best;
    }
    return best;
}

bool em_ai_dodge(const battle_t *b, int i, int a, bool will)
{
    if (!will)
        return true; /* a point spent on a dodge is rarely wasted */
    /* Willpower is for a blow that would take half of what it has left. */
    return 2.0 * hit_wounds(b, i, a) >= left(b, i);
}

bool em_ai_opportunity(const battle_t *b, int r, int t, bool will)
{
    (void)r;
    /* A desperate blow for Willpower only at a foe about to fall. */
    return !will || left(b, t) <= 2;
}

/* ---- the Immediate phase --------------------------------------------------------- */

/* Expected wounds i takes from the foes in its engagement that can strike
 * it, when it rolls def_n dice of defence. Each foe is taken to strike one
 * of the characters of i's side in its reach, with an equal chance. */
static double melee_threat(const battle_t *b, int i, int def_n)
{
    double loss = 0.0;
    for (int e = 0; e < b->n; e++) {
        if (!em_participant(b, e) || !em_enemies(b, e, i))
            continue;
        int w = em_best_melee(b, e, i);
        if (w < -1)
            continue;
        int share = 0;
        for (int j = 0; j < b->n; j++)
            share += battle_active(b, j) && !em_enemies(b, i, j) && em_best_melee(b, e, j) >= -1;
        const weapon_t *wp = battle_weapon(b, e, w);
        em_odds_t o = em_odds(em_aspect_dice(b, e, em_weapon_aspect(wp)), EPOOL_FULL, def_n, 0,
                              em_base_damage(b, e, wp, EK_FIGHT, false), em_soak_dice(b, i));
        loss += o.wounds / (share > 0 ? share : 1);
    }
    return loss;
}

static void ai_declare(battle_t *b, int a, cmd_t *out)
{
    const unit_t *u = &b->u[a];
    double fear = 1.0 + (double)(u->hp_max - u->hp) / (u->hp_max > 0 ? u->hp_max : 1);
    int bt = -1, bw = -1;
    double gain = 0.0;
    for (int w = em_melee_from(b, a); w < u->n_weapons; w++) {
        if (w >= 0 && !em_is_melee(u->weapon[w]))
            continue;
        for (int t = 0; t < b->n; t++) {
            em_forecast_t f;
            if (!battle_active(b, t) || !em_forecast_kind(b, a, t, w, EK_FIGHT, &f))
                continue;
            double v = wound_value(b, t, f.odds.wounds);
            if (bt < 0 || v > gain + 1e-9) {
                gain = v;
                bt = t;
                bw = w;
            }
        }
    }
    const weapon_t *wp = battle_weapon(b, a, bw);
    double loss_fight = melee_threat(b, a, em_aspect_dice(b, a, em_weapon_aspect(wp)));
    double loss_break = melee_threat(b, a, em_aspect_dice(b, a, EA_ADEPTNESS));
    *out = cmd_make(CMD_DECLARE, a);
    /* Breaking off gives up the blow for a better defence: worth it only
     * when the blow is worth less than the wounds it saves. */
    if ((gain - loss_fight * fear) + 0.1 < -loss_break * fear) {
        out->act = CMD_DISENGAGE;
        return;
    }
    out->act = CMD_ENGAGE;
    out->weapon = bw;
    if (bt >= 0)
        out->target = bt;
    else
        out->arg = 1;
}

/* ---- the Movement and Commitment phases --------------------------------------------- */

/* Does i carry something to shoot with beyond the next hex? */
static bool shooter(const battle_t *b, int i)
{
    for (int w = 0; w < b->u[i].n_weapons; w++)
        if (b->u[i].weapon[w]->cls == WPN_RANGED)
            return true;
    return false;
}

/* Enemies of i that could shoot at hex h from where they stand. */
static int shooters_on(const battle_t *b, int i, hex_t h)
{
    int n = 0;
    for (int e = 0; e < b->n; e++) {
        if (!em_able(b, e) || !em_enemies(b, e, i))
            continue;
        for (int w = 0; w < b->u[e].n_weapons; w++) {
            const weapon_t *wp = b->u[e].weapon[w];
            int d = hex_distance(pos(b, e), h);
            if (wp->cls == WPN_RANGED && d <= em_range_hex(b, wp) &&
                sight_clear(b->board, pos(b, e), h)) {
                n++;
                break;
            }
        }
    }
    return n;
}

/* Able enemies of i next to hex h. */
static int foes_beside(const battle_t *b, int i, hex_t h)
{
    int n = 0;
    for (int e = 0; e < b->n; e++)
        n += em_able(b, e) && em_enemies(b, e, i) && hex_distance(pos(b, e), h) == 1;
    return n;
}

/* The best attack of this kind a has from where it stands (weapon in *w,
 * target in *t), valued in wounds; 0 when there is none. */
static double best_attack(const battle_t *b, int a, em_attack_kind_t kind, int only_w, int *t,
                          int *w)
{
    double best = 0.0;
    *t = -1;
    *w = -1;
    for (int wi = 0; wi < b->u[a].n_weapons; wi++) {
        const weapon_t *wp = b->u[a].weapon[wi];
        if ((only_w >= 0 && wi != only_w) || !em_is_ranged(wp))
            continue;
        if (kind == EK_HASTY && battle_weapon_tag(wp, "committed_only") > 0)
            continue;
        for (int k = 0; k < b->n; k++) {
            em_forecast_t f;
            if (!battle_active(b, k) || !em_forecast_kind(b, a, k, wi, kind, &f) || f.ranged == false)
                continue;
            double v = wound_value(b, k, f.odds.wounds);
            if (v > best + 1e-9) {
                best = v;
                *t = k;
                *w = wi;
            }
        }
    }
    return best;
}

/* Would a standing at h have an aimed shot worth taking? */
static double shot_from(battle_t *b, int a, hex_t h)
{
    hex_t old = pos(b, a);
    board_place(b->board, a, h);
    int t, w;
    double v = best_attack(b, a, EK_COMMITTED, -1, &t, &w);
    board_place(b->board, a, old);
    return v;
}

static void move_cmd(battle_t *b, int a, int mode, cell_t goal, cmd_t *out)
{
    cmd_t c = cmd_make(CMD_MOVE, a);
    c.arg = mode;
    c.n_path = em_path_mode(b, a, mode, goal, c.path, CMD_PATH_MAX);
    if (c.n_path > 0 && em_move_cost(b, a, mode, c.path, c.n_path) >= 0)
        *out = c;
}

/* Wounds i may expect from the enemy shooters that could aim at it this
 * turn (their best aimed shot each), when it defends with def_n dice
 * against each of them (0: no defence), or against the first only when
 * first_only is set (a single dodge). */
static double fire_threat(const battle_t *b, int i, int def_n, bool first_only)
{
    double loss = 0.0;
    bool first = true;
    for (int e = 0; e < b->n; e++) {
        if (!em_able(b, e) || !em_enemies(b, e, i))
            continue;
        double best = 0.0;
        for (int w = 0; w < b->u[e].n_weapons; w++) {
            const weapon_t *wp = b->u[e].weapon[w];
            if (wp->cls != WPN_RANGED || !em_shot_reaches(b, e, i, wp))
                continue;
            int d = (!first_only || first) ? def_n : 0;
            em_odds_t o = em_odds(em_aspect_dice(b, e, em_attack_aspect(wp, true)), EPOOL_FULL,
                                  d, 0, em_base_damage(b, e, wp, EK_COMMITTED, true),
                                  em_soak_dice(b, i));
            best = o.wounds > best ? o.wounds : best;
        }
        if (best > 0.0) {
            loss += best;
            first = false;
        }
    }
    return loss;
}

/* The last thing in a slot: cover when shooters can see it; with no cover
 * about, Evasion when its one roll against every shot saves more wounds
 * than a dodge against one would; else keep the points (a dodge). Out of
 * every shooter's sight, a spare point nocks an arrow for a later hasty
 * shot. */
static void ai_wind_up(battle_t *b, int a, cmd_t *out)
{
    const em_state_t *s = em_cst(b);
    int shooters = shooters_on(b, a, pos(b, a));
    *out = cmd_make(CMD_END, a);
    if (shooters == 0) {
        if (s->points[a] < 1 || foes_beside(b, a, pos(b, a)) > 0)
            return;
        for (int w = 0; w < b->u[a].n_weapons; w++)
            if (battle_weapon_tag(b->u[a].weapon[w], "nock") > 0 && !((s->nocked[a] >> w) & 1u)) {
                *out = cmd_make(CMD_NOCK, a);
                out->weapon = w;
                return;
            }
        return;
    }
    if (s->points[a] >= 1 && em_cover_allowed(b, a) && !(b->u[a].cond & EC_COVER)) {
        *out = cmd_make(CMD_COVER, a);
        return;
    }
    if (!em_may_evade(b, a) || (b->u[a].cond & EC_COVER))
        return;
    int dodge_n = em_aspect_dice(b, a, EA_ADEPTNESS);
    double with_dodge = fire_threat(b, a, dodge_n, true);
    double with_evasion = fire_threat(b, a, dodge_n, false);
    if (with_dodge - with_evasion >= 0.25)
        *out = cmd_make(CMD_EVADE, a);
}

/* Foe a melee character goes for: near, shooting, and hurt count. */
static int pick_foe(const battle_t *b, int a)
{
    int best = -1;
    double bv = 1e18;
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !em_enemies(b, a, t))
            continue;
        double v = hex_distance(pos(b, a), pos(b, t)) - (shooter(b, t) ? 3.0 : 0.0) +
                   0.5 * left(b, t);
        if (v < bv) {
            bv = v;
            best = t;
        }
    }
    return best;
}

/* The most wounds a run may risk from blows on a target of opportunity. */
#define RUN_RISK 0.5

/* What each foe e of i could do to i, a target of opportunity from now to
 * its next slot: the wounds of its best blow against no defence (E17),
 * soaked (oa[e], 0 for none), and how far it could come for it (far[e]
 * hexes: a charge, two hexes a point, with a point left for the blow, plus
 * reach). A foe whose slot comes later this turn has the points it has
 * left; one whose slot came earlier acts again before i next turn, with
 * its whole Movement. */
static void opportunity_threats(const battle_t *b, int i, double *oa, int *far)
{
    const em_state_t *s = em_cst(b);
    for (int e = 0; e < b->n; e++) {
        oa[e] = 0.0;
        far[e] = -1;
        if (!em_able(b, e) || !em_enemies(b, e, i))
            continue;
        bool before = false;
        for (int k = 0; k < s->cur && k < s->n_order && !before; k++)
            before = s->order[k] == e;
        int pts = before ? em_movement(b, e) : s->points[e];
        if (pts < 1)
            continue;
        for (int w = em_melee_from(b, e); w < b->u[e].n_weapons; w++) {
            const weapon_t *wp = battle_weapon(b, e, w);
            if (!em_is_melee(wp))
                continue;
            int reach = 2 * (pts - 1) + em_reach_hex(b, e, wp);
            far[e] = reach > far[e] ? reach : far[e];
            em_odds_t o = em_odds(em_aspect_dice(b, e, em_weapon_aspect(wp)), EPOOL_FULL, 0, 0,
                                  em_base_damage(b, e, wp, EK_OPPORTUNITY, false),
                                  em_soak_dice(b, i));
            oa[e] = o.wounds > oa[e] ? o.wounds : oa[e];
        }
    }
}

/* The wounds i may expect standing at h as a target of opportunity. */
static double exposure(const battle_t *b, hex_t h, const double *oa, const int *far)
{
    double loss = 0.0;
    for (int e = 0; e < b->n; e++)
        if (far[e] >= 0 && hex_distance(pos(b, e), h) <= far[e])
            loss += oa[e];
    return loss;
}

/* Would a standing at h be outnumbered: more foes able to close in on it by
 * the next Immediate phase than friends (a included) able to stand with it? */
static bool outnumbered(const battle_t *b, int a, hex_t h)
{
    /* Shooters count for half a friend: they help, but not in the melee. */
    int foes = 0, friends = 2;
    for (int j = 0; j < b->n; j++) {
        if (j == a || !em_able(b, j))
            continue;
        int reach = 2 * em_movement(b, j) + 1;
        if (hex_distance(pos(b, j), h) > reach)
            continue;
        if (em_enemies(b, a, j))
            foes += shooter(b, j) ? 0 : 2;
        else
            friends += shooter(b, j) ? 1 : 2;
    }
    return foes > friends;
}

/* Could a foe able to fight come into a's reach by its next slot? */
static bool foe_coming(const battle_t *b, int a)
{
    for (int e = 0; e < b->n; e++)
        if (em_able(b, e) && em_enemies(b, a, e) && !shooter(b, e) &&
            hex_distance(pos(b, e), pos(b, a)) <= 2 * em_movement(b, e) + 2)
            return true;
    return false;
}

/* a's melee weapon with the longest reach, the harder blow between equals
 * (-1 bare hands when it carries none). */
static int best_reach_weapon(const battle_t *b, int a)
{
    int best = -1, br = 0, bb = -1000;
    for (int w = 0; w < b->u[a].n_weapons; w++) {
        const weapon_t *wp = b->u[a].weapon[w];
        int r = em_reach_hex(b, a, wp);
        if (!em_is_melee(wp) || r < br || (r == br && wp->dice_bonus <= bb))
            continue;
        best = w;
        br = r;
        bb = wp->dice_bonus;
    }
    return best;
}

static void ai_melee(battle_t *b, int a, cmd_t *out)
{
    const em_state_t *s = em_cst(b);
    int fph = b->map->feet_per_hex, pts = s->points[a];
    *out = cmd_make(CMD_END, a);
    if (foes_beside(b, a, pos(b, a)) > 0 || pts < 1) {
        ai_wind_up(b, a, out);
        return;
    }
    int t = pick_foe(b, a);
    if (t < 0)
        return;
    /* A charge to a hex beside the foe, not into a crowd of them. */
    int n = em_reach_mode(b, a, EM_CHARGE, 2 * pts * fph, b->reach, b->ncells);
    int best = -1, bc = 0;
    for (int k = 0; k < n && k < b->ncells; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (hex_distance(h, pos(b, t)) != 1 || foes_beside(b, a, h) > 2 || outnumbered(b, a, h))
            continue;
        if (best < 0 || b->reach[k].cost_ft < bc) {
            best = k;
            bc = b->reach[k].cost_ft;
        }
    }
    if (best >= 0) {
        move_cmd(b, a, EM_CHARGE, b->reach[best].at, out);
        if (out->kind == CMD_MOVE)
            return;
    }
    /* Closer: hasty, keeping a point for cover or a dodge when shot at; a
     * run only where the blows it could draw as a target of opportunity are
     * worth little. */
    bool keep = shooters_on(b, a, pos(b, a)) > 0 && pts >= 2;
    int budget = (pts - (keep ? 1 : 0)) * fph;
    n = em_reach_mode(b, a, EM_HASTY, budget, b->reach, b->ncells);
    int bd = hex_distance(pos(b, a), pos(b, t));
    cell_t goal = {0, 0};
    bool found = false;
    for (int k = 0; k < n && k < b->ncells; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        int d = hex_distance(h, pos(b, t));
        if (d < bd && !outnumbered(b, a, h)) {
            bd = d;
            goal = b->reach[k].at;
            found = true;
        }
    }
    /* A run only when it gains two hexes on the hasty move and ends where
     * the foes that could catch it, a target of opportunity, before its next
     * slot would expect RUN_RISK wounds or fewer of it. */
    int rn = em_reach_mode(b, a, EM_RUN, 2 * (pts - (keep ? 1 : 0)) * fph, b->reach, b->ncells);
    int run_k = -1, rd = bd - 1;
    /* Each run point tests Adeptness, and a net botch leaves it prone: a
     * run whose chance of a fall passes one in five is not worth it. */
    double botch = em_pool_botch(em_aspect_dice(b, a, EA_ADEPTNESS), EPOOL_FULL);
    double oa[MAP_MAX_COMBATANTS];
    int far[MAP_MAX_COMBATANTS];
    if (rn > 0)
        opportunity_threats(b, a, oa, far);
    for (int k = 0; k < rn && k < b->ncells; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        int d = hex_distance(h, pos(b, t));
        int run_pts = (b->reach[k].cost_ft + 2 * fph - 1) / (2 * fph);
        double fall = 1.0;
        for (int p = 0; p < run_pts; p++)
            fall *= 1.0 - botch;
        /* Where no foe can come at it before its next slot, a fall costs
         * only the points to get up, and a riskier run is worth it. */
        if (d >= rd || 1.0 - fall > 0.35)
            continue;
        double exp = exposure(b, h, oa, far);
        if ((exp <= 0.0 && 1.0 - fall <= 0.35) || (1.0 - fall <= 0.2 && exp <= RUN_RISK)) {
            rd = d;
            run_k = k;
        }
    }
    if (run_k >= 0) {
        move_cmd(b, a, EM_RUN, b->reach[run_k].at, out);
        if (out->kind == CMD_MOVE)
            return;
    }
    if (found) {
        move_cmd(b, a, EM_HASTY, goal, out);
        if (out->kind == CMD_MOVE)
            return;
    }
    /* Holding its ground with a foe on the way: guard it, a blow readied
     * for the first foe that comes into reach next turn (E18). */
    if (pts == em_movement(b, a) && !(b->u[a].cond & EC_READIED) && foe_coming(b, a)) {
        *out = cmd_make(CMD_STANDBY, a);
        out->arg = TRIG_ENTERS_REACH;
        out->weapon = best_reach_weapon(b, a);
        return;
    }
    ai_wind_up(b, a, out);
}

static void ai_shooter(battle_t *b, int a, cmd_t *out)
{
    const em_state_t *s = em_cst(b);
    int fph = b->map->feet_per_hex, pts = s->points[a], m = em_movement(b, a);
    int t, w;
    *out = cmd_make(CMD_END, a);
    if (s->commit[a]) {
        ai_wind_up(b, a, out);
        return;
    }
    /* An aimed shot from here, or from a hex one point away. */
    if (em_may_commit(b, a) && best_attack(b, a, EK_COMMITTED, -1, &t, &w) > 0.0) {
        *out = cmd_make(CMD_COMMIT, a);
        out->weapon = w;
        return;
    }
    int spare = pts - em_full_less_one(b, a);
    if (spare >= 1 && pts == m) {
        int n = em_reach_mode(b, a, EM_HASTY, spare * fph, b->reach, b->ncells);
        int best = -1;
        double bv = 0.0;
        for (int k = 0; k < n && k < b->ncells; k++) {
            hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
            if (foes_beside(b, a, h) > 0)
                continue;
            double v = shot_from(b, a, h);
            if (v > bv + 1e-9) {
                bv = v;
                best = k;
            }
        }
        if (best >= 0) {
            move_cmd(b, a, EM_HASTY, b->reach[best].at, out);
            if (out->kind == CMD_MOVE)
                return;
        }
    }
    /* No aimed shot this turn: a hasty one when a point is to spare. */
    for (int wi = 0; wi < b->u[a].n_weapons; wi++) {
        const weapon_t *wp = b->u[a].weapon[wi];
        if (!em_is_ranged(wp) || battle_weapon_tag(wp, "committed_only") > 0)
            continue;
        bool need_nock = battle_weapon_tag(wp, "nock") > 0 && !((s->nocked[a] >> wi) & 1u);
        if (best_attack(b, a, EK_HASTY, wi, &t, &w) <= 0.05 || pts < 2 + (need_nock ? 1 : 0))
            continue;
        if (need_nock) {
            *out = cmd_make(CMD_NOCK, a);
            out->weapon = wi;
        } else {
            *out = cmd_make(CMD_ENGAGE, a);
            out->weapon = wi;
            out->target = t;
        }
        return;
    }
    /* No foe to aim at, but one could come within range and sight during
     * the next turn: a shot readied for the moment it does (E18), its whole
     * Movement spent holding it. */
    if (pts == m && !(b->u[a].cond & EC_READIED) && foes_beside(b, a, pos(b, a)) == 0) {
        int rw = -1, rr = 0;
        for (int wi = 0; wi < b->u[a].n_weapons; wi++) {
            const weapon_t *wp = b->u[a].weapon[wi];
            if (wp->cls == WPN_RANGED && em_range_hex(b, wp) > rr) {
                rr = em_range_hex(b, wp);
                rw = wi;
            }
        }
        for (int e = 0; e < b->n && rw >= 0; e++) {
            if (!em_able(b, e) || !em_enemies(b, a, e) ||
                hex_distance(pos(b, e), pos(b, a)) > rr + 2 * em_movement(b, e))
                continue;
            *out = cmd_make(CMD_STANDBY, a);
            out->arg = TRIG_ENTERS_REACH;
            out->weapon = rw;
            return;
        }
    }
    /* Otherwise closer, to where a shot will be had next turn, out of the
     * foes' reach, with cover about if it can. */
    if (pts >= 2 && foes_beside(b, a, pos(b, a)) == 0) {
        int n = em_reach_mode(b, a, EM_HASTY, (pts - 1) * fph, b->reach, b->ncells);
        int best = -1;
        double bv = 1e18;
        for (int k = 0; k < n && k < b->ncells; k++) {
            hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
            int dn = 1 << 20;
            for (int e = 0; e < b->n; e++)
                if (battle_active(b, e) && em_enemies(b, a, e) && hex_distance(h, pos(b, e)) < dn)
                    dn = hex_distance(h, pos(b, e));
            double v = dn + (dn <= 2 ? 20.0 : 0.0) + (shot_from(b, a, h) > 0.0 ? -10.0 : 0.0);
            hex_t old = pos(b, a);
            board_place(b->board, a, h);
            v -= em_cover_allowed(b, a) ? 1.5 : 0.0;
            board_place(b->board, a, old);
            if (v < bv) {
                bv = v;
                best = k;
            }
        }
        int here = 1 << 20;
        for (int e = 0; e < b->n; e++)
            if (battle_active(b, e) && em_enemies(b, a, e) && hex_distance(pos(b, a), pos(b, e)) < here)
                here = hex_distance(pos(b, a), pos(b, e));
        if (best >= 0 && bv < here - 0.5) {
            move_cmd(b, a, EM_HASTY, b->reach[best].at, out);
            if (out->kind == CMD_MOVE)
                return;
        }
    }
    ai_wind_up(b, a, out);
}

static void ai_commit_fire(battle_t *b, int a, cmd_t *out)
{
    const em_state_t *s = em_cst(b);
    int t, w;
    *out = cmd_make(CMD_END, a);
    if (best_attack(b, a, EK_COMMITTED, s->commit[a] - 1, &t, &w) > 0.0) {
        *out = cmd_make(CMD_ENGAGE, a);
        out->target = t;
        out->weapon = w;
    }
}

void em_ai(battle_t *b, int a, cmd_t *out)
{
    const em_state_t *s = em_cst(b);
    *out = cmd_make(CMD_END, a);
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a))
        return;
    if (s->phase == EP_IMMEDIATE) {
        if (em_participant(b, a) && !s->decl[a].set)
            ai_declare(b, a, out);
        return;
    }
    if (!em_is_slot(b, a))
        return;
    if (s->phase == EP_COMMITMENT) {
        ai_commit_fire(b, a, out);
        return;
    }
    if (b->u[a].cond & EC_PRONE) {
        if (s->points[a] >= em_half_cost(b, a))
            *out = cmd_make(CMD_STAND, a);
        return;
    }
    /* A target of opportunity in reach is a free blow for a point. */
    for (int t = 0; t < b->n && s->points[a] >= 1; t++) {
        if (!em_too(b, t) || !em_enemies(b, a, t) || !em_oa_open(b, a, t))
            continue;
        int w = em_best_melee(b, a, t);
        if (w >= -1) {
            *out = cmd_make(CMD_ENGAGE, a);
            out->target = t;
            out->weapon = w;
            return;
        }
    }
    /* Broke free: the spare point carries it out of reach when it can. */
    if (s->free_of[a] && s->points[a] >= 1 && foes_beside(b, a, pos(b, a)) > 0) {
        int n = em_reach_mode(b, a, EM_HASTY, s->points[a] * b->map->feet_per_hex, b->reach,
                              b->ncells);
        for (int k = 0; k < n && k < b->ncells; k++) {
            hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
            bool threatened = false;
            for (int e = 0; e < b->n && !threatened; e++)
                threatened = em_enemies(b, a, e) && em_threatens(b, e, h);
            if (!threatened) {
                move_cmd(b, a, EM_HASTY, b->reach[k].at, out);
                if (out->kind == CMD_MOVE)
                    return;
            }
        }
    }
    if (s->imm[a] >= 0) {
        /* It fought: a last point for a hasty shot, else kept. */
        int t, w;
        if (s->points[a] >= 1 && best_attack(b, a, EK_HASTY, -1, &t, &w) > 0.05) {
            bool need_nock = battle_weapon_tag(b->u[a].weapon[w], "nock") > 0 &&
                             !((s->nocked[a] >> w) & 1u);
            if (!need_nock) {
                *out = cmd_make(CMD_ENGAGE, a);
                out->target = t;
                out->weapon = w;
                return;
            }
        }
        return;
    }
    if (shooter(b, a))
        ai_shooter(b, a, out);
    else
        ai_melee(b, a, out);
}
