package proc

import "testing"

// A process is the Ctrl-C sender only where there is one (Windows), and only when started with
// the variable set; every other process goes on to its own main.
func TestCtrlCSenderDecision(t *testing.T) {
	getenv := func(value string) func(string) string {
		return func(name string) string {
			if name == ctrlCEnv {
				return value
			}
			return ""
		}
	}
	for _, tc := range []struct {
		hasSender bool
		value     string
		want      bool
	}{
		{true, "1", true},
		{true, "", false},
		{false, "1", false},
		{false, "", false},
	} {
		if got := isCtrlCSender(tc.hasSender, getenv(tc.value)); got != tc.want {
			t.Errorf("isCtrlCSender(platform has a sender: %v, %s=%q) = %v, want %v", tc.hasSender, ctrlCEnv, tc.value, got, tc.want)
		}
	}
}
