/* declared.c - declared attacks waiting to land, on the map (declared.h). */
#include "declared.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shapes.h"
#include "text.h"

/* The command that declared who's attack on target: the latest in the list. */
static bool declaring_cmd(const battle_t *b, int who, int target, cmd_t *out)
{
    for (int k = b->cmds.n - 1; k >= 0; k--) {
        const cmd_t *c = &b->cmds.c[k];
        if (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE && c->actor == who &&
            c->target == target) {
            *out = *c;
            return true;
        }
    }
    return false;
}

int ui_declared(const battle_t *b, ui_declared_t *out, int cap)
{
    int n = 0;
    const char *engage = cmd_kind_name(CMD_ENGAGE);
    /* Back to where the phase opened (or anything landed). */
    int k = b->log.n - 1;
    while (k >= 0) {
        ev_type_t t = b->log.ev[k].type;
        if (t == EV_TURN_START || t == EV_TURN_END || t == EV_PHASE || t == EV_ATTACK ||
            t == EV_ROUND_END)
            break;
        k--;
    }
    for (k++; k < b->log.n && n < cap; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type != EV_DECLARE || (e->opt & EV_OPT_VALUE) || strcmp(e->name, engage) != 0 ||
            e->who < 0 || e->who >= b->n || e->target < 0 || e->target >= b->n ||
            !battle_is_player(b, e->who) || !battle_active(b, e->who) ||
            !battle_active(b, e->target))
            continue;
        ui_declared_t *dc = &out[n];
        if (!declaring_cmd(b, e->who, e->target, &dc->cmd)) continue;
        dc->odds = predict_cmd(b, &dc->cmd, &dc->pred);
        n++;
    }
    return n;
}

void ui_declared_draw(const pui_t *p, ui_draw_t *d, const ui_camera_t *cam, SDL_Rect clip, int px)
{
    const battle_t *b = p->play.b;
    ui_declared_t dc[UI_DECLARED_MAX];
    int n = ui_declared(b, dc, UI_DECLARED_MAX);
    if (n == 0) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_RenderSetClipRect(r, &clip);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    /* What not to cover: every token and name the frame drew, then each label. */
    SDL_Rect avoid[2 * MAP_MAX_COMBATANTS + UI_DECLARED_MAX];
    int na = ui_draw_taken_boxes(d, avoid, 2 * MAP_MAX_COMBATANTS);
    const SDL_Color line = {230, 159, 0, 200}, ink = {255, 214, 150, 255};
    for (int k = 0; k < n; k++) {
        const cmd_t *c = &dc[k].cmd;
        vec2_t a = ui_cam_to_screen(cam, ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[c->actor])));
        vec2_t t = ui_cam_to_screen(cam, ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[c->target])));
        double len = hypot(t.x - a.x, t.y - a.y), cut = fmax(cam->zoom * 0.7, UI_TOKEN_MIN_PX + 2.0);
        if (len > 2 * cut) {
            vec2_t u = {(t.x - a.x) / len, (t.y - a.y) / len};
            vec2_t p0 = {a.x + u.x * cut, a.y + u.y * cut}, p1 = {t.x - u.x * cut, t.y - u.y * cut};
            SDL_SetRenderDrawColor(r, line.r, line.g, line.b, line.a);
            SDL_RenderDrawLineF(r, (float)p0.x, (float)p0.y, (float)p1.x, (float)p1.y);
            SDL_RenderDrawLineF(r, (float)p0.x, (float)p0.y + 1, (float)p1.x, (float)p1.y + 1);
        }
        char buf[160];
        const predict_t *pr = &dc[k].pred;
        if (!dc[k].odds)
            snprintf(buf, sizeof buf, "%.40s declared on %.40s", pui_name(p, c->actor),
                     pui_name(p, c->target));
        else if (pr->p_hit <= 0.0)
            snprintf(buf, sizeof buf, "%.40s: can't land (%.40s)", pui_name(p, c->actor), pr->detail);
        else
            snprintf(buf, sizeof buf, "%.40s: %.0f%% %.1f dmg (%.50s)", pui_name(p, c->actor),
                     pr->p_hit * 100.0, pr->dmg_expected, pr->detail);
        int tw, th;
        SDL_Texture *tex = ui_text_get(ui_draw_text(d), buf, px, true, ink, &tw, &th);
        if (!tex) continue;
        /* Beside the line's middle, clear of tokens, names and other labels. */
        int mx = (int)lround((a.x + t.x) / 2), my = (int)lround((a.y + t.y) / 2);
        SDL_Rect mid = {mx - 2, my - 2, 4, 4}, box;
        if (!ui_place_label(tw + 8, th + 2, mid, my + 4, avoid, na, -1, NULL, 0, &box))
            box = (SDL_Rect){mx - tw / 2 - 4, my + 4, tw + 8, th + 2};
        SDL_SetRenderDrawColor(r, 60, 36, 10, 255);
        SDL_RenderFillRect(r, &box);
        ui_text_put(ui_draw_text(d), tex, (SDL_Rect){box.x + 4, box.y + 1, tw, th}, buf,
                    UI_TEXT_LABEL);
        if (na < (int)(sizeof avoid / sizeof avoid[0])) avoid[na++] = box;
    }
    SDL_RenderSetClipRect(r, NULL);
}
