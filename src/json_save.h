/* json_save: entities written as JSON (the format json_load reads), and, for the remote
   protocol, a value alone to and from JSON. */
#pragma once
#include "json_load.h"

#ifdef ECS_SCHED_JSON

/* Writes entities as JSON: `entities` (NULL: every entity of the world) and, when
   `descendants`, their descendants. Returns text to free with ecs_sched_json_free, or NULL
   (a component without a description, a relationship to an entity not written). */
ECS_SCHED_API char *ecs_sched_json_save(ecs_sched_world *world, int32_t count,
                                        const ecs_sched_entity *entities, bool descendants);
ECS_SCHED_API void ecs_sched_json_free(char *text);

#endif /* ECS_SCHED_JSON */

/*@@ implementation @@*/
/* json_save: what is written is read back as it was: entity members as indices of the
   file's entities (or handles, for values alone). */
#ifdef ECS_SCHED_JSON

/* ---- saving ---- */

typedef struct ecs_sched__json_save {
    ecs_sched_world *world;
    ecs_sched_entity *order;        /* the entities written, in order */
    int32_t count;
    uint32_t capacity;
    int32_t *entry_of;              /* by entity index: its place in order, or -1 */
    bool handles;                   /* entity members written as handles, not as indices of
                                       the entities written (ecs_sched__json_value_write) */
} ecs_sched__json_save;

static bool ecs_sched__save_add(ecs_sched__json_save *s, ecs_sched_entity e, bool descendants) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched_entity *children;
    int32_t n, i;
    if (s->entry_of[index] >= 0) return true;
    if (!ECS_SCHED__GROW(&s->world->env, s->order, &s->capacity, (uint32_t)s->count + 1)) return false;
    s->entry_of[index] = s->count;
    s->order[s->count++] = e;
    if (!descendants) return true;
    children = ecs_sched_children(s->world, e, &n);
    for (i = 0; i < n; i++) {
        if (!ecs_sched__save_add(s, children[i], true)) return false;
    }
    return true;
}

static cJSON *ecs_sched__json_of_struct(ecs_sched__json_save *s, ecs_sched_id type,
                                        const unsigned char *value);

/* The largest integer written as a JSON number. cJSON writes 15 significant digits when they
   read back as nearly the same double (within an epsilon): an integer of 16 digits may come
   out a few units off. Longer ones are written as strings of digits, which every 64-bit and
   entity member reads. */
#define ECS_SCHED__JSON_EXACT INT64_C(999999999999999)

/* A handle as JSON: null for none, a number up to 15 digits, a string of digits beyond. */
static cJSON *ecs_sched__json_of_handle(ecs_sched_entity e) {
    char text[24];
    if (e == ECS_SCHED_NULL_ENTITY) return cJSON_CreateNull();
    if (e <= (uint64_t)ECS_SCHED__JSON_EXACT) return cJSON_CreateNumber((double)e);
    snprintf(text, sizeof text, "%llu", (unsigned long long)e);
    return cJSON_CreateString(text);
}

static cJSON *ecs_sched__json_of_element(ecs_sched__json_save *s, const ecs_sched__field_desc *f,
                                         const unsigned char *p) {
    char text[32];
    switch (f->kind) {
    case ECS_SCHED_TYPE_BOOL:
        return cJSON_CreateBool(ecs_sched__load_int(p, f->kind, f->element) != 0);
    case ECS_SCHED_TYPE_F32:
    case ECS_SCHED_TYPE_F64: {
        double d = ecs_sched__load_float(p, f->kind);
        if (isnan(d)) return cJSON_CreateString("nan");
        if (isinf(d)) return cJSON_CreateString(d > 0 ? "inf" : "-inf");
        if (f->kind == ECS_SCHED_TYPE_F64) {
            /* cJSON writes 15 significant digits when they read back within an epsilon of d,
               not always as d: the fewest digits that do, as the number's text */
            double back;
            snprintf(text, sizeof text, "%1.15g", d);
            back = strtod(text, NULL);
            if (back < d || back > d) {
                ecs_sched__format_number(text, sizeof text, d);
                return cJSON_CreateRaw(text);
            }
        }
        return cJSON_CreateNumber(d);
    }
    case ECS_SCHED_TYPE_U64: {
        uint64_t u = ecs_sched__load_u64(p);
        if (u <= (uint64_t)ECS_SCHED__JSON_EXACT) return cJSON_CreateNumber((double)u);
        snprintf(text, sizeof text, "%llu", (unsigned long long)u);
        return cJSON_CreateString(text);
    }
    case ECS_SCHED_TYPE_I64: {
        int64_t i = ecs_sched__load_int(p, f->kind, f->element);
        if (i <= ECS_SCHED__JSON_EXACT && i >= -ECS_SCHED__JSON_EXACT) {
            return cJSON_CreateNumber((double)i);
        }
        snprintf(text, sizeof text, "%lld", (long long)i);
        return cJSON_CreateString(text);
    }
    case ECS_SCHED_TYPE_ENTITY: {
        ecs_sched_entity e = (ecs_sched_entity)ecs_sched__load_u64(p);
        uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
        if (s->handles) return ecs_sched__json_of_handle(e);
        if (e && ecs_sched__is_live_record(s->world, e) && s->entry_of[index] >= 0) {
            return cJSON_CreateNumber((double)s->entry_of[index]);
        }
        return cJSON_CreateNull();   /* an entity not written: the reference is dropped */
    }
    case ECS_SCHED_TYPE_CHARS: {
        cJSON *item;
        char *copy = (char *)ecs_sched__alloc(&s->world->env, f->element + 1);
        if (!copy) return NULL;
        memcpy(copy, p, f->element);
        copy[f->element] = '\0';
        item = cJSON_CreateString(copy);
        ecs_sched__free(&s->world->env, copy);
        return item;
    }
    case ECS_SCHED_TYPE_ENUM: {
        int64_t v = ecs_sched__load_int(p, f->kind, f->element);
        const char *name = ecs_sched__enum_name(f, v);
        return name ? cJSON_CreateString(name) : cJSON_CreateNumber((double)v);
    }
    case ECS_SCHED_TYPE_STRUCT:
        return ecs_sched__json_of_struct(s, f->type, p);
    case ECS_SCHED_TYPE_NONE:
    case ECS_SCHED_TYPE_I8: case ECS_SCHED_TYPE_I16: case ECS_SCHED_TYPE_I32:
    case ECS_SCHED_TYPE_U8: case ECS_SCHED_TYPE_U16: case ECS_SCHED_TYPE_U32:
        break;
    }
    {
        int64_t number = ecs_sched__load_int(p, f->kind, f->element);
        return cJSON_CreateNumber((double)number);
    }
}

static cJSON *ecs_sched__json_of_struct(ecs_sched__json_save *s, ecs_sched_id type,
                                        const unsigned char *value) {
    const ecs_sched__description *d = ecs_sched__description_of(s->world, type);
    cJSON *object = cJSON_CreateObject();
    int32_t i, k;
    for (i = 0; object && d && i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        const unsigned char *p = value + f->offset;
        cJSON *item;
        if (f->count == 1 || f->kind == ECS_SCHED_TYPE_CHARS) {
            item = ecs_sched__json_of_element(s, f, p);
        } else {
            item = cJSON_CreateArray();
            for (k = 0; item && k < f->count; k++) {
                cJSON *e = ecs_sched__json_of_element(s, f, p + (size_t)k * f->element);
                if (!e || !cJSON_AddItemToArray(item, e)) {
                    cJSON_Delete(e);
                    cJSON_Delete(item);
                    item = NULL;
                }
            }
        }
        if (!item || !cJSON_AddItemToObject(object, f->name, item)) {
            cJSON_Delete(item);
            cJSON_Delete(object);
            return NULL;
        }
    }
    return object;
}

ECS_SCHED__PRINTF(3, 4)
static ecs_sched_result ecs_sched__save_fail(ecs_sched__json_save *s, ecs_sched_entity e,
                                             const char *format, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY / 2];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return ecs_sched__fail(&s->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "json_save: %s: %s",
                           ecs_sched__entity_label(s->world, e).text, message);
}

static ecs_sched_result ecs_sched__save_relations(ecs_sched__json_save *s, ecs_sched_entity e,
                                                  const ecs_sched__table *t, cJSON *out) {
    cJSON *relations = NULL;
    int32_t k, i;
    for (k = 0; k < t->type_count; k++) {
        ecs_sched_id kind = t->type[k];
        cJSON *targets;
        int32_t n;
        if (!s->world->components[kind].relation || kind == s->world->child_of) continue;
        if (!relations && !(relations = cJSON_AddObjectToObject(out, "relations"))) {
            return ecs_sched__out_of_memory(s->world, "saving JSON");
        }
        targets = cJSON_AddArrayToObject(relations, s->world->components[kind].name);
        if (!targets) return ecs_sched__out_of_memory(s->world, "saving JSON");
        n = ecs_sched_target_count(s->world, e, kind);
        for (i = 0; i < n; i++) {
            ecs_sched_entity target = ecs_sched_target(s->world, e, kind, i);
            int32_t at = s->entry_of[ECS_SCHED_ENTITY_INDEX(target)];
            if (at < 0) {
                return ecs_sched__save_fail(s, e, "it relates with '%s' to an entity that is not "
                                                  "written; write both, or neither",
                                            s->world->components[kind].name);
            }
            if (!cJSON_AddItemToArray(targets, cJSON_CreateNumber((double)at))) {
                return ecs_sched__out_of_memory(s->world, "saving JSON");
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The entity's sparse components, written as its others are. */
static ecs_sched_result ecs_sched__save_sparse(ecs_sched__json_save *s, ecs_sched_entity e,
                                               cJSON *components) {
    ecs_sched_world *w = s->world;
    uint32_t i, index = ECS_SCHED_ENTITY_INDEX(e);
    for (i = 0; i < w->sparse_count; i++) {
        const ecs_sched__sparse_set *set = &w->sparse_sets[i];
        const ecs_sched__component *c = &w->components[set->id];
        cJSON *value;
        if (!ecs_sched__sparse_slot(set, index)) continue;
        if (c->size == 0) {
            value = cJSON_CreateTrue();
        } else if (!ecs_sched__description_of(w, set->id)) {
            return ecs_sched__save_fail(s, e, "its component '%s' has no description, so its "
                                              "value cannot be written (ecs_sched_describe)", c->name);
        } else {
            value = ecs_sched__json_of_struct(
                s, set->id, (const unsigned char *)ecs_sched__sparse_value(w, set->id, index));
        }
        if (!value || !cJSON_AddItemToObject(components, c->name, value)) {
            cJSON_Delete(value);
            return ecs_sched__out_of_memory(w, "saving JSON");
        }
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__save_entity(ecs_sched__json_save *s, ecs_sched_entity e,
                                               cJSON *array) {
    ecs_sched_world *w = s->world;
    ecs_sched_result result;
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    const ecs_sched__table *t = w->tables[r->table];
    cJSON *out = cJSON_CreateObject(), *components;
    const char *name = ecs_sched__entity_name_of(w, e);
    ecs_sched_entity parent = ecs_sched_parent_of(w, e);
    int32_t k;
    if (!out || !cJSON_AddItemToArray(array, out)) {
        cJSON_Delete(out);
        return ecs_sched__out_of_memory(w, "saving JSON");
    }
    if (name && !cJSON_AddStringToObject(out, "name", name)) return ecs_sched__out_of_memory(w, "saving JSON");
    if (parent && s->entry_of[ECS_SCHED_ENTITY_INDEX(parent)] >= 0 &&
        !cJSON_AddNumberToObject(out, "parent", (double)s->entry_of[ECS_SCHED_ENTITY_INDEX(parent)])) {
        return ecs_sched__out_of_memory(w, "saving JSON");
    }
    components = cJSON_AddObjectToObject(out, "components");
    if (!components) return ecs_sched__out_of_memory(w, "saving JSON");
    for (k = 0; k < t->type_count; k++) {
        ecs_sched_id id = t->type[k];
        const ecs_sched__component *c = &w->components[id];
        cJSON *value;
        if (c->relation || ecs_sched__mark_base(w, id)) continue;
        if (c->size == 0) {
            value = cJSON_CreateTrue();
        } else if (!ecs_sched__description_of(w, id)) {
            return ecs_sched__save_fail(s, e, "its component '%s' has no description, so its "
                                              "value cannot be written (ecs_sched_describe)", c->name);
        } else {
            value = ecs_sched__json_of_struct(s, id, (const unsigned char *)ecs_sched__cell(
                                                         t, ecs_sched__column_find(t, id), r->row));
        }
        if (!value || !cJSON_AddItemToObject(components, c->name, value)) {
            cJSON_Delete(value);
            return ecs_sched__out_of_memory(w, "saving JSON");
        }
    }
    result = w->sparse_count ? ecs_sched__save_sparse(s, e, components) : ECS_SCHED_OK;
    return result != ECS_SCHED_OK ? result : ecs_sched__save_relations(s, e, t, out);
}

char *ecs_sched_json_save(ecs_sched_world *w, int32_t count, const ecs_sched_entity *entities,
                          bool descendants) {
    ecs_sched__json_save s;
    ecs_sched_result result = ECS_SCHED_OK;
    cJSON *root = NULL, *array;
    char *text = NULL;
    uint32_t i;
    int32_t k;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&s, 0, sizeof s);
    s.world = w;
    s.entry_of = (int32_t *)ecs_sched__alloc(&w->env, (w->record_count + 1) * sizeof *s.entry_of);
    if (!s.entry_of) {
        ecs_sched__out_of_memory(w, "saving JSON");
        return NULL;
    }
    for (i = 0; i <= w->record_count; i++) s.entry_of[i] = -1;
    for (k = 0; entities && k < count; k++) {
        if (!ecs_sched__is_live_record(w, entities[k])) {
            result = ecs_sched__stale(w, entities[k], "json_save");
            break;
        }
        if (!ecs_sched__save_add(&s, entities[k], descendants)) result = ecs_sched__out_of_memory(w, "saving JSON");
    }
    for (i = 1; !entities && result == ECS_SCHED_OK && i < w->record_count; i++) {
        ecs_sched_entity e = ecs_sched__make_entity(i, w->records[i].generation);
        if (!ecs_sched__is_live_record(w, e) || ecs_sched_parent_of(w, e)) continue;
        if (!ecs_sched__save_add(&s, e, true)) result = ecs_sched__out_of_memory(w, "saving JSON");
    }
    if (result == ECS_SCHED_OK) {
        root = cJSON_CreateObject();
        array = root ? cJSON_AddArrayToObject(root, "entities") : NULL;
        if (!array) result = ecs_sched__out_of_memory(w, "saving JSON");
        for (k = 0; result == ECS_SCHED_OK && k < s.count; k++) {
            result = ecs_sched__save_entity(&s, s.order[k], array);
        }
    }
    if (result == ECS_SCHED_OK) {
        text = cJSON_Print(root);
        if (!text) ecs_sched__out_of_memory(w, "saving JSON");
    }
    cJSON_Delete(root);
    ecs_sched__free(&w->env, s.order);
    ecs_sched__free(&w->env, s.entry_of);
    return text;
}

void ecs_sched_json_free(char *text) {
    if (text) cJSON_free(text);
}

#ifdef ECS_SCHED_REMOTE   /* (its only user) */
/* ---- values alone ----

   One value of a described component, outside any file, for the remote protocol (remote.h):
   entity members are handles (their 64-bit number, as Bevy's remote protocol spells an
   entity), not indices of a file's entities. */

/* The value of `item` written into `value` (constructed by the caller: members left out keep
   what it holds). Fails, with the last error naming `source` (where the value comes from), the
   component and the member, for what a file's value would fail for. */
static ecs_sched_result ecs_sched__json_value_read(ecs_sched_world *w, ecs_sched_id id,
                                                   const cJSON *item, const char *source,
                                                   void *value) {
    ecs_sched__json_load l;
    ecs_sched__json_value v;
    ecs_sched_result result;
    memset(&l, 0, sizeof l);
    l.world = w;
    l.files[0] = source;
    l.depth = 1;
    l.entity = -1;
    l.component = id;
    result = ecs_sched__json_check_item(&l, item, NULL);
    if (result != ECS_SCHED_OK) return result;
    if (!cJSON_IsObject(item)) {
        return ecs_sched__json_fail(&l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "a value is an object of its members");
    }
    if (item->child && !ecs_sched__description_of(w, id)) {
        return ecs_sched__json_fail(&l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "the component has no description, so its members cannot be "
                                    "read (ecs_sched_describe)");
    }
    memset(&v, 0, sizeof v);
    v.load = &l;
    v.id = id;
    v.value = (unsigned char *)value;
    v.handles = true;
    return ecs_sched__json_struct(&v, id, item, NULL, (unsigned char *)value);
}

/* The value as JSON (cJSON's, the caller deletes it), or NULL when out of memory. The
   component must be described (or have no members to write). */
static cJSON *ecs_sched__json_value_write(ecs_sched_world *w, ecs_sched_id id, const void *value) {
    ecs_sched__json_save s;
    memset(&s, 0, sizeof s);
    s.world = w;
    s.handles = true;
    return ecs_sched__json_of_struct(&s, id, (const unsigned char *)value);
}
#endif /* ECS_SCHED_REMOTE */

#endif /* ECS_SCHED_JSON */
