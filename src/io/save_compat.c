/* save_compat.c - saves across versions of the rules (save.h, docs/saves.md).
 *
 * A save is its commands and dice; the state summary in it says what they
 * came to under the rules of the day. When a rule is later fixed, the same
 * commands may play out differently. A save made under the current rules
 * revision must rebuild exactly (anything else means the file is wrong and
 * it is refused); one made under another revision, or before saves recorded
 * one, is replayed under the current rules as far as its commands still
 * apply, and the note says what differs, instead of refusing the battle.
 */
#include <stdio.h>
#include <string.h>

#include "../rules/ruleset.h"
#include "io_json.h"
#include "save.h"

int save_rebuild(const save_t *s, play_t *p, char *err, size_t errcap)
{
    return save_rebuild_ex(s, p, NULL, err, errcap);
}

bool save_faces_ok(const save_t *s, const battle_t *b, int *ev, int *used)
{
    for (; *ev < b->log.n; (*ev)++) {
        const event_t *e = &b->log.ev[*ev];
        if (e->type != EV_ROLL || !dice_is_manual(&b->dice, e->side)) continue;
        for (int d = 0; d < e->n_dice && *used < s->n_dice; d++, (*used)++)
            if (e->dice[d] < 1 || e->dice[d] > e->sides) return false;
    }
    return true;
}

static const char *refusal(battle_status_t st)
{
    switch (st) {
    case BATTLE_NEED_DICE:
        return "needs a die the save does not hold";
    case BATTLE_OVER:
        return "comes after the end of the battle";
    default:
        return "is not allowed at that point any more";
    }
}

/* Setup with every entered die, then commands[0..n). *failed gets the
 * index of the first command the current rules refuse, or that takes an
 * entered value its die cannot show (-1: all n apply) and why its reason;
 * the battle then holds a part of that command, so the caller rebuilds with
 * fewer. HB_OK, or an error when not even the setup can be played. */
static int replay_prefix(io_ctx_t *cx, const save_t *s, play_t *p, int n, int *failed,
                         const char **why)
{
    *failed = -1;
    memset(p, 0, sizeof *p);
    battle_status_t st = play_start(p, s->map, s->db, NULL, &s->opts);
    if (st != BATTLE_OK || !p->b) {
        if (p->b) play_end(p);
        return st == BATTLE_NOMEM ? io_fail_other(cx, "out of memory")
                                  : io_fail(cx, "map.ruleset", "this ruleset cannot be played");
    }
    for (int k = 0; k < s->n_dice; k++)
        if (!dice_enter(&p->b->dice, s->dice[k])) {
            play_end(p);
            return io_fail_other(cx, "out of memory");
        }
    st = play_rebuild(p);
    int ev = 0, used = 0;
    if (st == BATTLE_NOMEM || (st == BATTLE_NEED_DICE && n > 0) ||
        !save_faces_ok(s, p->b, &ev, &used)) {
        play_end(p);
        return st == BATTLE_NOMEM ? io_fail_other(cx, "out of memory")
                                  : io_fail(cx, "dice",
                                            "the setup cannot be played from them under "
                                            "the current rules");
    }
    for (int k = 0; k < n; k++) {
        st = play_apply(p, &s->cmds[k]);
        if (st == BATTLE_NOMEM) {
            play_end(p);
            return io_fail_other(cx, "out of memory");
        }
        if (st != BATTLE_OK || !save_faces_ok(s, p->b, &ev, &used)) {
            *failed = k;
            *why = st != BATTLE_OK ? refusal(st) : "rolls a hand-entered value its die cannot show";
            return HB_OK;
        }
    }
    return HB_OK;
}

int save_rebuild_ex(const save_t *s, play_t *p, save_note_t *note, char *err, size_t errcap)
{
    if (note) {
        note->kept_cmds = s->n_cmds;
        note->kept_pending = s->has_pending;
        note->text[0] = '\0';
    }
    int rc = save_rebuild_exact(s, p, err, errcap);
    const ruleset_t *rs = ruleset_find(s->map->ruleset);
    int current = rs ? rs->revision : 0;
    if (rc != HB_ERR_INPUT || s->rules_revision == current) return rc;

    /* Another revision: as far as the commands go under today's rules. */
    char exact[HB_ERR_MAX];
    snprintf(exact, sizeof exact, "%s", err ? err : "");
    io_ctx_t cx = {.file = s->file, .err = err, .errcap = errcap};
    int n = s->n_cmds, failed = -1, first = -1;
    const char *why = "";
    for (;;) {
        if ((rc = replay_prefix(&cx, s, p, n, &failed, &why))) return rc;
        if (failed < 0) break;
        play_end(p);
        if (first < 0) first = failed;
        n = failed; /* the same events up to there: the next pass goes through */
    }
    if (n == s->n_cmds && s->stopped && !p->b->over) play_stop(p);
    /* Values the replayed commands did not take are not part of this
     * battle: saved again, it must rebuild exactly. */
    if (p->b->dice.cursor < p->b->dice.n_entered) p->b->dice.n_entered = p->b->dice.cursor;

    char detail[HB_ERR_MAX], state[HB_ERR_MAX] = "";
    size_t k = strlen(s->file);
    if (first >= 0) {
        snprintf(detail, sizeof detail,
                 "commands[%d] %s, so the battle goes on from the %d command%s before it", first,
                 why, first, first == 1 ? "" : "s");
    } else {
        /* What the exact rebuild found, or the state it reached, as
         * "PATH: reason" (the file's name comes first in the note). */
        const char *d = save_check_state(s, p->b, state, sizeof state) != HB_OK ? state : exact;
        if (strncmp(d, s->file, k) == 0 && d[k] == ':' && d[k + 1] == ' ') d += k + 2;
        snprintf(detail, sizeof detail, "%s", d);
    }
    if (note) {
        note->kept_cmds = n;
        note->kept_pending = false;
        char was[24] = "an older revision";
        if (s->rules_revision != SAVE_RULES_UNKNOWN)
            snprintf(was, sizeof was, "revision %d", s->rules_revision);
        snprintf(note->text, sizeof note->text,
                 "%.120s was saved under %s of the %.31s rules (now %d); replayed under the "
                 "current rules the battle may differ from the one saved: %.220s%s",
                 s->file, was, s->map->ruleset, current, detail,
                 s->has_pending ? " (the command that waited for a die is dropped)" : "");
    }
    return HB_OK;
}
