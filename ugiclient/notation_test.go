package ugiclient

import (
	"strings"
	"testing"
)

func TestParseInfo(t *testing.T) {
	in, err := ParseInfo("info depth 7 seldepth 9 score cp -35 nodes 123456 time 250 nps 493824 hashfull 3 pv wA1_-wS1 bQ_bS1/ pass")
	if err != nil {
		t.Fatal(err)
	}
	s := in.Search
	if s.Depth != 7 || s.Score == nil || *s.Score != -35 || s.Mate != nil || s.Nodes != 123456 || s.Millis != 250 || s.NPS != 493824 ||
		strings.Join(s.PV, ",") != `wA1 -wS1,bQ bS1/,pass` {
		t.Errorf("got %+v", s)
	}
	in, err = ParseInfo("info score mate -3 string it is lost")
	if err != nil || in.Search.Mate == nil || *in.Search.Mate != -3 || in.String != "it is lost" {
		t.Errorf("got %+v, %v", in, err)
	}
	in, err = ParseInfo("info error Base+MLP: not supported")
	if err != nil || !in.IsError || in.Error != "Base+MLP: not supported" {
		t.Errorf("got %+v, %v", in, err)
	}
	for _, bad := range []string{"info depth", "info depth x", "info score 12", "info pv a_b_c", "bestmove wS1"} {
		if _, err := ParseInfo(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseBestMove(t *testing.T) {
	for line, want := range map[string]string{"bestmove wS1": "wS1", "bestmove  bS1_wS1-\t": "bS1_wS1-", "bestmove pass": "pass"} {
		if got, err := ParseBestMove(line); err != nil || got != want {
			t.Errorf("%q: got %q, %v", line, got, err)
		}
	}
	for _, bad := range []string{"bestmove", "bestmove wS1 ponder", "best wS1", ""} {
		if _, err := ParseBestMove(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestStateOfResult(t *testing.T) {
	for _, tc := range []struct{ over, result, want string }{
		{"true", "p1win", "WhiteWins"}, {"true", "p2win", "BlackWins"}, {"true", "draw", "Draw"}, {"false", "none", "InProgress"},
	} {
		st, err := StateOfResult(tc.over, tc.result)
		if err != nil || st.String() != tc.want {
			t.Errorf("%s %s: got %v, %v", tc.over, tc.result, st, err)
		}
	}
	for _, bad := range [][2]string{{"true", "none"}, {"false", "p1win"}, {"yes", "draw"}, {"true", "win"}} {
		if _, err := StateOfResult(bad[0], bad[1]); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseOption(t *testing.T) {
	o, err := ParseOption("option name Max Depth type spin default 0 min 0 max 99")
	if err != nil || o.Name != "Max Depth" || o.Type != "spin" || o.Default != "0" || o.Min != "0" || o.Max != "99" {
		t.Errorf("got %+v, %v", o, err)
	}
	o, err = ParseOption("option name Profile type combo default strong var weak var strong")
	if err != nil || len(o.Vars) != 2 {
		t.Errorf("got %+v, %v", o, err)
	}
}

func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{"info depth 7 score cp -35 nodes 1 time 2 nps 3 pv wA1_-wS1", "info score mate 2", "info error x", "info string s", "info pv a_b_c", "info depth 99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		in, err := ParseInfo(line)
		if err != nil {
			return
		}
		for _, m := range in.Search.PV {
			if strings.Count(m, " ") > 1 || strings.Contains(m, "_") && strings.Count(m, "_")+strings.Count(m, " ") > 1 {
				t.Errorf("pv move %q", m)
			}
		}
		if in.Search.Depth < 0 {
			t.Errorf("negative depth %d", in.Search.Depth)
		}
	})
}

func FuzzParseBestMove(f *testing.F) {
	for _, s := range []string{"bestmove wS1", "bestmove", "bestmove a b", "bestmove bS1_wS1-", "bestmove 0000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		tok, err := ParseBestMove(line)
		if err != nil {
			return
		}
		if tok == "" || strings.ContainsAny(tok, " \t\n") {
			t.Errorf("token %q", tok)
		}
		if m, err := DecodeMove(tok); err == nil && EncodeMove(m) != tok {
			t.Errorf("%q decodes to %q, which encodes to %q", tok, m, EncodeMove(m))
		}
	})
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{"response true", "response p1win", "response", "response a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		v, err := ParseResponse(line)
		if err == nil && (v == "" || strings.ContainsAny(v, " \t\n")) {
			t.Errorf("value %q", v)
		}
		_, _ = StateOfResult(v, v)
	})
}

func FuzzParseOption(f *testing.F) {
	for _, s := range []string{"option name Hash type spin default 16 min 1 max 1024", "option name A B type combo default x var x var y", "option name type"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := ParseOption(line)
		if err == nil && (o.Name == "" || o.Type == "") {
			t.Errorf("got %+v", o)
		}
	})
}
