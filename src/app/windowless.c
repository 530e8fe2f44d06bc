/* windowless.c - the commands that draw with SDL, in a build without the
 * windows (HB_GUI=OFF; src/ui/ui_off.c): the bench, which measures drawing
 * among the rest, and the projector. Each says it is not in the build. */
#include <stdio.h>

#include "app.h"
#include "core/say.h"

static int not_built(const char *cmd)
{
    hb_eprintf("hexbattle: %s: this build of hexbattle has no windows (built with "
               "HB_GUI=OFF)\n",
               cmd);
    return 1;
}

int app_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_built("bench");
}

int app_project(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_built("project");
}
