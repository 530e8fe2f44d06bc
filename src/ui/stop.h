/* stop.h - SIGTERM, SIGHUP and SIGINT in the window modes.
 *
 * A desktop that logs out sends SIGTERM, waits a little, then kills. The
 * handler installed here only notes the signal (nothing else is safe inside
 * a handler); the window loops look at it every frame, write their recovery
 * copy (src/io/recover.h) and close, and main then ends the process by the
 * same signal. SDL's own handlers, which would turn the signal into a quit
 * request waiting for an answer, are kept out.
 */
#ifndef HB_UI_STOP_H
#define HB_UI_STOP_H

/* Catch SIGTERM, SIGHUP and SIGINT from now on (call before SDL_Init). */
void ui_stop_install(void);
/* The signal caught since install, or 0. */
int ui_stop_signal(void);
/* Forget a caught signal (tests). */
void ui_stop_clear(void);
/* When a signal was caught: put back its default action and raise it again,
 * so the process ends the way the sender expects. Returns when none was. */
void ui_stop_exit(void);

typedef struct SDL_Window SDL_Window;
/* Windows: a window with no console hears of a log-off or a shutdown by its
 * WM_QUERYENDSESSION, then WM_ENDSESSION, after which the process may end at
 * once. Watch WIN for them: the first is caught as a stop (ui_stop_signal),
 * and the loop keeps its battle as for a signal; if the loop has not ended
 * the process by the second, last_words(ctx) keeps it there and then.
 * Unwatch before the window is destroyed. Nothing on other systems. */
void ui_stop_watch(SDL_Window *win, void (*last_words)(void *ctx), void *ctx);
void ui_stop_unwatch(SDL_Window *win);

#endif
