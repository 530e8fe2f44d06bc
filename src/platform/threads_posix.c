/* threads_posix.c - the threads section of platform.h with POSIX threads. */
#ifndef _WIN32
#include "platform.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct hb_mutex {
    pthread_mutex_t m;
};
struct hb_cond {
    pthread_cond_t c;
};
struct hb_thread {
    pthread_t t;
};

hb_mutex_t *hb_mutex_create(void)
{
    hb_mutex_t *m = malloc(sizeof *m);
    if (m && pthread_mutex_init(&m->m, NULL) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

void hb_mutex_destroy(hb_mutex_t *m)
{
    if (!m) return;
    pthread_mutex_destroy(&m->m);
    free(m);
}

void hb_mutex_lock(hb_mutex_t *m)
{
    pthread_mutex_lock(&m->m);
}

void hb_mutex_unlock(hb_mutex_t *m)
{
    pthread_mutex_unlock(&m->m);
}

hb_cond_t *hb_cond_create(void)
{
    hb_cond_t *c = malloc(sizeof *c);
    if (c && pthread_cond_init(&c->c, NULL) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

void hb_cond_destroy(hb_cond_t *c)
{
    if (!c) return;
    pthread_cond_destroy(&c->c);
    free(c);
}

void hb_cond_wait(hb_cond_t *c, hb_mutex_t *m)
{
    pthread_cond_wait(&c->c, &m->m);
}

void hb_cond_broadcast(hb_cond_t *c)
{
    pthread_cond_broadcast(&c->c);
}

hb_thread_t *hb_thread_start(void *(*fn)(void *), void *arg)
{
    hb_thread_t *t = malloc(sizeof *t);
    if (!t) return NULL;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        free(t);
        return NULL;
    }
    pthread_attr_setstacksize(&attr, 8u << 20);
    int rc = pthread_create(&t->t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void hb_thread_join(hb_thread_t *t)
{
    if (!t) return;
    pthread_join(t->t, NULL);
    free(t);
}

int hb_plat_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

double hb_plat_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void hb_plat_sleep_ms(int ms)
{
    if (ms <= 0) return;
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL); /* a signal may end it early: callers poll */
}
#else
typedef int hb_threads_posix_empty; /* ISO C wants something in every file */
#endif
