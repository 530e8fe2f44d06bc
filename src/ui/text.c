/* text.c - cached text textures (see text.h). */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_ttf.h>

#define KEY_MAX 112
#define SLOTS 1024 /* power of two: the hash is masked */
#define SLOTS_FULL (SLOTS * 3 / 4)

/* Sizes text is rasterised at: denser where one pixel shows. */
static const int SIZES[] = {7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 18, 20, 22,  24,
                            26, 28, 32, 36, 40, 44, 48, 56, 64, 72, 84, 96, 112, 128};
#define N_SIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

typedef struct {
    char key[KEY_MAX];
    int size_idx;
    bool bold;
    Uint32 rgba;
    SDL_Texture *tex; /* NULL marks a free slot */
    int w, h;
} entry_t;

struct ui_text {
    SDL_Renderer *r;
    void *font_data[2]; /* regular and bold files, read once */
    size_t font_len[2];
    TTF_Font *fonts[2][N_SIZES]; /* opened on first use */
    entry_t slots[SLOTS];
    int used;
    ui_text_rec_t *rec; /* ui_text_record: where drawn texts go (NULL: nowhere) */
    int rec_cap, rec_n;
};

static void *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    void *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
            buf = malloc((size_t)n);
            if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
                free(buf);
                buf = NULL;
            }
            *len = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

ui_text_t *ui_text_create(SDL_Renderer *r, const char *assets_dir, char *err, size_t errcap)
{
    static const char *const FILES[2] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"};
    ui_text_t *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    t->r = r;
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/fonts/%s", assets_dir, FILES[i]);
        t->font_data[i] = read_all(path, &t->font_len[i]);
        if (!t->font_data[i]) {
            snprintf(err, errcap, "%s: cannot read the font", path);
            ui_text_destroy(t);
            return NULL;
        }
    }
    return t;
}

static void clear_slots(ui_text_t *t)
{
    for (int i = 0; i < SLOTS; i++)
        if (t->slots[i].tex) {
            SDL_DestroyTexture(t->slots[i].tex);
            t->slots[i].tex = NULL;
        }
    t->used = 0;
}

void ui_text_destroy(ui_text_t *t)
{
    if (!t) return;
    clear_slots(t);
    for (int b = 0; b < 2; b++) {
        for (int i = 0; i < N_SIZES; i++)
            if (t->fonts[b][i]) TTF_CloseFont(t->fonts[b][i]);
        free(t->font_data[b]);
    }
    free(t);
}

static int size_index(int px)
{
    int best = 0;
    for (int i = 1; i < N_SIZES; i++)
        if (abs(SIZES[i] - px) < abs(SIZES[best] - px)) best = i;
    return best;
}

int ui_text_quantize(int px)
{
    return SIZES[size_index(px)];
}

static TTF_Font *font_for(ui_text_t *t, bool bold, int idx)
{
    TTF_Font **f = &t->fonts[bold][idx];
    if (!*f) {
        /* The face reads the bytes we keep, so the RWops need not free them. */
        SDL_RWops *rw = SDL_RWFromConstMem(t->font_data[bold], (int)t->font_len[bold]);
        if (rw) *f = TTF_OpenFontRW(rw, 1, SIZES[idx]);
        if (*f) TTF_SetFontHinting(*f, TTF_HINTING_LIGHT);
    }
    return *f;
}

static Uint32 hash_key(const char *s, int idx, bool bold, Uint32 rgba)
{
    Uint32 h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    h = (h ^ (Uint32)idx) * 16777619u;
    h = (h ^ (Uint32)bold) * 16777619u;
    h = (h ^ rgba) * 16777619u;
    return h;
}

SDL_Texture *ui_text_get(ui_text_t *t, const char *s, int px, bool bold, SDL_Color color, int *w,
                         int *h)
{
    if (!s || !*s || strlen(s) >= KEY_MAX) return NULL;
    int idx = size_index(px);
    Uint32 rgba = (Uint32)color.r << 24 | (Uint32)color.g << 16 | (Uint32)color.b << 8 | color.a;
    Uint32 slot = hash_key(s, idx, bold, rgba) & (SLOTS - 1);
    for (;;) {
        entry_t *e = &t->slots[slot];
        if (!e->tex) break;
        if (e->size_idx == idx && e->bold == bold && e->rgba == rgba && strcmp(e->key, s) == 0) {
            *w = e->w;
            *h = e->h;
            return e->tex;
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
    if (t->used >= SLOTS_FULL) {
        /* Zooming through many sizes fills the table; start afresh rather than
         * track ages, since a frame's own labels are re-made at once. */
        clear_slots(t);
        return ui_text_get(t, s, px, bold, color, w, h);
    }
    TTF_Font *f = font_for(t, bold, idx);
    if (!f) return NULL;
    SDL_Surface *surf = TTF_RenderUTF8_Blended(f, s, color);
    if (!surf) return NULL;
    SDL_Texture *tex = SDL_CreateTextureFromSurface(t->r, surf);
    entry_t *e = &t->slots[slot];
    if (tex) {
        SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
        memcpy(e->key, s, strlen(s) + 1);
        e->size_idx = idx;
        e->bold = bold;
        e->rgba = rgba;
        e->tex = tex;
        e->w = surf->w;
        e->h = surf->h;
        t->used++;
        *w = surf->w;
        *h = surf->h;
    }
    SDL_FreeSurface(surf);
    return tex;
}

void ui_text_record(ui_text_t *t, ui_text_rec_t *rec, int cap)
{
    t->rec = rec;
    t->rec_cap = rec ? cap : 0;
    t->rec_n = 0;
}

int ui_text_recorded(const ui_text_t *t)
{
    return t->rec_n;
}

void ui_text_put(ui_text_t *t, SDL_Texture *tex, SDL_Rect dst, const char *s, ui_text_kind_t kind)
{
    SDL_RenderCopy(t->r, tex, NULL, &dst);
    if (!t->rec) return;
    if (t->rec_n < t->rec_cap) {
        ui_text_rec_t *r = &t->rec[t->rec_n];
        r->at = dst;
        r->kind = kind;
        SDL_RenderGetClipRect(t->r, &r->clip);
        snprintf(r->s, sizeof r->s, "%s", s);
    }
    t->rec_n++;
}

int ui_text_draw(ui_text_t *t, const char *s, int px, bool bold, SDL_Color color, int x, int y)
{
    int w = 0, h = 0;
    SDL_Texture *tex = ui_text_get(t, s, px, bold, color, &w, &h);
    if (!tex) return 0;
    ui_text_put(t, tex, (SDL_Rect){x, y, w, h}, s, UI_TEXT_PLAIN);
    return w;
}

int ui_text_cached(const ui_text_t *t)
{
    return t->used;
}
