/* schedule_copy.h: a schedule of empty systems on a private copy of the library (ECS_SCHED_STATIC),
   compiled twice from schedule_copy.inc: once without ECS_SCHED_TRACE (untraced_copy.c),
   once with it (traced_copy.c). The trace_off row compares the two, built alike, in one
   process. */
#ifndef SCHEDULE_COPY_H
#define SCHEDULE_COPY_H

#include <stdint.h>

typedef struct schedule_copy schedule_copy;

/* A single-threaded world whose schedule "Update" holds `systems` empty systems, built. NULL
   on failure. */
schedule_copy *untraced_copy_create(int32_t systems);
/* Runs it `frames` times; 0 on failure. */
int untraced_copy_run(schedule_copy *c, int32_t frames);
void untraced_copy_destroy(schedule_copy *c);

schedule_copy *traced_copy_create(int32_t systems);
int traced_copy_run(schedule_copy *c, int32_t frames);
void traced_copy_destroy(schedule_copy *c);
/* The traced copy's trace: started on a buffer of `capacity` events (the last one's, when it
   was as large), and stopped; the stop returns the events dropped, or -1 on failure. */
int traced_copy_trace_start(schedule_copy *c, int32_t capacity);
int64_t traced_copy_trace_stop(schedule_copy *c);

#endif
