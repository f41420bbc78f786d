/* ecs_sched.h - doc block placeholder */
