/* stop_posix.c - the stops section of platform.h with POSIX signals. */
#ifndef _WIN32
#include "platform.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t g_caught;

static void on_signal(int sig)
{
    g_caught = sig; /* async-signal-safe: one store, nothing more */
}

static const int SIGNALS[] = {SIGTERM, SIGHUP, SIGINT};

void hb_plat_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a blocking wait returns early, so the loop looks sooner. */
    sa.sa_flags = 0;
    for (size_t i = 0; i < sizeof SIGNALS / sizeof SIGNALS[0]; i++)
        sigaction(SIGNALS[i], &sa, NULL);
}

int hb_plat_stop_caught(void)
{
    return (int)g_caught;
}

void hb_plat_stop_clear(void)
{
    g_caught = 0;
}

void hb_plat_stop_exit(void)
{
    int sig = (int)g_caught;
    if (!sig) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
}

void hb_plat_stop_watch_window(void *native, void (*last_words)(void *ctx), void *ctx)
{
    (void)native; /* a window's session messages are Windows' alone */
    (void)last_words;
    (void)ctx;
}

void hb_plat_stop_unwatch_window(void *native)
{
    (void)native;
}
#else
typedef int hb_stop_posix_empty; /* ISO C wants something in every file */
#endif
