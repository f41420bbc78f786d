ecs.component{ name = "Stats", fields = {
    {"a", "i8"}, {"b", "i16"}, {"c", "i32"}, {"d", "i64"},
    {"e", "u8"}, {"f", "u16"}, {"g", "u32"}, {"h", "u64"},
    {"x", "f32"}, {"y", "f64"}, {"alive", "bool"}, {"target", "entity"},
    {"label", "chars", 12} } }

ecs.system{ name = "make", schedule = "Update", run = function(it)
    ecs.spawn{ Stats = { a = -3, b = 300, c = 70000, d = 2^40, e = 200, f = 60000,
                         g = 4000000000, h = 5, x = 1.5, y = 0.25, alive = true,
                         label = "hello" } }
end }

ecs.system{ name = "grow", schedule = "Update", after = "make", query = "[inout] Stats",
            run = function(it)
    for row in it:rows() do
        local s = row.Stats
        s.a = s.a + 1; s.c = s.c * 2; s.x = s.x + it.dt
        s.label = s.label .. "!"
        s.target = row.entity
        if s.c > 1000000 then ecs.despawn(row.entity) end
    end
end }
