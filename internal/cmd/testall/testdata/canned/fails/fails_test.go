package fails

import "testing"

func TestPasses(t *testing.T) { t.Log("hidden: a passing test's log") }

func TestFails(t *testing.T) {
	t.Log("shown: a failing test's log")
	t.Error("got 3, want 4")
}

func TestSubtestFails(t *testing.T) {
	t.Run("ok", func(t *testing.T) { t.Log("hidden: a passing subtest's log") })
	t.Run("bad", func(t *testing.T) { t.Fatal("bad subtest") })
}

func TestSkips(t *testing.T) {
	t.Skip("needs node, not in PATH (looked for node, nodejs); install it: apt-get install nodejs")
}
