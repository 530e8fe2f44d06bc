/* card.c - the combatant card (card.h). */
#include "card.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/condlog.h"
#include "../core/printf_attr.h"
#include "../rules/ruleset.h"
#include "hud.h"

static void add(ui_card_t *c, ui_card_style_t st, const char *fmt, ...)
    HB_PRINTF(3, 4);
static void add(ui_card_t *c, ui_card_style_t st, const char *fmt, ...)
{
    if (c->n >= UI_CARD_LINES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->line[c->n], UI_CARD_TEXT, fmt, ap);
    va_end(ap);
    c->style[c->n++] = st;
}

/* Is combatant i one of those who may give a command now? */
static bool acting(const battle_t *b, const ruleset_t *rs, int i)
{
    int actors[MAP_MAX_COMBATANTS];
    int n = rs->actors(b, actors, MAP_MAX_COMBATANTS);
    for (int k = 0; k < n && k < MAP_MAX_COMBATANTS; k++)
        if (actors[k] == i) return true;
    return false;
}

/* "walk 15 ft, dash 45 ft": the feet each move mode has left (for one not
 * acting, what a fresh turn gives), as the rules price moves. */
static void moves_left(const battle_t *b, const ruleset_t *rs, int i, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; rs->move_cost && k < rs->n_move_modes; k++) {
        move_cost_t mv;
        if (!rs->move_cost(b, i, k, &mv)) continue;
        char word[40];
        int w = snprintf(buf + n, cap - n, "%s%s %d ft", n ? ", " : "",
                         ruleset_move_word(rs, k, word, sizeof word),
                         mv.budget_ft > 0 ? mv.budget_ft : 0);
        if (w < 0 || (size_t)w >= cap - n) break;
        n += (size_t)w;
    }
}

static void weapon_line(ui_card_t *c, const battle_t *b, int i, int k)
{
    const weapon_t *w = b->u[i].weapon[k];
    if (!w) return;
    char dmg[32] = "";
    if (w->dice_n > 0 && w->dice_sides > 0)
        snprintf(dmg, sizeof dmg, "%dd%d%+d", w->dice_n, w->dice_sides, w->dice_bonus);
    else if (w->dice_bonus)
        snprintf(dmg, sizeof dmg, "%d", w->dice_bonus);
    size_t dl = strlen(dmg);
    if (dl >= 2 && strcmp(dmg + dl - 2, "+0") == 0) dmg[dl - 2] = '\0';
    char len[32];
    if (w->cls == WPN_MELEE)
        snprintf(len, sizeof len, "reach %d ft", w->reach_ft > 0 ? w->reach_ft : b->prof[i].reach_ft);
    else
        snprintf(len, sizeof len, "%s %d ft", w->cls == WPN_THROWN ? "thrown" : "range",
                 w->range_ft);
    bool held = b->u[i].equipped == k;
    add(c, held ? UI_CARD_HELD : UI_CARD_BODY, "%s %.40s: %s%s%s%s", held ? ">" : "-",
        w->name[0] ? w->name : w->id, len, dmg[0] ? ", " : "", dmg, held ? " (in hand)" : "");
}

bool ui_card_build(const pui_t *p, int who, ui_card_t *c)
{
    c->n = 0;
    c->who = -1;
    const battle_t *b = p->play.b;
    if (!b || who < 0 || who >= b->n) return false;
    c->who = who;
    const ruleset_t *rs = p->play.rs;
    const unit_t *u = &b->u[who];
    const map_combatant_t *mc = &b->map->combatants[who];
    add(c, UI_CARD_TITLE, "%.80s", pui_name(p, who));
    add(c, UI_CARD_DIM, "%.40s, %s%s", mc->faction,
        battle_is_player(b, who) ? "played at this table" : "played by the AI",
        acting(b, rs, who) ? ", acting now" : "");
    char cond[96];
    hud_tracker_conditions(b, who, cond, sizeof cond);
    /* The ruleset's gauges (HP first; armour, heat, a pool...). */
    gauge_t g[GAUGES_MAX];
    int ng = ruleset_gauges(rs, b, who, g, GAUGES_MAX);
    char gl[UI_CARD_TEXT] = "";
    size_t gn = 0;
    for (int k = 0; k < ng && k < GAUGES_MAX; k++) {
        int w = snprintf(gl + gn, sizeof gl - gn, "%s%s %d/%d", gn ? ", " : "", g[k].label,
                         g[k].value, g[k].max);
        if (w < 0 || (size_t)w >= sizeof gl - gn) break;
        gn += (size_t)w;
    }
    if (gn)
        add(c, UI_CARD_BODY, "%s", gl);
    else
        add(c, UI_CARD_BODY, "HP %d/%d", u->hp, u->hp_max);
    /* The ruleset's stats the map or template gives (defences and the rest),
     * a loss shown against the start. */
    char line[UI_CARD_TEXT] = "";
    size_t n = 0;
    for (int s = 0; s < b->n_stats; s++) {
        const char *name = b->stat_names[s];
        if (!name || (!battle_stat_given(b, who, name) && u->stat[s] == 0)) continue;
        char one[96], title[TMPL_WORD_MAX];
        /* The table's word for it from the ruleset's data, not the template key. */
        ruleset_stat_word(b->db, name, false, title, sizeof title);
        if (u->stat[s] != u->stat_max[s])
            snprintf(one, sizeof one, "%s %d/%d", title, u->stat[s], u->stat_max[s]);
        else
            snprintf(one, sizeof one, "%s %d", title, u->stat[s]);
        if (n + strlen(one) + 2 >= sizeof line) {
            add(c, UI_CARD_BODY, "%s", line);
            n = 0;
            line[0] = '\0';
        }
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", n ? ", " : "", one);
    }
    if (n) add(c, UI_CARD_BODY, "%s", line);
    char moves[UI_CARD_TEXT];
    moves_left(b, rs, who, moves, sizeof moves);
    add(c, UI_CARD_BODY, "Speed %d ft; %s: %s", b->prof[who].speed_ft,
        acting(b, rs, who) ? "left this turn" : "next turn",
        moves[0] ? moves : "cannot move");
    if (u->n_weapons == 0) add(c, UI_CARD_DIM, "no weapons");
    else if (u->equipped < 0) add(c, UI_CARD_DIM, "every weapon at hand:");
    for (int k = 0; k < u->n_weapons; k++)
        weapon_line(c, b, who, k);
    add(c, UI_CARD_COND, "%s", cond[0] ? cond : "no conditions");
    return true;
}

static const SDL_Color INK[] = {
    [UI_CARD_TITLE] = {86, 180, 233, 255}, [UI_CARD_BODY] = {235, 235, 228, 255},
    [UI_CARD_DIM] = {160, 164, 170, 255},  [UI_CARD_HELD] = {240, 228, 66, 255},
    [UI_CARD_COND] = {230, 159, 0, 255},
};

int ui_card_draw(ui_draw_t *d, const ui_card_t *c, int x, int y, int w, int px)
{
    if (!c || c->who < 0 || c->n == 0) return 0;
    ui_text_t *t = ui_draw_text(d);
    int y0 = y, lh = (int)(px * 1.4);
    for (int k = 0; k < c->n; k++) {
        bool title = c->style[k] == UI_CARD_TITLE;
        int size = title ? ui_text_quantize(px + 3) : px;
        SDL_Color ink = INK[c->style[k]];
        const char *s = c->line[k];
        int indent = 0;
        /* Wrap at spaces: the longest head of the rest that fits. */
        while (*s) {
            char piece[UI_CARD_TEXT];
            size_t len = strlen(s), cut = len;
            for (;;) {
                memcpy(piece, s, cut);
                piece[cut] = '\0';
                int tw = 0, th = 0;
                ui_text_get(t, piece, size, title, ink, &tw, &th);
                if (tw + indent <= w || cut <= 1) break;
                size_t sp = cut - 1;
                while (sp > 0 && s[sp] != ' ')
                    sp--;
                if (sp == 0) break; /* one long word: it runs on */
                cut = sp;
            }
            ui_text_draw(t, piece, size, title, ink, x + indent, y);
            y += title ? (int)(size * 1.4) : lh;
            s += cut;
            while (*s == ' ')
                s++;
            indent = px;
        }
    }
    return y - y0;
}
