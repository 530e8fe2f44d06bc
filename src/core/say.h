/* say.h - messages that echo input, made safe to print.
 *
 * A map, a save, a file name or an argument may hold control characters (an
 * ESC that recolours or clears the terminal, a newline that forges a second
 * message line). Every message that echoes one goes through these: each byte
 * below 0x20, and DEL, is written as "\xNN".
 */
#ifndef HB_SAY_H
#define HB_SAY_H

#include <stddef.h>

#include "printf_attr.h"

/* Rewrite the control characters of s as "\xNN", in place, within cap bytes
 * (the end is cut when it no longer fits). Escaping twice changes nothing. */
void hb_escape_controls(char *s, size_t cap);

/* fprintf to stderr with every control character of the formatted text
 * escaped, except one newline at its very end. */
void hb_eprintf(const char *fmt, ...) HB_PRINTF(1, 2);

#endif
