print(io, os.execute, load, require, string.rep("ab", 4), os.clock() >= 0)
ecs.system{ name = "s", run = function(it) local t = {} for i = 1, 100 do t[i] = i .. "" end end }
ecs.spawn{ Position = { x = 1 } }
