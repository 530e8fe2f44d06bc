/* bench.h - what the parts of `hexbattle bench` share (src/app/bench*.c). */
#ifndef HB_APP_BENCH_H
#define HB_APP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/map.h"
#include "core/tmpl.h"

/* Monotonic time in milliseconds. */
double bench_now_ms(void);
/* Median of n samples (sorts them). */
double bench_median(double *v, int n);
/* A fixed-seed generator, so every run builds the same maps. */
uint32_t bench_rand(uint64_t *s);
/* A cols x rows xhalem map of the built-in terrain: mostly open, with
 * patches of difficult ground and cover and a few walls, and n combatants
 * (half players, half raiders) on open hexes. NULL on failure. */
map_t *bench_map(int cols, int rows, int n, uint64_t seed);

/* Give map m pictures for frame_art_vs_bare (bench_art.c): every hex a
 * tile of a single-picture tileset, a battle-map picture under them, both
 * written into a new temporary folder (its name into dir). False on failure. */
bool bench_art_make(map_t *m, char *dir, size_t cap);
/* Remove the pictures and the folder. */
void bench_art_remove(const char *dir);

/* The big-map figures (bench_scale.c), each measured in the same run as its
 * baseline. */
typedef struct {
    double view_update_ms;      /* player view after one viewer's step, 512x512, 400 combatants */
    double view_full_ms;        /* the same view worked out from nothing */
    double render_512_ms;       /* a plain render of that map: whole map, 1920x1080, PNG */
    double view_full_vs_render; /* view_full_ms / render_512_ms */
    double frame_512_ms;        /* a frame of that map zoomed out whole, 1920x1080 */
    double frame_64_ms;         /* the same frame of a 64x64 map, 100 combatants */
    double frame_512_vs_64;
    double ai_turn_512_ms; /* the slowest AI turn (every command of it), 512x512, 400 combatants */
    double ai_turn_512_median_ms;
    double max_rss_mb; /* the process's peak memory, after all of it */
} bench_scale_t;

/* Measure the figures above (reps: samples per median). False when one
 * could not run. */
bool bench_scale(int reps, const tmpl_db_t *db, bench_scale_t *out);

/* scars_round_512_ms (bench_scars.c): the slowest of the first rounds of the
 * scars AI on a 1024x1024 map with 512 combatants, every declaration and
 * resolution of the round, in CPU ms. False when it could not run. */
bool bench_scars(double *round_ms);

/* The players' server figures (bench_share.c), with SHARE_BENCH_PAGES pages
 * connected over loopback to a server on map m. */
#define SHARE_BENCH_PAGES 8
typedef struct {
    double latency_median_ms; /* a command applied -> its picture read by all the pages */
    double latency_p99_ms;
    double frame_cost_ms; /* what share_publish + share_pump add to a frame, on average */
} bench_share_t;

/* Measure them over `rounds` commands (and undos); false when it could not run. */
bool bench_share(int rounds, const map_t *m, const tmpl_db_t *db, bench_share_t *out);

#endif
