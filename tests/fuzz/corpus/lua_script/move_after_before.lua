ecs.system{ name = "plan", run = function(it) end }
ecs.system{ name = "move", query = "[inout] Position, [in] Velocity",
            after = "plan", before = {"show"}, run = function(it)
    for row in it:rows() do
        row.Position.x = row.Position.x + row.Velocity.x * it.dt
        row.Position.y = row.Position.y + row.Velocity.y
    end
end }
ecs.system{ name = "show", schedule = "Update", query = "[in] Position, !Velocity",
            run = function(it)
    for row in it:rows() do print(row.entity, row.Position.x, tostring(row.Position)) end
end }
