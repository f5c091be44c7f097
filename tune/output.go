package tune

import (
	"fmt"
	"strconv"
	"strings"
)

// Words writes values as option.NAME=V words, as -engine takes them.
func Words(params []Param, theta []float64) string {
	words := make([]string, len(params))
	for i, p := range params {
		words[i] = "option." + p.Name + "=" + p.Final(theta[i])
	}
	return strings.Join(words, " ")
}

// TOML writes values as an engine's options line of a configuration file.
func TOML(params []Param, theta []float64) string {
	pairs := make([]string, len(params))
	for i, p := range params {
		key := p.Name
		if strings.Trim(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
			key = strconv.Quote(key) // TOML's bare keys are letters, digits, _ and -
		}
		pairs[i] = fmt.Sprintf("%s = %s", key, strconv.Quote(p.Final(theta[i])))
	}
	return "options = { " + strings.Join(pairs, ", ") + " }"
}
