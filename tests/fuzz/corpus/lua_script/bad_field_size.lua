ecs.component{ name = "Odd", fields = { {"a", "chars", 0} } }
