/* stop_win32.c - the stops section of platform.h on Windows: a console
 * control handler. Windows runs it on a thread of its own and, for a close,
 * log-off or shutdown, ends the process once it returns (or after about 5 s):
 * so it notes the event, then waits up to 4 s for the program's loop to save
 * and call hb_plat_stop_exit. A window's log-off messages (WM_QUERYENDSESSION,
 * WM_ENDSESSION) reach the window procedure, which is SDL's: the watched
 * window's procedure is wrapped to see them first. */
#ifdef _WIN32
#include "platform.h"

#include <windows.h>

static volatile LONG g_caught;
static HANDLE g_done; /* set when the program has saved and is ending */

static BOOL WINAPI on_console_event(DWORD event)
{
    InterlockedExchange(&g_caught, (LONG)event + 1);
    if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT) return TRUE; /* the loop ends it */
    if (g_done) WaitForSingleObject(g_done, 4000);
    return TRUE;
}

void hb_plat_stop_install(void)
{
    if (!g_done) g_done = CreateEventW(NULL, TRUE, FALSE, NULL);
    SetConsoleCtrlHandler(on_console_event, TRUE);
}

int hb_plat_stop_caught(void)
{
    return (int)InterlockedCompareExchange(&g_caught, 0, 0);
}

void hb_plat_stop_clear(void)
{
    InterlockedExchange(&g_caught, 0);
}

void hb_plat_stop_exit(void)
{
    if (!hb_plat_stop_caught()) return;
    if (g_done) SetEvent(g_done);
    ExitProcess(STATUS_CONTROL_C_EXIT);
}

/* One watched window at a time (hexbattle has one main window). */
static HWND g_win;
static WNDPROC g_prev_proc;
static void (*g_last_words)(void *);
static void *g_last_ctx;

static LRESULT CALLBACK watch_proc(HWND w, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_QUERYENDSESSION) {
        InterlockedExchange(&g_caught, HB_PLAT_STOP_ENDSESSION);
        return TRUE; /* the loop saves and ends; nothing holds the log-off */
    }
    if (msg == WM_ENDSESSION && wp) {
        InterlockedExchange(&g_caught, HB_PLAT_STOP_ENDSESSION);
        void (*fn)(void *) = g_last_words;
        g_last_words = NULL; /* once */
        if (fn) fn(g_last_ctx); /* the process ends when this returns */
        return 0;
    }
    return CallWindowProcW(g_prev_proc, w, msg, wp, lp);
}

void hb_plat_stop_watch_window(void *native, void (*last_words)(void *ctx), void *ctx)
{
    if (!native || g_win) return;
    g_last_words = last_words;
    g_last_ctx = ctx;
    g_win = (HWND)native;
    g_prev_proc = (WNDPROC)SetWindowLongPtrW(g_win, GWLP_WNDPROC, (LONG_PTR)watch_proc);
    if (!g_prev_proc) g_win = NULL;
}

void hb_plat_stop_unwatch_window(void *native)
{
    if (!native || (HWND)native != g_win) return;
    SetWindowLongPtrW(g_win, GWLP_WNDPROC, (LONG_PTR)g_prev_proc);
    g_win = NULL;
    g_last_words = NULL;
}
#else
typedef int hb_stop_win32_empty; /* ISO C wants something in every file */
#endif
