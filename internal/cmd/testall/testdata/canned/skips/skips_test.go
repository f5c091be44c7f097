package skips

import "testing"

func TestPasses(t *testing.T) { t.Log("hidden: a passing test's log") }

func TestNeedsChromium(t *testing.T) {
	t.Skip("needs chromium, not in PATH (looked for chromium, chromium-browser); install it: apt-get install chromium")
}

func TestNeedsChromiumToo(t *testing.T) {
	t.Skip("needs chromium, not in PATH (looked for chromium, chromium-browser); install it: apt-get install chromium")
}

func TestSubtests(t *testing.T) {
	t.Run("fast", func(t *testing.T) {})
	t.Run("deep", func(t *testing.T) {
		if testing.Short() {
			t.Skip("deep perft in short mode")
		}
	})
}

func TestSkipNow(t *testing.T) { t.SkipNow() }

func TestTwoLineSkip(t *testing.T) { t.Skipf("first line\nsecond line") }
