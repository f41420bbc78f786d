/* A shared library that is no native script: it has no ecs_sched_native_script function. */
int no_entry_here(void);
int no_entry_here(void) { return 1; }
