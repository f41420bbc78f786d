ecs.system{ name = "a", after = "b", run = function() end }
ecs.system{ name = "b", after = {"a"}, run = function() end }
