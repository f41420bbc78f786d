ecs.observer{ name = "o", event = "explode", component = "Nothing", run = function() end }
