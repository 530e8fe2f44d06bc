/* tmpl.c - template and weapon lookups (see tmpl.h). */
#include "tmpl.h"

#include <string.h>

const tmpl_t *tmpl_find(const tmpl_db_t *db, const char *id)
{
    for (int i = 0; db && i < db->n_templates; i++)
        if (strcmp(db->templates[i].id, id) == 0) return &db->templates[i];
    return NULL;
}

const weapon_t *tmpl_find_weapon(const tmpl_db_t *db, const char *id)
{
    for (int i = 0; db && i < db->n_weapons; i++)
        if (strcmp(db->weapons[i].id, id) == 0) return &db->weapons[i];
    return NULL;
}

const stat_word_t *tmpl_find_word(const tmpl_db_t *db, const char *key)
{
    for (int i = 0; db && key && i < db->n_words; i++)
        if (strcmp(db->words[i].key, key) == 0) return &db->words[i];
    return NULL;
}

void tmpl_fill_combatant(const tmpl_t *t, map_combatant_t *c)
{
    if (!t) {
        hb_strlcpy(c->name, c->id, sizeof c->name);
        c->kind = KIND_CREATURE;
        c->size = SIZE_MEDIUM;
        c->speed_ft = 30;
        c->hp = c->hp_max = 10;
        return;
    }
    hb_strlcpy(c->template_name, t->id, sizeof c->template_name);
    hb_strlcpy(c->name, t->name, sizeof c->name);
    c->kind = t->kind;
    c->size = t->size;
    c->speed_ft = t->speed_ft;
    c->fly_ft = t->fly_ft;
    c->hp = c->hp_max = t->hp;
    c->reach_ft = t->reach_ft;
    hb_strlcpy(c->token, t->token, sizeof c->token);
    memcpy(c->weapons, t->weapons, sizeof c->weapons);
    c->n_weapons = t->n_weapons;
}
