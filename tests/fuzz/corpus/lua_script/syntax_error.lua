ecs.system{ name = "broken", run = function(it)
    for row in it:rows( do end
end
