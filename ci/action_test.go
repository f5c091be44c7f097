package ci

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/proc"

	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/testenv"
)

// TestMain lets the test binary be a fake UHP engine, for the action's checks.
func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	uhpfake.Main()
	os.Exit(m.Run())
}

// fakeEngine is the action's engine input for a fake UHP engine from this test binary: a
// compliant one that plays random moves, or, with fault, one that misbehaves.
func fakeEngine(faults ...uhpfake.Fault) string {
	return "cmd=" + os.Args[0] + " env=" + uhpfake.Env(uhpfake.Config{ID: "fake v1.0", Play: "random", Seed: 7, Faults: faults})
}

// The action at the repository's root, the script its step runs, and the example workflow of
// docs/statistics.md.
const (
	repoRoot     = ".."
	actionFile   = repoRoot + "/action.yml"
	workflowFile = repoRoot + "/docs/examples/strength-gate.yml"
	actionUses   = "OWNER/hive-arbiter@"
)

// yamlLine is a line of a YAML file that holds something: its indentation and its text.
type yamlLine struct {
	indent int
	text   string
}

// parseYAML reads the block YAML that action.yml and the workflow are written in: mappings,
// sequences, plain and quoted scalars, comments. (The standard library has no YAML, and this
// is all these files use; a file beyond it fails the test.)
func parseYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []yamlLine
	for _, l := range strings.Split(string(data), "\n") {
		text := strings.TrimLeft(strings.TrimRight(l, " \r"), " ")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		lines = append(lines, yamlLine{len(strings.TrimRight(l, " \r")) - len(text), text})
	}
	v, rest := parseBlock(t, lines, 0)
	m, ok := v.(map[string]any)
	if len(rest) > 0 || !ok {
		t.Fatalf("%s: cannot read the YAML from %q on", path, rest[0].text)
	}
	return m
}

func parseBlock(t *testing.T, ls []yamlLine, indent int) (any, []yamlLine) {
	if len(ls) > 0 && strings.HasPrefix(ls[0].text, "- ") {
		var list []any
		for len(ls) > 0 && ls[0].indent == indent && strings.HasPrefix(ls[0].text, "- ") {
			ls[0] = yamlLine{indent + 2, strings.TrimSpace(ls[0].text[2:])}
			var item any
			item, ls = parseBlock(t, ls, indent+2)
			list = append(list, item)
		}
		return list, ls
	}
	m := map[string]any{}
	for len(ls) > 0 && ls[0].indent == indent && !strings.HasPrefix(ls[0].text, "- ") {
		key, value, ok := strings.Cut(ls[0].text, ":")
		if !ok {
			t.Fatalf("YAML: %q is not key: value", ls[0].text)
		}
		ls = ls[1:]
		value = strings.TrimSpace(value)
		switch {
		case value != "":
			m[key] = unquoteYAML(t, value)
		case len(ls) > 0 && (ls[0].indent > indent || ls[0].indent == indent && strings.HasPrefix(ls[0].text, "- ")):
			m[key], ls = parseBlock(t, ls, ls[0].indent)
		default:
			m[key] = ""
		}
	}
	return m, ls
}

func unquoteYAML(t *testing.T, s string) string {
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("YAML: %s: %v", s, err)
		}
		return u
	}
	return s
}

// at follows a path of keys and indexes into parsed YAML.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok || m[k] == nil {
				t.Fatalf("YAML: no %q in %v", k, v)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("YAML: no item %d in %v", k, v)
			}
			v = l[k]
		}
	}
	return v
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// actionStep is the action's shell step: its command and its environment, with the inputs'
// expressions still in them.
type actionStep struct {
	run    string
	env    map[string]any
	inputs map[string]string // each input's default
}

// readAction reads action.yml and checks how its parts fit: every input it uses is declared
// and every declared input used, the outputs are the shell step's, Go is set up from the
// action's own go.mod, and the artifact is the report folder.
func readAction(t *testing.T) actionStep {
	t.Helper()
	action := parseYAML(t, actionFile)
	data, _ := os.ReadFile(actionFile)
	step := actionStep{inputs: map[string]string{}}
	for name, spec := range at(t, action, "inputs").(map[string]any) {
		def, _ := spec.(map[string]any)["default"].(string)
		step.inputs[name] = def
		if !strings.Contains(string(data), "inputs."+name+" }}") {
			t.Errorf("action.yml declares the input %s and never uses it", name)
		}
	}
	for _, m := range expression.FindAllStringSubmatch(string(data), -1) {
		for _, word := range strings.Fields(m[1]) {
			if name, ok := strings.CutPrefix(word, "inputs."); ok {
				if _, declared := step.inputs[name]; !declared {
					t.Errorf("action.yml uses the undeclared input %s", name)
				}
			}
		}
	}
	if at(t, action, "runs", "using") != "composite" {
		t.Errorf("action.yml is not a composite action")
	}
	for _, s := range at(t, action, "runs", "steps").([]any) {
		s := s.(map[string]any)
		switch uses, _ := s["uses"].(string); {
		case strings.HasPrefix(uses, "actions/setup-go@"):
			if got := at(t, s, "with", "go-version-file"); got != "${{ github.action_path }}/go.mod" {
				t.Errorf("setup-go reads %v, want the action's go.mod", got)
			}
		case strings.HasPrefix(uses, "actions/upload-artifact@"):
			if got := at(t, s, "with", "path"); got != "${{ steps.arbiter.outputs.report-dir }}" {
				t.Errorf("the artifact is %v, want the report folder", got)
			}
		case s["shell"] == "bash":
			if s["id"] != "arbiter" {
				t.Errorf("the shell step's id is %v, want arbiter (the outputs name it)", s["id"])
			}
			step.run, step.env = s["run"].(string), s["env"].(map[string]any)
		}
	}
	if step.run == "" {
		t.Fatal("action.yml has no shell step")
	}
	for _, out := range []string{"decision", "exit-code", "report-dir"} {
		if got := at(t, action, "outputs", out, "value"); got != "${{ steps.arbiter.outputs."+out+" }}" {
			t.Errorf("output %s is %v", out, got)
		}
	}
	return step
}

// actionRun is what a run of the action's step left.
type actionRun struct {
	code    int
	stdout  string
	outputs map[string]string // GITHUB_OUTPUT
	summary string            // GITHUB_STEP_SUMMARY
	dir     string            // RUNNER_TEMP
}

// runAction runs the action's shell step as GitHub runs it: bash, in the workspace, with its
// env: block expanded from the inputs (given, or their defaults) and the variables GitHub sets
// pointing at temporary files.
func runAction(t *testing.T, step actionStep, inputs map[string]string) actionRun {
	t.Helper()
	for name := range inputs {
		if _, ok := step.inputs[name]; !ok {
			t.Fatalf("no input %s in action.yml", name)
		}
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := actionRun{dir: dir, outputs: map[string]string{}}
	output, summary := filepath.Join(dir, "github-output"), filepath.Join(dir, "step-summary.md")
	for _, f := range []string{output, summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			x := strings.TrimSpace(expression.FindStringSubmatch(e)[1])
			if name, ok := strings.CutPrefix(x, "inputs."); ok {
				if v, given := inputs[name]; given {
					return v
				}
				return step.inputs[name]
			}
			if x == "github.action_path" {
				return root
			}
			t.Fatalf("the test cannot expand %s", e)
			return ""
		})
	}
	bash := testenv.NeedProgram(t, "bash", "apt-get install bash coreutils")
	cmd := exec.Command(bash, "-e", "-c", expand(step.run))
	cmd.Dir = dir // the workspace
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_ACTION_PATH="+root, "GITHUB_OUTPUT="+output,
		"GITHUB_STEP_SUMMARY="+summary, "RUNNER_TEMP="+dir, "CI=true")
	for k, v := range step.env {
		cmd.Env = append(cmd.Env, k+"="+expand(v.(string)))
	}
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	err = cmd.Run()
	r.stdout = stdout.String()
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(output)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			r.outputs[k] = v
		}
	}
	md, _ := os.ReadFile(summary)
	r.summary = string(md)
	return r
}

// workflowInputs returns the with: inputs of the example workflow's steps that use the
// action, by step name.
func workflowInputs(t *testing.T) map[string]map[string]string {
	t.Helper()
	wf := parseYAML(t, workflowFile)
	uses := map[string]map[string]string{}
	for _, s := range at(t, wf, "jobs", "gate", "steps").([]any) {
		s := s.(map[string]any)
		if u, _ := s["uses"].(string); strings.HasPrefix(u, actionUses) {
			with := map[string]string{}
			for k, v := range at(t, s, "with").(map[string]any) {
				with[k] = v.(string)
			}
			uses[s["name"].(string)] = with
		}
	}
	return uses
}

// TestAction runs the step of action.yml as GitHub would, with the inputs of the example
// workflow's two steps: the check of a compliant fake engine passes and that of one that
// answers an illegal move fails (exit 5); in the gate (its engines played by bundled hivebot,
// at depth 1 to be quick) the same build against itself passes (H1, exit 0) and a random mover
// against hivebot fails (H0, exit 3). Each run leaves the outputs, the JUnit file that
// validates, the Markdown in the step summary, the annotations, and the report folder the
// artifact uploads. (The checks use fakes: hivebot's check has a row timed to the second,
// which a loaded machine can fail; TestCheckJUnit in cmd/arbiter checks hivebot.)
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arbiter and plays two gates (-short)")
	}
	step := readAction(t)
	steps := workflowInputs(t)
	check, gate := steps["Does the head still speak UHP?"], steps["Regression gate"]
	if check == nil || gate == nil || check["mode"] != "check" || gate["baseline"] == "" {
		t.Fatalf("the example workflow's action steps are not a check and a gate: %v", steps)
	}
	hivebot := "builtin=hivebot"
	withEngines := func(with map[string]string, engine, baseline string) map[string]string {
		m := map[string]string{}
		for k, v := range with {
			m[k] = v
		}
		m["engine"] = engine
		if m["baseline"] != "" {
			m["baseline"], m["limit"] = baseline, "depth=1"
		}
		return m
	}
	tests := []struct {
		name     string
		inputs   map[string]string
		code     int
		decision string
		files    []string
	}{
		{"check", withEngines(check, fakeEngine(), ""), 0, "pass", []string{"check.xml", "check.txt"}},
		{"check fails", withEngines(check, fakeEngine(uhpfake.Fault{On: "bestmove", Print: []string{"wQ wQ", "ok"}, Then: "silent"}), ""),
			5, "fail", []string{"check.xml", "check.txt"}},
		{"gate no-op", withEngines(gate, hivebot, hivebot), 0, "H1", []string{"gate.xml", "gate.jsonl", "gate.pgn", "gate.json", "report.html", "summary.md"}},
		{"gate regression", withEngines(gate, hivebot+" arg=-profile arg=random", hivebot), 3, "H0", []string{"gate.xml", "summary.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runAction(t, step, tc.inputs)
			if r.code != tc.code || r.outputs["decision"] != tc.decision || r.outputs["exit-code"] != strconv.Itoa(tc.code) {
				t.Fatalf("exit %d, outputs %v; want exit %d, decision %s\n%s", r.code, r.outputs, tc.code, tc.decision, r.stdout)
			}
			report := r.outputs["report-dir"]
			if !strings.HasPrefix(report, r.dir) {
				t.Fatalf("report-dir %q is not under RUNNER_TEMP", report)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(report, f)); err != nil {
					t.Errorf("the report folder lacks %s: %v", f, err)
				}
			}
			junit := filepath.Join(report, tc.files[0])
			testenv.ValidateXML(t, junit, "testdata/junit.xsd")
			if tc.inputs["mode"] == "check" {
				if failed := strings.Count(r.stdout, "| FAIL "); (failed > 0) != (tc.code != 0) || strings.Count(r.stdout, "\n::error title=arbiter check ") != failed {
					t.Errorf("%d failed rows, %d error annotations, exit %d:\n%s", failed, strings.Count(r.stdout, "::error "), tc.code, r.stdout)
				}
				return
			}
			md, err := os.ReadFile(filepath.Join(report, "summary.md"))
			if err != nil || r.summary != string(md) {
				t.Errorf("the step summary is not the gate's Markdown (%v):\n%s", err, r.summary)
			}
			word := map[int]string{0: "passed", 3: "failed"}[tc.code]
			if !strings.Contains(r.summary, "gate "+word+": ") || !strings.Contains(r.stdout, fmt.Sprintf("::%s title=Hive Arbiter gate %s::", map[int]string{0: "notice", 3: "error"}[tc.code], word)) {
				t.Errorf("no %s heading in the summary or no annotation:\n%s\n%s", word, r.summary, r.stdout)
			}
			if !slices.ContainsFunc(strings.Split(r.stdout, "\n"), func(l string) bool { return strings.HasPrefix(l, "LLR: ") }) {
				t.Errorf("the log has no periodic result block with the LLR:\n%s", r.stdout)
			}
		})
	}
}

// A gate on a move time takes the margin arbiter check measures of the new build, under the
// gate's limit and concurrency: the arbiter's default, 0.2 s, would lose games on time of an
// engine whose overshoot grows. A gate given margin= keeps its own and runs no check.
func TestActionGateTakesTheCheckedMargin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arbiter, checks an engine and plays a gate (-short)")
	}
	step := readAction(t)
	// A move time of 0.3 s, over which the engine runs 0.2 s: check advises 2 × 0.2 + 0.25 s.
	late := "cmd=" + os.Args[0] + " env=" + uhpfake.Env(uhpfake.Config{ID: "late v1.0", Play: "random", Seed: 7, Think: true, Overshoot: 200 * time.Millisecond})
	// The shipped gate's configuration, its games cut short: 8 plies.
	gateConfig, err := os.ReadFile(repoRoot + "/configs/ci-gate.toml")
	if err != nil || !bytes.Contains(gateConfig, []byte("max_plies = 300")) {
		t.Fatalf("configs/ci-gate.toml has no max_plies = 300 to shorten (%v)", err)
	}
	config := filepath.Join(t.TempDir(), "gate.toml")
	if err := os.WriteFile(config, bytes.Replace(gateConfig, []byte("max_plies = 300"), []byte("max_plies = 8"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, limit string
		checks      bool // the gate measures its margin with a check
	}{
		{"measured", "st=0.3", true},
		{"given", "st=0.3 margin=2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Asked to end undecided at its cap of one pair: a game lost on time ends the strict
			// gate as engine-failure, so "inconclusive" says no game was lost.
			r := runAction(t, step, map[string]string{"mode": "gate", "engine": late, "baseline": late, "limit": tc.limit, "rounds": "1", "at-cap": "inconclusive", "config": config})
			if r.outputs["decision"] != "inconclusive" {
				t.Fatalf("exit %d, outputs %v; want the gate inconclusive at its cap of one pair, with no time loss\n%s", r.code, r.outputs, r.stdout)
			}
			_, checked := os.Stat(filepath.Join(r.outputs["report-dir"], "gate-check.txt"))
			switch {
			case !tc.checks && (checked == nil || strings.Contains(r.stdout, "The gate forgives")):
				t.Errorf("a gate given margin= ran a check for one:\n%s", r.stdout)
			case tc.checks:
				// At least twice the overshoot and a quarter second, 0.7 s; more on a loaded machine.
				m := regexp.MustCompile(`The gate forgives each move ([0-9.]+) s of lateness: the margin arbiter check measured of the new build`).FindStringSubmatch(r.stdout)
				if m == nil {
					t.Fatalf("the gate does not say the margin it takes from the check:\n%s", r.stdout)
				}
				if margin, err := strconv.ParseFloat(m[1], 64); err != nil || margin < 0.7 {
					t.Errorf("the gate takes margin %s (%v), which does not cover twice an overshoot of 0.2 s and a quarter second", m[1], err)
				}
			}
		})
	}
}
