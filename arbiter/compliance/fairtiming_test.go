package compliance

import (
	"strings"
	"testing"
)

// FairOption sets what fair timing needs of the options open engines list, each in the
// engine's own terms, and leaves every other option alone.
func TestFairOption(t *testing.T) {
	tests := []struct {
		line string // Name;Type;Value;Default[;Extra...], as UHP lists an option
		want string // "" for an option fair timing leaves alone
	}{
		{"NumThreads;int;2;2;1;64", "1"},                          // nokamute
		{"Threads;int;1;1;1;64", "1"},                             // hivebot
		{"MaxHelperThreads;enum;Auto;Auto;None;1;2;Auto", "None"}, // Mzinga
		{"PonderDuringIdle;enum;SingleThreaded;SingleThreaded;Disabled;SingleThreaded;MultiThreaded", "Disabled"}, // Mzinga
		{"Ponder;bool;true;true", "false"},
		{"TranspositionTableSizeMB;int;32;32;1;1024", "32"},
		{"Hash;int;64;16;1;4096", "64"},
		{"TableSizeMiB;int;100;100;1;256", "100"},         // nokamute
		{"BackgroundPondering;bool;False;False", "False"}, // nokamute, which refuses "false"
		{"RandomOpening;bool;False;False", ""},
		{"Aggression;int;3;3;1;5", ""},
		{"Profile;enum;strong;strong;random;weak;medium;strong", ""},
		{"PonderMode;enum;Always;Always;Always;Sometimes", ""}, // no value that turns it off
	}
	for _, tt := range tests {
		f := strings.Split(tt.line, ";")
		got, why, ok := FairOption(f[0], f[1], f[2], f[4:])
		if got != tt.want || ok != (tt.want != "") || ok && why == "" {
			t.Errorf("FairOption(%s) = %q, %q, %v; want %q", tt.line, got, why, ok, tt.want)
		}
	}
}
