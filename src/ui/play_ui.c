/* play_ui.c - the play screen's logic (see play_ui.h): the battle started,
 * saved and freed, the AI's and the replay's turns; the action bar is in
 * play_bar.c, the input in play_input.c. */
#include "play_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const ruleset_t *pui_rules(const pui_t *p)
{
    return p->play.rs;
}

const char *pui_name(const pui_t *p, int i)
{
    const battle_t *b = p->play.b;
    if (i < 0 || i >= b->n) return "-";
    const map_combatant_t *c = &b->map->combatants[i];
    return c->name[0] ? c->name : c->id;
}

int pui_side_of(const pui_t *p, int who)
{
    const battle_t *b = p->play.b;
    return who >= 0 && who < b->n ? b->board->side[who] : -1;
}

bool pui_needs_die(const pui_t *p)
{
    const play_t *pl = &p->play;
    return pl->b && pl->b->needing && (pl->pending || pl->setup_pending);
}

bool pui_needs_answer(const pui_t *p)
{
    const play_t *pl = &p->play;
    return pl->b && pl->b->asking && pl->pending;
}

void pui_answer_prompt(const pui_t *p, char *buf, size_t cap)
{
    const react_request_t *q = &p->play.b->ask;
    if (!pui_needs_answer(p)) {
        snprintf(buf, cap, "no question is waiting");
        return;
    }
    char who[64];
    snprintf(who, sizeof who, "%.63s", pui_name(p, q->who));
    snprintf(buf, cap, "%s may react to %.63s (%.47s): choose 0-%d", who, pui_name(p, q->trigger),
             q->kind, q->n - 1);
}

void pui_set_ask(pui_t *p, bool on)
{
    battle_t *b = p->play.b;
    unsigned mask = 0;
    for (int i = 0; on && i < b->n; i++)
        if (battle_is_player(b, i) && b->board->side[i] < 32) mask |= 1u << b->board->side[i];
    b->opts.ask_sides = mask;
    p->ask = on;
    snprintf(p->msg, sizeof p->msg, "%s",
             on ? "The players' reactions are put to the table (F4 turns this off)."
                : "The rules answer the players' reactions (F4 puts them to the table).");
}

void pui_toggle_ask_side(pui_t *p)
{
    battle_t *b = p->play.b;
    int s = pui_side_of(p, p->sel >= 0 ? p->sel : p->actor);
    if (s < 0 || s >= 32) {
        snprintf(p->msg, sizeof p->msg, "Select a combatant to pick its side.");
        return;
    }
    b->opts.ask_sides ^= 1u << s;
    bool on = (b->opts.ask_sides >> s) & 1u;
    p->ask = b->opts.ask_sides != 0;
    snprintf(p->msg, sizeof p->msg, "Side %.40s: %s (Shift+F4 again: %s).", b->board->side_name[s],
             on ? "each reaction is put to the table" : "the rules answer its reactions",
             on ? "the rules answer" : "ask the table");
}

/* Is the die the engine waits for one the referee rolls at the table? */
static bool need_is_physical(const pui_t *p)
{
    int s = pui_side_of(p, p->play.b->need.who);
    return s >= 0 && s < 32 && ((p->phys_sides >> s) & 1u);
}

/* Feed generator dice to every roll that is not physical; stop at a physical
 * one, the end, or an error. Returns the last driver status. */
battle_status_t pui_pump(pui_t *p, battle_status_t st)
{
    while (st == BATTLE_NEED_DICE && pui_needs_die(p) && !need_is_physical(p)) {
        int sides = p->play.b->need.sides;
        st = play_enter_die(&p->play, rng_die(&p->rng, sides > 0 ? sides : 1));
    }
    return st;
}

battle_status_t pui_start(pui_t *p, const map_t *m, const tmpl_db_t *db, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->map = m;
    p->db = db;
    p->seed = seed;
    p->sel = p->actor = p->target = p->sub_arg = p->pick = -1;
    p->follow = false;
    rng_seed(&p->rng, seed);
    battle_opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.manual_all = true; /* every die is entered: see the header */
    battle_status_t st = play_start(&p->play, m, db, NULL, &o);
    if (st == BATTLE_ILLEGAL || st == BATTLE_NOMEM || st == BATTLE_ERROR) {
        snprintf(p->msg, sizeof p->msg, "cannot start the battle: %s",
                 st == BATTLE_NOMEM   ? "out of memory"
                 : st == BATTLE_ERROR ? p->play.error
                                      : "unknown ruleset");
        if (p->play.b) play_end(&p->play);
        return st;
    }
    p->ps = path_search_create(m->cols * m->rows);
    p->reach = calloc((size_t)(m->cols * m->rows), sizeof *p->reach);
    if (!p->ps || !p->reach || !anim_init(&p->anim, p->play.b)) {
        pui_free(p);
        snprintf(p->msg, sizeof p->msg, "out of memory");
        return BATTLE_NOMEM;
    }
    pui_pump(p, st);
    p->started = true;
    p->saved_cmds = p->play.b->cmds.n;
    anim_snap(&p->anim);
    pui_refresh(p);
    snprintf(p->msg, sizeof p->msg, "Battle begins. Press ? for the keys.");
    return BATTLE_OK;
}

/* The screen's scratch and animation for a battle already in p->play. */
static battle_status_t finish_start(pui_t *p, battle_status_t st)
{
    const map_t *m = p->map;
    p->ps = path_search_create(m->cols * m->rows);
    p->reach = calloc((size_t)(m->cols * m->rows), sizeof *p->reach);
    if (!p->ps || !p->reach || !anim_init(&p->anim, p->play.b)) {
        pui_free(p);
        snprintf(p->msg, sizeof p->msg, "out of memory");
        return BATTLE_NOMEM;
    }
    pui_pump(p, st);
    p->started = true;
    p->saved_cmds = p->play.b->cmds.n;
    anim_snap(&p->anim);
    pui_refresh(p);
    return BATTLE_OK;
}

/* Make every die of a rebuilt battle an entered one (the play screen's way,
 * see the header): the values of every roll so far, in order, so the rebuild
 * gives the same events and later dice can come from the table. */
static bool enter_all_dice(pui_t *p, bool stopped)
{
    battle_t *b = p->play.b;
    if (b->opts.manual_all || p->play.pending || p->play.setup_pending) return true;
    b->dice.n_entered = 0;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        for (int d = 0; e->type == EV_ROLL && d < e->n_dice; d++)
            if (!dice_enter(&b->dice, e->dice[d])) return false;
    }
    b->dice.manual_all = b->opts.manual_all = true;
    if (play_rebuild(&p->play) != BATTLE_OK) return false;
    if (stopped && !b->over) play_stop(&p->play);
    return true;
}

battle_status_t pui_start_save(pui_t *p, const save_t *s, bool replay)
{
    memset(p, 0, sizeof *p);
    p->map = s->map;
    p->db = s->db;
    p->seed = s->opts.seed;
    p->sel = p->actor = p->target = p->sub_arg = p->pick = -1;
    hb_strlcpy(p->map_path, s->map_file, sizeof p->map_path);
    battle_status_t st;
    /* A save of other rules goes as far as its commands still apply, and
     * says what differs (docs/saves.md, "Saves across versions"). */
    save_note_t note;
    char err[HB_ERR_MAX];
    if (replay) {
        play_t probe;
        if (save_rebuild_ex(s, &probe, &note, err, sizeof err) == HB_OK) {
            play_end(&probe);
        } else {
            note.kept_cmds = s->n_cmds;
            note.text[0] = '\0';
        }
        /* From the setup on; every saved die is there before it is needed. */
        st = play_start(&p->play, s->map, s->db, NULL, &s->opts);
        for (int k = 0; p->play.b && k < s->n_dice; k++)
            if (!dice_enter(&p->play.b->dice, s->dice[k])) st = BATTLE_NOMEM;
        if (p->play.b && st != BATTLE_NOMEM) st = play_rebuild(&p->play);
        p->replay = true;
        p->script = s->cmds;
        p->n_script = note.kept_cmds;
        p->script_stopped = s->stopped && note.kept_cmds == s->n_cmds;
    } else {
        st = save_rebuild_ex(s, &p->play, &note, err, sizeof err) == HB_OK ? BATTLE_OK
                                                                           : BATTLE_ILLEGAL;
        if (st != BATTLE_OK) {
            snprintf(p->msg, sizeof p->msg, "%.190s", err);
            return st;
        }
        if (!enter_all_dice(p, s->stopped && note.kept_cmds == s->n_cmds)) st = BATTLE_NOMEM;
        p->phys_sides = s->table.phys_sides;
        p->autosave_seen = p->play.b->log.n; /* the turn began before the save */
    }
    if (st == BATTLE_NOMEM || st == BATTLE_ILLEGAL || !p->play.b) {
        snprintf(p->msg, sizeof p->msg, "cannot start the battle: %s",
                 st == BATTLE_NOMEM ? "out of memory" : "unknown ruleset");
        if (p->play.b) play_end(&p->play);
        return st == BATTLE_OK ? BATTLE_NOMEM : st;
    }
    if (s->table.has_rng)
        p->rng = s->table.rng;
    else
        rng_seed(&p->rng, s->opts.seed ^ (uint64_t)p->play.b->dice.n_entered);
    st = finish_start(p, st);
    if (st == BATTLE_OK && note.text[0])
        snprintf(p->msg, sizeof p->msg, "Saved under other rules; the battle may differ: %.140s",
                 strstr(note.text, "saved: ") ? strstr(note.text, "saved: ") + 7 : note.text);
    else if (st == BATTLE_OK)
        snprintf(p->msg, sizeof p->msg, "%s %.150s. Press ? for the keys.",
                 replay ? "Replaying" : "Resumed", s->file);
    return st;
}

bool pui_save(pui_t *p)
{
    if (!p->started || p->replay || !p->save_path[0]) {
        snprintf(p->msg, sizeof p->msg, "%s",
                 p->replay ? "A replay is not saved." : "No save file.");
        return true;
    }
    save_table_t t = {.has_rng = true, .rng = p->rng, .phys_sides = p->phys_sides};
    char err[HB_ERR_MAX];
    if (save_write(p->save_path, &p->play, &t, p->map_path, true, err, sizeof err) == HB_OK) {
        snprintf(p->msg, sizeof p->msg, "Saved to %.180s", p->save_path);
        p->saved_cmds = p->play.b->cmds.n;
    } else
        snprintf(p->msg, sizeof p->msg, "Not saved: %.180s", err);
    return true;
}

bool pui_unsaved(const pui_t *p)
{
    return p->started && !p->replay && p->play.b->cmds.n != p->saved_cmds;
}

bool pui_autosave(pui_t *p)
{
    if (!p->started || p->replay || !p->autosave_dir[0]) return false;
    const event_log_t *log = &p->play.b->log;
    /* An undo rebuilds a shorter log: look again from where it now ends. */
    if (p->autosave_seen > log->n) p->autosave_seen = log->n;
    bool turn = false;
    for (int k = p->autosave_seen; k < log->n && !turn; k++)
        turn = log->ev[k].type == EV_TURN_START;
    p->autosave_seen = log->n;
    if (!turn) return false;
    save_table_t t = {.has_rng = true, .rng = p->rng, .phys_sides = p->phys_sides};
    char err[HB_ERR_MAX];
    if (save_autosave(p->autosave_dir, &p->play, &t, p->map_path, err, sizeof err) != HB_OK) {
        snprintf(p->msg, sizeof p->msg, "Autosave failed: %.170s", err);
        return false;
    }
    return true;
}

void pui_free(pui_t *p)
{
    anim_free(&p->anim);
    if (p->play.b) play_end(&p->play);
    path_search_destroy(p->ps);
    free(p->reach);
    free(p->keys);
    p->ps = NULL;
    p->reach = NULL;
    p->keys = NULL;
    p->started = false;
}

/* Replay: the next saved command; at the end, the saved stop. */
static void script_step(pui_t *p)
{
    if (p->script_pos >= p->n_script) {
        snprintf(p->msg, sizeof p->msg, "Replay: the saved battle ends here.");
        return;
    }
    cmd_t c = p->script[p->script_pos++];
    pui_pump(p, play_apply(&p->play, &c));
    if (p->script_pos == p->n_script && p->script_stopped && !p->play.b->over) play_stop(&p->play);
    snprintf(p->msg, sizeof p->msg, "Replay: command %d of %d (Space skips the animation).",
             p->script_pos, p->n_script);
    pui_refresh(p);
}

/* One AI command for the current (non-player) actor. */
static void ai_step(pui_t *p)
{
    battle_t *b = p->play.b;
    if (p->replay) {
        script_step(p);
        return;
    }
    cmd_t c;
    pui_rules(p)->ai(b, p->actor, &c);
    battle_status_t st = pui_pump(p, play_apply(&p->play, &c));
    if (st == BATTLE_ILLEGAL || ++p->ai_guard > 48) {
        /* A stuck AI would spin for ever; ending its turn always moves on. */
        cmd_t end = cmd_make(CMD_END, p->actor);
        st = pui_pump(p, play_apply(&p->play, &end));
        p->ai_guard = 0;
        if (st == BATTLE_ILLEGAL) play_stop(&p->play);
    }
    if (pui_needs_die(p)) pui_die_prompt(p, p->msg, sizeof p->msg);
    if (pui_needs_answer(p)) pui_answer_prompt(p, p->msg, sizeof p->msg);
    pui_refresh(p);
    pui_end_note(p);
}

void pui_run_ai(pui_t *p, int max_cmds)
{
    for (int i = 0; i < max_cmds; i++) {
        if (!p->started || p->play.b->over || pui_needs_die(p) || pui_needs_answer(p) ||
            p->actor < 0 || p->user_turn)
            return;
        ai_step(p);
    }
}

bool pui_tick(pui_t *p, double dt)
{
    if (!p->started) return false;
    bool moving = anim_step(&p->anim, dt);
    const battle_t *b = p->play.b;
    if (b->over || pui_needs_die(p) || pui_needs_answer(p) || p->actor < 0 || p->user_turn) {
        if (!b->over && p->actor < 0 && !pui_needs_die(p) && !pui_needs_answer(p)) {
            /* Nobody can act and no die waits: the rules have run dry. */
            play_stop(&p->play);
            pui_refresh(p);
            return true;
        }
        return moving;
    }
    /* An AI turn: wait for the last command's animation, then a breath. */
    if (anim_busy(&p->anim)) {
        p->ai_wait = PUI_AI_PAUSE;
        return true;
    }
    p->ai_wait -= dt * p->anim.speed;
    if (p->ai_wait <= 0) {
        ai_step(p);
        p->ai_wait = PUI_AI_PAUSE;
    }
    return true;
}

const char *pui_result(const pui_t *p, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    if (!b || !b->over) return NULL;
    if (b->winner < 0) {
        snprintf(buf, cap, "Draw after %d rounds", b->round);
        return buf;
    }
    const char *side = b->board->side_name[b->winner];
    bool player = map_faction_is_player(b->map, side);
    snprintf(buf, cap, "%s - %s win in round %d", player ? "VICTORY" : "DEFEAT", side, b->round);
    return buf;
}
