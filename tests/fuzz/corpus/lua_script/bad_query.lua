ecs.system{ name = "q", query = "Position,, [out", run = function() end }
