/* draw_marks.c - what a token wears: its side's colour, its mark
 * (initials or a number), and the condition markers from the log (see
 * draw.h). */
#include "draw.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/condlog.h"
#include "draw_internal.h"

int ui_cond_marks(const event_log_t *log, int who, char out[][3], uint8_t *hue, int cap)
{
    const char *names[CONDLOG_MAX];
    int n = log ? condlog_current(log, who, names, CONDLOG_MAX) : 0;
    int k = 0;
    for (int i = 0; i < n && k < cap; i++) {
        const char *nm = strrchr(names[i], ':');
        nm = nm ? nm + 1 : names[i];
        if (!nm[0]) continue;
        out[k][0] = (char)(nm[0] >= 'a' && nm[0] <= 'z' ? nm[0] - 32 : nm[0]);
        out[k][1] = nm[1] && nm[1] != '_' ? nm[1] : '\0';
        out[k][2] = '\0';
        uint32_t hsh = 2166136261u; /* FNV-1a of the whole name */
        for (const char *c = names[i]; *c; c++)
            hsh = (hsh ^ (unsigned char)*c) * 16777619u;
        hue[k] = (uint8_t)(hsh % N_COND_RGB);
        k++;
    }
    return k;
}

void draw_refresh_conds(ui_draw_t *d, const map_t *m, const event_log_t *log)
{
    /* A rebuilt battle (undo) may reuse the addresses and the length: the
     * last event is part of the key too. */
    uint64_t last = 0;
    if (log && log->n > 0) {
        const event_t *e = &log->ev[log->n - 1];
        last = (uint64_t)e->type << 48 ^ (uint64_t)(uint32_t)e->who << 24 ^ (uint32_t)e->value ^
               (uint64_t)(uintptr_t)log->ev;
    }
    if (log == d->cond_log && log && log->n == d->cond_log_n && last == d->cond_last) return;
    d->cond_log = log;
    d->cond_log_n = log ? log->n : 0;
    d->cond_last = last;
    for (int i = 0; i < m->n_combatants && i < MAP_MAX_COMBATANTS; i++)
        d->n_cond[i] = ui_cond_marks(log, i, d->cond[i], d->cond_hue[i], UI_COND_MARKS);
}
/* ---- colours and names -------------------------------------------------- */

/* Okabe-Ito based hues, which stay apart under the common colour-vision
 * deficiencies; players get the cool half, the Architect the warm half. */
static const uint32_t COOL[] = {0x2F7FC1, 0x009E73, 0x56B4E9, 0x6A5ACD, 0x1B5E7A, 0x7FC6A4};
/* The AI's hues go in the order that keeps the first ones furthest apart
 * (vermillion, pink, yellow, brown), so two AI factions never look alike. */
static const uint32_t WARM[] = {0xD55E00, 0xCC79A7, 0xF0E442, 0x8B4513, 0xB22234, 0xE69F00};
#define N_HUES 6

/* Position of FACTION among factions of its own side, first appearance first. */
static int faction_rank(const map_t *m, const char *faction, bool player)
{
    const char *seen[MAP_MAX_FACTIONS + MAP_MAX_COMBATANTS];
    int n_seen = 0, rank = 0;
    int total = m->n_factions + m->n_combatants;
    for (int i = 0; i < total; i++) {
        const char *f =
            i < m->n_factions ? m->factions[i].name : m->combatants[i - m->n_factions].faction;
        bool dup = false;
        for (int k = 0; k < n_seen && !dup; k++)
            dup = strcmp(seen[k], f) == 0;
        if (dup) continue;
        if (strcmp(f, faction) == 0) return rank;
        seen[n_seen++] = f;
        if (map_faction_is_player(m, f) == player) rank++;
    }
    return rank;
}

SDL_Color ui_faction_color(const map_t *m, const char *faction)
{
    bool player = map_faction_is_player(m, faction);
    int rank = faction_rank(m, faction, player) % N_HUES;
    return draw_rgb(player ? COOL[rank] : WARM[rank], 255);
}

void ui_initials(const char *name, char out[3])
{
    int n = 0;
    bool at_word = true;
    const char *first = NULL; /* the first word, for a one-word name */
    for (const char *p = name; *p && n < 2; p++) {
        unsigned char ch = (unsigned char)*p;
        if (isalnum(ch)) {
            if (at_word) {
                if (!first) first = p;
                out[n++] = (char)toupper(ch);
            }
            at_word = false;
        } else {
            at_word = true;
        }
    }
    /* A one-word name shows its first two letters ("Ravager" Ra, "Ridgeback"
     * Ri), so two such tokens rarely read the same. */
    if (n == 1 && isalnum((unsigned char)first[1]))
        out[n++] = (char)tolower((unsigned char)first[1]);
    out[n] = '\0';
}

/* The first two letters of name's first word ("Dust Hound" -> "Du"); its
 * initials when that word has one letter. */
static void first_two(const char *name, char out[3])
{
    const char *p = name;
    while (*p && !isalnum((unsigned char)*p))
        p++;
    if (!p[0] || !isalnum((unsigned char)p[1])) {
        ui_initials(name, out);
        return;
    }
    out[0] = (char)toupper((unsigned char)p[0]);
    out[1] = (char)tolower((unsigned char)p[1]);
    out[2] = '\0';
}

/* Marks that read alike: the same letters in any case ("Ra", "RA"). */
static bool same_mark(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
    return *a == *b;
}

static const char *mark_name(const map_t *m, int i)
{
    const map_combatant_t *c = &m->combatants[i];
    return c->name[0] ? c->name : c->id;
}

void ui_token_mark(const map_t *m, int i, char out[UI_MARK_MAX])
{
    char mine[3], other[3];
    ui_initials(mark_name(m, i), mine);
    bool clash = false;
    for (int j = 0; j < m->n_combatants && !clash; j++) {
        if (j == i) continue;
        ui_initials(mark_name(m, j), other);
        clash = same_mark(mine, other);
    }
    if (!clash) {
        memcpy(out, mine, sizeof mine);
        return;
    }
    /* Among those sharing the initials: the first two letters, else a number. */
    char two[3];
    first_two(mark_name(m, i), two);
    int place = 0, same_two = 0;
    for (int j = 0; j < m->n_combatants; j++) {
        ui_initials(mark_name(m, j), other);
        if (!same_mark(mine, other)) continue;
        if (j < i) place++;
        first_two(mark_name(m, j), other);
        same_two += j != i && same_mark(two, other);
    }
    if (!same_two) {
        memcpy(out, two, sizeof two);
        return;
    }
    /* Letter and place (1..999), written out by hand: UI_MARK_MAX holds 4 characters. */
    int n = place + 1 < 999 ? place + 1 : 999, k = 0;
    out[k++] = mine[0] ? mine[0] : '?';
    if (n >= 100) out[k++] = (char)('0' + n / 100);
    if (n >= 10) out[k++] = (char)('0' + n / 10 % 10);
    out[k++] = (char)('0' + n % 10);
    out[k] = '\0';
}

/* Every token's mark, from the cache unless the names changed. */
void draw_refresh_marks(ui_draw_t *d, const map_t *m)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)m->n_combatants; /* FNV-1a over the names */
    for (int i = 0; i < m->n_combatants; i++)
        for (const char *p = mark_name(m, i);; p++) {
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
            if (!*p) break;
        }
    if (h == d->marks_sig) return;
    d->marks_sig = h;
    for (int i = 0; i < m->n_combatants && i < MAP_MAX_COMBATANTS; i++)
        ui_token_mark(m, i, d->marks[i]);
}

SDL_Color ui_hp_color(int hp, int hp_max)
{
    double f = hp_max > 0 ? (double)hp / hp_max : 0.0;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    /* red (0.0) -> yellow (0.5) -> green (1.0) */
    static const double RED[3] = {214, 48, 39}, YEL[3] = {240, 200, 40}, GRN[3] = {60, 180, 75};
    const double *a = f < 0.5 ? RED : YEL, *b = f < 0.5 ? YEL : GRN;
    double t = f < 0.5 ? f * 2.0 : (f - 0.5) * 2.0;
    return (SDL_Color){(Uint8)(a[0] + (b[0] - a[0]) * t), (Uint8)(a[1] + (b[1] - a[1]) * t),
                       (Uint8)(a[2] + (b[2] - a[2]) * t), 255};
}
