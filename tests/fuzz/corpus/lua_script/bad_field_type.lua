ecs.component{ name = "Odd", fields = { {"a", "i32"}, {"a", "nope"} } }
