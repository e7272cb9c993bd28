/* The critical section the mutual-exclusion tests (dekker.c, peterson.c)
 * guard, on plain variables: two threads inside at once, or an increment
 * lost, is an outcome SC forbids. */
#ifndef LITMUS_MUTEX_H
#define LITMUS_MUTEX_H

#include "litmus.h"

int inside;
long counter;
static long violations;

static void critical(void) {
  if (inside)
    violations++;
  inside = 1;
  counter++;
  inside = 0;
}

/* Each of two threads entered `iters` times. */
static void mutex_report(long iters) {
  long lost = 2 * iters - counter;
  litmus_report(violations + (lost > 0 ? lost : 0), iters);
}

#endif
