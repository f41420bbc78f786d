/* The implementation, compiled once per test configuration and linked into every test that
   does not set one of its hooks (those define ECS_SCHED_IMPLEMENTATION themselves). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"
