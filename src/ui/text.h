/* text.h - cached text textures rendered with the shipped DejaVu fonts.
 *
 * Text is rasterised at the pixel size it is shown at, rounded to a small set
 * of sizes so zooming reuses textures, and kept in a table keyed by string,
 * size, weight and colour: a frame that shows the same labels renders no text.
 */
#ifndef HB_UI_TEXT_H
#define HB_UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

typedef struct ui_text ui_text_t;

/* Load the fonts from ASSETS_DIR/fonts for use with renderer r; NULL with err
 * filled when a font cannot be read. */
ui_text_t *ui_text_create(SDL_Renderer *r, const char *assets_dir, char *err, size_t errcap);
/* Free every cached texture and font (NULL is fine). */
void ui_text_destroy(ui_text_t *t);
/* The shown size closest to px among the sizes text is rendered at. */
int ui_text_quantize(int px);
/* Texture showing s at about px pixels high; its size goes to *w, *h. The
 * texture stays owned by the cache. NULL for empty text or on failure. */
SDL_Texture *ui_text_get(ui_text_t *t, const char *s, int px, bool bold, SDL_Color color, int *w,
                         int *h);
/* Draw s with its top-left at (x, y); returns the width drawn (0 if nothing). */
int ui_text_draw(ui_text_t *t, const char *s, int px, bool bold, SDL_Color color, int x, int y);
/* What a drawn text is, for the layout check (ui_text_record). */
typedef enum {
    UI_TEXT_PLAIN = 0, /* panels, buttons, lines */
    UI_TEXT_MARK,      /* a token's initials or condition marker: sits on its token */
    UI_TEXT_LABEL,     /* a label on the map beside a token (name, tag, badge) */
} ui_text_kind_t;
#define UI_TEXT_REC_CHARS 48
/* One text as a frame drew it: where, the clip in force, and its start. */
typedef struct {
    SDL_Rect at;
    SDL_Rect clip; /* w 0: no clip */
    ui_text_kind_t kind;
    char s[UI_TEXT_REC_CHARS];
} ui_text_rec_t;
/* Record every text drawn from now on into rec[0..cap) (NULL: stop);
 * ui_text_recorded says how many were drawn (more than cap: the rest lost). */
void ui_text_record(ui_text_t *t, ui_text_rec_t *rec, int cap);
int ui_text_recorded(const ui_text_t *t);
/* Draw a texture ui_text_get made for s at dst, and record it as `kind`. */
void ui_text_put(ui_text_t *t, SDL_Texture *tex, SDL_Rect dst, const char *s,
                 ui_text_kind_t kind);
/* How many textures the cache holds (for tests and the bench). */
int ui_text_cached(const ui_text_t *t);

#endif
