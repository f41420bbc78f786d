-- Scoring: each meal a villager has had is worth POINTS to the village. The example rewrites
-- this line while the game runs, and the new rule takes effect at the next frame.
local POINTS = 1

ecs.component{ name = "Score", fields = { {"points", "i32"} } }

ecs.system{ name = "score", query = "[in] Meals, [inout] Score", after = "eat",
            run = function(it)
    for row in it:rows() do row.Score.points = row.Meals.count * POINTS end
end }

ecs.system{ name = "keep_score", schedule = "PostStartup", query = "[in] Meals, !Score",
            commands = true, run = function(it)
    for row in it:rows() do ecs.insert(row.entity, "Score", { points = 0 }) end
end }
