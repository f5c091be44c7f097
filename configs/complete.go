package configs

import (
	"strings"

	"hivearbiter/arbiter/driver"
)

// CompletionWords are the key=value words that shell completion offers after each of flags,
// which take an engine's words (-engine, -each): every key of engineWords, option. for
// option.NAME=, the protocols' own settings, and the values that are known (proto=uhp,
// builtin=hivebot, restart=on).
func CompletionWords(flags ...string) map[string][]string {
	var words []string
	for _, w := range engineWords {
		if name, ok := strings.CutSuffix(w, "NAME"); ok {
			words = append(words, name)
			continue
		}
		words = append(words, w+"=")
	}
	for _, s := range driver.Settings() {
		for _, v := range s.Values {
			words = append(words, s.Name+"="+v)
		}
	}
	words = append(words, "builtin=hivebot", "restart=on", "restart=off")
	for _, p := range driver.Protocols() {
		words = append(words, "proto="+p)
	}
	m := make(map[string][]string, len(flags))
	for _, f := range flags {
		m[f] = words
	}
	return m
}
