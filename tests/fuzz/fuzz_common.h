/* fuzz_common.h - small helpers shared by the libFuzzer targets. */
#ifndef HB_FUZZ_COMMON_H
#define HB_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Data folder for loaders that need terrain.json and the rulesets:
 * $HEXBATTLE_DATA, else the source tree the target was built from. */
static inline const char *fuzz_data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return (d && *d) ? d : HB_SOURCE_DIR "/data";
}

/* A property the code promises was broken: say which and crash, so libFuzzer
 * keeps the input as an artifact. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond);       \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* An exact-size heap copy with no NUL after it, so ASan sees any read past
 * the end of what the loader was given. */
static inline char *fuzz_copy(const unsigned char *data, size_t size)
{
    char *p = malloc(size ? size : 1);
    if (p && size) memcpy(p, data, size);
    return p;
}

/* A loader error must start with "NAME: " and stay inside its buffer. */
static inline int fuzz_err_ok(const char *err, size_t cap, const char *name)
{
    size_t n = strnlen(err, cap);
    size_t k = strlen(name);
    return n < cap && n > k + 2 && strncmp(err, name, k) == 0 && err[k] == ':';
}

#endif
