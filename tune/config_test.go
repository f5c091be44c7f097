package tune

import (
	"encoding/json"
	"strings"
	"testing"
)

// A pool names a tune run by a hash of its Config's JSON, and keeps the submission as JSON: the
// gains keep the key they were first written under, Schedule, so that run ids and stored
// submissions stay valid.
func TestConfigJSONKeepsScheduleKey(t *testing.T) {
	b, err := json.Marshal(Config{Gains: NewGains(10)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"Schedule":{"Iterations":10,"A":1,"Alpha":0.602,"Gamma":0.101}`; !strings.Contains(string(b), want) {
		t.Errorf("Config as JSON: %s; want it to hold %s", b, want)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back.Gains != NewGains(10) {
		t.Errorf("decoded back: gains %+v, %v; want %+v", back.Gains, err, NewGains(10))
	}
}
