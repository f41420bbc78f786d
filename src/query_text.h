/* query_text: queries written as text ("[in] Velocity, Position, !Frozen"), parsed into a
   query's terms and written back from them. Without relationships (ECS_SCHED_NO_RELATIONS)
   pairs and parent or cascade sources are refused, and a named entity is a root's name;
   without inheritance, inherited sources are refused. */
#pragma once
#include "scope.h"
#include "inherit.h"

/* ---- queries as text (see QUERIES AS TEXT) ---- */

/* Parses `text` into `desc` (its terms replaced, the rest zeroed). A mistake is
   ECS_SCHED_ERR_QUERY_SYNTAX (or ECS_SCHED_ERR_NOT_FOUND for a target no entity has, or
   ECS_SCHED_ERR_LIMIT past ECS_SCHED_MAX_TERMS terms), with a message that names the term and
   its column, quotes the text with a caret under the mistake and, for a misspelt component,
   the nearest registered name: "unknown component 'Veloctiy' at column 11, did you mean
   'Velocity'?". desc is left zeroed on failure. Whether the terms fit together (a component
   named twice, a filter on an untracked one...) is checked by ecs_sched_query_create. */
ECS_SCHED_API ecs_sched_result ecs_sched_query_parse(ecs_sched_world *world, const char *text,
                                                     ecs_sched_query_desc *desc);
/* ecs_sched_query_parse, then ecs_sched_query_create: the query, or NULL on failure (with
   the parser's or query_create's message). */
ECS_SCHED_API ecs_sched_query *ecs_sched_query_from_text(ecs_sched_world *world, const char *text);
/* Writes the query's terms as text that ecs_sched_query_parse reads back to the same terms,
   into out (at most capacity bytes with the terminating zero); returns the length of the
   whole text (snprintf's rule). A target that is not alive any more is written as its index
   ("#12"), which no longer parses. */
ECS_SCHED_API int32_t ecs_sched_query_text(const ecs_sched_query *query, char *out,
                                           int32_t capacity);

/*@@ implementation @@*/
/* query_text: a hand-written recursive descent over one term at a time; the parser resolves
   names as it goes, so that a mistake is reported where it is. It is installed as the
   queries' from_text hook (query.h), through which a system's .query_text is read. */

typedef enum ecs_sched__text_access {
    ECS_SCHED__TEXT_NONE,
    ECS_SCHED__TEXT_IN,
    ECS_SCHED__TEXT_OUT,
    ECS_SCHED__TEXT_ADDED,
    ECS_SCHED__TEXT_CHANGED,
    ECS_SCHED__TEXT_MANUAL
} ecs_sched__text_access;

typedef enum ecs_sched__text_source {
    ECS_SCHED__TEXT_SELF,
    ECS_SCHED__TEXT_PARENT,
    ECS_SCHED__TEXT_CASCADE,
    ECS_SCHED__TEXT_INHERITED,
    ECS_SCHED__TEXT_ENTITY,            /* Game:Config */
    ECS_SCHED__TEXT_RESOURCE           /* $Time */
} ecs_sched__text_source;

/* One term as written, before it becomes a term kind. */
typedef struct ecs_sched__text_term {
    ecs_sched__text_access access;
    char op;                           /* 0, '?' or '!' */
    ecs_sched__text_source source;
    bool pair;
    bool any_target;                   /* (K, *) */
    bool any_kind;                     /* (*, target) */
    ecs_sched_id id;
    ecs_sched_entity target;
    const char *start;                 /* where the term begins, for messages */
} ecs_sched__text_term;

typedef struct ecs_sched__query_parser {
    ecs_sched_world *w;
    const char *text;
    const char *at;
    int32_t term;                      /* the index of the term being read */
} ecs_sched__query_parser;

#define ECS_SCHED__NAME_MAX 256   /* the longest name or path a query names */

static bool ecs_sched__text_name_char(char c) {
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
           u == '_' || u == '.' || u == '#' || u >= 0x80;
}

static void ecs_sched__text_skip_space(ecs_sched__query_parser *p) {
    while (*p->at == ' ' || *p->at == '\t' || *p->at == '\n' || *p->at == '\r') p->at++;
}

/* Writes the line of the query around `at` and a caret under it into out. */
static void ecs_sched__text_caret(const char *text, const char *at, char *out, size_t size) {
    size_t column = (size_t)(at - text), length = strlen(text), from = 0, shown;
    const char *dots = "";
    if (column > 60) {
        from = column - 50;
        dots = "...";
    }
    shown = length - from;
    if (shown > 100) shown = 100;
    snprintf(out, size, "\n    %s%.*s\n    %*s^", dots, (int)shown, text + from,
             (int)(strlen(dots) + column - from), "");
}

static ecs_sched_result ecs_sched__text_error(ecs_sched__query_parser *p, ecs_sched_result code,
                                             const char *at, const char *fmt, ...)
    ECS_SCHED__PRINTF(4, 5);
static ecs_sched_result ecs_sched__text_error(ecs_sched__query_parser *p, ecs_sched_result code,
                                             const char *at, const char *fmt, ...) {
    char what[256], caret[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    ecs_sched__text_caret(p->text, at, caret, sizeof caret);
    return ecs_sched__fail(&p->w->env, code, "query_parse: term %d: %s%s", (int)p->term, what,
                           caret);
}

/* Reads a name or a path (backslash escapes kept, for lookup_path) into raw, and the name
   without them into plain. False when there is none at the cursor. */
static bool ecs_sched__text_read_name(ecs_sched__query_parser *p, char *raw, char *plain) {
    size_t r = 0, n = 0;
    while (*p->at) {
        char c = *p->at;
        if (c == '\\' && p->at[1]) {
            if (r + 2 >= ECS_SCHED__NAME_MAX) break;
            raw[r++] = c;
            raw[r++] = p->at[1];
            plain[n++] = p->at[1];
            p->at += 2;
            continue;
        }
        if (!ecs_sched__text_name_char(c) || r + 1 >= ECS_SCHED__NAME_MAX) break;
        raw[r++] = plain[n++] = c;
        p->at++;
    }
    raw[r] = plain[n] = '\0';
    return r > 0;
}

static char ecs_sched__text_lower(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The edit distance between a and b (a change of case costs nothing), or INT32_MAX for
   names too long to compare. */
static int32_t ecs_sched__text_distance(const char *a, const char *b) {
    int32_t row[65], la = (int32_t)strlen(a), lb = (int32_t)strlen(b), i, j;
    if (lb > 64 || la > 64) return INT32_MAX;
    for (j = 0; j <= lb; j++) row[j] = j;
    for (i = 1; i <= la; i++) {
        int32_t diagonal = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            int32_t above = row[j], best = diagonal +
                (ecs_sched__text_lower(a[i - 1]) != ecs_sched__text_lower(b[j - 1]));
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diagonal = above;
            row[j] = best;
        }
    }
    return row[lb];
}

/* The registered component whose name is nearest to `name`, if near enough to be a slip
   (a third of the name's letters), or NULL. */
static const char *ecs_sched__text_nearest(const ecs_sched_world *w, const char *name) {
    const char *best = NULL;
    int32_t best_distance = (int32_t)strlen(name) / 3 + 1;
    uint32_t i;
    for (i = 1; i < w->component_count; i++) {
        const char *candidate = w->components[i].name;
        int32_t d;
        if (!candidate) continue;
        d = ecs_sched__text_distance(name, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

#define ECS_SCHED__OWN_PREFIX "ecs_sched."   /* the library's own components' names */

/* A component by name: in the current scope first ("physics.RigidBody" for "RigidBody"
   inside the physics module), then as written; the library's own (ecs_sched.ChildOf...)
   also by their short names, unless a component of the user's has that name. */
static ecs_sched_id ecs_sched__text_lookup_component(const ecs_sched_world *w, const char *name) {
    char own[ECS_SCHED__NAME_MAX + sizeof ECS_SCHED__OWN_PREFIX];
    ecs_sched_id id;
#ifndef ECS_SCHED_NO_RELATIONS
    if (ecs_sched_get_scope(w) && w->hooks.scoped_name &&
        w->hooks.scoped_name(w, name, own, sizeof own) &&
        (id = ecs_sched_component_lookup(w, own)) != 0) {
        return id;
    }
#endif
    id = ecs_sched_component_lookup(w, name);
    if (id) return id;
    snprintf(own, sizeof own, "%s%s", ECS_SCHED__OWN_PREFIX, name);
    return ecs_sched_component_lookup(w, own);
}

/* The short name of one of the library's own components, when it names it. */
static const char *ecs_sched__text_short_name(const ecs_sched_world *w, const char *name) {
    size_t prefix = sizeof ECS_SCHED__OWN_PREFIX - 1;
    if (strncmp(name, ECS_SCHED__OWN_PREFIX, prefix) != 0) return name;
    return ecs_sched_component_lookup(w, name + prefix) ? name : name + prefix;
}

static ecs_sched_result ecs_sched__text_component(ecs_sched__query_parser *p, ecs_sched_id *id) {
    char raw[ECS_SCHED__NAME_MAX], plain[ECS_SCHED__NAME_MAX];
    const char *start = p->at, *nearest;
    if (!ecs_sched__text_read_name(p, raw, plain)) {
        if (!*p->at) {
            return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, p->at,
                                         "the text ends where a component's name was expected");
        }
        return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, p->at,
                                     "'%c' at column %d where a component's name was expected",
                                     *p->at, (int)(p->at - p->text) + 1);
    }
    *id = ecs_sched__text_lookup_component(p->w, plain);
    if (*id) return ECS_SCHED_OK;
    nearest = ecs_sched__text_nearest(p->w, plain);
    if (nearest) {
        return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, start,
                                     "unknown component '%s' at column %d, did you mean '%s'?",
                                     plain, (int)(start - p->text) + 1, nearest);
    }
    return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, start,
                                 "unknown component '%s' at column %d (no registered component "
                                 "has that name)", plain, (int)(start - p->text) + 1);
}

static ecs_sched_result ecs_sched__text_expect(ecs_sched__query_parser *p, char c,
                                              const char *where) {
    ecs_sched__text_skip_space(p);
    if (*p->at == c) {
        p->at++;
        return ECS_SCHED_OK;
    }
    if (!*p->at) {
        return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, p->at,
                                     "the text ends where '%c' %s was expected", c, where);
    }
    return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, p->at,
                                 "'%c' at column %d where '%c' %s was expected", *p->at,
                                 (int)(p->at - p->text) + 1, c, where);
}

static ecs_sched_result ecs_sched__text_access_of(ecs_sched__query_parser *p,
                                                 ecs_sched__text_term *t) {
    static const struct {
        const char *word;
        ecs_sched__text_access access;
    } words[] = {{"in", ECS_SCHED__TEXT_IN},         {"out", ECS_SCHED__TEXT_OUT},
                 {"inout", ECS_SCHED__TEXT_OUT},     {"added", ECS_SCHED__TEXT_ADDED},
                 {"changed", ECS_SCHED__TEXT_CHANGED}, {"manual", ECS_SCHED__TEXT_MANUAL}};
    const char *start;
    size_t length, i;
    p->at++;
    ecs_sched__text_skip_space(p);
    start = p->at;
    while (*p->at >= 'a' && *p->at <= 'z') p->at++;
    length = (size_t)(p->at - start);
    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strlen(words[i].word) == length && memcmp(words[i].word, start, length) == 0) {
            t->access = words[i].access;
            return ecs_sched__text_expect(p, ']', "closing the access");
        }
    }
    return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, start,
                                 "unknown access '[%.*s]' at column %d: one of [in], [out], "
                                 "[inout], [added], [changed], [manual]", (int)length, start,
                                 (int)(start - p->text) + 1);
}

/* The entity a path from the roots names (raw: with its escapes; plain: without). */
static ecs_sched_entity ecs_sched__text_lookup_entity(ecs_sched__query_parser *p, const char *raw,
                                                      const char *plain) {
#ifndef ECS_SCHED_NO_RELATIONS
    (void)plain;
    return ecs_sched_resolve(p->w, raw);   /* from the current scope up, then the roots */
#else
    (void)raw;
    return ecs_sched_lookup(p->w, ECS_SCHED_NULL_ENTITY, plain);
#endif
}

static ecs_sched_result ecs_sched__text_entity(ecs_sched__query_parser *p, const char *start,
                                              const char *raw, const char *plain,
                                              ecs_sched_entity *entity) {
    *entity = ecs_sched__text_lookup_entity(p, raw, plain);
    if (*entity) return ECS_SCHED_OK;
    return ecs_sched__text_error(p, ECS_SCHED_ERR_NOT_FOUND, start,
                                 "no entity has the path '%s' (at column %d)", raw,
                                 (int)(start - p->text) + 1);
}

/* The entity a pair's target names: a path from the roots. */
static ecs_sched_result ecs_sched__text_target(ecs_sched__query_parser *p,
                                              ecs_sched__text_term *t) {
    char raw[ECS_SCHED__NAME_MAX], plain[ECS_SCHED__NAME_MAX];
    const char *start;
    ecs_sched__text_skip_space(p);
    start = p->at;
    if (*p->at == '*') {
        p->at++;
        t->any_target = true;
        return ECS_SCHED_OK;
    }
    if (!ecs_sched__text_read_name(p, raw, plain)) {
        return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, p->at,
                                     "a pair's target (an entity's path, or *) was expected "
                                     "at column %d", (int)(p->at - p->text) + 1);
    }
    return ecs_sched__text_entity(p, start, raw, plain, &t->target);
}

static ecs_sched_result ecs_sched__text_pair(ecs_sched__query_parser *p, ecs_sched__text_term *t) {
    ecs_sched_result result;
    p->at++;
    t->pair = true;
    ecs_sched__text_skip_space(p);
#ifndef ECS_SCHED_NO_RELATIONS
    if (*p->at == '*') {   /* (*, target): every kind */
        p->at++;
        t->any_kind = true;
        t->id = ecs_sched_wildcard(p->w);
        result = t->id ? ECS_SCHED_OK : p->w->env.last_result;
    } else
#endif
    result = ecs_sched__text_component(p, &t->id);
    if (result == ECS_SCHED_OK) result = ecs_sched__text_expect(p, ',', "between a pair's kind and target");
    if (result == ECS_SCHED_OK) result = ecs_sched__text_target(p, t);
    if (result == ECS_SCHED_OK) result = ecs_sched__text_expect(p, ')', "closing the pair");
    return result;
}

/* A word before ':' is a source: parent, cascade, inherited, or else an entity's path. */
static ecs_sched_result ecs_sched__text_source_of(ecs_sched__query_parser *p, const char *start,
                                                 size_t length, const char *raw,
                                                 const char *plain, ecs_sched__text_term *t) {
    static const struct {
        const char *word;
        ecs_sched__text_source source;
    } words[] = {{"parent", ECS_SCHED__TEXT_PARENT},
                 {"cascade", ECS_SCHED__TEXT_CASCADE},
                 {"inherited", ECS_SCHED__TEXT_INHERITED}};
    size_t i;
    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strlen(words[i].word) == length && memcmp(words[i].word, start, length) == 0) {
            t->source = words[i].source;
            return ECS_SCHED_OK;
        }
    }
    t->source = ECS_SCHED__TEXT_ENTITY;
    if (length == 0) {
        return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, start,
                                     "a source was expected before the ':' at column %d",
                                     (int)(start - p->text) + 1);
    }
    t->target = ecs_sched__text_lookup_entity(p, raw, plain);
    if (t->target) return ECS_SCHED_OK;
    return ecs_sched__text_error(p, ECS_SCHED_ERR_NOT_FOUND, start,
                                 "unknown source '%.*s:' at column %d: neither parent:, "
                                 "cascade:, inherited: nor the path of an entity", (int)length,
                                 start, (int)(start - p->text) + 1);
}

/* The component, or a source and then the component. */
static ecs_sched_result ecs_sched__text_subject(ecs_sched__query_parser *p,
                                               ecs_sched__text_term *t) {
    const char *start = p->at, *after;
    char raw[ECS_SCHED__NAME_MAX], plain[ECS_SCHED__NAME_MAX];
    ecs_sched_result result;
    if (*p->at == '(') return ecs_sched__text_pair(p, t);
    if (*p->at == '$') {
        p->at++;
        t->source = ECS_SCHED__TEXT_RESOURCE;
        ecs_sched__text_skip_space(p);
        return ecs_sched__text_component(p, &t->id);
    }
    ecs_sched__text_read_name(p, raw, plain);
    after = p->at;
    ecs_sched__text_skip_space(p);
    if (*p->at != ':') {
        p->at = start;
        return ecs_sched__text_component(p, &t->id);
    }
    result = ecs_sched__text_source_of(p, start, (size_t)(after - start), raw, plain, t);
    if (result != ECS_SCHED_OK) return result;
    p->at++;
    ecs_sched__text_skip_space(p);
    return ecs_sched__text_component(p, &t->id);
}

static ecs_sched_result ecs_sched__text_read_term(ecs_sched__query_parser *p,
                                                 ecs_sched__text_term *t) {
    ecs_sched_result result;
    memset(t, 0, sizeof *t);
    ecs_sched__text_skip_space(p);
    t->start = p->at;
    if (*p->at == '[') {
        result = ecs_sched__text_access_of(p, t);
        if (result != ECS_SCHED_OK) return result;
        ecs_sched__text_skip_space(p);
    }
    if (*p->at == '!' || *p->at == '?') {
        t->op = *p->at++;
        ecs_sched__text_skip_space(p);
    }
    return ecs_sched__text_subject(p, t);
}

/* Whether a term without an access reads (tags and relationships: there is nothing to write
   but a payload) rather than writes. */
static bool ecs_sched__text_reads_by_default(const ecs_sched_world *w, ecs_sched_id id) {
    const ecs_sched__component *c = &w->components[id];
    return c->size == 0 || c->relation != 0;
}

static ecs_sched_result ecs_sched__text_refuse(ecs_sched__query_parser *p,
                                              const ecs_sched__text_term *t, const char *why) {
    return ecs_sched__text_error(p, ECS_SCHED_ERR_QUERY_SYNTAX, t->start, "%s (the term at "
                                 "column %d)", why, (int)(t->start - p->text) + 1);
}

static ecs_sched_result ecs_sched__text_kind_of_resource(ecs_sched__query_parser *p,
                                                        const ecs_sched__text_term *t,
                                                        ecs_sched_term_kind *kind) {
    bool writes;
    if (t->op) return ecs_sched__text_refuse(p, t, "a resource term ($) is required: leave out the ! or ?");
    if (t->access >= ECS_SCHED__TEXT_ADDED) {
        return ecs_sched__text_refuse(p, t, "a resource term ($) is read or written: [in], [out] "
                                            "or [inout]");
    }
    writes = t->access == ECS_SCHED__TEXT_OUT ||
             (t->access == ECS_SCHED__TEXT_NONE && !ecs_sched__text_reads_by_default(p->w, t->id));
    *kind = writes ? ECS_SCHED_TERM_RESOURCE_WRITE : ECS_SCHED_TERM_RESOURCE;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__text_kind_from_source(ecs_sched__query_parser *p,
                                                        const ecs_sched__text_term *t,
                                                        ecs_sched_term_kind *kind) {
    if (t->source == ECS_SCHED__TEXT_RESOURCE) return ecs_sched__text_kind_of_resource(p, t, kind);
    if (t->access != ECS_SCHED__TEXT_NONE && t->access != ECS_SCHED__TEXT_IN) {
        return ecs_sched__text_refuse(p, t, "a term with a source is read only: [in] or no access");
    }
    if (t->op == '!') return ecs_sched__text_refuse(p, t, "a term with a source cannot be a not (!)");
    if (t->source == ECS_SCHED__TEXT_ENTITY) {
        if (t->op == '?') return ecs_sched__text_refuse(p, t, "a term from an entity cannot be optional");
        *kind = ECS_SCHED_TERM_FROM_ENTITY;
        return ECS_SCHED_OK;
    }
#ifdef ECS_SCHED_NO_RELATIONS
    if (t->source != ECS_SCHED__TEXT_INHERITED) {
        return ecs_sched__text_refuse(p, t, "parent: and cascade: need relationships, which this "
                                            "build leaves out (ECS_SCHED_NO_RELATIONS)");
    }
#endif
    switch (t->source) {
    case ECS_SCHED__TEXT_SELF:       /* (not a source: see ecs_sched__text_kind) */
    case ECS_SCHED__TEXT_ENTITY:     /* (handled above) */
    case ECS_SCHED__TEXT_RESOURCE:
        break;
    case ECS_SCHED__TEXT_PARENT:
        *kind = t->op == '?' ? ECS_SCHED_TERM_OPTIONAL_FROM_PARENT : ECS_SCHED_TERM_FROM_PARENT;
        return ECS_SCHED_OK;
    case ECS_SCHED__TEXT_CASCADE:
        if (t->op == '?') return ecs_sched__text_refuse(p, t, "cascade: is optional already: leave out the ?");
        *kind = ECS_SCHED_TERM_CASCADE;
        return ECS_SCHED_OK;
    case ECS_SCHED__TEXT_INHERITED:
#ifdef ECS_SCHED_NO_INHERITANCE
        return ecs_sched__text_refuse(p, t, "inherited: needs inheritance, which this build leaves "
                                            "out (ECS_SCHED_NO_INHERITANCE)");
#else
        if (t->op == '?') return ecs_sched__text_refuse(p, t, "inherited: cannot be optional");
        *kind = ECS_SCHED_TERM_INHERITED;
        return ECS_SCHED_OK;
#endif
    }
    return ecs_sched__text_refuse(p, t, "a source this parser does not know");
}

static ecs_sched_result ecs_sched__text_kind_of_filter(ecs_sched__query_parser *p,
                                                      const ecs_sched__text_term *t,
                                                      ecs_sched_term_kind *kind) {
    if (t->op) {
        return ecs_sched__text_refuse(p, t, "[added], [changed] and [manual] terms are required: "
                                            "leave out the ! or ?");
    }
    *kind = t->access == ECS_SCHED__TEXT_ADDED     ? ECS_SCHED_TERM_ADDED
            : t->access == ECS_SCHED__TEXT_CHANGED ? ECS_SCHED_TERM_CHANGED
                                                   : ECS_SCHED_TERM_WRITE_MANUAL;
    return ECS_SCHED_OK;
}

/* The term kind that the access, operator, source and pair of a term written as text mean. */
static ecs_sched_result ecs_sched__text_kind(ecs_sched__query_parser *p,
                                            const ecs_sched__text_term *t,
                                            ecs_sched_term_kind *kind) {
    bool writes;
    if (t->source != ECS_SCHED__TEXT_SELF) return ecs_sched__text_kind_from_source(p, t, kind);
    if (t->any_kind) {
        if (t->any_target || t->op || (t->access != ECS_SCHED__TEXT_NONE &&
                                       t->access != ECS_SCHED__TEXT_IN)) {
            return ecs_sched__text_refuse(p, t, "(*, target) is every kind to one target, required "
                                                "and read: no (*, *), no access but [in], no ! or ?");
        }
#ifndef ECS_SCHED_NO_RELATIONS
        *kind = ECS_SCHED_TERM_EACH_KIND;
        return ECS_SCHED_OK;
#endif
    }
    if (t->pair && !t->any_target) {
        if (t->op || (t->access != ECS_SCHED__TEXT_NONE && t->access != ECS_SCHED__TEXT_IN)) {
            return ecs_sched__text_refuse(p, t, "a pair with a target is required and read: no "
                                                "access but [in], no ! or ?");
        }
#ifdef ECS_SCHED_NO_RELATIONS
        return ecs_sched__text_refuse(p, t, "pairs need relationships, which this build leaves "
                                            "out (ECS_SCHED_NO_RELATIONS)");
#else
        *kind = ECS_SCHED_TERM_RELATED;
        return ECS_SCHED_OK;
#endif
    }
    if (t->pair && !t->op && t->access != ECS_SCHED__TEXT_ADDED &&
        t->access != ECS_SCHED__TEXT_CHANGED && t->access != ECS_SCHED__TEXT_MANUAL) {
        if (t->access == ECS_SCHED__TEXT_OUT) {
            return ecs_sched__text_refuse(p, t, "(K, *) hands out each target, read only; to write "
                                                "the payload of the first target, write [inout] K");
        }
#ifndef ECS_SCHED_NO_RELATIONS
        *kind = ECS_SCHED_TERM_EACH_TARGET;
        return ECS_SCHED_OK;
#endif
    }
    if (t->op == '!') {
        if (t->access != ECS_SCHED__TEXT_NONE) {
            return ecs_sched__text_refuse(p, t, "a not term (!) has no access: it hands out no value");
        }
        *kind = ECS_SCHED_TERM_WITHOUT;
        return ECS_SCHED_OK;
    }
    if (t->access >= ECS_SCHED__TEXT_ADDED) return ecs_sched__text_kind_of_filter(p, t, kind);
    writes = t->access == ECS_SCHED__TEXT_OUT ||
             (t->access == ECS_SCHED__TEXT_NONE && !ecs_sched__text_reads_by_default(p->w, t->id));
    if (t->op == '?') {
        *kind = writes ? ECS_SCHED_TERM_OPTIONAL_WRITE : ECS_SCHED_TERM_OPTIONAL_READ;
    } else {
        *kind = writes ? ECS_SCHED_TERM_WRITE : ECS_SCHED_TERM_READ;
    }
    return ECS_SCHED_OK;
}

/* An alternative ("|| Speed") is read or written on the entity: the kind of its access. */
static ecs_sched_result ecs_sched__text_alternative(ecs_sched__query_parser *p,
                                                   const ecs_sched__text_term *t,
                                                   ecs_sched_term_kind *kind) {
    ecs_sched_result result;
    if (t->op || t->source != ECS_SCHED__TEXT_SELF || (t->pair && !t->any_target) ||
        t->access >= ECS_SCHED__TEXT_ADDED) {
        return ecs_sched__text_refuse(p, t, "an alternative (after ||) is a component read or "
                                            "written on the entity: no ! or ?, no source, no "
                                            "[added], [changed] or [manual], no pair's target");
    }
    result = ecs_sched__text_kind(p, t, kind);
    *kind = *kind == ECS_SCHED_TERM_WRITE ? ECS_SCHED_TERM_OR_WRITE : ECS_SCHED_TERM_OR_READ;
    return result;
}

/* Whether the cursor is at "||", which it then passes. */
static bool ecs_sched__text_or(ecs_sched__query_parser *p) {
    ecs_sched__text_skip_space(p);
    if (p->at[0] != '|' || p->at[1] != '|') return false;
    p->at += 2;
    return true;
}

static ecs_sched_result ecs_sched__text_parse_terms(ecs_sched__query_parser *p,
                                                   ecs_sched_query_desc *desc) {
    bool alternative = false;
    for (;;) {
        ecs_sched__text_term t;
        ecs_sched_term_kind kind = ECS_SCHED_TERM_DEFAULT;
        ecs_sched_result result = ecs_sched__text_read_term(p, &t);
        if (result == ECS_SCHED_OK) {
            result = alternative ? ecs_sched__text_alternative(p, &t, &kind)
                                 : ecs_sched__text_kind(p, &t, &kind);
        }
        if (result != ECS_SCHED_OK) return result;
        if (p->term >= ECS_SCHED_MAX_TERMS) {
            return ecs_sched__text_error(p, ECS_SCHED_ERR_LIMIT, t.start,
                                         "a query has at most %d terms (ECS_SCHED_MAX_TERMS)",
                                         (int)ECS_SCHED_MAX_TERMS);
        }
        desc->terms[p->term].id = t.id;
        desc->terms[p->term].kind = kind;
        desc->terms[p->term].target = t.target;
        alternative = ecs_sched__text_or(p);
        if (alternative && kind != ECS_SCHED_TERM_READ && kind != ECS_SCHED_TERM_WRITE &&
            kind != ECS_SCHED_TERM_OR_READ && kind != ECS_SCHED_TERM_OR_WRITE) {
            return ecs_sched__text_refuse(p, &t, "only a required term read or written on the "
                                                 "entity has alternatives (||)");
        }
        if (alternative) {
            p->term++;
            continue;
        }
        if (!*p->at) return ECS_SCHED_OK;
        result = ecs_sched__text_expect(p, ',', "between terms");
        if (result != ECS_SCHED_OK) return result;
        p->term++;
    }
}

ecs_sched_result ecs_sched_query_parse(ecs_sched_world *w, const char *text,
                                       ecs_sched_query_desc *desc) {
    ecs_sched__query_parser p;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !text) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "query_parse: %s is NULL", desc ? "text" : "desc");
    }
    memset(desc, 0, sizeof *desc);
    p.w = w;
    p.text = p.at = text;
    p.term = 0;
    ecs_sched__text_skip_space(&p);
    if (!*p.at) {
        return ecs_sched__text_error(&p, ECS_SCHED_ERR_QUERY_SYNTAX, p.at,
                                     "the query is empty: name at least one component");
    }
    result = ecs_sched__text_parse_terms(&p, desc);
    if (result != ECS_SCHED_OK) memset(desc, 0, sizeof *desc);
    return result;
}

ecs_sched_query *ecs_sched_query_from_text(ecs_sched_world *w, const char *text) {
    ecs_sched_query_desc desc;
    if (ecs_sched_query_parse(w, text, &desc) != ECS_SCHED_OK) return NULL;
    return ecs_sched_query_create(w, &desc);
}

/* The queries' from_text hook (query.h): the way a system's .query_text reaches the
   parser. */
static ecs_sched_result ecs_sched__query_from_text(ecs_sched_world *w, const char *text,
                                                  ecs_sched_query_desc *desc) {
    return ecs_sched_query_parse(w, text, desc);
}

/* ---- writing a query as text ---- */

typedef struct ecs_sched__text_out {
    char *out;
    int32_t capacity;
    int32_t length;                    /* of the whole text, written or not */
} ecs_sched__text_out;

static void ecs_sched__text_put(ecs_sched__text_out *o, char c) {
    if (o->length + 1 < o->capacity) o->out[o->length] = c;
    o->length++;
}

static void ecs_sched__text_puts(ecs_sched__text_out *o, const char *s) {
    while (*s) ecs_sched__text_put(o, *s++);
}

/* A component's name, with a backslash before each character the parser would not take as
   part of a name. */
static void ecs_sched__text_put_name(ecs_sched__text_out *o, const char *name) {
    for (; *name; name++) {
        if (!ecs_sched__text_name_char(*name)) ecs_sched__text_put(o, '\\');
        ecs_sched__text_put(o, *name);
    }
}

/* An entity's path, whose own escapes (ecs_sched_path) are kept, with a backslash before
   the other characters the parser would not take as part of a name. */
static void ecs_sched__text_put_target(ecs_sched__text_out *o, const ecs_sched_world *w,
                                       ecs_sched_entity target) {
    char path[ECS_SCHED__NAME_MAX];
    const char *s;
#ifndef ECS_SCHED_NO_RELATIONS
    int32_t length = ecs_sched_path(w, target, NULL, path, (int32_t)sizeof path);
    if (length < 0) snprintf(path, sizeof path, "#%u", (unsigned)(uint32_t)target);
#else
    const char *name = ecs_sched_name(w, target);
    if (name) {
        snprintf(path, sizeof path, "%s", name);
    } else {
        snprintf(path, sizeof path, "#%u", (unsigned)(uint32_t)target);
    }
#endif
    for (s = path; *s; s++) {
        if (*s == '\\' && s[1]) {
            ecs_sched__text_put(o, *s++);
        } else if (!ecs_sched__text_name_char(*s)) {
            ecs_sched__text_put(o, '\\');
        }
        ecs_sched__text_put(o, *s);
    }
}

static const char *ecs_sched__text_prefix(const ecs_sched_world *w, const ecs_sched_term *t) {
    bool reads = ecs_sched__text_reads_by_default(w, t->id);
    switch (t->kind) {
    case ECS_SCHED_TERM_READ: return reads ? "" : "[in] ";
    case ECS_SCHED_TERM_WRITE: return reads ? "[inout] " : "";
    case ECS_SCHED_TERM_OPTIONAL_READ: return reads ? "?" : "[in] ?";
    case ECS_SCHED_TERM_OPTIONAL_WRITE: return reads ? "[inout] ?" : "?";
    case ECS_SCHED_TERM_WITHOUT: return "!";
    case ECS_SCHED_TERM_ADDED: return "[added] ";
    case ECS_SCHED_TERM_CHANGED: return "[changed] ";
    case ECS_SCHED_TERM_WRITE_MANUAL: return "[manual] ";
    case ECS_SCHED_TERM_FROM_PARENT: return "parent:";
    case ECS_SCHED_TERM_OPTIONAL_FROM_PARENT: return "?parent:";
    case ECS_SCHED_TERM_CASCADE: return "cascade:";
    case ECS_SCHED_TERM_INHERITED: return "inherited:";
    case ECS_SCHED_TERM_RESOURCE: return reads ? "$" : "[in] $";
    case ECS_SCHED_TERM_RESOURCE_WRITE: return reads ? "[inout] $" : "$";
    case ECS_SCHED_TERM_OR_READ: return reads ? "" : "[in] ";
    case ECS_SCHED_TERM_OR_WRITE: return reads ? "[inout] " : "";
    case ECS_SCHED_TERM_DEFAULT:      /* (made READ by query_create) */
    case ECS_SCHED_TERM_RELATED:      /* the pair says it all */
    case ECS_SCHED_TERM_FROM_ENTITY:  /* the path before the name */
    case ECS_SCHED_TERM_EACH_TARGET:
    case ECS_SCHED_TERM_EACH_KIND:
        return "";
    }
    return "";
}

static void ecs_sched__text_put_term(ecs_sched__text_out *o, const ecs_sched_world *w,
                                     const ecs_sched_term *t) {
    const char *name = ecs_sched__text_short_name(w, w->components[t->id].name);
    bool pair = t->kind == ECS_SCHED_TERM_RELATED || t->kind == ECS_SCHED_TERM_EACH_TARGET ||
                t->kind == ECS_SCHED_TERM_EACH_KIND;
    ecs_sched__text_puts(o, ecs_sched__text_prefix(w, t));
    if (t->kind == ECS_SCHED_TERM_FROM_ENTITY) {
        ecs_sched__text_put_target(o, w, t->target);
        ecs_sched__text_put(o, ':');
    }
    if (!pair) {
        ecs_sched__text_put_name(o, name);
        return;
    }
    ecs_sched__text_put(o, '(');
    if (t->kind == ECS_SCHED_TERM_EACH_KIND) {
        ecs_sched__text_put(o, '*');
    } else {
        ecs_sched__text_put_name(o, name);
    }
    ecs_sched__text_puts(o, ", ");
    if (t->kind == ECS_SCHED_TERM_RELATED || t->kind == ECS_SCHED_TERM_EACH_KIND) {
        ecs_sched__text_put_target(o, w, t->target);
    } else {
        ecs_sched__text_put(o, '*');
    }
    ecs_sched__text_put(o, ')');
}

int32_t ecs_sched_query_text(const ecs_sched_query *q, char *out, int32_t capacity) {
    ecs_sched__text_out o;
    int32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    o.out = out;
    o.capacity = out ? capacity : 0;
    o.length = 0;
    for (i = 0; i < q->term_count; i++) {
        if (i) {
            bool alternative = q->terms[i].kind == ECS_SCHED_TERM_OR_READ ||
                               q->terms[i].kind == ECS_SCHED_TERM_OR_WRITE;
            ecs_sched__text_puts(&o, alternative ? " || " : ", ");
        }
        ecs_sched__text_put_term(&o, q->world, &q->terms[i]);
    }
    if (o.capacity > 0) o.out[o.length < o.capacity ? o.length : o.capacity - 1] = '\0';
    return o.length;
}
