/* stop.c - the stop signals of the window modes (see stop.h); catching them
 * is the platform layer's (src/platform/stop_*.c). */
#include "stop.h"

#include <SDL.h>
#ifdef __WIN32__
#include <SDL_syswm.h>
#endif

#include "platform/platform.h"

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

/* The window's native handle (an HWND), or NULL elsewhere. */
static void *native_window(SDL_Window *win)
{
#if defined(__WIN32__) && defined(SDL_VIDEO_DRIVER_WINDOWS)
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (win && SDL_GetWindowWMInfo(win, &info) && info.subsystem == SDL_SYSWM_WINDOWS)
        return info.info.win.window;
#else
    (void)win;
#endif
    return NULL;
}

void ui_stop_watch(SDL_Window *win, void (*last_words)(void *ctx), void *ctx)
{
    hb_plat_stop_watch_window(native_window(win), last_words, ctx);
}

void ui_stop_unwatch(SDL_Window *win)
{
    hb_plat_stop_unwatch_window(native_window(win));
}
