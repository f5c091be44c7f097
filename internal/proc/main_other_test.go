//go:build !windows

package proc

import "testing"

// Only where there is no Ctrl-C sender: on Windows, with the variable set, Main would serve as
// the sender and exit the test binary (TestCtrlCSenderDecision judges that decision there).

// Main returns where there is no sender, even with the variable set, and lets the program
// start copies of itself as helpers (this test binary calls it in TestMain).
func TestMainReturnsWithoutSender(t *testing.T) {
	t.Setenv(ctrlCEnv, "1")
	Main()
	if !mainCalled.Load() {
		t.Error("Main did not record its call")
	}
}
