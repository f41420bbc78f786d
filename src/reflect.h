/* reflect: what the members of a component are, and what can be done with them knowing that:
   print a value, read and write a member by path, compare and hash values. (Reflection speaks
   of members; a query's "members" are what an iteration hands out.) */
#pragma once
#include "name.h"

/* The types of member a description names. */
typedef enum ecs_sched_member_kind {
    ECS_SCHED_TYPE_NONE = 0,
    ECS_SCHED_TYPE_BOOL,      /* bool */
    ECS_SCHED_TYPE_I8, ECS_SCHED_TYPE_I16, ECS_SCHED_TYPE_I32, ECS_SCHED_TYPE_I64,
    ECS_SCHED_TYPE_U8, ECS_SCHED_TYPE_U16, ECS_SCHED_TYPE_U32, ECS_SCHED_TYPE_U64,
    ECS_SCHED_TYPE_F32, ECS_SCHED_TYPE_F64,
    ECS_SCHED_TYPE_ENTITY,    /* an ecs_sched_entity */
    ECS_SCHED_TYPE_CHARS,     /* a char array holding a zero-terminated string */
    ECS_SCHED_TYPE_ENUM,      /* an integer of 1, 2, 4 or 8 bytes with named values */
    ECS_SCHED_TYPE_STRUCT     /* a described component or type (`type`) */
} ecs_sched_member_kind;

typedef struct ecs_sched_enum_value {
    const char *name;
    int64_t value;
} ecs_sched_enum_value;

/* One member of a described type. The ECS_SCHED_MEMBER macros fill offset and size from the
   compiler; a fixed array of a number, entity, enum or struct is described by its whole size
   (the element count follows). */
typedef struct ecs_sched_member {
    const char *name;
    ecs_sched_member_kind kind;
    size_t offset;
    size_t size;                           /* of the whole member, every element */
    ecs_sched_id type;                     /* STRUCT: the described component or type */
    const ecs_sched_enum_value *values;    /* ENUM: its named values */
    int32_t value_count;
} ecs_sched_member;

#define ECS_SCHED_MEMBER(T, member, kind) \
    {#member, (kind), offsetof(T, member), sizeof(((T *)0)->member), 0, NULL, 0}
#define ECS_SCHED_MEMBER_STRUCT(T, member, type) \
    {#member, ECS_SCHED_TYPE_STRUCT, offsetof(T, member), sizeof(((T *)0)->member), (type), NULL, 0}
#define ECS_SCHED_MEMBER_ENUM(T, member, values, count) \
    {#member, ECS_SCHED_TYPE_ENUM, offsetof(T, member), sizeof(((T *)0)->member), 0, (values), (count)}

/* Describes a registered component (or a type registered only to be described, see
   ecs_sched_component_register_type) by its `count` members. The members must lie inside the
   type, not overlap, and cover it: nothing between them but the padding their alignment needs
   (a gap smaller than the next member's alignment counts as padding: describe every member).
   A struct member names a type described before. Describing a type again replaces its
   description. */
ECS_SCHED_API ecs_sched_result ecs_sched_describe(ecs_sched_world *world, ecs_sched_id id,
                                                  int32_t count, const ecs_sched_member *members);
ECS_SCHED_API bool ecs_sched_is_described(const ecs_sched_world *world, ecs_sched_id id);

/* Writes a described value as text, "{x: 1.5, y: 2, name: \"bob\", state: WALKING}", into
   out (at most capacity bytes with the zero); returns the length of the whole text
   (snprintf's rule). A type without a description prints as "<Name: 8 bytes>". */
ECS_SCHED_API int32_t ecs_sched_value_print(const ecs_sched_world *world, ecs_sched_id id,
                                            const void *value, char *out, int32_t capacity);

/* What a path inside a described value names. */
typedef struct ecs_sched_member_info {
    ecs_sched_member_kind kind;
    size_t size;        /* of one element */
    int32_t count;      /* elements (1 unless the path names a whole array) */
    ecs_sched_id type;  /* STRUCT: its type */
} ecs_sched_member_info;

/* The address of the member a path names inside a value of type id: "position.x",
   "slots[2].count" (a nested struct by name, an array element by index). NULL, with the
   reason as the last error, for a path that does not resolve. */
ECS_SCHED_API void *ecs_sched_value_member(ecs_sched_world *world, ecs_sched_id id, void *value,
                                          const char *path, ecs_sched_member_info *info);
/* Reads a number, bool, entity index or enum through a path. */
ECS_SCHED_API ecs_sched_result ecs_sched_value_get_number(ecs_sched_world *world, ecs_sched_id id,
                                                          const void *value, const char *path,
                                                          double *out);
/* Writes a number into a numeric, bool or enum field; a value the field cannot hold (out of
   its range, a fraction into an integer, not one of an enum's values) is refused. */
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_number(ecs_sched_world *world, ecs_sched_id id,
                                                          void *value, const char *path,
                                                          double number);
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_int(ecs_sched_world *world, ecs_sched_id id,
                                                       void *value, const char *path,
                                                       int64_t number);
/* Writes text into a chars field (it must fit with its zero) or an enum field (a value's
   name). */
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_string(ecs_sched_world *world, ecs_sched_id id,
                                                          void *value, const char *path,
                                                          const char *text);
/* Orders two values field by field (negative, 0, positive). Floats by value, -0 equal to 0
   and NaN equal to NaN, after every number; chars as strings. */
ECS_SCHED_API int ecs_sched_value_compare(const ecs_sched_world *world, ecs_sched_id id,
                                          const void *a, const void *b);
/* A hash that agrees with ecs_sched_value_compare: equal values hash alike (padding and the
   bytes after a string's zero do not count). */
ECS_SCHED_API uint64_t ecs_sched_value_hash(const ecs_sched_world *world, ecs_sched_id id,
                                            const void *value);

/*@@ implementation @@*/
/* reflect: descriptions of types, kept by component id, and the walks over values they
   allow. */

typedef struct ecs_sched__field_desc {
    char *name;
    ecs_sched_member_kind kind;
    uint32_t offset;
    uint32_t element;               /* bytes of one element */
    int32_t count;                  /* elements */
    ecs_sched_id type;              /* STRUCT */
    ecs_sched_enum_value *values;   /* ENUM, names copied */
    int32_t value_count;
} ecs_sched__field_desc;

typedef struct ecs_sched__description {
    ecs_sched__field_desc *fields;  /* in the order given */
    int32_t count;
} ecs_sched__description;

typedef struct ecs_sched__descriptions ecs_sched__descriptions;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__descriptions_key;

struct ecs_sched__descriptions {
    ecs_sched__description *by_id;
    uint32_t capacity;
};

static inline ecs_sched__descriptions *ecs_sched__descriptions_of(const ecs_sched_world *w) {
    return (ecs_sched__descriptions *)ecs_sched__part(w, &ecs_sched__descriptions_key);
}

static const char *const ecs_sched__field_kind_names[] = {
    "none", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
    "entity", "chars", "enum", "struct"};

/* The bytes of one element of a scalar kind (0: not a scalar). */
static size_t ecs_sched__scalar_size(ecs_sched_member_kind kind) {
    switch (kind) {
    case ECS_SCHED_TYPE_BOOL: return sizeof(bool);
    case ECS_SCHED_TYPE_I8: case ECS_SCHED_TYPE_U8: return 1;
    case ECS_SCHED_TYPE_I16: case ECS_SCHED_TYPE_U16: return 2;
    case ECS_SCHED_TYPE_I32: case ECS_SCHED_TYPE_U32: case ECS_SCHED_TYPE_F32: return 4;
    case ECS_SCHED_TYPE_I64: case ECS_SCHED_TYPE_U64: case ECS_SCHED_TYPE_F64:
    case ECS_SCHED_TYPE_ENTITY: return 8;
    case ECS_SCHED_TYPE_NONE: case ECS_SCHED_TYPE_CHARS: case ECS_SCHED_TYPE_ENUM:
    case ECS_SCHED_TYPE_STRUCT: return 0;
    }
    return 0;
}

static const ecs_sched__description *ecs_sched__description_of(const ecs_sched_world *w,
                                                               ecs_sched_id id) {
    const ecs_sched__descriptions *d = ecs_sched__descriptions_of(w);
    return d && id < d->capacity && d->by_id[id].fields ? &d->by_id[id] : NULL;
}

bool ecs_sched_is_described(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__description_of(w, id) != NULL;
}

static void ecs_sched__description_clear(ecs_sched_world *w, ecs_sched__description *d) {
    int32_t i, v;
    for (i = 0; i < d->count; i++) {
        ecs_sched__free(&w->env, d->fields[i].name);
        for (v = 0; v < d->fields[i].value_count; v++) {
            ecs_sched__free(&w->env, (void *)(uintptr_t)d->fields[i].values[v].name);
        }
        ecs_sched__free(&w->env, d->fields[i].values);
    }
    ecs_sched__free(&w->env, d->fields);
    d->fields = NULL;
    d->count = 0;
}

/* For world.h: descriptions go with the world. */
static void ecs_sched__descriptions_free(ecs_sched_world *w) {
    ecs_sched__descriptions *d = ecs_sched__descriptions_of(w);
    uint32_t i;
    if (!d) return;
    for (i = 0; i < d->capacity; i++) ecs_sched__description_clear(w, &d->by_id[i]);
    ecs_sched__free(&w->env, d->by_id);
    ecs_sched__free(&w->env, d);
    ecs_sched__part_set(w, &ecs_sched__descriptions_key, NULL);
}

/* ---- describing ---- */

#define ECS_SCHED__MAX_FIELDS 256    /* fields in one description */

static bool ecs_sched__descriptions_reserve(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__descriptions *d = ecs_sched__descriptions_of(w);
    uint32_t had;
    if (!d) {
        d = (ecs_sched__descriptions *)ecs_sched__calloc(&w->env, sizeof *d);
        if (!d) return false;
        ecs_sched__part_set(w, &ecs_sched__descriptions_key, d);
    }
    had = d->capacity;
    if (id < had) return true;
    if (!ECS_SCHED__GROW(&w->env, d->by_id, &d->capacity, id + 1u)) return false;
    memset(d->by_id + had, 0, (d->capacity - had) * sizeof *d->by_id);
    return true;
}

/* One field's element size, count and alignment, checked. */
static ecs_sched_result ecs_sched__check_field(ecs_sched_world *w, ecs_sched_id id,
                                               const ecs_sched_member *f, uint32_t *element,
                                               int32_t *count, size_t *align) {
    const char *type_name = w->components[id].name;
    size_t scalar = ecs_sched__scalar_size(f->kind);
    if (!f->name || !f->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): a member has no name", type_name);
    }
    if (f->kind <= ECS_SCHED_TYPE_NONE || f->kind > ECS_SCHED_TYPE_STRUCT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): member '%s' has no kind (ECS_SCHED_TYPE_...)",
                               type_name, f->name);
    }
    if (f->size == 0 || f->offset + f->size > w->components[id].size) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): member '%s' (offset %zu, %zu bytes) does not lie "
                               "inside the type's %u bytes", type_name, f->name, f->offset,
                               f->size, (unsigned)w->components[id].size);
    }
    if (scalar) {
        *element = (uint32_t)scalar;
        *align = scalar;
    } else if (f->kind == ECS_SCHED_TYPE_CHARS) {
        *element = (uint32_t)f->size;
        *align = 1;
    } else if (f->kind == ECS_SCHED_TYPE_ENUM) {
        if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): enum member '%s' is %zu bytes; an enum is "
                                   "1, 2, 4 or 8 bytes (arrays of enums are not described)",
                                   type_name, f->name, f->size);
        }
        if (f->value_count < 0 || (f->value_count > 0 && !f->values)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): enum member '%s' has %d values and no list",
                                   type_name, f->name, (int)f->value_count);
        }
        *element = (uint32_t)f->size;
        *align = f->size;
    } else {   /* STRUCT */
        if (f->type == id || !ecs_sched__description_of(w, f->type)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): struct member '%s' names %s; describe that "
                                   "type first (a type cannot hold itself)", type_name, f->name,
                                   ecs_sched__component_valid(w, f->type) ? "a type with no description"
                                                                         : "no registered type");
        }
        *element = w->components[f->type].size;
        *align = w->components[f->type].alignment;
    }
    if (f->size % *element != 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): member '%s' is %zu bytes, not a whole number of "
                               "%s elements of %u bytes", type_name, f->name, f->size,
                               ecs_sched__field_kind_names[f->kind], (unsigned)*element);
    }
    *count = (int32_t)(f->size / *element);
    return ECS_SCHED_OK;
}

/* The fields, in the order of their offsets, must follow each other with nothing between
   them but alignment padding, from offset 0 to the type's end. */
static ecs_sched_result ecs_sched__check_cover(ecs_sched_world *w, ecs_sched_id id,
                                               const ecs_sched_member *fields, int32_t count,
                                               const size_t *align, int32_t *order) {
    const ecs_sched__component *c = &w->components[id];
    size_t end = 0;
    int32_t i, j;
    for (i = 0; i < count; i++) order[i] = i;
    for (i = 1; i < count; i++) {   /* insertion sort by offset */
        int32_t k = order[i];
        for (j = i; j > 0 && fields[order[j - 1]].offset > fields[k].offset; j--) order[j] = order[j - 1];
        order[j] = k;
    }
    for (i = 0; i < count; i++) {
        const ecs_sched_member *f = &fields[order[i]];
        if (f->offset < end) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): member '%s' (offset %zu) overlaps member '%s' "
                                   "(which ends at %zu)", c->name, f->name, f->offset,
                                   fields[order[i - 1]].name, end);
        }
        if (f->offset - end >= align[order[i]]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): bytes %zu to %zu, before member '%s', are no "
                                   "member's; the description must cover the type", c->name, end,
                                   f->offset - 1, f->name);
        }
        end = f->offset + f->size;
    }
    if (c->size - end >= c->alignment) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): bytes %zu to %u, at the end, are no member's; the "
                               "description must cover the type", c->name, end,
                               (unsigned)c->size - 1u);
    }
    return ECS_SCHED_OK;
}

/* Copies the enum values, names included; false when out of memory. */
static bool ecs_sched__copy_values(ecs_sched_world *w, const ecs_sched_member *f,
                                   ecs_sched__field_desc *out) {
    int32_t v;
    if (f->kind != ECS_SCHED_TYPE_ENUM || f->value_count == 0) return true;
    out->values = (ecs_sched_enum_value *)ecs_sched__calloc(&w->env, (size_t)f->value_count *
                                                                          sizeof *out->values);
    if (!out->values) return false;
    out->value_count = f->value_count;
    for (v = 0; v < f->value_count; v++) {
        out->values[v].value = f->values[v].value;
        out->values[v].name = ecs_sched__strdup(&w->env, f->values[v].name ? f->values[v].name : "");
        if (!out->values[v].name) return false;
    }
    return true;
}

/* The description of `fields` for component id, checked, in *fresh, with room for it in
   the world's descriptions; on failure nothing is left behind. */
static ecs_sched_result ecs_sched__description_make(ecs_sched_world *w, ecs_sched_id id,
                                                    int32_t count, const ecs_sched_member *fields,
                                                    ecs_sched__description *out) {
    ecs_sched__description fresh;
    ecs_sched_result result = ECS_SCHED_OK;
    size_t align[ECS_SCHED__MAX_FIELDS];
    int32_t order[ECS_SCHED__MAX_FIELDS], i, j;
    if (w->components[id].size == 0 || count < 1 || count > ECS_SCHED__MAX_FIELDS || !fields) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): %s", w->components[id].name,
                               w->components[id].size == 0 ? "a tag has no members"
                                                           : "give 1 to 256 members");
    }
    memset(&fresh, 0, sizeof fresh);
    fresh.fields = (ecs_sched__field_desc *)ecs_sched__calloc(&w->env, (size_t)count * sizeof *fresh.fields);
    if (!fresh.fields) return ecs_sched__out_of_memory(w, "describing a type");
    fresh.count = count;
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) {
        ecs_sched__field_desc *field = &fresh.fields[i];
        result = ecs_sched__check_field(w, id, &fields[i], &field->element, &field->count, &align[i]);
        for (j = 0; j < i && result == ECS_SCHED_OK; j++) {
            if (strcmp(fields[j].name, fields[i].name) == 0) {
                result = ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                         "describe('%s'): two members are named '%s'",
                                         w->components[id].name, fields[i].name);
            }
        }
        if (result != ECS_SCHED_OK) break;
        field->kind = fields[i].kind;
        field->offset = (uint32_t)fields[i].offset;
        field->type = fields[i].type;
        field->name = ecs_sched__strdup(&w->env, fields[i].name);
        if (!field->name || !ecs_sched__copy_values(w, &fields[i], field)) {
            result = ecs_sched__out_of_memory(w, "describing a type");
        }
    }
    if (result == ECS_SCHED_OK) result = ecs_sched__check_cover(w, id, fields, count, align, order);
    if (result == ECS_SCHED_OK && !ecs_sched__descriptions_reserve(w, id)) {
        result = ecs_sched__out_of_memory(w, "describing a type");
    }
    if (result != ECS_SCHED_OK) {
        ecs_sched__description_clear(w, &fresh);
        return result;
    }
    *out = fresh;
    return ECS_SCHED_OK;
}

/* Replaces id's description by `fresh` (made by ecs_sched__description_make). */
static void ecs_sched__description_install(ecs_sched_world *w, ecs_sched_id id,
                                           ecs_sched__description *fresh) {
    ecs_sched__description_clear(w, &ecs_sched__descriptions_of(w)->by_id[id]);
    ecs_sched__descriptions_of(w)->by_id[id] = *fresh;
    memset(fresh, 0, sizeof *fresh);
}

ecs_sched_result ecs_sched_describe(ecs_sched_world *w, ecs_sched_id id,
                                    int32_t count, const ecs_sched_member *fields) {
    ecs_sched__description fresh;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "describe");
    result = ecs_sched__description_make(w, id, count, fields, &fresh);
    if (result == ECS_SCHED_OK) ecs_sched__description_install(w, id, &fresh);
    return result;
}

#ifdef ECS_SCHED_SCRIPTS
/* The description of `fields` for component id as it will be once it is `size` bytes
   aligned to `alignment` (a layout it is about to take: script.h). The checks read the
   component's layout, so it wears the new one while they run. */
static ecs_sched_result ecs_sched__description_for_layout(ecs_sched_world *w, ecs_sched_id id,
                                                          size_t size, size_t alignment,
                                                          int32_t count,
                                                          const ecs_sched_member *fields,
                                                          ecs_sched__description *out) {
    ecs_sched__component *c = &w->components[id];
    uint32_t old_size = c->size;
    uint8_t old_alignment = c->alignment;
    ecs_sched_result result;
    c->size = (uint32_t)size;
    c->alignment = (uint8_t)alignment;
    result = ecs_sched__description_make(w, id, count, fields, out);
    c->size = old_size;
    c->alignment = old_alignment;
    return result;
}
#endif /* ECS_SCHED_SCRIPTS */

/* ---- reading scalars ---- */

/* The integer kind an enum of `size` bytes is stored as. */
static ecs_sched_member_kind ecs_sched__enum_storage(uint32_t size) {
    return size == 1 ? ECS_SCHED_TYPE_I8 : size == 2 ? ECS_SCHED_TYPE_I16
         : size == 4 ? ECS_SCHED_TYPE_I32 : ECS_SCHED_TYPE_I64;
}

/* A bool, integer (not u64) or enum element, widened. */
static int64_t ecs_sched__load_int(const unsigned char *p, ecs_sched_member_kind kind, uint32_t size) {
    if (kind == ECS_SCHED_TYPE_ENUM) kind = ecs_sched__enum_storage(size);
    if (kind == ECS_SCHED_TYPE_I8) { int8_t v; memcpy(&v, p, 1); return v; }
    if (kind == ECS_SCHED_TYPE_I16) { int16_t v; memcpy(&v, p, 2); return v; }
    if (kind == ECS_SCHED_TYPE_I32) { int32_t v; memcpy(&v, p, 4); return v; }
    if (kind == ECS_SCHED_TYPE_I64) { int64_t v; memcpy(&v, p, 8); return v; }
    if (kind == ECS_SCHED_TYPE_U8) { uint8_t v; memcpy(&v, p, 1); return v; }
    if (kind == ECS_SCHED_TYPE_U16) { uint16_t v; memcpy(&v, p, 2); return v; }
    if (kind == ECS_SCHED_TYPE_U32) { uint32_t v; memcpy(&v, p, 4); return v; }
    if (kind == ECS_SCHED_TYPE_BOOL) { bool v; memcpy(&v, p, sizeof v); return v ? 1 : 0; }
    return 0;
}

static uint64_t ecs_sched__load_u64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static double ecs_sched__load_float(const unsigned char *p, ecs_sched_member_kind kind) {
    if (kind == ECS_SCHED_TYPE_F32) {
        float v;
        memcpy(&v, p, 4);
        return (double)v;
    } else {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
}

static bool ecs_sched__is_float(ecs_sched_member_kind kind) {
    return kind == ECS_SCHED_TYPE_F32 || kind == ECS_SCHED_TYPE_F64;
}

static const char *ecs_sched__enum_name(const ecs_sched__field_desc *f, int64_t value) {
    int32_t v;
    for (v = 0; v < f->value_count; v++) {
        if (f->values[v].value == value) return f->values[v].name;
    }
    return NULL;
}

/* ---- printing ---- */

static void ecs_sched__print_value(const ecs_sched_world *w, ecs_sched_id id,
                                   const unsigned char *value, ecs_sched__printing *t);

static void ecs_sched__print_chars(const unsigned char *p, uint32_t size, ecs_sched__printing *t) {
    uint32_t i;
    ecs_sched__print_bytes(t, "\"", 1);
    for (i = 0; i < size && p[i]; i++) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') ecs_sched__printf_to(t, "\\%c", c);
        else if (c == '\n') ecs_sched__print_bytes(t, "\\n", 2);
        else if (c < 32 || c == 127) ecs_sched__printf_to(t, "\\x%02x", (unsigned)c);
        else ecs_sched__print_bytes(t, (const char *)&p[i], 1);
    }
    ecs_sched__print_bytes(t, "\"", 1);
}

static void ecs_sched__print_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                     const unsigned char *p, ecs_sched__printing *t) {
    ecs_sched_member_kind kind = f->kind;
    if (kind == ECS_SCHED_TYPE_BOOL) {
        ecs_sched__printf_to(t, "%s", ecs_sched__load_int(p, kind, f->element) ? "true" : "false");
    } else if (kind == ECS_SCHED_TYPE_U64) {
        ecs_sched__printf_to(t, "%llu", (unsigned long long)ecs_sched__load_u64(p));
    } else if (ecs_sched__is_float(kind)) {
        ecs_sched__printf_to(t, "%g", ecs_sched__load_float(p, kind));
    } else if (kind == ECS_SCHED_TYPE_ENTITY) {
        ecs_sched_entity e = (ecs_sched_entity)ecs_sched__load_u64(p);
        const char *name = ecs_sched__entity_name_of(w, e);
        if (!e) ecs_sched__printf_to(t, "0");
        else if (name) ecs_sched__printf_to(t, "#%u '%.40s'", (unsigned)ECS_SCHED_ENTITY_INDEX(e), name);
        else ecs_sched__printf_to(t, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    } else if (kind == ECS_SCHED_TYPE_CHARS) {
        ecs_sched__print_chars(p, f->element, t);
    } else if (kind == ECS_SCHED_TYPE_ENUM) {
        int64_t v = ecs_sched__load_int(p, kind, f->element);
        const char *name = ecs_sched__enum_name(f, v);
        if (name) ecs_sched__print_bytes(t, name, strlen(name));
        else ecs_sched__printf_to(t, "%lld", (long long)v);
    } else if (kind == ECS_SCHED_TYPE_STRUCT) {
        ecs_sched__print_value(w, f->type, p, t);
    } else {
        ecs_sched__printf_to(t, "%lld", (long long)ecs_sched__load_int(p, kind, f->element));
    }
}

static void ecs_sched__print_value(const ecs_sched_world *w, ecs_sched_id id,
                                   const unsigned char *value, ecs_sched__printing *t) {
    const ecs_sched__description *d = ecs_sched__description_of(w, id);
    int32_t i, k;
    if (!d) {
        ecs_sched__printf_to(t, "<%.40s: %u bytes>", w->components[id].name, (unsigned)w->components[id].size);
        return;
    }
    ecs_sched__print_bytes(t, "{", 1);
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        if (i) ecs_sched__print_bytes(t, ", ", 2);
        ecs_sched__print_bytes(t, f->name, strlen(f->name));
        ecs_sched__print_bytes(t, ": ", 2);
        if (f->count > 1) ecs_sched__print_bytes(t, "[", 1);
        for (k = 0; k < f->count; k++) {
            if (k) ecs_sched__print_bytes(t, ", ", 2);
            ecs_sched__print_element(w, f, value + f->offset + (size_t)k * f->element, t);
        }
        if (f->count > 1) ecs_sched__print_bytes(t, "]", 1);
    }
    ecs_sched__print_bytes(t, "}", 1);
}

int32_t ecs_sched_value_print(const ecs_sched_world *w, ecs_sched_id id, const void *value,
                              char *out, int32_t capacity) {
    ecs_sched__printing t;
    ECS_SCHED__CHECK_WORLD(w);
    t.out = capacity > 0 ? out : NULL;
    t.capacity = capacity;
    t.length = 0;
    if (!ecs_sched__component_valid(w, id) || !value) {
        ecs_sched__printf_to(&t, "<no value>");
    } else {
        ecs_sched__print_value(w, id, (const unsigned char *)value, &t);
    }
    ecs_sched__print_end(&t);
    return t.length;
}

/* ---- paths ---- */

/* Resolves path inside a value of type id: the field's element (or the whole array), and
   its description; NULL with the reason. */
static unsigned char *ecs_sched__resolve(ecs_sched_world *w, ecs_sched_id id, unsigned char *value,
                                         const char *path, const ecs_sched__field_desc **field,
                                         bool *whole_array, const char *operation) {
    const char *at = path;
    ecs_sched_id type = id;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, operation);
        return NULL;
    }
    if (!value || !path || !path[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "%s('%s'): no value or no path",
                        operation, w->components[id].name);
        return NULL;
    }
    for (;;) {
        const ecs_sched__description *d = ecs_sched__description_of(w, type);
        size_t length = strcspn(at, ".[");
        const ecs_sched__field_desc *f = NULL;
        int32_t i, index = -1;
        if (!d) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "%s('%s', \"%s\"): '%s' has no description (ecs_sched_describe)",
                            operation, w->components[id].name, path, w->components[type].name);
            return NULL;
        }
        for (i = 0; i < d->count && !f; i++) {
            if (strncmp(d->fields[i].name, at, length) == 0 && d->fields[i].name[length] == '\0') {
                f = &d->fields[i];
            }
        }
        if (!f) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "%s('%s', \"%s\"): '%s' has no member '%.*s'", operation,
                            w->components[id].name, path, w->components[type].name, (int)length, at);
            return NULL;
        }
        at += length;
        if (*at == '[') {
            char *end;
            long n = strtol(at + 1, &end, 10);
            if (end == at + 1 || *end != ']' || n < 0 || n >= f->count) {
                ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                                "%s('%s', \"%s\"): member '%s' has %d element%s; the index is "
                                "not one of them", operation, w->components[id].name, path,
                                f->name, (int)f->count, f->count == 1 ? "" : "s");
                return NULL;
            }
            index = (int32_t)n;
            at = end + 1;
        }
        value += f->offset + (size_t)(index < 0 ? 0 : index) * f->element;
        if (*at == '\0') {
            *field = f;
            *whole_array = index < 0 && f->count > 1;
            return value;
        }
        if (*at != '.') {   /* text right after an index: "path[1]x" */
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "%s('%s', \"%s\"): after '%s[%d]' comes '%s'; a path goes on with '.' "
                            "and a member's name", operation, w->components[id].name, path,
                            f->name, (int)index, at);
            return NULL;
        }
        if (f->kind != ECS_SCHED_TYPE_STRUCT || (index < 0 && f->count > 1)) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "%s('%s', \"%s\"): member '%s' %s", operation, w->components[id].name,
                            path, f->name, f->kind != ECS_SCHED_TYPE_STRUCT ? "has no members"
                                                                            : "is an array: give an index");
            return NULL;
        }
        type = f->type;
        at++;
    }
}

void *ecs_sched_value_member(ecs_sched_world *w, ecs_sched_id id, void *value, const char *path,
                            ecs_sched_member_info *info) {
    const ecs_sched__field_desc *f;
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, &f, &whole, "value_field");
    if (p && info) {
        info->kind = f->kind;
        info->size = f->element;
        info->count = whole ? f->count : 1;
        info->type = f->type;
    }
    return p;
}

/* A field a number can be read from or written to: one element. */
static unsigned char *ecs_sched__number_field(ecs_sched_world *w, ecs_sched_id id, void *value,
                                              const char *path, const ecs_sched__field_desc **f,
                                              const char *operation) {
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, f, &whole, operation);
    if (!p) return NULL;
    if (whole || (*f)->kind == ECS_SCHED_TYPE_STRUCT || (*f)->kind == ECS_SCHED_TYPE_CHARS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s('%s', \"%s\"): member '%s' is %s, not a number", operation,
                        w->components[id].name, path, (*f)->name,
                        whole ? "an array (give an index)" : (*f)->kind == ECS_SCHED_TYPE_STRUCT
                                                                 ? "a struct" : "text");
        return NULL;
    }
    return p;
}

ecs_sched_result ecs_sched_value_get_number(ecs_sched_world *w, ecs_sched_id id,
                                            const void *value, const char *path, double *out) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, (void *)(uintptr_t)value, path, &f, "value_get_number");
    if (!p) return w->env.last_result;
    if (ecs_sched__is_float(f->kind)) {
        *out = ecs_sched__load_float(p, f->kind);
    } else if (f->kind == ECS_SCHED_TYPE_U64 || f->kind == ECS_SCHED_TYPE_ENTITY) {
        uint64_t u = ecs_sched__load_u64(p);
        if (f->kind == ECS_SCHED_TYPE_ENTITY) u = ECS_SCHED_ENTITY_INDEX(u);
        *out = (double)u;
    } else {
        int64_t v = ecs_sched__load_int(p, f->kind, f->element);
        *out = (double)v;
    }
    return ECS_SCHED_OK;
}

/* The range of an integer kind (enum: of its storage): lo <= x < end. */
static void ecs_sched__int_range(ecs_sched_member_kind kind, uint32_t size, double *lo, double *end) {
    if (kind == ECS_SCHED_TYPE_ENUM) kind = ecs_sched__enum_storage(size);
    *lo = 0;
    *end = 9223372036854775808.0;
    if (kind == ECS_SCHED_TYPE_BOOL) {
        *end = 2.0;
    } else if (kind == ECS_SCHED_TYPE_U8) {
        *end = 256.0;
    } else if (kind == ECS_SCHED_TYPE_U16) {
        *end = 65536.0;
    } else if (kind == ECS_SCHED_TYPE_U32) {
        *end = 4294967296.0;
    } else if (kind == ECS_SCHED_TYPE_U64) {
        *end = 18446744073709551616.0;
    } else if (kind == ECS_SCHED_TYPE_I8) {
        *lo = -128.0;
        *end = 128.0;
    } else if (kind == ECS_SCHED_TYPE_I16) {
        *lo = -32768.0;
        *end = 32768.0;
    } else if (kind == ECS_SCHED_TYPE_I32) {
        *lo = -2147483648.0;
        *end = 2147483648.0;
    } else {
        *lo = -9223372036854775808.0;
    }
}

/* Whether a number in range has a fraction (floats are not compared for equality: the
   whole part is compared both ways). */
static bool ecs_sched__has_fraction_u64(double number, uint64_t whole) {
    return (double)whole < number || (double)whole > number;
}

static bool ecs_sched__has_fraction_i64(double number, int64_t whole) {
    return (double)whole < number || (double)whole > number;
}

/* Stores an integer known to fit. */
static void ecs_sched__store_int(unsigned char *p, ecs_sched_member_kind kind, uint32_t size, int64_t v,
                                 uint64_t u) {
    if (kind == ECS_SCHED_TYPE_BOOL) {
        bool b = v != 0;
        memcpy(p, &b, sizeof b);
    } else if (kind == ECS_SCHED_TYPE_U64 || kind == ECS_SCHED_TYPE_ENTITY) {
        memcpy(p, &u, 8);
    } else if (size == 1) {
        int8_t x = (int8_t)(uint8_t)v;
        memcpy(p, &x, 1);
    } else if (size == 2) {
        int16_t x = (int16_t)(uint16_t)v;
        memcpy(p, &x, 2);
    } else if (size == 4) {
        int32_t x = (int32_t)(uint32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

static ecs_sched_result ecs_sched__out_of_range(ecs_sched_world *w, ecs_sched_id id, const char *path,
                                                const ecs_sched__field_desc *f, const char *what,
                                                const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s('%s', \"%s\"): %s does not fit member '%s' (%s)", operation,
                           w->components[id].name, path, what, f->name,
                           ecs_sched__field_kind_names[f->kind]);
}

/* A number as a person wrote it: the fewest digits that read back as the same double, so
   that -2147483649 is not shown as -2.14748e+09 (nor 0.1 as 0.10000000000000001). */
static void ecs_sched__format_number(char *out, size_t capacity, double number) {
    int digits;
    for (digits = 15; digits < 17; digits++) {
        double back;
        snprintf(out, capacity, "%.*g", digits, number);
        back = strtod(out, NULL);
        if (!(back < number) && !(back > number)) return;   /* no == on floats (-Wfloat-equal) */
    }
    snprintf(out, capacity, "%.17g", number);
}

/* The same, for a number (formatted only when refused: writes are the common case). */
static ecs_sched_result ecs_sched__number_out_of_range(ecs_sched_world *w, ecs_sched_id id,
                                                       const char *path,
                                                       const ecs_sched__field_desc *f,
                                                       double number) {
    char what[48];
    ecs_sched__format_number(what, sizeof what, number);
    return ecs_sched__out_of_range(w, id, path, f, what, "value_set_number");
}

/* Writes a number to one element of a field that holds numbers (not an entity); false when
   the field cannot hold it, the element untouched. */
static bool ecs_sched__store_number(const ecs_sched__field_desc *f, unsigned char *p, double number) {
    double lo, end;
    if (f->kind == ECS_SCHED_TYPE_F32) {
        /* a finite number beyond what a float holds; infinities and NaN pass as they are */
        bool finite = number >= -1.7976931348623157e308 && number <= 1.7976931348623157e308;
        float x;
        if (finite && (number > 3.4028234663852886e38 || number < -3.4028234663852886e38)) return false;
        x = (float)number;
        memcpy(p, &x, 4);
        return true;
    }
    if (f->kind == ECS_SCHED_TYPE_F64) {
        memcpy(p, &number, 8);
        return true;
    }
    if (f->kind == ECS_SCHED_TYPE_ENTITY) return false;
    ecs_sched__int_range(f->kind, f->element, &lo, &end);
    if (!(number >= lo && number < end)) return false;   /* NaN too */
    if (f->kind == ECS_SCHED_TYPE_U64) {
        uint64_t whole = (uint64_t)number;
        if (ecs_sched__has_fraction_u64(number, whole)) return false;
        ecs_sched__store_int(p, f->kind, f->element, 0, whole);
        return true;
    }
    {
        int64_t whole = (int64_t)number;
        if (ecs_sched__has_fraction_i64(number, whole) ||
            (f->kind == ECS_SCHED_TYPE_ENUM && !ecs_sched__enum_name(f, whole))) {
            return false;
        }
        ecs_sched__store_int(p, f->kind, f->element, whole, (uint64_t)whole);
    }
    return true;
}

ecs_sched_result ecs_sched_value_set_number(ecs_sched_world *w, ecs_sched_id id, void *value,
                                            const char *path, double number) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, value, path, &f, "value_set_number");
    if (!p) return w->env.last_result;
    if (f->kind == ECS_SCHED_TYPE_ENTITY) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "value_set_number('%s', \"%s\"): member '%s' holds an entity: write "
                               "the handle with ecs_sched_value_set_int", w->components[id].name,
                               path, f->name);
    }
    if (!ecs_sched__store_number(f, p, number)) return ecs_sched__number_out_of_range(w, id, path, f, number);
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__int_out_of_range(ecs_sched_world *w, ecs_sched_id id,
                                                    const char *path, const ecs_sched__field_desc *f,
                                                    int64_t number) {
    char what[32];
    snprintf(what, sizeof what, "%lld", (long long)number);
    return ecs_sched__out_of_range(w, id, path, f, what, "value_set_int");
}

ecs_sched_result ecs_sched_value_set_int(ecs_sched_world *w, ecs_sched_id id, void *value,
                                         const char *path, int64_t number) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, value, path, &f, "value_set_int");
    double lo, end;
    if (!p) return w->env.last_result;
    if (ecs_sched__is_float(f->kind)) {
        return ecs_sched_value_set_number(w, id, value, path, (double)number);
    }
    if (f->kind == ECS_SCHED_TYPE_ENTITY || f->kind == ECS_SCHED_TYPE_U64) {
        if (f->kind == ECS_SCHED_TYPE_U64 && number < 0) {
            return ecs_sched__int_out_of_range(w, id, path, f, number);
        }
        ecs_sched__store_int(p, f->kind, f->element, number, (uint64_t)number);
        return ECS_SCHED_OK;
    }
    ecs_sched__int_range(f->kind, f->element, &lo, &end);
    /* an 8-byte integer holds every int64 (INT64_MAX as a double rounds up to `end`) */
    if ((f->element < 8 && ((double)number < lo || (double)number >= end)) ||
        (f->kind == ECS_SCHED_TYPE_ENUM && !ecs_sched__enum_name(f, number))) {
        return ecs_sched__int_out_of_range(w, id, path, f, number);
    }
    ecs_sched__store_int(p, f->kind, f->element, number, (uint64_t)number);
    return ECS_SCHED_OK;
}

/* Writes text to one element of a text or enum field (an enum takes the name of one of its
   values); false when the field cannot hold it, the element untouched. */
static bool ecs_sched__store_text(const ecs_sched__field_desc *f, unsigned char *p, const char *text) {
    int32_t v;
    if (f->kind == ECS_SCHED_TYPE_CHARS) {
        size_t n = strlen(text);
        if (n >= f->element) return false;
        memset(p, 0, f->element);
        memcpy(p, text, n);
        return true;
    }
    for (v = 0; v < f->value_count; v++) {
        if (strcmp(f->values[v].name, text) == 0) {
            ecs_sched__store_int(p, f->kind, f->element, f->values[v].value,
                                 (uint64_t)f->values[v].value);
            return true;
        }
    }
    return false;
}

ecs_sched_result ecs_sched_value_set_string(ecs_sched_world *w, ecs_sched_id id, void *value,
                                            const char *path, const char *text) {
    const ecs_sched__field_desc *f;
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, &f, &whole,
                                          "value_set_string");
    if (!p) return w->env.last_result;
    if (!text) text = "";
    if (f->kind == ECS_SCHED_TYPE_CHARS) {
        if (ecs_sched__store_text(f, p, text)) return ECS_SCHED_OK;
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "value_set_string('%s', \"%s\"): \"%.40s\" is %zu bytes with "
                               "its zero; member '%s' holds %u", w->components[id].name, path,
                               text, strlen(text) + 1, f->name, (unsigned)f->element);
    }
    if (f->kind == ECS_SCHED_TYPE_ENUM) {
        if (ecs_sched__store_text(f, p, text)) return ECS_SCHED_OK;
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "value_set_string('%s', \"%s\"): '%.40s' is not a value of enum "
                               "member '%s'", w->components[id].name, path, text, f->name);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "value_set_string('%s', \"%s\"): member '%s' is %s, not text or an "
                           "enum", w->components[id].name, path, f->name,
                           ecs_sched__field_kind_names[f->kind]);
}

/* ---- compare and hash ---- */

/* Floats in a total order where -0 equals 0 and NaN equals NaN, after every number. */
static int ecs_sched__compare_floats(double a, double b) {
    bool na = !(a >= a), nb = !(b >= b);   /* NaN is the one value not >= itself */
    if (na || nb) return na == nb ? 0 : na ? 1 : -1;
    return (a > b) - (a < b);
}

static int ecs_sched__compare_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                      const unsigned char *a, const unsigned char *b) {
    ecs_sched_member_kind kind = f->kind;
    if (ecs_sched__is_float(kind)) {
        return ecs_sched__compare_floats(ecs_sched__load_float(a, kind), ecs_sched__load_float(b, kind));
    }
    if (kind == ECS_SCHED_TYPE_U64 || kind == ECS_SCHED_TYPE_ENTITY) {
        uint64_t x = ecs_sched__load_u64(a), y = ecs_sched__load_u64(b);
        return (x > y) - (x < y);
    }
    if (kind == ECS_SCHED_TYPE_CHARS) {
        int c = strncmp((const char *)a, (const char *)b, f->element);
        return (c > 0) - (c < 0);
    }
    if (kind == ECS_SCHED_TYPE_STRUCT) return ecs_sched_value_compare(w, f->type, a, b);
    {
        int64_t x = ecs_sched__load_int(a, kind, f->element), y = ecs_sched__load_int(b, kind, f->element);
        return (x > y) - (x < y);
    }
}

int ecs_sched_value_compare(const ecs_sched_world *w, ecs_sched_id id, const void *a, const void *b) {
    const ecs_sched__description *d;
    int32_t i, k;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(ecs_sched__component_valid(w, id) && a && b);
    d = ecs_sched__description_of(w, id);
    if (!d) {
        int c = memcmp(a, b, w->components[id].size);
        return (c > 0) - (c < 0);
    }
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        for (k = 0; k < f->count; k++) {
            size_t at = f->offset + (size_t)k * f->element;
            int c = ecs_sched__compare_element(w, f, (const unsigned char *)a + at,
                                               (const unsigned char *)b + at);
            if (c) return c;
        }
    }
    return 0;
}

static uint64_t ecs_sched__hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t ecs_sched__hash_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                        const unsigned char *p, uint64_t h) {
    ecs_sched_member_kind kind = f->kind;
    if (ecs_sched__is_float(kind)) {
        double x = ecs_sched__load_float(p, kind);
        unsigned char nan = !(x >= x);
        if (nan) return ecs_sched__hash_bytes(h, &nan, 1);   /* every NaN alike */
        if (!(x < 0.0) && !(x > 0.0)) x = 0.0;                /* -0 as 0 */
        h = ecs_sched__hash_bytes(h, &nan, 1);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
    if (kind == ECS_SCHED_TYPE_CHARS) {
        size_t n = 0;
        while (n < f->element && p[n]) n++;
        return ecs_sched__hash_bytes(h, p, n);
    }
    if (kind == ECS_SCHED_TYPE_STRUCT) {
        return h ^ (ecs_sched_value_hash(w, f->type, p) * 0x9e3779b97f4a7c15ull);
    }
    if (kind == ECS_SCHED_TYPE_U64 || kind == ECS_SCHED_TYPE_ENTITY) {
        uint64_t x = ecs_sched__load_u64(p);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
    {
        int64_t x = ecs_sched__load_int(p, kind, f->element);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
}

uint64_t ecs_sched_value_hash(const ecs_sched_world *w, ecs_sched_id id, const void *value) {
    const ecs_sched__description *d;
    uint64_t h = 14695981039346656037ull;
    int32_t i, k;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(ecs_sched__component_valid(w, id) && value);
    d = ecs_sched__description_of(w, id);
    if (!d) return ecs_sched__hash_bytes(h, value, w->components[id].size);
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        for (k = 0; k < f->count; k++) {
            h = ecs_sched__hash_element(w, f, (const unsigned char *)value + f->offset +
                                                  (size_t)k * f->element, h);
        }
    }
    return h;
}
