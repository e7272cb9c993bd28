/* Shared harness for the litmus tests.
 *
 * Each test runs two threads through many iterations.  The threads meet at a
 * barrier built from C11 atomics before and after every iteration, so the
 * harness itself is correct under any compiler; only the test bodies use
 * plain variables.  An alarm bounds every run: a spin loop that the compiler
 * turned into an infinite loop is reported as a hang, never waited out.
 *
 * Output: one line "RESULT <name> nonsc=<count> runs=<iterations>", or
 * "RESULT <name> hang" with exit status 3.
 */
#ifndef LITMUS_H
#define LITMUS_H

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *litmus_name = "?";

static void litmus_on_alarm(int sig) {
  (void)sig;
  static const char pre[] = "RESULT ";
  static const char post[] = " hang\n";
  /* Only async-signal-safe calls here. */
  ssize_t r = write(1, pre, sizeof pre - 1);
  r = write(1, litmus_name, strlen(litmus_name));
  r = write(1, post, sizeof post - 1);
  (void)r;
  _exit(3);
}

/* Usage: <test> [iterations] [timeout-seconds] */
static long litmus_setup(const char *name, int argc, char **argv,
                         long default_iters) {
  litmus_name = name;
  long iters = argc > 1 ? atol(argv[1]) : default_iters;
  unsigned secs = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
  signal(SIGALRM, litmus_on_alarm);
  alarm(secs);
  return iters;
}

static void litmus_report(long nonsc, long runs) {
  alarm(0);
  printf("RESULT %s nonsc=%ld runs=%ld\n", litmus_name, nonsc, runs);
}

/* Sense-reversing barrier for two threads.  Yields when the partner is not
 * running, which matters on a machine with as few cores as threads. */
static _Atomic int litmus_bar_count;
static _Atomic int litmus_bar_sense;

static inline int litmus_barrier(int sense) {
  sense = !sense;
  if (atomic_fetch_add(&litmus_bar_count, 1) == 1) {
    atomic_store(&litmus_bar_count, 0);
    atomic_store(&litmus_bar_sense, sense);
  } else {
    unsigned spins = 0;
    while (atomic_load(&litmus_bar_sense) != sense)
      if (++spins % 4096 == 0)
        sched_yield();
  }
  return sense;
}

static void litmus_run2(void *(*t0)(void *), void *(*t1)(void *)) {
  pthread_t a, b;
  if (pthread_create(&a, NULL, t0, NULL) || pthread_create(&b, NULL, t1, NULL)) {
    perror("pthread_create");
    exit(2);
  }
  pthread_join(a, NULL);
  pthread_join(b, NULL);
}

#endif
