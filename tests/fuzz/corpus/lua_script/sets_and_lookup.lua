ecs.component{ name = "Tagged", fields = { {"n", "u8"} } }
ecs.system{ name = "first", schedule = "PostUpdate", in_set = {"gameplay"}, run = function(it)
    local e = ecs.lookup("nobody.here")
    print(e, ecs.delta_time())
end }
ecs.system{ name = "second", schedule = "PostUpdate", in_set = "gameplay", after = {"first"},
            query = "Tagged, Position", run = function(it)
    for row in it:rows() do row.Tagged.n = row.Tagged.n + 1 end
end }
