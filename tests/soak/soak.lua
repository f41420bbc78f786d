-- The soak run's script (tests/soak/soak_game_loop.c): it wears the debris the run spawns with
-- the hits the run sends, and despawns a piece worn through (with whatever hangs below it).
-- The run rewrites the VERSION line and reloads the script every 10 000 frames: even versions
-- give Wear one more field, so every reload migrates the values of Wear one way or the other.
local VERSION = 1

local wear_fields = { {"hits", "i32"}, {"damage", "f32"} }
if VERSION % 2 == 0 then wear_fields[#wear_fields + 1] = {"age", "i32"} end
ecs.component{ name = "Wear", fields = wear_fields }
ecs.component{ name = "Tally", fields = { {"hits", "i32"}, {"amount", "i32"}, {"version", "i32"} } }
ecs.init_resource("Tally")
ecs.message{ name = "Hit", fields = { {"amount", "i32"} } }

ecs.system{ name = "wear_in", schedule = "PostUpdate", query = "[in] Debris, !Wear", commands = true, run = function(it)
    for row in it:rows() do ecs.insert(row.entity, "Wear", { hits = 0, damage = 0 }) end
end }

ecs.system{ name = "wear", schedule = "PostUpdate", query = "[inout] Wear", after = "wear_in",
            receives = {"Hit"}, writes = {"Tally"}, commands = true, run = function(it)
    local tally = ecs.resource("Tally")
    local amount = 0
    for hit in ecs.messages("Hit") do
        amount = amount + hit.amount
        tally.hits = tally.hits + 1
    end
    tally.amount = tally.amount + amount
    tally.version = VERSION
    if amount == 0 then return end
    for row in it:rows() do
        local wear = row.Wear
        wear.hits = wear.hits + 1
        wear.damage = wear.damage + amount
        if VERSION % 2 == 0 then wear.age = wear.age + 1 end
        if wear.damage > 3000 then ecs.despawn(row.entity) end
    end
end }
