/* The implementation, compiled once per test configuration and linked into every test that
   does not set one of its hooks (those define ECS_SCHED_IMPLEMENTATION themselves).

   With ECS_SCHED_THREADS, the parallel executor is tuned here to spread every run and offer
   every ready system it can, however cheap: with the default tuning the small schedules of
   the tests would run on the calling thread, and the tests are there to see systems run at
   once. test_parallel_adaptive.c checks the default tuning itself. */
#define ECS_SCHED_PARALLEL_MIN_NS 0
#define ECS_SCHED_OFFER_MIN_NS 0
#define ECS_SCHED_WAKE_MIN_NS 0
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"
