/* same_picture.c - do two pictures hold the same pixels? The Linux build's
 * SDL2_image writes PNGs through libpng, the Windows build's through its stb
 * backend, so the files differ byte for byte where the pictures do not:
 * tools/windows/compare.sh compares what they show. Exit 0 when A and B have
 * the same size and every pixel the same RGBA, 1 (saying where) when not,
 * 2 when one cannot be read. With a third argument, a picture of where
 * they differ is written there (red on A dimmed) to look at. Built on the
 * fly by compare.sh with the Linux SDL2_image. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <SDL.h>
#include <SDL_image.h>

static SDL_Surface *load_rgba(const char *path)
{
    SDL_Surface *s = IMG_Load(path);
    if (!s) {
        fprintf(stderr, "same_picture: %s: %s\n", path, IMG_GetError());
        return NULL;
    }
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s);
    return c;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: same_picture A.png B.png [DIFF.png]\n");
        return 2;
    }
    SDL_Surface *a = load_rgba(argv[1]), *b = load_rgba(argv[2]);
    int rc = 2;
    if (a && b) {
        rc = 0;
        if (a->w != b->w || a->h != b->h) {
            printf("%dx%d against %dx%d\n", a->w, a->h, b->w, b->h);
            rc = 1;
        }
        long differ = 0;
        int fx = -1, fy = -1;
        for (int y = 0; rc == 0 && y < a->h; y++) {
            const Uint8 *ra = (const Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch;
            const Uint8 *rb = (const Uint8 *)b->pixels + (size_t)y * (size_t)b->pitch;
            Uint8 *rd = (Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch;
            for (int x = 0; x < a->w; x++) {
                bool same = memcmp(ra + 4 * x, rb + 4 * x, 4) == 0;
                if (!same && differ++ == 0) {
                    fx = x;
                    fy = y;
                }
                if (argc == 4) { /* a written over: it is not read again */
                    for (int k = 0; k < 3; k++) rd[4 * x + k] = (Uint8)(same ? rd[4 * x + k] / 3 : k ? 0 : 255);
                }
            }
        }
        if (differ) {
            printf("%ld pixels differ, the first at (%d,%d)\n", differ, fx, fy);
            rc = 1;
            if (argc == 4) IMG_SavePNG(a, argv[3]);
        }
    }
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    return rc;
}
