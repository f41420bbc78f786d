ecs.component{ name = "Speed", fields = { {"v", "f32"} } }
ecs.system{ name = "go", query = "[inout] Position", run = function(it)
    for row in it:rows() do row.Position.x = row.Position.x + 1 end
end }

--@@
ecs.component{ name = "Speed", fields = { {"v", "f64"} } }
ecs.system{ name = "go", query = "[in] Position", run = function(it)
    for row in it:rows() do row.Position.x = 3 end
end }
ecs.system{ name = "later", after = "go", run = function(it) ecs.spawn{ Position = { x = 1 } } end }
