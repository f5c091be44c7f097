package notests

func Answer() int { return 42 }
