package tune

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Param is one tuned engine option.
type Param struct {
	Name string `json:"name"`
	// Int parameters are sent as integers, rounded stochastically.
	Int bool `json:"int,omitempty"`
	// Start is the value the tune begins from; Min and Max bound it.
	Start float64 `json:"start"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	// CEnd is the perturbation at the last iteration, REnd the learning rate there.
	CEnd float64 `json:"c_end"`
	REnd float64 `json:"r_end"`
}

// ParamError reports a parameter that cannot be read or makes no sense.
type ParamError struct {
	Text string // the parameter as given
	Err  error
}

// Error names the parameter's text, if there is one, and what is wrong with it.
func (e *ParamError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("tune: %v", e.Err)
	}
	return fmt.Sprintf("tune: parameter %q: %v", e.Text, e.Err)
}

// Unwrap returns what is wrong with the parameter.
func (e *ParamError) Unwrap() error { return e.Err }

// ParseParam reads NAME,start,min,max,c_end,r_end (the value of -param or param=). The
// parameter is an integer when start, min and max are all written as integers.
func ParseParam(s string) (Param, error) {
	fields := splitFields(s)
	if len(fields) != 6 {
		return Param{}, &ParamError{s, fmt.Errorf("want NAME,start,min,max,c_end,r_end, got %d fields", len(fields))}
	}
	isInt := true
	for _, f := range fields[1:4] {
		if _, err := strconv.ParseInt(f, 10, 64); err != nil {
			isInt = false
		}
	}
	return newParam(s, fields[0], isInt, fields[1:])
}

// ParseFishtest reads a parameter in fishtest's form: NAME, int|float, start, min, max,
// c_end, r_end.
func ParseFishtest(s string) (Param, error) {
	fields := splitFields(s)
	if len(fields) != 7 {
		return Param{}, &ParamError{s, fmt.Errorf("want NAME, int|float, start, min, max, c_end, r_end, got %d fields", len(fields))}
	}
	var isInt bool
	switch strings.ToLower(fields[1]) {
	case "int":
		isInt = true
	case "float":
	default:
		return Param{}, &ParamError{s, fmt.Errorf("type %q: want int or float", fields[1])}
	}
	return newParam(s, fields[0], isInt, fields[2:])
}

// ParseFishtestLines reads fishtest's parameter block: one parameter a line; blank lines and
// lines that start with # are skipped.
func ParseFishtestLines(text string) ([]Param, error) {
	var params []Param
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := ParseFishtest(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		params = append(params, p)
	}
	return params, CheckParams(params)
}

// CheckParams refuses an empty list and two parameters of one name.
func CheckParams(params []Param) error {
	if len(params) == 0 {
		return &ParamError{"", errors.New("no parameter to tune: give -param NAME,start,min,max,c_end,r_end, or -params FILE in fishtest's form")}
	}
	seen := map[string]bool{}
	for _, p := range params {
		if seen[p.Name] {
			return &ParamError{p.Name, errors.New("given twice")}
		}
		seen[p.Name] = true
	}
	return nil
}

func splitFields(s string) []string {
	fields := strings.Split(s, ",")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return fields
}

// newParam reads start, min, max, c_end and r_end and checks them.
func newParam(text, name string, isInt bool, numbers []string) (Param, error) {
	bad := func(format string, args ...any) (Param, error) {
		return Param{}, &ParamError{text, fmt.Errorf(format, args...)}
	}
	if name == "" || strings.ContainsAny(name, " \t=\"") {
		return bad("name %q: want a non-empty option name without spaces, quotes or =", name)
	}
	var v [5]float64
	labels := [5]string{"start", "min", "max", "c_end", "r_end"}
	for i, f := range numbers {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return bad("%s %q: want a finite number", labels[i], f)
		}
		v[i] = x
	}
	p := Param{Name: name, Int: isInt, Start: v[0], Min: v[1], Max: v[2], CEnd: v[3], REnd: v[4]}
	switch {
	case p.Min >= p.Max:
		return bad("min %g must be below max %g", p.Min, p.Max)
	case p.Start < p.Min || p.Start > p.Max:
		return bad("start %g is outside [%g, %g]", p.Start, p.Min, p.Max)
	case p.CEnd <= 0:
		return bad("c_end %g must be above 0", p.CEnd)
	case p.REnd <= 0:
		return bad("r_end %g must be above 0", p.REnd)
	}
	return p, nil
}

// String writes the parameter as ParseParam reads it, its type aside.
func (p Param) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return strings.Join([]string{p.Name, f(p.Start), f(p.Min), f(p.Max), f(p.CEnd), f(p.REnd)}, ",")
}

// clamp keeps x in the parameter's range.
func (p Param) clamp(x float64) float64 { return min(max(x, p.Min), p.Max) }
