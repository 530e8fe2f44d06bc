/* editor_save.c - where the editor saves a map that has no file yet, and
 * what a resize takes away (see editor.h).
 *
 * A new map's Ctrl+S opens the Save As prompt on a full path in the user's
 * maps folder ($XDG_DATA_HOME/hexbattle/maps, else ~/.local/share/...): the
 * folder is on screen and the name is a free one made from the map's name.
 * A bare name typed there lands in that folder, not in whatever folder the
 * shell was in. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/fileio.h"
#include "../io/save.h"
#include "../platform/platform.h"
#include "editor.h"

bool ed_maps_dir(char *out, size_t cap)
{
    char base[SAVE_PATH_MAX];
    if (!save_autosave_dir(base, sizeof base)) return false;
    int k = snprintf(out, cap, "%s/maps", base);
    return k > 0 && (size_t)k < cap;
}

/* The map's name as a file name: letters and digits kept (lower case), the
 * rest one '_' each, runs folded; "untitled" when nothing is left. */
static void slug(const char *name, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < cap; c++) {
        unsigned char u = (unsigned char)*c;
        if (isalnum(u))
            out[n++] = (char)tolower(u);
        else if (n > 0 && out[n - 1] != '_')
            out[n++] = '_';
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    if (n == 0) snprintf(out, cap, "untitled");
}

bool ed_default_save_path(const ed_state_t *s, char *out, size_t cap)
{
    char dir[SAVE_PATH_MAX], name[64];
    if (!ed_maps_dir(dir, sizeof dir)) return false;
    slug(s->map->name, name, sizeof name);
    for (int k = 1; k < 1000; k++) {
        int w = k == 1 ? snprintf(out, cap, "%s/%s.json", dir, name)
                       : snprintf(out, cap, "%s/%s_%d.json", dir, name, k);
        if (w < 0 || (size_t)w >= cap) return false;
        if (hb_fs_stat(out, NULL) != 0) return true; /* a name no file has */
    }
    return false;
}

void ed_start_save_as(ed_state_t *s)
{
    char def[MAP_PATH_MAX] = "";
    if (!s->path[0] && !ed_default_save_path(s, def, sizeof def)) def[0] = '\0';
    s->prompt = ED_PROMPT_SAVE_AS;
    s->skip_text = 0;
    hb_strlcpy(s->input, s->path[0] ? s->path : def, sizeof s->input);
    s->dirty_frame = true;
}

bool ed_resolve_save_path(const char *in, char *out, size_t cap)
{
    char dir[SAVE_PATH_MAX];
    if (!ed_maps_dir(dir, sizeof dir)) dir[0] = '\0';
    if (strchr(in, '/') || !dir[0]) {
        int k = snprintf(out, cap, "%s", in);
        size_t d = strlen(dir);
        /* The default path: its folder may not be there yet. */
        if (d > 0 && strncmp(in, dir, d) == 0 && in[d] == '/' && !strchr(in + d + 1, '/'))
            hb_make_dirs(dir, 0755);
        return k >= 0 && (size_t)k < cap;
    }
    /* A bare name: the user's maps folder, made when it is missing. */
    size_t n = strlen(in);
    bool json = n > 5 && strcmp(in + n - 5, ".json") == 0;
    int k = snprintf(out, cap, "%s/%s%s", dir, in, json ? "" : ".json");
    if (k < 0 || (size_t)k >= cap) return false;
    hb_make_dirs(dir, 0755); /* a failure shows when the save fails */
    return true;
}

ed_roster_t *ed_roster_keep(const map_t *m)
{
    ed_roster_t *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->n = m->n_combatants;
    for (int i = 0; i < r->n; i++) {
        hb_strlcpy(r->id[i], m->combatants[i].id, sizeof r->id[i]);
        const char *nm = m->combatants[i].name[0] ? m->combatants[i].name : m->combatants[i].id;
        hb_strlcpy(r->name[i], nm, sizeof r->name[i]);
    }
    return r;
}

int ed_roster_lost(ed_state_t *s, ed_roster_t *r, const char *what)
{
    if (!r) return 0;
    char list[ED_LOST_TEXT] = "";
    int lost = 0;
    size_t at = 0;
    for (int i = 0; i < r->n; i++) {
        if (map_find_combatant(s->map, r->id[i]) >= 0) continue;
        lost++;
        if (at < sizeof list) {
            int k = snprintf(list + at, sizeof list - at, "%s%s", lost > 1 ? ", " : "", r->name[i]);
            at = k > 0 ? at + (size_t)k : at;
        }
    }
    if (at >= sizeof list) memcpy(list + sizeof list - 4, "...", 4);
    if (lost > 0)
        ed_message(s, "%s removed %d combatant%s: %s (Ctrl+Z brings %s back)", what, lost,
                   lost == 1 ? "" : "s", list, lost == 1 ? "it" : "them");
    free(r);
    return lost;
}
