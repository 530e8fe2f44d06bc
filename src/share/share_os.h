/* share_os.h - what the players' server asks of the operating system: random
 * bytes for secrets and the machine's address on the local network. The
 * POSIX calls stay in share_os.c. */
#ifndef HB_SHARE_OS_H
#define HB_SHARE_OS_H

#include <stdbool.h>
#include <stddef.h>

/* n bytes from the OS's random generator; false when it gives none. */
bool share_os_random(unsigned char *out, size_t n);
/* The first up, non-loopback IPv4 address as text; false (out "127.0.0.1")
 * when there is none. */
bool share_os_lan_address(char *out, size_t cap);

#endif
