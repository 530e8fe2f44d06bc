/* play_prompt.c - what the play screen says about the dice it waits for:
 * the prompt (who rolls what, against whom, why), the reasons in the rules'
 * words with names for ids, and the digits typed for a physical die (see
 * play_ui.h). */
#include "play_ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pui_why(const pui_t *p, const char *why, char *buf, size_t cap)
{
    /* The rules name a combatant by id inside a reason ("damage on oona");
     * the table knows it by name. */
    const char *on = strstr(why, " on ");
    int i = on ? map_find_combatant(p->play.b->map, on + 4) : -1;
    if (i < 0) {
        snprintf(buf, cap, "%s", why);
        return buf;
    }
    snprintf(buf, cap, "%.*s on %s", (int)(on - why), why, pui_name(p, i));
    return buf;
}

void pui_die_prompt(const pui_t *p, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    const dice_request_t *n = &b->need;
    if (!pui_needs_die(p)) {
        snprintf(buf, cap, "no roll is waiting");
        return;
    }
    /* The engine stops inside the roll itself, so the request carries the
     * whole shape: dice, which of them count, and the modifier. */
    int count = n->count > 0 ? n->count : 1;
    char how[64] = "";
    if (count > 1 && n->keep != 0 && (n->keep > 0 ? n->keep : -n->keep) < count) {
        int k = n->keep > 0 ? n->keep : -n->keep;
        if (n->sides == 20 && k == 1)
            snprintf(how, sizeof how, "%s",
                     n->keep > 0  ? " with advantage (keep the highest)"
                     : count == 4 ? " with detriment (keep the lowest)"
                                  : " with disadvantage (keep the lowest)");
        else
            snprintf(how, sizeof how, ", keep the %d %s", k, n->keep > 0 ? "highest" : "lowest");
    }
    char mod[24] = "";
    if (n->mod != 0) snprintf(mod, sizeof mod, ", %+d", n->mod);
    char of[40] = "";
    if (count > 1) snprintf(of, sizeof of, " (die %d of %d)", n->index + 1, count);
    char why[96];
    /* Against whom, from the command waiting for the die: "(kara's engage on
     * grunt)"; a roll the target makes (a save) says whose command it is. */
    char whom[160] = "";
    const cmd_t *c = p->play.pending ? &p->play.pending_cmd : NULL;
    if (c && c->actor >= 0 && c->actor < b->n) {
        if (c->target >= 0 && c->target < b->n && c->target != c->actor)
            snprintf(whom, sizeof whom, " (%.60s's %s on %.60s)", pui_name(p, c->actor),
                     cmd_kind_name(c->kind == CMD_DECLARE ? c->act : c->kind),
                     pui_name(p, c->target));
        else if (c->actor != n->who)
            snprintf(whom, sizeof whom, " (%.60s's %s)", pui_name(p, c->actor),
                     cmd_kind_name(c->kind == CMD_DECLARE ? c->act : c->kind));
    }
    if (roll_counts(&n->spec)) {
        /* Successes or a pass: the table needs the reading, not just the dice. */
        char shape[96];
        roll_describe(&n->spec, shape, sizeof shape);
        snprintf(buf, cap, "%s: %s, roll %s%s%s", n->who >= 0 ? pui_name(p, n->who) : "Referee",
                 pui_why(p, n->why, why, sizeof why), shape, of, whom);
        return;
    }
    snprintf(buf, cap, "%s: %s, roll %dd%d%s%s%s%s", n->who >= 0 ? pui_name(p, n->who) : "Referee",
             pui_why(p, n->why, why, sizeof why), count, n->sides, how, mod, of, whom);
}

bool pui_type_die(pui_t *p, SDL_Keycode k)
{
    if (!pui_needs_die(p)) return false;
    int digit = -1;
    if (k >= SDLK_0 && k <= SDLK_9) digit = (int)(k - SDLK_0);
    if (k >= SDLK_KP_1 && k <= SDLK_KP_9) digit = (int)(k - SDLK_KP_1) + 1;
    if (k == SDLK_KP_0) digit = 0;
    if (digit >= 0) {
        /* At most three digits a value, the values space apart. */
        const char *last = strrchr(p->entry, ' ');
        size_t run = strlen(last ? last + 1 : p->entry);
        if (run < 3 && p->n_entry + 1 < (int)sizeof p->entry) {
            p->entry[p->n_entry++] = (char)('0' + digit);
            p->entry[p->n_entry] = 0;
        }
        return true;
    }
    if (k == SDLK_SPACE || k == SDLK_COMMA) {
        /* The next value of a pool typed as one line. */
        if (p->n_entry > 0 && p->entry[p->n_entry - 1] != ' ' &&
            p->n_entry + 1 < (int)sizeof p->entry) {
            p->entry[p->n_entry++] = ' ';
            p->entry[p->n_entry] = 0;
        }
        return true;
    }
    if (k == SDLK_BACKSPACE && p->n_entry > 0) {
        p->entry[--p->n_entry] = 0;
        return true;
    }
    if ((k == SDLK_RETURN || k == SDLK_KP_ENTER) && p->n_entry > 0) {
        /* Each value in turn, while dice are awaited; a value that is not a
         * face stops the line there (the message says which). */
        char line[sizeof p->entry];
        memcpy(line, p->entry, sizeof line);
        p->n_entry = 0;
        p->entry[0] = 0;
        int given = 0;
        for (char *s = line, *end; *s && pui_needs_die(p); s = end) {
            long v = strtol(s, &end, 10);
            if (end == s) break;
            if (!pui_enter_die(p, (int)v)) break;
            given++;
            while (*end == ' ')
                end++;
        }
        p->line_entered = given;
        if (given > 1 && !pui_needs_die(p))
            snprintf(p->msg, sizeof p->msg, "Entered %d dice: %.60s.", given, line);
        return true;
    }
    return false;
}

/* The side of combatant i by name ("the raiders"). */
static const char *side_words(const pui_t *p, int i)
{
    const battle_t *b = p->play.b;
    int s = i >= 0 && i < b->n ? b->board->side[i] : -1;
    return s >= 0 ? b->board->side_name[s] : "the other side";
}

void pui_status(pui_t *p, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    int round = b->round > 0 ? b->round : 1;
    if (strcmp(p->msg, p->msg_seen) != 0) {
        memcpy(p->msg_seen, p->msg, sizeof p->msg_seen);
        p->msg_round = round;
        p->msg_actor = p->actor;
    } else if (p->msg[0] && (p->msg_round != round || p->msg_actor != p->actor)) {
        p->msg[0] = p->msg_seen[0] = '\0'; /* from an earlier turn */
    }
    char now[160], asked[sizeof p->msg] = "";
    /* The question or the die prompt itself as the message: it says who and
     * what, so the line does not say it twice ("may react ... may react"). */
    if (p->started && pui_needs_answer(p))
        pui_answer_prompt(p, asked, sizeof asked);
    else if (p->started && pui_needs_die(p))
        pui_die_prompt(p, asked, sizeof asked);
    if (asked[0] && strcmp(p->msg, asked) == 0) {
        snprintf(buf, cap, "Round %d: %s.", round, asked);
        return;
    }
    if (!p->started)
        snprintf(now, sizeof now, "Not started");
    else if (b->over)
        snprintf(now, sizeof now, "Round %d: the battle is over", round);
    else if (pui_needs_die(p))
        snprintf(now, sizeof now, "Round %d: a d%d is awaited for %.60s", round, b->need.sides,
                 pui_name(p, b->need.who));
    else if (pui_needs_answer(p))
        snprintf(now, sizeof now, "Round %d: %.60s may react (0-%d)", round,
                 pui_name(p, b->ask.who), b->ask.n - 1);
    else if (p->replay)
        snprintf(now, sizeof now, "Round %d: replay", round);
    else if (p->user_turn && p->actor >= 0)
        snprintf(now, sizeof now, "Round %d: %.60s (%.30s) to act", round, pui_name(p, p->actor),
                 side_words(p, p->actor));
    else
        snprintf(now, sizeof now, "Round %d: %.30s play (AI)%s", round, side_words(p, p->actor),
                 anim_busy(&p->anim) ? ", moves shown" : "");
    if (p->msg[0])
        snprintf(buf, cap, "%s. %s", now, p->msg);
    else
        snprintf(buf, cap, "%s.", now);
}

void pui_not_now(pui_t *p, const char *what)
{
    const battle_t *b = p->play.b;
    if (!p->started) return;
    if (p->replay)
        snprintf(p->msg, sizeof p->msg, "%s: a replay takes no commands.", what);
    else if (b->over)
        snprintf(p->msg, sizeof p->msg,
                 "%s: the battle is over (Ctrl+Z takes back the last command).", what);
    else if (pui_needs_die(p))
        snprintf(p->msg, sizeof p->msg, "%s: a d%d is awaited first for %.60s.", what,
                 b->need.sides, pui_name(p, b->need.who));
    else if (pui_needs_answer(p))
        snprintf(p->msg, sizeof p->msg, "%s: %.60s's reaction is asked first (0-%d).", what,
                 pui_name(p, b->ask.who), b->ask.n - 1);
    else if (!p->user_turn)
        snprintf(p->msg, sizeof p->msg,
                 "%s: not now, %.30s are playing (AI)%s; your turn comes next.", what,
                 side_words(p, p->actor),
                 anim_busy(&p->anim) ? " and their moves are still shown" : "");
}
