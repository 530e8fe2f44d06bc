/* stop_win32.c - the stops section of plat_sys.h on Windows: a console
 * control handler. Windows runs it on a thread of its own and, for a close,
 * log-off or shutdown, ends the process once it returns (or after about 5 s):
 * so it notes the event, then waits up to 4 s for the program's loop to save
 * and call hb_plat_stop_exit. A window's own log-off message
 * (WM_QUERYENDSESSION) is not handled here yet (docs/porting.md). */
#ifdef _WIN32
#include "plat_sys.h"

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
#else
typedef int hb_stop_win32_empty; /* ISO C wants something in every file */
#endif
