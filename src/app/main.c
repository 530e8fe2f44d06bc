/* main.c - placeholder until the command line lands. */
#include <stdio.h>
int main(void) { puts("hexbattle"); return 0; }
