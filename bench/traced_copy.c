/* traced_copy.c: the library with ECS_SCHED_TRACE, nothing watching. */
#ifndef ECS_SCHED_TRACE
#define ECS_SCHED_TRACE
#endif
#define COPY(name) traced_copy_##name
#include "schedule_copy.inc"
