/* roll.c - roll specs: limits, reading faces, descriptions (see roll.h). */
#include "roll.h"

#include <stdio.h>
#include <string.h>

roll_spec_t roll_plain(int n, int sides, int keep, int mod)
{
    roll_spec_t s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.sides = sides;
    s.keep = keep;
    s.mod = mod;
    return s;
}

bool roll_check(const roll_spec_t *s, char *why, size_t cap)
{
    if (s->n < 0 || s->n > ROLL_MAX_DICE) {
        snprintf(why, cap, "%d dice is more than the %d one roll may throw", s->n, ROLL_MAX_DICE);
        if (s->n < 0)
            snprintf(why, cap, "%d dice is not a number of dice", s->n);
        return false;
    }
    /* No dice (a flat amount) need no faces: a flat weapon's "+2" has none. */
    if ((s->sides < 1 && s->n > 0) || s->sides < 0 || s->sides > ROLL_MAX_SIDES) {
        snprintf(why, cap, "a die of %d sides (1 to %d are allowed)", s->sides, ROLL_MAX_SIDES);
        return false;
    }
    if (s->count_at < 0 || s->crit_at < 0 || s->botch_at < 0 || s->crit_value < 0 ||
        s->botch_value < 0 || s->goal < ROLL_GOAL_NONE || s->goal > ROLL_GOAL_AT_MOST) {
        snprintf(why, cap, "a malformed roll spec");
        return false;
    }
    return true;
}

bool roll_counts(const roll_spec_t *s) { return s->count_at > 0 || s->goal != ROLL_GOAL_NONE; }

int roll_face_successes(const roll_spec_t *s, int face)
{
    if (s->count_at <= 0)
        return 0;
    if (s->botch_at > 0 && face <= s->botch_at)
        return -s->botch_value;
    if (s->crit_at > 0 && face >= s->crit_at)
        return s->crit_value;
    return face >= s->count_at ? 1 : 0;
}

void roll_read(const roll_spec_t *s, const int *dice, roll_result_t *out)
{
    int n = s->n < 0 ? 0 : s->n > ROLL_MAX_DICE ? ROLL_MAX_DICE : s->n;
    int sorted[ROLL_MAX_DICE];
    memcpy(sorted, dice, sizeof(int) * (size_t)n);
    /* Insertion sort: at most 32 small numbers. */
    for (int i = 1; i < n; i++) {
        int v = sorted[i], j = i - 1;
        while (j >= 0 && sorted[j] > v) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = v;
    }
    int k = s->keep > 0 ? (s->keep < n ? s->keep : n) : s->keep < 0 ? (-s->keep < n ? -s->keep : n) : n;
    out->kept_n = k;
    int sum = 0, succ = 0;
    for (int j = 0; j < k; j++) {
        /* Highest first when keeping the highest; otherwise lowest first. */
        int v = s->keep > 0 ? sorted[n - 1 - j] : sorted[j];
        out->kept[j] = v;
        sum += v;
        succ += roll_face_successes(s, v);
    }
    if (s->count_at > 0) {
        out->successes = succ + s->mod;
        out->total = out->successes;
        return;
    }
    out->total = sum + s->mod;
    if (s->goal == ROLL_GOAL_AT_LEAST)
        out->successes = out->total >= s->target;
    else if (s->goal == ROLL_GOAL_AT_MOST)
        out->successes = out->total <= s->target;
    else
        out->successes = 0;
}

/* "one", "2"... for "takes one away" and "counts 2". */
static const char *how_many(int v, char *buf, size_t cap)
{
    if (v == 1)
        return "one";
    snprintf(buf, cap, "%d", v);
    return buf;
}

int roll_describe(const roll_spec_t *s, char *buf, size_t cap)
{
    char head[48], keep[40] = "", mod[16] = "";
    snprintf(head, sizeof head, "%dd%d", s->n, s->sides);
    int k = s->keep > 0 ? s->keep : -s->keep;
    if (s->keep != 0 && k < s->n) {
        if (k == 1)
            snprintf(keep, sizeof keep, " keep the %s", s->keep > 0 ? "highest" : "lowest");
        else
            snprintf(keep, sizeof keep, " keep the %d %s", k, s->keep > 0 ? "highest" : "lowest");
    }
    if (s->count_at > 0) {
        char crit[40] = "", botch[48] = "", plus[40] = "", nb[16];
        if (s->crit_at > 0 && s->crit_value != 1)
            snprintf(crit, sizeof crit, ", %d+ counts %d", s->crit_at, s->crit_value);
        if (s->botch_at > 0 && s->botch_value > 0) {
            if (s->botch_at == 1)
                snprintf(botch, sizeof botch, ", a 1 takes %s away",
                         how_many(s->botch_value, nb, sizeof nb));
            else
                snprintf(botch, sizeof botch, ", %d or less takes %s away", s->botch_at,
                         how_many(s->botch_value, nb, sizeof nb));
        }
        if (s->mod != 0)
            snprintf(plus, sizeof plus, ", %+d success%s", s->mod, s->mod == 1 || s->mod == -1 ? "" : "es");
        return snprintf(buf, cap, "%s%s: %d+ succeeds%s%s%s", head, keep, s->count_at, crit, botch,
                        plus);
    }
    if (s->mod != 0)
        snprintf(mod, sizeof mod, "%+d", s->mod);
    if (s->goal == ROLL_GOAL_AT_LEAST)
        return snprintf(buf, cap, "%s%s%s: %d or more succeeds", head, keep, mod, s->target);
    if (s->goal == ROLL_GOAL_AT_MOST)
        return snprintf(buf, cap, "%s%s%s: %d or under succeeds", head, keep, mod, s->target);
    return snprintf(buf, cap, "%s%s%s", head, keep, mod);
}
