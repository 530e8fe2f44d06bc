/* replay_main.c - runs a fuzz target's entry point once over every file of
 * the given folders, without libFuzzer. The normal and sanitizer builds use
 * it as a ctest, so every seed and every crash kept in corpus/ is replayed by
 * gcc builds too, on machines with no clang. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read PATH whole into a malloc'd buffer; NULL on any failure. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) break;
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            fclose(f);
            *len = n;
            return buf;
        }
    }
    fclose(f);
    free(buf);
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "replay: cannot open folder %s\n", argv[i]);
            return 1;
        }
        /* Sorted, so a failure names the same file on every run. */
        char **names = NULL;
        size_t n = 0, cap = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                char **nn = realloc(names, cap * sizeof *names);
                if (!nn) return 1;
                names = nn;
            }
            names[n] = malloc(strlen(e->d_name) + 1);
            if (!names[n]) return 1;
            strcpy(names[n++], e->d_name);
        }
        closedir(d);
        if (n) qsort(names, n, sizeof *names, by_name);
        for (size_t k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            size_t len = 0;
            unsigned char *data = slurp(path, &len);
            if (!data) {
                fprintf(stderr, "replay: cannot read %s\n", path);
                return 1;
            }
            /* Named first, so a crash in the target shows which input did it. */
            fprintf(stderr, "replay: %s\n", path);
            LLVMFuzzerTestOneInput(data, len);
            free(data);
            free(names[k]);
            files++;
        }
        free(names);
    }
    printf("replay: %d inputs, all passed\n", files);
    return files > 0 ? 0 : 1;
}
