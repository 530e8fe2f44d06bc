/* test_platform_win32.c - the stops of the Win32 side that only Windows has
 * (make test-windows runs it under Wine): a window's WM_QUERYENDSESSION is
 * caught as a stop and answered "yes", its WM_ENDSESSION runs the last words
 * (the recovery copy) once, other messages still reach the window's own
 * procedure, and after unwatching nothing is caught; a console Ctrl+Break is
 * caught by the console handler, and a console close waits for the loop to
 * write its recovery copy before Windows ends the process. On POSIX the same
 * program checks that watching a window does nothing.
 *
 * The console events are delivered the way Windows delivers them: by
 * kernelbase's CtrlRoutine, run on a new thread of the process (what csrss
 * or Wine's conhost start in it). GenerateConsoleCtrlEvent would be the
 * outside way, but Wine 8 refuses it (ERROR_INVALID_HANDLE, also with a
 * console from AllocConsole or a terminal), so the suite starts that thread
 * itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "platform/platform.h"

static int g_last_words;

static void last_words(void *ctx)
{
    g_last_words += *(int *)ctx;
}

#ifdef _WIN32
#include <stdio.h>
#include <string.h>
#include <windows.h>

/* kernelbase's CtrlRoutine: runs the process's console handlers for an
 * event, as Windows does on a thread of its own. NULL when not exported. */
static LPTHREAD_START_ROUTINE ctrl_routine(void)
{
    HMODULE k = GetModuleHandleW(L"kernelbase.dll");
    if (!k) k = GetModuleHandleW(L"kernel32.dll");
    return k ? (LPTHREAD_START_ROUTINE)(void (*)(void))GetProcAddress(k, "CtrlRoutine") : NULL;
}

/* Deliver console EVENT on a new thread, as Windows does; the thread's
 * handle (or NULL). */
static HANDLE deliver(DWORD event)
{
    LPTHREAD_START_ROUTINE fn = ctrl_routine();
    return fn ? CreateThread(NULL, 0, fn, (void *)(ULONG_PTR)event, 0, NULL) : NULL;
}

static int g_own_calls; /* messages that reached the window's own procedure */

static LRESULT CALLBACK own_proc(HWND w, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 1) {
        g_own_calls++;
        return 42;
    }
    if (msg == WM_QUERYENDSESSION) g_own_calls++;
    return DefWindowProcW(w, msg, wp, lp);
}

static HWND make_window(void)
{
    WNDCLASSW wc = {0};
    wc.lpfnWndProc = own_proc;
    wc.hInstance = GetModuleHandleW(NULL);
    wc.lpszClassName = L"hb_test_window";
    RegisterClassW(&wc);
    /* A message-only window: no display needed (Wine runs headless). */
    return CreateWindowExW(0, L"hb_test_window", L"test", 0, 0, 0, 10, 10, HWND_MESSAGE, NULL,
                           wc.hInstance, NULL);
}

static void test_end_of_session(void **state)
{
    (void)state;
    HWND w = make_window();
    assert_non_null(w);
    int one = 1;
    hb_plat_stop_clear();
    g_last_words = g_own_calls = 0;
    hb_plat_stop_watch_window(w, last_words, &one);
    /* Another message still reaches the window's own procedure. */
    assert_int_equal(SendMessageW(w, WM_USER + 1, 0, 0), 42);
    assert_int_equal(g_own_calls, 1);
    assert_int_equal(hb_plat_stop_caught(), 0);
    /* The log-off question: caught, answered yes, nothing written yet. */
    assert_int_equal(SendMessageW(w, WM_QUERYENDSESSION, 0, ENDSESSION_LOGOFF), TRUE);
    assert_int_equal(hb_plat_stop_caught(), HB_PLAT_STOP_ENDSESSION);
    assert_int_equal(g_last_words, 0);
    assert_int_equal(g_own_calls, 1);
    /* The session ends: the last words, once. */
    SendMessageW(w, WM_ENDSESSION, TRUE, ENDSESSION_LOGOFF);
    assert_int_equal(g_last_words, 1);
    SendMessageW(w, WM_ENDSESSION, TRUE, ENDSESSION_LOGOFF);
    assert_int_equal(g_last_words, 1);
    /* Unwatched: the window's own procedure answers, nothing is caught. */
    hb_plat_stop_unwatch_window(w);
    hb_plat_stop_clear();
    SendMessageW(w, WM_QUERYENDSESSION, 0, ENDSESSION_LOGOFF);
    assert_int_equal(g_own_calls, 2);
    assert_int_equal(hb_plat_stop_caught(), 0);
    DestroyWindow(w);
}

/* A session that is not ending (WM_ENDSESSION with FALSE) writes nothing. */
static void test_end_cancelled(void **state)
{
    (void)state;
    HWND w = make_window();
    assert_non_null(w);
    int one = 1;
    hb_plat_stop_clear();
    g_last_words = 0;
    hb_plat_stop_watch_window(w, last_words, &one);
    SendMessageW(w, WM_ENDSESSION, FALSE, 0);
    assert_int_equal(g_last_words, 0);
    hb_plat_stop_unwatch_window(w);
    DestroyWindow(w);
}
/* Ctrl+Break at the console: noted (event + 1) and answered handled, so
 * the process goes on for the loop to save and end it. */
static void test_console_break(void **state)
{
    (void)state;
    if (!ctrl_routine()) skip();
    hb_plat_stop_install();
    hb_plat_stop_clear();
    HANDLE t = deliver(CTRL_BREAK_EVENT);
    assert_non_null(t);
    assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
    CloseHandle(t);
    assert_int_equal(hb_plat_stop_caught(), CTRL_BREAK_EVENT + 1);
    hb_plat_stop_clear();
    assert_int_equal(hb_plat_stop_caught(), 0);
}

/* The child of test_console_close_waits: a console close arrives while the
 * "loop" runs; Windows ends the process as soon as the handler returns (here
 * the delivering thread's ExitProcess(99) stands for it). The loop takes
 * 300 ms to see the stop and write its copy to PATH, then ends the process
 * as a stop does: the handler must hold Windows off until then. */
static DWORD WINAPI close_then_end(void *arg)
{
    (void)arg;
    ctrl_routine()((void *)(ULONG_PTR)CTRL_CLOSE_EVENT);
    ExitProcess(99); /* what Windows does once the handler returned */
}

static int close_child(const char *path)
{
    hb_plat_stop_install();
    if (!CreateThread(NULL, 0, close_then_end, NULL, 0, NULL)) return 3;
    for (int i = 0; i < 500 && !hb_plat_stop_caught(); i++)
        Sleep(10);
    if (hb_plat_stop_caught() != CTRL_CLOSE_EVENT + 1) return 4;
    Sleep(300); /* writing the recovery copy takes a while */
    FILE *f = fopen(path, "wb");
    if (!f || fputs("kept", f) < 0 || fclose(f) != 0) return 5;
    hb_plat_stop_exit();
    return 6; /* not reached: the stop ends the process */
}

static void test_console_close_waits(void **state)
{
    (void)state;
    if (!ctrl_routine()) skip();
    char self[MAX_PATH], path[MAX_PATH + 16], cmd[3 * MAX_PATH];
    DWORD n = GetModuleFileNameA(NULL, self, sizeof self);
    assert_true(n > 0 && n < sizeof self);
    snprintf(path, sizeof path, "%s.close.%lu", self, (unsigned long)GetCurrentProcessId());
    DeleteFileA(path);
    snprintf(cmd, sizeof cmd, "\"%s\" --close-child \"%s\"", self, path);
    STARTUPINFOA si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    PROCESS_INFORMATION pi;
    assert_true(CreateProcessA(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi));
    assert_int_equal(WaitForSingleObject(pi.hProcess, 15000), WAIT_OBJECT_0);
    DWORD code = 0;
    assert_true(GetExitCodeProcess(pi.hProcess, &code));
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    FILE *f = fopen(path, "rb");
    char got[8] = "";
    if (f) {
        if (!fgets(got, sizeof got, f)) got[0] = '\0';
        fclose(f);
    }
    DeleteFileA(path);
    /* The copy was written: without the handler's wait, Windows (the
     * ExitProcess(99)) would have ended the process 300 ms before. Then the
     * loop's stop ends it with Ctrl+C's status, or the released handler
     * returns first and "Windows" does: either is an end after the copy. */
    assert_string_equal(got, "kept");
    assert_true(code == (DWORD)STATUS_CONTROL_C_EXIT || code == 99);
}
#else
/* POSIX: a window has no session messages; watching does nothing. */
static void test_end_of_session(void **state)
{
    (void)state;
    int one = 1, fake_window = 0;
    hb_plat_stop_clear();
    g_last_words = 0;
    hb_plat_stop_watch_window(&fake_window, last_words, &one);
    assert_int_equal(hb_plat_stop_caught(), 0);
    assert_int_equal(g_last_words, 0);
    hb_plat_stop_unwatch_window(&fake_window);
}

static void test_end_cancelled(void **state)
{
    (void)state;
    skip(); /* Windows' WM_ENDSESSION alone */
}

/* The console handler is Windows' alone (stop_posix.c catches signals,
 * tested by tests/cli/signals.sh). */
static void test_console_break(void **state)
{
    (void)state;
    skip();
}

static void test_console_close_waits(void **state)
{
    (void)state;
    skip();
}
#endif

int main(int argc, char **argv)
{
#ifdef _WIN32
    if (argc == 3 && strcmp(argv[1], "--close-child") == 0) return close_child(argv[2]);
#else
    (void)argc;
    (void)argv;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_of_session),
        cmocka_unit_test(test_end_cancelled),
        cmocka_unit_test(test_console_break),
        cmocka_unit_test(test_console_close_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
