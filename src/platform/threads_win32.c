/* threads_win32.c - the threads section of platform.h on Windows: SRW locks,
 * condition variables (Vista and later) and _beginthreadex. */
#ifdef _WIN32
#include "platform.h"

#include <process.h>
#include <stdlib.h>
#include <windows.h>

struct hb_mutex {
    SRWLOCK l;
};
struct hb_cond {
    CONDITION_VARIABLE c;
};
struct hb_thread {
    HANDLE h;
    void *(*fn)(void *);
    void *arg;
};

hb_mutex_t *hb_mutex_create(void)
{
    hb_mutex_t *m = malloc(sizeof *m);
    if (m) InitializeSRWLock(&m->l);
    return m;
}

void hb_mutex_destroy(hb_mutex_t *m)
{
    free(m); /* an SRW lock holds no resources */
}

void hb_mutex_lock(hb_mutex_t *m)
{
    AcquireSRWLockExclusive(&m->l);
}

void hb_mutex_unlock(hb_mutex_t *m)
{
    ReleaseSRWLockExclusive(&m->l);
}

hb_cond_t *hb_cond_create(void)
{
    hb_cond_t *c = malloc(sizeof *c);
    if (c) InitializeConditionVariable(&c->c);
    return c;
}

void hb_cond_destroy(hb_cond_t *c)
{
    free(c);
}

void hb_cond_wait(hb_cond_t *c, hb_mutex_t *m)
{
    SleepConditionVariableSRW(&c->c, &m->l, INFINITE, 0);
}

void hb_cond_broadcast(hb_cond_t *c)
{
    WakeAllConditionVariable(&c->c);
}

static unsigned __stdcall trampoline(void *p)
{
    hb_thread_t *t = p;
    t->fn(t->arg);
    return 0;
}

hb_thread_t *hb_thread_start(void *(*fn)(void *), void *arg)
{
    hb_thread_t *t = malloc(sizeof *t);
    if (!t) return NULL;
    t->fn = fn;
    t->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 8u << 20, trampoline, t,
                                 STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (h == 0) {
        free(t);
        return NULL;
    }
    t->h = (HANDLE)h;
    return t;
}

void hb_thread_join(hb_thread_t *t)
{
    if (!t) return;
    WaitForSingleObject(t->h, INFINITE);
    CloseHandle(t->h);
    free(t);
}

int hb_plat_cpu_count(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors < 1 ? 1 : (int)si.dwNumberOfProcessors;
}

double hb_plat_now_ms(void)
{
    static LARGE_INTEGER freq; /* the same for the whole run: a race writes one value */
    if (!freq.QuadPart) QueryPerformanceFrequency(&freq);
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart * 1e3 / (double)freq.QuadPart;
}

void hb_plat_sleep_ms(int ms)
{
    if (ms > 0) Sleep((DWORD)ms);
}
#else
typedef int hb_threads_win32_empty; /* ISO C wants something in every file */
#endif
