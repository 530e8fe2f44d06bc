/* hud_log.c - the battle log: each event in words (rolls, actions,
 * conditions) and the log panel (see hud.h). */
#include "hud_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/condlog.h"
#include "../core/trigger.h"

void hud_roll_text(const pui_t *p, const event_t *e, char *buf, size_t cap)
{
    char dice[64] = "", kept[48] = "";
    size_t n = 0;
    for (int k = 0; k < e->n_dice && k < EV_MAX_DICE; k++) {
        int w = snprintf(dice + n, sizeof dice - n, "%s%d", k ? " " : "", e->dice[k]);
        if (w < 0 || (size_t)w >= sizeof dice - n) break;
        n += (size_t)w;
    }
    if (e->kept_n > 0 && e->kept_n < e->n_dice) {
        n = 0;
        for (int k = 0; k < e->kept_n && k < EV_MAX_DICE; k++) {
            int w = snprintf(kept + n, sizeof kept - n, "%s%d", k ? " " : " k", e->kept[k]);
            if (w < 0 || (size_t)w >= sizeof kept - n) break;
            n += (size_t)w;
        }
    }
    char mod[16] = "", why[96];
    if (e->mod) snprintf(mod, sizeof mod, " %+d", e->mod);
    if (roll_counts(&e->spec)) {
        /* Successes or a pass: say which, not a sum nobody reads. */
        char res[48];
        if (e->spec.count_at > 0 && e->successes < 0)
            /* A net below zero: no successes, and a botch (what it does is the ruleset's). */
            snprintf(res, sizeof res, "0 successes, a botch (net %d)", e->successes);
        else if (e->spec.count_at > 0)
            snprintf(res, sizeof res, "%d success%s", e->successes, e->successes == 1 ? "" : "es");
        else
            snprintf(res, sizeof res, "%d, %s", e->total, e->successes ? "passes" : "fails");
        snprintf(buf, cap, "%s %s: %dd%d [%s]%s = %s", e->who >= 0 ? pui_name(p, e->who) : "table",
                 pui_why(p, e->name, why, sizeof why), e->n_dice, e->sides, dice, kept, res);
        return;
    }
    snprintf(buf, cap, "%s %s: %dd%d [%s]%s%s = %d", e->who >= 0 ? pui_name(p, e->who) : "table",
             pui_why(p, e->name, why, sizeof why), e->n_dice, e->sides, dice, kept, mod, e->total);
}

hud_log_kind_t hud_log_kind(const event_t *e)
{
    switch (e->type) {
    case EV_INITIATIVE: /* who acts first (the ruleset may say how its order works) */
        return e->value == 1 ? HUD_LOG_STORY : HUD_LOG_NONE;
    case EV_ROLL:
        return HUD_LOG_ROLL;
    case EV_ROUND_END:
        return HUD_LOG_ROUND; /* a separator between the rounds */
    case EV_ATTACK:
    case EV_DAMAGE:
    case EV_CONDITION:
    case EV_REACTION:
    case EV_DEFEATED:
    case EV_FLED:
    case EV_ACTION:
    case EV_DECLARE:
    case EV_TERRAIN:
    case EV_PHASE:
    case EV_AREA:
        return HUD_LOG_STORY;
    default:
        /* Turns, rounds, steps and the end have their own displays; a stat
         * change is told on the line of what caused it (hud_log_text). */
        return HUD_LOG_NONE;
    }
}

/* An identifier as words: "glass_mandibles" -> "glass mandibles". */
static const char *words(const char *id, char *out, size_t cap)
{
    size_t n = 0;
    for (; id[n] && n + 1 < cap; n++)
        out[n] = id[n] == '_' ? ' ' : id[n];
    out[n] = '\0';
    return out;
}

/* What an action event says, in words. */
static void action_text(const event_t *e, const char *who, const char *tgt, char *buf, size_t cap)
{
    const char *n = e->name;
    char w[EV_NAME_MAX];
    if (strcmp(n, "secondary") == 0)
        snprintf(buf, cap, "(that was %s's secondary action)", who);
    else if (strcmp(n, "assist") == 0)
        snprintf(buf, cap, "%s assists against %s", who, tgt);
    else if (strcmp(n, "search") == 0)
        snprintf(buf, cap, e->hit ? "%s searches and finds a hider" : "%s searches: nobody found",
                 who);
    else if (strncmp(n, "hold:", 5) == 0 && trigger_parse(n + 5) >= 0)
        /* A held action and its trigger, in the trigger's words, not its key. */
        snprintf(buf, cap, "%s holds its action until: %s", who, trigger_label(trigger_parse(n + 5)));
    else if (strncmp(n, "ready: ", 7) == 0 && trigger_parse(n + 7) >= 0)
        snprintf(buf, cap, "%s readies an action until: %s", who, trigger_label(trigger_parse(n + 7)));
    else if (strncmp(n, "ready move: ", 12) == 0 && trigger_parse(n + 12) >= 0)
        snprintf(buf, cap, "%s readies a move until: %s", who, trigger_label(trigger_parse(n + 12)));
    else if (strcmp(n, "vent") == 0)
        snprintf(buf, cap, "%s vents heat", who);
    else if (strcmp(n, "dash") == 0 || strcmp(n, "thrust") == 0)
        snprintf(buf, cap, "%s %ses", who, n);
    else if (strcmp(n, "standby") == 0 || strcmp(n, "standby_move") == 0)
        snprintf(buf, cap, "%s stands by%s%s", who, e->target >= 0 ? " for " : "",
                 e->target >= 0 ? tgt : "");
    else if (strcmp(n, "act_first") == 0)
        snprintf(buf, cap, e->hit ? "%s is quick enough to act first" : "%s acts after the enemy",
                 who);
    else if (strcmp(n, "grapple") == 0)
        snprintf(buf, cap, e->hit ? "%s grapples %s" : "%s fails to grapple %s", who, tgt);
    else if (strcmp(n, "shove_push") == 0)
        snprintf(buf, cap, e->hit ? "%s shoves %s back" : "%s fails to shove %s", who, tgt);
    else if (strcmp(n, "shove_knock") == 0)
        snprintf(buf, cap, e->hit ? "%s knocks %s down" : "%s fails to knock %s down", who, tgt);
    else if (strcmp(n, "escape") == 0)
        snprintf(buf, cap, e->hit ? "%s breaks free of %s" : "%s fails to break free of %s", who,
                 tgt);
    else if (e->target >= 0)
        snprintf(buf, cap, "%s: %s %s%s", who, words(n, w, sizeof w), tgt,
                 e->hit ? "" : " (failed)");
    else
        snprintf(buf, cap, "%s: %s%s", who, words(n, w, sizeof w), e->hit ? "" : " (failed)");
}

/* Events no bookkeeping change is told across: a turn, a round, a phase. */
static bool seam(const event_t *e)
{
    return e->type == EV_TURN_START || e->type == EV_TURN_END || e->type == EV_ROUND_END ||
           e->type == EV_PHASE || e->type == EV_INITIATIVE;
}

static bool is_line(const event_t *e)
{
    return hud_log_kind(e) == HUD_LOG_STORY || hud_log_kind(e) == HUD_LOG_ROLL;
}

/* Whom a line is about: the one hurt for damage, else the one acting. */
static int subject(const event_t *e)
{
    return e->type == EV_DAMAGE ? e->target : e->who;
}

/* The log line stat change k is told on, within its turn: the last line
 * before it about the same combatant (the roll, attack or action that
 * changed it), or the first after it (a reaction it pays for); then the
 * last or first line of the turn about anyone; failing all, the nearest
 * line at all. -1 when the log has none. */
static int stat_host(const battle_t *b, int k)
{
    const event_t *ev = b->log.ev;
    int who = ev[k].who;
    for (int any = 0; any < 2; any++) {
        for (int j = k - 1; j >= 0 && !seam(&ev[j]); j--)
            if (is_line(&ev[j]) && (any || subject(&ev[j]) == who)) return j;
        for (int j = k + 1; j < b->log.n && !seam(&ev[j]); j++)
            if (is_line(&ev[j]) && (any || subject(&ev[j]) == who)) return j;
    }
    for (int j = k - 1; j >= 0; j--)
        if (is_line(&ev[j])) return j;
    for (int j = k + 1; j < b->log.n; j++)
        if (is_line(&ev[j])) return j;
    return -1;
}

/* Append to line k's text the stat changes told on it, in the ruleset's
 * short words: "; PP 8 -> 7", "; Raider's armour 4 -> 1". They lie
 * between the nearest lines of other turns on either side. */
static void fold_stats(const pui_t *p, const battle_t *b, int k, char *buf, size_t cap)
{
    const event_t *ev = b->log.ev;
    int subj = subject(&ev[k]);
    int lo = k - 1, hi = k + 1;
    for (bool crossed = false; lo >= 0; lo--) {
        if (crossed && is_line(&ev[lo])) break;
        if (seam(&ev[lo])) crossed = true;
    }
    for (bool crossed = false; hi < b->log.n; hi++) {
        if (crossed && is_line(&ev[hi])) break;
        if (seam(&ev[hi])) crossed = true;
    }
    for (int j = lo + 1; j < hi; j++) {
        const event_t *e = &ev[j];
        if (e->type != EV_STAT || stat_host(b, j) != k) continue;
        char word[TMPL_WORD_MAX], whose[MAP_NAME_MAX + 4] = "", val[32];
        ruleset_stat_word(b->db, e->name, true, word, sizeof word);
        if (e->who >= 0 && e->who != subj)
            snprintf(whose, sizeof whose, "%s's ", pui_name(p, e->who));
        if ((e->opt & EV_OPT_FROM) && e->amount != e->value)
            snprintf(val, sizeof val, "%d -> %d", e->amount, e->value);
        else
            snprintf(val, sizeof val, "%d", e->value);
        size_t n = strlen(buf);
        if (n + 1 < cap) snprintf(buf + n, cap - n, "; %s%s %s", whose, word, val);
    }
}

/* The line's own words, before the changes told on it. */
static hud_log_kind_t line_text(const pui_t *p, const event_t *e, char *buf, size_t cap);

hud_log_kind_t hud_log_text(const pui_t *p, const event_t *e, char *buf, size_t cap)
{
    buf[0] = '\0';
    hud_log_kind_t kind = line_text(p, e, buf, cap);
    const battle_t *b = p->play.b;
    /* Which entry of the log e is (callers may pass a copy: then none is folded). */
    if (kind != HUD_LOG_NONE && kind != HUD_LOG_ROUND && b && e >= b->log.ev &&
        e < b->log.ev + b->log.n)
        fold_stats(p, b, (int)(e - b->log.ev), buf, cap);
    return kind;
}

static hud_log_kind_t line_text(const pui_t *p, const event_t *e, char *buf, size_t cap)
{
    hud_log_kind_t kind = hud_log_kind(e);
    const battle_t *b = p->play.b;
    if (kind == HUD_LOG_NONE) return kind;
    if (b && e >= b->log.ev && e < b->log.ev + b->log.n && p->play.rs && p->play.rs->tell &&
        p->play.rs->tell(b, (int)(e - b->log.ev), buf, cap))
        return kind;
    if (kind == HUD_LOG_ROLL) {
        hud_roll_text(p, e, buf, cap);
        return kind;
    }
    if (kind == HUD_LOG_ROUND) {
        snprintf(buf, cap, "end of round %d", e->value);
        return kind;
    }
    const char *who = e->who >= 0 ? pui_name(p, e->who) : "table";
    const char *tgt = e->target >= 0 ? pui_name(p, e->target) : "-";
    char w[EV_NAME_MAX];
    switch (e->type) {
    case EV_ATTACK:
        if (e->target < 0) /* an area with nobody singled out: its hexes say who is caught */
            snprintf(buf, cap, "%s attacks an area (%s)", who, words(e->name, w, sizeof w));
        else
            snprintf(buf, cap, "%s %s %s (%s)", who, e->hit ? "hits" : "misses", tgt,
                     words(e->name, w, sizeof w));
        break;
    case EV_DAMAGE: {
        char extra[64] = "";
        int n = 0;
        if (e->opt & EV_OPT_SOAKED)
            n += snprintf(extra + n, sizeof extra - (size_t)n, ", %d soaked", e->soaked);
        if ((e->opt & EV_OPT_ARMOR) && n >= 0 && (size_t)n < sizeof extra)
            snprintf(extra + n, sizeof extra - (size_t)n, ", %d on armour", e->armor);
        snprintf(buf, cap, "%s takes %d%s%s%s, %d HP left", tgt, e->amount, e->name[0] ? " " : "",
                 e->name[0] ? words(e->name, w, sizeof w) : "", extra, e->hp);
        break;
    }
    case EV_PHASE:
        snprintf(buf, cap, "%s phase, round %d", words(e->name, w, sizeof w), e->value);
        break;
    case EV_CONDITION:
        snprintf(buf, cap, e->on ? "%s is %s" : "%s is no longer %s", who,
                 words(e->name, w, sizeof w));
        break;
    case EV_REACTION:
        snprintf(buf, cap, "%s reacts to %s (%s)", who, tgt, words(e->name, w, sizeof w));
        break;
    case EV_DEFEATED:
        snprintf(buf, cap, "%s is defeated", who);
        break;
    case EV_FLED:
        snprintf(buf, cap, "%s leaves the battle", who);
        break;
    case EV_ACTION:
        action_text(e, who, tgt, buf, cap);
        break;
    case EV_DECLARE:
        if ((e->opt & EV_OPT_VALUE) && e->value > 0)
            snprintf(buf, cap, "%s's %s lands in %d%s%s", who, words(e->name, w, sizeof w),
                     e->value, e->target >= 0 ? " on " : "", e->target >= 0 ? tgt : "");
        else if (e->opt & EV_OPT_VALUE)
            snprintf(buf, cap, "%s's %s lands", who, words(e->name, w, sizeof w));
        else
            snprintf(buf, cap, "%s declares %s%s%s", who, words(e->name, w, sizeof w),
                     e->target >= 0 ? " on " : "", e->target >= 0 ? tgt : "");
        break;
    case EV_INITIATIVE:
        if (e->who >= 0)
            snprintf(buf, cap, "%s acts first (initiative %d)", who, e->total);
        else if (b && e->side >= 0 && e->side < b->board->n_sides)
            snprintf(buf, cap, "%s act first (initiative %d)", b->board->side_name[e->side],
                     e->total);
        break;
    case EV_TERRAIN:
        snprintf(buf, cap, "hex %d,%d becomes %s", e->to.col, e->to.row,
                 words(e->name, w, sizeof w));
        break;
    case EV_AREA: /* "Vex: blast of 1 hex at 5,6", "Ada: cone of 6 hexes towards 9,2" */
        snprintf(buf, cap, "%s: %s of %d hex%s %s %d,%d", who, e->name, e->value,
                 e->value == 1 ? "" : "es",
                 strcmp(e->name, "blast") == 0   ? "at"
                 : strcmp(e->name, "burst") == 0 ? "around"
                                                 : "towards",
                 e->to.col, e->to.row);
        break;
    default:
        break;
    }
    return kind;
}
/* The battle log from y0 down to the bottom of the right panel. */
void hud_draw_log(hud_t *h, ui_draw_t *d, int y0)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    if (l->log.w <= 0) return;
    SDL_Rect area = {l->log.x, y0, l->log.w, l->log.y + l->log.h - y0};
    SDL_RenderSetClipRect(r, &area);
    int x = l->log.x + l->px / 2;
    hud_text(d, p->log_scroll ? "Battle log (scrolled; wheel)" : "Battle log",
             ui_text_quantize(l->px + 4), true, C_HEAD, x, y0 + l->px / 4);
    int top = y0 + l->px / 4 + l->line + l->px / 2;
    int small = ui_text_quantize(l->px - 2);
    int lh = (int)lround(small * 1.4);
    /* Newest at the bottom; walk back from the newest, skipping the scroll. */
    int y = l->log.y + l->log.h - lh - l->px / 3;
    int skip = p->log_scroll;
    char buf[320];
    for (int k = b->log.n - 1; k >= 0 && y >= top; k--) {
        const event_t *e = &b->log.ev[k];
        hud_log_kind_t kind = hud_log_kind(e);
        if (kind == HUD_LOG_NONE) continue;
        if (skip-- > 0) continue;
        hud_log_text(p, e, buf, sizeof buf);
        if (kind == HUD_LOG_ROUND) {
            /* A rule across the panel with the round's end in its middle. */
            int tw = hud_text_w(d, buf, small, true), mid = l->log.x + l->log.w / 2;
            SDL_SetRenderDrawColor(r, 86, 180, 233, 200);
            int ly = y + lh / 2;
            SDL_RenderDrawLine(r, x, ly, mid - tw / 2 - small / 2, ly);
            SDL_RenderDrawLine(r, mid + tw / 2 + small / 2, ly, l->log.x + l->log.w - l->px / 2,
                               ly);
            hud_text(d, buf, small, true, C_HEAD, mid - tw / 2, y);
            y -= lh;
            continue;
        }
        /* A line wider than the panel wraps at spaces (a narrow window),
         * and at a '\n' the ruleset put in; the later pieces indented;
         * drawn bottom-up like the log. */
        int cut[8], n_cut = 0, from = 0, len = (int)strlen(buf), avail = l->log.w - l->px;
        while (from < len && n_cut < 8) {
            const char *nl = memchr(buf + from, '\n', (size_t)(len - from));
            int end = nl ? (int)(nl - buf) : len;
            char piece[320];
            for (;;) {
                int m = end - from < (int)sizeof piece ? end - from : (int)sizeof piece - 1;
                memcpy(piece, buf + from, (size_t)m);
                piece[m] = 0;
                if (hud_text_w(d, piece, small, false) + (n_cut ? small : 0) <= avail) break;
                int sp = end - 1;
                while (sp > from && buf[sp] != ' ')
                    sp--;
                if (sp <= from) break; /* one long word: let the clip cut it */
                end = sp;
            }
            cut[n_cut++] = end;
            from = end;
            while (from < len && (buf[from] == ' ' || buf[from] == '\n'))
                from++;
        }
        /* Rolls in white, what happened in blue; lines not yet animated are
         * there already (the truth), but dimmer. */
        SDL_Color ink = kind == HUD_LOG_ROLL ? C_INK : C_STORY;
        if (k >= p->anim.cursor) ink = C_DIM;
        for (int c = n_cut - 1; c >= 0 && y >= top; c--) {
            int start = c == 0 ? 0 : cut[c - 1];
            while (start < len && (buf[start] == ' ' || buf[start] == '\n'))
                start++;
            char piece[320];
            int m = cut[c] - start;
            memcpy(piece, buf + start, (size_t)m);
            piece[m] = 0;
            hud_text(d, piece, small, false, ink, x + (c ? small : 0), y);
            y -= lh;
        }
    }
    SDL_RenderSetClipRect(r, NULL);
}
