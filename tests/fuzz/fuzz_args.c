/* fuzz_args.c - libFuzzer target: the text values the command line and the
 * UI take (args_parse_int, args_parse_cell, args_parse_overlay).
 *
 * The first byte picks the error buffer's size (0..63), so short buffers are
 * covered; the rest is the argument. Accepted values must print back to a
 * string that parses to the same value, and an error must fit its buffer. */
#include <stdint.h>

#include "core/args.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CANARY 0x5a

static bool id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= MAP_ID_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
            return false;
    return true;
}

static void check_overlay(const char *s, size_t errcap)
{
    char err[64 + 8];
    memset(err, CANARY, sizeof err);
    overlay_spec_t o;
    if (!args_parse_overlay(s, &o, errcap ? err : NULL, errcap)) {
        if (errcap) FUZZ_CHECK(memchr(err, '\0', errcap) != NULL);
        for (size_t i = errcap; i < sizeof err; i++)
            FUZZ_CHECK((unsigned char)err[i] == CANARY);
        return;
    }
    FUZZ_CHECK(o.kind >= 0 && o.kind < OVERLAY_KIND_COUNT);
    const char *name = args_overlay_kind_name(o.kind);
    size_t nl = strlen(name);
    FUZZ_CHECK(strncmp(s, name, nl) == 0 && s[nl] == ':');
    FUZZ_CHECK(id_ok(o.id));
    /* Rebuild the spec from the parsed value; it must read back the same. */
    char again[3 * MAP_ID_MAX + 64];
    int n;
    if (o.kind == OVERLAY_FLANKING) {
        FUZZ_CHECK(id_ok(o.other));
        n = snprintf(again, sizeof again, "%s:%s,%s", name, o.id, o.other);
    } else if (o.kind == OVERLAY_RANGE && o.other[0]) {
        FUZZ_CHECK(id_ok(o.other));
        n = snprintf(again, sizeof again, "%s:%s,%s", name, o.id, o.other);
    } else if (o.kind == OVERLAY_LOS && o.has_cell) {
        n = snprintf(again, sizeof again, "%s:%s,%d,%d", name, o.id, o.cell.col, o.cell.row);
    } else if (o.kind == OVERLAY_AREA) {
        FUZZ_CHECK(id_ok(o.other) && o.has_cell);
        n = snprintf(again, sizeof again, "%s:%s,%s,%d,%d", name, o.id, o.other, o.cell.col,
                     o.cell.row);
    } else {
        FUZZ_CHECK(!o.has_cell && !o.other[0]);
        n = snprintf(again, sizeof again, "%s:%s", name, o.id);
    }
    FUZZ_CHECK(n > 0 && (size_t)n < sizeof again);
    overlay_spec_t p;
    char e2[128];
    FUZZ_CHECK(args_parse_overlay(again, &p, e2, sizeof e2));
    FUZZ_CHECK(p.kind == o.kind && strcmp(p.id, o.id) == 0 && strcmp(p.other, o.other) == 0 &&
               p.has_cell == o.has_cell);
    if (o.has_cell) FUZZ_CHECK(p.cell.col == o.cell.col && p.cell.row == o.cell.row);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    size_t errcap = data[0] % 64;
    char *s = malloc(size); /* size-1 bytes of argument plus its NUL */
    if (!s) return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';

    int v;
    if (args_parse_int(s, &v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%d", v);
        int w = ~v; /* anything but v, without overflow */
        FUZZ_CHECK(args_parse_int(buf, &w) && w == v);
    }
    cell_t c;
    if (args_parse_cell(s, &c)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%d,%d", c.col, c.row);
        cell_t d = {~c.col, ~c.row};
        FUZZ_CHECK(args_parse_cell(buf, &d) && d.col == c.col && d.row == c.row);
    }
    check_overlay(s, errcap);
    free(s);
    return 0;
}
