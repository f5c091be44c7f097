package tune

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/BurntSushi/toml"
)

// tomlParam is one [[param]] table; a nil field was not given.
type tomlParam struct {
	Name  string   `toml:"name"`
	Type  string   `toml:"type"`
	Start *float64 `toml:"start"`
	Min   *float64 `toml:"min"`
	Max   *float64 `toml:"max"`
	CEnd  *float64 `toml:"c_end"`
	REnd  *float64 `toml:"r_end"`
}

// ParseTOML reads parameters from TOML, one table each:
//
//	[[param]]
//	name = "Aggression"
//	type = "int"   # or "float", the default
//	start = 20
//	min = 0
//	max = 100
//	c_end = 5
//	r_end = 0.002
//
// Every key but type is required; unknown keys are errors.
func ParseTOML(data string) ([]Param, error) {
	var f struct {
		Param []tomlParam `toml:"param"`
	}
	md, err := toml.Decode(data, &f)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, fmt.Errorf("tune: unknown key %s (known: param.name, type, start, min, max, c_end, r_end)", undecoded[0])
	}
	var params []Param
	for i, t := range f.Param {
		p, err := t.param(i + 1)
		if err != nil {
			return nil, err
		}
		params = append(params, p)
	}
	if len(params) == 0 {
		return nil, &ParamError{"", errors.New("no [[param]] table")}
	}
	return params, CheckParams(params)
}

// param checks the table, the n-th, and reads it as ParseParam would.
func (t tomlParam) param(n int) (Param, error) {
	var numbers []string
	keys := []string{"start", "min", "max", "c_end", "r_end"}
	for i, v := range []*float64{t.Start, t.Min, t.Max, t.CEnd, t.REnd} {
		if v == nil {
			return Param{}, &ParamError{t.Name, fmt.Errorf("[[param]] %d has no %s", n, keys[i])}
		}
		numbers = append(numbers, strconv.FormatFloat(*v, 'g', -1, 64))
	}
	switch t.Type {
	case "int":
		return newParam(t.Name, t.Name, true, numbers)
	case "float", "":
		return newParam(t.Name, t.Name, false, numbers)
	}
	return Param{}, &ParamError{t.Name, fmt.Errorf("type %q: want int or float", t.Type)}
}
