/* Relationships and hierarchies: iteration of a world of many small families, transforms
   propagated parent before child, the children of a parent, recursive despawns and path
   lookups. Included by bench.c after the other world rows, whose helpers it uses. */

/* A deterministic stream of numbers, the same in every run. */
static uint32_t hier_random(uint32_t *state) {
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* ---- iter_hierarchy: 100k parents of 1-3 children, the iter_1m frame over all ---- */

#define FAMILY_PARENTS 100000

typedef struct family_world {
    ecs_sched_world *world;
    ecs_sched_query *query;
    int32_t count;
} family_world;

static int family_frames(bench_row *row, void *state, int32_t reps) {
    const family_world *f = (const family_world *)state;
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(f->query);
        while (ecs_sched_iter_next(&it)) {
            move_kernel(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, const Velocity, 1),
                        it.count);
        }
        BENCH_CLOBBER(&it);
    }
    return 1;
}

/* 100k parents, each followed by 1 to 3 children (made children of it when `related`). */
static int family_make(bench_row *row, family_world *f, int related) {
    ecs_sched_id pos, vel, ids[2];
    uint32_t seed = 7;
    int32_t i, k;
    f->world = make_world(NULL, &pos, &vel);
    if (!f->world) {
        fail(row, "world creation", NULL);
        return 0;
    }
    ids[0] = pos;
    ids[1] = vel;
    f->count = 0;
    for (i = 0; i < FAMILY_PARENTS; i++) {
        int32_t children = 1 + (int32_t)(hier_random(&seed) % 3);
        ecs_sched_entity parent;
        Position p = initial_position(f->count);
        Velocity v = initial_velocity(f->count);
        const void *values[2];
        values[0] = &p;
        values[1] = &v;
        parent = ecs_sched_spawn_with(f->world, 2, ids, values);
        f->count++;
        for (k = 0; k < children; k++) {
            ecs_sched_entity child;
            p = initial_position(f->count);
            v = initial_velocity(f->count);
            child = ecs_sched_spawn_with(f->world, 2, ids, values);
            f->count++;
            if (!child || (related && ecs_sched_set_parent(f->world, child, parent) != ECS_SCHED_OK)) {
                fail(row, "setup", f->world);
                return 0;
            }
        }
    }
    f->query = make_move_query(f->world, pos, vel);
    if (!f->query) {
        fail(row, "ecs_sched_query_create", f->world);
        return 0;
    }
    return 1;
}

static void run_iter_hierarchy(bench_row *row) {
    family_world flat, families;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    memset(&flat, 0, sizeof flat);
    memset(&families, 0, sizeof families);
    if (!family_make(row, &flat, 0) || !family_make(row, &families, 1)) goto done;
    s.baseline = looped(family_frames, &flat);
    s.measured = looped(family_frames, &families);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities: %d parents, each with 1 to 3 children (ChildOf); the iter_1m "
                     "frame (write Position, read Velocity) over all of them; %d tables with the "
                     "hierarchy, %d without",
                (int)families.count, FAMILY_PARENTS,
                (int)ecs_sched_archetype_count(families.world),
                (int)ecs_sched_archetype_count(flat.world));
        if (query_checksum(families.query) != query_checksum(flat.query)) {
            fail(row, "the two worlds disagree", NULL);
        }
    }
done:
    if (flat.world) ecs_sched_world_destroy(flat.world);
    if (families.world) ecs_sched_world_destroy(families.world);
}

/* ---- propagate_transforms: 100k entities in 1000 trees, global = parent's global + local ---- */

#define TREE_COUNT 1000
#define TREE_SIZE 100
#define TREE_DEPTH 8

typedef struct { float x, y, c, s; } Transform2;

static Transform2 compose2(const Transform2 *parent, const Transform2 *local) {
    Transform2 t;
    t.x = parent->x + parent->c * local->x - parent->s * local->y;
    t.y = parent->y + parent->s * local->x + parent->c * local->y;
    t.c = parent->c * local->c - parent->s * local->s;
    t.s = parent->s * local->c + parent->c * local->s;
    return t;
}

/* The forest twice: in a world (spawned tree by tree, each node after its parent), and as
   arrays in parent-before-child order with each node's parent index (or -1). */
typedef struct forest {
    ecs_sched_world *world;
    ecs_sched_query *query;
    ecs_sched_id local, global;
    ecs_sched_entity *entities;
    Transform2 *local_of, *global_of;     /* the arrays, in breadth-first order */
    int32_t *parent_of;
    int32_t count;
} forest;

static int propagate_frames(bench_row *row, void *state, int32_t reps) {
    const forest *f = (const forest *)state;
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(f->query);
        while (ecs_sched_iter_next(&it)) {
            Transform2 *global = ECS_SCHED_FIELD(&it, Transform2, 0);
            const Transform2 *local = ECS_SCHED_FIELD(&it, const Transform2, 1);
            const Transform2 *const *parent = ECS_SCHED_PARENT_FIELD(&it, Transform2, 2);
            int32_t i;
            for (i = 0; i < it.count; i++) {
                global[i] = parent[i] ? compose2(parent[i], &local[i]) : local[i];
            }
        }
        BENCH_CLOBBER(&it);
    }
    return 1;
}

static int propagate_raw_frames(bench_row *row, void *state, int32_t reps) {
    const forest *f = (const forest *)state;
    int32_t r, i;
    (void)row;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < f->count; i++) {
            int32_t p = f->parent_of[i];
            f->global_of[i] = p < 0 ? f->local_of[i] : compose2(&f->global_of[p], &f->local_of[i]);
        }
        BENCH_CLOBBER(f->global_of);
    }
    return 1;
}

static Transform2 tree_local(uint32_t *seed) {
    Transform2 t;
    t.x = (float)(hier_random(seed) % 9) - 4.0f;
    t.y = (float)(hier_random(seed) % 9) - 4.0f;
    t.c = (hier_random(seed) & 1) ? 0.8f : 1.0f;
    t.s = t.c == 0.8f ? 0.6f : 0.0f;
    return t;
}

/* One tree: node 0 the root, each later node under a random earlier one less than
   TREE_DEPTH deep; spawned depth first (a node, then its subtree), as a game builds a scene. */
static int forest_make(bench_row *row, forest *f) {
    ecs_sched_world *w;
    ecs_sched_query_desc desc;
    uint32_t seed = 11;
    int32_t t, i, n = TREE_COUNT * TREE_SIZE;
    int32_t tree_parent[TREE_SIZE], tree_depth[TREE_SIZE], order[TREE_SIZE];
    Transform2 tree_local_of[TREE_SIZE];
    f->entities = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *f->entities);
    f->local_of = (Transform2 *)xmalloc((size_t)n * sizeof *f->local_of);
    f->global_of = (Transform2 *)xmalloc((size_t)n * sizeof *f->global_of);
    f->parent_of = (int32_t *)xmalloc((size_t)n * sizeof *f->parent_of);
    f->world = w = ecs_sched_world_create(NULL);
    if (!w) {
        fail(row, "world creation", NULL);
        return 0;
    }
    f->local = ecs_sched_component_register_type(w, "Local2", sizeof(Transform2), ECS_SCHED_ALIGNOF(Transform2));
    f->global = ecs_sched_component_register_type(w, "Global2", sizeof(Transform2), ECS_SCHED_ALIGNOF(Transform2));
    f->count = 0;
    for (t = 0; t < TREE_COUNT; t++) {
        int32_t base = t * TREE_SIZE, level, at = 0;
        tree_parent[0] = -1;
        tree_depth[0] = 0;
        tree_local_of[0] = tree_local(&seed);
        for (i = 1; i < TREE_SIZE; i++) {
            int32_t p;
            do p = (int32_t)(hier_random(&seed) % (uint32_t)i); while (tree_depth[p] >= TREE_DEPTH);
            tree_parent[i] = p;
            tree_depth[i] = tree_depth[p] + 1;
            tree_local_of[i] = tree_local(&seed);
        }
        /* the arrays: breadth first */
        for (level = 0; level <= TREE_DEPTH; level++) {
            for (i = 0; i < TREE_SIZE; i++) {
                if (tree_depth[i] == level) order[at++] = i;
            }
        }
        for (i = 0; i < TREE_SIZE; i++) {
            int32_t node = order[i], k;
            f->local_of[base + i] = tree_local_of[node];
            f->parent_of[base + i] = -1;
            for (k = 0; k < i && tree_parent[node] >= 0; k++) {
                if (order[k] == tree_parent[node]) f->parent_of[base + i] = base + k;
            }
        }
        /* the world: each node spawned after its parent, in index order (parents come first) */
        for (i = 0; i < TREE_SIZE; i++) {
            ecs_sched_id ids[2];
            const void *values[2];
            ecs_sched_entity e;
            ids[0] = f->local;
            ids[1] = f->global;
            values[0] = &tree_local_of[i];
            values[1] = &tree_local_of[i];
            e = ecs_sched_spawn_with(w, 2, ids, values);
            f->entities[base + i] = e;
            if (!e || (tree_parent[i] >= 0 &&
                       ecs_sched_set_parent(w, e, f->entities[base + tree_parent[i]]) != ECS_SCHED_OK)) {
                fail(row, "setup", w);
                return 0;
            }
        }
    }
    f->count = n;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_write(f->global);
    desc.terms[1] = ecs_sched_read(f->local);
    desc.terms[2] = ecs_sched_optional_from_parent(f->global);
    desc.terms[3] = ecs_sched_cascade(ecs_sched_child_of(w));
    f->query = ecs_sched_query_create(w, &desc);
    if (!f->query) {
        fail(row, "ecs_sched_query_create", w);
        return 0;
    }
    return 1;
}

static void forest_free(forest *f) {
    if (f->world) ecs_sched_world_destroy(f->world);
    free(f->entities);
    free(f->local_of);
    free(f->global_of);
    free(f->parent_of);
}

/* The sum of the globals, world and arrays alike. */
static double forest_sums(const forest *f, double *raw) {
    double sum = 0.0;
    ecs_sched_iter it = ecs_sched_query_iter(f->query);
    int32_t i;
    while (ecs_sched_iter_next(&it)) {
        const Transform2 *g = ECS_SCHED_FIELD(&it, const Transform2, 0);
        for (i = 0; i < it.count; i++) sum += (double)g[i].x + (double)g[i].y;
    }
    *raw = 0.0;
    for (i = 0; i < f->count; i++) *raw += (double)f->global_of[i].x + (double)f->global_of[i].y;
    return sum;
}

static void run_propagate_transforms(bench_row *row) {
    forest f;
    bench_sampling s = sampling(1, 1e3);
    bench_medians m;
    double sum, raw;
    memset(&f, 0, sizeof f);
    if (!forest_make(row, &f)) goto done;
    s.baseline = looped(propagate_raw_frames, &f);
    s.measured = looped(propagate_frames, &f);
    if (sample_row(row, &s, &m)) {
        sum = forest_sums(&f, &raw);
        appendf(row, "%d entities in %d trees of %d, depth up to %d, spawned depth first; one "
                     "frame of global = parent's global composed with local (2D: position and "
                     "rotation) through a query (write Global, read Local, optional_from_parent "
                     "Global, cascade ChildOf); nothing changes between frames, so "
                     "the query's order is kept; the sums of the globals %s",
                (int)f.count, TREE_COUNT, TREE_SIZE, TREE_DEPTH,
                sum - raw < 1e-3 * (raw < 0 ? -raw : raw) + 1e-3 &&
                        raw - sum < 1e-3 * (raw < 0 ? -raw : raw) + 1e-3 ? "agree" : "DISAGREE");
        if (!(sum - raw < 1e-3 * (raw < 0 ? -raw : raw) + 1e-3 &&
              raw - sum < 1e-3 * (raw < 0 ? -raw : raw) + 1e-3)) {
            row->measured = 0;
        }
    }
done:
    forest_free(&f);
}

/* ---- children_iter: the children of 1000 parents of 100 ---- */

#define CHILD_PARENTS 1000
#define CHILDREN_EACH 100

typedef struct child_lists {
    ecs_sched_world *world;
    ecs_sched_entity *parents;
    ecs_sched_entity *plain;      /* per parent, its children, in a plain array */
} child_lists;

static int children_frames(bench_row *row, void *state, int32_t reps) {
    const child_lists *c = (const child_lists *)state;
    uint64_t sum = 0;
    int32_t r, p, i;
    for (r = 0; r < reps; r++) {
        for (p = 0; p < CHILD_PARENTS; p++) {
            int32_t n;
            const ecs_sched_entity *kids = ecs_sched_children(c->world, c->parents[p], &n);
            for (i = 0; i < n; i++) sum += kids[i];
        }
    }
    BENCH_CLOBBER(&sum);
    if (sum == 0) {
        fail(row, "no children", NULL);
        return 0;
    }
    return 1;
}

static int children_raw_frames(bench_row *row, void *state, int32_t reps) {
    const child_lists *c = (const child_lists *)state;
    uint64_t sum = 0;
    int32_t r, p, i;
    (void)row;
    for (r = 0; r < reps; r++) {
        for (p = 0; p < CHILD_PARENTS; p++) {
            const ecs_sched_entity *kids = c->plain + (size_t)p * CHILDREN_EACH;
            for (i = 0; i < CHILDREN_EACH; i++) sum += kids[i];
        }
    }
    BENCH_CLOBBER(&sum);
    return 1;
}

static void run_children_iter(bench_row *row) {
    child_lists c;
    bench_sampling s = sampling(100, CHILD_PARENTS);
    bench_medians m;
    ecs_sched_id pos, vel;
    int32_t p, i;
    memset(&c, 0, sizeof c);
    c.parents = (ecs_sched_entity *)xmalloc(CHILD_PARENTS * sizeof *c.parents);
    c.plain = (ecs_sched_entity *)xmalloc((size_t)CHILD_PARENTS * CHILDREN_EACH * sizeof *c.plain);
    c.world = make_world(NULL, &pos, &vel);
    if (!c.world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    for (p = 0; p < CHILD_PARENTS; p++) c.parents[p] = ecs_sched_spawn(c.world);
    for (i = 0; i < CHILDREN_EACH; i++) {   /* the families grow side by side */
        for (p = 0; p < CHILD_PARENTS; p++) {
            ecs_sched_entity kid = ecs_sched_spawn(c.world);
            c.plain[(size_t)p * CHILDREN_EACH + i] = kid;
            if (ecs_sched_set_parent(c.world, kid, c.parents[p]) != ECS_SCHED_OK) {
                fail(row, "setup", c.world);
                goto done;
            }
        }
    }
    s.baseline = looped(children_raw_frames, &c);
    s.measured = looped(children_frames, &c);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d parents of %d children each (made side by side); a visit sums the "
                     "children's handles from ecs_sched_children; ns per parent",
                CHILD_PARENTS, CHILDREN_EACH);
    }
done:
    if (c.world) ecs_sched_world_destroy(c.world);
    free(c.parents);
    free(c.plain);
}

/* ---- despawn_recursive: 1000 trees of 100 despawned by their roots ---- */

typedef struct despawn_job {
    int recursive;
} despawn_job;

/* A world of 100k entities with Position and Velocity, as 1000 trees (recursive) or flat;
   timed: despawning the roots (or every entity). */
static double despawn_side(bench_row *row, void *state) {
    const despawn_job *job = (const despawn_job *)state;
    int32_t n = TREE_COUNT * TREE_SIZE, t, i;
    ecs_sched_entity *e = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *e);
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    uint32_t seed = 5;
    ecs_sched_world *w = make_world(NULL, &pos, &vel);
    double t0, ns = -1.0;
    fill_values(pv, vv, n);
    ids[0] = pos;
    ids[1] = vel;
    arrays[0] = pv;
    arrays[1] = vv;
    if (!w || ecs_sched_spawn_batch(w, n, 2, ids, arrays, e) != ECS_SCHED_OK) {
        fail(row, "setup", w);
        goto done;
    }
    for (t = 0; job->recursive && t < TREE_COUNT; t++) {
        for (i = 1; i < TREE_SIZE; i++) {
            int32_t p = (int32_t)(hier_random(&seed) % (uint32_t)i);
            if (ecs_sched_set_parent(w, e[t * TREE_SIZE + i], e[t * TREE_SIZE + p]) != ECS_SCHED_OK) {
                fail(row, "setup", w);
                goto done;
            }
        }
    }
    t0 = now_ns();
    for (i = 0; i < n; i += job->recursive ? TREE_SIZE : 1) {
        if (ecs_sched_despawn(w, e[i]) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_despawn", w);
            goto done;
        }
    }
    ns = now_ns() - t0;
    if (ecs_sched_entity_count(w) != 0) {
        fail(row, "entities left after the despawns", NULL);
        ns = -1.0;
    }
done:
    if (w) ecs_sched_world_destroy(w);
    free(e);
    free(pv);
    free(vv);
    return ns;
}

static void run_despawn_recursive(bench_row *row) {
    despawn_job flat, trees;
    bench_sampling s = sampling(1, TREE_COUNT * TREE_SIZE);
    bench_medians m;
    flat.recursive = 0;
    trees.recursive = 1;
    s.baseline = timed(despawn_side, &flat);
    s.measured = timed(despawn_side, &trees);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity in %d trees of %d (each node under "
                     "a random earlier one); timed: ecs_sched_despawn of the %d roots, which "
                     "despawns the trees; ns per entity despawned; a fresh world per sample",
                TREE_COUNT * TREE_SIZE, TREE_COUNT, TREE_SIZE, TREE_COUNT);
    }
}

/* ---- lookup_path: a 3-level path among 100k named entities ---- */

#define PATH_ROOTS 100
#define PATH_MIDS 100
#define PATH_LEAVES 10
#define PATH_LOOKUPS 1000

typedef struct path_job {
    ecs_sched_world *world;
    char (*paths)[40];
    ecs_sched_entity *expected;
} path_job;

static int path_frames(bench_row *row, void *state, int32_t reps) {
    const path_job *job = (const path_job *)state;
    int32_t r, i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < PATH_LOOKUPS; i++) {
            ecs_sched_entity e = ecs_sched_lookup_path(job->world, ECS_SCHED_NULL_ENTITY,
                                                       job->paths[i], NULL);
            if (e != job->expected[i]) {
                fail(row, "ecs_sched_lookup_path found another entity", job->world);
                return 0;
            }
        }
    }
    return 1;
}

/* The floor of a hashed lookup: one pass of FNV-1a over each path. */
static int path_hash_frames(bench_row *row, void *state, int32_t reps) {
    const path_job *job = (const path_job *)state;
    uint64_t sum = 0;
    int32_t r, i;
    (void)row;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < PATH_LOOKUPS; i++) {
            const char *c = job->paths[i];
            uint64_t h = 14695981039346656037ull;
            while (*c) h = (h ^ (unsigned char)*c++) * 1099511628211ull;
            sum += h;
        }
    }
    BENCH_CLOBBER(&sum);
    bench_sink += (double)(sum & 1u);
    return 1;
}

static void run_lookup_path(bench_row *row) {
    path_job job;
    bench_sampling s = sampling(20, PATH_LOOKUPS);
    bench_medians m;
    uint32_t seed = 3;
    int32_t a, b, c, i;
    ecs_sched_entity *leaves = (ecs_sched_entity *)xmalloc((size_t)PATH_ROOTS * PATH_MIDS * PATH_LEAVES *
                                                           sizeof *leaves);
    char name[32];
    memset(&job, 0, sizeof job);
    job.paths = (char (*)[40])xmalloc(PATH_LOOKUPS * sizeof *job.paths);
    job.expected = (ecs_sched_entity *)xmalloc(PATH_LOOKUPS * sizeof *job.expected);
    job.world = ecs_sched_world_create(NULL);
    if (!job.world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    for (a = 0; a < PATH_ROOTS; a++) {
        ecs_sched_entity root = ecs_sched_spawn(job.world);
        snprintf(name, sizeof name, "root_%d", (int)a);
        if (ecs_sched_set_name(job.world, root, name) != ECS_SCHED_OK) goto setup_failed;
        for (b = 0; b < PATH_MIDS; b++) {
            ecs_sched_entity mid = ecs_sched_spawn(job.world);
            snprintf(name, sizeof name, "part_%d", (int)b);
            if (ecs_sched_set_parent(job.world, mid, root) != ECS_SCHED_OK ||
                ecs_sched_set_name(job.world, mid, name) != ECS_SCHED_OK) {
                goto setup_failed;
            }
            for (c = 0; c < PATH_LEAVES; c++) {
                ecs_sched_entity leaf = ecs_sched_spawn(job.world);
                snprintf(name, sizeof name, "leaf_%d", (int)c);
                if (ecs_sched_set_parent(job.world, leaf, mid) != ECS_SCHED_OK ||
                    ecs_sched_set_name(job.world, leaf, name) != ECS_SCHED_OK) {
                    goto setup_failed;
                }
                leaves[(a * PATH_MIDS + b) * PATH_LEAVES + c] = leaf;
            }
        }
    }
    for (i = 0; i < PATH_LOOKUPS; i++) {
        a = (int32_t)(hier_random(&seed) % PATH_ROOTS);
        b = (int32_t)(hier_random(&seed) % PATH_MIDS);
        c = (int32_t)(hier_random(&seed) % PATH_LEAVES);
        snprintf(job.paths[i], sizeof job.paths[i], "root_%d.part_%d.leaf_%d", (int)a, (int)b, (int)c);
        job.expected[i] = leaves[(a * PATH_MIDS + b) * PATH_LEAVES + c];
    }
    s.measured = looped(path_frames, &job);
    s.baseline = looped(path_hash_frames, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d named entities (%d roots, %d children each, %d leaves under each "
                     "child); ecs_sched_lookup_path of %d random \"root_a.part_b.leaf_c\" paths; "
                     "ns per lookup",
                (int)ecs_sched_entity_count(job.world), PATH_ROOTS, PATH_MIDS, PATH_LEAVES,
                PATH_LOOKUPS);
    }
    goto done;
setup_failed:
    fail(row, "setup", job.world);
done:
    if (job.world) ecs_sched_world_destroy(job.world);
    free(job.paths);
    free(job.expected);
    free(leaves);
}

/* ---- sorted_query_unchanged: a sorted query over 100k entities when nothing changed ---- */

#define SORTED_COUNT 100000

static int by_x(ecs_sched_entity a, const void *va, ecs_sched_entity b, const void *vb) {
    float x = ((const Position *)va)->x, y = ((const Position *)vb)->x;
    (void)a;
    (void)b;
    return (x > y) - (x < y);
}

typedef struct sorted_job {
    ecs_sched_world *world;
    ecs_sched_query *query;
} sorted_job;

/* Sums x and y over the query, run by run. */
static int sum_run_frames(bench_row *row, void *state, int32_t reps) {
    const sorted_job *job = (const sorted_job *)state;
    double sum = 0.0;
    int32_t r, i;
    (void)row;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(job->query);
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            for (i = 0; i < it.count; i++) sum += (double)p[i].x + (double)p[i].y;
        }
    }
    bench_sink += sum;
    return 1;
}

/* Sums x and y over the query, by index. */
static int sum_frames(bench_row *row, void *state, int32_t reps) {
    const sorted_job *job = (const sorted_job *)state;
    double sum = 0.0;
    int32_t r, i;
    (void)row;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(job->query);
        while (ecs_sched_iter_next_rows(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            for (i = 0; i < it.count; i++) sum += (double)p[it.rows[i]].x + (double)p[it.rows[i]].y;
        }
    }
    bench_sink += sum;
    return 1;
}

static int sorted_make(bench_row *row, sorted_job *job, int sorted, int shuffled) {
    ecs_sched_id pos, vel, ids[2];
    Position *pv = (Position *)xmalloc((size_t)SORTED_COUNT * sizeof *pv);
    const void *arrays[2];
    ecs_sched_query_desc desc;
    uint32_t seed = 9;
    int32_t i, ok = 0;
    job->world = make_world_tracking(NULL, 1, &pos, &vel);
    if (!job->world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    for (i = 0; i < SORTED_COUNT; i++) {
        pv[i].x = shuffled ? (float)(hier_random(&seed) % 1000000u) : (float)i;
        pv[i].y = 1.0f;
    }
    ids[0] = pos;
    ids[1] = vel;
    arrays[0] = pv;
    arrays[1] = NULL;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(pos);
    if (ecs_sched_spawn_batch(job->world, SORTED_COUNT, 2, ids, arrays, NULL) != ECS_SCHED_OK ||
        !(job->query = ecs_sched_query_create(job->world, &desc)) ||
        (sorted && ecs_sched_query_order_by(job->query, pos, by_x) != ECS_SCHED_OK)) {
        fail(row, "setup", job->world);
        goto done;
    }
    ok = 1;
done:
    free(pv);
    return ok;
}

static void run_sorted_query_unchanged(bench_row *row) {
    sorted_job plain, sorted, scattered;
    bench_sampling s = sampling(10, 1e3);
    bench_medians m;
    memset(&plain, 0, sizeof plain);
    memset(&sorted, 0, sizeof sorted);
    memset(&scattered, 0, sizeof scattered);
    if (!sorted_make(row, &plain, 0, 0) || !sorted_make(row, &sorted, 1, 0) ||
        !sorted_make(row, &scattered, 1, 1)) {
        goto done;
    }
    s.baseline = looped(sum_run_frames, &plain);
    s.measured = looped(sum_run_frames, &sorted);
    s.extras[0] = looped(sum_frames, &scattered);
    s.extras[1] = looped(sum_frames, &plain);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position (tracked) and Velocity, spawned in x order; a "
                     "query reading Position sorted by x (ecs_sched_query_order_by), nothing "
                     "changed since its last iteration, summing x and y run by run; us per "
                     "iteration. With x random, so that the sort scatters the rows, read by "
                     "index: %.1f us, %.2fx the unsorted query read by index (%.1f us)",
                SORTED_COUNT, m.extras[0], m.extras[0] / m.extras[1], m.extras[1]);
    }
done:
    if (plain.world) ecs_sched_world_destroy(plain.world);
    if (sorted.world) ecs_sched_world_destroy(sorted.world);
    if (scattered.world) ecs_sched_world_destroy(scattered.world);
}
