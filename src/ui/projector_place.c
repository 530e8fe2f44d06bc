/* projector_place.c - where the table window goes when it shares the
 * referee's display (see projector.h): beside the referee's window, never
 * over it. */
#include "projector.h"

/* want_w x want_h scaled down (never up) to fit w x h, the shape kept. */
static void fit_in(int want_w, int want_h, int w, int h, int *ow, int *oh)
{
    double s = 1.0;
    if (w < want_w) s = (double)w / want_w;
    if (h < want_h * s) s = (double)h / want_h;
    *ow = (int)(want_w * s);
    *oh = (int)(want_h * s);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The best spot in the strips around ref: true when one takes min_w x min_h. */
static bool best_strip(SDL_Rect u, SDL_Rect r, int want_w, int want_h, int min_w, int min_h,
                       int gap, SDL_Rect *out)
{
    /* right, left, below, above */
    SDL_Rect strip[4] = {
        {r.x + r.w + gap, u.y, u.x + u.w - (r.x + r.w + gap), u.h},
        {u.x, u.y, r.x - gap - u.x, u.h},
        {u.x, r.y + r.h + gap, u.w, u.y + u.h - (r.y + r.h + gap)},
        {u.x, u.y, u.w, r.y - gap - u.y},
    };
    long best = -1;
    for (int k = 0; k < 4; k++) {
        SDL_Rect s = strip[k];
        if (s.w < min_w || s.h < min_h) continue;
        int w, h;
        fit_in(want_w, want_h, s.w, s.h, &w, &h);
        if (w < min_w || h < min_h || (long)w * h <= best) continue;
        best = (long)w * h;
        /* Against the referee's window, level with it where there is room. */
        int x = k == 1 ? s.x + s.w - w : k == 0 ? s.x : clampi(r.x, s.x, s.x + s.w - w);
        int y = k == 3 ? s.y + s.h - h : k == 2 ? s.y : clampi(r.y, s.y, s.y + s.h - h);
        *out = (SDL_Rect){x, y, w, h};
    }
    return best >= 0;
}

void ui_projector_place(SDL_Rect usable, SDL_Rect referee, int want_w, int want_h, int min_w,
                        int min_h, int gap, SDL_Rect *table, SDL_Rect *ref_out)
{
    SDL_Rect u = usable, r = referee;
    /* The referee's window as far as it lies on this display. */
    if (r.x < u.x) r.w -= u.x - r.x, r.x = u.x;
    if (r.y < u.y) r.h -= u.y - r.y, r.y = u.y;
    if (r.x + r.w > u.x + u.w) r.w = u.x + u.w - r.x;
    if (r.y + r.h > u.y + u.h) r.h = u.y + u.h - r.y;
    *ref_out = referee;
    if (best_strip(u, r, want_w, want_h, min_w, min_h, gap, table)) return;
    /* No room anywhere: the referee's window gives up the right part of
     * the display (two fifths, at least the table's smallest size). */
    int tw = u.w * 2 / 5 > min_w ? u.w * 2 / 5 : min_w;
    SDL_Rect nr = {u.x, r.y, u.w - tw - gap, r.h};
    if (nr.w < min_w) nr.w = min_w;
    *ref_out = nr;
    if (!best_strip(u, nr, want_w, want_h, min_w, min_h, gap, table)) {
        /* A display smaller than two windows: the table's corner. */
        int w, h;
        fit_in(want_w, want_h, u.w, u.h, &w, &h);
        *table = (SDL_Rect){u.x + u.w - w, u.y + u.h - h, w, h};
    }
}
