-- The villagers' rules: what they are made of, how hunger grows, when they eat, and that they
-- sleep off their hunger when night falls (a state's OnEnter schedule).

ecs.component{ name = "Hunger", fields = { {"value", "f32"}, {"rate", "f32"} } }
ecs.component{ name = "Meals", fields = { {"count", "i32"} } }

ecs.system{ name = "settle", schedule = "Startup", commands = true, run = function(it)
    ecs.spawn{ Hunger = { value = 0.25, rate = 1.0 }, Meals = { count = 0 } }
    ecs.spawn{ Hunger = { value = 0.5, rate = 2.0 }, Meals = { count = 0 } }
    ecs.spawn{ Hunger = { value = 0.0, rate = 0.5 }, Meals = { count = 0 } }
end }

ecs.system{ name = "get_hungry", query = "[inout] Hunger", run = function(it)
    for row in it:rows() do
        row.Hunger.value = row.Hunger.value + row.Hunger.rate * it.dt
    end
end }

ecs.system{ name = "eat", query = "[inout] Hunger, [inout] Meals", after = "get_hungry",
            run = function(it)
    for row in it:rows() do
        if row.Hunger.value >= 1.0 then
            row.Hunger.value = 0
            row.Meals.count = row.Meals.count + 1
        end
    end
end }

ecs.system{ name = "sleep", schedule = "OnEnter(Phase::Night)", query = "[inout] Hunger",
            run = function(it)
    for row in it:rows() do row.Hunger.value = 0 end
end }
