package arbiter

import "testing"

func TestClosestName(t *testing.T) {
	known := []string{"name", "cmd", "fractional", "start_timeout", "margin"}
	for _, tc := range []struct {
		name, want string
	}{
		{"nmae", "name"},
		{"cdm", "cmd"},
		{"fractinal", "fractional"},
		{"start-timeout", "start_timeout"},
		{"StartTimeout", "start_timeout"},
		{"margn", "margin"},
		{"colour", ""},
		{"x", ""},
	} {
		got, ok := ClosestName(tc.name, known)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("ClosestName(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}
