/* odds_panel.c - the odds panel of the play window (see odds_panel.h). */
#include "odds_panel.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/printf_attr.h"
#include "text.h"

enum { SLOT_BASE = 0, SLOT_WHATIF = 1 };

static const SDL_Color INK = {235, 235, 228, 255}, DIM = {160, 164, 170, 255},
                       HEAD = {86, 180, 233, 255}, GOOD = {0, 158, 115, 255},
                       BAD = {213, 94, 0, 255}, BOX = {20, 24, 32, 236};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t k = 0; k < n; k++)
        h = (h ^ c[k]) * 1099511628211ull;
    return h;
}

static uint64_t fnv_int(uint64_t h, long v)
{
    return fnv(h, &v, sizeof v);
}

/* Where the battle stands: a new command, a die, an undo all change it. */
static uint64_t battle_sig(const pui_t *p)
{
    const battle_t *b = p->play.b;
    uint64_t h = 1469598103934665603ull;
    h = fnv_int(h, b->cmds.n);
    h = fnv_int(h, b->dice.cursor);
    h = fnv_int(h, b->log.n);
    h = fnv_int(h, b->over);
    h = fnv_int(h, p->play.setup_pending);
    if (b->log.n > 0) {
        /* The last event, field by field (its padding is not the state's). */
        const event_t *e = &b->log.ev[b->log.n - 1];
        h = fnv_int(h, e->type);
        h = fnv_int(h, e->who);
        h = fnv_int(h, e->value);
    }
    return h;
}

/* Are two commands the same choice (field by field)? */
static bool same_cmd(const cmd_t *x, const cmd_t *y)
{
    if (x->kind != y->kind || x->actor != y->actor || x->target != y->target ||
        x->weapon != y->weapon || x->weapon2 != y->weapon2 || x->arg != y->arg ||
        x->act != y->act || x->at.col != y->at.col || x->at.row != y->at.row ||
        x->n_path != y->n_path || x->n_answers != y->n_answers)
        return false;
    for (int k = 0; k < x->n_path; k++)
        if (x->path[k].col != y->path[k].col || x->path[k].row != y->path[k].row) return false;
    return memcmp(x->answer, y->answer, (size_t)x->n_answers) == 0;
}

void ui_odds_init(ui_odds_t *o)
{
    memset(o, 0, sizeof *o);
    o->base.first_failure = o->what_if.first_failure = -1;
}

void ui_odds_free(ui_odds_t *o)
{
    odds_pool_destroy(o->pool);
    o->pool = NULL;
    o->open = false;
    o->have_base = o->have_alt = false;
}

/* Drop every job (the panel closed). */
static void stop_all(ui_odds_t *o)
{
    if (o->pool) {
        odds_pool_stop(o->pool, SLOT_BASE);
        odds_pool_stop(o->pool, SLOT_WHATIF);
    }
    o->have_base = o->have_alt = false;
    memset(&o->base, 0, sizeof o->base);
    memset(&o->what_if, 0, sizeof o->what_if);
    o->base.first_failure = o->what_if.first_failure = -1;
}

bool ui_odds_key(ui_odds_t *o, pui_t *p, SDL_Keycode k, Uint16 mod)
{
    if (!p->started || k != SDLK_o || (mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI))) return false;
    o->open = !o->open;
    if (!o->open) {
        stop_all(o);
        snprintf(p->msg, sizeof p->msg, "Odds panel closed.");
        return true;
    }
    if (!o->pool && !o->failed) {
        /* One core stays with the window, so a frame never waits for runs. */
        int cpus = odds_cpu_count();
        o->threads = cpus > 1 ? cpus - 1 : 1;
        o->pool = odds_pool_create(o->threads);
        o->failed = o->pool == NULL;
    }
    snprintf(p->msg, sizeof p->msg, "%s",
             o->failed ? "The odds cannot be worked out here (no threads)."
                       : "Odds: the rest of the battle played by the AI on every side, again "
                         "and again. Choose a move or an attack to see what it changes.");
    return true;
}

/* "Kara Voss engages Boss", "Kara Voss moves to (4, 7)". */
static void label_of(const pui_t *p, const cmd_t *c, char *buf, size_t cap)
{
    const char *who = pui_name(p, c->actor);
    if (c->kind == CMD_MOVE && c->n_path > 0)
        snprintf(buf, cap, "%.40s: move to (%d, %d)", who, c->path[c->n_path - 1].col,
                 c->path[c->n_path - 1].row);
    else if (c->target >= 0)
        snprintf(buf, cap, "%.40s: %s %.30s", who, cmd_kind_name(c->kind), pui_name(p, c->target));
    else
        snprintf(buf, cap, "%.40s: %s", who, cmd_kind_name(c->kind));
}

/* What the panel shows, in the steps it shows it (whole percents, runs in
 * fifties): when this changes, it is drawn again. */
static uint64_t shown_sig(const ui_odds_t *o)
{
    uint64_t h = 1469598103934665603ull;
    const odds_progress_t *pr[2] = {&o->base, &o->what_if};
    for (int k = 0; k < 2; k++) {
        const odds_tally_t *t = &pr[k]->tally;
        h = fnv_int(h, pr[k]->active);
        h = fnv_int(h, pr[k]->done);
        h = fnv_int(h, t->runs / 50);
        h = fnv_int(h, t->failed);
        long n = odds_played(t);
        for (int s = 0; s < MAP_MAX_FACTIONS && n > 0; s++)
            h = fnv_int(h, lround(100.0 * (double)t->win[s] / (double)n));
    }
    h = fnv_int(h, o->have_alt);
    return fnv(h, o->alt_label, strlen(o->alt_label));
}

bool ui_odds_frame(ui_odds_t *o, pui_t *p)
{
    if (!o->open || !o->pool || !p->started) return false;
    const battle_t *b = p->play.b;
    bool can = !p->play.setup_pending;
    uint64_t sig = battle_sig(p);
    if (!o->have_base || sig != o->base_sig) {
        /* A new state: every count starts afresh from it. */
        odds_pool_stop(o->pool, SLOT_WHATIF);
        o->have_alt = false;
        o->base_sig = sig;
        o->have_base = false;
        if (can) {
            odds_base_t base = odds_base_of(&p->play);
            o->have_base = odds_pool_start(o->pool, SLOT_BASE, &base, NULL, UI_ODDS_SEED,
                                           UI_ODDS_RUNS);
        } else {
            odds_pool_stop(o->pool, SLOT_BASE);
        }
    }
    cmd_t c;
    bool want = o->have_base && !b->over && pui_preview_cmd(p, &c);
    if (want && (!o->have_alt || !same_cmd(&c, &o->alt))) {
        odds_base_t base = odds_base_of(&p->play);
        o->alt = c;
        o->have_alt = odds_pool_start(o->pool, SLOT_WHATIF, &base, &c, UI_ODDS_SEED,
                                      UI_ODDS_WHATIF);
        label_of(p, &c, o->alt_label, sizeof o->alt_label);
    } else if (!want && o->have_alt) {
        odds_pool_stop(o->pool, SLOT_WHATIF);
        o->have_alt = false;
    }
    if (!o->have_alt) o->alt_label[0] = '\0';
    odds_pool_read(o->pool, SLOT_BASE, &o->base);
    odds_pool_read(o->pool, SLOT_WHATIF, &o->what_if);
    uint64_t shown = shown_sig(o);
    bool changed = shown != o->shown_sig;
    o->shown_sig = shown;
    return changed;
}

bool ui_odds_busy(const ui_odds_t *o)
{
    return o->open && ((o->base.active && !o->base.done) || (o->what_if.active && !o->what_if.done));
}

/* ---- drawing ---------------------------------------------------------------- */

#define ROWS_MAX 24

typedef struct {
    char text[ROWS_MAX][128];
    SDL_Color ink[ROWS_MAX];
    bool bold[ROWS_MAX];
    double bar[ROWS_MAX]; /* a share bar under the text, < 0: none */
    int n;
} rows_t;

static void row(rows_t *r, SDL_Color ink, bool bold, double bar, const char *fmt, ...)
    HB_PRINTF(5, 6);

static void row(rows_t *r, SDL_Color ink, bool bold, double bar, const char *fmt, ...)
{
    if (r->n == ROWS_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text[r->n], sizeof r->text[0], fmt, ap);
    va_end(ap);
    r->ink[r->n] = ink;
    r->bold[r->n] = bold;
    r->bar[r->n++] = bar;
}

static int pct(double x)
{
    return (int)lround(100.0 * x);
}

/* The rows for the battle as it stands. */
static void base_rows(const ui_odds_t *o, const pui_t *p, rows_t *r)
{
    const battle_t *b = p->play.b;
    const board_t *bd = b->board;
    const odds_progress_t *pr = &o->base;
    const odds_tally_t *t = &pr->tally;
    long n = odds_played(t);
    row(r, HEAD, true, -1, "Odds from here (O)   %ld of %ld runs%s", t->runs / 50 * 50,
        pr->target, pr->done ? "" : "...");
    if (pr->first_failure >= 0) {
        row(r, BAD, false, -1, "%ld runs could not be played: %.60s", t->failed,
            pr->error[0] ? pr->error : "the rules refused a command");
    }
    if (n == 0) {
        row(r, DIM, false, -1, "%s", p->play.setup_pending ? "Waiting for the setup's dice."
                                                             : "Playing the first runs...");
        return;
    }
    for (int s = 0; s < bd->n_sides; s++) {
        double lo, hi, w = odds_share(t->win[s], n, &lo, &hi);
        row(r, INK, false, w, "%-12.12s %3d%%   (%d-%d%%)", bd->side_name[s], pct(w), pct(lo),
            pct(hi));
    }
    double lo, hi, mean, sd;
    odds_rounds(t, &mean, &sd);
    row(r, DIM, false, -1, "no winner %d%%   rounds %.1f +- %.1f", pct(odds_share(t->none, n, &lo, &hi)),
        mean, sd);
    /* Who is likely to fall: those still standing, most at risk first. */
    int order[MAP_MAX_COMBATANTS], k = 0;
    for (int i = 0; i < b->n && i < t->n; i++)
        if (!b->u[i].out && t->out[i] > 0) order[k++] = i;
    for (int x = 1; x < k; x++)
        for (int y = x; y > 0 && t->out[order[y]] > t->out[order[y - 1]]; y--) {
            int tmp = order[y];
            order[y] = order[y - 1];
            order[y - 1] = tmp;
        }
    if (k > 0) row(r, DIM, false, -1, "falls:");
    for (int i = 0; i < k && i < 6; i += 2) {
        char one[64], two[64] = "";
        snprintf(one, sizeof one, "%.20s %d%%", pui_name(p, order[i]),
                 pct((double)t->out[order[i]] / (double)n));
        if (i + 1 < k && i + 1 < 6)
            snprintf(two, sizeof two, "%.20s %d%%", pui_name(p, order[i + 1]),
                     pct((double)t->out[order[i + 1]] / (double)n));
        row(r, INK, false, -1, "  %-28s %s", one, two);
    }
}

/* The rows for the chosen command, paired with the runs without it. */
static void what_if_rows(const ui_odds_t *o, const pui_t *p, rows_t *r)
{
    if (!o->have_alt) {
        row(r, DIM, false, -1, "Choose a move or an attack: what if?");
        return;
    }
    const battle_t *b = p->play.b;
    const odds_progress_t *pr = &o->what_if;
    const odds_tally_t *t = &pr->tally;
    long n = odds_played(t);
    row(r, HEAD, true, -1, "What if %.80s", o->alt_label);
    if (pr->first_failure >= 0 && n == 0) {
        row(r, BAD, false, -1, "not allowed from here");
        return;
    }
    if (n == 0) {
        row(r, DIM, false, -1, "playing...");
        return;
    }
    int side = b->board->side[o->alt.actor];
    double lo, hi, hw;
    double before = odds_share(t->base_win[side], n, &lo, &hi);
    double after = odds_share(t->win[side], n, &lo, &hi);
    double d = odds_diff(t, side, &hw);
    /* Green or orange only when the interval leaves out "no change". */
    SDL_Color ink = d - hw > 0 ? GOOD : d + hw < 0 ? BAD : INK;
    row(r, ink, false, after, "%.12s %d%% -> %d%%   (%+d +- %d)", b->board->side_name[side],
        pct(before), pct(after), pct(d), pct(hw));
    row(r, DIM, false, -1, "%ld of %ld paired runs%s", t->runs / 50 * 50, pr->target,
        pr->done ? "" : "...");
}

/* Pixels of r that the boxes avoid[0..n) cover. */
static long covered(SDL_Rect r, const SDL_Rect *avoid, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        SDL_Rect in;
        if (SDL_IntersectRect(&r, &avoid[i], &in)) sum += (long)in.w * in.h;
    }
    return sum;
}

SDL_Rect ui_odds_draw(const ui_odds_t *o, const pui_t *p, ui_draw_t *d, SDL_Rect map, int px,
                      int line, const SDL_Rect *avoid, int n_avoid)
{
    if (!o->open || !p->started) return (SDL_Rect){0, 0, 0, 0};
    rows_t r;
    r.n = 0;
    if (o->failed) {
        row(&r, BAD, false, -1, "Odds: no worker threads could be started.");
    } else {
        base_rows(o, p, &r);
        what_if_rows(o, p, &r);
    }
    ui_text_t *tx = ui_draw_text(d);
    SDL_Renderer *rd = ui_draw_renderer(d);
    int w = 0;
    for (int i = 0; i < r.n; i++) {
        int tw = 0, th = 0;
        ui_text_get(tx, r.text[i], px, r.bold[i], r.ink[i], &tw, &th);
        w = tw > w ? tw : w;
    }
    w += 2 * px;
    int bar_h = px / 4 > 2 ? px / 4 : 2, h = r.n * line + px;
    for (int i = 0; i < r.n; i++)
        h += r.bar[i] >= 0 ? bar_h + 2 : 0;
    /* A corner of the map, the lower right first, that covers no token (nor
     * name): else the one that covers the least of them. */
    int x0 = map.x + px, x1 = map.x + map.w - w - px, y0 = map.y + px, y1 = map.y + map.h - h - px;
    if (x1 < map.x) x1 = map.x;
    if (y1 < map.y) y1 = map.y;
    if (x0 > x1) x0 = x1;
    if (y0 > y1) y0 = y1;
    const SDL_Point corner[4] = {{x1, y1}, {x0, y1}, {x1, y0}, {x0, y0}};
    SDL_Rect box = {x1, y1, w, h};
    long least = -1;
    for (int k = 0; k < 4 && least != 0; k++) {
        SDL_Rect c = {corner[k].x, corner[k].y, w, h};
        long cov = covered(c, avoid, n_avoid);
        if (least < 0 || cov < least) least = cov, box = c;
    }
    SDL_SetRenderDrawBlendMode(rd, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(rd, BOX.r, BOX.g, BOX.b, BOX.a);
    SDL_RenderFillRect(rd, &box);
    int y = box.y + px / 2;
    for (int i = 0; i < r.n; i++) {
        ui_text_draw(tx, r.text[i], px, r.bold[i], r.ink[i], box.x + px, y);
        y += line;
        if (r.bar[i] < 0) continue;
        SDL_Rect back = {box.x + px, y, w - 2 * px, bar_h};
        SDL_Rect full = back;
        full.w = (int)lround(back.w * (r.bar[i] > 1 ? 1 : r.bar[i]));
        SDL_SetRenderDrawColor(rd, 60, 66, 78, 255);
        SDL_RenderFillRect(rd, &back);
        SDL_SetRenderDrawColor(rd, HEAD.r, HEAD.g, HEAD.b, 255);
        SDL_RenderFillRect(rd, &full);
        y += bar_h + 2;
    }
    return box;
}
