/* app.h - the command-line entry points (src/app). Each returns the process
 * exit status: 0 ok, 2 bad input, 1 anything else. */
#ifndef HB_APP_H
#define HB_APP_H

#include <cjson/cJSON.h>

#include "io/map_io.h"

/* Load the map at path and its templates from the data folder (m and db
 * set), or print "hexbattle: " and why not on stderr; HB_OK or the
 * status to exit with (src/app/common.c). */
int app_load_map(const char *path, map_t **m, tmpl_db_t **db);

/* Is the JSON file at path a saved battle (rather than a map)? */
bool app_is_save(const char *path);

/* hexbattle serve MAP|SAVE [--port N]: share the battle with the players'
 * devices until SIGINT or SIGTERM (src/app/serve.c, docs/sharing.md). */
int app_serve(int argc, char **argv);

/* Print j on stdout as one line of JSON and free it: 0, or 1 with a message
 * when j is NULL or will not print (out of memory). */
int app_print_json(cJSON *j);

/* hexbattle simulate MAP --seed N [--max-rounds R]: JSON Lines events on stdout. */
int app_simulate(int argc, char **argv);

/* hexbattle bench [--quick]: performance figures as JSON (src/app/bench.c). */
int app_bench(int argc, char **argv);

/* hexbattle odds MAP|SAVE [--runs N] [--seed S] [--threads T]: who is likely
 * to win, from many AI-played runs, as one line of JSON (src/app/odds.c). */
int app_odds(int argc, char **argv);

/* hexbattle edit [MAP]: the map editor (src/app/edit.c). */
int app_edit(int argc, char **argv);

/* hexbattle project [MAP]: table projection (src/app/project.c). */
int app_project(int argc, char **argv);

/* hexbattle resume [SAVE]: go on with a saved battle, by default the newest
 * autosave (src/app/resume.c). */
int app_resume(int argc, char **argv);

/* hexbattle replay SAVE [--events]: play a saved battle back on screen, or
 * print its event log as JSON Lines (src/app/resume.c). */
int app_replay(int argc, char **argv);

#endif
