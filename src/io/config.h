/* config.h - per-display projection settings, kept between sessions in
 * $XDG_CONFIG_HOME/hexbattle/displays.json (default ~/.config/hexbattle/).
 *
 * A display is known by the name SDL reports and its resolution, so the same
 * projector at another resolution, or another screen on the same port, gets
 * its own entry. A malformed file is reported and then treated as empty: a
 * broken settings file must never stop a battle. Saves are atomic.
 */
#ifndef HB_CONFIG_H
#define HB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX_DISPLAYS 32
#define CONFIG_NAME_MAX 96

typedef struct {
    char name[CONFIG_NAME_MAX]; /* SDL_GetDisplayName */
    int w, h;                   /* resolution in pixels */
    double hex_mm;              /* hex size on this display (flat to flat) */
    double dpi;                 /* calibrated dots per inch; 0 = use what SDL reports */
    int rotation;               /* 0, 90, 180 or 270 degrees */
} display_cfg_t;

typedef struct {
    display_cfg_t d[CONFIG_MAX_DISPLAYS];
    int n;
} config_t;

/* An empty configuration. */
void config_init(config_t *c);
/* Path of displays.json: $XDG_CONFIG_HOME/hexbattle/ when that is set and
 * absolute, else $HOME/.config/hexbattle/. HB_OK, or HB_ERR_OTHER when neither
 * variable helps or the path does not fit. */
int config_path(char *out, size_t cap);
/* Read PATH into c. A missing file is HB_OK and empty. A malformed one leaves
 * c empty, fills err with "PATH: JSON.path: reason" and returns HB_ERR_INPUT. */
int config_load(const char *path, config_t *c, char *err, size_t errcap);
/* Write c to PATH atomically, making its folder if needed. */
int config_save(const char *path, const config_t *c, char *err, size_t errcap);
/* The entry for display NAME at w x h, or NULL. */
display_cfg_t *config_find(config_t *c, const char *name, int w, int h);
/* The entry for NAME at w x h, added with defaults (25.4 mm, reported DPI, no
 * rotation) when absent; NULL when the table is full. */
display_cfg_t *config_get(config_t *c, const char *name, int w, int h);
/* The configuration as JSON text (malloc'd, caller frees); NULL on OOM. */
char *config_to_json(const config_t *c);

#endif
