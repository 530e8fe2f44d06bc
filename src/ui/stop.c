/* stop.c - the stop signals of the window modes (see stop.h); catching them
 * is the platform layer's (src/platform/stop_*.c). */
#include "stop.h"

#include <SDL.h>

#include "platform/plat_sys.h"

void ui_stop_install(void)
{
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    hb_plat_stop_install();
}

int ui_stop_signal(void)
{
    return hb_plat_stop_caught();
}

void ui_stop_clear(void)
{
    hb_plat_stop_clear();
}

void ui_stop_exit(void)
{
    hb_plat_stop_exit();
}
