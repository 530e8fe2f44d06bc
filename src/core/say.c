/* say.c - messages that echo input, made safe to print (see say.h). */
#include "say.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Longest message text kept; longer ones are cut, never overrun. */
#define SAY_MAX 2048

static bool is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

void hb_escape_controls(char *s, size_t cap)
{
    if (!s || cap == 0) return;
    /* Work from a copy: each control byte grows into four ("\x1b"). */
    char src[SAY_MAX];
    size_t n = 0;
    while (n + 1 < cap && n + 1 < sizeof src && s[n])
        n++;
    memcpy(src, s, n);
    src[n] = '\0';
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        if (is_control(c)) {
            if (o + 5 > cap) break;
            snprintf(s + o, cap - o, "\\x%02x", c);
            o += 4;
        } else {
            s[o++] = (char)c;
        }
    }
    s[o] = '\0';
}

void hb_eprintf(const char *fmt, ...)
{
    char text[SAY_MAX * 4];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, SAY_MAX, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = strlen(text);
    bool newline = len > 0 && text[len - 1] == '\n';
    if (newline) text[len - 1] = '\0';
    hb_escape_controls(text, sizeof text);
    fprintf(stderr, "%s%s", text, newline ? "\n" : "");
}
