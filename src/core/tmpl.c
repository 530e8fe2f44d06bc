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
