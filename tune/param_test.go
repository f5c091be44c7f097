package tune

import (
	"errors"
	"strings"
	"testing"
)

func TestParseParam(t *testing.T) {
	tests := []struct {
		in      string
		want    Param
		wantErr string
	}{
		{in: "Aggression,20,0,100,5,0.002", want: Param{Name: "Aggression", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 5, REnd: 0.002}},
		{in: " Blend , 0.5, 0, 1, 0.05, 0.01", want: Param{Name: "Blend", Start: 0.5, Min: 0, Max: 1, CEnd: 0.05, REnd: 0.01}},
		{in: "X,1,0,2.5,1,1", want: Param{Name: "X", Start: 1, Min: 0, Max: 2.5, CEnd: 1, REnd: 1}},
		{in: "X,1,0,2", wantErr: "got 4 fields"},
		{in: ",1,0,2,1,1", wantErr: "name"},
		{in: "X,abc,0,2,1,1", wantErr: "start \"abc\""},
		{in: "X,1,2,0,1,1", wantErr: "min 2 must be below max 0"},
		{in: "X,5,0,2,1,1", wantErr: "outside"},
		{in: "X,1,0,2,0,1", wantErr: "c_end 0"},
		{in: "X,1,0,2,1,-1", wantErr: "r_end -1"},
		{in: "X,NaN,0,2,1,1", wantErr: "finite"},
	}
	for _, tt := range tests {
		got, err := ParseParam(tt.in)
		if tt.wantErr != "" {
			var pe *ParamError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseParam(%q) = %v, want a *ParamError with %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseParam(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseFishtest(t *testing.T) {
	got, err := ParseFishtestLines("# a comment\nAggression, int, 20, 0, 100, 5, 0.002\n\nBlend, float, 0.5, 0, 1, 0.05, 0.01\n")
	want := []Param{
		{Name: "Aggression", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 5, REnd: 0.002},
		{Name: "Blend", Start: 0.5, Min: 0, Max: 1, CEnd: 0.05, REnd: 0.01},
	}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("ParseFishtestLines = %+v, %v; want %+v", got, err, want)
	}
	for in, wantErr := range map[string]string{
		"X, double, 1, 0, 2, 1, 1":                     "type \"double\"",
		"X, int, 1, 0, 2, 1":                           "got 6 fields",
		"X, int, 1, 0, 2, 1, 1\nX, int, 1, 0, 2, 1, 1": "given twice",
		"":                                    "no parameter",
		"ok, int, 1, 0, 2, 1, 1\nbad, int, 1": "line 2",
	} {
		if _, err := ParseFishtestLines(in); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("ParseFishtestLines(%q) = %v, want an error with %q", in, err, wantErr)
		}
	}
}

// A parameter that parses writes itself back to one that parses the same (its type aside),
// and a parser never panics.
func FuzzParseParam(f *testing.F) {
	for _, s := range []string{"Aggression,20,0,100,5,0.002", "X,0.5,0,1,0.05,0.01", "X,1,0", ",,,,,", "X,1e308,-1e308,1e308,1,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseParam(s)
		if err != nil {
			return
		}
		q, err := ParseParam(p.String())
		q.Int = p.Int
		if err != nil || q != p {
			t.Errorf("ParseParam(%q) = %+v; its String %q reads back as %+v, %v", s, p, p.String(), q, err)
		}
		if p.Start < p.Min || p.Start > p.Max || p.CEnd <= 0 || p.REnd <= 0 {
			t.Errorf("ParseParam(%q) accepted %+v", s, p)
		}
	})
}

func FuzzParseFishtestLines(f *testing.F) {
	for _, s := range []string{"A, int, 20, 0, 100, 5, 0.002\nB, float, 0.5, 0, 1, 0.05, 0.01", "# x\n\n", "A, int, 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		params, err := ParseFishtestLines(s)
		if err != nil {
			return
		}
		if CheckParams(params) != nil {
			t.Errorf("ParseFishtestLines(%q) accepted %+v", s, params)
		}
	})
}

func TestParseTOML(t *testing.T) {
	got, err := ParseTOML(`
[[param]]
name = "Aggression"
type = "int"
start = 20
min = 0
max = 100
c_end = 5
r_end = 0.002

[[param]]
name = "Blend"
start = 0.5
min = 0
max = 1
c_end = 0.05
r_end = 0.01
`)
	want := []Param{
		{Name: "Aggression", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 5, REnd: 0.002},
		{Name: "Blend", Start: 0.5, Min: 0, Max: 1, CEnd: 0.05, REnd: 0.01},
	}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("ParseTOML = %+v, %v; want %+v", got, err, want)
	}
	for in, wantErr := range map[string]string{
		"[[param]]\nname = \"X\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 1":                               "has no r_end",
		"[[param]]\nname = \"X\"\ntype = \"double\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 1\nr_end = 1": "type \"double\"",
		"[[param]]\nname = \"X\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 1\nr_end = 1\nstep = 2":          "unknown key param.step",
		"[[param]]\nname = \"X\"\nstart = 3\nmin = 0\nmax = 2\nc_end = 1\nr_end = 1":                    "outside",
		"":        "no [[param]] table",
		"[[param": "tune: toml",
	} {
		if _, err := ParseTOML(in); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("ParseTOML(%q) = %v, want an error with %q", in, err, wantErr)
		}
	}
}

func FuzzParseTOML(f *testing.F) {
	f.Add("[[param]]\nname = \"X\"\ntype = \"int\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 1\nr_end = 1\n")
	f.Add("[[param]]\nname = \"\"")
	f.Fuzz(func(t *testing.T, s string) {
		params, err := ParseTOML(s)
		if err == nil && CheckParams(params) != nil {
			t.Errorf("ParseTOML(%q) accepted %+v", s, params)
		}
	})
}
