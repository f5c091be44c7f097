// Package testenv lets a test require something beyond the Go toolchain: a program such as
// Chromium, Node or Python, or the race detector. A test that lacks what it needs is skipped
// with a message that names it and says how to install it, so that the suite passes on a
// machine with only Go and "go run ./internal/cmd/testall" lists what was skipped and why. When the
// environment variable CI is true, the same test fails instead: CI must never pass by
// skipping.
//
//	func TestReportInBrowser(t *testing.T) {
//		chromium := testenv.NeedChromium(t)
//		cmd := exec.CommandContext(t.Context(), chromium, "--headless", "--dump-dom", page)
//		...
//	}
//
// Only tests import this package.
package testenv
