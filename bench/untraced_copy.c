/* untraced_copy.c: the library as a program that does not define ECS_SCHED_TRACE has it. */
#undef ECS_SCHED_TRACE
#define COPY(name) untraced_copy_##name
#include "schedule_copy.inc"
