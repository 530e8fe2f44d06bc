/* edit_json.h - the editor's undo history as JSON, for recovery copies
 * (src/io/recover.h). Each edit is written with every field it holds, so the
 * history read back undoes and redoes exactly as the one written. */
#ifndef HB_EDIT_JSON_H
#define HB_EDIT_JSON_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "../core/edit.h"
#include "io_json.h"

/* History h as {"pos": p, "saved": s, "edits": [...]}; NULL on OOM. */
cJSON *edit_history_to_json(const edit_history_t *h);

/* Read a history written by edit_history_to_json (at PATH) for map m, which
 * is in the state the history's cursor stands at. Every edit is checked by
 * undoing back to the start and redoing to the end on a copy of m, which must
 * come back to m exactly. HB_OK with *h filled (the caller frees it), or
 * HB_ERR_INPUT ("FILE: PATH: reason") with *h empty. */
int edit_history_from_json(io_ctx_t *cx, const cJSON *v, const char *path, const map_t *m,
                           edit_history_t *h);

#endif
