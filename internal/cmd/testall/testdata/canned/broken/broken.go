package broken

func Answer() int { return "forty-two" }
