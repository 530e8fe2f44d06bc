/* text_fixture.h - files made wrong on purpose: a copy of a text with one
 * piece replaced, for the tests of what the loaders refuse. */
#ifndef HB_TEXT_FIXTURE_H
#define HB_TEXT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A malloc'd copy of TEXT with its first FROM replaced by TO, or NULL (with
 * a line on stderr) when FROM is not there. Each '@' in TO becomes a NUL
 * byte when nul_at is set, so a NUL can be put where strstr would stop;
 * *len (may be NULL) gets the length. */
static inline char *text_patch(const char *text, const char *from, const char *to, bool nul_at,
                               size_t *len)
{
    const char *at = strstr(text, from);
    if (!at) {
        fprintf(stderr, "text_patch: '%s' is not in the text\n", from);
        return NULL;
    }
    size_t a = (size_t)(at - text), f = strlen(from), t = strlen(to), n = strlen(text);
    char *out = malloc(n - f + t + 1);
    if (!out) return NULL;
    memcpy(out, text, a);
    memcpy(out + a, to, t);
    memcpy(out + a + t, at + f, n - a - f + 1);
    for (size_t i = a; nul_at && i < a + t; i++)
        if (out[i] == '@') out[i] = '\0';
    if (len) *len = n - f + t;
    return out;
}

#endif
