/* gen_textures.c - makes the tileable terrain textures in assets/textures/.
 *
 * The textures are light greyscale patterns: the renderer multiplies them by
 * the terrain type's colour, so one image serves any palette and the colour
 * stays what the map says. Every pattern repeats exactly every SIZE pixels
 * (periodic noise, wrapped distances), so hexes tile without seams.
 *
 * Build and run from the repository root:
 *   cc -O2 -std=c11 tools/gen_textures.c -o /tmp/gen_textures \
 *      $(pkg-config --cflags --libs sdl2 SDL2_image) -lm
 *   /tmp/gen_textures assets/textures
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <SDL.h>
#include <SDL_image.h>

#define SIZE 256
#define PI 3.14159265358979323846

static uint32_t rng_state;

static uint32_t rnd(void)
{
    uint32_t x = rng_state; /* xorshift32: fixed seeds give the same files every run */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

static double frand(void)
{
    return (rnd() & 0xffffff) / (double)0x1000000;
}

/* Periodic value noise: a lattice of cells x cells that wraps around SIZE. */
static double lattice[64][64];

static void noise_seed(uint32_t seed)
{
    rng_state = seed;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            lattice[i][j] = frand();
}

static double smooth(double t)
{
    return t * t * (3 - 2 * t);
}

static double vnoise(double x, double y, int cells)
{
    double fx = x * cells / SIZE, fy = y * cells / SIZE;
    int x0 = (int)floor(fx), y0 = (int)floor(fy);
    double tx = smooth(fx - x0), ty = smooth(fy - y0);
    int xa = ((x0 % cells) + cells) % cells, ya = ((y0 % cells) + cells) % cells;
    int xb = (xa + 1) % cells, yb = (ya + 1) % cells;
    double a = lattice[ya][xa] + (lattice[ya][xb] - lattice[ya][xa]) * tx;
    double b = lattice[yb][xa] + (lattice[yb][xb] - lattice[yb][xa]) * tx;
    return a + (b - a) * ty;
}

static double fbm(double x, double y, int base)
{
    double v = 0, amp = 0.5, tot = 0;
    for (int o = 0, c = base; o < 4 && c <= 64; o++, c *= 2) {
        v += amp * vnoise(x, y, c);
        tot += amp;
        amp *= 0.5;
    }
    return v / tot;
}

/* Shortest offset between two coordinates on the wrapping tile. */
static double wrap(double d)
{
    while (d > SIZE / 2.0)
        d -= SIZE;
    while (d < -SIZE / 2.0)
        d += SIZE;
    return d;
}

static double img[SIZE][SIZE];

static void darken(int x, int y, double v)
{
    x = ((x % SIZE) + SIZE) % SIZE;
    y = ((y % SIZE) + SIZE) % SIZE;
    if (v < img[y][x]) img[y][x] = v;
}

static void stroke(double x0, double y0, double x1, double y1, double v)
{
    int n = (int)(fmax(fabs(x1 - x0), fabs(y1 - y0)) * 2) + 1;
    for (int i = 0; i <= n; i++) {
        double t = (double)i / n;
        darken((int)lround(x0 + (x1 - x0) * t), (int)lround(y0 + (y1 - y0) * t), v);
    }
}

static void brush(void)
{
    noise_seed(0x5eed0001u);
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++)
            img[y][x] = 228 + 24 * fbm(x, y, 8);
    /* Tufts: fans of short blades, darker at the root. */
    for (int k = 0; k < 70; k++) {
        double cx = frand() * SIZE, cy = frand() * SIZE;
        int blades = 4 + (int)(frand() * 4);
        for (int b = 0; b < blades; b++) {
            double a = -PI / 2 + (frand() - 0.5) * 1.6, len = 6 + frand() * 8;
            stroke(cx, cy, cx + cos(a) * len, cy + sin(a) * len, 178 + frand() * 25);
        }
    }
}

static void rubble(void)
{
    noise_seed(0x5eed0002u);
    enum { N = 46 };
    double px[N], py[N], shade[N];
    for (int i = 0; i < N; i++) {
        px[i] = frand() * SIZE;
        py[i] = frand() * SIZE;
        shade[i] = 205 + frand() * 45;
    }
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            double d1 = 1e9, d2 = 1e9;
            int best = 0;
            for (int i = 0; i < N; i++) {
                double dx = wrap(x - px[i]), dy = wrap(y - py[i]), d = sqrt(dx * dx + dy * dy);
                if (d < d1) {
                    d2 = d1;
                    d1 = d;
                    best = i;
                } else if (d < d2) {
                    d2 = d;
                }
            }
            /* Stones are domes: lighter in the middle, darker toward the gaps. */
            double edge = d2 - d1;
            double v = shade[best] - 0.5 * d1 + 10 * (fbm(x, y, 16) - 0.5);
            if (edge < 3.0) v = 168 + edge * 8 + 10 * fbm(x, y, 32);
            img[y][x] = v;
        }
}

static void water(void)
{
    noise_seed(0x5eed0003u);
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            double warp = fbm(x, y, 4) * 2.0;
            double s = sin(2 * PI * (y * 10.0 / SIZE + x * 2.0 / SIZE) + warp * PI);
            double v = 236 + 8 * fbm(x, y, 16);
            if (s > 0.93)
                v = 252; /* glints on the crests */
            else if (s < -0.6)
                v -= 14 * (-s - 0.6) / 0.4;
            img[y][x] = v;
        }
}

static void wall(void)
{
    noise_seed(0x5eed0004u);
    const int bh = 32, bw = 64;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            int row = y / bh, off = (row & 1) * (bw / 2);
            int bx = ((x + off) % SIZE) / bw;
            int lx = (x + off) % bw, ly = y % bh;
            uint32_t h = (uint32_t)(row * 31 + bx * 17) * 2654435761u;
            double v = 214 + (h >> 27) + 14 * fbm(x, y, 16);
            if (lx < 3 || ly < 3)
                v = 150; /* mortar */
            else if (lx < 6 || ly < 6)
                v += 10; /* lit edge */
            else if (lx > bw - 4 || ly > bh - 4)
                v -= 18; /* shaded edge */
            img[y][x] = v;
        }
}

static void forest(void)
{
    noise_seed(0x5eed0005u);
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++)
            img[y][x] = 190 + 20 * fbm(x, y, 8);
    /* Crowns painted back to front: each a lit dome with a dark edge. */
    for (int k = 0; k < 34; k++) {
        double cx = frand() * SIZE, cy = frand() * SIZE, r = 16 + frand() * 12;
        for (int y = (int)(cy - r - 2); y <= (int)(cy + r + 2); y++)
            for (int x = (int)(cx - r - 2); x <= (int)(cx + r + 2); x++) {
                double dx = x - cx, dy = y - cy, d = sqrt(dx * dx + dy * dy) / r;
                double lobes =
                    0.82 + 0.3 * fbm(((x % SIZE) + SIZE) % SIZE, ((y % SIZE) + SIZE) % SIZE, 32);
                if (d > lobes) continue;
                int wx = ((x % SIZE) + SIZE) % SIZE, wy = ((y % SIZE) + SIZE) % SIZE;
                double light = 0.5 - 0.5 * (dx + dy) / (r * 1.42);
                double v = 205 + 45 * light + 10 * (fbm(wx, wy, 32) - 0.5);
                if (d > lobes - 0.12) v = 175;
                img[wy][wx] = v;
            }
    }
}

static int save(const char *dir, const char *name)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, SIZE, SIZE, 32, SDL_PIXELFORMAT_RGBA32);
    if (!s) return 1;
    for (int y = 0; y < SIZE; y++) {
        Uint32 *row = (Uint32 *)((Uint8 *)s->pixels + y * s->pitch);
        for (int x = 0; x < SIZE; x++) {
            double v = img[y][x];
            Uint8 g = (Uint8)(v < 0 ? 0 : v > 255 ? 255 : v);
            row[x] = SDL_MapRGBA(s->format, g, g, g, 255);
        }
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    int rc = IMG_SavePNG(s, path);
    SDL_FreeSurface(s);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", path, IMG_GetError());
    else
        printf("wrote %s\n", path);
    return rc != 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "assets/textures";
    int bad = 0;
    brush();
    bad |= save(dir, "brush");
    rubble();
    bad |= save(dir, "rubble");
    water();
    bad |= save(dir, "water");
    wall();
    bad |= save(dir, "wall");
    forest();
    bad |= save(dir, "forest");
    return bad;
}
