/* areas.c - PLACEHOLDER until the shared area templates (G5, src/core/area.h)
 * land on main: no area action can be aimed yet. */
#include "act.h"

int act_area(const battle_t *b, int i, const act_action_t *a, hex_t aim, hex_t *out, int cap)
{
    (void)b; (void)i; (void)a; (void)aim; (void)out; (void)cap;
    return 0;
}
bool act_area_aim_ok(const battle_t *b, int i, const act_action_t *a, hex_t aim)
{
    (void)b; (void)i; (void)a; (void)aim;
    return false;
}
bool act_area_catches_hex(const battle_t *b, int i, const act_action_t *a, hex_t aim, hex_t h)
{
    (void)b; (void)i; (void)a; (void)aim; (void)h;
    return false;
}
bool act_area_catches(const battle_t *b, int i, const act_action_t *a, hex_t aim, int k)
{
    (void)b; (void)i; (void)a; (void)aim; (void)k;
    return false;
}
