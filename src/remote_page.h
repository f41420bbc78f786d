/* remote_page: the explorer, a web page the remote serves at "/" (GET): plain HTML, CSS and
   JavaScript that speak the remote protocol from the browser (the entity tree, components,
   resources, and what else the server's rpc.discover lists). Its source is
   src/remote_page.html; the generator writes it into the header, so that the header stays the
   only file a game needs. */
#pragma once
#include "base.h"

/*@@ implementation @@*/

#ifdef ECS_SCHED_REMOTE
/* The page, in pieces: C99 promises string literals of 4095 characters only. */
static const char *const ecs_sched__remote_page_pieces[] = {
    /*@@ embed remote_page.html @@*/
    NULL
};

/* The page joined in one buffer from malloc (the HTTP server frees it), its length in
   *length; NULL when out of memory. */
static char *ecs_sched__remote_page(size_t *length) {
    size_t n = 0, at = 0;
    int32_t i;
    char *page;
    for (i = 0; ecs_sched__remote_page_pieces[i]; i++) n += strlen(ecs_sched__remote_page_pieces[i]);
    page = (char *)malloc(n + 1);
    if (!page) return NULL;
    for (i = 0; ecs_sched__remote_page_pieces[i]; i++) {
        size_t piece = strlen(ecs_sched__remote_page_pieces[i]);
        memcpy(page + at, ecs_sched__remote_page_pieces[i], piece);
        at += piece;
    }
    page[n] = '\0';
    *length = n;
    return page;
}
#endif /* ECS_SCHED_REMOTE */
