/* anim.c - event log playback (see anim.h). */
#include "anim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/area.h"
#include "camera.h"

/* Seconds each kind of beat takes at speed 1: a glide reads as walking, an
 * attack long enough to see who struck whom. */
#define BEAT_STEP 0.14
#define BEAT_ATTACK 0.38
#define BEAT_DAMAGE 0.10
#define BEAT_DEFEAT 0.30
#define BEAT_TURN 0.12
#define BEAT_AREA 0.30 /* the struck hexes light up before the damage lands */
#define AREA_LIFE 0.9
#define HP_EASE 4.0   /* bars close this fraction of the gap per second (exp.) */
#define FADE_RATE 1.6 /* defeated tokens lose this much alpha per second */

static vec2_t true_pos(const battle_t *b, int i)
{
    cell_t c = hex_to_cell(b->map->layout, b->board->pos[i]);
    return ui_cell_center(b->map, c);
}

bool anim_init(anim_t *a, const battle_t *b)
{
    memset(a, 0, sizeof *a);
    a->b = b;
    a->n = b->n;
    a->speed = 1.0;
    a->pose = calloc((size_t)(b->n > 0 ? b->n : 1), sizeof *a->pose);
    a->from = calloc((size_t)(b->n > 0 ? b->n : 1), sizeof *a->from);
    if (!a->pose || !a->from) {
        anim_free(a);
        return false;
    }
    anim_snap(a);
    return true;
}

void anim_free(anim_t *a)
{
    free(a->pose);
    free(a->from);
    free(a->area_pts);
    free(a->area_hex);
    a->pose = NULL;
    a->from = NULL;
    a->area_pts = NULL;
    a->area_hex = NULL;
    a->area_n = a->area_cap = a->area_hex_cap = 0;
}

void anim_snap(anim_t *a)
{
    const battle_t *b = a->b;
    for (int i = 0; i < a->n; i++) {
        a->pose[i].world = true_pos(b, i);
        a->pose[i].hp = (float)b->u[i].hp;
        a->pose[i].alpha = b->u[i].out ? 0.0f : 1.0f;
    }
    a->cursor = b->log.n;
    a->beat = -1;
    a->t = a->dur = 0;
    a->n_fx = 0;
    a->area_n = 0;
}

void anim_speed(anim_t *a, double factor)
{
    a->speed *= factor;
    if (a->speed < 0.25) a->speed = 0.25;
    if (a->speed > 8.0) a->speed = 8.0;
}

bool anim_busy(const anim_t *a)
{
    return a->beat >= 0 || a->cursor < a->b->log.n;
}

static void add_fx(anim_t *a, anim_fx_kind_t k, vec2_t p, vec2_t q, int who, int target, int value,
                   double life)
{
    if (a->n_fx == ANIM_MAX_FX) {
        /* Drop the oldest: a flood of events must not block new effects. */
        memmove(a->fx, a->fx + 1, sizeof a->fx[0] * (ANIM_MAX_FX - 1));
        a->n_fx--;
    }
    a->fx[a->n_fx++] = (anim_fx_t){k, p, q, value, who, target, 0.0, life, NULL, 0, HEX_POINTY};
}

/* Room for `more` area points; the live FX_AREA effects follow the storage
 * when it moves. False when memory ran out (the effect is dropped). */
static bool area_room(anim_t *a, int more)
{
    if (a->area_n + more <= a->area_cap) return true;
    int cap = a->area_cap ? a->area_cap : 64;
    while (cap < a->area_n + more)
        cap *= 2;
    vec2_t *p = realloc(a->area_pts, sizeof *p * (size_t)cap);
    if (!p) return false;
    for (int i = 0; i < a->n_fx; i++)
        if (a->fx[i].kind == FX_AREA) a->fx[i].pts = p + (a->fx[i].pts - a->area_pts);
    a->area_pts = p;
    a->area_cap = cap;
    return true;
}

/* The hexes of area event e, recomputed with the rules' own function, as an
 * FX_AREA effect. */
static void add_area(anim_t *a, const event_t *e)
{
    const battle_t *b = a->b;
    area_t ar = area_from_event(b->map, e);
    int most = area_max_hexes(&ar);
    if (most > a->area_hex_cap) {
        hex_t *h = realloc(a->area_hex, sizeof *h * (size_t)most);
        if (!h) return;
        a->area_hex = h;
        a->area_hex_cap = most;
    }
    int n = area_hexes(b->board, &ar, a->area_hex, a->area_hex_cap);
    if (n > a->area_hex_cap) n = a->area_hex_cap;
    if (n == 0 || !area_room(a, n)) return;
    vec2_t *pts = a->area_pts + a->area_n;
    for (int k = 0; k < n; k++)
        pts[k] = ui_cell_center(b->map, hex_to_cell(b->map->layout, a->area_hex[k]));
    a->area_n += n;
    vec2_t c = ui_cell_center(b->map, e->to);
    add_fx(a, FX_AREA, c, c, e->who, e->target, 0, AREA_LIFE);
    anim_fx_t *f = &a->fx[a->n_fx - 1];
    f->pts = pts;
    f->n_pts = n;
    f->orient = b->map->layout.orient;
}

static const weapon_t *weapon_named(const battle_t *b, int who, const char *id)
{
    for (int w = 0; w < b->u[who].n_weapons; w++)
        if (b->u[who].weapon[w] && strcmp(b->u[who].weapon[w]->id, id) == 0)
            return b->u[who].weapon[w];
    return NULL;
}

static bool valid(const anim_t *a, int i)
{
    return i >= 0 && i < a->n;
}

/* Begin playing event k: spawn its effects and say how long it holds the queue. */
static double begin(anim_t *a, int k)
{
    const event_t *e = &a->b->log.ev[k];
    const battle_t *b = a->b;
    switch (e->type) {
    case EV_MOVE_STEP:
        if (!valid(a, e->who)) return 0;
        a->from[e->who] = ui_cell_center(b->map, e->from);
        a->focus = e->who;
        return BEAT_STEP;
    case EV_ATTACK: {
        if (!valid(a, e->who) || !valid(a, e->target)) return 0;
        vec2_t p = a->pose[e->who].world, q = a->pose[e->target].world;
        const weapon_t *w = weapon_named(b, e->who, e->name);
        bool ranged = w && w->cls != WPN_MELEE;
        add_fx(a, ranged ? FX_TRACER : FX_LUNGE, p, q, e->who, e->target, 0, BEAT_ATTACK);
        add_fx(a, e->hit ? FX_HIT : FX_MISS, q, q, e->who, e->target, 0, 0.55);
        a->focus = e->who;
        return BEAT_ATTACK;
    }
    case EV_DAMAGE:
        if (!valid(a, e->target)) return 0;
        add_fx(a, FX_NUMBER, a->pose[e->target].world, a->pose[e->target].world, -1, e->target,
               e->amount, 1.1); /* damage events name no attacker */
        return BEAT_DAMAGE;
    case EV_DEFEATED:
    case EV_FLED:
        return valid(a, e->who) ? BEAT_DEFEAT : 0;
    case EV_TURN_START:
        if (valid(a, e->who)) a->focus = e->who;
        return BEAT_TURN;
    case EV_AREA:
        add_area(a, e);
        return BEAT_AREA;
    default:
        return 0; /* rolls and bookkeeping show in the panels at once */
    }
}

/* The beat of event k is over: leave its lasting effect on the poses. */
static void finish(anim_t *a, int k)
{
    const event_t *e = &a->b->log.ev[k];
    const battle_t *b = a->b;
    switch (e->type) {
    case EV_MOVE_STEP:
        if (valid(a, e->who)) a->pose[e->who].world = ui_cell_center(b->map, e->to);
        break;
    default:
        break;
    }
}

/* While beat k plays, at fraction f of it. */
static void during(anim_t *a, int k, double f)
{
    const event_t *e = &a->b->log.ev[k];
    if (e->type == EV_MOVE_STEP && valid(a, e->who)) {
        vec2_t p = a->from[e->who], q = ui_cell_center(a->b->map, e->to);
        double s = f * f * (3 - 2 * f); /* ease in and out */
        a->pose[e->who].world = (vec2_t){p.x + (q.x - p.x) * s, p.y + (q.y - p.y) * s};
    }
}

bool anim_step(anim_t *a, double dt)
{
    const battle_t *b = a->b;
    if (a->cursor > b->log.n || a->n != b->n) {
        /* The log was rebuilt shorter (undo): the old story no longer holds. */
        anim_snap(a);
        return true;
    }
    double left = dt * a->speed;
    while (left > 0 || (a->beat < 0 && a->cursor < b->log.n)) {
        if (a->beat < 0) {
            if (a->cursor >= b->log.n) break;
            a->beat = a->cursor++;
            a->t = 0;
            a->dur = begin(a, a->beat);
        }
        double need = a->dur - a->t;
        if (left >= need) {
            left -= need;
            finish(a, a->beat);
            a->beat = -1;
            continue;
        }
        a->t += left;
        left = 0;
        during(a, a->beat, a->dur > 0 ? a->t / a->dur : 1.0);
    }
    /* HP bars ease toward the truth as of the played events; fades run on. */
    bool moving = anim_busy(a);
    double keep = exp(-HP_EASE * dt * a->speed);
    for (int i = 0; i < a->n; i++) {
        ui_token_pose_t *p = &a->pose[i];
        float goal = (float)b->u[i].hp;
        if (a->cursor < b->log.n || a->beat >= 0) {
            /* Not yet played damage must not show early: find HP as of the cursor. */
            for (int k = a->cursor - 1; k >= 0; k--) {
                const event_t *e = &b->log.ev[k];
                if (e->type == EV_DAMAGE && e->target == i) {
                    goal = (float)e->hp;
                    break;
                }
                if (k == 0) goal = p->hp; /* no damage yet: hold */
            }
        }
        if (fabsf(p->hp - goal) > 0.01f) {
            p->hp = goal + (p->hp - goal) * (float)keep;
            if (fabsf(p->hp - goal) < 0.05f) p->hp = goal;
            moving = true;
        }
        bool gone = b->u[i].out;
        if (gone && a->cursor < b->log.n) {
            /* Still alive in the part of the story not yet shown? */
            gone = false;
            for (int k = 0; k < a->cursor; k++)
                if ((b->log.ev[k].type == EV_DEFEATED || b->log.ev[k].type == EV_FLED) &&
                    b->log.ev[k].who == i)
                    gone = true;
        }
        if (gone && p->alpha > 0) {
            p->alpha -= (float)(FADE_RATE * dt * a->speed);
            if (p->alpha < 0) p->alpha = 0;
            moving = true;
        } else if (!gone && p->alpha < 1) {
            p->alpha = 1;
        }
    }
    int k = 0, areas = 0;
    for (int i = 0; i < a->n_fx; i++) {
        a->fx[i].age += dt * a->speed;
        if (a->fx[i].age < a->fx[i].life) {
            areas += a->fx[i].kind == FX_AREA;
            a->fx[k++] = a->fx[i];
        }
    }
    a->n_fx = k;
    if (areas == 0) a->area_n = 0; /* every area has faded: reuse the points */
    if (!moving && a->beat < 0) {
        /* Idle: make sure the picture is exactly the truth. */
        for (int i = 0; i < a->n; i++)
            if (!b->u[i].out) a->pose[i].world = true_pos(b, i);
    }
    return moving || a->n_fx > 0;
}
