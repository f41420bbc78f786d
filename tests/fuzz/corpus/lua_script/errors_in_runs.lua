local kept
ecs.system{ name = "keep", query = "Position", run = function(it)
    for row in it:rows() do kept = row end
end }
ecs.system{ name = "use", after = "keep", run = function(it)
    if kept then print(kept.Position.x) end
end }
ecs.system{ name = "loop", run = function(it) while true do end end }
ecs.system{ name = "oops", run = function(it) error({}) end }
ecs.system{ name = "badwrite", query = "[in] Velocity", run = function(it)
    for row in it:rows() do row.Velocity.x = "text" end
end }
