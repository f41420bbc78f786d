ecs.component{ name = "Health", fields = { {"hp", "f32"}, {"max", "i32"} } }
ecs.observer{ name = "born", event = "add", component = "Health",
              run = function(e) e.Health.hp = 100; e.Health.max = 100 end }
ecs.observer{ name = "hurt", event = "set", component = "Health",
              run = function(e) if e.Health.hp < 0 then e.Health.hp = 0 end end }
ecs.observer{ name = "gone", event = "remove", component = "Health",
              run = function(e) print(e.Health.hp) end }
ecs.observer{ name = "moved", event = "insert", component = "Position",
              run = function(e) e.Position.x = 0 end }
ecs.system{ name = "spawner", schedule = "Update", query = "[in] Position",
            run = function(it)
    for row in it:rows() do
        local e = ecs.spawn{ Health = { hp = 5 } }
        ecs.insert(row.entity, "Health", { hp = -3 })
        ecs.remove(row.entity, "Health")
    end
end }
