ecs.system{ name = "x", colour = "red", run = 3 }
